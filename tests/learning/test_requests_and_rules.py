"""The local proposer on requests and corrections as people write them: lower case,
"can u", after some context, around an emoji or a version number; rules only from
corrections that agree and are not edits of the draft at hand."""

from __future__ import annotations

from learning.proposers.local import LocalProposer, requests_of
from tests.learning.corpora import corpus_of, sentence_check, settings


def only_request(text: str, after: bool = False):
    found = requests_of(corpus_of([(1, text, after)]).messages[0])
    assert len(found) == 1, found
    return found[0]


def test_a_request_after_can_u_in_lower_case_is_found():
    req = only_request("can u draft a reply? phones were down till 11, line fault")
    assert (req.verb, req.head) == ("draft", "reply")


def test_a_request_asked_as_a_question_after_context_in_the_same_clause_is_found():
    req = only_request(
        "mum asking why the brace isn't free on the NHS can you write an explanation she'll get"
    )
    assert (req.verb, req.head) == ("write", "explanation")


def test_an_emoji_ends_a_clause_so_the_request_after_it_is_found():
    req = only_request("Worth a try 😅 Then draft a quote for the hotel website", after=True)
    assert (req.verb, req.head) == ("draft", "quote")


def test_a_request_passed_on_from_a_described_person_is_found():
    req = only_request("A direct client wants a quote for their trade fair brochure")
    assert req.head == "quote"


def test_help_me_with_names_the_work():
    req = only_request("then help me with the patch notes for the hotfix", after=True)
    assert (req.head, req.mods) == ("note", ["patch"])


PATCH_NOTES = [
    (1, "can you write the patch notes for 0.9.3? changes: the crash is fixed", False),
    (1, "patch notes for 0.9.4 please: chickens now save inside coops", False),
    (1, "patch notes for 0.9.5 (winter festival!!): four new items", False),
]


def test_a_version_number_stays_inside_the_request_and_its_quote(bag_of_words):
    corpus = corpus_of(PATCH_NOTES)
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data["sentence"] == "Writes patch notes."
    quotes = [e["quote"] for e in result.data["evidence"]]
    assert quotes == [
        "can you write the patch notes for 0.9.3",
        "patch notes for 0.9.4",
        "patch notes for 0.9.5",
    ]
    assert sentence_check(corpus, result.data).ok


def test_a_topic_theme_leaves_out_a_request_that_names_other_work(bag_of_words):
    rows = [
        (1, "can you write a text for her? she wants to move her appointment to Friday", False),
        (1, "we need to move 6 appointments. can you write one text we can send to all 6", False),
        (1, "Can you write tomorrow's reminder texts? you have an appointment on Monday", False),
    ]
    result = LocalProposer().propose_sentence(corpus_of(rows), {"goals": ""}, settings())
    assert "appointment" not in result.data["sentence"]


# --- rules ------------------------------------------------------------------------------------


