#!/usr/bin/env python
"""Dashboard page figures (issue 5, acceptance 5; issue 24, point 3: ten times the data).

    .venv/bin/python bench/pages.py                      # SQLite, scratch file in /tmp
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pw_x .venv/bin/python bench/pages.py
    .venv/bin/python bench/pages.py --scale 10 --db bench_scale --explain

On SQLite the database is a temporary file; with DATABASE_URL a throwaway database
(``test_<name>``, made and dropped by Django's test-database machinery) is used, so the
database named in the URL is not touched. ``--db NAME`` keeps the data instead, in
PostgreSQL database NAME (on DATABASE_URL's server, default 127.0.0.1:5432 as postgres):
built once, migrated and reused by later runs while it holds the same ``--scale`` and
data version (``--rebuild`` builds it again).

At 1x: 1,000 agents in two tenants (800 + 200), 20 persona versions each (20,000, some
learned with evidence quotes), 400 people, 5,000 conversations of 20 messages
(100,000), 300 waiting proposals, 200 applied ones, 5,000 reviews, 100,000 beliefs each
with its own stored vector (random unit vectors), 10,000 of them about one person
written among everyone else's. ``--scale N`` multiplies all of it but the one person's
10,000 (10: 10,000 agents, 200,000 versions, 1,000,000 messages, 1,000,000 beliefs).
Rows are generated with their ids and written with binary ``COPY`` on PostgreSQL
(``cursor.copy``), ``bulk_create`` in batches of 5,000 on SQLite; the build time is
printed. Then, with ``django.test.Client`` logged in as an operator of the larger
tenant (and as a superuser), every dashboard page is requested ``--warmup`` times,
then ``--runs`` times, and per page the median and p95 server time (the whole request
through the middleware, template rendered), the median time spent in SQL and the query
count are printed against the goal: p95 < 100 ms (150 ms above 1x) and at most 15
queries. Misses are marked ``MISS``. The machine's load is printed before and after.

The agent page runs the real injection scan (semantic layer on). Its first request in
the process loads the embedding model; that time is printed on its own. The scan
caches results per text, so the agent page is also measured on a different agent per
request (``agent (another agent each time)``): the first view of an agent in a process.

Then ``build_context`` for the person with 10,000 beliefs: the candidate read from the
database, the first query after a change, then ``--context-queries`` questions with the
query embedded and with words only, against p95 < 50 ms. ``--explain`` prints
``EXPLAIN (ANALYZE, BUFFERS)`` of the candidate read and of each page's two slowest
queries (PostgreSQL).

``--profile LABEL`` prints a cProfile of that page (operator) and its slowest queries.
``--only evolution,person`` measures only the pages whose labels begin so (and the
agent page, which warms the process up).

The candidate read is timed twice, each as in a fresh process: from the beliefs (rows
joined to their vectors, postings worked out) and from the person's packed block
(``memory.candidates``), which the bench builds as the worker would after a change.

``--smoke`` (CI): 20 agents, 400 beliefs, one request per page and user, no warm-up;
exits non-zero when a page answers anything but 200. Figures printed, never judged.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
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
N_BELIEFS = 100_000
SUBJECT_BELIEFS = 10_000  # beliefs about one person, whatever the scale
SCALE = 1
#: bumped whenever the generated data changes: a kept database of another version is rebuilt
DATA_VERSION = 2


def scale_sizes(scale: int) -> None:
    """``--scale N``: N times the agents (and with them versions, conversations, messages,
    proposals and reviews), people and beliefs; the subject still holds 10,000 beliefs."""
    global N_AGENTS, PRINCIPALS, N_BELIEFS, SCALE, GOAL_MS
    SCALE = scale
    N_AGENTS, PRINCIPALS, N_BELIEFS = 1_000 * scale, (300 * scale, 100 * scale), 100_000 * scale
    GOAL_MS = 100.0 if scale <= 1 else 150.0


def smoke_sizes() -> None:
    """Tiny data for ``--smoke``: every builder and page still runs (the learned versions
    are v12 and v17, so VERSIONS stays 20)."""
    global N_AGENTS, CONVS_PER_AGENT, PRINCIPALS, REVIEWS_PER_AGENT, N_BELIEFS, SUBJECT_BELIEFS
    global SCALE
    N_AGENTS, CONVS_PER_AGENT, PRINCIPALS, REVIEWS_PER_AGENT = 20, 2, (10, 5), 2
    N_BELIEFS, SUBJECT_BELIEFS, SCALE = 400, 100, 0


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


class Writer:
    """Writes generated rows with ids given by the generator: binary ``COPY`` on
    PostgreSQL (``cursor.copy``), ``bulk_create`` in big batches on SQLite.

    ``fields`` names the columns a row gives (attnames, ``id`` first); every other
    concrete field gets its default (``auto_now`` / ``auto_now_add`` fields: ``T_END``).
    """

    def __init__(self) -> None:
        from django.db import connection

        self.connection = connection
        self.pg = connection.vendor == "postgresql"
        self.written: list[Any] = []

    def next_id(self, model: Any) -> int:
        from django.db.models import Max

        return (model.objects.aggregate(m=Max("id"))["m"] or 0) + 1

    def write(self, model: Any, fields: list[str], rows: Iterator[tuple] | list[tuple]) -> int:
        from django.db import models

        opts = model._meta
        given = [opts.get_field(f) for f in fields]
        names = {f.attname for f in given}
        extra = [f for f in opts.concrete_fields if f.attname not in names]
        defaults = tuple(
            T_END
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
            else f.get_default()
            for f in extra
        )
        self.written.append(model)
        n = 0
        if self.pg:
            from psycopg.types.json import Jsonb

            every = given + extra
            json_ix = [i for i, f in enumerate(every) if isinstance(f, models.JSONField)]
            qn = self.connection.ops.quote_name
            cols = ", ".join(qn(f.column) for f in every)
            with self.connection.cursor() as cursor:
                cursor.execute(
                    "SELECT attname, atttypid FROM pg_attribute "
                    "WHERE attrelid = %s::regclass AND attnum > 0",
                    [opts.db_table],
                )
                oids = dict(cursor.fetchall())
                sql = f"COPY {qn(opts.db_table)} ({cols}) FROM STDIN (FORMAT BINARY)"
                with cursor.cursor.copy(sql) as copy:
                    copy.set_types([oids[f.column] for f in every])
                    for row in rows:
                        full = [*row, *defaults]
                        for i in json_ix:
                            full[i] = Jsonb(full[i])
                        copy.write_row(full)
                        n += 1
            return n
        attnames = [f.attname for f in given]
        timed = [
            f for f in given if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]
        batch: list[Any] = []
        with explicit_times(*timed):
            for row in rows:
                batch.append(model(**dict(zip(attnames, row, strict=True))))
                if len(batch) >= 5000:
                    model.objects.bulk_create(batch)
                    n += len(batch)
                    batch = []
            if batch:
                model.objects.bulk_create(batch)
                n += len(batch)
        return n

    def finish(self) -> None:
        """Move every written table's id sequence past the ids given."""
        from django.core.management.color import no_style

        with self.connection.cursor() as cursor:
            for sql in self.connection.ops.sequence_reset_sql(no_style(), self.written):
                cursor.execute(sql)


