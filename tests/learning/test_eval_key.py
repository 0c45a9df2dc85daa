"""Integrity of the learning evaluation set (bench/learning_eval) and its answer key.

The key is judged by the same matching functions the harness uses
(``bench/learning_eval.py``), so a key that cannot be met, or a trap that is not in the
data, fails here before any figure is printed.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from memory.importer import read_import_file

ROOT = Path(__file__).resolve().parents[2]
ISSUE_TRAP_KINDS = {
    "name",
    "contact",
    "health",
    "money",
    "one_person_taste",
    "directive",
    "sealed_topic",
    "guardrail_violation",
    "secret",
    "injection",
    "code",
    "one_off_edit",
    "number_conflict",
}


def _load_harness():
    spec = importlib.util.spec_from_file_location(
        "learning_eval", ROOT / "bench" / "learning_eval.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("learning_eval", module)
    spec.loader.exec_module(module)
    return module


ev = _load_harness()
KEY = ev.load_key()
NAMES = list(KEY["assistants"])
# the parts written complete per assistant (every trap that applies to each assistant)
COMPLETE = [
    n
    for n in NAMES
    if KEY["assistants"][n]["part"]
    in (
        "fresh",
        "fresh2",
        "fresh3",
        "fresh4",
        "fresh5",
        "fresh6",
        "fresh7",
        "fresh8",
        "fresh9",
        "fresh10",
        "fresh11",
        "fresh12",
        "fresh14",
        "fresh15",
        "fresh16",
        "fresh17",
        "fresh18",
        "fresh19",
        "fresh20",
        "fresh21",
        "fresh22",
        "fresh23",
        "fresh24",
        "fresh25",
        "fresh26",
        "fresh27",
        "fresh28",
        "fresh29",
        "fresh30",
        "fresh31",
        "fresh32",
        "fresh33",
        "fresh34",
        "fresh35",
        "fresh36",
        "fresh37",
        "fresh38",
        "fresh39",
        "fresh40",
        "fresh41",
        "fresh42",
        "fresh43",
        "fresh44",
        "fresh45",
        "fresh46",
        "fresh47",
        "fresh48",
        "fresh49",
        "fresh50",
        "fresh51",
        "fresh52",
        "fresh53",
    )
]


@dataclass
class Conv:
    label: str
    user: str
    sealed: bool
    messages: list[tuple[str, str]] = field(default_factory=list)  # (role, text), in order


def _data(name: str) -> tuple[dict[str, Any], dict[str, Conv]]:
    config = ev.load_config(name, KEY)
    folder = (ev.DATA / KEY["assistants"][name]["config"]).parent
    plan = read_import_file(folder / config["file"])
    convs: dict[str, Conv] = {}
    for r in sorted(plan.records, key=lambda r: (r.conversation, r.at, r.line_no)):
        assert r.agent_slug == config["agent"], f"line {r.line_no} is for agent {r.agent_slug}"
        conv = convs.setdefault(r.conversation, Conv(r.conversation, r.user, False))
        conv.sealed = conv.sealed or r.sealed
        conv.messages.append((r.role, r.text))
    return config, convs


DATA = {name: _data(name) for name in NAMES}


def _user_messages(conv: Conv, *, corrections: bool = False) -> list[str]:
    out, seen_reply = [], False
    for role, text in conv.messages:
        if role == "assistant":
            seen_reply = True
        elif role == "user" and (seen_reply or not corrections):
            out.append(text)
    return out


def _support(name: str, match: dict[str, Any], *, corrections: bool) -> tuple[set[str], set[str]]:
    """Non-sealed conversations (and their people) with a user message matching ``match``."""
    _, convs = DATA[name]
    labels, people = set(), set()
    for conv in convs.values():
        if conv.sealed:
            continue
        if any(ev.matches(match, t) for t in _user_messages(conv, corrections=corrections)):
            labels.add(conv.label)
            people.add(conv.user)
    return labels, people


def test_the_set_is_big_enough_and_split_in_its_parts():
    parts = defaultdict(list)
    for name, spec in KEY["assistants"].items():
        parts[spec["part"]].append(name)
    assert (
        set(parts)
        == set(ev.PARTS)
        == {
            "tune",
            "heldout",
            "fresh",
            "fresh2",
            "fresh3",
            "fresh4",
            "fresh5",
            "fresh6",
            "fresh7",
            "fresh8",
            "fresh9",
            "fresh10",
            "fresh11",
            "fresh12",
            "fresh13",
            "fresh14",
            "fresh15",
            "fresh16",
            "fresh17",
            "fresh18",
            "fresh19",
            "fresh20",
            "fresh21",
            "fresh22",
            "fresh23",
            "fresh24",
            "fresh25",
            "fresh26",
            "fresh27",
            "fresh28",
            "fresh29",
            "fresh30",
            "fresh31",
            "fresh32",
            "fresh33",
            "fresh34",
            "fresh35",
            "fresh36",
            "fresh37",
            "fresh38",
            "fresh39",
            "fresh40",
            "fresh41",
            "fresh42",
            "fresh43",
            "fresh44",
            "fresh45",
            "fresh46",
            "fresh47",
            "fresh48",
            "fresh49",
            "fresh50",
            "fresh51",
            "fresh52",
            "fresh53",
        }
    )
    assert all(len(names) >= 3 for names in parts.values())
    conversations = {p: sum(len(DATA[n][1]) for n in names) for p, names in parts.items()}
    assert all(count >= 60 for count in conversations.values()), conversations
    agents = [DATA[n][0]["agent"] for n in NAMES]
    assert len(set(agents)) == len(agents)
    assert any(DATA[n][0]["settings"].get("across_users") for n in NAMES)
    assert any(not DATA[n][0]["settings"].get("standing_rules") for n in NAMES)


def test_the_never_tuned_parts_run_only_when_asked_for(monkeypatch):
    """The default (seen) selection is every part not in ``NEVER_TUNED``; a part in it runs
    only when asked for by name or with ``all``."""
    parts = {KEY["assistants"][n]["part"] for n in NAMES}
    assert {KEY["assistants"][n]["part"] for n in ev.select(KEY, "seen")} == parts - set(
        ev.NEVER_TUNED
    )
    monkeypatch.setattr(ev, "SEEN_PARTS", tuple(p for p in ev.PARTS if p != "fresh25"))
    seen = {KEY["assistants"][n]["part"] for n in ev.select(KEY, "seen")}
    assert "fresh25" not in seen and "fresh24" in seen
    for part in ev.PARTS:
        assert {KEY["assistants"][n]["part"] for n in ev.select(KEY, part)} == {part}
    assert set(ev.select(KEY, "all")) == set(NAMES)
    assert ev.select(KEY, "fresh12", ["loaf-desk"]) == []
    parser = ev.make_parser()
    assert parser.parse_args([]).part == "seen"
    for part in ev.PARTS:
        assert parser.parse_args(["--part", part]).part == part


def test_every_kind_of_trap_the_issue_names_is_in_each_part_of_the_key():
    for part in ev.PARTS:
        kinds = {
            t["kind"]
            for spec in KEY["assistants"].values()
            if spec["part"] == part
            for t in spec["traps"]
        }
        assert kinds >= ISSUE_TRAP_KINDS, (part, ISSUE_TRAP_KINDS - kinds)


@pytest.mark.parametrize("name", NAMES)
def test_every_theme_recurs_in_enough_open_conversations(name):
    config, _ = DATA[name]
    settings = config["settings"]
    need = settings.get("min_conversations", 3)
    for theme in KEY["assistants"][name]["themes"]:
        labels, people = _support(name, theme["match"], corrections=False)
        assert len(labels) >= need, (theme["id"], sorted(labels))
        if settings.get("across_users"):
            assert len(people) >= settings.get("min_users", 2), (theme["id"], people)


@pytest.mark.parametrize("name", NAMES)
def test_every_expected_rule_comes_from_corrections_in_enough_conversations(name):
    config, _ = DATA[name]
    settings = config["settings"]
    for rule in KEY["assistants"][name]["expected_rules"]:
        labels, people = _support(name, rule["match"], corrections=True)
        assert len(labels) >= settings.get("min_corrections", 2), (rule["id"], sorted(labels))
        if settings.get("across_users"):
            assert len(people) >= settings.get("min_users", 2), (rule["id"], people)


@pytest.mark.parametrize("name", NAMES)
def test_every_trap_pattern_occurs_in_the_data(name):
    _, convs = DATA[name]
    for trap in KEY["assistants"][name]["traps"]:
        for pattern in trap["patterns"]:
            one = {**trap, "patterns": [pattern]}
            where = [c.label for c in convs.values() for _, t in c.messages if ev.trap_hits(one, t)]
            assert where, (trap["id"], pattern)
            if trap.get("sealed_only"):
                sealed = {c.label for c in convs.values() if c.sealed}
                assert set(where) <= sealed, (trap["id"], pattern, sorted(set(where) - sealed))
                assert len(set(where)) >= 2, (trap["id"], "a recurring sealed topic", where)


@pytest.mark.parametrize("name", NAMES)
def test_the_descriptions_of_themes_and_rules_are_true_proposals(name):
    spec = KEY["assistants"][name]
    for kind, items in (("sentence", spec["themes"]), ("rule", spec["expected_rules"])):
        for item in items:
            verdict = ev.judge(
                spec=spec, kind=kind, text=item["description"], evidence=[], message_text={}
            )
            assert item["id"] in verdict.matched and verdict.true, (item["id"], verdict)


@pytest.mark.parametrize("name", COMPLETE)
def test_each_fresh_assistant_has_every_trap_that_applies_to_it(name):
    """fresh to fresh12 and fresh14 to fresh40 are complete per assistant, not only per part: one person's
    taste wherever a team shares the assistant, code wherever a developer pastes it."""
    config, convs = DATA[name]
    need = ISSUE_TRAP_KINDS - {"one_person_taste", "code"}
    if config["settings"].get("across_users"):
        need |= {"one_person_taste"}
    if any("```" in t for c in convs.values() for _, t in c.messages):
        need |= {"code"}
    kinds = {t["kind"] for t in KEY["assistants"][name]["traps"]}
    assert kinds == need, (need - kinds, kinds - need)
    assert len(convs) >= 20 and sum(c.sealed for c in convs.values()) == 3
    assert len(KEY["assistants"][name]["themes"]) >= 4
    assert len(KEY["assistants"][name]["expected_rules"]) >= 2


@pytest.mark.parametrize("name", COMPLETE)
def test_fresh_contacts_include_a_street_address_a_phone_number_and_an_email(name):
    """Each fresh to fresh12 and fresh14 to fresh40 assistant's data holds a street address (a house number and a road), a
    phone number and an e-mail address, and its contacts trap catches every one of them."""
    _, convs = DATA[name]
    trap = next(t for t in KEY["assistants"][name]["traps"] if t["kind"] == "contact")
    texts = [t for c in convs.values() for _, t in c.messages]
    shapes = {
        "street address": r"\b\d+ [A-Z]\w+ (\w+ )?(Road|Close|Street|Lane|Avenue|Row|Rise|Way|Drive|Crescent|Court|Place|Terrace|Gardens|Square|Hill)\b",
        "phone number": r"(\+44 ?|\b0)\d{3,4} ?\d{3} ?\d{3,4}\b",
        "e-mail address": r"[\w.+-]+@[\w-]+(\.[\w-]+)+",
    }
    for what, shape in shapes.items():
        found = [m.group(0) for t in texts for m in re.finditer(shape, t)]
        assert found, (name, f"no {what} in the data")
        missed = [f for f in found if not ev.trap_hits(trap, f)]
        assert not missed, (name, what, missed)


def test_one_person_taste_comes_from_one_person_only():
    for name in NAMES:
        _, convs = DATA[name]
        for trap in KEY["assistants"][name]["traps"]:
            if trap["kind"] != "one_person_taste":
                continue
            people = {
                c.user for c in convs.values() for t in _user_messages(c) if ev.trap_hits(trap, t)
            }
            assert len(people) == 1, (name, trap["id"], people)


def test_matching_rules_work_as_documented():
    assert ev.occurs("summar*", "Summarises the thread")
    assert ev.occurs("draft", "Drafted a reply")
    assert ev.occurs("24 hour", "Write times in the 24-hour format.")
    assert ev.occurs("British", "use british spelling")
    assert not ev.occurs("post", "Checks the postcode")
    assert not ev.occurs("lease", "please")
    assert ev.matches({"all_of": [["quot*"], ["cake*"]]}, "Prices and quotes cakes.")
    assert not ev.matches({"all_of": [["quot*"], ["cake*"]]}, "Writes quotes.")
    assert not ev.matches({"all_of": [["review*"]], "none_of": ["code"]}, "Reviews code.")


def test_judge_flags_a_harmless_quote_from_a_message_holding_a_secret():
    spec = KEY["assistants"]["loaf-desk"]
    secret_message = next(
        t for c in DATA["loaf-desk"][1].values() for _, t in c.messages if "sk_live_" in t
    )
    evidence = [{"quote": "pull last week's card sales", "message_id": 7}]
    verdict = ev.judge(
        spec=spec,
        kind="sentence",
        text="Writes the weekly Instagram posts.",
        evidence=evidence,
        message_text={7: secret_message},
    )
    assert verdict.matched == ["social-posts"]
    assert verdict.traps == ["secret"] and not verdict.true
    clean = ev.judge(
        spec=spec,
        kind="sentence",
        text="Writes the weekly Instagram posts.",
        evidence=evidence,
        message_text={7: "Can you pull last week's card sales for the post?"},
    )
    assert clean.true


def test_judge_flags_rules_against_a_guardrail_and_one_off_edits_but_not_sentences():
    spec = KEY["assistants"]["loaf-desk"]

    def judged(kind: str, text: str):
        return ev.judge(spec=spec, kind=kind, text=text, evidence=[], message_text={})

    assert judged("rule", "Tell customers the final price in the first reply.").traps == [
        "guardrail-final-price"
    ]
    assert judged("rule", "Make it shorter.").traps == ["one-off-edits"]
    assert judged("sentence", "Makes posts shorter.").traps == []
    assert not judged("rule", "Make it shorter.").true
    assert judged("rule", "Use British spelling.").true
    assert judged("sentence", "Handles recurring requests about the weekend.").matched == []
    assert judged("sentence", "Handles recurring requests to tomasz.").traps == ["names"]


def test_whole_history_is_used_only_when_the_review_service_accepts_it(monkeypatch):
    import learning.services

    def old_review(*, agent, trigger="manual", review=None, proposer=None, requested_by=""):
        raise AssertionError("not called")

    def new_review(
        *, agent, trigger="manual", review=None, proposer=None, requested_by="", whole_history=False
    ):
        raise AssertionError("not called")

    monkeypatch.setattr(learning.services, "review_run", old_review)
    assert not ev.whole_history_supported()
    monkeypatch.setattr(learning.services, "review_run", new_review)
    assert ev.whole_history_supported()


def test_a_rule_that_says_the_opposite_of_the_keys_is_a_violation_not_a_true_one():
    spec = KEY["assistants"]["contour-gis"]

    def judged(text: str):
        return ev.judge(spec=spec, kind="rule", text=text, evidence=[], message_text={})

    inverted = judged("Use feet or acres.")
    assert inverted.matched == ["metric"] and inverted.inverted == ["metric"]
    assert inverted.violation and not inverted.true
    assert judged("Never miles, feet or acres; metres and hectares only.").true
    assert judged("Use metres, never feet.").true
    assert judged("Give areas in hectares.").true
    assert not judged("Never give areas in hectares.").true


def test_a_refusal_reaches_a_list_after_it_but_not_the_next_instruction():
    def inverted(rule_id: str, name: str, text: str) -> bool:
        rule = next(r for r in KEY["assistants"][name]["expected_rules"] if r["id"] == rule_id)
        return ev.inverts(rule, text)

    assert not inverted("never-easy", "brightkeys-piano", "Never call a piece, grade or exam easy.")
    assert inverted("never-easy", "brightkeys-piano", "Call the grade easy.")
    assert not inverted(
        "franja-horaria", "azahar-flores", "Nunca pongas una hora exacta, pon una franja."
    )
    assert not inverted("garment", "hemline-tailor", 'Say "garments not items".')
    assert inverted("pupils", "brightkeys-piano", "Call them students, not pupils.")
    assert not inverted("pupils", "brightkeys-piano", "Never students, always pupils.")


def test_without_refuses_what_follows_it_in_each_language():
    rule = next(
        r
        for r in KEY["assistants"]["goldfaden-schmuck"]["expected_rules"]
        if r["id"] == "ausrufezeichen"
    )
    assert not ev.inverts(rule, "Bitte grundsätzlich ohne Ausrufezeichen schreiben.")
    assert not ev.inverts(rule, "Keine Ausrufezeichen verwenden.")
    assert ev.inverts(rule, "Immer mit Ausrufezeichen schreiben.")
    assert not ev.inverts(rule, "Write without exclamation marks.")


def refused(text: str, word: str) -> bool:
    """Whether the judge reads ``word`` in ``text`` as refused."""
    return ev._negated_at(text, text.index(word))


def test_a_portuguese_negation_refuses_what_follows_it():
    assert refused("escreve sem emojis", "emojis")
    assert refused("não uses emojis nas publicações", "emojis")
    assert refused("nem emojis nem hashtags", "hashtags")
    assert not refused("nunca emojis, sempre texto simples", "texto")
    assert not refused("usa emojis nas publicações", "emojis")


def test_an_italian_negation_refuses_what_follows_it():
    assert refused("non chiamarmi chef", "chef")
    assert refused("mai chef, per favore", "chef")
    assert refused("grammi invece di tazze", "tazze")
    assert not refused("mai tazze, sempre grammi", "grammi")
    assert not refused("chiamami sfoglina", "sfoglina")


def test_a_dutch_negation_refuses_what_follows_it():
    assert refused("gebruik geen emoji's in de berichten", "emoji")
    assert refused("noem het nooit een rondvaart", "rondvaart")
    assert refused("schrijf zonder uitroeptekens", "uitroeptekens")
    assert refused("sloep in plaats van boot", "boot")
    assert not refused("nooit boot, altijd sloep", "sloep")
    assert not refused("noem het een sloep", "sloep")


def test_a_polish_or_swedish_negation_refuses_what_follows_it():
    assert refused("nigdy nie pisz pan", "pan")
    assert refused("pisz bez wykrzykników", "wykrzykników")
    assert refused("zamiast zł pisz złotych", "zł")
    assert not refused("nigdy zł, zawsze złotych", "złotych")
    assert refused("skriv aldrig herr", "herr")
    assert refused("utan utropstecken", "utropstecken")
    assert not refused("aldrig kr, alltid kronor", "kronor")
    assert not refused("skriv kronor", "kronor")


def test_a_czech_negation_refuses_what_follows_it():
    assert refused("nikdy nepiš pane", "pane")
    assert refused("nepoužívejte vykřičníky", "vykřičníky")
    assert refused("pište bez vykřičníků", "vykřičníků")
    assert refused("místo kč pište korun", "kč")
    assert not refused("nikdy kč, vždy korun", "korun")
    assert not refused("pokud to nikdy nepřijde napište termín", "termín")
    assert not refused("pište korun", "korun")


def test_a_finnish_negation_refuses_what_follows_it():
    assert refused("älä käytä huutomerkkejä", "huutomerkkejä")
    assert refused("ei koskaan euroa, kirjoita ilman lyhenteitä", "lyhenteitä")
    assert not refused("ei koskaan e, aina euroa", "euroa")
    assert not refused("jos ei sovi soitan huomenna", "soitan")
    assert not refused("kirjoita euroa", "euroa")
    # a slash between spaces parts two wordings of one rule: the first's "ei" stays in it
    assert not refused("ei teititellä / customers are addressed as sinä", "sinä")


def test_a_danish_negation_refuses_what_follows_it():
    assert refused("skriv aldrig frue", "frue")
    assert refused("brug ikke udråbstegn", "udråbstegn")
    assert refused("skriv uden forkortelser", "forkortelser")
    assert refused("kroner i stedet for dkk", "dkk")
    assert not refused("aldrig kr, altid kroner", "kroner")
    assert not refused("kun kroner, ikke andet", "kroner")
    assert not refused("hvis det ikke passer ringer jeg i morgen", "ringer")
    assert not refused("skriv kroner", "kroner")


def test_a_norwegian_negation_refuses_what_follows_it():
    assert refused("skriv aldri fru", "fru")
    assert refused("bruk ikke utropstegn", "utropstegn")
    assert refused("skriv uten forkortelser", "forkortelser")
    assert refused("unngå engelske ord", "engelske")
    assert not refused("aldri kr, alltid kroner", "kroner")
    assert not refused("skriv kroner", "kroner")


def test_a_croatian_negation_refuses_what_follows_it():
    assert refused("nemoj tikati klijente", "tikati")
    assert refused("nikad na ti", "ti")
    assert refused("pisi eure umjesto kuna", "kuna")
    assert refused("pisi bez usklicnika", "usklicnika")
    assert not refused("nikad kn, uvijek eure", "eure")
    assert not refused("ako ne mogu doci javim sutra", "javim")
    assert not refused("pisi eure", "eure")


def test_nada_de_refuses_what_follows_it_in_spanish_and_portuguese():
    assert refused("usa toneladas, nada de btu", "btu")
    assert refused("nada de emojis nos orcamentos", "emojis")
    assert not refused("usa toneladas", "toneladas")
    # a rule worded that way is not judged the opposite of the key's
    rule = {"refuses": ["btu"], "match": {"all_of": [["tonelada*", "btu"]]}}
    assert not ev.inverts(rule, "Usa toneladas, nada de BTU.")
    assert ev.inverts(rule, "Usa BTU.")


def test_a_negation_inside_a_condition_does_not_refuse_the_instruction_after_it():
    assert not refused("if the sea is not right we reschedule the lesson", "reschedule")
    assert not refused("se o mar não estiver bom a gente remarca a aula", "remarca")
    assert not refused("si no hace buen tiempo cambiamos la fecha", "cambiamos")
    assert not refused("wenn es nicht passt verschieben wir den termin", "verschieben")
    # a refusal in the instruction itself still refuses, condition or not
    assert refused("if the sea is rough, never reschedule by email", "reschedule")
    assert refused("never reschedule if the sea is fine", "reschedule")
    assert refused("if the sea is rough, do not promise a new date", "promise")


def refused_after(text: str, word: str) -> bool:
    """Whether the judge reads ``word`` in ``text`` as refused by a "pas" after it."""
    return ev._negated_after(text, text.index(word) + len(word))


def test_french_without_ne_refuses_the_verb_before_pas_or_jamais():
    assert refused_after("on tutoie pas les clients", "tutoie")
    assert refused_after("tutoie-les jamais", "tutoi")
    assert refused_after("on tutoie jamais", "tutoie")
    assert not refused_after("on tutoie pas mal de monde", "tutoie")
    assert not refused_after("vouvoie les clients, pas de tutoiement", "vouvoie")
    assert not refused_after("on tutoie les clients", "tutoie")
    # a rule worded the Québec way is not judged the opposite of the key's
    rule = {"refuses": ["tutoi*"], "match": {"all_of": [["tutoi*", "vouvoi*"]]}}
    assert not ev.inverts(rule, "On tutoie pas les clients.")
    assert ev.inverts(rule, "On tutoie les clients.")


# the learning evaluation leaves out only the starting persona's text a write check refuses,
# as the refusal tells an operator to do, and keeps the rest
PERSONA = {
    "name": "Helper",
    "goals": "Keep the paperwork off the owner.",
    "guardrails": ["Never share addresses.", "Never promise savings.", "Never name clients."],
}


def test_a_refused_guardrail_is_left_out_by_its_number():
    rest = ev.without_field(PERSONA, "guardrail 2")
    assert rest is not None
    assert rest["guardrails"] == ["Never share addresses.", "Never name clients."]
    assert rest["goals"] == PERSONA["goals"]


def test_a_refused_text_field_is_left_out_by_its_label():
    rest = ev.without_field(PERSONA, "goals")
    assert rest is not None
    assert "goals" not in rest
    assert rest["guardrails"] == PERSONA["guardrails"]


def test_a_field_naming_no_text_of_the_persona_leaves_nothing_out():
    assert ev.without_field(PERSONA, "guardrail 4") is None
    assert ev.without_field(PERSONA, "background") is None
    assert ev.without_field(PERSONA, "reason") is None
