"""Portuguese is a language of the local proposer like French, Spanish and Italian, in
European and Brazilian spelling alike: its requests ("podes escrever …", "você pode me
fazer …", "preciso de …", "queria …", imperatives, labels) are grouped and worded in
Portuguese, plurals and articles follow the spelling where it settles them and are taken
from the messages where it does not ("-ão"), a name after a title stays out of a quote,
and a recurring instruction is a standing rule kept as written, its negation with it."""

from __future__ import annotations

import pytest

from learning import language, policy
from learning.proposers.local import LocalProposer
from learning.proposers.local.foreign_rules import foreign_rule
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, correction_hits, sentence_check, settings

PASTRY_SHOP = {
    "role": "Ajuda a Fernanda a escrever para os clientes da pastelaria",
    "goals": "Poupar tempo à Fernanda com as respostas e as encomendas.",
    "background": "Uma pastelaria de bairro em Braga que faz bolos por encomenda.",
    "guardrails": ["Nunca partilhar os telefones dos clientes."],
    "standing_rules": [],
}
# Brazilian: "você", "pra", "me faz"
BAKERY = {
    "role": "Assistente da padaria do Seu Jorge em Campinas",
    "goals": "Ajuda a responder os clientes e a preparar as encomendas pra festas.",
    "background": "Uma padaria de bairro que também faz bolos e salgados pra eventos.",
    "guardrails": [],
    "standing_rules": [],
}
POSTS = [
    (1, "Podes escrever uma publicação para o Instagram sobre os pastéis de nata?", False),
    (1, "Escreve-me uma publicação para o Instagram: o bolo de aniversário da semana.", False),
    (1, "Publicação para o Instagram com as novidades da montra.", False),
    (1, "As publicações de ontem tiveram muitos gostos, obrigada.", False),
    (1, "obrigada, perfeito", True),
]


@pytest.mark.parametrize(
    ("text", "verb", "noun"),
    [
        ("Podes escrever uma legenda para a foto do bolo?", "escrever", "legenda"),
        ("Você pode me fazer um orçamento para o casamento?", "fazer", "orçamento"),
        ("Consegues preparar a lista de encomendas?", "preparar", "lista"),
        ("Preciso de um orçamento para um batizado.", "", "orçamento"),
        ("Queria uma legenda para a montra nova.", "", "legenda"),
        ("Faz um orçamento para o jantar de empresa.", "fazer", "orçamento"),
        ("Faça uma resposta curta ao comentário.", "responder", "comentário"),
        ("Me faz uma legenda pra foto dos salgados?", "fazer", "legenda"),
        ("Escreva uma resposta à avaliação do Google.", "responder", "avaliação"),
        ("Responde a esta avaliação de ontem.", "responder", "avaliação"),
        ("Orçamento para o almoço de sábado.", "", "orçamento"),
    ],
)
def test_a_portuguese_request_gives_its_verb_and_noun(text, verb, noun):
    [ask] = asks_of(corpus_of([(1, text, False)]).messages[0], "pt", set())
    assert (ask.verb, ask.noun) == (verb, noun)


def test_a_portuguese_persona_is_told_in_either_spelling():
    assert language.persona_language(PASTRY_SHOP) == "pt"
    assert language.persona_language(BAKERY) == "pt"


def test_a_recurring_portuguese_request_becomes_a_portuguese_sentence_with_portuguese_quotes():
    corpus = corpus_of(POSTS)
    result = LocalProposer().propose_sentence(corpus, PASTRY_SHOP, settings())
    assert result.declined == ""
    # "-ão" takes its plural from the messages ("As publicações de ontem …")
    assert result.data["sentence"] == "Escreve as publicações do Instagram."
    assert sentence_check(corpus, result.data).ok
    quotes = [e["quote"] for e in result.data["evidence"]]
    assert len(quotes) == 3 and all("ublicação" in q for q in quotes), quotes
    assert (
        policy.sentence_refusal(
            sentence=result.data["sentence"], field="goals", persona=PASTRY_SHOP, known_names=set()
        )
        is None
    )


def test_a_brazilian_request_is_worded_in_the_third_person_with_its_purpose():
    rows = [
        (1, "Você pode me fazer um orçamento pra festa de aniversário?", False),
        (1, "Me faz um orçamento pra festa de aniversário da escola.", False),
        (1, "Preciso de um orçamento pra festa de aniversário de 15 anos.", False),
    ]
    corpus = corpus_of(rows)
    themes = find_foreign_themes(corpus.messages, "pt", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "pt") for t in themes] == [
        "Prepara os orçamentos pra festa de aniversário."
    ]


def test_a_plural_the_spelling_does_not_settle_is_not_guessed():
    # "-ão": "cartões", "pães" or "mãos"; no message writes the plural of "cartão"
    rows = [
        (1, "Podes escrever um cartão para o aniversário da Marta?", False),
        (1, "Escreve-me um cartão para o batizado de domingo.", False),
        (1, "Cartão para a festa de sexta.", False),
    ]
    themes = find_foreign_themes(
        corpus_of(rows).messages, "pt", set(), min_conversations=3, min_users=None
    )
    assert themes == []
    # nor the article of a noun whose gender neither an article nor the ending tells
    # ("-ma": "o programa", "a forma")
    days = ("sábado", "domingo", "sexta")
    rows = [(1, f"Programa para a festa de {day}.", False) for day in days]
    corpus = corpus_of(rows)
    assert (
        find_foreign_themes(corpus.messages, "pt", set(), min_conversations=3, min_users=None) == []
    )
    # the article written settles it
    rows = [(1, f"Faz-me o programa para a festa de {day}.", False) for day in days]
    corpus = corpus_of(rows)
    [theme] = find_foreign_themes(corpus.messages, "pt", set(), min_conversations=3, min_users=None)
    assert foreign_sentence(theme, "pt") == "Prepara os programas."


