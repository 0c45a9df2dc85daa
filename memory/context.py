"""``build_context``: what an assistant should know about a person for one question.

Read-only and side-effect free (nothing is stored, not even the query's vector). A
fixed number of queries whatever the number of beliefs: the person, their active
beliefs (with stored vectors), the query vector's lookup, open intentions, routines (and
the open intentions once more when a question names an event: "before the renewal"),
and (only when the first hits carry a quote) whether those quotes' conversations are
sealed: a sealed conversation is never quoted.

Ranking starts from the seed's score (seed 003, PersonaTrace)::

    score = (0.15 + 0.85 * similarity) * (0.35 + 0.65 * retention)

and changes it where ``bench/eval_recall.py`` showed a gain on its tune part (the
heldout part was measured once, after the change; see the figures in the issue note):
retention weighs less (``0.8 + 0.2 * retention``: an old belief is still true; the seed's
weights let a fading but right answer drop below a fresh, unrelated one), and
``similarity`` mixes three parts: a lexical score (the share of the query's IDF mass,
IDF over the person's candidate beliefs, that a statement covers; not divided by the
best candidate's, which made one common shared word worth a full match; counted as far
as the statement's cosine agrees, so an incidental shared word does not outrank a
statement near in meaning), the embedding
cosine of query and statement (min-max normalised over the candidates; the query is
encoded twice, as asked and as its content words alone, and the two cosines mixed: the
function words of a question pull its vector towards any question about a person; less
the statement's hubness, its mean cosine with the category descriptions: a statement
near any description of a person is near every question about one, and came first for
questions it does not answer; plus, for a question near one of the question bank's
everyday questions, the cosine with the answer prototype of the bank topics it is nearest:
"What does he do for a living these days?" is near the bank's "What does she do for a
living?", and the bank's job statements are near "Drives trams for Edinburgh Trams",
which the question alone is not; ``BANK_ANSWER_SHARE``), and
a category prior (the query's cosine with a one-line description of each category, so
"what should I leave out of her salad?" leans towards dislikes; without it the tune
part loses 12 points of recall@3). A **time facet** (``memory.time_facet``) reads the
question's time with a small grammar relative to ``now`` ("next week", "in March",
"three months ago", "before the renewal": an event found among the person's dated
beliefs and intentions) and ranks beliefs by their due time and validity window against
it: a date inside the span moves a belief up, a date elsewhere moves it down, and a
question asking nothing but time is ranked by the dates. Beliefs whose validity ended
(``valid_until < now``) never answer a question in the present tense, but the belief
that took over from one (``memory.candidates.successors``: it started when that one
ended, or within a month if of its category) answers what the ended one answered ("Does she cycle to work?" -> "Drives a
Yaris"); a superseded belief is never an answer, but the belief that replaced it
(``superseded_by``, through a chain of corrections) answers what it answered, for any
question; a question only
softly in the past ("what tea did she drink?") ranks them below a current near-twin,
a plainly past one ("used to", "last spring") as any other; beliefs not yet valid
appear only for time questions, and a belief with a due time (a one-off: "a league
match on Wednesday") ranks below its standing near-twin ("plays in the chess club") for
a question that names no time. Another person's beliefs are never read: the
query is scoped to one principal of the agent's tenant, so the person's own name in the
question ("Who is Farah's boss?") is no evidence for one of their beliefs: it is left
out of the words and of the time reading, and the encoder reads "the person" instead;
so are the names their identity beliefs say they go by ("... but everyone calls her
Nell") and a short form of one ("Mari" for Marisol)."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from memory import bank_topics
from memory.candidates import Candidates, load_from_beliefs, read_person, successors
from memory.models import Belief, Intention, Message, Principal, Routine
from memory.models_beliefs import PINNED_CATEGORIES, SENSITIVITY_BY_NAME, Sensitivity
from memory.subjects import (
    about_the_person,
    asks_the_name_of_a_thing_of_theirs,
    other_subject,
    possessed_things,
    proper_words,
    role_names,
)
from memory.time_facet import (
    COVERS,
    INSIDE,
    OFF_EVENT,
    Event,
    TimeAsk,
    event_date,
    prepared_for,
    read_time,
    time_match,
)
from safety.encoder import DIM
from safety.text import STOP_WORDS, content_words, strip_accents, words

#: The seed's score: similarity floor and weight, retention floor and weight.
SIM_FLOOR, SIM_WEIGHT = 0.15, 0.85
RET_FLOOR, RET_WEIGHT = 0.8, 0.2
#: Share of the embedding cosine in the similarity when vectors are used.
EMBEDDING_SHARE = 0.7
#: The time facet (``memory.time_facet``): a belief whose dates answer the question
#: (match m in (0, 1]) moves this share of m towards full similarity; one dated at another
#: time loses this share of |m| of its similarity.
TIME_WEIGHT = 0.6
ELSEWHERE_WEIGHT = 1.0
#: a dated statement naming the day or holiday asked, dated at most this long before the
#: span, leads into it ("arrives on 20 December and spends Christmas", "over Christmas")
LEAD_IN = timedelta(days=7)
#: ... and when the question asks nothing but time ("what is due next week?"), the
#: match is this share of the similarity.
PURE_TIME_SHARE = 0.8
#: An ended belief answering a question only softly in the past ("what tea did she
#: drink?") keeps this share of its score, so a current near-twin outranks it.
ENDED_SOFT_PAST = 0.8
#: A belief with a due time is a one-off ("Plays a league match away at Selby on
#: Wednesday"): it answers a question about time, and for one that names no time it
#: keeps this share of its similarity, so the standing belief it is a near-twin of ("Plays
#: in the chess club on Wednesday evenings") comes first for "Does he play chess?";
#: 1 turns it off.
DATED_UNTIMED = 0.8
#: Share, in the cosine, of the question's content words encoded on their own ("leave
#: out salad" for "What should I leave out of her salad?"): the function words of a
#: question pull its vector towards any question about a person.
CONTENT_QUERY_SHARE = 0.5
#: Share of the category prior (the query's cosine with a description of each category,
#: min-max normalised over the categories) in the similarity; 0 turns it off.
CATEGORY_SHARE = 0.3
#: ... but a question whose cosines with the category descriptions spread less than this
#: leans to no category ("How old is her little boy?" is about as near "family, dates"
#: as "hobbies"): there a statement's prior counts as far as its meaning agrees (times
#: its normalised cosine), so the answer nearest in meaning is not pushed down by the
#: category a vague question happened to lean to; 0 turns the check off.
CATEGORY_SURE_SPREAD = 0.4
#: Hubness: a statement near every description of a person ("Is a night owl who does
#: her best drawing after ten in the evening") is near every question about a person as
#: well, and came first for questions it does not answer ("Who is her other half?").
#: This share of its ``hubness`` (its mean cosine with the category descriptions) is
#: taken off its cosine with the question (hubness reduction in the manner of CSLS, with
#: the descriptions as the reference set: one product per query, no model call); 0
#: turns it off.
HUB_SHARE = 1.0
#: Succession: a belief whose validity ended never answers a question in the present
#: tense, but the belief that took over from it (``memory.candidates.successors``: it
#: started when the ended one ended, or within a month if of its category, or later
#: across a gap, if of its category and the nearest in meaning; an heir that ended too
#: hands on, ``SUCCESSION_CHAIN``) answers what it answered,
#: with this share of its similarity ("Does she cycle to work?" -> "Drives a Yaris", from the day "Cycled to
#: work" ended); a superseded belief's replacement likewise; 0 turns both off.
SUCCESSION_SHARE = 1.0
#: A question led by "who" or "whom" ("Who signs off her training?", "Who is he seeing these
#: days?", "Whom does she go walking with?") asks for a person; memory keeps the people in
#: the person's life as ``interpersonal`` statements, and the encoder reads the question by
#: what it is about (training, walking), nearer the person's own statements of that (her
#: course, her hikes) than the one naming who does it. Such statements gain this share of
#: their normalised cosine (the person nearest the question's meaning gains most); 0 turns
#: it off. Over the 37 seen recall folds 130 of 141 questions led by "who" expect an
#: ``interpersonal`` statement (the others: a habit, "Who takes my boy in the mornings?";
#: a visit planned, "Who's coming to stay over Christmas?"; a flatmate kept as a fact);
#: 0.15, 0.3 and 0.5 each gain (bench/eval_recall/README.md, recall38).
WHO_PERSON_SHARE = 0.5
WHO_CATEGORIES = ("interpersonal",)
_WHO_ASKED = re.compile(r"^\W*(?:who|whom)\b", re.IGNORECASE)


def asks_for_a_person(query: str) -> bool:
    """Whether the question is led by "who" or "whom" (see ``WHO_PERSON_SHARE``)."""
    return _WHO_ASKED.match(query) is not None


#: A yes/no question led by a modal of possibility, permission or willingness ("Can I take
#: her out for a steak?", "Would she help me clear the gutters?", "Could he give me a hand
#: with the wardrobe?") asks whether something is possible or acceptable for the person
#: (not "Should I ring her or text?": advice, which how to approach them answers, as
#: ``style_notes`` do): what bears on it is what
#: they cannot or will not do (``LIMIT_CATEGORIES``), which the question does not name
#: (a fear of heights, a diet, a pledge), while what it names ("steak", "a pint") is
#: nearer their likes. Such statements gain this share of their normalised cosine (so a
#: limit the question's meaning does not touch gains little); 0 turns it off.
LIMITS_SHARE = 0.3
LIMIT_CATEGORIES = ("constraints", "boundaries")
_MODAL_LED = re.compile(
    r"^\W*(?:(?:can|could|would|will|may|might)(?:n['\u2019]t|not)?|won['\u2019]t)\b",
    re.IGNORECASE,
)


#: A question led by "should" or "shall" ("Shall I bring a nice bottle of red?", "Should I
#: ring her or drop her a line?") asks for advice on a step the asker means to take:
#: what bears on it is what the person cannot or will not do, as for a modal of
#: possibility, or how they want to be approached (``ADVICE_CATEGORIES``); those
#: statements gain ``ADVICE_SHARE`` of their normalised cosine; 0 turns it off. Only a
#: question led by it: "What should I …" / "How should I …" were tried and lose on
#: three folds (``bench/eval_recall/README.md``, retrieval14 and retrieval15).
ADVICE_SHARE = 0.3
ADVICE_CATEGORIES = (*LIMIT_CATEGORIES, "style_notes")
_ADVICE_LED = re.compile(r"^\W*(?:should|shall)\b", re.IGNORECASE)


#: An offer or a plan put to the person ("Shall I bring a nice bottle of red?", "Can he run
#: me home after chess on a winter evening?", "Would a canoe trip be a good present for
#: her?"; led as for ``LIMITS_SHARE`` or ``ADVICE_SHARE``): the limit that answers is not
#: named, and the encoder puts it far below what the question names (the chess club, the
#: river), so a lift times its normalised cosine over all her statements barely moves it
#: (the reason the bank's categories did not carry it either: a share of a low cosine).
#: Among the person's own limits (``LIMIT_CATEGORIES``, a handful), though, the one that
#: bears on the plan's object is most often the nearest (no alcohol for the bottle, night
#: vision for the winter evening, a fear of water for the canoe): each limit gains this
#: share of its ranked cosine min-max normalised over the person's limits, raised to
#: ``NEAREST_LIMIT_POWER`` (the nearest fully, one halfway between an eighth); 0 turns it
#: off. A question that reads most as how to approach the person (its nearest category
#: description is ``style_notes``'s: "Should I ring her or just drop her a line?", "Will
#: he answer if I just drop him a line?") is left out: a style note answers it.
NEAREST_LIMIT_SHARE = 0.3
NEAREST_LIMIT_POWER = 3.0
#: ... and that check reads the first description of ``style_notes`` only (how answers are
#: to be written to the person), not its second (``CATEGORY_SECOND_HINTS``: getting in
#: touch by calls and texts): "Would he come up Mount Kenya with us at New Year?" is near
#: "with us" ~ getting in touch, yet asks whether his limits allow it. False reads both.
LIMIT_APPROACH_FIRST_LINE = True
#: ... and the limits are told apart by the plan as well as by the whole question: the
#: ranked cosine carries the frame of the offer ("Would she enjoy …", "Could he help me
#: …") and the bank's answer prototype for it, and put a limit the plan does not touch
#: first ("Will not talk about her divorce" for a tour of a copper mine), while the plan's
#: own words (the question's content phrase, as for ``CONTENT_QUERY_SHARE``: "enjoy
#: guided tour deep inside old copper mine", "help lay new tiles kitchen floor") are
#: nearest the limit that rules it out (claustrophobia, knees that cannot kneel). A
#: limit's standing among the person's limits is this share of its cosine with the
#: content phrase and the rest of its ranked cosine; 0 ranks by the ranked cosine alone.
LIMIT_PLAN_SHARE = 0.5


def nearest_limits(cosine: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Each of ``limits``' (a mask) standing among them by ``cosine``: min-max normalised
    over them, raised to ``NEAREST_LIMIT_POWER``; 0 elsewhere, and for every one when
    fewer than two differ to tell apart."""
    out = np.zeros(len(cosine), dtype=np.float64)
    if int(limits.sum()) < 2:
        return out
    present = cosine[limits]
    low, high = float(present.min()), float(present.max())
    if high - low <= 1e-9:
        return out
    out[limits] = ((present - low) / (high - low)) ** NEAREST_LIMIT_POWER
    return out


