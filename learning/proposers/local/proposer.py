"""``LocalProposer``: a review's goals sentence and standing rule, with what was left out and why."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from learning import language
from learning.candidates import (
    AVOIDED,
    IN_PERSONA,
    MAX_RECORDED,
    REFUSED,
    TOO_FEW_CONVERSATIONS,
    TOO_FEW_PEOPLE,
    candidate,
)
from learning.proposers.base import ProposerResult
from learning.proposers.local.corrections import (
    _subject_values_refusal,
    _values_refusal,
    corrections_of,
    preferred_rule,
    preferred_words,
    recurring_instructions,
    rule_evidence,
)
from learning.proposers.local.foreign_rules import accented_as_written, foreign_rule
from learning.proposers.local.hygiene import (
    _name_words,
    proper_words,
    theme_evidence,
    verified_evidence,
    work_of_clause,
)
from learning.proposers.local.other_languages import (
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from learning.proposers.local.requests import (
    compounds_as_nouns,
    requests_asking_work,
    requests_of,
)
from learning.proposers.local.rules import (
    _CONTRAST_TAIL,
    _rule_near_misses,
    _rule_seen,
    as_prohibition,
    rule_for,
    same_matter,
)
from learning.proposers.local.themes import (
    find_themes,
    objects_named_before,
    parts_as_wholes,
    theme_families,
)
from learning.proposers.local.tokens import Tok, _is_noun_word, tokens
from learning.proposers.local.wording import (
    problem_named_by_quotes,
    qualified_by_quotes,
    sentence_for,
    topic_unquoted,
    without_topic,
)
from learning.proposers.local.words import (
    DETERMINERS,
    INSTRUMENT_PREPOSITIONS,
    MAX_CANDIDATES,
    MAX_QUOTES,
    PREPOSITIONS,
)
from safety.text import (
    content_words,
)

if TYPE_CHECKING:
    from learning.models import LearningSettings
    from learning.proposers.local.other_languages import ForeignTheme
    from learning.proposers.local.requests import Request
    from learning.proposers.local.themes import Theme
    from memory.verification import ReadMessage, ReviewCorpus


_STATEMENT_END = re.compile(r"(?<=[.!?;])\s+|\n+")


def persona_statements(persona: dict[str, Any]) -> list[set[str]]:
    """The content words of each sentence of the persona's goals and background. A
    theme the persona already says is said in one of them: "Writes allotment letters."
    is news to a persona that helps "with letters to residents" in one sentence and
    "runs the allotments" in another."""
    return [words for _, words in _statements(persona)]


def _statements(persona: dict[str, Any]) -> list[tuple[str, set[str]]]:
    """Each sentence of the persona's goals and background with its content words."""
    text = "\n".join(str(persona.get(f) or "") for f in ("goals", "background"))
    return [(part, words) for part in _STATEMENT_END.split(text) if (words := content_words(part))]


def _persona_texts(persona: dict[str, Any]) -> list[str]:
    """Every text the persona writes: its name, role, goals, background, guardrails and
    standing rules."""
    out: list[str] = []
    for value in persona.values():
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list | tuple):
            out.extend(str(v) for v in value)
    return out


def _seen(
    theme: Theme | ForeignTheme, text: str, reason: str, *, key: str = "", detail: str = ""
) -> dict[str, Any]:
    return candidate(
        kind="sentence",
        text=text,
        reason=reason,
        conversations=len(theme.requests),
        people=theme.people,
        key=key,
        detail=detail,
    )


#: why a candidate with too few quotes was passed over (the note, the log's detail)
TOO_FEW_CLEAN = "too few conversations with a clean quote"
TOO_FEW_CLEAN_DETAIL = "Too few of its conversations hold a quote that may be shown."


