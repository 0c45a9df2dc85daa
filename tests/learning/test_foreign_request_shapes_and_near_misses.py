"""Request shapes the foreign path reads in every Germanic frame that puts them so: an
infinitive followed by what the work is for, whom it goes to or what it says, however
long ("Wil je een bevestiging maken voor de stalronde van donderdag bij …"), an
adjective written before its noun ("een vriendelijke betalingsherinnering"), a platform
written before the noun inside a sentence ("een Facebook post"), "er" between the verb
and its object; a Dutch noun is one noun in both numbers and as a diminutive; and work
asked for again, but in too few conversations, is recorded and said in the notes, so a
reviewer sees why nothing was proposed."""

from __future__ import annotations

import pytest

from learning import language
from learning.candidates import TOO_FEW_CONVERSATIONS
from learning.proposers.local import LocalProposer
from learning.proposers.local.other_languages import _key, asks_of
from tests.learning.corpora import corpus_of, settings
from tests.learning.test_goals_in_dutch_and_swedish import DUTCH_PERSONA


def _read(text: str, code: str = "nl") -> list[tuple[str, str, str]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [(a.verb, a.noun, a.platform) for a in asks_of(message, code, set())]


@pytest.mark.parametrize(
    ("text", "verb", "noun"),
    [
        (
            "Wil je een bevestiging maken voor de stalronde van donderdag bij de manege?",
            "maken",
            "bevestiging",
        ),
        (
            "De cursus zit vol, kun je een herinnering sturen naar de deelnemers?",
            "sturen",
            "herinnering",
        ),
        ("Kun je een kort bericht maken dat ik het dossier sluit", "maken", "bericht"),
        ("Maak er een kort verslag van", "maken", "verslag"),
        ("Kun je een vriendelijke betalingsherinnering maken?", "maken", "betalingsherinnering"),
        ("Openstaande facturen van september nalopen.", "", "facturen"),
    ],
)
def test_a_dutch_request_gives_its_verb_and_noun(text, verb, noun):
    assert [(v, n) for v, n, _p in _read(text)] == [(verb, noun)]


def test_a_platform_written_before_the_noun_inside_a_sentence_names_its_kind():
    assert _read("Maak even een Facebook post dat ik nieuwe klanten aanneem") == [
        ("maken", "post", "Facebook")
    ]
    assert _read("Post voor Insta: foto van het nieuwe beslag") == [("", "post", "Insta")]


def test_a_swedish_adjective_before_its_noun_is_no_noun():
    assert [(v, n) for v, n, _p in _read("Skriv korta texter till webbshopen.", "sv")] == [
        ("skriva", "texter")
    ]


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("factuur", "facturen"),
        ("afspraak", "afspraken"),
        ("verslagje", "verslag"),
        ("bak", "bakken"),
    ],
)
def test_a_dutch_noun_is_one_noun_in_both_numbers_and_as_a_diminutive(one, other):
    frame = language.FRAMES["nl"]
    assert _key(one, frame) == _key(other, frame)


def test_work_asked_for_in_too_few_conversations_is_said_in_the_notes():
    rows = [
        (1, "Kun je een bevestiging maken voor de ronde van maandag?", False),
        (1, "Maak een bevestiging voor de ronde in Annen.", False),
        (1, "bedankt, top", True),
    ]
    result = LocalProposer().propose_sentence(corpus_of(rows), DUTCH_PERSONA, settings())
    assert result.data["sentence"] == ""
    [near] = [c for c in result.candidates if c["reason"] == TOO_FEW_CONVERSATIONS]
    assert near["text"] == "Maakt bevestigingen voor de ronde."
    assert any("Maakt bevestigingen" in n and "2 conversations" in n for n in result.notes)


def test_a_request_whose_infinitive_ends_it_is_quoted_with_the_infinitive():
    message = corpus_of([(1, "Kun je een rondebericht maken voor Tynaarlo dinsdag?", False)])
    [ask] = asks_of(message.messages[0], "nl", {"tynaarlo"})
    assert message.messages[0].text[ask.start : ask.end] == "Kun je een rondebericht maken"


def test_work_whose_plural_no_message_writes_is_said_in_the_notes():
    rows = [
        (1, "Kun je een verslag maken over de merrie van vandaag?", False),
        (1, "Verslag over de pony van gisteren, hoef was erg vlak.", False),
        (1, "Maak er een kort verslag van, de dierenarts wil het graag.", False),
    ]
    result = LocalProposer().propose_sentence(corpus_of(rows), DUTCH_PERSONA, settings())
    assert result.data["sentence"] == ""
    assert any(
        "'verslag': asked for in 3 conversations, no message writes its plural" in n
        for n in result.notes
    )


def test_a_text_named_by_nothing_but_its_generic_noun_is_not_proposed():
    from learning.proposers.local.other_languages import find_foreign_themes

    rows = [
        (1, "Podes escrever a mensagem de confirmação? Sábado às 10h.", False),
        (1, "Mensagem para os inscritos: mudou a hora.", False),
        (1, "escreve uma mensagem curta ao dono do prédio", False),
    ]
    corpus = corpus_of(rows)
    unworded: list[str] = []
    themes = find_foreign_themes(
        corpus.messages, "pt", set(), min_conversations=3, min_users=None, unworded=unworded
    )
    assert themes == []
    assert any("says only that a text is written" in u for u in unworded)


@pytest.mark.parametrize(
    ("text", "noun"),
    [
        ("Nog een offerte, fietsclub uit de buurt, zaterdag 24 oktober.", "offerte"),
        ("Factuur 2026-047 voor de fietsclub, betaald per pin.", "factuur"),
    ],
)
def test_a_label_ends_at_another_ones_comma_and_skips_its_number(text, noun):
    assert [n for _v, n, _p in _read(text)] == [noun]


def test_a_list_after_a_comma_is_no_complement():
    message = corpus_of([(1, "Laarzen, werkhandschoenen.", False)]).messages[0]
    assert all(a.complement == "" for a in asks_of(message, "nl", set()))


def test_an_emoji_ends_a_request_sentence_and_insta_is_instagram():
    from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence

    rows = [
        (1, "Publicação para o Instagram: acabei o painel da entrada.", False),
        (1, "Fico parada 2 semanas 😩 Escreve uma publicação para o Insta a dizer isso", False),
        (1, "legenda para o Instagram: reel do painel de limões, curto", False),
    ]
    corpus = corpus_of(rows)
    themes = find_foreign_themes(corpus.messages, "pt", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "pt") for t in themes] == ["Escreve as publicações do Instagram."]