#: An offer or a plan is put as often without a modal: behind a condition ("If she comes
#: round on Sunday, can we …?", "If I'm making her a sandwich, does it matter …?") or as
#: whether it is acceptable ("Is a satay all right to bring …?", "Is it a problem for her
#: if lunch …?", "The GP wants to put him on amoxicillin, is that all right?"):
#: ``offer_question`` reads both, for ``LIMITS_SHARE`` and ``nearest_limit_lift``.
_CONDITION_LED = re.compile(r"^\W*if\b[^,?]*,\s*", re.IGNORECASE)
_WH_LED = re.compile(r"^\W*(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
_ACCEPTABLE = re.compile(
    r"\b(?:(?:is|are|be|was|would)\b.*\b(?:all\s*right|ok|okay|fine|a\s+problem|an\s+issue)"
    r"|(?:does|do|would|will)\s+(?:it|that|this)\s+matter"
    r"|(?:does|do|would|will)(?:n['\u2019]t)?\s+\w+\s+mind)\b",
    re.IGNORECASE,
)


#: ... or told in a clause of its own beside the question ("Is Des coeliac? I want to bake
#: him a cake", "Is she free on Friday, we'd like to take her sailing"): the asker's own
#: plan, "I" or "we" with a verb of intent before "to" or "will"
_PLAN_TOLD = re.compile(
    r"^\W*(?:i|we)\b\s*(?:(?:am|are|['\u2019]m|['\u2019]re)\s+)?(?:"
    r"(?:want|wanted|would\s+like|['\u2019]d\s+like|plan|planning|intend|intending|mean|"
    r"meaning|hope|hoping|going)\s+to|(?:will|['\u2019]ll)|thinking\s+(?:of|about))\b",
    re.IGNORECASE,
)
#: where a question's clauses part: the end of a sentence, a semicolon, a comma
_CLAUSE_END = re.compile(r"[.?!;,]+\s*")
#: ... and a dash set between spaces, which parts a clause as a comma does ("I run a bakery
#: - would a sourdough loaf be a nice present for her?": the offer is the second clause);
#: False parts at punctuation only. A hyphen inside a word ("pick-me-up") parts nothing.
DASH_PARTS_CLAUSES = True
_CLAUSE_OR_DASH = re.compile(r"[.?!;,]+\s*|\s+[-\u2013\u2014]+\s+")


def offer_question(query: str) -> bool:
    """Whether the question puts an offer or a plan to the person: led by a modal or by
    "should"/"shall", after a leading condition or not, or a yes/no question whether
    something is all right, a problem or matters (not a wh-question); or any of its
    clauses does so, or tells the asker's plan (``_PLAN_TOLD``)."""
    if _offer_led(query):
        return True
    parts = _CLAUSE_OR_DASH if DASH_PARTS_CLAUSES else _CLAUSE_END
    clauses = [c for c in parts.split(query) if c.strip()]
    return any(_offer_led(c) or _PLAN_TOLD.match(c) for c in clauses[1:]) or bool(
        clauses and _PLAN_TOLD.match(clauses[0])
    )


def _offer_led(query: str) -> bool:
    """Whether ``query`` puts an offer or a plan at its head (see ``offer_question``)."""
    if modal_question(query) or advice_question(query):
        return True
    main = _CONDITION_LED.sub("", query, count=1)
    if main != query and (modal_question(main) or advice_question(main)):
        return True
    return _WH_LED.match(main) is None and _ACCEPTABLE.search(query) is not None


def nearest_limit_lift(
    query: str,
    ranked_cosine: np.ndarray,
    limits: np.ndarray,
    prior: dict[str, float],
    plan_cosine: np.ndarray | None = None,
) -> np.ndarray | None:
    """What each statement's similarity gains for an offer or a plan (``offer_question``)
    not read most as how to approach the person (``prior``: ``_category_prior``):
    ``NEAREST_LIMIT_SHARE`` times ``nearest_limits`` over ``limits``, by their ranked
    cosine and, with ``LIMIT_PLAN_SHARE``, their cosine with the plan (``plan_cosine``:
    the question's content phrase; None when it has none); None for any other question."""
    if NEAREST_LIMIT_SHARE <= 0 or not offer_question(query):
        return None
    if max(prior, key=prior.__getitem__) == "style_notes":
        return None
    standing = ranked_cosine
    if plan_cosine is not None:
        standing = (1 - LIMIT_PLAN_SHARE) * ranked_cosine + LIMIT_PLAN_SHARE * plan_cosine
    return NEAREST_LIMIT_SHARE * nearest_limits(standing, limits)


#: An offer that rests on a thing of the person's ("Could she bring her van to help me
#: move?", "Can he give me a lift on his motorbike?": ``subjects.possessed_things``) is
#: answered first by whether they have it: the statement that names the thing (the head
#: of the possessed phrase, "van", "motorbike") bears on the offer as their limits do, and
#: gains as they do (``LIMITS_SHARE``, ``nearest_limit_lift``); ended ("Drove a farrier's
#: van"), it hands what it gains to the belief that took over from it ("Drives a Skoda").
#: False leaves the limits alone in the lift.
OFFERED_THING = True


#: ... only an offer the person is asked to carry out ("Can the person give me a lift in
#: his Volvo?", up to a condition or a mark of punctuation): in "Can I make her a cake for
#: her birthday?" or "Would she mind if we did a tasting for her birthday?" the asker acts,
#: and "her birthday" is no thing of hers the plan rests on
_PERSON_ACTS = re.compile(
    r"^\W*(?:can|could|would|will|might)(?:n['\u2019]t|\s+not)?\s+(?:the\s+person|he|she|they)\b"
    r"([^?.,;!]*?)(?:\b(?:if|when|because|so|unless)\b|[?.,;!]|$)",
    re.IGNORECASE,
)


def offered_thing_rows(cand: Candidates, asked: str) -> np.ndarray | None:
    """The rows naming a thing of the person's an offer they are asked to carry out rests
    on (``_PERSON_ACTS``; the last word of each phrase ``subjects.possessed_things``
    reads in it); None when none does."""
    acts = _PERSON_ACTS.match(asked) if OFFERED_THING else None
    if acts is None:
        return None
    mask = np.zeros(cand.n, dtype=bool)
    for phrase in possessed_things(acts[1]):
        for term in content_words(phrase[-1]):
            post = cand.postings.get(term)
            if post is not None:
                mask[post] = True
    return mask if mask.any() else None


#: A passing state written days ago ("Is snowed under with alterations", "Has a bad
#: blister") is near every question about how the person lives now ("What does she do
#: for a living these days?", "Who is he seeing at the moment?"; the description of
#: ``state``, "how the person is right now", reads every "now"), but answers only one
#: about how they are. Unless the question reads so (``asks_how_they_are``), a statement
#: of ``PASSING_CATEGORIES`` keeps this share of its similarity, for a question about
#: time as well ("What has she got on this week?": not the cold); 1 turns it off.
PASSING_STATE_SHARE = 0.7
PASSING_CATEGORIES = ("state",)


def asks_how_they_are(
    qvec: np.ndarray, bank: QuestionBank | None, prior: dict[str, float]
) -> float:
    """How far the question asks how the person is: 1 if its nearest category description
    (``prior``) is one of ``PASSING_CATEGORIES``; else the share of its nearest bank
    questions' votes (``bank_votes``) for topics the bank files under them (mood, health),
    times the bank's gate; 0 without the bank."""
    if max(prior, key=prior.__getitem__) in PASSING_CATEGORIES:
        return 1.0
    if bank is None or bank.topic_category is None:
        return 0.0
    votes, nearest = bank_votes(qvec, bank)
    gate = (nearest - BANK_NEAR_FLOOR) / (1 - BANK_NEAR_FLOOR)
    total = float(votes.sum())
    if gate <= 0 or total <= 0:
        return 0.0
    mine = np.isin(bank.topic_category, _limit_codes(PASSING_CATEGORIES))
    return min(1.0, gate * float(votes[mine].sum()) / total)


#: A yes/no question about what the person does, has or is ("Does Joon-ho row in a pilot
#: gig?", "Is she learning Portuguese?", "Does he have a cat?") is often put on what
#: someone else does: the answer is the person's own statement of the same kind (curling,
#: Japanese classes, a dog), which shares no word with the question and which the
#: encoder may put far from it. The question read as a statement (``whether_statement``:
#: "row in a pilot gig") is near the question bank's example statements of its kind (a
#: sport, a language course, a pet), as the person's statements are near theirs
#: (``memory.bank_topics``, their votes stored with their vectors): each statement's
#: ranked cosine gains this share of how far its topics agree with those of the
#: question's ``bank_topics.NEIGHBOURS`` nearest bank statements, times the gate
#: ``(nearest - KIND_FLOOR) / (1 - KIND_FLOOR)``; 0 turns it off. Only the asked person's
#: statements and the bank (no one's data) are read: no other person's memory is (the
#: reading of retrieval21, not merged, used the other person's statement).
KIND_SHARE = 0.6
#: ... a question read as a statement whose nearest bank statement has a cosine of this or
#: less is of no kind the bank is sure of, and lifts nothing (at the bank's 0.4 the lift
#: follows weak readings and loses on four folds; bench/eval_recall/README.md,
#: retrieval23).
KIND_FLOOR = 0.6
_WHETHER_LED = re.compile(
    r"^\W*(do|does|did|is|are|was|were|has|have|had)(?:n['\u2019]t)?\s+"
    r"(?:(?:the\s+person|he|she|they|i|you)\s+)?",
    re.IGNORECASE,
)
_AS_STATED = {"do": "", "does": "", "did": "", "are": "is ", "were": "was ", "have": "has "}


def whether_statement(query: str) -> str:
    """A yes/no question about the person read as a statement of theirs ("Does the person
    tune pianos?" -> "tune pianos", "Is she afraid of heights?" -> "is afraid of
    heights"); empty for any other question (a wh-question, an offer, a plan)."""
    main = _CONDITION_LED.sub("", query, count=1)
    if main != query or _offer_led(query):
        return ""
    led = _WHETHER_LED.match(query)
    if led is None:
        return ""
    aux = led.group(1).lower()
    rest = query[led.end() :].strip().rstrip("?.! ").strip()
    if aux in ("do", "does") and re.match(r"have\b", rest, re.IGNORECASE):
        rest = "has" + rest[4:]  # "Does she have a dog?" -> "has a dog"
    return (_AS_STATED.get(aux, aux + " ") + rest).strip() if rest else ""


def kind_votes(svec: np.ndarray, bank: QuestionBank) -> tuple[np.ndarray, float]:
    """The topics the ``bank_topics.NEIGHBOURS`` bank statements nearest ``svec`` (a
    question read as a statement) vote for (each vote its cosine, summed by topic), and
    the nearest one's cosine."""
    sims = bank.statements @ svec
    k = min(bank_topics.NEIGHBOURS, len(sims))
    near = np.argpartition(-sims, k - 1)[:k]
    votes = np.zeros(len(bank.answers))
    np.add.at(votes, bank.statement_topic[near], np.maximum(sims[near], 0.0))
    return votes, float(sims[near].max())


def kind_lift(svec: np.ndarray, bank: QuestionBank, votes: np.ndarray) -> np.ndarray | None:
    """What each statement's ranked cosine gains where its topics (``votes``, as stored)
    agree with those the question read as a statement is near (``KIND_SHARE`` times the
    agreement times the gate); None when no bank statement is near it."""
    question, nearest = kind_votes(svec, bank)
    gate = (nearest - KIND_FLOOR) / (1 - KIND_FLOOR)
    if gate <= 0 or KIND_SHARE <= 0:
        return None
    return KIND_SHARE * gate * bank_topics.agreement(question, votes)


def advice_question(query: str) -> bool:
    """Whether the question is led by "should" or "shall" (see ``ADVICE_SHARE``)."""
    return _ADVICE_LED.match(query) is not None


def modal_question(query: str) -> bool:
    """Whether the question is led by a modal of possibility, permission or willingness
    (see ``LIMITS_SHARE``)."""
    return _MODAL_LED.match(query) is not None


CATEGORY_HINTS = {
    "explicit_facts": "facts about the person's life: where they live, dates, family, what they own",
    "expertise": "what the person knows well: skills, languages and experience",
    "projects": "what the person is working on or building",
    "goals": "what the person wants to achieve or learn",
    "likes": "what the person likes, enjoys and loves: favourite food, drinks, music, places",
    "dislikes": "what the person dislikes, hates or avoids, food they will not eat",
    "constraints": "limits: what the person cannot do, budget, time, diet restrictions",
    "identity": "who the person is: name, job, pronouns, where they come from",
    "traits": "the person's character and personality",
    "interests": "the person's hobbies, interests, books and pastimes",
    "style_notes": "how to write to the person: format, tone and length of answers",
    "behavior_patterns": "how the person usually behaves and works",
    "decision_style": "how the person makes decisions",
    "interpersonal": "the people in the person's life and how they relate: family, colleagues",
    "boundaries": "topics the person does not want to discuss",
    "habit": "what the person does regularly: routines, exercise, commute",
    "state": "how the person is right now: mood, health, energy",
}
#: The question bank (``memory/data/asked_about_a_person.jsonl``, written by someone who
#: read neither the code nor the evaluation: per topic of a person's life, the questions
#: people ask about it in everyday words and the statements memory holds about it). The
#: encoder does not relate "What does he do for a living these days?" to "Drives trams
#: for Edinburgh Trams", but it relates the question to the bank's "What does she do for
#: a living?", and the bank's job statements to the tram driver: the question's
#: ``BANK_NEIGHBOURS`` nearest bank questions vote for their topics (each vote its
#: cosine), and the mean vector of the voted topics' statements (an answer prototype,
#: written once, not generated) is added to the query's vector with this share, times
#: the gate ``(nearest - BANK_NEAR_FLOOR) / (1 - BANK_NEAR_FLOOR)`` (1 for a question
#: word for word in the bank); 0 turns the bank off. The protocol (``bench/eval_recall/
#: README.md``, retrieval10) passes from 0.8 to 1.2 at a floor of 0.4, and at 1.0 from a
#: floor of 0.3 to 0.5; 1.4 only at 0.5, and 1.6 or more nowhere: the topic outweighs
#: the question (the default folder loses).
BANK_ANSWER_SHARE = 1.0
#: ... a question whose nearest bank question has a cosine of this or less is about
#: nothing the bank knows, and is left as asked.
BANK_NEAR_FLOOR = 0.4
#: ... the number of nearest bank questions that vote (1 follows one wrong neighbour,
#: 5 or 8 blur the topic).
BANK_NEIGHBOURS = 3
#: The bank reads the person's statements too (``memory.bank_topics``): each statement's
#: nearest bank statements vote for their topics, and a statement ranks up by this share
#: of how far its topics agree with the question's, times the bank's gate (above): the
#: tram driver's nearest bank statement is the lorry driver's, so it is read as a job
#: however far it is from the mean of the bank's job statements. Its votes are stored
#: with its vector; 0 turns it off.
BANK_TOPIC_SHARE = 0.3
#: The bank's topics name the category memory keeps their statements under. For who the
#: person is and who is in their life (``BANK_CATEGORIES``) that category is the better
#: reading of a statement than its words: "Drives trams for Edinburgh Trams" is read by
#: the bank as a commute and "His partner Ailsa is a marine biologist" as science, but the
#: host filed them as ``identity`` and ``interpersonal``. A statement of those categories
#: gains this share of its normalised cosine times the share of the question's bank votes
#: that go to its category raised to ``BANK_CATEGORY_POWER`` (a question whose three
#: neighbours all ask for a job lifts fully, two of three by 0.3), times the bank's gate:
#: "What does she do for a living these days?" is near the bank's job questions, so her
#: ``identity`` statements rank up as far as their meaning agrees; 0 turns it off. Every
#: category of the bank was tried and loses on three folds (a commute is a ``habit`` in
#: the bank and a ``likes`` or ``explicit_facts`` for some hosts).
BANK_CATEGORY_SHARE = 0.3
BANK_CATEGORY_POWER = 3.0
BANK_CATEGORIES = ("identity", "interpersonal")
#: ... and which of those statements: the bank's example statements of the asked topics
#: (of ``BANK_CATEGORIES``: a job, a partner, a boss) read one by one. A statement of those
#: categories gains this share of how like the nearest example of each asked topic it is
#: (its cosine with that example, weighted by the question's votes for the topic and
#: min-max normalised over the person's statements), times the share of the votes those
#: topics have, the bank's gate and its normalised cosine: "His partner Callum is a
#: veterinary nurse" is nearer "Her husband Tomasz is a civil engineer" than the
#: person's son or physiotherapist are, though its nearest bank statements overall are of
#: pets and children; 0 turns it off. Read over every topic and statement it loses on
#: nine folds of fourteen (bench/eval_recall/README.md, retrieval19).
BANK_LIKENESS_SHARE = 0.3
BANK_PATH = Path(__file__).resolve().parent / "data" / "asked_about_a_person.jsonl"
#: The category descriptions (``CATEGORY_HINTS``) say what a category holds in the words of
#: the one filing it ("who the person is: name, job, …"); a question says what it needs in
#: everyday words ("What does he do to earn a crust?", "What's the easiest way to get in
#: touch with her?"), which the encoder puts as near hobbies or routines as the description
#: of the category that answers. The bank's questions are the everyday words: this share of
#: the category prior is the question's reading against the bank's topics filed under each
#: category (``bank_category_reading``: its nearest topic of the category, a topic being the
#: mean of its questions; "earn a crust" is nearest the job questions, ``identity``; "get in
#: touch" the ones on how to write to her, ``style_notes``), the rest the descriptions'; 0
#: turns it off. Over the 39 seen recall folds 0.3, 0.5 and 0.7 all gain; 0.7 as much as
#: 0.5 with more folds down (bench/eval_recall/README.md, recall39).
CATEGORY_BANK_SHARE = 0.5
MAX_PINNED = 6
#: the longest message a host may ask about (the /v1 route and the MCP tool refuse longer)
MAX_QUERY_CHARS = 2_000
#: Cross-category items (seed 003): after the ranked items, the best item of each
#: category they miss, if it is relevant at all (this similarity or more), at most this many.
MAX_CROSS_CATEGORY = 3
CROSS_CATEGORY_MIN_SIMILARITY = 0.3
EVIDENCE_FOR_FIRST = 3
ROUTINE_PROBE_HOURS = 12


def time_intent(query: str, now: datetime | None = None) -> bool:
    """Whether ``query`` asks about time (``memory.time_facet.read_time``)."""
    return read_time(query, now or datetime.now(UTC)).about_time


def past_intent(query: str, now: datetime | None = None) -> bool:
    """Whether ``query`` is not in the present tense: plainly past ("used to", a span that
    ended) or with only an auxiliary in the past ("did", "was")."""
    ask = read_time(query, now or datetime.now(UTC))
    return ask.past or ask.soft_past


#: What stands for the person where a question names them ("Who is Farah's boss?" is
#: ranked as "Who is their boss?"): build_context is already scoped to that person, so
#: their name says nothing about which belief answers, yet it is a rare word (a high
#: IDF) and pulls the query's vector towards the few statements that name them.
READ_TIME_UNNAMED = True
#: the person's possessive in the question read for time ("Dori's summer": "their summer")
TIME_POSSESSIVE = "their "
NAME_STANDIN = "the person"
#: a clause in the past after "before" (``TimeAsk.past_clause``) says when, not what: its
#: words are left out of the words matched (not of the sentence encoded); False keeps them
CLAUSE_SAYS_WHEN = True
_CLAUSE_RELATION = re.compile(r"\b(?:before|by|until|till)\b", re.IGNORECASE)
NAME_STANDIN_POSSESSIVE = "the person's"
_POSSESSIVE = r"(?:['\u2019]s?)?"


_NAME_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")


def _without_clause(text: str) -> str:
    """``text`` without its last clause led by "before" (by, until, till), which runs to
    its end ("What did she do for work before she moved to Cornwall?" -> "What did she do
    for work?"); as it is when nothing would be left to ask."""
    found = list(_CLAUSE_RELATION.finditer(text))
    if not found:
        return text
    head = text[: found[-1].start()].rstrip(" ,;:")
    if not content_words(head):
        return text
    return head + ("?" if text.rstrip().endswith("?") else "")


def _person_names(external_id: str, display_name: str) -> list[str]:
    """The words naming a person: their display name's words and their id when it is
    a word (``farah``; not ``user-1234``), function words left out ("Will"), longest
    first, in lower case."""
    names = {w.lower() for w in _NAME_WORD.findall(display_name) if len(w) > 1}
    if _NAME_WORD.fullmatch(external_id) and len(external_id) > 1:
        names.add(external_id.lower())
    names = {n.replace("\u2019", "'") for n in names}
    return sorted(names - STOP_WORDS, key=lambda w: (-len(w), w))


#: A short form of a name in a question ("Mari" for Marisol) is taken for the name when
#: it is at least this long and a prefix of a name the person goes by.
SHORT_NAME_MIN = 3


def _bare_name(word: str) -> str:
    """A name word in lower case, its apostrophe straight and its possessive off."""
    return re.sub(r"'s$", "", word.lower().replace("\u2019", "'"))


#: The words by which a statement says what a person is called ("Her name is ...",
#: "everyone calls her Nell"; not "goes" nor "known": "goes to Bath", "known for").
NAMING_WORDS = frozenset({"name", "named", "nickname", "call", "calls", "called"})


def names_in_beliefs(statements: list[str], names: list[str]) -> list[str]:
    """The names a person goes by, as their identity beliefs state them: in an identity
    statement that names them and says what they are called ("Her name is Fenella
    Garside but everyone calls her Nell", for a person known as Nell), every capitalised
    word but the first (the sentence's), a function word never. A statement that does
    not say what they are called ("Nell grew up in Swindon") gives nothing, so a place
    is not taken for a name. A name is known with or without its accents (the id
    ``joaquin`` is the "Joaquín" a statement names)."""
    found: set[str] = set()
    for text in statements:
        if not states_the_name(text, names):
            continue
        ws = _NAME_WORD.findall(text)
        found.update(_bare_name(w) for w in ws[1:] if w[0].isupper() and len(w) > 1)
    known = {strip_accents(n) for n in names}
    return sorted((found | known | set(names)) - STOP_WORDS, key=lambda w: (-len(w), w))


def states_the_name(statement: str, names: list[str]) -> bool:
    """Whether a statement names the person and says what they are called ("His name is
    Rimantas Kairys; everyone calls him Rimas"), with or without a name's accents."""
    bare = {strip_accents(_bare_name(w)) for w in _NAME_WORD.findall(statement)}
    return bool(NAMING_WORDS & bare) and bool({strip_accents(n) for n in names} & bare)


def short_names(query: str, names: list[str]) -> list[str]:
    """The short forms of ``names`` the question uses: a capitalised word, not the
    question's first, at least ``SHORT_NAME_MIN`` letters, no function word, that begins
    a longer name ("Mari" of Marisol; not "May" opening "May she ...")."""
    out = []
    for w in _NAME_WORD.findall(query)[1:]:
        low = _bare_name(w)
        if (
            w[0].isupper()
            and len(low) >= SHORT_NAME_MIN
            and low not in STOP_WORDS
            and low not in names
            and any(n.startswith(low) for n in names)
        ):
            out.append(low)
    return out


def _names_of(cand: Candidates, names: list[str]) -> list[str]:
    """``names_in_beliefs`` of the person's identity beliefs, once per candidate set."""
    key = tuple(names)
    if cand.names is None or cand.names[0] != key:
        identity = [
            r[2] for r, a in zip(cand.rows, cand.active, strict=True) if a and r[1] == "identity"
        ]
        cand.names = (key, names_in_beliefs(identity, names))
    return cand.names[1]


#: A question asking what something of the person's is called ("What's Rimas's hawk
#: called?", "What's the name of her cat?": ``subjects.asks_the_name_of_a_thing_of_theirs``)
#: is not answered by the identity statement that says what the person is called ("His
#: name is Rimantas Kairys; everyone calls him Rimas": ``states_the_name``), though the
#: encoder reads the two as near (both say what someone is called, and the question's
#: stand-in for the person is what the statement is about): that statement keeps 1 - this
#: share of its similarity. A question about the person's own name ("What's his
#: nickname?", "What do his friends call him?") is left alone; 0 turns it off.
OWN_NAME_SHARE = 0.5


def own_name_rows(cand: Candidates, names: list[str]) -> np.ndarray:
    """The person's identity statements that say what they are called (``states_the_name``)."""
    return np.fromiter(
        (r[1] == "identity" and states_the_name(r[2], names) for r in cand.rows),
        bool,
        cand.n,
    )


#: For a question about the person themself (``subjects.about_the_person``: no "who", no
#: possessive putting someone of theirs in question; not a time question), a statement
#: about someone else in their life ("His daughter Lotte is a vet", "Poppy swims in the
#: gala") answers for that someone: its similarity keeps 1 - this share unless the
#: question names whom it is about ("Does his daughter ..." has a possessive anyway,
#: "Is Lotte a vet?" names her). 0 turns it off.
OTHER_SUBJECT_SHARE = 0.3
#: a question the question bank reads as asking after the person's people ("Does she have
#: any siblings?", "Is he married?": ``bank_categories`` gives "interpersonal" a weight) is
#: answered by a statement about one of them: the rule leaves it alone
OTHER_SUBJECT_PEOPLE_GATE = True


def _subjects_of(cand: Candidates, names: list[str]) -> list[frozenset[str]]:
    """For each row, the content-word stems naming whom it is about when that is not the
    person (``subjects.other_subject``), once per candidate set."""
    key = tuple(names)
    if cand.subjects is None or cand.subjects[0] != key:
        statements = [r[2] for r in cand.rows]
        proper = proper_words(statements)
        own = frozenset(names)
        found = [other_subject(t, proper, own) for t in statements]
        cand.subjects = (key, [frozenset(content_words(" ".join(s))) if s else s for s in found])
    return cand.subjects[1]


def other_subject_mask(
    cand: Candidates, names: list[str], asked: str, query_terms: frozenset[str]
) -> np.ndarray | None:
    """The rows about someone else whom the question does not name, for a question about
    the person themself (see ``OTHER_SUBJECT_SHARE``); None when the rule does not apply."""
    if OTHER_SUBJECT_SHARE <= 0 or not about_the_person(asked):
        return None
    subjects = _subjects_of(cand, names)
    mask = np.fromiter((bool(s) and not s & query_terms for s in subjects), bool, len(subjects))
    return mask if mask.any() else None


def without_names(
    query: str,
    names: list[str],
    standin: str = NAME_STANDIN,
    possessive: str = NAME_STANDIN_POSSESSIVE,
) -> str:
    """``query`` with each run of the person's names replaced by ``standin`` (by
    ``possessive`` for "Farah's"); unchanged when it names no one. In a question that
    capitalises anything, a name written in lower case is the word ("the price", not
    Dr Price)."""
    if not names:
        return query
    alternation = "|".join(re.escape(n).replace("'", "['\u2019]") for n in names)
    pattern = re.compile(rf"\b(?:{alternation})(?:[\s-]+(?:{alternation}))*\b({_POSSESSIVE})", re.I)
    cased = query != query.lower()

    def one(match: re.Match[str]) -> str:
        if cased and match.group(0)[0].islower():
            return match.group(0)
        return possessive if match.group(1) else standin

    return pattern.sub(one, query)


def _content_phrase(query: str) -> str:
    """The question without its function words (``safety.text.STOP_WORDS``), in order;
    empty when nothing else is left or nothing was left out."""
    all_words = words(query)
    kept = [w for w in all_words if w not in STOP_WORDS]
    return " ".join(kept) if 0 < len(kept) < len(all_words) else ""


#: "a living" is a noun, the person's livelihood ("What does she do
#: for a living?", "How does he earn a living?"), not the verb "live": its stem is that of
#: "Lives in ..." and "Lived in a flat ...", so the question's words matched the person's
#: homes, ended ones handing the match to the current home; the words leave it out (the
#: encoder reads the question as asked). False turns it off.
LIVING_AS_NOUN = True
_A_LIVING = re.compile(r"\b(?:a|an)\s+living\b(?!\s+room)", re.IGNORECASE)


def _word_reading(question: str) -> str:
    """The question as its words are matched: without "living" where it is the noun of
    "for a living" (``LIVING_AS_NOUN``)."""
    return _A_LIVING.sub("a", question) if LIVING_AS_NOUN else question


@functools.lru_cache(maxsize=65_536)
def _terms(text: str) -> frozenset[str]:
    """Content-word stems of a statement (cached: statements repeat across queries)."""
    return frozenset(content_words(text))


@dataclass(frozen=True)
class PackItem:
    id: int
    category: str
    statement: str
    score: float
    similarity: float
    lexical: float
    cosine: float | None
    retention: float
    confidence: float
    corroboration_count: int
    why: str
    pinned: bool = False
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    due_at: datetime | None = None
    evidence_quote: str | None = None
    evidence_message_id: int | None = None
    source_host: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "statement": self.statement,
            "category": self.category,
            "score": round(self.score, 4),
            "why": self.why,
            "similarity": round(self.similarity, 4),
            "lexical": round(self.lexical, 4),
            "cosine": None if self.cosine is None else round(self.cosine, 4),
            "retention": round(self.retention, 4),
            "confidence": self.confidence,
            "corroboration_count": self.corroboration_count,
            "pinned": self.pinned,
            "valid_from": _iso(self.valid_from),
            "valid_until": _iso(self.valid_until),
            "due_at": _iso(self.due_at),
            "evidence": (
                None
                if self.evidence_quote is None
                else {
                    "quote": self.evidence_quote,
                    "message_id": self.evidence_message_id,
                    "host": self.source_host or None,
                }
            ),
        }