def _foreign_near_misses(
    corpus: ReviewCorpus,
    persona: dict[str, Any],
    settings: LearningSettings,
    lang: str,
    banned: set[str],
) -> list[dict[str, Any]]:
    """The foreign path's themes that recur (in two conversations or more) but in fewer
    conversations, or said by fewer people, than the settings ask, as the English
    ``_near_misses`` finds them: "too few conversations", "too few people"."""
    from learning import policy

    min_users = settings.min_users if settings.across_users else None
    floor = min(2, settings.min_conversations)
    if settings.min_conversations <= floor and min_users is None:
        return []
    names: set[str] = getattr(corpus, "known_names", set())
    out: list[dict[str, Any]] = []
    for theme in find_foreign_themes(
        corpus.messages, lang, banned, min_conversations=floor, min_users=None, persona=persona
    )[:MAX_CANDIDATES]:
        n = len(theme.asks)
        if n >= settings.min_conversations and (min_users is None or theme.people >= min_users):
            continue  # recurs enough: weighed as a theme
        text = foreign_sentence(theme, lang)
        if policy.sentence_refusal(
            sentence=text, field="goals", persona=persona, known_names=names
        ):
            continue  # what the policy refuses is not shown in the log
        reason = TOO_FEW_CONVERSATIONS if n < settings.min_conversations else TOO_FEW_PEOPLE
        out.append(_seen(theme, text, reason, key=policy.content_key(text)))
        if len(out) >= MAX_RECORDED:
            break
    return out


def _note_left_out(result: ProposerResult, left_out: list[str]) -> None:
    """Say in the result's notes the first five candidates left out, and why."""
    if left_out:
        result.notes.append("Candidates left out: " + "; ".join(list(dict.fromkeys(left_out))[:5]))


def _in_persona(theme: Theme, text: str, covered: list[tuple[str, set[str]]]) -> bool:
    """Whether the persona says ``text`` already in other words: the object says what the
    work is, unless the verb names it ("Proofreads translations." is news to a persona
    about translation jobs). The thing made must be written there as a thing: a
    background saying the service is "tested with xUnit" tells how it is built, not
    that the assistant writes xUnit tests (stems alone make "tested" and "tests" one)."""
    said = text if theme.kind == "verbnoun" else text.split(" ", 1)[1]
    made = theme.qualifier if theme.kind == "key" else theme.head  # the thing made
    return any(
        content_words(said) <= words and _names_as_noun(statement, made)
        for statement, words in covered
    )


def _names_as_noun(statement: str, head: str) -> bool:
    """Whether ``statement`` writes ``head`` (a noun's lemma; "" for work a verb names)
    as a noun: "tests" or "test", not only "tested"; and writes it once at least as a
    thing worked on, not only among the tools something is built or run with
    (``_among_tools``: "with utPLSQL tests run in Jenkins" tells how the schemas are kept,
    not that the assistant writes the tests)."""
    if not head or " " in head:
        return True
    toks = tokens(statement)
    return any(
        (
            t.low == head
            or (language.can_be(t.low, "NOUN") and language.lemma(t.low, "NOUN") == head)
        )
        and not _among_tools(statement, toks, k)
        for k, t in enumerate(toks)
    )


def _among_tools(statement: str, toks: list[Tok], k: int) -> bool:
    """Whether the noun at ``toks[k]`` stands in a phrase that names what something is
    built, tested or run with (``INSTRUMENT_PREPOSITIONS``): back from it over the noun
    phrase and the list it is part of ("with testthat, roxygen2, vignettes and a pkgdown
    site", "with netCDF input and output and pFUnit tests") to the word that opens it,
    within its clause. A list after "help" ("Help the clerk with agendas, minutes and
    letters") is the work itself."""
    j = k - 1
    while j >= 0:
        gap = statement[toks[j].end : toks[j + 1].start]
        if any(c in gap for c in ".;:()"):
            return False  # the clause opens with the noun phrase
        word = toks[j].low
        if word in PREPOSITIONS:
            return word in INSTRUMENT_PREPOSITIONS and not any(
                t.low in ("help", "helps", "helping", "helped") for t in toks[:j]
            )
        if not (
            word in ("and", "or")
            or word in DETERMINERS
            or not toks[j].low.replace("-", "").isalpha()  # "roxygen2", "C#"
            or _is_noun_word(toks[j])
        ):
            return False  # a verb: "writes PowerShell scripts and modules"
        j -= 1
    return False


