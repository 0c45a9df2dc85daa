"""A persona says a kind of work already only where it names the thing made as something
worked on: a noun among the tools something is built, tested or run with ("with utPLSQL
tests run in Jenkins", "with testthat, roxygen2, vignettes and a pkgdown site") tells how
the code is kept, not that the assistant writes it; "writes PowerShell scripts" or "Help
the clerk with agendas, minutes and letters" still say the work."""

from __future__ import annotations

from learning.proposers.local import LocalProposer
from tests.learning.corpora import corpus_of, settings

TESTS = [
    (1, "Write xUnit tests for the paging on the repairs list", False),
    (1, "xUnit tests for the reminder worker please", False),
    (1, "Can you write xUnit tests for the estate filter", False),
]

GOALS = "Help the developer keep the repairs service correct and quick to change."


def _proposed(background: str, goals: str = GOALS) -> tuple[str, str]:
    persona = {"goals": goals, "background": background}
    result = LocalProposer().propose_sentence(corpus_of(TESTS), persona, settings())
    return (result.data or {}).get("sentence", ""), " ".join(result.notes)


def test_tests_the_code_is_run_with_are_no_work_the_persona_says(bag_of_words):
    sentence, _ = _proposed(
        "She maintains the repairs service, written in C#, with xUnit tests run in the pipeline."
    )
    assert sentence == "Writes xUnit tests."


def test_a_noun_in_a_list_of_tools_is_no_work_the_persona_says(bag_of_words):
    sentence, _ = _proposed(
        "The service is built with Docker, NuGet packages, xUnit tests and a docs site."
    )
    assert sentence == "Writes xUnit tests."


def test_tests_the_person_writes_are_work_the_persona_says(bag_of_words):
    sentence, notes = _proposed("She writes the service in C# and xUnit tests for it.")
    assert sentence == ""
    assert "the persona says this already" in notes


def test_a_list_after_help_with_is_work_the_persona_says(bag_of_words):
    sentence, notes = _proposed(
        "She maintains the repairs service.",
        goals="Help the developer with code reviews, xUnit tests and release notes.",
    )
    assert sentence == ""
    assert "the persona says this already" in notes