@dataclass(frozen=True)
class AgendaItem:
    id: int
    action: str
    due_at: datetime
    score: float
    overdue: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "action": self.action,
            "due_at": _iso(self.due_at),
            "score": round(self.score, 4),
            "overdue": self.overdue,
        }


@dataclass(frozen=True)
class RoutineProbe:
    id: int
    action: str
    time: str
    status: str
    question: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "action": self.action,
            "time": self.time,
            "status": self.status,
            "question": self.question,
        }


@dataclass
class ContextPack:
    principal: str
    query: str
    now: datetime
    time_intent: bool
    used_embeddings: bool
    items: list[PackItem] = field(default_factory=list)
    pinned: list[PackItem] = field(default_factory=list)
    agenda: list[AgendaItem] = field(default_factory=list)
    routine_probes: list[RoutineProbe] = field(default_factory=list)
    cross_category: list[PackItem] = field(default_factory=list)

    @property
    def ranking(self) -> str:
        """``"embedding"`` when the query's meaning was used, else ``"words"`` (embeddings
        off, no stored vectors, or the model still loading in this process)."""
        return "embedding" if self.used_embeddings else "words"

    def as_dict(self) -> dict[str, Any]:
        return {
            "principal": self.principal,
            "query": self.query,
            "now": _iso(self.now),
            "time_intent": self.time_intent,
            "used_embeddings": self.used_embeddings,
            "ranking": self.ranking,
            "items": [i.as_dict() for i in self.items],
            "pinned": [i.as_dict() for i in self.pinned],
            "agenda": [a.as_dict() for a in self.agenda],
            "routine_probes": [r.as_dict() for r in self.routine_probes],
            "cross_category": [i.as_dict() for i in self.cross_category],
        }


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def words_and_meaning(lexical: np.ndarray, meaning: np.ndarray, has_vec: np.ndarray) -> np.ndarray:
    """The similarity of each statement from its word score and its (normalised) cosine.

    The words cross-check the meaning: a shared word counts as far as the statement is
    near the question in meaning ("How does he stay fit?" shares "stay" with "Stays calm
    under pressure", an incidental word), and in full for a statement whose vector is
    not stored yet (its meaning is unknown, not far)."""
    agree = np.where(has_vec, meaning, 1.0)
    return EMBEDDING_SHARE * meaning + (1 - EMBEDDING_SHARE) * lexical * agree