def _open_themes(
    themes: list[Theme],
    vectors: dict[int, Any],
    covered: list[tuple[str, set[str]]],
    avoid: frozenset[str] | set[str],
    banned: set[str],
    result: ProposerResult,
    left_out: list[str],
) -> list[Theme]:
    """The themes that may be proposed, best first: one kind of work (``theme_families``)
    is one theme, so when one of its wordings is in the persona or was turned down, none
    of its other wordings is proposed ("Prepares the escalations." after "Summarises
    threads for engineering." over the same threads). What is left out is recorded as
    the proposer always did (a wording naming a person is never recorded)."""
    from learning import policy

    out: list[Theme] = []
    for family in theme_families(themes, vectors):
        family = _named_first(family)
        closed = ""  # the first wording found in the persona or turned down
        open_wordings: list[tuple[Theme, str]] = []
        for theme in family:
            text = sentence_for(theme)
            if any(t.low in banned for t in tokens(text)):
                continue  # told apart by the caller, never recorded
            if _in_persona(theme, text, covered):
                left_out.append(f"{text!r}: the persona says this already in other words")
                result.candidates.append(_seen(theme, text, IN_PERSONA))
                closed = closed or text
            elif (key := policy.content_key(text)) in avoid:
                left_out.append(f"{text!r} was turned down, undone or is in the persona")
                result.candidates.append(_seen(theme, text, AVOIDED, key=key))
                closed = closed or text
            else:
                open_wordings.append((theme, text))
        if not closed:
            out.extend(family)
            continue
        # the other wordings of the work: one theme is one line of the review log (the
        # wording that closed it); the notes say which wordings it stood for
        left_out.extend(f"{text!r}: the same work as {closed!r}" for _, text in open_wordings)
    return out


def _named_first(family: list[Theme]) -> list[Theme]:
    """The wordings of one kind of work, the one that names it first: the made noun with
    the word people write before it ("Writes booking confirmations.") before the noun
    alone ("Writes the confirmations."), which a reviewer would have to complete; each
    wording recurs on its own (``find_themes``). Otherwise in the order given."""
    words = {id(t): sentence_for(t).rstrip(".").split(" ") for t in family}
    bare = {w[-1] for t in family if len(w := words[id(t)]) == 3 and w[1] == "the"}
    named = [
        t for t in family if (w := words[id(t)])[-1] in bare and "the" not in w and len(w) >= 3
    ]
    return named + [t for t in family if t not in named]


def _other_language(persona: dict[str, Any], result: ProposerResult, *, rule: bool) -> str:
    """The language of the persona when it is not English ("" for English or a persona
    that says too little to tell). A goals sentence is worded in French, Spanish, German,
    Italian, Portuguese, Dutch, Swedish, Danish and Norwegian (``other_languages``), a
    standing rule kept as written in French, Spanish, Italian, Portuguese, German, Danish
    and Norwegian (``foreign_rules``); in any
    other language the review says that the proposer declined instead of proposing an
    English sentence to, say, a Polish assistant."""
    from learning import language

    lang = language.persona_language(persona)
    if lang in ("", "en") or lang in (language.RULE_FRAMES if rule else language.FRAMES):
        return "" if lang == "en" else lang
    what = "standing rules" if rule else "goals sentences"
    frames = language.RULE_FRAMES if rule else language.FRAMES
    named = ["English", *(language.LANGUAGE_NAMES[c] for c in frames)]
    words_in = ", ".join(named[:-1]) + " and " + named[-1]
    result.declined = (
        f"The persona is written in {language.LANGUAGE_NAMES[lang]}; the local proposer words "
        f"{what} only in {words_in}, so it proposed none. Use the model proposer, or "
        "add what recurs by hand."
    )
    return lang


