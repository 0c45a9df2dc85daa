"""A sentence or rule worded as a reviewer keeps it: a casual verb of making gives way to
the plain verb of what is made ("knock up a job sheet" -> "Prepares job sheets"), a purpose
keeps the article the requests write ("for the lads"), a brand gets its capital in any
language, a refused wording names the one said alone in the next sentence, and replies say
what most of their messages ask replies to."""

from __future__ import annotations

from learning.proposers.local import LocalProposer, requests_of
from tests.learning.corpora import corpus_of, settings


def test_a_casual_verb_of_making_is_too_weak_to_name_the_work():
    (request,) = requests_of(
        corpus_of([(1, "can u knock up a job sheet for Thurs, re-roof garage", False)]).messages[0]
    )
    assert (request.verb, request.head) == (None, "sheet")


def test_the_lads_are_people_a_note_is_written_to():
    corpus = corpus_of([(1, "Write the lads a note saying the van is in for its MOT", False)])
    (request,) = requests_of(corpus.messages[0])
    assert (request.verb, request.head) == ("write", "note")


def test_a_casual_verb_of_making_gives_the_verb_of_what_is_made(bag_of_words):
    corpus = corpus_of(
        [
            (1, "can u knock up a job sheet for the lads, Greaves job, strip the flat roof", False),
            (2, "need a job sheet for the lads for monday, Tattersall chimney", False),
            (1, "knock up a job sheet for the lads pls, re-roof garage at the Pickerings", False),
        ]
    )
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data is not None, result
    assert result.data["sentence"] == "Prepares job sheets for the lads.", result.data


def test_a_brand_written_small_gets_its_capital_in_another_language():
    from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence

    corpus = corpus_of(
        [
            (1, "tu peux préparer le post instagram pour le violon que je viens de finir", False),
            (1, "prépare le post instagram sur le concert des élèves", False),
            (1, "il me faut un post instagram pour la vente des archets", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "fr") for t in themes] == ["Prépare les posts Instagram."]


def test_days_and_languages_keep_their_capital_only_in_english():
    from learning.proposers.local.wording import with_capital

    assert [with_capital(w) for w in ("monday", "french", "instagram")] == [
        "Monday",
        "French",
        "Instagram",
    ]
    assert [with_capital(w, "fr") for w in ("lundi", "roman", "latin", "instagram")] == [
        "lundi",
        "roman",
        "latin",
        "Instagram",
    ]


def test_a_refused_wording_names_the_one_said_alone_in_the_next_sentence():
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    rule = rule_for(
        correction_hits(
            "we NEVER say topping, topping is what cowboys do. it's a crown reduction. redo",
            "don't ever say topping. crown reduction. and take the arisings away",
        )
    )
    assert rule == 'Say "crown reduction", not "topping".'


def test_a_next_sentence_that_says_more_than_a_name_gives_no_wording():
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    rule = rule_for(
        correction_hits(
            "we never say topping. do it again please.",
            "don't ever say topping. thanks",
        )
    )
    assert rule is not None and not rule.startswith("Say"), rule


REVIEW_REPLIES = [
    (1, 'Can you write a reply to this google review? 5 stars: "Dan was careful, spotless"', False),
    (2, 'ugh, 2 star review on google. "Turned up late." can you reply, the chipper broke', False),
    (1, 'review reply please, facebook this time, 4 stars from Sandra: "a bit of mess"', False),
]


def test_replies_say_what_most_of_their_messages_ask_replies_to(bag_of_words):
    corpus = corpus_of(REVIEW_REPLIES, names={"dan", "sandra"})
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data is not None, result
    assert result.data["sentence"] == "Writes replies to reviews.", result.data


def test_replies_to_nothing_most_messages_name_stay_the_replies():
    from learning.proposers.local.wording import _replied_to

    corpus = corpus_of(
        [
            (1, "can you reply to this google review, 5 stars", False),
            (2, "can you write a reply to Mrs Pemberton, she asks about the oak", False),
            (1, "reply please, she wants to know when we can come", False),
        ]
    )
    reqs = [r for m in corpus.messages for r in requests_of(m)]
    assert _replied_to(reqs) == ""


def test_replies_half_the_messages_ask_for_a_noun_and_the_rest_name_nothing_are_replies_to_it():
    from learning.proposers.local.wording import _replied_to

    corpus = corpus_of(
        [
            (1, "Reply to this Google review please, 5 stars from a customer", False),
            (2, "there's a 2 star on the website, can you draft a reply", False),
            (3, "reply to a review pls, 5 stars: sorted my door", False),
            (1, "feedback to answer, 4 stars, the van blocked the drive", False),
        ]
    )
    reqs = [r for m in corpus.messages for r in requests_of(m)]
    assert _replied_to(reqs) == "review"


def test_replies_half_to_one_noun_and_half_to_another_name_neither():
    from learning.proposers.local.wording import _replied_to

    corpus = corpus_of(
        [
            (1, "Reply to this Google review please, 5 stars", False),
            (2, "reply to the complaint email from the landlord", False),
            (3, "reply to a review pls, 5 stars: sorted my door", False),
            (1, "can you reply to this email from the tenant", False),
        ]
    )
    reqs = [r for m in corpus.messages for r in requests_of(m)]
    assert _replied_to(reqs) == ""


def test_a_wording_said_next_keeps_its_hyphens():
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    rule = rule_for(
        correction_hits(
            "We never say log burner. It's a wood-burning stove. It sounds cheap.",
            "never say log burner, ever. a wood-burning stove.",
        )
    )
    assert rule == 'Say "wood-burning stove", not "log burner".'


def test_replies_are_named_by_what_a_message_says_they_answer_not_by_a_rating_they_count():
    from tests.learning.corpora import theme_sentences

    sentences = theme_sentences(
        [
            "Reply to this google review please, 5 stars: came out in the rain, fair price",
            "2 star google review this morning, fitter turned up late. Reply, say sorry",
            "someone left us a review on the website, 1 star, says we scratched his alloy. reply pls",
        ]
    )
    assert sentences[0] == "Writes replies to reviews.", sentences