def normalised_cosine(
    cosine: np.ndarray, has: np.ndarray, also: np.ndarray | None = None
) -> np.ndarray:
    """The cosines of the statements with a stored vector (``has``) min-max normalised
    over them (1 for every one when they are all equal); 0 for the others, but for
    those in ``also`` (with a vector), on the same scale clipped to [0, 1]."""
    present = cosine[has]
    low, high = float(present.min()), float(present.max())
    span = high - low
    scaled = np.clip((cosine - low) / span, 0.0, 1.0) if span > 1e-9 else np.ones_like(cosine)
    return np.where(has | (False if also is None else also), scaled, 0.0)


def hubness(matrix: np.ndarray, descriptions: np.ndarray) -> np.ndarray:
    """How near each statement is to a statement about anyone: its cosine with the mean
    of the category descriptions (a fixed reference set of generic texts about a
    person; ``matrix @ descriptions.mean(0)`` is the mean of its cosines with them)."""
    return matrix @ descriptions.mean(axis=0)


def _category_codes(cand: Candidates) -> np.ndarray:
    """Each candidate's category as an index into ``CATEGORY_HINTS`` (the order of
    ``_category_prior``), computed once per candidate set."""
    if cand.category_codes is None:
        index = {c: k for k, c in enumerate(CATEGORY_HINTS)}
        cand.category_codes = np.fromiter(
            (index[r[1]] for r in cand.rows), dtype=np.int64, count=cand.n
        )
    return cand.category_codes


def _limit_codes(categories: tuple[str, ...] = LIMIT_CATEGORIES) -> np.ndarray:
    """The codes (as ``_category_codes``) of ``categories`` (``LIMIT_CATEGORIES``)."""
    names = list(CATEGORY_HINTS)
    return np.array([names.index(c) for c in categories], dtype=np.int64)


def _hubness_of(cand: Candidates) -> np.ndarray:
    """``hubness`` of the person's candidates, computed once per candidate set and
    encoder (it does not depend on the query)."""
    from memory.embeddings import get_model

    model = get_model()
    if cand.hub is None or cand.hub[0] is not model:
        cand.hub = (model, hubness(cand.matrix, _description_vectors()))
    return cand.hub[1]


def _successors_of(cand: Candidates) -> np.ndarray:
    """``memory.candidates.successors`` of the person's candidates, once per set and
    bank: read by the ended belief's topics when the question bank is at hand at no cost
    (``bank_if_kept``), else by meaning alone."""
    bank = bank_if_kept()
    digest = "" if bank is None else bank.digest
    if cand.successor is None or cand.successor[0] != digest:
        topics = None
        if bank is not None:
            topics = (_statement_votes(cand, bank), _likeness_of(cand, bank))
        cand.successor = (digest, successors(cand, _category_codes(cand), topics))
    return cand.successor[1]


#: An heir that ended too hands on to its own heir ("Lived in a flat above her workshop"
#: -> "Rented a room in a student house", ended -> "Rents a house in Chapel Allerton"), up
#: to this many steps; 0 stops at the first heir.
SUCCESSION_CHAIN = 3


def _current_heirs(heir: np.ndarray, gone: np.ndarray) -> np.ndarray:
    """``heir`` with each heir that cannot answer (``gone``: ended, or superseded) replaced
    by its own heir, up to ``SUCCESSION_CHAIN`` steps (a copy; ``heir`` is cached)."""
    out = heir
    for _ in range(SUCCESSION_CHAIN):
        has = out >= 0
        step = has & gone[np.where(has, out, 0)] & (heir[np.where(has, out, 0)] >= 0)
        if not step.any():
            break
        out = out.copy() if out is heir else out
        out[step] = heir[out[step]]
    return out


def seed_score(similarity: float, retention: float) -> float:
    return (SIM_FLOOR + SIM_WEIGHT * similarity) * (RET_FLOOR + RET_WEIGHT * retention)


#: In-process cache of candidates by (database, person), checked against the person's
#: ``beliefs_token`` (a new random value on every belief change), bounded in rows.
CACHE_MAX_ROWS = 100_000
_cache: OrderedDict[tuple[str, int], tuple[str, Candidates]] = OrderedDict()
_cache_lock = threading.Lock()


def _candidates(principal: Principal) -> Candidates:
    """The person's candidates: from this process's cache when their beliefs have not
    changed, else from their packed block (one row), else from the beliefs themselves
    (and, for a person with many, a worker is asked to pack the block)."""
    token = principal.beliefs_token
    key = (Belief.objects.db, principal.pk)
    if token:
        with _cache_lock:
            hit = _cache.get(key)
            if hit is not None and hit[0] == token:
                _cache.move_to_end(key)
                return hit[1]
    cand = read_person(principal.pk, token, principal.belief_block_token)
    if token and cand.n <= CACHE_MAX_ROWS:
        with _cache_lock:
            _cache[key] = (token, cand)
            _cache.move_to_end(key)
            while sum(c.n for _, c in _cache.values()) > CACHE_MAX_ROWS and len(_cache) > 1:
                _cache.popitem(last=False)
    return cand


#: the loader from the belief rows (``bench/pages.py`` times it on its own)
_load_candidates = load_from_beliefs


def clear_candidate_cache() -> None:
    with _cache_lock:
        _cache.clear()


#: A category may be read by a second description besides its ``CATEGORY_HINTS`` line:
#: a limit of the body (an illness, an injury, an allergy) is a limit as much as a budget
#: or a diet ("Is he allergic to penicillin?", "How does she manage her diabetes?" lean
#: to the person's limits, where their own asthma or bad back is kept, not to their
#: dislikes), but one description naming both reads as neither (with health added to the
#: line, "What mustn't go into her dinner?" drifted from the diet and paraphrases lost on
#: eight folds). The question's prior for the category is the nearer of its two
#: descriptions (hubness keeps to the main ones); empty turns it off.
CATEGORY_SECOND_HINTS: dict[str, str] = {
    "constraints": "health conditions, illnesses, injuries and allergies the person has",
    # how the person wants to be reached is kept with how they want answers written
    # ("Prefers a phone call after the evening milking"), which the first line names not
    "style_notes": "how and when to get in touch with the person: calls, texts and messages",
}
_category_vectors: tuple[object, np.ndarray] | None = None
_second_vectors: tuple[object, tuple[tuple[str, str], ...], np.ndarray] | None = None


def _description_vectors() -> np.ndarray:
    """The vectors of the category descriptions (``CATEGORY_HINTS``, in its order),
    encoded once per process and model (never stored: build_context writes nothing)."""
    global _category_vectors
    from memory.embeddings import encode, get_model

    model = get_model()
    if _category_vectors is None or _category_vectors[0] is not model:
        _category_vectors = (model, encode([CATEGORY_HINTS[c] for c in CATEGORY_HINTS]))
    return _category_vectors[1]


