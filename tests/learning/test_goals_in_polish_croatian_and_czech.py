"""Goals sentences for assistants written in Polish, Croatian and Czech: the imperatives
people ask with ("napisz", "napravi", "udělej") worded in the third person of work done
again and again ("Pisze …", "Priprema …", "Píše …"), requests with no article, nouns in
their cases and typed without diacritics, and the accusative plural the messages write."""

from __future__ import annotations

from learning import language
from learning.proposers.local import LocalProposer
from learning.proposers.local.other_languages import find_foreign_themes
from tests.learning.corpora import corpus_of, foreign_asks, foreign_theme_sentences, settings


def test_the_imperatives_people_ask_with_are_worded_in_the_third_person():
    assert language.work_verb("napisz", "pl") == "pisać"
    assert language.work_verb("wyslij", "pl") == "wysyłać"  # "wyślij" typed without diacritics
    assert language.work_verb("zrob", "pl") == "robić"
    assert language.work_verb("napisi", "hr") == "pisati"
    assert language.work_verb("posalji", "hr") == "slati"
    assert language.work_verb("napisat", "hr") == "pisati"  # the spoken infinitive
    assert language.work_verb("udelej", "cs") == "dělat"
    assert language.work_verb("připrav", "cs") == "připravovat"
    assert language.third_person_in("pisać", "pl") == "pisze"
    assert language.third_person_in("przygotowywać", "pl") == "przygotowuje"
    assert language.third_person_in("pripremati", "hr") == "priprema"
    assert language.third_person_in("psát", "cs") == "píše"


def test_a_request_without_an_article_names_its_noun_after_the_asking_word():
    assert foreign_asks("potrzebuję fakturę dla hurtowni", "pl") == [
        ("", "fakturę", "dla hurtowni")
    ]
    assert foreign_asks("triba mi ponuda za vrt", "hr") == [("", "ponuda", "za vrt")]
    assert foreign_asks("Potřebuju cenovou nabídku pro školku.", "cs") == [
        ("", "nabídku", "pro školku")
    ]
    assert foreign_asks("napisz mi ofertę dla hotelu", "pl") == [("pisać", "ofertę", "dla hotelu")]
    # after a wanting word an infinitive is the work wanted, never a noun
    assert foreign_asks("goście chcą malowac donice", "pl") == []


def test_a_title_and_a_name_after_a_label_say_whom_it_is_for():
    assert foreign_asks("racun gdji Horvat, 200 e, rok 8 dana", "hr", frozenset({"horvat"})) == [
        ("", "racun", "")
    ]


def test_nouns_typed_with_and_without_diacritics_and_in_other_cases_make_one_theme():
    texts = [
        "napisz ofertę dla kwiaciarni na wesele",
        "przygotuj oferte na bukiety do hotelu",
        "oferta dla szkoły, 30 stroików",
    ]
    assert foreign_theme_sentences(texts, "pl") == ["Pisze oferty."]


def test_croatian_requests_typed_on_a_phone_make_a_sentence():
    texts = [
        "bok, triba mi ponuda za ogradu, 20 metara",
        "napravi mu ponudu za terasu",
        "ponuda za vrt, 40 m2 travnjaka",
    ]
    # "napravi" is the frame's verb of making: the work is prepared
    assert foreign_theme_sentences(texts, "hr") == ["Priprema ponude."]


def test_the_plural_is_one_the_messages_write_unless_a_feminine_ending_settles_it():
    # a feminine noun in "-a" has the plural its spelling settles
    assert language.plural_noun("faktura", "pl") == "faktury"
    assert language.plural_noun("ulotka", "pl") == "ulotki"
    assert language.plural_noun("ponuda", "hr") == "ponude"
    assert language.plural_noun("nabídka", "cs") == "nabídky"
    # any other is taken from the words written, never guessed
    assert language.plural_noun("opis", "pl") == ""
    assert language.plural_noun("opis", "pl", seen={"opisy"}) == "opisy"
    assert language.plural_noun("nabídku", "cs", seen={"nabidky"}) == "nabídky"
    # the Croatian object is the accusative ("račune"), not the nominative "računi"
    assert language.plural_noun("račun", "hr", seen={"racuni"}) == ""
    assert language.plural_noun("račun", "hr", seen={"racune"}) == "račune"
    # the accusative singular typed without its "ę" is no plural
    assert language.plural_noun("ofertę", "pl", seen={"oferte"}) == ""


def test_a_czech_sentence_made_of_three_requests():
    texts = [
        "Napiš prosím nabídku na opravu staré knihy.",
        "Potřebuju nabídku na vazbu diplomové práce, do každé nabídky dej lhůtu.",
        "Můžeš mi napsat nabídku na restaurování bible?",
    ]
    assert foreign_theme_sentences(texts, "cs") == ["Píše nabídky."]


def test_croatian_typed_as_bosnian_or_serbian_in_latin_letters_is_read_as_croatian():
    text = "Molim te da mi napišeš ponudu za kupatilo, treba mi do sutra, hvala unapred."
    assert language._identifier().classify(text)[0] == "sr"
    assert language.detect(text) == "hr"
    # Serbian in Cyrillic letters is another script: never read with the Croatian frame
    cyrillic = "Помаже Ивани око понуда и рачуна за њену радњу у Београду, одговара купцима."
    assert language.detect(cyrillic) == language.UNREAD
    # a short Czech sentence the identifier tells Slovak is no other language
    assert language.written_alike("cs", "sk")


def test_a_polish_croatian_or_czech_persona_is_read_not_declined():
    polish = {
        "role": "Pomaga Annie z ofertami, fakturami i postami na Instagram",
        "goals": "Oszczędzić Annie czas na pisaniu, żeby mogła więcej szyć.",
        "background": "Anna Nowak sama prowadzi pracownię krawiecką w Gdańsku.",
    }
    corpus = corpus_of(
        [
            (1, "napisz ofertę dla kwiaciarni na wesele", False),
            (1, "przygotuj oferte na bukiety do hotelu", False),
            (1, "oferta dla szkoły, 30 stroików na stoły", False),
        ]
    )
    result = LocalProposer().propose_sentence(corpus, polish, settings())
    assert not result.declined
    assert result.data["sentence"] == "Pisze oferty."


def test_a_short_request_ending_its_message_is_quoted_with_the_clause_before_it():
    from learning.proposers.local.hygiene import proper_words
    from learning.proposers.local.other_languages import foreign_evidence

    corpus = corpus_of(
        [
            (1, "Svatební kniha hostů, lněné plátno, cena 4 500 Kč. Napiš nabídku.", False),
            (1, "Napiš mi nabídku na vazbu kroniky pro obec, prosím.", False),
            (1, "Potřebuju nabídku na opravu starého atlasu, do každé nabídky dej lhůtu.", False),
        ]
    )
    banned = proper_words(corpus.messages, english=False, code="cs")
    assert "kč" not in banned  # the koruna written short is a price, no one's name
    [theme] = find_foreign_themes(
        corpus.messages, "cs", banned, min_conversations=3, min_users=None
    )
    quotes = [e["quote"] for e in foreign_evidence(theme, banned, "cs")[0]]
    assert "cena 4 500 Kč. Napiš nabídku" in quotes
