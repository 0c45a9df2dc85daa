#!/usr/bin/env python
"""Dashboard page figures (issue 5, acceptance 5).

    .venv/bin/python bench/pages.py                      # SQLite, scratch file in /tmp
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pw_x .venv/bin/python bench/pages.py

On SQLite the database is a temporary file; with DATABASE_URL a throwaway database
(``test_<name>``, made and dropped by Django's test-database machinery) is used, so the
database named in the URL is not touched.

Builds 1,000 agents in two tenants (800 + 200), 20 persona versions each (20,000, some
learned with evidence quotes), 400 principals, 5,000 conversations of 20 messages
(100,000), 300 waiting proposals, 200 applied ones, 5,000 reviews; then, with
``django.test.Client`` logged in as an operator of the larger tenant (and as a
superuser), requests every dashboard page ``--warmup`` times, then ``--runs`` times,
and prints per page the median and p95 server time (the whole request through the
middleware, template rendered), the median time spent in SQL, and the query count,
against the goal: p95 < 100 ms and at most 15 queries. Misses are marked ``MISS``.

The agent page runs the real injection scan (semantic layer on). Its first request in
the process loads the embedding model; that time is printed on its own. The scan
caches results per text, so the agent page is also measured on a different agent per
request (``agent (another agent each time)``): the first view of an agent in a process.

``--profile LABEL`` prints a cProfile of that page (operator) and its slowest queries.

``--smoke`` (CI): 20 agents, one request per page and user, no warm-up; exits non-zero
when a page answers anything but 200. Figures printed, never judged.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

N_AGENTS = 1_000
VERSIONS = 20
CONVS_PER_AGENT = 5
MESSAGES_PER_CONV = 20
PRINCIPALS = (300, 100)  # per tenant
REVIEWS_PER_AGENT = 5


def smoke_sizes() -> None:
    """Tiny data for ``--smoke``: every builder and page still runs (the learned versions
    are v12 and v17, so VERSIONS stays 20)."""
    global N_AGENTS, CONVS_PER_AGENT, PRINCIPALS, REVIEWS_PER_AGENT
    N_AGENTS, CONVS_PER_AGENT, PRINCIPALS, REVIEWS_PER_AGENT = 20, 2, (10, 5), 2


GOAL_MS = 100.0
GOAL_QUERIES = 15
T_END = datetime(2026, 11, 27, 17, 0, tzinfo=UTC)

# --- realistic persona text ---------------------------------------------------------------

DOMAINS: list[dict[str, Any]] = [
    {
        "name": "Claims desk",
        "role": "Assistant to the claims handlers of a home and motor insurer",
        "goals": [
            "Draft plain-English customer updates for open home and motor claims.",
            "Summarise long claim threads into a short status note for handlers.",
            "Check incoming documents against the checklist of the claim type.",
            "Prepare the weekly report of claims waiting on the customer.",
            "Help new handlers find the policy clause that applies to a question.",
        ],
        "background": [
            "Works on the claims desk of a mid-sized home and motor insurer.",
            "The desk handles about four hundred open claims at a time.",
            "Handlers work in two shifts and hand over through written notes.",
            "Most customers write by email; some call and the call notes are pasted in.",
            "Storm season brings sudden peaks of roof and flood claims.",
        ],
        "guardrails": [
            "Never disclose another customer's claim, address or policy number.",
            "Quote the policy clause before saying whether something is covered.",
            "Never give a final coverage decision; say a claims handler decides.",
            "Send a customer who wants new bank details on file to the secure form.",
            "Say plainly when you do not know and offer to pass the question on.",
            "Do not promise a payout date.",
        ],
        "theme": "draft a customer update for claim",
        "task": "Could you draft a customer update for claim {n}? {detail}",
        "details": [
            "The loss adjuster visits on Tuesday.",
            "The report is still with the surveyor.",
            "The customer asked twice this week.",
            "We are waiting for the plumber's invoice.",
        ],
        "correction": "Thanks, but please write dates in full next time.",
        "learned": "Drafts customer updates for open claims, one short paragraph each.",
        "rule": "Write dates in full, with the day of the week.",
    },
    {
        "name": "Studio helper",
        "role": "Personal assistant to the owner of a small ceramics studio",
        "goals": [
            "Keep the studio calendar of classes, firings and markets up to date.",
            "Answer stockists' questions about lead times and minimum orders.",
            "Draft the monthly newsletter from the owner's notes.",
            "Track clay, glaze and packaging stock and flag what runs low.",
            "Prepare invoices for wholesale orders from the order sheet.",
        ],
        "background": [
            "The studio makes tableware by hand and sells to twelve stockists.",
            "Two kilns run most days; a glaze firing takes about fourteen hours.",
            "The owner teaches evening classes on Tuesdays and Thursdays.",
            "Wholesale orders are paid thirty days after delivery.",
            "Markets happen on the first Saturday of the month in spring and summer.",
        ],
        "guardrails": [
            "Never share one stockist's prices or terms with another stockist.",
            "Do not place orders or pay suppliers; draft them for the owner.",
            "Keep students' contact details out of anything sent to stockists.",
            "Say when a figure is an estimate rather than a quoted price.",
            "Ask before cancelling or moving a class booking.",
            "Do not give health advice about glaze materials; point to the data sheet.",
        ],
        "theme": "price this wholesale order for",
        "task": "Can you price this wholesale order for stockist {n}? {detail}",
        "details": [
            "Forty mugs and twelve serving bowls.",
            "They want it before the Christmas market.",
            "Same glaze as last time, the speckled white.",
            "Half of it is the new pasta bowls.",
        ],
        "correction": "Close, but please round prices to the nearest 50p.",
        "learned": "Prices wholesale orders for stockists from the order sheet.",
        "rule": "Round prices to the nearest 50p.",
    },
    {
        "name": "IT helpdesk",
        "role": "First-line helpdesk assistant for the staff of a regional college",
        "goals": [
            "Walk staff through password resets and multi-factor sign-in problems.",
            "Log tickets with the details second-line support asks for.",
            "Explain how to book laptops and projectors for a classroom.",
            "Answer questions about the printing quota and how to top it up.",
            "Point staff to the right how-to page in the knowledge base.",
        ],
        "background": [
            "The college has three sites and about nine hundred staff.",
            "Second-line support works office hours; nights are covered by a rota.",
            "Most requests arrive by chat during the first week of term.",
            "Staff laptops are managed centrally and reimaged each summer.",
            "The knowledge base is updated by the support team every Friday.",
        ],
        "guardrails": [
            "Never ask for or repeat a password, one-time code or recovery key.",
            "Do not change anyone's account permissions; raise a ticket instead.",
            "Keep students' personal data out of tickets unless it is required.",
            "Send anything about a suspected breach to the security inbox at once.",
            "Say which site's rules apply when the sites differ.",
            "Do not promise a fix time; quote the service level instead.",
        ],
        "theme": "log a ticket for the projector in room",
        "task": "Please log a ticket for the projector in room {n}. {detail}",
        "details": [
            "It shows no picture from the lectern laptop.",
            "The lamp warning light is on again.",
            "The remote has gone missing too.",
            "It switches off after ten minutes.",
        ],
        "correction": "Good, but please add the site name to the ticket title.",
        "learned": "Logs classroom equipment faults as tickets for second-line support.",
        "rule": "Put the site name in the title of every ticket.",
    },
    {
        "name": "Clinic reception",
        "role": "Front-desk assistant for a physiotherapy clinic",
        "goals": [
            "Book, move and cancel appointments within the clinic's rules.",
            "Send reminders the day before with what to bring and wear.",
            "Answer questions about prices, insurance and referral letters.",
            "Keep the waiting list and offer freed slots in order.",
            "Prepare the end-of-day list of unpaid appointments.",
        ],
        "background": [
            "The clinic has four physiotherapists and one sports massage therapist.",
            "First appointments last forty-five minutes, follow-ups thirty.",
            "Most patients come from two local GP practices and a running club.",
            "Cancellations with less than a day's notice are charged in full.",
            "The clinic is closed on Sundays and bank holidays.",
        ],
        "guardrails": [
            "Never give medical advice; offer an appointment with a physiotherapist.",
            "Do not share one patient's appointments or notes with anyone else.",
            "Confirm identity with date of birth before discussing a booking.",
            "Send anything that sounds urgent to the duty physiotherapist at once.",
            "Do not waive a cancellation charge; a physiotherapist decides.",
            "Say plainly when the clinic cannot help and suggest the GP.",
        ],
        "theme": "move my appointment with",
        "task": "Hi, can I move my appointment with physio {n}? {detail}",
        "details": [
            "Something came up at work on Thursday.",
            "Any time next week after four is fine.",
            "I would prefer a morning if possible.",
            "My knee is much better so a short one is fine.",
        ],
        "correction": "Thanks, but please tell me the therapist's name in the reply.",
        "learned": "Moves appointments for patients and offers the nearest free slots.",
        "rule": "Name the therapist in every booking confirmation.",
    },
    {
        "name": "Travel desk",
        "role": "Travel assistant for the staff of an engineering consultancy",
        "goals": [
            "Find trains and flights within the travel policy for client visits.",
            "Book hotels near the client's site at the agreed corporate rates.",
            "Keep an itinerary per trip with booking references and times.",
            "Remind travellers of visa and vaccination needs in good time.",
            "Prepare the monthly travel spend summary for the finance team.",
        ],
        "background": [
            "The consultancy has about two hundred engineers in three offices.",
            "Most trips are one or two nights at client sites in Europe.",
            "Rail is preferred for journeys under five hours.",
            "The finance team closes the travel budget on the fifth of each month.",
            "Corporate rates are agreed with two hotel chains and one airline.",
        ],
        "guardrails": [
            "Never book travel outside the policy without a manager's approval.",
            "Keep passport numbers out of itineraries and emails.",
            "Do not pay with a traveller's personal card.",
            "Say when a fare is not refundable before booking it.",
            "Send safety warnings for a destination to the traveller at once.",
            "Do not share one traveller's plans with another traveller.",
        ],
        "theme": "find me a train to the client site in",
        "task": "Can you find me a train to the client site in city {n}? {detail}",
        "details": [
            "I need to be there by nine on Monday.",
            "Coming back on the Wednesday evening.",
            "First class is fine if it is under the policy limit.",
            "Two of us are travelling together.",
        ],
        "correction": "Helpful, but please give the booking reference first.",
        "learned": "Finds rail journeys to client sites within the travel policy.",
        "rule": "Give the booking reference in the first line.",
    },
]
EXTRA_GOALS = [
    "Keep answers short enough to read on a phone.",
    "Offer a checklist when a task has more than three steps.",
    "Suggest the next step at the end of every answer.",
    "Flag anything that looks like a duplicate request.",
    "Write in British English.",
]
EXTRA_BACKGROUND = [
    "The team moved to a new ticketing tool this autumn.",
    "A new manager joined the team in September.",
    "Opening hours change in December for the holidays.",
    "The team is piloting a shared inbox for urgent requests.",
    "Quarterly reviews look at response times and repeat contacts.",
]
EXTRA_RULES = [
    "Use the customer's preferred name.",
    "End every message with who to contact for questions.",
    "Keep subject lines under eight words.",
    "Mention the reference number in every reply.",
    "Use twenty-four hour times.",
    "Write amounts with the currency symbol and two decimals.",
]
REPLIES = [
    "Here is a draft you can send as it is or adjust: {detail} I kept it to one short "
    "paragraph and left out anything the customer has not already been told.",
    "Done. I have put the details in order below, with the open questions at the end so "
    "they are easy to follow up: {detail}",
    "I checked the notes from the last two weeks. {detail} Let me know if you want the "
    "longer version with every date and who was involved.",
    "Here is what I found. {detail} Nothing else is outstanding as far as the notes show, "
    "but the file was last updated three days ago.",
]
FILLER = [
    "What did we agree last time about item {n}?",
    "Summarise the notes on item {n} for me, please.",
    "Is anything still missing from the file for item {n}?",
    "Who else has been in touch about item {n} this week?",
    "Remind me what the policy says about this kind of request.",
    "Can you check whether item {n} was already dealt with?",
]
SOURCES = ["ui_form", "ui_form", "manual", "host", "ui_form", "update_persona"]
OPERATORS = ["olivia", "omar", "ines", "priya"]
REVIEW_REASONS = {
    "nothing_to_do": "Too few new conversations since the last review (2 of at least 3).",
    "proposed": "One sentence proposed from recurring requests in 4 conversations.",
    "applied": "One sentence applied at once (learning on): recurring in 3 conversations.",
    "refused": "The proposed sentence was refused: its quotes were not found word for word.",
    "error": "The model endpoint did not answer within 60 seconds.",
}


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@contextmanager
def explicit_times(*fields: Any) -> Iterator[None]:
    """Let bulk_create keep the times given for ``auto_now_add`` fields (realistic history)."""
    saved = [(f, f.auto_now_add) for f in fields]
    for f in fields:
        f.auto_now_add = False
    try:
        yield
    finally:
        for f, value in saved:
            f.auto_now_add = value


# --- data ------------------------------------------------------------------------------


def build() -> dict[str, Any]:
    from django.contrib.auth.models import Group, User

    from learning.models import LearningSettings, Proposal, Review
    from memory.models import Conversation, Message, Principal
    from memory.services import message_dedupe_key
    from persona.models import AgentPersonaVersion
    from tenancy.models import Agent, Membership, Tenant

    t0 = time.perf_counter()
    tenants = [
        Tenant.objects.create(name="Harbour Group", slug="harbour"),
        Tenant.objects.create(name="Northwind", slug="northwind"),
    ]
    people: list[list[Principal]] = []
    for tenant, n in zip(tenants, PRINCIPALS, strict=True):
        people.append(
            Principal.objects.bulk_create(
                [
                    Principal(tenant=tenant, external_id=f"u{j:04d}", display_name=f"Person {j}")
                    for j in range(n)
                ]
            )
        )

    def tenant_of(i: int) -> int:
        return 1 if i % 5 == 4 else 0  # 800 agents in the first tenant, 200 in the second

    agents = Agent.objects.bulk_create(
        [
            Agent(
                tenant=tenants[tenant_of(i)],
                name=f"{DOMAINS[i % len(DOMAINS)]['name']} {i:04d}",
                slug=f"bench-{i:04d}",
                persona_version=VERSIONS,
            )
            for i in range(N_AGENTS)
        ],
        batch_size=1000,
    )
    modes = ["off", "on-with-review", "on", "on-with-review", "off"]
    LearningSettings.objects.bulk_create(
        [
            LearningSettings(
                agent=a,
                mode=modes[i % len(modes)],
                standing_rules=i % 2 == 0,
                across_users=i % 3 == 0,
                last_review_at=T_END - timedelta(hours=i % 48),
                due_at=T_END + timedelta(hours=1 + i % 24),
            )
            for i, a in enumerate(agents)
        ],
        batch_size=1000,
    )

    # conversations and messages
    convs: list[Conversation] = []
    for i, a in enumerate(agents):
        pool = people[tenant_of(i)]
        for k in range(CONVS_PER_AGENT):
            start = T_END - timedelta(days=1 + (i * 7 + k * 13) % 60, minutes=(i * k) % 600)
            convs.append(
                Conversation(
                    agent=a,
                    principal=pool[(i * CONVS_PER_AGENT + k) * 7919 % len(pool)],
                    external_id=f"c-{i:04d}-{k}",
                    sealed=(k == 4 and i % 10 == 3),
                    started_at=start,
                    last_message_at=start + timedelta(minutes=3 * (MESSAGES_PER_CONV - 1)),
                    message_count=MESSAGES_PER_CONV,
                )
            )
    convs = Conversation.objects.bulk_create(convs, batch_size=2000)
    firsts: dict[int, list[Message]] = {}  # agent index -> first user message per conversation
    corrections: dict[int, list[Message]] = {}
    batch: list[Message] = []
    n_messages = 0

    def flush() -> None:
        nonlocal batch, n_messages
        Message.objects.bulk_create(batch, batch_size=2000)
        n_messages += len(batch)
        batch = []

    for ci, conv in enumerate(convs):
        i = ci // CONVS_PER_AGENT
        d = DOMAINS[i % len(DOMAINS)]
        for seq in range(1, MESSAGES_PER_CONV + 1):
            n = 1000 + (ci * 31 + seq) % 9000
            detail = d["details"][(ci + seq) % len(d["details"])]
            if seq % 2 == 1:
                role = "user"
                if seq == 1:
                    text = d["task"].format(n=n, detail=detail)
                elif seq == 3:
                    text = d["correction"]
                else:
                    text = FILLER[(ci + seq) % len(FILLER)].format(n=n)
            else:
                role = "assistant"
                text = REPLIES[(ci + seq) % len(REPLIES)].format(detail=detail)
            at = conv.started_at + timedelta(minutes=3 * (seq - 1))
            m = Message(
                conversation=conv,
                seq=seq,
                role=role,
                text=text,
                created_at=at,
                dedupe_key=message_dedupe_key(role=role, at=at, text=text),
                text_sha256=sha(text),
            )
            batch.append(m)
            if seq == 1 and not conv.sealed:
                firsts.setdefault(i, []).append(m)
            if seq == 3 and not conv.sealed:
                corrections.setdefault(i, []).append(m)
        if len(batch) >= 10_000:
            flush()
    if batch:
        flush()

    def evidence(messages: list[Message], quote: str) -> list[dict[str, Any]]:
        out = []
        for m in messages:
            start = m.text.lower().find(quote.lower())
            conv = m.conversation
            out.append(
                {
                    "quote": m.text[start : start + len(quote)],
                    "message_id": m.pk,
                    "conversation_id": conv.pk,
                    "conversation": conv.external_id,
                    "principal_id": conv.principal_id,
                    "user": conv.principal.external_id,
                    "start": start,
                    "end": start + len(quote),
                }
            )
        return out

    # applied proposals behind the learned versions (one agent in ten: v12 sentence, v17 rule)
    learned_agents = [i for i in range(N_AGENTS) if i % 10 == 0]
    applied: dict[tuple[int, int], Proposal] = {}
    rows = []
    for i in learned_agents:
        d = DOMAINS[i % len(DOMAINS)]
        a = agents[i]
        sent_ev = evidence(firsts[i][:4], d["theme"])
        rule_ev = evidence(corrections[i][:3], d["correction"].split(", ")[-1].rstrip("."))
        for version, kind, field, text, ev in (
            (12, "sentence", "goals", d["learned"], sent_ev),
            (17, "rule", "standing_rules", d["rule"], rule_ev),
        ):
            p = Proposal(
                agent=a,
                kind=kind,
                field=field,
                text=text,
                content_key=sha(f"{a.pk}:{text}"),
                evidence=ev,
                status="applied",
                base_version=version - 1,
                applied_version=version,
                applied_text=text,
                decided_by="olivia",
                decided_at=T_END - timedelta(days=20 - version),
                created_at=T_END - timedelta(days=21 - version),
            )
            applied[(i, version)] = p
            rows.append(p)
    with explicit_times(Proposal._meta.get_field("created_at")):
        Proposal.objects.bulk_create(rows, batch_size=1000)

    # persona versions
    versions: list[AgentPersonaVersion] = []
    for i, a in enumerate(agents):
        d = DOMAINS[i % len(DOMAINS)]
        name = a.name
        role = d["role"]
        goals = list(d["goals"])
        background = list(d["background"])
        guardrails = list(d["guardrails"])
        rules: list[str] = []
        learned: list[dict[str, str]] = []
        for v in range(1, VERSIONS + 1):
            source, reason, ev, proposal_id = "host", "Agent created", [], None
            changed: list[str] = []
            by = OPERATORS[(i + v) % len(OPERATORS)]
            if v == 1:
                changed = ["name", "role", "goals", "background", "guardrails"]
            elif (i, v) in applied:
                p = applied[(i, v)]
                ev, proposal_id = p.evidence, p.pk
                if p.kind == "sentence":
                    goals.append(p.text)
                    learned.append(
                        {
                            "field": "goals",
                            "sentence": p.text,
                            "note": "recurring in 4 conversations, approved by olivia",
                        }
                    )
                    source, changed = "persona_learning", ["goals"]
                else:
                    rules.append(p.text)
                    source, changed = "standing_rule", ["standing_rules"]
                reason = f"Learned from {len(ev)} conversations: {p.text}"
                by = "olivia"
            else:
                source = SOURCES[(i + v) % len(SOURCES)]
                op = (i + v) % 5
                if op == 0:
                    j = (v // 5) % len(background)
                    background[j] = EXTRA_BACKGROUND[(i + v) % len(EXTRA_BACKGROUND)]
                    reason, changed = "Background brought up to date", ["background"]
                elif op == 1:
                    extra = EXTRA_GOALS[(i + v) % len(EXTRA_GOALS)]
                    if extra in goals:
                        goals.remove(extra)
                    else:
                        goals.insert(len(d["goals"]), extra)
                    reason, changed = "Goals adjusted after the team meeting", ["goals"]
                elif op == 2:
                    rule = EXTRA_RULES[(i + v) % len(EXTRA_RULES)]
                    if rule in rules:
                        rules.remove(rule)
                    elif len(rules) < 6:
                        rules.append(rule)
                    else:
                        rules.pop(0)
                    reason, changed = "House style for replies", ["standing_rules"]
                    source = "ui_form"
                elif op == 3:
                    j = v % len(guardrails)
                    g = guardrails[j]
                    guardrails[j] = (
                        g[: -len(" without exception.")] + "."
                        if g.endswith(" without exception.")
                        else g.rstrip(".") + " without exception."
                    )
                    reason, changed = "Guardrail wording agreed with compliance", ["guardrails"]
                    source = "ui_form"
                else:
                    background.append(
                        f"Note {v}: the team's handover notes now live in the shared folder."
                    )
                    if len(background) > 9:
                        background.pop(5)
                    reason, changed = "Handover process changed", ["background"]
            versions.append(
                AgentPersonaVersion(
                    agent=a,
                    version=v,
                    name=name,
                    role=role,
                    goals="\n".join(goals),
                    background="\n".join(background),
                    guardrails=list(guardrails),
                    standing_rules=list(rules),
                    source_type=source,
                    reason=reason,
                    approved_by=by,
                    evidence=ev,
                    proposal_id=proposal_id,
                    fields_changed=changed,
                    learned=[dict(x) for x in learned],
                    created_at=T_END - timedelta(days=VERSIONS + 1 - v, minutes=i),
                )
            )
    with explicit_times(AgentPersonaVersion._meta.get_field("created_at")):
        AgentPersonaVersion.objects.bulk_create(versions, batch_size=2000)

    # waiting proposals: a sentence for one agent in five, a rule for one in ten (300)
    rows = []
    for i, a in enumerate(agents):
        d = DOMAINS[i % len(DOMAINS)]
        if i % 5 == 0:
            text = f"Handles the {d['name'].lower()} requests that come back every week."
            rows.append(
                Proposal(
                    agent=a,
                    kind="sentence",
                    field="background",
                    text=text,
                    content_key=sha(f"{a.pk}:{text}"),
                    evidence=evidence(firsts[i][:3], d["theme"]),
                    base_version=VERSIONS,
                    created_at=T_END - timedelta(hours=1 + i % 300),
                )
            )
        if i % 10 == 0:
            text = EXTRA_RULES[(i // 10) % len(EXTRA_RULES)] + " Always."
            rows.append(
                Proposal(
                    agent=a,
                    kind="rule",
                    field="standing_rules",
                    text=text,
                    content_key=sha(f"{a.pk}:{text}"),
                    evidence=evidence(corrections[i][:3], "please"),
                    base_version=VERSIONS,
                    created_at=T_END - timedelta(hours=2 + i % 300),
                )
            )
    with explicit_times(Proposal._meta.get_field("created_at")):
        waiting = Proposal.objects.bulk_create(rows, batch_size=1000)

    # reviews
    outcomes = ["nothing_to_do", "nothing_to_do", "proposed", "applied", "refused", "error"]
    rows = []
    for i, a in enumerate(agents):
        for r in range(REVIEWS_PER_AGENT):
            outcome = outcomes[(i + r) % len(outcomes)]
            at = T_END - timedelta(hours=(r * 24 + i % 24), minutes=i % 60)
            read = 0 if outcome == "nothing_to_do" else 4 + (i + r) % 5
            rows.append(
                Review(
                    agent=a,
                    trigger=["schedule", "schedule", "manual", "cli"][(i + r) % 4],
                    status="done",
                    requested_by="" if (i + r) % 4 < 2 else "olivia",
                    queued_at=at,
                    started_at=at + timedelta(seconds=2),
                    finished_at=at + timedelta(seconds=9),
                    threads_read=read,
                    messages_read=read * 10,
                    model_calls=0 if outcome == "nothing_to_do" else 2,
                    tokens_in=0 if outcome == "nothing_to_do" else 3000 + i % 900,
                    tokens_out=0 if outcome == "nothing_to_do" else 120 + i % 80,
                    outcome=outcome,
                    reason=REVIEW_REASONS[outcome],
                    details={"timings": {"total_ms": 900 + i % 300, "without_model_ms": 20}},
                )
            )
    with explicit_times(Review._meta.get_field("queued_at")):
        Review.objects.bulk_create(rows, batch_size=2000)

    # dashboard users
    operator = User.objects.create_user(username="olivia", password="pw-olivia")
    operator.groups.add(Group.objects.get_or_create(name="operator")[0])
    Membership.objects.create(user=operator, tenant=tenants[0])
    root = User.objects.create_superuser(username="root", password="pw-root")

    from django.db import connection

    with connection.cursor() as cursor:
        # the steady state autovacuum reaches after bulk inserts: statistics and the
        # visibility map (index-only scans)
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    counts = {
        "agents": len(agents),
        "versions": len(versions),
        "principals": sum(len(p) for p in people),
        "conversations": len(convs),
        "messages": n_messages,
        "waiting": len(waiting),
        "applied": len(applied),
        "reviews": len(rows),
        "seconds": time.perf_counter() - t0,
    }
    # the page subjects: agent 0 (tenant 0, learned versions, a sentence and a rule waiting)
    # and its first conversation, which holds evidence quotes
    first = firsts[0][0]
    start = first.text.lower().find(DOMAINS[0]["theme"])
    mark = f"{first.pk}:{start}:{start + len(DOMAINS[0]['theme'])}"
    counts.update(
        {
            "operator": operator,
            "root": root,
            "agent_slug": agents[0].slug,
            "other_slugs": [a.slug for i, a in enumerate(agents) if tenant_of(i) == 0][1:],
            "conversation_id": first.conversation_id,
            "mark": mark,
        }
    )
    return counts


# --- measuring ---------------------------------------------------------------------------

HX = {"HTTP_HX_REQUEST": "true"}


def pages(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(label, url or a function of the request number giving one, headers, before)."""
    from django.urls import reverse

    slug = data["agent_slug"]
    others = data["other_slugs"]
    fresh = itertools.count()  # every request, whoever makes it, views an agent not seen yet
    conv = reverse("memory:conversation", args=[data["conversation_id"]])
    listing: list[tuple[Any, ...]] = [
        ("home", reverse("home"), {}),
        ("evolution", reverse("persona:evolution"), {}),
        (
            "evolution (htmx, filter)",
            reverse("persona:evolution") + "?mode=on-with-review",
            {**HX, "HTTP_HX_TARGET": "agents-table"},
        ),
        ("evolution sort=recent", reverse("persona:evolution") + "?sort=recent", {}),
        ("evolution waiting=any", reverse("persona:evolution") + "?waiting=any", {}),
        ("agent", reverse("persona:agent", args=[slug]), {}),
        (
            "agent (another agent each time)",
            lambda k: reverse("persona:agent", args=[others[next(fresh) % len(others)]]),
            {},
        ),
        (
            "agent (scan cache emptied)",
            reverse("persona:agent", args=[slug]),
            {},
            clear_scan_cache,
        ),
        (
            "agent timeline (htmx)",
            reverse("persona:agent", args=[slug]) + "?before=11",
            {**HX, "HTTP_HX_TARGET": "timeline"},
        ),
        ("guardrails", reverse("persona:guardrails", args=[slug]), {}),
        ("rules", reverse("persona:rules", args=[slug]), {}),
        ("learning settings", reverse("learning:settings", args=[slug]), {}),
        ("review queue", reverse("learning:queue"), {}),
        ("review log", reverse("learning:log"), {}),
        (
            "review log (htmx, filter)",
            reverse("learning:log") + "?outcome=proposed",
            {**HX, "HTTP_HX_TARGET": "log-body"},
        ),
        ("review log of an agent", reverse("learning:log") + f"?agent={slug}", {}),
        ("conversations", reverse("memory:conversations"), {}),
        ("conversations of an agent", reverse("memory:conversations") + f"?agent={slug}", {}),
        ("conversation", conv + f"?mark={data['mark']}", {}),
    ]
    return [(*row, None) if len(row) == 3 else row for row in listing]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


