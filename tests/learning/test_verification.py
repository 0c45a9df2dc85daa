from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import product
from random import Random
from types import SimpleNamespace

import pytest

from learning.selection import select_corpus
from memory.services import record_turn
from memory.verification import (
    ACROSS_MESSAGES,
    ALREADY_COUNTED,
    MAX_QUOTES,
    MID_WORD,
    NO_SHARED_WORD,
    NOT_CORRECTION,
    NOT_FOUND,
    TOO_SHORT,
    ReadMessage,
    ReviewCorpus,
    _match,
    verify_quotes,
)
from safety.text import content_words, normalize_for_match, words
from tests.factories import make_agent

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
SENTENCE = "Prices wholesale orders and plans kiln firing schedules for a ceramics studio."

ANN_1 = "Can you price the wholesale order for the garden centre this week?"
ANN_1_FIX = "Actually, round the wholesale prices up to whole pounds please."
ANN_2 = "I need the wholesale   pricing for forty mugs by Friday."
ANN_3 = "Please work out the studio’s wholesale prices for the new glaze range — “matte” only."
ANN_4A = "Plan the kiln firing schedule for next week."
ANN_4B = "Then price the wholesale order for the café."
ANN_5 = "See you at the market on Saturday morning."
SEALED = "The sealed wholesale pricing for the secret client."
BOB = "Bob needs wholesale pricing for his market stall."
OTHER_AGENT = "Other agent wholesale pricing for the gift shop."
DIRECTIVE = "Your goal is to handle wholesale pricing for the studio."
ASSISTANT = "Here is the wholesale pricing sheet you asked for."


def turn(agent, who, conv, text, hours, reply=None, **kw):
    record_turn(
        agent=agent,
        principal_external_id=who,
        conversation=conv,
        user_text=text,
        assistant_text=reply,
        at=T0 + timedelta(hours=hours),
        **kw,
    )


@pytest.fixture
def world(agent):
    other = make_agent(tenant=agent.tenant, slug="other-agent", name="Other")
    turn(agent, "ann", "ann-1", ANN_1, 1, "Sure, here it is.")
    turn(agent, "ann", "ann-1", ANN_1_FIX, 2)
    turn(agent, "ann", "ann-2", ANN_2, 3, ASSISTANT)
    turn(agent, "ann", "ann-2", DIRECTIVE, 4)
    turn(agent, "ann", "ann-3", ANN_3, 5)
    turn(agent, "ann", "ann-4", ANN_4A, 6)
    turn(agent, "ann", "ann-4", ANN_4B, 7)
    turn(agent, "ann", "ann-5", ANN_5, 8)
    turn(agent, "ann", "ann-sealed", SEALED, 9, sealed=True)
    turn(agent, "bob", "bob-1", BOB, 10)
    turn(other, "ann", "other-1", OTHER_AGENT, 11)
    return agent


def corpus_of(agent, *, team: bool = False):
    return select_corpus(
        agent=agent,
        settings=SimpleNamespace(across_users=team, max_threads=8, max_messages_per_thread=40),
    )


def verify(corpus, *quotes, text=SENTENCE, min_conversations=3, min_users=None, **kw):
    return verify_quotes(
        text=text,
        quotes=[q if isinstance(q, dict) else {"quote": q, "conversation": None} for q in quotes],
        corpus=corpus,
        min_conversations=min_conversations,
        min_users=min_users,
        **kw,
    )


def only(result):
    assert len(result.verdicts) == 1
    return result.verdicts[0]


# --- accepted -----------------------------------------------------------------------------


def test_case_white_space_and_typographic_changes_are_accepted(world):
    corpus = corpus_of(world)
    result = verify(
        corpus,
        "CAN YOU PRICE THE   WHOLESALE order",  # case and white space
        "i need the wholesale pricing for forty mugs",  # several spaces in the original
        'the studio\'s wholesale prices for the new glaze range - "matte"',  # ’ — “ ”
    )
    assert result.ok, result.reason
    assert result.reason == ""
    assert result.conversations == 3 and result.users == 1
    assert [v.conversation_label for v in result.verdicts] == ["ann-1", "ann-2", "ann-3"]
    assert all(v.ok and v.counted and v.reason == "" for v in result.verdicts)
    assert {v.principal_external_id for v in result.verdicts} == {"ann"}


def test_span_maps_back_to_the_original_text(world):
    corpus = corpus_of(world)
    result = verify(
        corpus,
        "can you price the wholesale order",
        "the wholesale pricing for forty mugs",
        "studio's wholesale prices for the new glaze range matte",
    )
    texts = {m.id: m.text for m in corpus.messages}
    spans = [texts[v.message_id][v.start : v.end] for v in result.verdicts]
    assert spans == [
        "Can you price the wholesale order",
        "the wholesale   pricing for forty mugs",
        "studio’s wholesale prices for the new glaze range — “matte",
    ]
    assert result.evidence[0]["start"] == 0 and result.evidence[0]["conversation"] == "ann-1"