def _second_vectors_of() -> np.ndarray:
    """The vectors of ``CATEGORY_SECOND_HINTS`` (in its order), encoded once per process,
    model and set of descriptions."""
    global _second_vectors
    from memory.embeddings import encode, get_model

    model = get_model()
    key = tuple(CATEGORY_SECOND_HINTS.items())
    if _second_vectors is None or _second_vectors[0] is not model or _second_vectors[1] != key:
        _second_vectors = (model, key, encode([text for _, text in key]))
    return _second_vectors[2]


@dataclass(frozen=True)
class QuestionBank:
    """The question bank's vectors: every example question (the person's name read as
    ``NAME_STANDIN``, as a question's is), the topic each asks about, and each topic's
    answer prototype (the normalised mean of its statements' vectors); every example
    statement and its topic (``memory.bank_topics`` reads a person's statements by
    them), and ``digest``, naming this bank as read by this model: topic votes stored
    under another digest are computed again."""

    questions: np.ndarray
    topic_of: np.ndarray
    answers: np.ndarray
    statements: np.ndarray
    statement_topic: np.ndarray
    digest: str
    #: each topic's category as written in the bank, as an index into ``CATEGORY_HINTS``
    #: (-1 for a category memory does not have)
    topic_category: np.ndarray | None = None
    #: each topic's questions as one vector (their normalised mean): what people ask about
    #: what the topic holds (``CATEGORY_BANK_SHARE``)
    topic_questions: np.ndarray | None = None


_bank: tuple[object, QuestionBank] | None = None
_bank_lock = threading.Lock()


def _name_read(text: str, *, question: bool) -> str:
    """A bank text with its ``{name}`` read as a question reads it (the stand-in) or as a
    statement names nobody ("{name} is a plumber" -> "is a plumber")."""
    if question:
        text = text.replace("{name}'s", NAME_STANDIN_POSSESSIVE)
        return text.replace("{name}", NAME_STANDIN)
    return re.sub(r"\{name\}(?:'s)?\s*", "", text).strip()