class SqlTimer:
    """``connection.execute_wrapper``: SQL time in ms at full precision (the debug cursor
    rounds to whole milliseconds)."""

    def __init__(self) -> None:
        self.ms = 0.0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.ms += (time.perf_counter() - t0) * 1000


def clear_scan_cache() -> None:
    """Forget every injection-scan result and token count, as for text never seen."""
    from persona import tokens
    from safety import injection

    with injection._cache_lock:
        injection._cache.clear()
    tokens.count_tokens.cache_clear()


def measure(
    client: Any, url: Any, headers: dict[str, str], *, warmup: int, runs: int, before: Any
) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, sql, queries, statuses = [], [], set(), set()
    for k in range(warmup + runs):
        target = url(k) if callable(url) else url
        if before is not None:
            before()
        timer = SqlTimer()
        with CaptureQueriesContext(connection) as ctx, connection.execute_wrapper(timer):
            t0 = time.perf_counter()
            response = client.get(target, **headers)
            elapsed = (time.perf_counter() - t0) * 1000
        statuses.add(response.status_code)
        if k < warmup:
            continue
        times.append(elapsed)
        sql.append(timer.ms)
        queries.add(len(ctx.captured_queries))
    return {
        "median": statistics.median(times),
        "p95": p95(times),
        "sql": statistics.median(sql),
        "queries": max(queries),
        "query_set": sorted(queries),
        "statuses": sorted(statuses),
        "bytes": len(response.content),
    }