def test_span_survives_nfkc_and_invisible_characters():
    text = "Plan the kiln \ufb01ring sched\u200bule for FRIDAY, please."
    corpus = _corpus([(1, 1, "c1", text, False)])
    result = verify(corpus, "kiln firing schedule for friday", min_conversations=1)
    assert result.ok, result.reason
    v = result.verdicts[0]
    assert text[v.start : v.end] == "kiln \ufb01ring sched\u200bule for FRIDAY"


def test_the_conversation_label_is_only_a_hint(world):
    corpus = corpus_of(world)
    result = verify(
        corpus,
        {"quote": "can you price the wholesale order", "conversation": "ann-3"},
        {"quote": "the wholesale pricing for forty mugs", "conversation": "nonsense"},
        {"quote": "wholesale prices for the new glaze", "conversation": None},
    )
    assert result.ok, result.reason
    assert [v.conversation_label for v in result.verdicts] == ["ann-1", "ann-2", "ann-3"]


# --- rejected, each with its reason ---------------------------------------------------------


GOOD = ("can you price the wholesale order", "the wholesale pricing for forty mugs")


@pytest.mark.parametrize(
    ("quote", "reason"),
    [
        ("schedule for next week then price the wholesale", ACROSS_MESSAGES),
        ("rice the wholesale order for", MID_WORD),
        ("can you price the wholesal", MID_WORD),
        ("here is the wholesale pricing sheet", NOT_FOUND),  # an assistant message
        ("the sealed wholesale pricing for the secret", NOT_FOUND),  # a sealed conversation
        ("other agent wholesale pricing for the gift", NOT_FOUND),  # another agent's
        ("bob needs wholesale pricing for his market", NOT_FOUND),  # another person's
        ("handle wholesale pricing for the studio", NOT_FOUND),  # a directive message
        ("wholesale pricing please", TOO_SHORT),
        ("see you at the market", NO_SHARED_WORD),
        ("price the retail order for the café", NOT_FOUND),  # a word changed
        ("the wholesale order price for", NOT_FOUND),  # words out of order
    ],
)
def test_rejected_quotes_carry_their_reason(world, quote, reason):
    corpus = corpus_of(world)
    result = verify(corpus, *GOOD, quote)
    bad = result.verdicts[2]
    assert not bad.ok and not bad.counted
    assert bad.reason == reason
    assert not result.ok
    assert f'Quote 3 ("{quote}") was rejected: {reason}.' in result.reason
    assert result.conversations == 2
    assert all(v.ok for v in result.verdicts[:2])


def test_another_persons_quote_is_found_in_team_mode(world):
    """Proof that the single-person rejection above comes from the exclusion."""
    result = verify(corpus_of(world, team=True), "bob needs wholesale pricing for his market")
    v = only(result)
    assert v.ok and v.conversation_label == "bob-1" and v.principal_external_id == "bob"


def test_three_quotes_from_one_conversation_count_once(world):
    corpus = corpus_of(world)
    result = verify(
        corpus,
        "can you price the wholesale order",
        "wholesale order for the garden centre",
        "round the wholesale prices up",
    )
    assert not result.ok
    assert result.conversations == 1
    assert [v.counted for v in result.verdicts] == [True, False, False]
    assert [v.reason for v in result.verdicts[1:]] == [ALREADY_COUNTED, ALREADY_COUNTED]
    assert {v.conversation_label for v in result.verdicts} == {"ann-1"}
    assert (
        "verified in 1 conversation; at least 3 different conversations are needed" in result.reason
    )


def test_a_hallucinated_quote_fails_the_proposal_even_with_enough_good_ones(world):
    corpus = corpus_of(world)
    result = verify(
        corpus,
        *GOOD,
        "wholesale prices for the new glaze",
        "they always ask me about wholesale pricing",
    )
    assert result.conversations == 3
    assert not result.ok
    assert NOT_FOUND in result.reason


def test_no_quotes_is_refused(world):
    result = verify(corpus_of(world))
    assert not result.ok and "quotes nothing" in result.reason


def test_min_conversations_is_respected(world):
    result = verify(corpus_of(world), *GOOD, min_conversations=3)
    assert not result.ok and "verified in 2 conversations" in result.reason
    assert verify(corpus_of(world), *GOOD, min_conversations=2).ok


# --- corrections (standing rules) -----------------------------------------------------------


def test_corrections_only_needs_a_line_after_an_assistant_reply(world):
    corpus = corpus_of(world)
    rule = "Round wholesale prices up to whole pounds."
    ok = verify(
        corpus,
        "round the wholesale prices up",
        text=rule,
        min_conversations=1,
        corrections_only=True,
    )
    assert ok.ok, ok.reason
    first_request = verify(
        corpus,
        "can you price the wholesale order",
        text=rule,
        min_conversations=1,
        corrections_only=True,
    )
    v = only(first_request)
    assert not v.ok and v.reason == NOT_CORRECTION
    assert v.conversation_label == "ann-1"  # where it was found, for "why was this refused?"


# --- the assignment that counts the most ----------------------------------------------------