def test_an_edit_of_the_draft_at_hand_is_no_rule_even_when_it_recurs(bag_of_words):
    rows = [
        (1, "Can you write the quote email?", False),
        (1, "Write it in German please, he always writes to me in German.", True),
        (1, "Can you draft the reply?", False),
        (1, "Good. Write it in German, it goes to their accounts team.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] is None


def test_a_value_some_other_correction_contradicts_makes_no_rule(bag_of_words):
    rows = [
        (1, "Patch notes max 6 bullets.", True),
        (1, "Patch notes max 6 bullets please.", True),
        (1, "8 bullets is fine for this one, it's a big update.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] is None
    assert "disagree" in " ".join(result.notes)


def test_a_value_given_in_one_conversation_only_makes_no_rule(bag_of_words):
    rows = [
        (1, "Patch notes max 6 bullets, the announcement can be longer.", True),
        (1, "Patch notes in the usual order.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] is None or "6" not in result.data["rule"]


def test_agreeing_values_still_make_a_rule(bag_of_words):
    rows = [
        (1, "Patch notes max 6 bullets.", True),
        (1, "Patch notes max 6 bullets please.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] and "6 bullets" in result.data["rule"]


# --- themes named from verb and object -----------------------------------------------------------


def test_a_verb_naming_the_work_and_its_object_anywhere_in_the_request_make_a_theme(bag_of_words):
    rows = [
        (1, "Could you proofread a paragraph of my translation? It's for a winery.", False),
        (1, "Can you proofread this bit of my translation for me? A product page.", False),
        (1, "Proofread please, a line from my translation of the hotel website.", False),
    ]
    corpus = corpus_of(rows)
    result = LocalProposer().propose_sentence(
        corpus, {"goals": "Handle the admin around translation jobs."}, settings()
    )
    assert result.data["sentence"] == "Proofreads the translations."
    assert sentence_check(corpus, result.data).ok


def test_a_noun_made_in_one_request_and_named_in_others_makes_a_theme(bag_of_words):
    rows = [
        (1, "Can you start a terminology glossary for the pump project?", False),
        (1, "Glossary update, new terms from the pump brochure.", False),
        (1, "Can you pull out the key terms for a glossary before I start?", False),
    ]
    corpus = corpus_of(rows)
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data["sentence"] == "Prepares terminology glossaries."
    assert sentence_check(corpus, result.data).ok


def test_third_person_of_a_closed_compound_verb_is_one_word():
    from learning.language import third_person

    assert third_person("proofread") == "proofreads"


ERROR_REPORTS = [
    (
        1,
        "Getting this error when saving a manifest, any idea?\n```\nTraceback (most recent call"
        " last):\n  File \"app/services.py\", line 88, in save\nKeyError: 'zone'\n```",
        False,
    ),
    (
        1,
        "Another stack trace, from the worker this time:\n```\nTraceback (most recent call last):\n"
        "AttributeError: 'NoneType' object has no attribute 'id'\n```",
        False,
    ),
    (
        1,
        "ok this is driving me nuts. every time I load a save I get this:\n```\n"
        "NullReferenceException: Object reference not set to an instance of an object\n```\n"
        "Can you debug this one?",
        False,
    ),
]


def debug_request(text: str):
    found = [r for r in requests_of(corpus_of([(1, text, False)]).messages[0]) if r.verb == "debug"]
    assert len(found) == 1, found
    return found[0]


def test_a_pasted_error_is_a_request_to_debug_the_problem_its_words_name():
    req = debug_request(ERROR_REPORTS[0][1])
    assert (req.verb, req.head) == ("debug", "error")
    assert ERROR_REPORTS[0][1][req.start : req.end] == "Getting this error when saving a manifest"
    req = debug_request(ERROR_REPORTS[1][1])
    assert (req.verb, req.head) == ("debug", "trace")
    # no word for the problem: the clause that introduces the paste, and "error"
    text = "every time I load a save I get this:\n```\nNullReferenceException: not set\n```"
    req = debug_request(text)
    assert (req.verb, req.head, text[req.start : req.end]) == (
        "debug",
        "error",
        "every time I load a save I get this",
    )


def test_pasted_code_or_a_profile_without_an_error_is_no_request_to_debug():
    for text in (
        "Write pytest tests for this view:\n```python\ndef tracking(request, code):\n"
        "    return render(request, 'x.html')\n```",
        "frame drops in the town scene, the profiler says:\n```\nPlayerLoop 28.4ms\n"
        "  Update.ScriptRunBehaviourUpdate 19.1ms\n```",
    ):
        found = requests_of(corpus_of([(1, text, False)]).messages[0])
        assert all(r.verb != "debug" for r in found)
    # an error pasted after a reply is about the draft at hand, not a new request
    found = requests_of(corpus_of([(1, ERROR_REPORTS[0][1], True)]).messages[0])
    assert all(r.verb != "debug" for r in found)


def test_errors_pasted_in_several_conversations_are_a_theme(bag_of_words):
    corpus = corpus_of(ERROR_REPORTS)
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data["sentence"] == "Debugs errors and traces."
    assert len(result.data["evidence"]) == 3
    assert sentence_check(corpus, result.data).ok


def test_a_new_piece_of_work_started_for_the_person_is_a_request_for_it():
    from tests.learning.corpora import read

    assert read("start me a vignette on getting started. uses the dataset")[0][1] == "vignette"
    assert read("open us a ticket for the outage")[0][1] == "ticket"