def report(label: str, user: str, r: dict) -> bool:
    ok = r["p95"] < GOAL_MS and r["queries"] <= GOAL_QUERIES and r["statuses"] == [200]
    marks = []
    if r["p95"] >= GOAL_MS:
        marks.append("time")
    if r["queries"] > GOAL_QUERIES:
        marks.append("queries")
    if r["statuses"] != [200]:
        marks.append(f"status {r['statuses']}")
    q = (
        f"{r['queries']:>3}"
        if len(r["query_set"]) == 1
        else f"{r['queries']:>3} ({'/'.join(map(str, r['query_set']))})"
    )
    verdict = "ok" if ok else "MISS " + ", ".join(marks)
    print(
        f"  {label:<34} {user:<8} {r['median']:>8.1f} {r['p95']:>8.1f} {r['sql']:>8.1f} "
        f"{q:<10} {r['bytes'] / 1024:>7.0f}  {verdict}"
    )
    return ok


class SqlLog:
    """``connection.execute_wrapper`` keeping every query with its params and time."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, Any, float]] = []

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.rows.append((sql, params, (time.perf_counter() - t0) * 1000))


def profile(client: Any, url: Any, headers: dict[str, str], before: Any, runs: int) -> None:
    """cProfile of ``runs`` requests, the slowest queries, and their plans on PostgreSQL."""
    import cProfile
    import pstats

    from django.db import connection

    for k in range(3):
        client.get(url(k) if callable(url) else url, **headers)
    prof = cProfile.Profile()
    log = SqlLog()
    total = 0.0
    with connection.execute_wrapper(log):
        for k in range(runs):
            if before is not None:
                before()
            t0 = time.perf_counter()
            prof.enable()
            client.get(url(k + 3) if callable(url) else url, **headers)
            prof.disable()
            total += time.perf_counter() - t0
    stats = pstats.Stats(prof)
    stats.sort_stats("cumulative").print_stats(35)
    stats.sort_stats("tottime").print_stats(20)
    per_query: dict[str, list[tuple[Any, float]]] = {}
    for sql_text, params, ms in log.rows:
        per_query.setdefault(sql_text, []).append((params, ms))
    sql_total = sum(ms for _, _, ms in log.rows)
    print(
        f"{runs} requests: {total * 1000 / runs:.1f} ms per request, of which SQL "
        f"{sql_total / runs:.1f} ms ({len(log.rows) / runs:.0f} queries)"
    )
    print("queries, slowest first (median ms, count, sql):")
    ranked = sorted(per_query.items(), key=lambda kv: -statistics.median(t for _, t in kv[1]))
    for sql_text, calls in ranked[:12]:
        print(
            f"  {statistics.median(t for _, t in calls):8.2f} ms  x{len(calls):<4} {sql_text[:700]}"
        )
    if connection.vendor == "postgresql":
        for sql_text, calls in ranked[:2]:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql_text, calls[0][0])
                plan = "\n    ".join(row[0] for row in cursor.fetchall())
            print(f"\nplan of: {sql_text[:200]}...\n    {plan}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--no-superuser", action="store_true", help="operator only")
    parser.add_argument("--profile", default="", help="label of a page to profile (operator)")
    parser.add_argument("--smoke", action="store_true", help="tiny data, one run (CI)")
    args = parser.parse_args()
    if args.smoke:
        smoke_sizes()
        args.runs, args.warmup = 1, 0

    scratch = Path(tempfile.mkdtemp(prefix="pw-bench-pages-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
    # DEBUG stays off, as on a server; the settings then need a key
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
    )
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ["PERSONAWEB_VAR_DIR"] = str(scratch / "var")
    postgres = bool(os.environ.get("DATABASE_URL"))
    if not postgres:
        os.environ["SQLITE_PATH"] = str(scratch / "bench.sqlite3")

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if postgres:
        test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    else:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        test_db = settings.DATABASES["default"]["NAME"]
    try:
        data = build()
        db = f"PostgreSQL {connection.pg_version}" if postgres else "SQLite (file, WAL)"
        print(f"database: {db} ({test_db})")
        print(
            f"data: {data['agents']:,} agents in 2 tenants, {data['versions']:,} persona versions "
            f"({data['applied']} learned with evidence), {data['principals']} principals, "
            f"{data['conversations']:,} conversations, {data['messages']:,} messages, "
            f"{data['waiting']} waiting proposals, {data['reviews']:,} reviews "
            f"(built in {data['seconds']:.0f} s)"
        )

        operator = Client()
        operator.force_login(data["operator"])
        listing = pages(data)
        agent_url = next(row[1] for row in listing if row[0] == "agent")
        t0 = time.perf_counter()
        response = operator.get(agent_url)
        cold = (time.perf_counter() - t0) * 1000
        assert response.status_code == 200, response.status_code
        t0 = time.perf_counter()
        operator.get(agent_url)
        second = (time.perf_counter() - t0) * 1000
        print(
            f"first agent-page request in this process (embedding model load, injection scan "
            f"of every line): {cold:,.0f} ms; the second: {second:.0f} ms"
        )

        if args.profile:
            label, url, headers, before = next(p for p in listing if p[0] == args.profile)
            profile(operator, url, headers, before, args.runs)
            return

        users = [("operator", operator)]
        if not args.no_superuser:
            root = Client()
            root.force_login(data["root"])
            users.append(("superuser", root))
        print(
            f"\n{args.runs} requests per page after {args.warmup} warm-ups; "
            f"goal p95 < {GOAL_MS:.0f} ms and <= {GOAL_QUERIES} queries\n"
        )
        print(
            f"  {'page':<34} {'user':<8} {'median':>8} {'p95':>8} {'sql med':>8} "
            f"{'queries':<10} {'KiB':>7}  verdict"
        )
        misses = []
        measured: list[tuple[str, str, dict]] = []
        t_all = time.perf_counter()
        for label, url, headers, before in listing:
            for who, client in users:
                r = measure(client, url, headers, warmup=args.warmup, runs=args.runs, before=before)
                measured.append((label, who, r))
                if not report(label, who, r):
                    misses.append(f"{label} ({who})")
        print(f"\n  (times in ms; measured in {time.perf_counter() - t_all:.0f} s)")
        if args.smoke:
            # tiny data: times and counts say nothing; a page that fails says something
            broken = [f"{label} ({who})" for label, who, r in measured if r["statuses"] != [200]]
            if broken:
                raise SystemExit("smoke: pages answered other than 200: " + "; ".join(broken))
            print("smoke: every page answered 200")
            return
        print(
            f"{len(misses)} miss(es): " + "; ".join(misses)
            if misses
            else "every page meets the goal"
        )
    finally:
        if postgres:
            connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
