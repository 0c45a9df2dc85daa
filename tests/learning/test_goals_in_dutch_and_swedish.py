"""Dutch and Swedish are languages of the local proposer for goals sentences: their
requests (imperatives, "kun je … maken voor …", "kan du skriva …", labels) are grouped
and worded in the persona's language, a plural is the one the spelling settles or the
messages write and is never guessed, and a persona in a language the proposer cannot
read is declined, never read as English."""

from __future__ import annotations

import pytest

from learning import language
from learning.proposers.local import LocalProposer
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, sentence_check, settings

DUTCH_PERSONA = {
    "role": "Helpt Joost met de mail van zijn fietsenwinkel in Utrecht",
    "goals": "Joost tijd besparen op de administratie, zodat hij meer kan sleutelen.",
    "background": "Een kleine fietsenwinkel met reparaties en verhuur van bakfietsen.",
    "guardrails": ["Geef nooit gegevens van klanten door aan anderen."],
    "standing_rules": [],
}
DUTCH = [
    (1, "Kun je een bevestiging maken voor een reparatie? Zaterdag om tien uur.", False),
    (1, "Deze kwam binnen, kun je een bevestiging schrijven voor de huur?", False),
    (1, "Bevestiging voor een bakfiets, zondag de hele dag.", False),
    (1, "Maak een bevestiging voor een groep van vier.", False),
    (1, "bedankt, top", True),
]
SWEDISH_PERSONA = {
    "role": "Hjälper Karin med mejl till kunderna i hennes keramikverkstad",
    "goals": "Spara tid åt Karin så att hon kan stå vid drejskivan.",
    "background": "En liten keramikverkstad i Lund som säljer skålar och håller kurser.",
    "guardrails": ["Lämna aldrig ut kunders adresser."],
    "standing_rules": [],
}
SWEDISH = [
    (1, "Kan du skriva en faktura till en kund för två skålar?", False),
    (1, "Behöver en faktura för kursen i mars.", False),
    (1, "Skriv en faktura för en beställning av tolv koppar.", False),
    (1, "tack, bra", True),
]
POLISH_PERSONA = {
    "role": "Pomaga Markowi w potwierdzeniach wizyt, wycenach, fakturach i postach",
    "goals": "Oszczędzać Markowi czas na pisaniu, żeby mógł więcej stroić.",
    "background": "Marek stroi i naprawia fortepiany w Krakowie dla szkół i domów.",
    "guardrails": ["Nigdy nie podawaj danych klientów innym osobom."],
    "standing_rules": [],
}


@pytest.mark.parametrize(
    ("persona", "code"),
    [(DUTCH_PERSONA, "nl"), (SWEDISH_PERSONA, "sv"), (POLISH_PERSONA, "pl")],
)
def test_a_persona_is_read_in_its_own_language(persona, code):
    assert language.persona_language(persona) == code


def test_a_persona_in_a_language_no_list_knows_is_not_read_as_english():
    finnish = {
        "role": "Auttaa Liisaa asiakkaiden sähköposteissa ja laskuissa",
        "goals": "Säästää Liisan aikaa toimistotöissä, jotta hän voi leipoa enemmän.",
        "background": "Pieni leipomo Tampereella, joka myy leipää ja kakkuja tilauksesta.",
    }
    assert language.persona_language(finnish) == language.UNREAD
    english = {"role": "Helps Liisa with invoices and customer e-mails for her bakery"}
    assert language.persona_language(english) == "en"


def test_a_polish_persona_gets_no_english_rule_from_polish_corrections():
    corrections = [
        (1, "Nie, odpisz klientce, że wiem, że po angielsku też piszę faktury.", True),
        (1, "Dopisz, że wiem, że po angielsku to brzmi inaczej.", True),
        (1, "Napisz, że wiem, że po angielsku wszystko będzie jasne.", True),
    ]
    rule = LocalProposer().propose_rule(corpus_of(corrections), POLISH_PERSONA, settings())
    assert rule.data["rule"] is None
    assert "Polish" in rule.declined
    # its goals are read (``language.FRAMES["pl"]``): corrections after a reply ask for no work
    goals = LocalProposer().propose_sentence(corpus_of(corrections), POLISH_PERSONA, settings())
    assert goals.data["sentence"] == "" and not goals.declined


@pytest.mark.parametrize(
    ("text", "code", "verb", "noun"),
    [
        ("Kun je een bevestiging maken voor een reservering?", "nl", "maken", "bevestiging"),
        ("Deze kwam binnen, kun je een offerte schrijven?", "nl", "schrijven", "offerte"),
        ("Schrijf een reactie op deze review.", "nl", "reageren", "review"),
        ("Factuur voor de groep van zaterdag.", "nl", "", "factuur"),
        ("Kan du skriva en offert till en kund?", "sv", "skriva", "offert"),
        ("Gör en ny räkning.", "sv", "göra", "räkning"),
        ("Behöver en faktura till kunden.", "sv", "", "faktura"),
    ],
)
def test_a_dutch_or_swedish_request_gives_its_verb_and_noun(text, code, verb, noun):
    [ask] = asks_of(corpus_of([(1, text, False)]).messages[0], code, set())
    assert (ask.verb, ask.noun) == (verb, noun)


