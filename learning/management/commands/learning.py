"""``python manage.py learning <review|status|apply|dismiss|undo|settings|verify> AGENT``.

Exit codes: 0 done, 2 bad input or a refusal, 3 version conflict (reload and retry).
Messages are one line; ``--json`` prints a JSON document instead.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from personaweb.cli import EXIT_CONFLICT, command_error
from personaweb.errors import Refusal


class Command(BaseCommand):
    help = "Persona learning: run a review, see the status, decide proposals, change settings, verify quotes."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="sub", required=True)

        def agent_parser(name: str, help_text: str):
            p = sub.add_parser(name, help=help_text)
            p.add_argument("agent", help="agent slug")
            return p

        p = agent_parser("review", "run one review now, synchronously, and print the outcome")
        p.add_argument("--json", action="store_true")
        p.add_argument(
            "--whole-history",
            action="store_true",
            help="read every eligible conversation (at most 200), not only the most recent max_threads",
        )
        p = agent_parser("status", "settings, counters, waiting proposals, rules, recent reviews")
        p.add_argument("--json", action="store_true")
        for name, text in (
            ("apply", "apply a waiting proposal (the oldest without PROPOSAL)"),
            ("dismiss", "turn a waiting proposal down; it is never proposed again"),
            ("undo", "undo a learned change (the latest without PROPOSAL)"),
        ):
            p = agent_parser(name, text)
            p.add_argument("proposal", nargs="?", type=int, help="proposal id")
            p.add_argument("--by", required=True, help="who decides (a rule owner for rules)")
            if name == "apply":
                p.add_argument("--text", help="a standing rule in the owner's own words")
        p = agent_parser("settings", "show or change learning settings")
        p.add_argument("--set", action="extend", nargs="+", default=[], metavar="KEY=VALUE")
        p.add_argument("--by", default="cli")
        p.add_argument("--json", action="store_true")
        p = agent_parser("verify", "run verifier and policy on a hand-written proposal")
        p.add_argument("--sentence", required=True, help="the sentence (or rule with --rule)")
        p.add_argument("--quote", action="append", required=True, help="a quote (repeat for more)")
        p.add_argument("--field", default="goals", choices=["goals", "background"])
        p.add_argument(
            "--rule", action="store_true", help="check it as a standing rule (corrections only)"
        )
        p.add_argument("--json", action="store_true")

    # ------------------------------------------------------------------------------
    def handle(self, *args: Any, **opts: Any) -> None:
        from persona.selectors import agent_get_by_slug
        from persona.services import PersonaVersionConflict

        agent = agent_get_by_slug(opts["agent"])
        if agent is None:
            raise command_error(
                f"No agent with the slug {opts['agent']!r}; `python manage.py persona show` lists them."
            )
        try:
            getattr(self, f"do_{opts['sub']}")(agent, opts)
        except PersonaVersionConflict as exc:
            raise command_error(str(exc), EXIT_CONFLICT) from None
        except Refusal as exc:
            raise command_error(str(exc)) from None

    def _print(self, data: Any) -> None:
        self.stdout.write(json.dumps(data, indent=2, default=str, ensure_ascii=False))

    def do_review(self, agent, opts) -> None:
        from learning.models import Review
        from learning.selectors import review_as_dict
        from learning.services import review_run

        review = review_run(
            agent=agent,
            trigger=Review.Trigger.CLI,
            requested_by="cli",
            whole_history=bool(opts.get("whole_history")),
        )
        if opts["json"]:
            self._print(review_as_dict(review))
        else:
            self.stdout.write(
                f"review {review.pk} of {agent.slug}: {review.outcome} — {review.reason} "
                f"({review.threads_read} conversations, {review.messages_read} messages, "
                f"{review.model_calls} proposer calls)"
            )

    def do_status(self, agent, opts) -> None:
        from learning.selectors import learning_status

        status = learning_status(agent=agent)
        if opts["json"]:
            self._print(status)
            return
        s = status["settings"]
        w = self.stdout.write
        w(
            f"{agent.slug}: persona v{status['persona_version']}, mode {s['mode']}, proposer {s['proposer']}, "
            f"turns since review {s['turns_since_review']}/{s['every_n_turns']}, due {s['due_at'] or '-'}"
        )
        w(
            f"settings: min_conversations={s['min_conversations']} max_threads={s['max_threads']} "
            f"max_messages_per_thread={s['max_messages_per_thread']} across_users={s['across_users']} "
            f"min_users={s['min_users']} standing_rules={s['standing_rules']} "
            f"min_corrections={s['min_corrections']} rule_owners={','.join(s['rule_owners']) or '(any named person)'}"
        )
        w(f"waiting ({len(status['waiting'])}):")
        for p in status["waiting"]:
            convs = len({e.get("conversation_id") for e in p["evidence"]})
            users = len({e.get("principal_id") for e in p["evidence"]})
            w(
                f"  #{p['id']} {p['kind']} [{p['field']}] {p['text']!r} ({convs} conversation{'s' if convs != 1 else ''}, {users} {'person' if users == 1 else 'people'})"
            )
            for e in p["evidence"]:
                w(
                    f'      "{e["quote"]}" — {e["conversation"]} (user {e["user"]}, message {e["message_id"]} [{e["start"]}:{e["end"]}])'
                )
        w(f"rules in force ({len(status['rules_in_force'])}):")
        for rule in status["rules_in_force"]:
            w(f"  - {rule}")
        w("recent reviews:")
        for r in status["recent_reviews"]:
            w(
                f"  #{r['id']} {r['trigger']} {r['status']} {r['outcome'] or '-'}: {r['reason']} (calls {r['model_calls']})"
            )

    def _proposal(self, agent, opts, *, applied: bool = False):
        from learning.models import Proposal
        from learning.selectors import proposal_get, proposal_oldest_waiting

        if opts.get("proposal") is None:
            if applied:
                return None
            proposal = proposal_oldest_waiting(agent=agent)
            if proposal is None:
                raise command_error(f"No proposal is waiting for {agent.slug}.")
            return proposal
        proposal = proposal_get(agent=agent, proposal_id=opts["proposal"])
        if proposal is None:
            raise command_error(
                f"Proposal {opts['proposal']} does not exist for {agent.slug}; see `learning status {agent.slug}`."
            )
        assert isinstance(proposal, Proposal)
        return proposal

    def do_apply(self, agent, opts) -> None:
        from learning.services import proposal_apply

        proposal = proposal_apply(
            proposal=self._proposal(agent, opts), by=opts["by"], text=opts.get("text")
        )
        self.stdout.write(
            f"applied proposal {proposal.pk} ({proposal.kind}) as persona version {proposal.applied_version}, by {proposal.decided_by}"
        )

    def do_dismiss(self, agent, opts) -> None:
        from learning.services import proposal_dismiss

        proposal = proposal_dismiss(proposal=self._proposal(agent, opts), by=opts["by"])
        self.stdout.write(f"turned down proposal {proposal.pk}; it will not be proposed again")

    def do_undo(self, agent, opts) -> None:
        from learning.services import change_undo

        version = change_undo(
            agent=agent, by=opts["by"], proposal=self._proposal(agent, opts, applied=True)
        )
        self.stdout.write(
            f"undone: persona version {version.version} takes back proposal {version.proposal_id}"
        )

    def do_settings(self, agent, opts) -> None:
        from learning.services import (
            learning_settings_get,
            learning_settings_update,
            settings_as_dict,
        )

        values: dict[str, str] = {}
        for item in opts["set"]:
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise command_error(f"--set takes KEY=VALUE; {item!r} has no '='.")
            values[key.strip()] = value.strip()
        settings = (
            learning_settings_update(agent=agent, values=values, by=opts["by"])
            if values
            else learning_settings_get(agent)
        )
        data = settings_as_dict(settings)
        if opts["json"]:
            self._print(data)
        else:
            self.stdout.write(
                " ".join(
                    f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in data.items()
                )
            )

    def do_verify(self, agent, opts) -> None:
        from learning import policy
        from learning.selection import select_corpus
        from learning.services import learning_settings_get
        from memory.verification import verify_quotes
        from persona.selectors import persona_head
        from persona.services import persona_snapshot

        settings = learning_settings_get(agent)
        corpus = select_corpus(agent=agent, settings=settings)
        persona = persona_snapshot(persona_head(agent=agent))
        text = " ".join(opts["sentence"].split())
        rule = opts["rule"]
        verification = verify_quotes(
            text=text,
            quotes=[{"quote": q, "conversation": None} for q in opts["quote"]],
            corpus=corpus,
            min_conversations=settings.min_corrections if rule else settings.min_conversations,
            min_users=settings.min_users if settings.across_users else None,
            corrections_only=rule,
        )
        if rule:
            refusal = policy.rule_refusal(
                rule=text, persona=persona, known_names=corpus.known_names
            )
        else:
            refusal = policy.sentence_refusal(
                sentence=text, field=opts["field"], persona=persona, known_names=corpus.known_names
            )
        ok = verification.ok and not refusal and not corpus.skipped_reason
        data: dict[str, Any] = {
            "ok": ok,
            "policy": refusal or "",
            "skipped": corpus.skipped_reason,
            "verification": verification.reason,
            "conversations": verification.conversations,
            "people": verification.users,
            "read": {
                "conversations": corpus.threads_read,
                "messages": corpus.messages_read,
                "excluded": corpus.excluded,
            },
            "quotes": [
                {
                    "quote": v.quote,
                    "ok": v.ok,
                    "reason": v.reason,
                    "conversation": v.conversation_label,
                    "message_id": v.message_id,
                    "user": v.principal_external_id,
                    "start": v.start,
                    "end": v.end,
                    "counted": v.counted,
                }
                for v in verification.verdicts
            ],
        }
        if opts["json"]:
            self._print(data)
        else:
            w = self.stdout.write
            w(
                f"{'accepted' if ok else 'refused'}: {corpus.skipped_reason or refusal or verification.reason or 'every check passed'}"
            )
            for i, q in enumerate(data["quotes"], start=1):
                if q["ok"]:
                    w(
                        f"  quote {i} ok: {q['conversation']} message {q['message_id']} [{q['start']}:{q['end']}] user {q['user']}"
                    )
                else:
                    w(f"  quote {i} rejected: {q['reason']}")
        if not ok:
            raise command_error("The proposal would be refused; the reasons are above.")
