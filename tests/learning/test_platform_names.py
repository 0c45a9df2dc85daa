"""A platform's name ("Instagram", "Facebook") names no one: a quote may hold it and a
sentence may say it, as it may a day or a language; a person's name still may not."""

from __future__ import annotations

from learning import language, policy
from learning.proposers.local.hygiene import proper_words, quote_for
from learning.proposers.local.other_languages import find_foreign_themes, foreign_evidence
from tests.learning.corpora import corpus_of


def _themes(texts: list[str], code: str = "fr", min_conversations: int = 3):
    """The themes the local proposer finds in one person's opening messages ``texts`` (one
    conversation each), and the names it keeps out of quotes."""
    corpus = corpus_of([(1, text, False) for text in texts])
    banned = proper_words(corpus.messages, english=False, code=code)
    themes = find_foreign_themes(
        corpus.messages, code, banned, min_conversations=min_conversations, min_users=None
    )
    return themes, banned


def test_a_quote_holds_a_platforms_name_but_not_a_persons():
    corpus = corpus_of([(1, "Écris une légende Instagram pour la photo des tasses du four", False)])
    message = corpus.messages[0]
    banned = proper_words(corpus.messages, english=False, code="fr")
    quote = quote_for(
        message, 0, 52, banned, keep=frozenset(["légende"]), frame=language.FRAMES["fr"]
    )
    assert quote is not None and quote.startswith("Écris une légende Instagram")
    corpus = corpus_of([(1, "Écris une légende pour Camille et la photo des tasses", False)])
    assert "camille" in proper_words(corpus.messages, english=False, code="fr")


def test_requests_naming_the_platform_after_the_noun_keep_their_quotes():
    (theme,), banned = _themes(
        [
            "Écris une légende Instagram pour la photo des tasses",
            "Une légende Instagram pour la vidéo du tournage",
            "Légende Instagram pour les photos du marché",
        ]
    )
    evidence, _ = foreign_evidence(theme, banned, "fr")
    assert all("égende" in e["quote"] for e in evidence) and len(evidence) == 3


def test_a_sentence_may_name_a_platform():
    persona = {"name": "Shop helper", "role": "assistant"}
    assert not policy.sentence_refusal(
        sentence="Writes Instagram captions.", field="goals", persona=persona, known_names=set()
    )
    assert policy.sentence_refusal(
        sentence="Writes Priya replies.", field="goals", persona=persona, known_names=set()
    )


def test_a_platform_most_quotes_write_before_the_noun_names_the_kind():
    from learning.proposers.local.wording import qualified_by_quotes

    quotes = ["Write the Instagram caption for the reset", "Instagram caption for the set", "x"]
    assert qualified_by_quotes("Writes the captions.", quotes, set()) == (
        "Writes Instagram captions."
    )
    quotes = ["Write the Priya caption for the reset", "Priya caption for the set", "x"]
    assert qualified_by_quotes("Writes the captions.", quotes, set()) == "Writes the captions."


def test_a_platform_after_a_french_noun_names_the_kind():
    from learning.proposers.local.other_languages import foreign_sentence

    (theme,), _ = _themes(
        [
            "Écris une légende Instagram pour la photo des tasses",
            "Une légende Instagram pour la vidéo du tournage",
            "Légende Instagram pour les photos du marché",
        ]
    )
    assert foreign_sentence(theme, "fr") == "Écrit les légendes Instagram."


def test_requests_for_one_platform_in_different_nouns_are_one_theme():
    from learning.proposers.local.other_languages import foreign_sentence

    themes, banned = _themes(
        [
            "Une publication Instagram pour annoncer les soldes du printemps",
            "Post Instagram : la boutique ferme une semaine en août.",
            "Publication pour Instagram : les nouveaux bols sont arrivés.",
        ]
    )
    assert [foreign_sentence(t, "fr") for t in themes] == ["Prépare les publications Instagram."]
    evidence, _ = foreign_evidence(themes[0], banned, "fr")
    assert len(evidence) == 3


def test_a_platform_is_no_kind_of_work_for_a_single_noun_in_other_conversations():
    themes, _ = _themes(
        [
            "Devis pour une table en chêne",
            "Devis pour un buffet à restaurer",
            "Publication pour Instagram : les nouveaux bols sont arrivés.",
        ],
        min_conversations=2,
    )
    assert [t.noun for t in themes] == ["devis"]


def test_a_platform_after_a_german_preposition_is_no_name():
    corpus = corpus_of(
        [
            (1, "Ich brauche einen Text für Instagram zu den neuen Ohrringen.", False),
            (1, "Schreib bitte Herrn Krüger, dass die Uhr fertig ist.", False),
        ]
    )
    banned = proper_words(corpus.messages, english=False, code="de")
    assert "instagram" not in banned and "krüger" in banned


def test_a_platform_is_written_as_the_language_joins_it_to_a_noun():
    from learning.proposers.local.other_languages import foreign_sentence

    themes, _ = _themes(
        [
            "Una publicación para Instagram sobre los ramos de otoño",
            "Post de Instagram: cerramos el lunes por fiesta.",
            "Publicación Instagram con las coronas nuevas",
        ],
        "es",
    )
    assert [foreign_sentence(t, "es") for t in themes] == [
        "Prepara las publicaciones de Instagram."
    ]


def test_a_two_letter_short_form_before_a_noun_is_read_as_its_platform():
    from learning.proposers.local.other_languages import asks_of

    corpus = corpus_of(
        [
            (1, "fb innlegg: vi tar imot båter til vinterlagring nå", False),
            (1, "insta innlegg: ny kjøl på plass", False),
        ]
    )
    fb, insta = ([(a.noun, a.platform) for a in asks_of(m, "no", set())] for m in corpus.messages)
    assert fb == [("innlegg", "fb")]
    assert insta[0] == ("innlegg", "insta")


def test_a_short_form_typed_small_after_a_labels_noun_is_its_platform():
    from learning.proposers.local.other_languages import asks_of, foreign_sentence

    corpus = corpus_of(
        [
            (1, "publication fb pour le groupe du quartier: il me reste des places", False),
            (1, "post insta: je serai au marché samedi avec les tasses", False),
            (1, "posteo ig para la feria del sábado", False),
        ]
    )
    fr, post, es = (
        [(a.noun, a.platform) for a in asks_of(m, code, set())]
        for m, code in zip(corpus.messages, ["fr", "fr", "es"], strict=True)
    )
    assert fr == [("publication", "fb")]
    assert post == [("post", "insta")]
    assert es == [("posteo", "ig")]
    themes, _banned = _themes(
        [
            "publication fb pour le groupe du quartier: il me reste des places",
            "fais moi une publication facebook pour dire qu'il me reste 3 places",
            "publication facebook pour remercier tout le monde après la tempête",
        ]
    )
    assert [foreign_sentence(t, "fr") for t in themes] == ["Prépare les publications Facebook."]
