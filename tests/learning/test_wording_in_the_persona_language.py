"""The wording checks read the persona's language: English checks for English, and for
another language only what can be judged without reading it."""

from __future__ import annotations

import pytest

from learning import language
from learning.policy import rule_refusal, sentence_refusal

FRENCH = {
    "name": "Camille",
    "role": "Assistante de la boulangerie",
    "goals": "Répond aux questions des clients sur les commandes et les horaires.",
    "background": "La boulangerie est ouverte du mardi au dimanche.",
    "guardrails": ["Ne jamais donner le numéro de téléphone d'un client."],
    "standing_rules": [],
}
GERMAN = {
    "name": "Lena",
    "role": "Assistentin für die Praxis",
    "goals": "Beantwortet die Fragen der Patienten zu den Terminen und schreibt Erinnerungen.",
    "background": "",
    "guardrails": ["Keine Diagnosen und keine Auskunft über andere Patienten."],
    "standing_rules": [],
}
ITALIAN = {
    "name": "Giulia",
    "role": "Assistente per il negozio della famiglia",
    "goals": "Risponde alle domande dei clienti e scrive le risposte per il negozio.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}
PORTUGUESE = {
    "name": "Rita",
    "role": "Assistente da loja da família",
    "goals": "Responde às perguntas dos clientes e escreve as mensagens aos fornecedores da loja.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}
DUTCH = {
    "name": "Anouk",
    "role": "Assistent van de winkel van de familie",
    "goals": "Beantwoordt de vragen van de klanten en schrijft de berichten aan de leveranciers.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}
POLISH = {
    "name": "Ola",
    "role": "Pomaga Markowi w potwierdzeniach wizyt, wycenach, fakturach i postach",
    "goals": "Oszczędzać Markowi czas na pisaniu, żeby mógł więcej stroić fortepiany.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}
HUNGARIAN = {
    "name": "Kata",
    "role": "Segít Katának az árajánlatokkal, számlákkal és az Instagram-posztokkal",
    "goals": "Időt spórolni Katának a papírmunkán, hogy többet lehessen a műhelyben.",
    "background": "Nagy Kata egyedül viszi kis kerámiaműhelyét Pécsen.",
    "guardrails": [],
    "standing_rules": [],
}
ENGLISH = {
    "name": "Zed",
    "role": "Studio assistant",
    "goals": "Answers glaze questions for a pottery studio.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}


def refuse(sentence, persona, names=()):
    return sentence_refusal(
        sentence=sentence, field="goals", persona=persona, known_names=set(names)
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Rédige les réponses aux avis des clients.", "fr"),
        ("Schreibt Angebote für Gruppenreisen und die Antworten an Gäste.", "de"),
        ("Redacta las respuestas a las reseñas de los clientes.", "es"),
        ("Drafts replies to refund requests for the team.", "en"),
        # two French dishes do not make an English sentence French: at most unsure
        ("Writes the café menus and the crème brûlée recipes for the shop.", ""),
        # Italian beside Portuguese, which shares "a", "e", "la", "una": the contracted
        # prepositions ("ai", "sul", "dalla") and "ò" / "ì" are Italian's own
        (
            "Aiuta Marco a rispondere ai clienti del negozio: scrive le offerte e gli "
            "avvisi sul sito. Non dare mai sconti senza chiedere.",
            "it",
        ),
        ("Cosa può fare? Risponde ai fornitori e prepara le offerte dalla bottega.", "it"),
        (
            "Ajuda o Marco a responder aos clientes da loja: escreve as ofertas e as "
            "mensagens aos fornecedores. Nunca dê descontos sem perguntar.",
            "pt",
        ),
        ("Schreibt Angebote.", "de"),
        ("Angebote.", ""),  # too few words to tell
        ("SELECT id FROM bookings WHERE day = '2026-11-02';", ""),  # no language
        ("", ""),
    ],
)
def test_the_language_of_a_text_is_told(text, expected):
    assert language.detect(text) == expected


def test_a_persona_says_which_language_it_is_written_in():
    assert language.persona_language(FRENCH) == "fr"
    assert language.persona_language(GERMAN) == "de"
    assert language.persona_language(ITALIAN) == "it"
    assert language.persona_language(PORTUGUESE) == "pt"
    assert language.persona_language(ENGLISH) == "en"
    assert language.persona_language({"role": "Studio"}) == ""  # too little to tell
    assert language.persona_language({}) == ""


def test_a_french_assistant_gets_a_french_sentence_not_refused():
    # not verb-first in the English sense ("…s"), and "Prépare" is no English word
    assert refuse("Prépare les commandes de gâteaux pour les mariages.", FRENCH) is None
    assert refuse("Rédige les réponses aux avis des clients.", FRENCH) is None


def test_a_german_assistant_gets_its_capitalised_nouns_through():
    sentence = "Schreibt Erinnerungen an die Termine für die Patienten."
    assert refuse(sentence, GERMAN) is None
    rule = "Nenne immer das Datum und die Uhrzeit des Termins."
    assert rule_refusal(rule=rule, persona=GERMAN, known_names=set()) is None


def test_a_sentence_in_another_language_than_the_persona_is_refused():
    reason = refuse("Drafts the replies to the reviews for the customers.", FRENCH)
    assert reason and "written in English" in reason and "propose it in French" in reason
    reason = refuse(
        "Rédige les réponses aux avis des clients.",
        {
            **ENGLISH,
            "goals": (
                "Answers the glaze questions of the customers and writes the firing notes for the studio."
            ),
        },
    )
    assert reason and "written in French" in reason


def test_a_non_english_sentence_is_still_refused_for_what_can_be_judged():
    # a name known to memory, in any language
    reason = refuse("Rédige les réponses aux avis de Priya Shah.", FRENCH, names={"Priya Shah"})
    assert reason and "Priya Shah" in reason
    # a capital inside a French sentence is a name (French writes nouns small)
    reason = refuse("Rédige les réponses aux avis de Dupont et des clients.", FRENCH)
    assert reason and "Dupont" in reason
    # a secret
    reason = refuse(
        "Rédige les réponses avec la clé sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c.", FRENCH
    )
    assert reason
    # contact details
    reason = refuse("Rédige les réponses pour marie.dupont@example.fr et les clients.", FRENCH)
    assert reason and "contact" in reason
    # more than one sentence, and what the persona says already
    assert refuse("Rédige les réponses. Prépare les commandes de la semaine.", FRENCH)
    assert "already" in (refuse(FRENCH["goals"], FRENCH) or "")


def test_english_checks_still_apply_to_an_english_persona():
    assert "verb-first" in (refuse("The glaze orders for the week.", ENGLISH) or "")
    assert "written in French" in (refuse("Prépare les commandes.", ENGLISH) or "")
    assert "third person" in (refuse("Writes the notes we send to customers.", ENGLISH) or "")
    # a persona that says too little to tell is read as written in the sentence's language
    assert refuse("Prépare les commandes de gâteaux pour les mariages.", {"goals": ""}) is None


def test_the_model_is_asked_for_a_sentence_in_the_persona_language(monkeypatch):
    from learning.proposers.base import ProposerResult
    from learning.proposers.openai import OpenAIProposer
    from tests.learning.corpora import corpus_of, settings

    asked: list[str] = []

    def chat(self, system, user):
        asked.append(system)
        return ProposerResult(data={"field": None, "sentence": "", "evidence": []})

    monkeypatch.setattr(OpenAIProposer, "_chat", chat)
    proposer = OpenAIProposer(base_url="", model="", api_key="", timeout=0.0)
    corpus = corpus_of([(1, "Peux-tu rédiger la réponse à cet avis ?", False)])
    proposer.propose_sentence(corpus, FRENCH, settings())
    proposer.propose_sentence(corpus, ENGLISH, settings())
    assert "Write it in French" in asked[0]
    assert "Write it in English" in asked[1]


def test_the_local_proposer_proposes_no_english_to_a_french_assistant(bag_of_words):
    from learning.proposers.local import LocalProposer
    from tests.learning.corpora import corpus_of, settings

    corpus = corpus_of(
        [(1, "Can you draft the newsletter for volunteers? March edition.", False)] * 3
    )
    # it reads French requests for a French assistant (``other_languages``): English ones
    # give it nothing to word
    result = LocalProposer().propose_sentence(corpus, FRENCH, settings())
    assert result.data["sentence"] == ""
    # German, Italian and Portuguese goals are worded in their language
    # (``other_languages``); a language without a frame is declined
    assert not LocalProposer().propose_sentence(corpus, GERMAN, settings()).declined
    assert not LocalProposer().propose_sentence(corpus, ITALIAN, settings()).declined
    assert not LocalProposer().propose_sentence(corpus, PORTUGUESE, settings()).declined
    assert not LocalProposer().propose_sentence(corpus, DUTCH, settings()).declined
    assert not LocalProposer().propose_sentence(corpus, POLISH, settings()).declined
    declined = LocalProposer().propose_sentence(corpus, HUNGARIAN, settings()).declined
    assert "Polish" in declined and "Dutch" in declined
    # standing rules are worded in French for a French assistant (``foreign_rules``):
    # no English correction becomes one
    rule = LocalProposer().propose_rule(corpus, FRENCH, settings())
    assert rule.data["rule"] is None and not rule.declined
    # and in German and Italian too (``language.RULE_FRAMES``); a language without a
    # rule frame is declined
    assert not LocalProposer().propose_rule(corpus, GERMAN, settings()).declined
    assert not LocalProposer().propose_rule(corpus, PORTUGUESE, settings()).declined
    declined = LocalProposer().propose_rule(corpus, DUTCH, settings()).declined
    assert "Dutch" in declined and "German" in declined
    # an English persona, or one that says too little to tell, is read as before
    assert LocalProposer().propose_sentence(corpus, ENGLISH, settings()).declined == ""
    assert LocalProposer().propose_sentence(corpus, {"goals": ""}, settings()).declined == ""


@pytest.mark.django_db
def test_a_review_of_an_assistant_in_a_language_without_a_frame_says_why_nothing_came(agent):
    from learning.models import Proposal, Review
    from learning.services import review_run
    from persona.models import SourceType
    from persona.services import ChangeTrigger, persona_version_create
    from tests.learning.helpers import learning_on, seed_work

    persona_version_create(
        agent=agent,
        changes={k: HUNGARIAN[k] for k in ("role", "goals", "background")},
        trigger=ChangeTrigger(source_type=SourceType.UI_FORM, reason="setup", approved_by="o"),
    )
    learning_on(agent)
    seed_work(agent, n=4)
    review = review_run(agent=agent, trigger=Review.Trigger.MANUAL)
    assert not Proposal.objects.filter(agent=agent).exists()
    assert "written in a language other than English" in review.reason