@pytest.mark.parametrize(
    ("noun", "code", "article", "seen", "plural"),
    [
        ("bevestiging", "nl", "een", set(), "bevestigingen"),
        ("offerte", "nl", "een", set(), "offertes"),
        ("factuur", "nl", "een", {"facturen"}, "facturen"),
        ("factuur", "nl", "een", set(), ""),  # "facturen" or "factuurs": not guessed
        ("faktura", "sv", "en", set(), "fakturor"),
        ("förslag", "sv", "ett", set(), "förslag"),
        ("offert", "sv", "en", {"offerter"}, "offerter"),
        ("offert", "sv", "en", {"offert"}, ""),
    ],
)
def test_a_plural_is_the_one_the_spelling_settles_or_the_messages_write(
    noun, code, article, seen, plural
):
    assert language.plural_noun(noun, code, article_seen=article, seen=seen) == plural


def test_dutch_and_swedish_requests_are_grouped_and_worded_in_their_language():
    for rows, code, sentence in (
        (DUTCH, "nl", "Maakt bevestigingen."),
        (SWEDISH, "sv", "Skriver fakturor."),
    ):
        corpus = corpus_of(rows)
        names = proper_words(corpus.messages, english=False, code=code)
        themes = find_foreign_themes(
            corpus.messages, code, names, min_conversations=3, min_users=None
        )
        assert [foreign_sentence(t, code) for t in themes] == [sentence]


def test_a_dutch_persona_gets_a_dutch_proposal_with_verified_quotes():
    corpus = corpus_of(DUTCH)
    result = LocalProposer().propose_sentence(corpus, DUTCH_PERSONA, settings())
    assert result.declined == ""
    assert result.data["sentence"] == "Maakt bevestigingen."
    assert sentence_check(corpus, result.data).ok
    # standing rules are not worded in Dutch: declined, never read as English
    rule = LocalProposer().propose_rule(corpus, DUTCH_PERSONA, settings())
    assert "Dutch" in rule.declined


@pytest.mark.parametrize(
    ("quote", "sentence"),
    [
        ("Kun je een bevestiging maken", "Maakt bevestigingen."),
        ("Factuur voor de groep van zaterdag", "Schrijft facturen."),
        ("Kan du göra en faktura", "Gör fakturor."),
        ("Gör en ny bokning åt kunden", "Skriver bokningar."),
    ],
)
def test_a_quote_shares_its_word_with_a_plural_the_stem_keeps_whole(quote, sentence):
    from safety.text import content_words, share_a_word

    assert share_a_word(quote, content_words(sentence))
    assert not share_a_word("book a table for two", content_words("Writes invoices."))


def test_a_persona_in_an_unknown_language_refuses_english_sentences_only():
    from learning.policy import sentence_refusal

    hungarian = {
        "role": "Segít Katának az árajánlatokkal, számlákkal és az Instagram-posztokkal",
        "goals": "Időt spórolni Katának a papírmunkán, hogy többet lehessen a műhelyben.",
        "background": "Nagy Kata egyedül viszi kis kerámiaműhelyét Pécsen.",
    }
    assert language.persona_language(hungarian) == language.UNREAD
    english = "Writes the invoices for the pottery."
    assert "English" in (
        sentence_refusal(sentence=english, field="goals", persona=hungarian, known_names=set())
        or ""
    )
    # its own language is told "another language" by ``detect``: no refusal
    own = "Árajánlatokat és számlákat készít a vásárlóknak a webshopban."
    assert language.detect(own) == language.UNREAD
    assert not sentence_refusal(sentence=own, field="goals", persona=hungarian, known_names=set())


def test_a_plural_the_persona_writes_words_a_dutch_reply_theme():
    rows = [
        (1, "Nieuwe review op Google, vier sterren. Graag iets vriendelijks terug.", False),
        (1, "Reactie op deze review aub, vijf sterren op Google.", False),
        (1, "Kun je een reactie schrijven op deze review van gisteren?", False),
    ]
    corpus = corpus_of(rows)
    names = proper_words(corpus.messages, english=False, code="nl")
    # no message writes "reviews": the plural is not guessed
    assert not find_foreign_themes(
        corpus.messages, "nl", names, min_conversations=3, min_users=None
    )
    persona = {**DUTCH_PERSONA, "role": "Helpt Joost met offertes, facturen en reviews"}
    themes = find_foreign_themes(
        corpus.messages, "nl", names, min_conversations=3, min_users=None, persona=persona
    )
    assert [foreign_sentence(t, "nl") for t in themes] == ["Reageert op reviews."]