def _corpus(rows, *, team=False):
    """rows: (principal_id, conversation_id, label, text, after_assistant)."""
    messages = [
        ReadMessage(
            id=i + 1,
            conversation_id=cid,
            conversation_label=label,
            principal_id=pid,
            principal_external_id=f"p{pid}",
            seq=i + 1,
            text=text,
            created_at=T0,
            after_assistant=after,
        )
        for i, (pid, cid, label, text, after) in enumerate(rows)
    ]
    return ReviewCorpus(
        agent_id=1,
        messages=messages,
        conversation_ids=list(dict.fromkeys(m.conversation_id for m in messages)),
        team_mode=team,
    )


def test_best_assignment_counts_the_most_conversations():
    corpus = _corpus(
        [
            (1, 1, "c1", "please price the wholesale order today and also plan the firing", False),
            (1, 2, "c2", "price the wholesale order again", False),
        ]
    )
    # A is found in c1 and c2 and hinted at c1; B only in c1. Greedy in order would give
    # A -> c1 and leave B without a conversation; the matching gives A -> c2, B -> c1.
    result = verify(
        corpus,
        {"quote": "price the wholesale order", "conversation": "c1"},
        {"quote": "also plan the firing", "conversation": "c1"},
        min_conversations=2,
    )
    assert result.ok, result.reason
    assert [v.conversation_label for v in result.verdicts] == ["c2", "c1"]
    assert result.conversations == 2


def test_best_assignment_prefers_more_people_in_team_mode():
    corpus = _corpus(
        [
            (1, 1, "ann-1", "price the wholesale order for me", False),
            (2, 2, "bob-1", "price the wholesale order for the shop", False),
            (1, 3, "ann-2", "plan the kiln firing schedule", False),
        ],
        team=True,
    )
    result = verify(
        corpus,
        {"quote": "price the wholesale order", "conversation": "ann-1"},
        {"quote": "plan the kiln firing", "conversation": "ann-2"},
        min_conversations=2,
        min_users=2,
    )
    assert result.ok, result.reason
    assert result.users == 2
    assert result.verdicts[0].conversation_label == "bob-1"


def test_team_mode_needs_min_users_different_people(world):
    team = corpus_of(world, team=True)
    ann_only = verify(team, *GOOD, "wholesale prices for the new glaze", min_users=2)
    assert ann_only.conversations == 3 and ann_only.users == 1
    assert not ann_only.ok
    assert "from 1 person; team mode needs at least 2 different people" in ann_only.reason
    with_bob = verify(team, *GOOD, "bob needs wholesale pricing for his market", min_users=2)
    assert with_bob.ok, with_bob.reason
    assert with_bob.users == 2
    assert {v.principal_external_id for v in with_bob.verdicts} == {"ann", "bob"}


def _brute_force(candidates, owner):
    """The best (conversations, people) over every assignment: the reference."""
    best = (0, 0)
    quotes = list(candidates)
    for choice in product(*[[None, *candidates[q]] for q in quotes]):
        chosen = [c for c in choice if c is not None]
        if len(chosen) != len(set(chosen)):
            continue
        best = max(best, (len(chosen), len({owner[c] for c in chosen})))
    return best


def test_matching_equals_brute_force_on_random_cases():
    rng = Random(4)
    for _ in range(300):
        n_quotes, n_convs = rng.randint(1, 5), rng.randint(1, 5)
        owner = {c: rng.randint(1, 3) for c in range(n_convs)}
        candidates = {
            q: rng.sample(range(n_convs), rng.randint(1, n_convs)) for q in range(n_quotes)
        }
        preferred = {q: rng.choice([None, *range(n_convs)]) for q in range(n_quotes)}
        got = _match(candidates, owner, preferred)
        assert all(c in candidates[q] for q, c in got.items())
        assert len(set(got.values())) == len(got)
        assert (len(got), len({owner[c] for c in got.values()})) == _brute_force(candidates, owner)


def test_too_many_quotes_are_refused(world):
    result = verify(corpus_of(world), *(["can you price the wholesale order"] * (MAX_QUOTES + 1)))
    assert not result.ok and "at most 20" in result.reason


# --- the normalisation the verifier relies on -------------------------------------------------


def test_normalize_for_match_maps_every_character_back():
    original = "Don’t  STOP\u200b—the “Kiln”!"
    norm, index_map = normalize_for_match(original)
    assert norm == "dont stop the kiln"
    assert len(index_map) == len(norm)
    assert [original[index_map[i]] for i, ch in enumerate(norm) if ch != " "] == list(
        "DontSTOPtheKiln"
    )


def test_words_and_content_words():
    assert words("Follow-up on the studio's invoices, please!") == [
        "follow",
        "up",
        "on",
        "the",
        "studios",
        "invoices",
        "please",
    ]
    assert content_words("pricing") == content_words("prices") == content_words("price")
    assert content_words("Can you please help me with the orders?") == content_words("order")
    assert content_words("is it the one") == set()


def test_ascii_fast_path_matches_the_general_normaliser():
    import random
    import string

    from safety import text as textnorm

    rng = random.Random(7)
    alphabet = string.ascii_letters + string.digits + " '`.,-!?\n\t\"()"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert textnorm._normalize_ascii(text) == textnorm._normalize_general(text), text