def tenant_of(i: int) -> int:
    return 1 if i % 5 == 4 else 0  # 4 agents in 5 in the first tenant, 1 in the second


def build() -> dict[str, Any]:
    from django.contrib.auth.models import Group, User

    from learning.models import LearningSettings, Proposal, Review
    from memory.models import Belief, Conversation, Message, Principal, TextEmbedding
    from memory.services import message_dedupe_key
    from persona.models import AgentPersonaVersion
    from tenancy.models import Agent, Membership, Tenant

    t0 = time.perf_counter()
    w = Writer()
    tenants = [
        Tenant.objects.create(name="Harbour Group", slug="harbour"),
        Tenant.objects.create(name="Northwind", slug="northwind"),
    ]
    # principals: ids given, per tenant
    first_principal = w.next_id(Principal)
    people: list[list[tuple[int, str]]] = []  # per tenant: (id, external_id)
    rows: list[tuple] = []
    pid = first_principal
    for tenant, n in zip(tenants, PRINCIPALS, strict=True):
        pool = []
        for j in range(n):
            pool.append((pid, f"u{j:05d}"))
            rows.append((pid, tenant.pk, f"u{j:05d}", f"Person {j}", T_END))
            pid += 1
        people.append(pool)
    w.write(Principal, ["id", "tenant_id", "external_id", "display_name", "created_at"], rows)

    first_agent = w.next_id(Agent)
    agent_ids = [first_agent + i for i in range(N_AGENTS)]
    slugs = [f"bench-{i:05d}" for i in range(N_AGENTS)]
    w.write(
        Agent,
        ["id", "tenant_id", "name", "slug", "persona_version", "created_at"],
        (
            (
                agent_ids[i],
                tenants[tenant_of(i)].pk,
                f"{DOMAINS[i % len(DOMAINS)]['name']} {i:05d}",
                slugs[i],
                VERSIONS,
                T_END - timedelta(days=VERSIONS + 2),
            )
            for i in range(N_AGENTS)
        ),
    )
    modes = ["off", "on-with-review", "on", "on-with-review", "off"]

    def review_time(i: int, r: int) -> datetime:
        """When agent ``i``'s review ``r`` was queued (r = 0 the newest)."""
        return T_END - timedelta(hours=(r * 24 + i % 24), minutes=i % 60)

    w.write(
        LearningSettings,
        [
            "id",
            "agent_id",
            "mode",
            "standing_rules",
            "across_users",
            "last_review_at",
            "last_queued_at",
            "due_at",
        ],
        _numbered(
            w.next_id(LearningSettings),
            (
                (
                    agent_ids[i],
                    modes[i % len(modes)],
                    i % 2 == 0,
                    i % 3 == 0,
                    T_END - timedelta(hours=i % 48),
                    # the newest of the reviews written below (r = 0), as
                    # learning.models.note_reviews_queued keeps it
                    review_time(i, 0) if REVIEWS_PER_AGENT else None,
                    T_END + timedelta(hours=1 + i % 24),
                )
                for i in range(N_AGENTS)
            ),
        ),
    )

    # conversations and messages (ids given: conversation c of agent i is c = i * CONVS + k)
    first_conv = w.next_id(Conversation)
    first_msg = w.next_id(Message)
    conv_meta: list[tuple[int, int, str, bool, datetime]] = []  # id, principal id, ext, sealed
    principal_ext: dict[int, str] = {}
    for i in range(N_AGENTS):
        pool = people[tenant_of(i)]
        for k in range(CONVS_PER_AGENT):
            ci = i * CONVS_PER_AGENT + k
            start = T_END - timedelta(days=1 + (i * 7 + k * 13) % 60, minutes=(i * k) % 600)
            pr_id, pr_ext = pool[ci * 7919 % len(pool)]
            principal_ext[pr_id] = pr_ext
            conv_meta.append(
                (first_conv + ci, pr_id, f"c-{i:05d}-{k}", k == 4 and i % 10 == 3, start)
            )
    w.write(
        Conversation,
        [
            "id",
            "agent_id",
            "principal_id",
            "external_id",
            "sealed",
            "started_at",
            "last_message_at",
            "message_count",
        ],
        (
            (
                cid,
                agent_ids[ci // CONVS_PER_AGENT],
                pr,
                ext,
                sealed,
                start,
                start + timedelta(minutes=3 * (MESSAGES_PER_CONV - 1)),
                MESSAGES_PER_CONV,
            )
            for ci, (cid, pr, ext, sealed, start) in enumerate(conv_meta)
        ),
    )

    # agent index -> (message id, text, conversation index) of the first user message and
    # of the correction, per conversation that is not sealed
    firsts: dict[int, list[tuple[int, str, int]]] = {}
    corrections: dict[int, list[tuple[int, str, int]]] = {}

    def messages() -> Iterator[tuple]:
        mid = first_msg
        for ci, (cid, _pr, _ext, sealed, started) in enumerate(conv_meta):
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
                at = started + timedelta(minutes=3 * (seq - 1))
                if seq == 1 and not sealed:
                    firsts.setdefault(i, []).append((mid, text, ci))
                if seq == 3 and not sealed:
                    corrections.setdefault(i, []).append((mid, text, ci))
                yield (
                    mid,
                    cid,
                    seq,
                    role,
                    text,
                    at,
                    message_dedupe_key(role=role, at=at, text=text),
                    sha(text),
                )
                mid += 1

    n_messages = w.write(
        Message,
        ["id", "conversation_id", "seq", "role", "text", "created_at", "dedupe_key", "text_sha256"],
        messages(),
    )

    def evidence(messages: list[tuple[int, str, int]], quote: str) -> list[dict[str, Any]]:
        out = []
        for mid, text, ci in messages:
            start = text.lower().find(quote.lower())
            cid, pr, ext, _sealed, _start = conv_meta[ci]
            out.append(
                {
                    "quote": text[start : start + len(quote)],
                    "message_id": mid,
                    "conversation_id": cid,
                    "conversation": ext,
                    "principal_id": pr,
                    "user": principal_ext[pr],
                    "start": start,
                    "end": start + len(quote),
                }
            )
        return out

    # applied proposals behind the learned versions (one agent in ten: v12 sentence, v17 rule)
    proposal_fields = [
        "id",
        "agent_id",
        "kind",
        "field",
        "text",
        "content_key",
        "evidence",
        "status",
        "base_version",
        "applied_version",
        "applied_text",
        "decided_by",
        "decided_at",
        "created_at",
    ]
    pid = w.next_id(Proposal)
    applied: dict[tuple[int, int], tuple[int, str, str, list]] = {}  # id, kind, text, ev
    rows = []
    for i in range(0, N_AGENTS, 10):
        d = DOMAINS[i % len(DOMAINS)]
        sent_ev = evidence(firsts[i][:4], d["theme"])
        rule_ev = evidence(corrections[i][:3], d["correction"].split(", ")[-1].rstrip("."))
        for version, kind, field, text, ev in (
            (12, "sentence", "goals", d["learned"], sent_ev),
            (17, "rule", "standing_rules", d["rule"], rule_ev),
        ):
            rows.append(
                (
                    pid,
                    agent_ids[i],
                    kind,
                    field,
                    text,
                    sha(f"{agent_ids[i]}:{text}"),
                    ev,
                    "applied",
                    version - 1,
                    version,
                    text,
                    "olivia",
                    T_END - timedelta(days=20 - version),
                    T_END - timedelta(days=21 - version),
                )
            )
            applied[(i, version)] = (pid, kind, text, ev)
            pid += 1
    w.write(Proposal, proposal_fields, rows)

    # persona versions
    first_version = w.next_id(AgentPersonaVersion)  # not inside the COPY below

    def versions() -> Iterator[tuple]:
        vid = first_version
        for i in range(N_AGENTS):
            d = DOMAINS[i % len(DOMAINS)]
            name = f"{d['name']} {i:05d}"
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
                    proposal_id, kind, text, ev = applied[(i, v)]
                    if kind == "sentence":
                        goals.append(text)
                        learned.append(
                            {
                                "field": "goals",
                                "sentence": text,
                                "note": "recurring in 4 conversations, approved by olivia",
                            }
                        )
                        source, changed = "persona_learning", ["goals"]
                    else:
                        rules.append(text)
                        source, changed = "standing_rule", ["standing_rules"]
                    reason = f"Learned from {len(ev)} conversations: {text}"
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
                yield (
                    vid,
                    agent_ids[i],
                    v,
                    name,
                    d["role"],
                    "\n".join(goals),
                    "\n".join(background),
                    list(guardrails),
                    list(rules),
                    source,
                    reason,
                    by,
                    ev,
                    proposal_id,
                    changed,
                    [dict(x) for x in learned],
                    T_END - timedelta(days=VERSIONS + 1 - v, minutes=i % 1440),
                )
                vid += 1

    n_versions = w.write(
        AgentPersonaVersion,
        [
            "id",
            "agent_id",
            "version",
            "name",
            "role",
            "goals",
            "background",
            "guardrails",
            "standing_rules",
            "source_type",
            "reason",
            "approved_by",
            "evidence",
            "proposal_id",
            "fields_changed",
            "learned",
            "created_at",
        ],
        versions(),
    )

    # waiting proposals: a sentence for one agent in five, a rule for one in ten
    rows = []
    for i in range(N_AGENTS):
        d = DOMAINS[i % len(DOMAINS)]
        if i % 5 == 0:
            text = f"Handles the {d['name'].lower()} requests that come back every week."
            rows.append(
                (
                    agent_ids[i],
                    "sentence",
                    "background",
                    text,
                    sha(f"{agent_ids[i]}:{text}"),
                    evidence(firsts[i][:3], d["theme"]),
                    "waiting",
                    VERSIONS,
                    T_END - timedelta(hours=1 + i % 300),
                )
            )
        if i % 10 == 0:
            text = EXTRA_RULES[(i // 10) % len(EXTRA_RULES)] + " Always."
            rows.append(
                (
                    agent_ids[i],
                    "rule",
                    "standing_rules",
                    text,
                    sha(f"{agent_ids[i]}:{text}"),
                    evidence(corrections[i][:3], "please"),
                    "waiting",
                    VERSIONS,
                    T_END - timedelta(hours=2 + i % 300),
                )
            )
    n_waiting = w.write(
        Proposal,
        [
            "id",
            "agent_id",
            "kind",
            "field",
            "text",
            "content_key",
            "evidence",
            "status",
            "base_version",
            "created_at",
        ],
        _numbered(pid, rows),
    )

    # reviews
    outcomes = ["nothing_to_do", "nothing_to_do", "proposed", "applied", "refused", "error"]

    def reviews() -> Iterator[tuple]:
        for i in range(N_AGENTS):
            for r in range(REVIEWS_PER_AGENT):
                outcome = outcomes[(i + r) % len(outcomes)]
                at = review_time(i, r)
                read = 0 if outcome == "nothing_to_do" else 4 + (i + r) % 5
                yield (
                    agent_ids[i],
                    ["schedule", "schedule", "manual", "cli"][(i + r) % 4],
                    "done",
                    "" if (i + r) % 4 < 2 else "olivia",
                    at,
                    at + timedelta(seconds=2),
                    at + timedelta(seconds=9),
                    read,
                    read * 10,
                    0 if outcome == "nothing_to_do" else 2,
                    0 if outcome == "nothing_to_do" else 3000 + i % 900,
                    0 if outcome == "nothing_to_do" else 120 + i % 80,
                    outcome,
                    REVIEW_REASONS[outcome],
                    {"timings": {"total_ms": 900 + i % 300, "without_model_ms": 20}},
                )

    n_reviews = w.write(
        Review,
        [
            "id",
            "agent_id",
            "trigger",
            "status",
            "requested_by",
            "queued_at",
            "started_at",
            "finished_at",
            "threads_read",
            "messages_read",
            "model_calls",
            "tokens_in",
            "tokens_out",
            "outcome",
            "reason",
            "details",
        ],
        _numbered(w.next_id(Review), reviews()),
    )

    # beliefs, each with a stored vector; the subject (the first person of the first
    # tenant) holds SUBJECT_BELIEFS of them, written among everyone else's over time
    subject_id, subject_ext = people[0][0]
    n_beliefs = beliefs_and_vectors(
        w, people, tenants, agent_ids, subject_id, Belief=Belief, TextEmbedding=TextEmbedding
    )
    w.finish()

    # dashboard users
    operator = User.objects.create_user(username="olivia", password="pw-olivia")
    operator.groups.add(Group.objects.get_or_create(name="operator")[0])
    Membership.objects.create(user=operator, tenant=tenants[0])
    User.objects.create_superuser(username="root", password="pw-root")
    from memory.services_beliefs import beliefs_changed

    beliefs_changed(subject_id)
    # the versions were written by COPY, not through the persona service that counts them
    from persona.change_counts import rebuild as count_persona_changes

    count_persona_changes()

    from django.db import connection

    with connection.cursor() as cursor:
        # the steady state autovacuum reaches after bulk inserts: statistics and the
        # visibility map (index-only scans)
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    # the page subjects: agent 0 (tenant 0, learned versions, a sentence and a rule waiting)
    # and its first conversation, which holds evidence quotes; the person with the most
    # beliefs
    first_mid, first_text, first_ci = firsts[0][0]
    start = first_text.lower().find(DOMAINS[0]["theme"])
    return {
        "scale": SCALE,
        "data_version": DATA_VERSION,
        "agents": N_AGENTS,
        "versions": n_versions,
        "principals": sum(len(p) for p in people),
        "conversations": len(conv_meta),
        "messages": n_messages,
        "beliefs": n_beliefs,
        "waiting": n_waiting,
        "applied": len(applied),
        "reviews": n_reviews,
        "seconds": time.perf_counter() - t0,
        "agent_slug": slugs[0],
        "other_slugs": [s for i, s in enumerate(slugs) if tenant_of(i) == 0][1:200],
        "conversation_id": conv_meta[first_ci][0],
        "mark": f"{first_mid}:{start}:{start + len(DOMAINS[0]['theme'])}",
        "subject_id": subject_id,
        "subject_ext": subject_ext,
        "subject_beliefs": SUBJECT_BELIEFS,
    }


def _numbered(first: int, rows: Any) -> Iterator[tuple]:
    for k, row in enumerate(rows):
        yield (first + k, *row)


def beliefs_and_vectors(
    w: Writer,
    people: list[list[tuple[int, str]]],
    tenants: list[Any],
    agent_ids: list[int],
    subject_id: int,
    *,
    Belief: Any,
    TextEmbedding: Any,
) -> int:
    """N_BELIEFS beliefs over every person (the subject holds SUBJECT_BELIEFS, one row in
    N_BELIEFS / SUBJECT_BELIEFS), each with its own stored vector (random unit vectors:
    reading and scoring them costs what real ones cost); one in ten is not active."""
    import numpy as np

    from bench.context import FRAMES, SUBJECTS
    from memory.embeddings import DIM, MODEL_NAME
    from memory.models_beliefs import BeliefCategory, initial_stability

    categories = BeliefCategory.values
    everyone = [(pr, t) for t, pool in enumerate(people) for pr, _ in pool if pr != subject_id]
    agents_of = [[a for i, a in enumerate(agent_ids) if tenant_of(i) == t] for t in (0, 1)]
    every = max(1, N_BELIEFS // SUBJECT_BELIEFS)
    first_b = w.next_id(Belief)
    first_e = w.next_id(TextEmbedding)
    rng = np.random.default_rng(7)
    chunk = 20_000
    plan: list[tuple[int, int, str]] = []  # principal, tenant index, statement

    def statement_of(j: int) -> str:
        subject = SUBJECTS[j % len(SUBJECTS)]
        frame = FRAMES[(j // len(SUBJECTS)) % len(FRAMES)]
        return f"{frame.format(subject)} (note {j})"

    for j in range(N_BELIEFS):
        if j % every == 0 and j // every < SUBJECT_BELIEFS:
            plan.append((subject_id, 0, statement_of(j)))
        else:
            pr, t = everyone[(j * 7919) % len(everyone)]
            plan.append((pr, t, statement_of(j)))

    def vectors() -> Iterator[tuple]:
        from memory.embeddings import pack_vector

        for lo in range(0, N_BELIEFS, chunk):
            block = rng.normal(size=(min(chunk, N_BELIEFS - lo), DIM)).astype(np.float32)
            block /= np.linalg.norm(block, axis=1, keepdims=True)
            for k, v in enumerate(block):
                yield (first_e + lo + k, sha(plan[lo + k][2]), MODEL_NAME, DIM, pack_vector(v))

    w.write(TextEmbedding, ["id", "sha256", "model_name", "dim", "vector"], vectors())
    statuses = ["active"] * 9 + ["superseded"]

    def beliefs() -> Iterator[tuple]:
        for j, (pr, t, statement) in enumerate(plan):
            category = categories[j % len(categories)]
            written = T_END - timedelta(days=j % 400, minutes=j % 1440)
            yield (
                first_b + j,
                tenants[t].pk,
                pr,
                agents_of[t][j % len(agents_of[t])],
                category,
                statement,
                0.55 + (j % 9) * 0.05,
                "active" if pr == subject_id else statuses[j % len(statuses)],
                initial_stability(category),
                written,
                T_END - timedelta(days=3) if j % 23 == 0 else None,
                T_END + timedelta(days=j % 40) if j % 17 == 0 else None,
                "bench-host",
                sha(statement),
                first_e + j,
                written,
                written,
            )

    return w.write(
        Belief,
        [
            "id",
            "tenant_id",
            "principal_id",
            "agent_id",
            "category",
            "statement",
            "confidence",
            "status",
            "stability_days",
            "last_reinforced_at",
            "valid_until",
            "due_at",
            "source_host",
            "text_sha256",
            "embedding_id",
            "created_at",
            "updated_at",
        ],
        beliefs(),
    )


# --- measuring ---------------------------------------------------------------------------

HX = {"HTTP_HX_REQUEST": "true"}


def pages(data: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(label, url or a function of the request number giving one, headers, before)."""
    from django.urls import reverse

    slug = data["agent_slug"]
    others = data["other_slugs"]
    fresh = itertools.count()  # every request, whoever makes it, views an agent not seen yet
    conv = reverse("memory:conversation", args=[data["conversation_id"]])
    person = reverse("memory:person", args=[data["subject_id"]])
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
        ("people", reverse("memory:people"), {}),
        (f"person ({data['subject_beliefs']:,} beliefs)", person, {}),
        (
            "person recall box (htmx)",
            person + f"?q=What+does+she+think+about+green+tea&agent={slug}",
            {**HX, "HTTP_HX_TARGET": "recall-result"},
        ),
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
        self.n = 0  # queries (as django_assert_max_num_queries counts them)

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.n += 1
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.ms += (time.perf_counter() - t0) * 1000


def clear_scan_cache() -> None:
    """Forget this process's scan results and token counts, as a process that never
    saw the text (the verdicts other processes recorded stay in the database)."""
    from persona import tokens
    from safety import checks, injection

    with injection._cache_lock:
        injection._cache.clear()
    with checks._secret_lock:
        checks._secret_cache.clear()
    tokens.count_tokens.cache_clear()


def record_write_verdicts(slugs: list[str]) -> None:
    """The persona texts of the agents the "another agent each time" row views, scanned as
    ``check_write`` scans them at each write (their verdicts recorded, kept with the
    database): this data was written by COPY, a real agent's texts went through the
    write check. Then this process's own results are forgotten, so each view is still
    the first view of that agent in a process."""
    from persona.models import AgentPersonaVersion
    from persona.render import _pieces
    from safety import checks

    t0 = time.perf_counter()
    seen: dict[str, None] = {}
    for version in AgentPersonaVersion.objects.filter(agent__slug__in=slugs).iterator():
        seen.update(dict.fromkeys(p.text for p in _pieces(version)))
    texts = list(seen)
    for start in range(0, len(texts), 256):
        checks.verdicts(texts[start : start + 256], wait=True)
    clear_scan_cache()
    print(
        f"the viewed agents' persona texts scanned as at write (verdicts recorded): "
        f"{len(texts):,} distinct texts of {len(slugs)} agents' versions in {time.perf_counter() - t0:.1f} s"
    )


def measure(
    client: Any, url: Any, headers: dict[str, str], *, warmup: int, runs: int, before: Any
) -> dict:
    from django.db import connection

    times, sql, queries, statuses = [], [], set(), set()
    for k in range(warmup + runs):
        target = url(k) if callable(url) else url
        if before is not None:
            before()
        timer = SqlTimer()
        with connection.execute_wrapper(timer):
            t0 = time.perf_counter()
            response = client.get(target, **headers)
            elapsed = (time.perf_counter() - t0) * 1000
        statuses.add(response.status_code)
        if k < warmup:
            continue
        times.append(elapsed)
        sql.append(timer.ms)
        queries.add(timer.n)
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


def explain_page(client: Any, url: Any, headers: dict[str, str], before: Any, top: int) -> None:
    """One request of the page, then ``EXPLAIN (ANALYZE, BUFFERS)`` of its ``top`` slowest
    queries (PostgreSQL)."""
    from django.db import connection

    target = url(10_000) if callable(url) else url
    if before is not None:
        before()
    log = SqlLog()
    with connection.execute_wrapper(log):
        client.get(target, **headers)
    for sql_text, params, ms in sorted(log.rows, key=lambda r: -r[2])[:top]:
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql_text, params)
            plan = "\n      ".join(row[0] for row in cursor.fetchall())
        print(f"    {ms:.1f} ms: {sql_text[:300]}\n      {plan}")


def context_figures(data: dict[str, Any], *, queries: int, explain: bool) -> None:
    """``build_context`` for the subject (SUBJECT_BELIEFS beliefs) while the table holds
    every other person's too: the candidate read from the database, the first query
    after a change (it reloads), then warm queries with the query embedded and with
    words only, against the goal p95 < 50 ms."""
    from django.db import connection

    from bench.context import QUERIES, SUBJECTS
    from memory import context as ctx
    from memory.embeddings import vectors_for_texts
    from memory.models import Belief
    from tenancy.models import Agent

    agent = Agent.objects.get(slug=data["agent_slug"])
    subject = data["subject_ext"]
    asked = [
        QUERIES[i % len(QUERIES)].format(SUBJECTS[(i * 7) % len(SUBJECTS)]) + f" #{i}"
        for i in range(queries)
    ]
    total = Belief.objects.count() if SCALE <= 1 else data["beliefs"]
    print(
        f"\nbuild_context: person {subject} with {data['subject_beliefs']:,} beliefs, "
        f"{total:,} in the table; goal p95 < 50 ms"
    )
    from memory import candidates as cands

    def timed(read: Any) -> tuple[Any, float]:
        times, out = [], None
        for _ in range(3 if queries > 3 else 1):
            ctx._terms.cache_clear()  # a fresh process: no statement's words known yet
            t0 = time.perf_counter()
            out = read()
            times.append((time.perf_counter() - t0) * 1000)
        return out, statistics.median(times)

    cand, ms = timed(lambda: cands.load_from_beliefs(data["subject_id"]))
    print(
        f"  candidate read from the beliefs (one query, {cand.n:,} rows with their vectors, "
        f"postings and arrays built, in a fresh process): median {ms:.0f} ms of 3"
    )
    t0 = time.perf_counter()
    rows = cands.rebuild_block(data["subject_id"])
    built = (time.perf_counter() - t0) * 1000
    from memory.models import Principal

    token = Principal.objects.get(pk=data["subject_id"]).beliefs_token
    if rows:
        size = len(
            bytes(
                cands.BeliefBlock.objects.filter(principal_id=data["subject_id"])
                .values_list("data", flat=True)
                .first()
                or b""
            )
        )
        print(
            f"  the person's packed block (what the worker builds after a change): {rows:,} "
            f"rows, {size / 2**20:.1f} MiB, built in {built:.0f} ms"
        )
        block, ms = timed(lambda: cands.read_block(data["subject_id"], token))
        assert block is not None and block.n == cand.n
        print(f"  candidate read from the block (one row, unpacked): median {ms:.0f} ms of 3")
    else:
        print(f"  no packed block: fewer than {cands.BLOCK_MIN_ROWS:,} beliefs")
    if explain and connection.vendor == "postgresql":
        qs = (
            Belief.objects.filter(principal_id=data["subject_id"], status=Belief.Status.ACTIVE)
            .order_by()
            .values_list(*cands.FIELDS, "sensitivity", "promoted")
        )
        block_qs = cands.BeliefBlock.objects.filter(
            principal_id=data["subject_id"], token=token
        ).values_list("data", flat=True)[:1]
        for label, query in (("the beliefs", qs), ("the block", block_qs)):
            sql, params = query.query.sql_with_params()
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
                plan = "\n      ".join(row[0] for row in cursor.fetchall())
            print(f"    plan of the candidate read from {label}:\n      {plan}")

    def run(batch: list[str], embeddings: bool) -> list[float]:
        out = []
        for q in batch:
            t0 = time.perf_counter()
            ctx.build_context(
                agent=agent,
                principal_external_id=subject,
                query=q,
                now=T_END,
                limit=10,
                use_embeddings=embeddings,
            )
            out.append((time.perf_counter() - t0) * 1000)
        return out

    def line(label: str, times: list[float]) -> None:
        p = p95(times)
        verdict = "ok" if p < 50 else "MISS"
        print(
            f"  {label:<44} p50 {statistics.median(times):7.1f}  p95 {p:7.1f}  "
            f"max {max(times):7.1f} ms  ({len(times)} queries)  {verdict}"
        )

    vectors_for_texts(["warm the model up"], store=False)
    # the beliefs here were written by COPY, not through check_write: scan them once as
    # check_write does at each write (their views' vectors stored, their verdicts
    # recorded; kept with the database), then forget this process's results, as a web
    # process that did not write them starts
    from safety import checks

    statements = list(
        Belief.objects.filter(principal_id=data["subject_id"], status=Belief.Status.ACTIVE)
        .order_by("id")
        .values_list("statement", flat=True)
    )
    t0 = time.perf_counter()
    for start in range(0, len(statements), 256):
        checks.verdicts(statements[start : start + 256], wait=True)
    print(
        f"  the person's statements scanned as at write (recorded verdicts read back where "
        f"a run before recorded them): {len(statements):,} in {time.perf_counter() - t0:.1f} s"
    )
    clear_scan_cache()
    ctx.clear_candidate_cache()
    ctx._terms.cache_clear()
    line("first query in a fresh process (embedded)", run(asked[:1], True))
    line("words + embeddings (query embedded)", run(asked, True))
    # a second pass over the same questions: every text of the packs held in-process
    line("again, the pack's texts scanned before", run(asked, True))
    line("words only", run(asked, False))


def use_kept_database(name: str) -> str:
    """Point DATABASE_URL at PostgreSQL database ``name`` (made when missing) on the
    server of DATABASE_URL (default 127.0.0.1:5432, user postgres)."""
    import psycopg

    if not name.replace("_", "").isalnum():
        raise SystemExit(f"--db: {name!r} is not a plain database name")
    url = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    base = url.rpartition("/")[0]
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"{base}/{name}"
    return base


def kept_data(rebuild: bool) -> dict[str, Any] | None:
    """The figures of the data a kept database holds, if it is this scale and version."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS bench_pages_data (id int PRIMARY KEY, data jsonb)"
        )
        cursor.execute("SELECT data FROM bench_pages_data WHERE id = 1")
        row = cursor.fetchone()
    if row is None or rebuild:
        return None
    data = row[0] if isinstance(row[0], dict) else json.loads(row[0])
    if data.get("scale") != SCALE or data.get("data_version") != DATA_VERSION:
        return None
    return data


def empty_kept_database(base: str, name: str) -> None:
    """Drop and make database ``name`` again, then migrate it (before a rebuild)."""
    import psycopg
    from django.core.management import call_command
    from django.db import connections

    connections.close_all()
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument(
        "--scale", type=int, default=1, help="times the 1x data (10: 10,000 agents)"
    )
    parser.add_argument(
        "--db",
        default="",
        help="PostgreSQL database to keep the data in: built once, reused by later runs "
        "while it holds this scale",
    )
    parser.add_argument("--rebuild", action="store_true", help="with --db: build again")
    parser.add_argument(
        "--explain", action="store_true", help="EXPLAIN (ANALYZE, BUFFERS) of the slowest queries"
    )
    parser.add_argument("--context-queries", type=int, default=60)
    parser.add_argument("--context-only", action="store_true", help="build_context figures only")
    parser.add_argument("--no-superuser", action="store_true", help="operator only")
    parser.add_argument("--profile", default="", help="label of a page to profile (operator)")
    parser.add_argument("--smoke", action="store_true", help="tiny data, one run (CI)")
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated beginnings of page labels to measure (default: every page)",
    )
    args = parser.parse_args()
    if args.smoke:
        smoke_sizes()
        args.runs, args.warmup, args.context_queries, args.db = 1, 0, 1, ""
    else:
        scale_sizes(args.scale)

    scratch = Path(tempfile.mkdtemp(prefix="pw-bench-pages-"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
    # DEBUG stays off, as on a server; the settings then need a key
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
    )
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ["PERSONAWEB_VAR_DIR"] = str(scratch / "var")
    base = use_kept_database(args.db) if args.db else ""
    postgres = bool(os.environ.get("DATABASE_URL"))
    if not postgres:
        os.environ["SQLITE_PATH"] = str(scratch / "bench.sqlite3")

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    throwaway = postgres and not args.db
    if throwaway:
        test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    else:
        call_command("migrate", verbosity=0)
        test_db = settings.DATABASES["default"]["NAME"]
    try:
        data = kept_data(args.rebuild) if args.db else None
        if data is None:
            if args.db:
                empty_kept_database(base, args.db)
            data = build()
            if args.db:
                with connection.cursor() as cursor:
                    cursor.execute(
                        "CREATE TABLE IF NOT EXISTS bench_pages_data (id int PRIMARY KEY, data jsonb)"
                    )
                    cursor.execute(
                        "INSERT INTO bench_pages_data VALUES (1, %s) ON CONFLICT (id) "
                        "DO UPDATE SET data = excluded.data",
                        [json.dumps(data)],
                    )
            built = f"built in {data['seconds']:.0f} s"
        else:
            built = f"kept from an earlier run, which built it in {data['seconds']:.0f} s"
        db = f"PostgreSQL {connection.pg_version}" if postgres else "SQLite (file, WAL)"
        print(f"database: {db} ({test_db}); scale {SCALE}x; load {os.getloadavg()[0]:.2f}")
        print(
            f"data: {data['agents']:,} agents in 2 tenants, {data['versions']:,} persona versions "
            f"({data['applied']} learned with evidence), {data['principals']:,} principals, "
            f"{data['conversations']:,} conversations, {data['messages']:,} messages, "
            f"{data['beliefs']:,} beliefs with stored vectors ({data['subject_beliefs']:,} about "
            f"one person), {data['waiting']} waiting proposals, {data['reviews']:,} reviews "
            f"({built})"
        )
        data["operator"] = User.objects.get(username="olivia")
        data["root"] = User.objects.get(username="root")

        operator = Client()
        operator.force_login(data["operator"])
        listing = pages(data)
        if args.only:
            wanted = tuple(w.strip() for w in args.only.split(",") if w.strip())
            listing = [p for p in listing if p[0].startswith(wanted) or p[0] == "agent"]
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

        record_write_verdicts(data["other_slugs"])

        if args.context_only:
            context_figures(data, queries=args.context_queries, explain=args.explain)
            return

        if args.profile:
            label, url, headers, before = next(p for p in listing if p[0] == args.profile)
            profile(operator, url, headers, before, args.runs)
            return

        # as a web worker does once it has started (personaweb/wsgi.py): what is alive
        # now lives as long as the process and stays out of every collection
        from personaweb.runtime import freeze_startup_objects

        freeze_startup_objects()
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
        context_figures(data, queries=args.context_queries, explain=args.explain)
        print(f"load after measuring: {os.getloadavg()[0]:.2f}")
        if args.explain and connection.vendor == "postgresql":
            print("\nEXPLAIN (ANALYZE, BUFFERS) of each page's two slowest queries (operator):")
            for label, url, headers, before in listing:
                print(f"\n  {label}")
                explain_page(operator, url, headers, before, top=2)
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
        if throwaway:
            connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