class LocalProposer:
    name = "local"

    def _vectors(self, messages: list[ReadMessage], result: ProposerResult) -> dict[int, Any]:
        from memory.embeddings import encode, vectors_for_messages

        stored = vectors_for_messages([m.id for m in messages])
        missing = [m for m in messages if m.id not in stored]
        if missing:
            result.notes.append(
                f"{len(missing)} of {len(messages)} messages had no stored embedding yet; "
                "they were encoded for this review."
            )
            for message, vector in zip(missing, encode([m.text for m in missing]), strict=True):
                stored[message.id] = vector
        return stored

    def _clause_vectors(self, requests: list[Request], banned: set[str]) -> Any:
        """One row per request: the embedding of the work its clause asks for, its names,
        numbers, times and quoted particulars left out (``work_of_clause``: otherwise two
        requests for one customer sit closer than two for one kind of work), all encoded
        in one batch (each distinct clause once). Clauses are not stored: a review's
        requests are a few hundred short clauses at most."""
        import numpy as np

        from memory.embeddings import encode

        texts = [work_of_clause(r.message.text[r.start : r.end], banned) for r in requests]
        distinct = list(dict.fromkeys(texts))
        rows = dict(zip(distinct, encode(distinct), strict=True))
        return np.vstack([rows[t] for t in texts])

    def _head_vectors(self, requests: list[Request]) -> dict[str, Any]:
        """The embedding of each head noun alone ("quote", "quotation"), in one batch."""
        from memory.embeddings import encode

        heads = sorted({r.head for r in requests if r.head})
        return dict(zip(heads, encode(heads), strict=True)) if heads else {}

    def _themes(
        self,
        corpus: ReviewCorpus,
        result: ProposerResult,
        *,
        min_conversations: int,
        min_users: int | None,
        meaning: bool,
    ) -> tuple[list[Theme], list[Request], dict[int, Any], set[str]] | None:
        """The themes that recur in the corpus (None when no message asks for anything),
        with the requests, message vectors and banned words they were found with.
        ``meaning``: also group requests alike in meaning (encodes every clause)."""
        names: set[str] = getattr(corpus, "known_names", set())
        banned = _name_words(names) | proper_words(corpus.messages)
        requests = objects_named_before(
            parts_as_wholes(
                compounds_as_nouns(
                    requests_asking_work([r for m in corpus.messages for r in requests_of(m)])
                )
            )
        )
        if not requests:
            return None
        vectors = self._vectors(list({r.message.id: r.message for r in requests}.values()), result)
        themes = find_themes(
            requests,
            vectors,
            min_conversations=min_conversations,
            min_users=min_users,
            exclude=banned,
            clause_vectors=self._clause_vectors(requests, banned) if meaning else None,
            head_vectors=self._head_vectors(requests) if meaning else None,
        )
        return themes, requests, vectors, banned

    def _near_misses(
        self,
        requests: list[Request],
        vectors: dict[int, Any],
        banned: set[str],
        themes: list[Theme],
        *,
        settings: LearningSettings,
        persona: dict[str, Any],
        names: set[str],
    ) -> list[dict[str, Any]]:
        """Themes that recur (in two conversations or more) but in fewer conversations,
        or said by fewer people, than the settings ask: what the log explains as "too
        few conversations" and "too few people". Grouped by words only (no encoding)."""
        from learning import policy

        min_users = settings.min_users if settings.across_users else None
        floor = min(2, settings.min_conversations)
        if settings.min_conversations <= floor and min_users is None:
            return []
        shown = {policy.content_key(sentence_for(t)) for t in themes}
        out: list[dict[str, Any]] = []
        # the policy's check of a wording may scan it: look at a bounded number of themes
        for theme in find_themes(
            requests, vectors, min_conversations=floor, min_users=None, exclude=banned
        )[:MAX_CANDIDATES]:
            n = len(theme.requests)
            if n >= settings.min_conversations and (min_users is None or theme.people >= min_users):
                continue  # recurs enough: a theme above, or the same work as one
            text = sentence_for(theme)
            key = policy.content_key(text)
            if key in shown or any(t.low in banned for t in tokens(text)):
                continue
            if policy.sentence_refusal(
                sentence=text, field="goals", persona=persona, known_names=names
            ):
                continue  # what the policy refuses is not shown in the log
            shown.add(key)
            reason = TOO_FEW_CONVERSATIONS if n < settings.min_conversations else TOO_FEW_PEOPLE
            out.append(_seen(theme, text, reason, key=key))
            if len(out) >= MAX_RECORDED:
                break
        return out

    def recurring_sentences(
        self, corpus: ReviewCorpus, persona: dict[str, Any], settings: LearningSettings
    ) -> list[dict[str, Any]]:
        """The goals/background themes that recur enough in ``corpus`` (words only, no
        encoding), as candidates without a reason: the review reads the whole history
        with it to find what recurs outside the recent conversations."""
        from learning import policy

        result = ProposerResult()
        min_users = settings.min_users if settings.across_users else None
        names: set[str] = getattr(corpus, "known_names", set())
        lang = _other_language(persona, result, rule=False)
        if result.declined:
            return []  # what it cannot word is never listed in English either
        if lang:
            banned = _name_words(names) | proper_words(corpus.messages, english=False, code=lang)
            out = []
            for foreign in find_foreign_themes(
                corpus.messages,
                lang,
                banned,
                min_conversations=settings.min_conversations,
                min_users=min_users,
                persona=persona,
            )[:MAX_RECORDED]:
                text = foreign_sentence(foreign, lang)
                if not policy.sentence_refusal(
                    sentence=text, field="goals", persona=persona, known_names=names
                ):
                    out.append(_seen(foreign, text, "", key=policy.content_key(text)))
            return out
        found = self._themes(
            corpus,
            result,
            min_conversations=settings.min_conversations,
            min_users=min_users,
            meaning=False,
        )
        if found is None:
            return []
        out = []
        # one kind of work is one line: the first wording of each family the policy allows
        for family in theme_families(found[0][:MAX_RECORDED], found[2]):
            for theme in family:
                text = sentence_for(theme)
                if any(t.low in found[3] for t in tokens(text)) or policy.sentence_refusal(
                    sentence=text, field="goals", persona=persona, known_names=names
                ):
                    continue
                out.append(_seen(theme, text, "", key=policy.content_key(text)))
                break
        return out

    def propose_sentence(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid=frozenset(),
    ) -> ProposerResult:
        from learning import policy
        from memory.verification import verify_quotes

        result = ProposerResult(calls=1)
        result.data = {"field": None, "sentence": "", "evidence": []}
        lang = _other_language(persona, result, rule=False)
        if result.declined:
            return result
        if lang:
            return self._propose_foreign(corpus, persona, settings, lang, avoid, result)
        names: set[str] = getattr(corpus, "known_names", set())
        min_users = settings.min_users if settings.across_users else None
        found = self._themes(
            corpus,
            result,
            min_conversations=settings.min_conversations,
            min_users=min_users,
            meaning=True,
        )
        if found is None:
            return result
        themes, requests, vectors, banned = found
        near = self._near_misses(
            requests, vectors, banned, themes, settings=settings, persona=persona, names=names
        )
        left_out: list[str] = []
        tried: set[str] = set()
        covered = _statements(persona)
        for theme in _open_themes(
            themes[:MAX_CANDIDATES], vectors, covered, avoid, banned, result, left_out
        ):
            text = problem_named_by_quotes(theme, sentence_for(theme), banned)
            if topic_unquoted(theme, [e["quote"] for e in theme_evidence(theme, text, banned)[0]]):
                text = without_topic(theme)  # "about drinks" that most quotes never say
            text = qualified_by_quotes(
                text, [e["quote"] for e in theme_evidence(theme, text, banned)[0]], banned
            )
            named = [t.text for t in tokens(text) if t.low in banned]
            if named:
                left_out.append(f"{text!r}: names a person, place or company ({named[0]})")
                continue  # never recorded: the log would show the name
            key = policy.content_key(text)
            if key in tried:
                continue
            tried.add(key)
            if key in avoid:
                # worded by its quotes, the theme may read as a sentence turned down before
                # ("Drafts replies about stars." -> "Drafts the replies."): the review would
                # refuse it again, and every theme after it would never be reached
                left_out.append(f"{text!r} was turned down, undone or is in the persona")
                result.candidates.append(_seen(theme, text, AVOIDED, key=key))
                continue
            refusal = policy.sentence_refusal(
                sentence=text, field="goals", persona=persona, known_names=names
            )
            if refusal:
                left_out.append(f"{text!r}: {refusal}")
                continue  # not recorded: the words the policy refuses stay out of the log
            evidence, people = theme_evidence(theme, text, banned, corpus.messages)
            if len(evidence) < settings.min_conversations or (
                min_users is not None and len(people) < min_users
            ):
                left_out.append(f"{text!r}: {TOO_FEW_CLEAN}")
                result.candidates.append(
                    _seen(theme, text, REFUSED, key=key, detail=TOO_FEW_CLEAN_DETAIL)
                )
                continue
            # the review verifies the quotes and refuses the whole proposal over one it
            # rejects, and the next review would make the same proposal: keep only the
            # quotes it accepts, and pass on to the next theme when too few are left
            evidence = verified_evidence(text, evidence, corpus)
            check = verify_quotes(
                text=text,
                quotes=evidence[:MAX_QUOTES],
                corpus=corpus,
                min_conversations=settings.min_conversations,
                min_users=min_users,
            )
            if not check.ok:
                left_out.append(f"{text!r}: {check.reason}")
                result.candidates.append(_seen(theme, text, REFUSED, key=key, detail=check.reason))
                continue
            result.data = {"field": "goals", "sentence": text, "evidence": evidence[:MAX_QUOTES]}
            break
        result.candidates.extend(near)
        _note_left_out(result, left_out)
        return result

    def _propose_foreign(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        lang: str,
        avoid: frozenset[str] | set[str],
        result: ProposerResult,
    ) -> ProposerResult:
        """``propose_sentence`` for a persona written in French or Spanish: the themes of
        ``other_languages``, checked like English ones (the persona, what was turned
        down, the policy, clean and verified quotes)."""
        from learning import policy
        from memory.verification import verify_quotes

        names: set[str] = getattr(corpus, "known_names", set())
        banned = _name_words(names) | proper_words(corpus.messages, english=False, code=lang)
        min_users = settings.min_users if settings.across_users else None
        covered = persona_statements(persona)
        left_out: list[str] = []
        unworded: list[str] = []
        for theme in find_foreign_themes(
            corpus.messages,
            lang,
            banned,
            min_conversations=settings.min_conversations,
            min_users=min_users,
            persona=persona,
            unworded=unworded,
        )[:MAX_CANDIDATES]:
            text = foreign_sentence(theme, lang)
            key = policy.content_key(text)
            object_words = content_words(text.split(" ", 1)[1])
            if any(object_words <= statement for statement in covered):
                left_out.append(f"{text!r}: the persona says this already in other words")
                result.candidates.append(_seen(theme, text, IN_PERSONA))
                continue
            if key in avoid:
                left_out.append(f"{text!r} was turned down, undone or is in the persona")
                result.candidates.append(_seen(theme, text, AVOIDED, key=key))
                continue
            refusal = policy.sentence_refusal(
                sentence=text, field="goals", persona=persona, known_names=names
            )
            if refusal:
                left_out.append(f"{text!r}: {refusal}")
                continue
            evidence, people = foreign_evidence(theme, banned, lang, corpus.messages)
            evidence = verified_evidence(text, evidence, corpus)
            if len(evidence) < settings.min_conversations or (
                min_users is not None and len(people) < min_users
            ):
                left_out.append(f"{text!r}: {TOO_FEW_CLEAN}")
                result.candidates.append(
                    _seen(theme, text, REFUSED, key=key, detail=TOO_FEW_CLEAN_DETAIL)
                )
                continue
            check = verify_quotes(
                text=text,
                quotes=evidence[:MAX_QUOTES],
                corpus=corpus,
                min_conversations=settings.min_conversations,
                min_users=min_users,
            )
            if not check.ok:
                left_out.append(f"{text!r}: {check.reason}")
                result.candidates.append(_seen(theme, text, REFUSED, key=key, detail=check.reason))
                continue
            result.data = {"field": "goals", "sentence": text, "evidence": evidence[:MAX_QUOTES]}
            break
        near = _foreign_near_misses(corpus, persona, settings, lang, banned)
        result.candidates.extend(near)
        if not (result.data or {}).get("sentence"):
            # a reviewer sees why nothing was proposed: the work asked for again, but not
            # often enough, as the English path records it
            left_out += unworded
            left_out += [
                f"{c['text']!r}: asked for in {c['conversations']} conversations, by "
                f"{c['people']} {'person' if c['people'] == 1 else 'people'} "
                f"({c['reason'].replace('_', ' ')})"
                for c in near
            ]
        _note_left_out(result, left_out)
        return result

    def propose_rule(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid=frozenset(),
    ) -> ProposerResult:
        from learning import policy

        result = ProposerResult(calls=1)
        result.data = {"rule": None, "evidence": []}
        lang = _other_language(persona, result, rule=True)
        if result.declined:
            return result
        names: set[str] = getattr(corpus, "known_names", set())
        banned = _name_words(names) | proper_words(corpus.messages, english=not lang, code=lang)
        function_words = (
            language.FUNCTION_WORDS[lang] | language.RULE_FRAMES[lang].before_verb
            if lang
            else frozenset()
        )
        asked = frozenset(
            r.head for m in corpus.messages if not m.after_assistant for r in requests_of(m)
        )
        corrections = [
            c for m in corpus.messages if m.after_assistant for c in corrections_of(m, asked)
        ]
        rules_now = [str(x) for x in persona.get("standing_rules") or []]
        min_users = settings.min_users if settings.across_users else None
        left_out: list[str] = []
        tried: set[str] = set()
        # the person's own spelling, accents and all, of a word typed plain in the rule
        written = [m.text for m in corpus.messages] + _persona_texts(persona)
        found = [
            (
                phrase,
                hits,
                accented_as_written(foreign_rule(hits, lang) or "", written, lang)
                if lang
                else rule_for(hits),
            )
            for phrase, hits in recurring_instructions(
                corrections,
                min_conversations=settings.min_corrections,
                min_users=min_users,
                function_words=function_words,
            )[:MAX_CANDIDATES]
        ]
        # a word people set against another ("players, not customers") in the corrections
        # of several conversations, each said in its own words
        found += [
            ((word, *instead), hits, preferred_rule(word, instead))
            for word, instead, hits in preferred_words(
                corrections, min_conversations=settings.min_corrections, min_users=min_users
            )
            if not lang
        ]
        for _phrase, hits, text in found:
            if not text:
                continue
            plain = _CONTRAST_TAIL.sub(".", text)
            if plain != text and policy.rule_refusal(rule=text, persona=persona, known_names=names):
                never = as_prohibition(text)
                text = plain  # the refused wording may read as a name ("Hi there"): leave it out
                if never and policy.rule_refusal(rule=plain, persona=persona, known_names=names):
                    # the wording asked for may not be said ('Say "wood-burning stove"'
                    # beside a guardrail about stoves): the refusal alone still holds
                    text = never
            if any(same_matter(text, have) for have in rules_now):
                left_out.append(f"{text!r}: the persona holds this rule already in other words")
                result.candidates.append(_rule_seen(hits, text, IN_PERSONA))
                continue
            key = policy.content_key(text)
            if key in tried:
                continue
            tried.add(key)
            if key in avoid:
                left_out.append(f"{text!r} was turned down, undone or is in the persona")
                result.candidates.append(_rule_seen(hits, text, AVOIDED, key=key))
                continue
            refusal = policy.rule_refusal(rule=text, persona=persona, known_names=names)
            if refusal:
                left_out.append(f"{text!r}: {refusal}")
                continue
            evidence, quoted = rule_evidence(
                hits, text, banned, keep=frozenset(_phrase), frame=language.FRAMES.get(lang)
            )
            people = {c.message.principal_id for c, _ in hits.values()}
            if len(evidence) < settings.min_corrections or (
                min_users is not None and len(people) < min_users
            ):
                left_out.append(f"{text!r}: {TOO_FEW_CLEAN}")
                result.candidates.append(
                    _rule_seen(hits, text, REFUSED, key=key, detail=TOO_FEW_CLEAN_DETAIL)
                )
                continue
            disagree = (
                policy.corrections_disagree(rule=text, quoted=quoted)
                or _values_refusal(text, quoted, corrections, settings.min_corrections)
                or _subject_values_refusal(text, corrections)
            )
            if disagree:
                left_out.append(f"{text!r}: {disagree}")
                result.candidates.append(_rule_seen(hits, text, REFUSED, key=key, detail=disagree))
                continue
            result.data = {"rule": text, "evidence": evidence[:MAX_QUOTES]}
            break
        if not lang:  # a near miss is worded in English only
            result.candidates.extend(
                _rule_near_misses(
                    corrections, settings=settings, persona=persona, names=names, tried=tried
                )
            )
        _note_left_out(result, left_out)
        return result