@pytest.mark.parametrize(
    ("noun", "seen", "plural"),
    [
        ("orçamento", "", "orçamentos"),
        ("legenda", "", "legendas"),
        ("maçã", "", "maçãs"),
        ("mensagem", "", "mensagens"),
        ("flor", "", "flores"),
        ("cartaz", "", "cartazes"),
        ("jornal", "", "jornais"),
        ("lençol", "", "lençóis"),
        ("papel", "", "papéis"),
        ("nível", "", "níveis"),
        ("funil", "", "funis"),
        ("lápis", "", "lápis"),
        ("publicações", "", "publicações"),  # written in the plural already
        ("publicação", "", "publicações"),  # "-ção" always takes "-ções"
        ("avaliação", "", "avaliações"),
        # not settled by spelling: "-ão", and a borrowed word; the messages' plural is taken
        ("cartão", "", ""),
        ("cartão", "cartões", "cartões"),
        ("pão", "pães", "pães"),
        ("mão", "mãos", "mãos"),
        ("post", "", ""),
        ("post", "posts", "posts"),
        ("e-mail", "", ""),
    ],
)
def test_portuguese_plurals(noun, seen, plural):
    assert language.plural_noun(noun, "pt", seen=set(seen.split())) == plural


def test_the_portuguese_plural_article_follows_the_article_written_or_the_ending():
    assert language.plural_article("legenda", "pt") == "as"
    assert language.plural_article("orçamento", "pt") == "os"
    assert language.plural_article("publicação", "pt") == "as"
    assert language.plural_article("mensagem", "pt", after_to=True) == "às"
    assert language.plural_article("post", "pt", article_seen="um") == "os"
    assert language.plural_article("e-mail", "pt", article_seen="o", after_to=True) == "aos"
    assert language.plural_article("programa", "pt") == ""  # "-ma": "o programa", "a forma"
    assert language.third_person_in("escrever", "pt") == "escreve"
    assert language.third_person_in("fazer", "pt") == "faz"
    assert language.third_person_in("responder", "pt") == "responde"


def test_a_name_after_a_title_stays_out_of_the_theme_and_the_quotes():
    rows = [
        (1, "Faz um orçamento para a Sra. Costa, casamento em maio.", False),
        (1, "Preciso de um orçamento para o Dr. Almeida, jantar de empresa.", False),
        (1, "Podes preparar um orçamento para a Dona Fernanda?", False),
    ]
    corpus = corpus_of(rows)
    names = proper_words(corpus.messages, english=False, code="pt")
    assert {"costa", "almeida", "fernanda"} <= names
    result = LocalProposer().propose_sentence(corpus, PASTRY_SHOP, settings())
    # "fazer" and "preparar" once each: the verb that names the work wins
    assert result.data["sentence"] == "Prepara os orçamentos."
    quotes = " ".join(e["quote"] for e in result.data["evidence"])
    assert not {"Costa", "Almeida", "Fernanda"} & set(quotes.replace(",", " ").split())
    assert sentence_check(corpus, result.data).ok


def _is_instruction(text: str) -> bool:
    return language.instruction_in(text.split(), "pt")


def test_a_portuguese_instruction_is_kept_as_written_and_a_bare_reminder_is_not():
    assert _is_instruction("Põe sempre o IVA nos preços")
    assert _is_instruction("Usa o tratamento por você")
    assert _is_instruction("Escreva sem emojis")
    assert not _is_instruction("sem emojis")
    assert not _is_instruction("o IVA incluído")


def test_a_portuguese_negation_is_kept_in_the_rule():
    hits = correction_hits(
        "Nunca uses emojis nas publicações, fica pouco sério.",
        "não uses emojis, por favor",
    )
    assert foreign_rule(hits, "pt") == "Não uses emojis."
    hits = correction_hits(
        "Escreve sem pontos de exclamação, por favor.",
        "Outra vez: escreve sem pontos de exclamação.",
    )
    assert foreign_rule(hits, "pt") == "Escreve sem pontos de exclamação."


def test_a_recurring_portuguese_correction_becomes_a_portuguese_rule():
    rows = [
        (1, "Põe sempre o preço com IVA incluído, os clientes perguntam.", True),
        (1, "Outra vez sem IVA. Põe sempre o preço com IVA incluído.", True),
        (1, "obrigada, está ótimo", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), PASTRY_SHOP, settings())
    assert not result.declined
    assert result.data["rule"] == "Põe sempre o preço com IVA incluído."
    assert len(result.data["evidence"]) >= 2
    assert (
        policy.rule_refusal(rule=result.data["rule"], persona=PASTRY_SHOP, known_names=set())
        is None
    )
