"""Hermes's USER.md / MEMORY.md as Hermes itself reads and writes them (issue 23, point
5): its splitting, multi-line entries, self-labels, notes as their own entries, its
character limits, guardrails never replaced by a file without a flag and a reason, and
the size caps checked before any scan. Hermes's own ``MemoryStore`` reading the export
is ``tests/hermes/test_memory_files_live.py``."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from memory.models import EntityFact
from persona.hermes import (
    ENTRY_DELIMITER,
    GuardrailImportRefused,
    HermesFileRefused,
    export_files,
    parse_entries,
    persona_import,
    user_import,
)
from persona.models import AgentPersonaVersion, SourceType
from persona.selectors import persona_head
from persona.services import ChangeTrigger, PersonaInputError, persona_version_create
from tests.factories import PrincipalFactory, make_agent

GUARDRAILS = [
    "Never disclose another vessel's manifest.",
    "Quote the tide table first.",
    "Refuse to guess a draught.",
]
MULTI_LINE_NOTE = (
    "Berthing checklist:\n- confirm the tug\n- read the tide table\n  (metres, not feet)"
)


@pytest.fixture
def pilot(tenant):
    agent = make_agent(tenant=tenant, slug="zed", name="Zed", role="Harbour pilot")
    persona_version_create(
        agent=agent,
        changes={
            "guardrails": GUARDRAILS,
            "standing_rules": ["Give dates in full."],
            "goals": "Advise on berthing times.\nPlan pilot rosters.",
            "background": "Works the night shift.",
        },
        trigger=ChangeTrigger(source_type=SourceType.HOST, reason="setup"),
    )
    return agent


@pytest.fixture
def maya(tenant):
    return PrincipalFactory(tenant=tenant, external_id="maya", display_name="Maya Okafor")


def _hermes_add(path, entry: str) -> None:
    """What Hermes's memory tool does on ``add``: the entries read back, one appended,
    the file written as the entries joined by the delimiter."""
    entries = parse_entries(path.read_text(encoding="utf-8"))
    path.write_text(ENTRY_DELIMITER.join([*entries, entry.strip()]), encoding="utf-8")


# -- splitting and entries ---------------------------------------------------------------


def test_a_line_of_section_sign_and_spaces_stays_inside_its_entry():
    entry = "Tide notes\n §  \nspring tides at dawn"
    assert parse_entries(f"first\n§\n{entry}\n§\nlast") == ["first", entry, "last"]


def test_only_the_exact_delimiter_splits_and_repeats_are_dropped():
    text = "a\r\n§\r\nb\n§\n\n§\na\n§ x\n"
    assert parse_entries(text) == ["a", "b", "a\n§ x"]


def test_notes_hermes_wrote_come_back_as_their_own_entries_byte_for_byte(pilot, tmp_path):
    memory = export_files(agent=pilot, out_dir=tmp_path).paths[0]
    _hermes_add(memory, MULTI_LINE_NOTE)
    _hermes_add(memory, "The harbour office moved to pier 4.")
    written = memory.read_text(encoding="utf-8")

    persona_import(agent=pilot, text=written)
    head = persona_head(agent=pilot)
    assert head.guardrails == GUARDRAILS  # the file's guardrails are the same ones
    again = export_files(agent=pilot, out_dir=tmp_path / "again").paths[0]
    assert again.read_text(encoding="utf-8") == written
    entries = parse_entries(written)
    assert entries[-3:] == [
        "Works the night shift.",
        MULTI_LINE_NOTE,
        "The harbour office moved to pier 4.",
    ]
    assert not any(e.startswith("Background:") and "pier 4" in e for e in entries)


def test_an_old_background_entry_still_sets_the_background(pilot):
    persona_import(agent=pilot, text="Background: Trained in Lagos.\n§\nLikes rye bread.")
    assert persona_head(agent=pilot).background == "Trained in Lagos.\n\nLikes rye bread."


def test_a_self_labelled_user_entry_keeps_its_label(maya, pilot, tmp_path):
    text = ENTRY_DELIMITER.join(
        [
            "Maya Okafor: prefers tea in the morning",
            "Prefers short answers.",
            "Harbour office: opens at 6",
            "Reading list:\n- The Sea, the Sea\n- Moby-Dick",
        ]
    )
    report = user_import(principal=maya, text=text)
    assert len(report.imported) == 4
    assert EntityFact.objects.get(principal=maya, entity="Harbour office").fact == "opens at 6"
    user = export_files(agent=pilot, out_dir=tmp_path, principal=maya).paths[1]
    assert user.read_text(encoding="utf-8") == text
    assert user_import(principal=maya, text=text).imported == []


def test_an_entity_label_written_otherwise_is_kept_whole(maya, pilot, tmp_path):
    text = "Harbour office:  opens at 6"  # two spaces: would not come back as written
    user_import(principal=maya, text=text)
    assert EntityFact.objects.get(principal=maya).entity == "Maya Okafor"
    user = export_files(agent=pilot, out_dir=tmp_path, principal=maya).paths[1]
    assert user.read_text(encoding="utf-8") == "Harbour office: opens at 6"


# -- Hermes's character limits -----------------------------------------------------------


def test_an_export_over_the_user_limit_leaves_out_the_last_facts_and_says_which(
    maya, pilot, tmp_path, settings
):
    settings.HERMES_USER_CHAR_LIMIT = 60
    for fact in ["Prefers tea.", "Lives by the harbour.", "Sails on Sundays with her brother."]:
        EntityFact.objects.create(
            tenant=maya.tenant, principal=maya, entity="Maya Okafor", kind="person", fact=fact
        )
    report = export_files(agent=pilot, out_dir=tmp_path, principal=maya)
    text = (tmp_path / "USER.md").read_text(encoding="utf-8")
    assert text == "Prefers tea.\n§\nLives by the harbour."
    assert len(text) <= 60
    assert report.left_out == {"USER.md": ["Sails on Sundays with her brother."]}
    assert report.sentences == [
        "Left out of USER.md to stay within Hermes's 60-character limit: 1 entry "
        '("Sails on Sundays with her brother.").'
    ]


def test_an_export_over_the_limit_without_trimming_is_refused_and_writes_nothing(
    maya, pilot, tmp_path, settings
):
    settings.HERMES_USER_CHAR_LIMIT = 20
    EntityFact.objects.create(
        tenant=maya.tenant, principal=maya, entity="Maya Okafor", fact="Lives by the harbour."
    )
    with pytest.raises(HermesFileRefused, match="over Hermes's limit of 20"):
        export_files(agent=pilot, out_dir=tmp_path / "out", principal=maya, trim=False)
    assert not (tmp_path / "out").exists()


def test_memory_notes_are_left_out_before_any_guardrail(pilot, tmp_path, settings):
    kept = export_files(agent=pilot, out_dir=tmp_path / "a").paths[0].read_text("utf-8")
    persona_import(agent=pilot, text="A long note about the tugs. " * 4)
    settings.HERMES_MEMORY_CHAR_LIMIT = len(kept) + 10
    report = export_files(agent=pilot, out_dir=tmp_path / "b")
    text = report.paths[0].read_text(encoding="utf-8")
    assert text == kept and len(text) <= settings.HERMES_MEMORY_CHAR_LIMIT
    assert "A long note about the tugs." in report.sentences[0]


def test_an_export_whose_guardrails_alone_are_over_the_limit_is_refused(pilot, tmp_path, settings):
    settings.HERMES_MEMORY_CHAR_LIMIT = 50
    with pytest.raises(HermesFileRefused, match="without any note, over Hermes's limit of 50"):
        export_files(agent=pilot, out_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists()


# -- guardrails ----------------------------------------------------------------------------


def test_a_guardrail_entry_never_replaces_the_guardrails_silently(pilot):
    before = AgentPersonaVersion.objects.filter(agent=pilot).count()
    with pytest.raises(GuardrailImportRefused) as exc:
        persona_import(agent=pilot, text="Guardrail: Be friendly.\n§\nLikes rye bread.")
    assert exc.value.diff == [*(f"- {g}" for g in GUARDRAILS), "+ Be friendly."]
    assert "Be friendly." in str(exc.value) and "--replace-guardrails" in str(exc.value)
    assert AgentPersonaVersion.objects.filter(agent=pilot).count() == before
    assert persona_head(agent=pilot).guardrails == GUARDRAILS


def test_replacing_guardrails_from_a_file_needs_a_reason(pilot):
    with pytest.raises(PersonaInputError, match="needs a reason"):
        persona_import(agent=pilot, text="Guardrail: Be friendly.", replace_guardrails=True)
    assert persona_head(agent=pilot).guardrails == GUARDRAILS


def test_replacing_guardrails_with_the_flag_and_a_reason_records_both(pilot):
    report = persona_import(
        agent=pilot,
        text="Guardrail: Be friendly.",
        replace_guardrails=True,
        reason="the new pilot handbook",
    )
    head = persona_head(agent=pilot)
    assert head.guardrails == ["Be friendly."]
    assert "+ Be friendly." in report.guardrail_diff
    assert "the new pilot handbook" in head.reason


def test_the_cli_prints_the_difference_and_refuses_without_the_flag(pilot, tmp_path):
    path = tmp_path / "MEMORY.md"
    path.write_text("Guardrail: Be friendly.", encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError, match="--replace-guardrails"):
        call_command("persona", "import", "zed", str(path), stdout=out, stderr=io.StringIO())
    assert f"- {GUARDRAILS[0]}" in out.getvalue() and "+ Be friendly." in out.getvalue()
    assert persona_head(agent=pilot).guardrails == GUARDRAILS

    out = io.StringIO()
    call_command(
        "persona",
        "import",
        "zed",
        str(path),
        "--replace-guardrails",
        "--reason",
        "handbook",
        stdout=out,
    )
    assert "guardrails replaced" in out.getvalue()
    pilot.refresh_from_db()  # persona_head caches on the instance
    assert persona_head(agent=pilot).guardrails == ["Be friendly."]


# -- caps before any scan ---------------------------------------------------------------


def _no_scan(monkeypatch):
    def scanned(*args, **kwargs):
        raise AssertionError("an entry was scanned before the size check")

    monkeypatch.setattr("safety.checks.check_write", scanned)


def test_a_memory_file_of_three_thousand_entries_is_refused_before_any_scan(pilot, monkeypatch):
    _no_scan(monkeypatch)
    text = ENTRY_DELIMITER.join(f"note {i}" for i in range(3_000))
    with pytest.raises(HermesFileRefused, match="3,000 entries; an import takes at most 300"):
        persona_import(agent=pilot, text=text)


def test_a_user_file_over_the_size_cap_is_refused_before_any_scan(maya, monkeypatch, settings):
    _no_scan(monkeypatch)
    settings.HERMES_IMPORT_MAX_CHARS = 1_000
    with pytest.raises(HermesFileRefused, match="USER.md is 1,001 characters"):
        user_import(principal=maya, text="x" * 1_001)
    assert not EntityFact.objects.filter(principal=maya).exists()


def test_the_cli_refuses_a_file_too_large_to_read(pilot, tmp_path, settings):
    settings.HERMES_IMPORT_MAX_CHARS = 100
    path = tmp_path / "MEMORY.md"
    path.write_text("x" * 401, encoding="utf-8")
    with pytest.raises(CommandError, match="401 bytes; an import takes at most 400"):
        call_command("persona", "import", "zed", str(path), stdout=io.StringIO())
