"""A request without a verb: a noun phrase naming a piece of work with "please", "pls" or
"plz" (or after "can I get", "need") asks for that work, the details after it are not the
request; a label "<noun> of <noun> <noun>" ("end of term reports") opens such a noun
phrase, not an imperative; a thanks or an acknowledgement asks for nothing; replies that
recur are named by what most of them answer."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_and_requests, corpus_of, same_vectors


def _made(text: str, after: bool = False) -> list[tuple[list[str], str]]:
    _, reqs = corpus_and_requests([(1, text, after)])
    return [(r.mods, r.head) for r in reqs]


def test_a_period_of_a_noun_before_a_compound_names_the_work_not_a_verb():
    made = _made("end of season reports for the under 12s pls. notes: Sam - good tackling")
    assert ([], "report") in made or (["season"], "report") in made
    made = _made("start of year letter for the new members please")
    assert (["year"], "letter") in made
    assert _made("start of term letter for the parents pls") == [(["term"], "letter")]


def test_plz_ends_a_request_as_please_does():
    made = _made("Membership renewal reminders plz. Due by Friday.")
    assert (["membership", "renewal"], "reminder") in made
    assert all(head != "plz" for _, head in made)


def test_a_thanks_or_an_acknowledgement_asks_for_nothing():
    assert _made("lovely, cheers") == []
    assert _made("spot on") == []
    assert _made("perfect, thanks") == []
    assert [h for _, h in _made("Cheers, rota for May please")] == ["rota"]


def test_after_a_joke_the_real_one_is_a_request():
    made = _made("haha no. ok real one: timetable for the gala pls", after=True)
    assert ([], "timetable") in made


def _themes(rows: list[tuple[int, str, bool]]) -> list[str]:
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    return [sentence_for(t) for t in themes]


def test_replies_most_of_which_answer_enquiries_are_named_so_others_not():
    themes = _themes(
        [
            (
                1,
                "Could you reply to this enquiry? A dad wants to know about trial sessions.",
                False,
            ),
            (2, "reply to this enquiry please: do you run holiday camps for 8 year olds", False),
            (3, "Reply to an enquiry from a gran about gift vouchers, yes we sell them", False),
            (1, "write the Patels a reply, their lesson moves to 4pm", False),
        ]
    )
    assert "Writes replies to enquiries." in themes
    # replies to a different thing each time name no kind of work
    themes = _themes(
        [
            (
                1,
                "Could you reply to this enquiry? A dad wants to know about trial sessions.",
                False,
            ),
            (2, "reply to this complaint please: the changing rooms were cold", False),
            (3, "Reply to a review from a gran, five stars, she loved the gala", False),
        ]
    )
    assert not any(s.startswith("Writes replies") for s in themes)
