"""A rule says where or with what ("with the date", never a dangling "in"), a thing
named while people speak of what to call it is a wording to say, a goals sentence keeps
the one kind its quotes name ("death notices") and a quote's topic is what it is for."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, rule_for, sentence_for
from learning.proposers.local.wording import qualified_by_quotes
from tests.learning.corpora import corpus_of, correction_hits, same_vectors

# --- a rule says where or with what -----------------------------------------------------------


def test_a_rule_that_says_what_it_goes_with_wins_over_a_dangling_particle():
    got = rule_for(
        correction_hits(
            "Put the day of the week in.",
            "Always the day of the week with the date please.",
            "Day of the week! Even to the crem.",
        )
    )
    assert got == "Show the day of the week with the date."


def test_a_dangling_particle_stays_when_no_wording_says_more():
    got = rule_for(correction_hits("Put the day of the week in.", "Put the day of the week in."))
    assert got == "Put the day of the week in."


def test_a_verbless_rule_with_a_place_still_shows_it_and_a_bare_one_uses_it():
    assert rule_for(correction_hits("VAT on its own line please", "VAT on its own line.")) == (
        "Show VAT on its own line."
    )
    assert rule_for(correction_hits("British spelling please.", "British spelling again.")) == (
        "Use British spelling."
    )


# --- a thing named where people speak of naming is a wording ------------------------------------


def test_a_name_given_while_speaking_of_what_to_say_is_a_wording_to_say():
    got = rule_for(
        correction_hits(
            "It's the simple funeral. We never say budget to a family.",
            "Simple funeral, every time, I've said.",
            "It's our simple funeral, that's all you need to say.",
        )
    )
    assert got == 'Say "simple funeral".'


def test_a_thing_named_with_no_word_of_naming_is_still_used():
    got = rule_for(
        correction_hits("It's the simple funeral.", "Simple funeral, every time.", "It's ours.")
    )
    assert got == "Use the simple funeral."


def test_reports_of_what_someone_or_a_text_said_are_no_talk_of_what_to_call_a_thing():
    got = rule_for(
        correction_hits(
            "Full size please, Kyle says this keeps happening.",
            "Full size please, same as Kyle has been saying.",
            "Full size please. If it just says 225/45 R17 they buy the wrong tyre.",
        )
    )
    assert got == "Use the full size."


def test_a_plural_noun_after_a_preposition_is_no_verb_so_the_thing_keeps_its_place():
    got = rule_for(
        correction_hits(
            "Always the full size on quotes, vans especially.",
            "Full size please.",
            "Always the full size.",
        )
    )
    assert got == "Show the full size on quotes."


# --- a sentence keeps the one kind its quotes name -------------------------------------------


def test_the_one_kind_a_quote_names_replaces_the_article():
    quotes = ["Notice for the website", "Can you write the death notice", "the paper's notices"]
    assert qualified_by_quotes("Writes the notices.", quotes, set()) == "Writes death notices."
    # most quotes leave the noun bare: the one kind is not what most of the work is
    bare = ["Notice for the website", "Can you write the death notice", "a notice for the paper"]
    assert qualified_by_quotes("Writes the notices.", bare, set()) == "Writes the notices."


def test_two_kinds_an_adjective_or_a_verb_before_the_noun_change_nothing():
    two = ["Notice for the website", "write the death notice", "the birth notice for the paper"]
    assert qualified_by_quotes("Writes the notices.", two, set()) == "Writes the notices."
    formal = ["the school's letters", "Can you write a formal letter", "a letter to the council"]
    assert qualified_by_quotes("Writes the letters.", formal, set()) == "Writes the letters."
    verb = ["Notice for the website", "can you draft notices", "the paper's notices"]
    assert qualified_by_quotes("Writes the notices.", verb, set()) == "Writes the notices."


# --- a quote's topic is what it is for -------------------------------------------------------

QUOTES_FOR_JOBS = [
    (
        1,
        "Quote for Mr Okonjo, loft conversion in Penarth. He needs a roost assessment and "
        "probably two drainage surveys. Each survey is £450 a day.",
        False,
    ),
    (
        1,
        "Quote for Gareth Prosser, renovation at 22 Cyncoed Road: an assessment plus two "
        "drainage surveys, same rates as before.",
        False,
    ),
    (
        1,
        "Quote for Mr Watkins, barn in Creigiau. An assessment now, then three drainage "
        "surveys next May to August.",
        False,
    ),
    (1, "Quote for Mrs Evans, a cottage in Usk. Two drainage surveys in June.", False),
]


def test_work_asked_for_someone_is_for_its_topic_not_about_it():
    corpus = corpus_of(QUOTES_FOR_JOBS, names={"Okonjo", "Gareth", "Prosser", "Watkins", "Evans"})
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert "Prepares quotes for drainage surveys." in sentences, sentences
    assert not any(" about " in s for s in sentences), sentences


# --- a platform written small gets its capital ------------------------------------------------

POSTS = [
    (1, "Can you write the instagram post for the new menu", False),
    (2, "instagram post please: the summer opening hours", False),
    (1, "write an instagram post about the quiz night", False),
]


def test_a_platform_people_write_small_has_its_capital_in_the_sentence():
    corpus = corpus_of(POSTS)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert "Writes Instagram posts." in sentences, sentences
    assert not any("instagram" in s for s in sentences), sentences


def test_a_plural_named_alone_stays_a_rule_of_its_own():
    got = rule_for(
        correction_hits("double quotes please", "strings in double quotes though", "double quotes")
    )
    assert got == "Use double quotes."