def read_bank(data: bytes | None = None) -> list[dict[str, Any]]:
    """The bank's topics as written (one JSON object a line)."""
    text = (BANK_PATH.read_bytes() if data is None else data).decode("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _bank_cache_file(model: object, bank_bytes: bytes) -> Path | None:
    """Where the served (ONNX) encoder's vectors of this bank are kept: next to its file,
    named by it and by the bank's hash (a new bank or export is encoded afresh); None for
    any other model (torch, a test's stand-in: encoded once per process)."""
    from safety import encoder

    if model is not getattr(encoder, "_model", None) or getattr(model, "backend", None) != "onnx":
        return None
    return _bank_file_of(bank_bytes)


def _bank_file_of(bank_bytes: bytes) -> Path:
    from safety import encoder

    digest = hashlib.sha256(bank_bytes).hexdigest()[:16]
    onnx = encoder.onnx_path()
    return onnx.with_name(f"{onnx.stem}.question-bank.{digest}.npy")


def write_bank_file(*, force: bool = False) -> tuple[Path | None, bool]:
    """The served (ONNX) encoder's vectors of the bank written next to it, once per
    machine (``manage.py memory encode-bank``, which ``make install`` runs: a server's
    first calls then rank with the bank instead of waiting for a thread to encode it).
    Returns the file and whether this call wrote it: a file already there is left as it
    is (no model loaded) unless ``force``; (None, False) when the encoder that loads is
    not the ONNX one (nothing is kept on disk for it)."""
    global _bank
    from safety import encoder

    bank_bytes = BANK_PATH.read_bytes()
    path = _bank_file_of(bank_bytes)
    if path.exists() and not force:
        return path, False
    model = encoder.get_model()
    if _bank_cache_file(model, bank_bytes) is None:
        return None, False
    with _bank_lock:
        path.unlink(missing_ok=True)
        _bank = None
    question_bank()
    if not path.exists():
        raise OSError(f"Could not write the question bank's vectors to {path}")
    return path, True


def _bank_vectors(model: object, texts: list[str], bank_bytes: bytes) -> np.ndarray:
    """The vectors of the bank's texts: from the file next to the encoder when there is
    one and this model encodes its first text as the file holds it (encoding the whole
    bank takes seconds on two cores, one text milliseconds), else encoded and written
    there (atomically; a read-only folder only means encoding again next process)."""
    from memory.embeddings import encode

    path = _bank_cache_file(model, bank_bytes)
    if path is not None:
        with contextlib.suppress(OSError, ValueError):
            cached = np.load(path, allow_pickle=False)
            if cached.shape == (len(texts), DIM) and np.allclose(
                cached[0], encode(texts[:1])[0], atol=1e-3
            ):
                return cached
    vectors = encode(texts)
    if path is not None:
        with contextlib.suppress(OSError):
            part = path.with_suffix(f".{os.getpid()}.part")
            with part.open("wb") as f:
                np.save(f, vectors, allow_pickle=False)
            os.replace(part, path)
    return vectors


def question_bank() -> QuestionBank:
    """The bank's vectors, once per process and model (from the file next to the
    encoder, or one batch)."""
    global _bank
    from safety import encoder

    model = encoder.get_model()
    with _bank_lock:
        if _bank is None or _bank[0] is not model:
            bank_bytes = BANK_PATH.read_bytes()
            topics = read_bank(bank_bytes)
            questions = [_name_read(q, question=True) for t in topics for q in t["questions"]]
            statements = [_name_read(s, question=False) for t in topics for s in t["statements"]]
            vectors = _bank_vectors(model, questions + statements, bank_bytes)
            qv, sv = vectors[: len(questions)], vectors[len(questions) :]
            topic_of = np.repeat(np.arange(len(topics)), [len(t["questions"]) for t in topics])
            bounds = np.cumsum([0] + [len(t["statements"]) for t in topics])
            answers = np.stack(
                [sv[a:b].mean(axis=0) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
            )
            answers /= np.linalg.norm(answers, axis=1, keepdims=True)
            statement_topic = np.repeat(np.arange(len(topics)), np.diff(bounds))
            digest = bank_topics.digest_of(bank_bytes, model)
            index = {c: k for k, c in enumerate(CATEGORY_HINTS)}
            topic_category = np.array(
                [index.get(str(t.get("category", "")), -1) for t in topics], dtype=np.int64
            )
            asked = np.stack([qv[topic_of == t].mean(axis=0) for t in range(len(topics))])
            asked /= np.linalg.norm(asked, axis=1, keepdims=True)
            _bank = (
                model,
                QuestionBank(
                    qv, topic_of, answers, sv, statement_topic, digest, topic_category, asked
                ),
            )
        return _bank[1]


def bank_if_kept() -> QuestionBank | None:
    """The bank's vectors when they cost no encoding and no model load: the model is in
    this process and the bank too, or kept on disk (read in milliseconds). A write path
    asks this: it never waits for the bank nor starts encoding it (the ranking computes
    what a write could not store)."""
    from safety import encoder

    if not encoder.model_loaded():
        return None
    held, on_disk = _bank_at_hand(encoder.get_model())
    if held is not None:
        return held
    return question_bank() if on_disk else None


def _bank_at_hand(model: object) -> tuple[QuestionBank | None, bool]:
    """The bank this process holds for ``model`` (or None), and whether its vectors are
    kept on disk for ``model`` (read in milliseconds)."""
    current = _bank
    if current is not None and current[0] is model:
        return current[1], True
    path = _bank_cache_file(model, BANK_PATH.read_bytes())
    return None, path is not None and path.exists()


_bank_thread: threading.Thread | None = None
#: guards the start of ``_bank_thread`` (not ``_bank_lock``: the thread holds that one
#: while it encodes, and a call that may not wait must not wait for it)
_bank_thread_lock = threading.Lock()
#: how long a process that is exiting waits for the bank still being encoded (a daemon
#: thread inside the ONNX session at interpreter exit aborts the process)
BANK_EXIT_WAIT_SECONDS = 15.0


def bank_if_ready(wait: bool) -> QuestionBank | None:
    """The bank's vectors when they cost no wait: encoded already in this process, kept
    on disk (read in milliseconds), or ``wait`` (the caller may wait for the model, as it
    may for the model's load); otherwise they are encoded in a daemon thread (seconds:
    not spent on this call) and this call ranks without the bank."""
    global _bank_thread
    import atexit

    from safety import encoder

    held, on_disk = _bank_at_hand(encoder.get_model())
    if held is not None:
        return held
    if wait or on_disk:
        return question_bank()
    with _bank_thread_lock:
        if _bank_thread is None or not _bank_thread.is_alive():
            _bank_thread = threading.Thread(
                target=question_bank, name="question-bank-encode", daemon=True
            )
            _bank_thread.start()
            atexit.register(_bank_thread.join, BANK_EXIT_WAIT_SECONDS)
    return None


def bank_votes(qvec: np.ndarray, bank: QuestionBank) -> tuple[np.ndarray, float]:
    """The topics the question's ``BANK_NEIGHBOURS`` nearest bank questions vote for
    (each vote its cosine; summed by topic) and the nearest one's cosine."""
    sims = bank.questions @ qvec
    k = min(BANK_NEIGHBOURS, len(sims))
    near = np.argpartition(-sims, k - 1)[:k]
    votes = np.zeros(len(bank.answers))
    np.add.at(votes, bank.topic_of[near], np.maximum(sims[near], 0.0))
    return votes, float(sims[near].max())


def bank_expansion(qvec: np.ndarray, bank: QuestionBank | None = None) -> np.ndarray | None:
    """What the bank adds to the query's vector: the answer prototype of the topics the
    question's nearest bank questions vote for, times ``BANK_ANSWER_SHARE`` and the gate
    (see there); None when the question is near no bank question."""
    bank = bank or question_bank()
    votes, nearest = bank_votes(qvec, bank)
    gate = (nearest - BANK_NEAR_FLOOR) / (1 - BANK_NEAR_FLOOR)
    if gate <= 0 or votes.sum() <= 0:
        return None
    proto = votes @ bank.answers
    return BANK_ANSWER_SHARE * gate * proto / np.linalg.norm(proto)


def _statement_votes(cand: Candidates, bank: QuestionBank) -> np.ndarray:
    """Every candidate's topic votes under ``bank``'s digest: as stored with its vector,
    those missing (stored before the bank, or under another) computed here once per
    candidate set, never stored (build_context writes nothing)."""
    cached = cand.topic_votes
    if cached is not None and cached[0] == bank.digest:
        return cached[1]
    stored = cand.bank_votes
    if stored is None or cand.bank_votes_digest != bank.digest:
        stored = np.full((cand.n, bank_topics.VOTES_WIDTH), np.nan, dtype=np.float32)
    missing = cand.has_vec & np.isnan(stored[:, 0])
    votes = stored
    if missing.any():
        votes = stored.copy()
        votes[missing] = bank_topics.votes_of(
            cand.matrix[missing], bank.statements, bank.statement_topic
        )
    cand.topic_votes = (bank.digest, votes)
    return votes


def topic_lift(qvec: np.ndarray, bank: QuestionBank, votes: np.ndarray) -> np.ndarray | None:
    """What each statement's ranked cosine gains where its topics agree with the
    question's (``BANK_TOPIC_SHARE`` times the agreement times the gate); None for a
    question near no bank question."""
    question, nearest = bank_votes(qvec, bank)
    gate = (nearest - BANK_NEAR_FLOOR) / (1 - BANK_NEAR_FLOOR)
    if gate <= 0 or BANK_TOPIC_SHARE <= 0:
        return None
    return BANK_TOPIC_SHARE * gate * bank_topics.agreement(question, votes)


def topic_likeness(matrix: np.ndarray, bank: QuestionBank) -> np.ndarray:
    """Each row's cosine with the nearest bank statement of each topic, (n, topics)."""
    sims = np.asarray(matrix, dtype=np.float32) @ bank.statements.T.astype(np.float32)
    starts = np.flatnonzero(np.r_[True, np.diff(bank.statement_topic) != 0])
    out = np.full((len(matrix), len(bank.answers)), -1.0, dtype=np.float32)
    out[:, bank.statement_topic[starts]] = np.maximum.reduceat(sims, starts, axis=1)
    return out


def _likeness_of(cand: Candidates, bank: QuestionBank) -> np.ndarray:
    """``topic_likeness`` of the person's candidates, once per candidate set and bank."""
    if cand.topic_likeness is None or cand.topic_likeness[0] != bank.digest:
        cand.topic_likeness = (bank.digest, topic_likeness(cand.matrix, bank))
    return cand.topic_likeness[1]


def likeness_lift(
    qvec: np.ndarray, bank: QuestionBank, likeness: np.ndarray, has: np.ndarray
) -> np.ndarray | None:
    """How like the bank's examples of the question's topics of ``BANK_CATEGORIES`` each
    statement is (``likeness``, from ``topic_likeness``, weighted by the question's votes
    for those topics, min-max normalised over the rows in ``has``), times the share of
    the question's votes those topics have and the bank's gate; None for a question near
    no bank question or asking nothing of ``BANK_CATEGORIES``."""
    if bank.topic_category is None or not has.any():
        return None
    votes, nearest = bank_votes(qvec, bank)
    gate = (nearest - BANK_NEAR_FLOOR) / (1 - BANK_NEAR_FLOOR)
    total = votes.sum()
    kinds = np.where(np.isin(bank.topic_category, _limit_codes(BANK_CATEGORIES)), votes, 0.0)
    asked = kinds.sum()
    if gate <= 0 or asked <= 0:
        return None
    like = normalised_cosine(likeness @ (kinds / asked), has)
    return gate * (asked / total) * like


def bank_categories(qvec: np.ndarray, bank: QuestionBank) -> np.ndarray | None:
    """What the question asks of ``BANK_CATEGORIES``, one weight per category of
    ``CATEGORY_HINTS`` (0 for the others): the share of its nearest bank questions' votes
    (``bank_votes``) that go to topics the bank files under the category, raised to
    ``BANK_CATEGORY_POWER``, times the bank's gate; None for a question near no bank
    question."""
    if bank.topic_category is None:
        return None
    votes, nearest = bank_votes(qvec, bank)
    gate = (nearest - BANK_NEAR_FLOOR) / (1 - BANK_NEAR_FLOOR)
    total = votes.sum()
    if gate <= 0 or total <= 0:
        return None
    known = bank.topic_category >= 0
    shares = np.zeros(len(CATEGORY_HINTS))
    np.add.at(shares, bank.topic_category[known], votes[known] / total)
    out = np.zeros(len(CATEGORY_HINTS))
    chosen = _limit_codes(BANK_CATEGORIES)
    out[chosen] = gate * shares[chosen] ** BANK_CATEGORY_POWER
    return out


def _category_prior(
    qvec: np.ndarray, bank: QuestionBank | None = None, first_lines: tuple[str, ...] = ()
) -> tuple[dict[str, float], float]:
    """The query's similarity to each category's description, min-max normalised, and
    the spread of the cosines it was normalised from (max - min); with ``bank``, mixed
    with how near the question is to what people ask about each category
    (``bank_category_reading``, ``CATEGORY_BANK_SHARE``). The categories in
    ``first_lines`` are read by their first description only."""
    names = list(CATEGORY_HINTS)
    sims = _description_vectors() @ qvec
    if CATEGORY_SECOND_HINTS:
        sims = sims.copy()
        for c, v in zip(CATEGORY_SECOND_HINTS, _second_vectors_of() @ qvec, strict=True):
            if c in first_lines:
                continue
            k = names.index(c)
            sims[k] = max(sims[k], v)
    low, high = float(sims.min()), float(sims.max())
    span = high - low if high - low > 1e-9 else 1.0
    prior = (sims - low) / span
    asked = None if bank is None or CATEGORY_BANK_SHARE <= 0 else bank_category_reading(qvec, bank)
    if asked is not None:
        prior = (1 - CATEGORY_BANK_SHARE) * prior + CATEGORY_BANK_SHARE * asked
    return {c: float(v) for c, v in zip(names, prior, strict=True)}, high - low


def bank_category_reading(qvec: np.ndarray, bank: QuestionBank) -> np.ndarray | None:
    """The question read against what people ask about each category: for each category
    of ``CATEGORY_HINTS``, the question's cosine with the nearest of the bank's topics
    filed under it (a topic as the mean of its questions), min-max normalised over the
    categories; None for a bank without topic questions or categories, or a category the
    bank files nothing under (then the descriptions alone are read)."""
    if bank.topic_questions is None or bank.topic_category is None:
        return None
    sims = bank.topic_questions @ qvec
    out = np.full(len(CATEGORY_HINTS), -np.inf)
    known = bank.topic_category >= 0
    np.maximum.at(out, bank.topic_category[known], sims[known])
    if not np.isfinite(out).all():
        return None
    low, high = float(out.min()), float(out.max())
    if high - low <= 1e-9:
        return None
    return (out - low) / (high - low)


def _query_vector(query: str) -> np.ndarray:
    """The query's vector: encoded (a few ms with the ONNX encoder), from the encoder's
    cache of recent queries when asked again; never stored (build_context writes nothing)."""
    from safety.encoder import encode_query

    return encode_query(query)


def build_context(
    *,
    agent: Any,
    principal_external_id: str,
    query: str,
    now: datetime,
    limit: int = 10,
    use_embeddings: bool | None = None,
    use_time_facet: bool = True,
    max_sensitivity: str = "confidential",
    wait: bool | None = None,
) -> ContextPack:
    """The pack for one question about one person of ``agent``'s tenant (no writes).

    Every text in it (statements, evidence quotes, agenda actions, routine questions)
    has passed ``safety.checks.render_safe``: a secret or an injection-scan hit (word
    patterns and the learned layer) is withheld as ``[BLOCKED: ...]``, in the JSON and in
    ``render_context`` alike. ``wait`` (default: ``safety.checks.render_wait()``, off on a
    server) decides whether the learned layer may load the model on this call; when it
    may not and a text has no stored vectors yet, the text is withheld as the scanning
    placeholder (never handed over unscanned) and shown from the next call on. Text
    written through ``check_write`` has its vectors stored already.

    The same ``wait`` decides the ranking: the query is encoded only when the model is in
    this process already, when ``wait`` is true, or when the caller asked for embeddings
    explicitly (``use_embeddings=True``); otherwise the pack ranks on words, says so
    (``ranking == "words"``) and the model loads in the background for the next call."""
    from safety.checks import render_wait

    wait_for_model = render_wait() if wait is None else wait
    pack = _build_context(
        agent=agent,
        principal_external_id=principal_external_id,
        query=query,
        now=now,
        limit=limit,
        use_embeddings=use_embeddings,
        use_time_facet=use_time_facet,
        max_sensitivity=max_sensitivity,
        wait_for_model=wait_for_model or use_embeddings is True,
    )
    return _withhold_unsafe(pack, wait=wait)


def _withhold_unsafe(pack: ContextPack, *, wait: bool | None) -> ContextPack:
    """``pack`` with every unsafe text replaced by its placeholder (one scan batch)."""
    from safety.checks import render_safe_many

    beliefs = [*pack.items, *pack.pinned, *pack.cross_category]
    texts = [b.statement for b in beliefs] + [b.evidence_quote or "" for b in beliefs]
    texts += [a.action for a in pack.agenda]
    # a routine's question is this module's fixed wording around its action and time:
    # scanning the action judges it (a question of the day has no stored vector, and
    # would wait for the model on a cold process)
    texts += [p.action for p in pack.routine_probes]
    safe = iter(render_safe_many(texts, wait=wait))
    statements = [next(safe) for _ in beliefs]
    quotes = [next(safe) for _ in beliefs]
    done = [
        replace(b, statement=st, evidence_quote=q if b.evidence_quote is not None else None)
        for b, st, q in zip(beliefs, statements, quotes, strict=True)
    ]
    n, m = len(pack.items), len(pack.pinned)
    pack.items, pack.pinned, pack.cross_category = done[:n], done[n : n + m], done[n + m :]
    pack.agenda = [replace(a, action=next(safe)) for a in pack.agenda]
    actions = [next(safe) for _ in pack.routine_probes]
    pack.routine_probes = [
        # the question quotes the action: a withheld action is withheld in it too
        replace(p, action=a, question=p.question if a == p.action else a)
        for p, a in zip(pack.routine_probes, actions, strict=True)
    ]
    return pack


def _build_context(
    *,
    agent: Any,
    principal_external_id: str,
    query: str,
    now: datetime,
    limit: int,
    use_embeddings: bool | None,
    use_time_facet: bool,
    max_sensitivity: str,
    wait_for_model: bool,
) -> ContextPack:
    from memory.services_beliefs import embeddings_enabled
    from safety.encoder import model_loaded
    from safety.injection import warm_up_in_background

    if use_embeddings is None:
        use_embeddings = embeddings_enabled()
    limit = max(1, min(int(limit), 100))
    level = SENSITIVITY_BY_NAME.get(max_sensitivity, Sensitivity.CONFIDENTIAL)
    ask = read_time(query, now)
    pack = ContextPack(
        principal=principal_external_id,
        query=query,
        now=now,
        time_intent=ask.about_time,
        used_embeddings=False,
    )
    principal = (
        Principal.objects.filter(tenant_id=agent.tenant_id, external_id=principal_external_id)
        .only("id", "display_name", "beliefs_token", "belief_block_token")
        .first()
    )
    if principal is None:
        return pack
    # the person's name is no evidence for one of their beliefs: left out of the words,
    # a neutral stand-in for the encoder (which reads a sentence, not a bag of words)
    # (the names they go by: their display name, their id, those their identity beliefs
    # state, and a short form of one of these in the question)
    cand = _candidates(principal)
    names = _person_names(principal_external_id, principal.display_name)
    names = _names_of(cand, names)
    names = sorted({*names, *short_names(query, names)}, key=lambda w: (-len(w), w))
    asked = without_names(query, names)
    nameless = without_names(query, names, "", "")
    asked, unnamed = _roles_named(asked, nameless, cand, names, int(level), now)
    if READ_TIME_UNNAMED:
        # "What was Farah doing in March?" asks nothing but time; "Farah's summer" is
        # "their summer" (a season of theirs: a possessive, not "summer" alone)
        for_time = without_names(query, names, "", TIME_POSSESSIVE) + unnamed[len(nameless) :]
        ask = read_time(for_time, now)
        pack.time_intent = ask.about_time
    if CLAUSE_SAYS_WHEN and ask.past_clause:
        # "What did she do for work before she moved to Cornwall?": the clause says when
        # (a time gone by); its words are not what is asked, and the ended belief about the
        # move itself would answer for them. The encoder still reads the whole sentence,
        # where the clause's meaning may help ("before he left the city": a job in Dublin)
        unnamed = _without_clause(unnamed)

    n = cand.n
    if ask.relation is not None and use_time_facet:
        ask = _with_event(ask, cand, cand.readable(int(level)), principal.id, now)
    is_time, is_past = ask.about_time, ask.past or ask.soft_past
    # what may answer: never an ended belief for the present, a future one only for time
    readable = cand.readable(int(level))
    eligible = readable.copy()
    if not is_past:
        eligible &= ~(cand.valid_until_ts < now.timestamp())
    if not is_time:
        eligible &= ~(cand.valid_from_ts > now.timestamp())
    rows = cand.rows
    m = int(eligible.sum())
    # beliefs that answer through the one that took their place: a superseded belief
    # (never an answer itself) always, an ended one for a present-tense question
    handed = np.zeros(n, dtype=bool)
    heir = np.full(n, -1, dtype=np.int64)
    if SUCCESSION_SHARE > 0:
        heir = _successors_of(cand)
        handing = ~cand.active
        if not is_past:
            handing = handing | (cand.valid_until_ts < now.timestamp())
        heir = _current_heirs(heir, handing & ~eligible)
        handed = handing & (heir >= 0) & (cand.sensitivity <= int(level))
        handed[handed] = eligible[heir[handed]]

    query_terms = _terms(_word_reading(unnamed))
    lexical = np.zeros(n, dtype=np.float64)
    if m and query_terms:
        # IDF over the eligible candidates, from the cached postings (term -> rows)
        idf: dict[str, float] = {}
        for t in query_terms:
            post = cand.postings.get(t)
            df = int(eligible[post].sum()) if post is not None else 0
            idf[t] = math.log((m + 1) / (df + 1)) + 1.0
        total = sum(idf.values())
        for t in query_terms:
            post = cand.postings.get(t)
            if post is not None:
                lexical[post] += idf[t] / total
        lexical[~(eligible | handed)] = 0.0  # the share of the query's IDF mass covered

    cosine: np.ndarray | None = None
    ranked_cosine: np.ndarray | None = None
    cos_norm = np.zeros(n, dtype=np.float64)
    bank: QuestionBank | None = None
    if use_embeddings and m:
        has = cand.has_vec & eligible
        if has.any() and not (wait_for_model or model_loaded()):
            # the first call of a fresh process: a load of seconds is not spent on this
            # call (it would eat a host's tool timeout); words now, meaning once loaded
            warm_up_in_background()
        elif has.any():
            qvec = _query_vector(asked)
            bare = _content_phrase(asked)
            mixed = qvec
            if CONTENT_QUERY_SHARE > 0 and bare:
                # the mean of the two views' cosines is the cosine with their mean: one
                # product over the person's matrix instead of two
                mixed = (1 - CONTENT_QUERY_SHARE) * qvec + CONTENT_QUERY_SHARE * _query_vector(bare)
            # an everyday question: the answer prototype of its nearest bank questions
            on = BANK_ANSWER_SHARE > 0 or BANK_TOPIC_SHARE > 0
            bank = bank_if_ready(wait_for_model) if on else None
            extra = None if bank is None else bank_expansion(qvec, bank)
            if extra is None:
                cosine = cand.matrix @ mixed
                ranked_cosine = cosine
            else:
                # the item keeps its cosine with the question; its meaning is ranked with
                # the answer prototype's added (one product for both columns)
                columns = np.stack([mixed, extra], axis=1).astype(cand.matrix.dtype)
                both = cand.matrix @ columns
                cosine = both[:, 0]
                ranked_cosine = cosine + both[:, 1]
            if bank is not None and BANK_TOPIC_SHARE > 0:
                # the statements the bank reads as the question's topics rank up
                lift = topic_lift(qvec, bank, _statement_votes(cand, bank))
                if lift is not None:
                    ranked_cosine = ranked_cosine + lift
            stated = whether_statement(asked) if KIND_SHARE > 0 else ""
            if bank is not None and stated:
                # "Does he row in a pilot gig?": his statements of the kind the bank reads
                # "row in a pilot gig" as (a sport) rank up
                lift = kind_lift(_query_vector(stated), bank, _statement_votes(cand, bank))
                if lift is not None:
                    ranked_cosine = ranked_cosine + lift
            # the item keeps its cosine; its meaning is ranked less its hubness
            if HUB_SHARE > 0:
                ranked_cosine = ranked_cosine - HUB_SHARE * _hubness_of(cand)
            cos_norm = normalised_cosine(ranked_cosine, has, handed & cand.has_vec)
            pack.used_embeddings = True

    if pack.used_embeddings:
        similarity = words_and_meaning(lexical, cos_norm, cand.has_vec)
        if CATEGORY_SHARE > 0:
            prior, spread = _category_prior(qvec, bank)
            pvec = np.fromiter(prior.values(), dtype=np.float64, count=len(prior))
            cat = pvec[_category_codes(cand)]
            if spread < CATEGORY_SURE_SPREAD:
                # the question reads about as much like every kind of statement: the
                # prior counts as far as the meaning agrees
                cat = cat * cos_norm
            similarity = (1 - CATEGORY_SHARE) * similarity + CATEGORY_SHARE * cat
        if bank is not None and BANK_CATEGORY_SHARE > 0:
            # "What does she do for a living?": the bank's questions near it ask for a job,
            # which memory keeps as who the person is
            kinds = bank_categories(qvec, bank)
            if kinds is not None:
                lift = kinds[_category_codes(cand)] * cos_norm
                similarity = similarity + BANK_CATEGORY_SHARE * lift
        if bank is not None and BANK_LIKENESS_SHARE > 0:
            # "Who's he seeing?": of his people, the one most like the bank's partners
            like = likeness_lift(qvec, bank, _likeness_of(cand, bank), cand.has_vec & eligible)
            if like is not None:
                kinds = np.isin(_category_codes(cand), _limit_codes(BANK_CATEGORIES))
                similarity = similarity + BANK_LIKENESS_SHARE * like * kinds * cos_norm
        if WHO_PERSON_SHARE > 0 and asks_for_a_person(unnamed):
            # "Who signs off her training?": of her statements, those naming her people
            people_rows = np.isin(_category_codes(cand), _limit_codes(WHO_CATEGORIES))
            similarity = similarity + WHO_PERSON_SHARE * people_rows * cos_norm
        offer = offer_question(unnamed)
        # "Could she bring her van?": whether she has it bears on it as her limits do
        thing = offered_thing_rows(cand, asked) if offer else None
        if thing is None:
            thing = np.zeros(n, dtype=bool)
        if LIMITS_SHARE > 0 and offer and not advice_question(unnamed):
            # "Can I get him a pint?": what he cannot or will not do bears on it
            limits = np.isin(_category_codes(cand), _limit_codes()) | thing
            similarity = similarity + LIMITS_SHARE * limits * cos_norm
        elif ADVICE_SHARE > 0 and advice_question(unnamed):
            # "Shall I bring a bottle of red?": what she will not do, or how she wants it
            advised = np.isin(_category_codes(cand), _limit_codes(ADVICE_CATEGORIES)) | thing
            similarity = similarity + ADVICE_SHARE * advised * cos_norm
        if ranked_cosine is not None:
            # "Shall I bring a bottle of red?": the nearest of her limits bears on it
            limits = np.isin(_category_codes(cand), _limit_codes()) & eligible
            limits = (limits | (thing & (eligible | handed))) & cand.has_vec
            plan = None
            if LIMIT_PLAN_SHARE > 0 and bare:
                # the plan's own words, over the limits only (a handful of rows)
                plan = np.zeros(n, dtype=np.float64)
                plan[limits] = cand.matrix[limits] @ _query_vector(bare)
            first = ("style_notes",) if LIMIT_APPROACH_FIRST_LINE else ()
            prior = _category_prior(qvec, first_lines=first)[0]
            lift = nearest_limit_lift(unnamed, ranked_cosine, limits, prior, plan)
            if lift is not None:
                similarity = similarity + lift
        if PASSING_STATE_SHARE < 1:
            # "What does she do these days?": not the blister she had on Tuesday
            asked_state = asks_how_they_are(qvec, bank, _category_prior(qvec)[0])
            if asked_state < 1:
                passing = np.isin(_category_codes(cand), _limit_codes(PASSING_CATEGORIES))
                keep = 1 - (1 - PASSING_STATE_SHARE) * (1 - asked_state)
                similarity = np.where(passing, keep * similarity, similarity)
    else:
        similarity = lexical.copy()
    people = (
        OTHER_SUBJECT_PEOPLE_GATE
        and bank is not None
        and (kinds := bank_categories(qvec, bank)) is not None
        and kinds[_limit_codes(("interpersonal",))].sum() > 0
    )
    if not is_time and not people:
        # "Does Bernard have a greyhound?": not his daughter the vet
        others = other_subject_mask(cand, names, asked, query_terms)
        if others is not None:
            similarity = np.where(others, (1 - OTHER_SUBJECT_SHARE) * similarity, similarity)
    if OWN_NAME_SHARE > 0 and asks_the_name_of_a_thing_of_theirs(asked):
        # "What's Rimas's hawk called?": not "... everyone calls him Rimas"
        own_name = own_name_rows(cand, names)
        similarity = np.where(own_name, (1 - OWN_NAME_SHARE) * similarity, similarity)
    inherited = np.zeros(n, dtype=bool)
    if handed.any():
        # the successor answers what its ended predecessor answered
        src = np.flatnonzero(handed)
        dst = heir[src]
        before = similarity.copy()
        np.maximum.at(similarity, dst, SUCCESSION_SHARE * similarity[src])
        inherited = similarity > before
        lexical[src] = 0.0

    # scores for every candidate as arrays; items are built only for what is returned
    retention = np.exp(
        -np.maximum(now.timestamp() - cand.reinforced, 0.0) / 86_400 / cand.stability
    )
    match = np.zeros(n, dtype=np.float64)
    if is_time and use_time_facet:
        match = time_match(
            ask, cand.due_ts, cand.valid_from_ts, cand.valid_until_ts, cand.reinforced
        )
        if ask.span is None and ask.relation is None and (ask.past or ask.soft_past):
            # "When was she last back in Kenya?": a past question with no span asks what has
            # happened; a belief dated only ahead of now is dated, but not then
            with np.errstate(invalid="ignore"):
                first = np.fmin(np.fmin(cand.due_ts, cand.valid_from_ts), cand.valid_until_ts)
                match = np.where(first > now.timestamp(), 0.0, match)
        leads_in = np.zeros(n, dtype=bool)
        if ask.named_terms and ask.span is not None:
            # a statement dated in the days just before the span that names the day or
            # holiday asked leads into it ("arrives on 20 December and spends Christmas in
            # the new house", for "over Christmas"): its date is when it starts
            start = np.where(np.isnan(cand.due_ts), cand.valid_from_ts, cand.due_ts)
            lo = ask.span[0].timestamp()
            with np.errstate(invalid="ignore"):
                leads_in = (start < lo) & (start >= lo - LEAD_IN.total_seconds())
        for t in ask.named_terms:
            # an undated statement naming the day, month or season asked is true then, as a
            # window covering the span is ("calls her mother every Sunday"), not dated
            # inside it: a belief dated inside ("visits her parents on Saturday") comes
            # first for "this weekend"; a dated one is judged by its date, or as a window
            # covering the span when it leads into it (above)
            post = cand.postings.get(t)
            if post is not None:
                covering = (match[post] == 0) | ((match[post] < 0) & leads_in[post])
                match[post] = np.where(covering, COVERS, match[post])
        match = np.where(eligible, match, 0.0)
        match = _off_event(match, ask, cand)
        if ask.pure:  # nothing but time asked: the dates decide, the words barely
            similarity = (1 - PURE_TIME_SHARE) * similarity + PURE_TIME_SHARE * np.maximum(
                match, 0.0
            )
        else:
            similarity = np.where(
                match > 0, similarity + TIME_WEIGHT * match * (1 - similarity), similarity
            )
        similarity = similarity * (1 + ELSEWHERE_WEIGHT * np.minimum(match, 0.0))
    if not is_time:  # a one-off event gives way to the standing belief (DATED_UNTIMED)
        similarity = np.where(np.isnan(cand.due_ts), similarity, DATED_UNTIMED * similarity)
    timed = match > 0
    kept = retention
    if ask.span is not None and ask.span[1] <= now and use_time_facet:
        kept = np.ones(n)  # a question about a past span: what was held then, not since
    scores = (SIM_FLOOR + SIM_WEIGHT * similarity) * (RET_FLOOR + RET_WEIGHT * kept)
    if ask.soft_past and not ask.past:
        scores = np.where(cand.valid_until_ts < now.timestamp(), ENDED_SOFT_PAST * scores, scores)
    scores = np.where(eligible, scores, -np.inf)
    # best score first; higher confidence, then lower id break ties (stable and total)
    order = np.lexsort((cand.ids, -cand.confidence, -scores))[: min(limit, m)]

    # a sealed conversation is never quoted: the first hits' quotes from one are withheld
    quoted = {rows[int(i)][11] for i in order[:EVIDENCE_FOR_FIRST] if rows[int(i)][10]}
    sealed = _sealed_messages(quoted - {None})

    def item(i: int, *, with_evidence: bool) -> PackItem:
        (bid, category, statement, conf, count, valid_from, valid_until, due_at) = rows[i][:8]
        reasons = []
        if lexical[i] > 0:
            reasons.append(f"words {lexical[i]:.2f}")
        if cosine is not None:
            reasons.append(f"meaning {cos_norm[i]:.2f}")
        if timed[i]:
            reasons.append("time facet: " + (_when(due_at, valid_from, valid_until) or "names it"))
        if valid_until is not None and valid_until < now:
            reasons.append(f"ended {valid_until:%Y-%m-%d}")
        if inherited[i]:
            reasons.append("answers for the belief it took over from")
        reasons.append(f"retention {retention[i]:.2f}")
        return PackItem(
            id=bid,
            category=category,
            statement=statement,
            score=float(scores[i]),
            similarity=float(similarity[i]),
            lexical=float(lexical[i]),
            cosine=None if cosine is None else float(cosine[i]),
            retention=float(retention[i]),
            confidence=conf,
            corroboration_count=count,
            why=", ".join(reasons),
            pinned=category in PINNED_CATEGORIES,
            valid_from=valid_from,
            valid_until=valid_until,
            due_at=due_at,
            evidence_quote=(rows[i][10] or None)
            if with_evidence and rows[i][11] not in sealed
            else None,
            evidence_message_id=rows[i][11] if with_evidence else None,
            source_host=rows[i][12],
        )

    pack.items = [item(int(i), with_evidence=k < EVIDENCE_FOR_FIRST) for k, i in enumerate(order)]
    pinned = cand.pinned[eligible[cand.pinned]] if len(cand.pinned) else cand.pinned
    # by confidence x retention, highest first, then by id (one sort of arrays)
    pinned_rows = [
        int(i)
        for i in pinned[
            np.lexsort((cand.ids[pinned], -cand.confidence[pinned] * retention[pinned]))
        ]
    ]
    pack.pinned = [item(i, with_evidence=False) for i in pinned_rows[:MAX_PINNED]]
    # cross-category: the best relevant item of each category the ranked items miss
    selected = {rows[int(i)][1] for i in order}
    by_score = np.argsort(-scores, kind="stable")
    for i in by_score[: min(n, limit + 200)]:
        i = int(i)
        if len(pack.cross_category) >= MAX_CROSS_CATEGORY or not eligible[i]:
            break
        if rows[i][1] in selected or similarity[i] < CROSS_CATEGORY_MIN_SIMILARITY:
            continue
        selected.add(rows[i][1])
        pack.cross_category.append(item(i, with_evidence=False))
    pack.agenda = _agenda(principal.id, now)
    pack.routine_probes = _routine_probes(principal.id, now)
    return pack


def _with_event(
    ask: TimeAsk, cand: Candidates, readable: np.ndarray, principal_id: int, now: datetime
) -> TimeAsk:
    """``ask`` with the span its event names ("before the renewal"): the event is the
    person's dated belief (one the caller may read) or open intention whose words cover
    it (one query for the intentions); unchanged when none does. Among texts covering
    the words alike, what is done before an event names it too and is dated earlier
    ("Must tell the landlord by 31 December whether he will renew the flat"): for
    "before" / "by" / "until" the latest is the event, for "after" / "since" the earliest,
    but for "after" in a question in the present or future tense the earliest not yet
    past, before any gone by ("since" names a time that has begun).
    For a question in the present tense, a belief dated only by an end already past is
    no event (the ended belief answers only through its successor)."""
    dated: list[tuple[str, datetime]] = []
    at: dict[tuple[str, datetime], int] = {}  # a belief's row, by its text and date
    present = not (ask.past or ask.soft_past)
    for i, (r, ok) in enumerate(zip(cand.rows, readable, strict=True)):
        when = r[7] or r[5] or r[6]  # due, else the validity start, else its end
        if present and when is r[6] and when is not None and when < now:
            # a way of life that ended is no event of a question in the present tense
            # ("Does she still run along the canal before her early shift?" is not asked
            # of the days before "Ran along the canal before every early shift" ended)
            continue
        if ok and when is not None:
            dated.append((r[2], when))
            at[(r[2], when)] = i
    dated += list(
        Intention.objects.filter(principal_id=principal_id, state=Intention.State.OPEN)
        .order_by()
        .values_list("action", "due_at")
    )
    ahead = ask.relation in ("before", "by", "until", "till")
    if present and ask.relation == "after":
        # "What will his nights be like once the goats start giving birth?": a question
        # about now or the time to come takes the event not yet past ("due to start
        # kidding in March") over one gone by that names it as well ("Moved in with his
        # goats at the start of September"); the earliest of each first
        dated.sort(key=lambda d: (d[1] < now, d[1]))
    else:
        dated.sort(key=lambda d: d[1], reverse=ahead)
    told = ask.event_span
    if told is not None:
        # "before she heads off to Denmark in January": the event is in January
        dated = [d for d in dated if told[0] <= d[1] < told[1]]
    event = event_date(ask.event_terms, dated)
    if event is None and EVENT_BY_MEANING and ask.event_text and not ask.by_event_only:
        # (a relation word that may be of another sense, "looks after", "by the window",
        # is taken for time only when a text names its event in its words)
        # a question about now or the time to come asks of an event not yet past
        ahead_of_now = dated if ask.past else [d for d in dated if d[1] >= now]
        event = _event_by_meaning(ask.event_text, ahead_of_now, at, cand)
    if event is None and told is not None:
        # none of it names the event: it may be any day of the time it is told at, so
        # what comes before it may be due up to that time's end (after it: from its start)
        # (what it is about is known only from a text that names it)
        when = told[1] - timedelta(seconds=1) if ahead else told[0]
        event = Event(when, frozenset())
    if event is None and ask.by_event_only and UNFOUND_EVENT_NOT_TIME:
        # no text names the event and nothing else asks about time: the relation word is
        # of another sense ("Who looks after my cat when I'm away?", "by the window")
        return TimeAsk(False, None, ask.past, ask.soft_past, field=ask.field)
    if event is None:
        return ask
    if _by_place(ask, event, now):
        return TimeAsk(False, None, ask.past, ask.soft_past, field=ask.field)
    return ask.with_event(event, now)


UNFOUND_EVENT_NOT_TIME = True
#: An event no dated text names in the question's words ("before the taxman comes round")
#: is, of the dated beliefs the person's to-dos are done before by their own words ("...
#: before the HMRC excise visit"), the one nearest the event's words in meaning ("An HMRC
#: excise officer inspects the duty records on 10 December"), at least this near
#: (``_event_by_meaning``; the encoder's cosine of the event's words and the belief).
EVENT_BY_MEANING = True
EVENT_MEANING_MIN = 0.15


def _event_by_meaning(
    told: str,
    dated: list[tuple[str, datetime]],
    at: dict[tuple[str, datetime], int],
    cand: Candidates,
) -> Event | None:
    """The event ``told`` names in other words than its text's: of the dated beliefs
    something else is done before (``prepared_for``: the to-dos' own words for them, the
    cross-check), the one nearest ``told`` in meaning (its stored vector; one short
    query), at least ``EVENT_MEANING_MIN`` near; None when none is."""
    events = prepared_for(dated)
    rows = [(k, at[dated[k]]) for k in events if dated[k] in at and cand.has_vec[at[dated[k]]]]
    if not rows:
        return None
    cos = cand.matrix[[r for _, r in rows]] @ _query_vector(told)
    best = int(np.argmax(cos))
    if cos[best] < EVENT_MEANING_MIN:
        return None
    k = rows[best][0]
    text, when = dated[k]
    return Event(when, events[k] | frozenset(content_words(text)))


def _by_place(ask: TimeAsk, event: Event, now: datetime) -> bool:
    """Whether "by" is of place, not of time: a question in the present tense whose "by"
    finds an event already past ("Is he still living out by the airport?" finds the move
    to the old home) asks where, not by when."""
    return ask.relation == "by" and not (ask.past or ask.soft_past) and event.when < now


def _roles_named(
    asked: str, unnamed: str, cand: Candidates, names: list[str], level: int, now: datetime
) -> tuple[str, str]:
    """The question (with a stand-in for the person, and without their names) naming
    someone of theirs it asks for by relation as the person's current statements name
    them (``subjects.role_names``): "Is the person's mother Ngozi still teaching?"."""
    current = cand.readable(level) & ~(cand.valid_until_ts < now.timestamp())
    statements = [r[2] for r, ok in zip(cand.rows, current, strict=True) if ok]
    own = frozenset(n.lower() for n in names)
    for end, name in reversed(role_names(asked, statements, own)):
        asked = f"{asked[:end]} {name}{asked[end:]}"
        unnamed = f"{unnamed} {name}"
    return asked, unnamed


def _off_event(match: np.ndarray, ask: TimeAsk, cand: Candidates) -> np.ndarray:
    """``match`` with the dates inside the span ahead of a found event ("before her
    training course in January") that share no word with it (``TimeAsk.event_words``)
    kept at ``OFF_EVENT``: what is done for the event ("while she is in Luxembourg", "the
    pre-course reading") comes before what only falls in the span. Unchanged when no
    date inside shares one."""
    if not ask.event_words:
        return match
    about = np.zeros(len(match), dtype=bool)
    for t in ask.event_words:
        post = cand.postings.get(t)
        if post is not None:
            about[post] = True
    inside = match >= INSIDE
    if not (inside & about).any():
        return match
    return np.where(inside & ~about, OFF_EVENT * match, match)


#: Size of the session-open snapshot (seed 001: a forty-item core).
SNAPSHOT_SIZE = 40


def session_snapshot(
    *,
    agent: Any,
    principal_external_id: str,
    now: datetime,
    limit: int = SNAPSHOT_SIZE,
    max_sensitivity: str = "confidential",
    wait: bool | None = None,
) -> list[PackItem]:
    """What a host loads about a person when a session opens (no query): the pinned
    categories first, then the rest by confidence x retention. A belief standing in the
    owner's persona document (``promoted``) is left out, hard: the prompt's owner row
    already carries it at higher trust. Eligible again once its entry is removed.
    In-turn recall (``build_context``) is not filtered. Read-only. Statements pass
    ``safety.checks.render_safe`` as in ``build_context``."""
    level = SENSITIVITY_BY_NAME.get(max_sensitivity, Sensitivity.CONFIDENTIAL)
    principal = (
        Principal.objects.filter(tenant_id=agent.tenant_id, external_id=principal_external_id)
        .only("id", "beliefs_token", "belief_block_token")
        .first()
    )
    if principal is None:
        return []
    cand = _candidates(principal)
    ts = now.timestamp()
    ok = (
        cand.readable(int(level))
        & ~cand.promoted
        & ~(cand.valid_until_ts < ts)
        & ~(cand.valid_from_ts > ts)
    )
    retention = np.exp(-np.maximum(ts - cand.reinforced, 0.0) / 86_400 / cand.stability)
    weight = cand.confidence * retention
    pinned = np.zeros(cand.n, dtype=bool)
    pinned[cand.pinned] = True
    order = [int(i) for i in np.lexsort((cand.ids, -weight, ~pinned)) if ok[i]][:limit]
    out = []
    for i in order:
        r = cand.rows[i]
        out.append(
            PackItem(
                id=r[0],
                category=r[1],
                statement=r[2],
                score=float(weight[i]),
                similarity=0.0,
                lexical=0.0,
                cosine=None,
                retention=float(retention[i]),
                confidence=r[3],
                corroboration_count=r[4],
                why="pinned category" if pinned[i] else f"confidence x retention {weight[i]:.2f}",
                pinned=bool(pinned[i]),
                valid_from=r[5],
                valid_until=r[6],
                due_at=r[7],
                source_host=r[12],
            )
        )
    from safety.checks import render_safe_many

    safe = render_safe_many([it.statement for it in out], wait=wait)
    return [replace(it, statement=text) for it, text in zip(out, safe, strict=True)]


def _sealed_messages(message_ids: set[int]) -> set[int]:
    """Which of these messages are in a sealed conversation (no query for none)."""
    if not message_ids:
        return set()
    return set(Message.objects.sealed().filter(pk__in=message_ids).values_list("pk", flat=True))


def _when(due_at: datetime | None, start: datetime | None, end: datetime | None) -> str:
    if due_at is not None:
        return f"due {due_at:%Y-%m-%d %H:%M}"
    if start is not None and end is not None:
        return f"valid {start:%Y-%m-%d} to {end:%Y-%m-%d}"
    if start is not None:
        return f"from {start:%Y-%m-%d}"
    return f"until {end:%Y-%m-%d}" if end is not None else ""


#: How far around ``now`` the agenda looks (lead times and grace are per row).
AGENDA_BEHIND = timedelta(days=7)
AGENDA_AHEAD = timedelta(days=30)


def _agenda(principal_id: int, now: datetime) -> list[AgendaItem]:
    rows = Intention.objects.filter(
        principal_id=principal_id,
        state=Intention.State.OPEN,
        due_at__gte=now - AGENDA_BEHIND,
        due_at__lte=now + AGENDA_AHEAD,
    ).order_by("due_at")
    out = []
    for intention in rows:
        score = intention.agenda_score(now)
        if score > 0:
            out.append(
                AgendaItem(
                    id=intention.pk,
                    action=intention.action,
                    due_at=intention.due_at,
                    score=score,
                    overdue=now > intention.due_at,
                )
            )
    out.sort(key=lambda a: (-a.score, a.due_at))
    return out


def _routine_probes(principal_id: int, now: datetime) -> list[RoutineProbe]:
    today = now.date()
    rows = Routine.objects.filter(
        principal_id=principal_id,
        status__in=[Routine.Status.CANDIDATE, Routine.Status.CONFIRMED, Routine.Status.TRUSTED],
    )
    out = []
    for routine in rows:
        if not routine.applies_on(today):
            continue
        if routine.last_feedback_on == today and routine.last_feedback in (
            Routine.Feedback.SKIPPED_TODAY,
            Routine.Feedback.DENIED,
        ):
            continue
        at = datetime.combine(today, routine.time, tzinfo=now.tzinfo)
        if abs((at - now).total_seconds()) > ROUTINE_PROBE_HOURS * 3600:
            continue
        hhmm = routine.time.strftime("%H:%M")
        # the action is the person's words ("Bakes bread"): quoted, never bent into
        # a sentence of ours ("Is Bakes bread ...")
        action = routine.action.rstrip(".")
        question = (
            f"“{action}” today at {hhmm}: is this a regular thing?"
            if routine.status == Routine.Status.CANDIDATE
            else f"“{action}” today at {hhmm}: still on?"
        )
        out.append(
            RoutineProbe(
                id=routine.pk,
                action=routine.action,
                time=hhmm,
                status=routine.status,
                question=question,
            )
        )
    out.sort(key=lambda p: p.time)
    return out


def render_context(pack: ContextPack) -> str:
    """A ready text block for a host's prompt (``inject()``-style), from a pack whose
    texts ``build_context`` has already passed through ``safety.checks.render_safe``."""

    lines = [f"## What you know about this person (as of {pack.now:%Y-%m-%d %H:%M} UTC)"]
    if pack.pinned:
        lines.append("Always keep in mind:")
        lines += [f"- [{it.category}] {it.statement}" for it in pack.pinned]
    shown = [it for it in pack.items if not it.pinned or it.id not in {p.id for p in pack.pinned}]
    if shown:
        lines.append("Relevant to this message:")
        for it in shown:
            extra = []
            if it.due_at:
                extra.append(f"due {it.due_at:%Y-%m-%d %H:%M}")
            if it.valid_until:
                extra.append(f"until {it.valid_until:%Y-%m-%d}")
            if it.confidence < 0.5:
                extra.append("unsure")
            tail = f" ({', '.join(extra)})" if extra else ""
            lines.append(f"- [{it.category}] {it.statement}{tail}")
    if pack.cross_category:
        lines.append("Also related:")
        lines += [f"- [{it.category}] {it.statement}" for it in pack.cross_category]
    if pack.agenda:
        lines.append("Agenda:")
        for a in pack.agenda:
            state = "overdue since" if a.overdue else "due"
            lines.append(f"- {a.action} ({state} {a.due_at:%Y-%m-%d %H:%M})")
    if pack.routine_probes:
        lines.append("Routines to check (ask, do not assume):")
        lines += [f"- {p.question}" for p in pack.routine_probes]
    if len(lines) == 1:
        lines.append("(nothing stored)")
    return "\n".join(lines)
