"""A known name's function words ("Los" of "Restaurante Los Almendros", "de" of "Casa de
Campo") are words of the language, not the name: a sentence or rule that only uses them
is not refused as naming the company; one that names the company still is."""

from __future__ import annotations

from learning import policy

AIRCON = {
    "role": "Ayuda a Luis con cotizaciones, recibos y mensajes a clientes",
    "goals": "Quitarle a Luis el papeleo para que pueda estar instalando minisplits.",
    "background": "Luis instala y repara minisplits en casas y negocios de Mérida, Yucatán.",
    "guardrails": ["Nunca compartas los teléfonos de los clientes."],
    "standing_rules": [],
}
KNOWN = {"Restaurante Los Almendros", "Casa de Campo"}


def test_a_sentence_using_an_article_of_a_known_name_is_not_refused_for_it():
    why = policy.sentence_refusal(
        sentence="Prepara los mensajes de WhatsApp.",
        field="goals",
        persona=AIRCON,
        known_names=KNOWN,
    )
    assert why is None or "known to memory" not in why


def test_a_sentence_naming_the_company_is_still_refused():
    why = policy.sentence_refusal(
        sentence="Prepara los mensajes para Almendros.",
        field="goals",
        persona=AIRCON,
        known_names=KNOWN,
    )
    assert why is not None and "known to memory" in why


def test_a_rule_using_a_preposition_of_a_known_name_is_not_refused_for_it():
    why = policy.rule_refusal(
        rule="Escribe los precios de los equipos con IVA incluido.",
        persona=AIRCON,
        known_names=KNOWN,
    )
    assert why is None or "known to memory" not in why
