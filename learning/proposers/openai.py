"""The ``openai`` proposer: any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM,
LM Studio), through the official client with a timeout and no retries.

Whatever the endpoint answers, the result is data or a recorded error, never an
exception: a timeout, an HTTP error, prose, malformed JSON or the wrong shape all end
as ``ProposerResult(error=...)``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings

from learning import language
from learning.proposers.base import ProposerResult

if TYPE_CHECKING:
    from learning.models import LearningSettings
    from memory.verification import ReviewCorpus

#: Characters of conversation text sent in one prompt (about 8k tokens).
MAX_PROMPT_CHARS = 32_000
MAX_ANSWER_TOKENS = 600

SENTENCE_SYSTEM = """You review an assistant's recent conversations with its users and look for one lasting pattern: a kind of work users keep bringing to the assistant.
Propose at most ONE sentence to add to the assistant's persona, in the field "goals" (what it helps with) or "background" (what it knows about the work).
The sentence must describe a kind of work, as a reviewer would keep it as written: a verb in the third person, what is made, and who or what it is for when the users say it ("Drafts replies to refund requests for the support team."). Write it in {language}, the language of the persona. It must not hold a rule ("always", "never"), a recommendation, contact details, a person's or company's name, or anything addressed to the assistant.
Back it with quotes copied WORD FOR WORD from the user messages below, each quote at least 4 words long and inside one message, from at least {min_conversations} different conversations{users_clause}. Each quote must share a word with the sentence.
Answer only JSON, nothing else:
{{"field": "goals" | "background" | null, "sentence": "...", "evidence": [{{"quote": "...", "conversation": "<conversation label>"}}]}}
If there is no pattern, answer {{"field": null, "sentence": "", "evidence": []}}."""

RULE_SYSTEM = """You review corrections users made to what an assistant produced (lines a user wrote after the assistant replied).
If the same correction recurs, propose ONE standing rule about how the work is done: one sentence of at most 200 characters.
It must not sell or recommend, send or reveal information, hold contact details or names, or be addressed to the assistant as a new identity.
Back it with quotes copied WORD FOR WORD from the correction lines below, each at least 4 words long and inside one message, from at least {min_corrections} different conversations{users_clause}. Each quote must share a word with the rule.
Answer only JSON, nothing else:
{{"rule": "..." | null, "evidence": [{{"quote": "...", "conversation": "<conversation label>"}}]}}
If no correction recurs, answer {{"rule": null, "evidence": []}}."""

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```\s*$", re.S)


def parse_json_answer(text: str) -> tuple[dict[str, Any] | None, str]:
    """(data, "") for a JSON object (optionally in a code fence), else (None, error)."""
    if not text or not text.strip():
        return None, "The model answered nothing."
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        snippet = " ".join(text.split())[:80]
        return (
            None,
            f"The model's answer is not JSON ({exc.msg} at character {exc.pos}): {snippet!r}.",
        )
    if not isinstance(data, dict):
        return None, f"The model answered JSON {type(data).__name__}, not the object asked for."
    return data, ""


def _check_evidence(data: dict[str, Any]) -> str:
    evidence = data.get("evidence", [])
    if not isinstance(evidence, list):
        return "The model's evidence is not a list of quotes."
    for i, item in enumerate(evidence, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("quote"), str):
            return f"Evidence item {i} from the model has no quote text."
        label = item.get("conversation")
        if label is not None and not isinstance(label, str | int):
            return f"Evidence item {i} from the model has a conversation that is not a label."
    return ""


def check_sentence_shape(data: dict[str, Any]) -> str:
    """An error sentence when ``data`` is not the sentence answer's shape, else ""."""
    field = data.get("field")
    if field is not None and field not in ("goals", "background"):
        return f"The model chose the field {field!r}; only goals or background can be learned."
    if field is not None and (
        not isinstance(data.get("sentence"), str) or not data["sentence"].strip()
    ):
        return "The model chose a field but gave no sentence."
    return _check_evidence(data)


def check_rule_shape(data: dict[str, Any]) -> str:
    rule = data.get("rule")
    if rule is not None and not isinstance(rule, str):
        return "The model's rule is not text."
    return _check_evidence(data)


def corpus_prompt(corpus: ReviewCorpus, *, corrections_only: bool = False) -> str:
    """The user messages a review may read, grouped and labelled by conversation."""
    by_conv: dict[int, list[Any]] = {}
    labels: dict[int, str] = {}
    for message in corpus.messages:
        if corrections_only and not message.after_assistant:
            continue
        by_conv.setdefault(message.conversation_id, []).append(message)
        labels[message.conversation_id] = message.conversation_label
    parts: list[str] = []
    used = 0
    for conv_id, messages in by_conv.items():
        head = f'Conversation "{labels[conv_id]}" (user {messages[0].principal_id}):'
        lines = [head]
        for message in sorted(messages, key=lambda m: m.seq):
            text = " ".join(message.text.split())
            lines.append(f"- {text}")
        block = "\n".join(lines)
        if used + len(block) > MAX_PROMPT_CHARS:
            break
        parts.append(block)
        used += len(block)
    summaries = getattr(corpus, "summaries", None) or []
    if summaries and not corrections_only:
        context = "\n".join(f"- {' '.join(str(s).split())}" for s in summaries)[:4000]
        parts.append("Summaries (context only, never quote them):\n" + context)
    return "\n\n".join(parts)


@dataclass
class OpenAIProposer:
    base_url: str
    model: str
    api_key: str
    timeout: float
    name: str = "openai"
    refusal: str = ""

    @classmethod
    def for_settings(cls, settings: LearningSettings) -> OpenAIProposer:
        from django.core.exceptions import ValidationError

        from learning.validators import validate_model_base_url

        base_url = settings.model_base_url
        if base_url:
            # Checked again at call time: a row saved before the allow-list changed must
            # not send the server's key anywhere else.
            try:
                validate_model_base_url(base_url)
            except ValidationError as exc:
                return cls(
                    base_url="", model="", api_key="", timeout=0.0, refusal=" ".join(exc.messages)
                )
        return cls(
            base_url=base_url or django_settings.LEARNING_MODEL_BASE_URL,
            model=settings.model_name or django_settings.LEARNING_MODEL,
            api_key=django_settings.LEARNING_MODEL_API_KEY or "not-needed",
            timeout=float(django_settings.LEARNING_MODEL_TIMEOUT),
        )

    def _chat(self, system: str, user: str) -> ProposerResult:
        if self.refusal:
            return ProposerResult(error=self.refusal)
        if not self.base_url or not self.model:
            return ProposerResult(
                error="No model endpoint is configured: set LEARNING_MODEL_BASE_URL and LEARNING_MODEL "
                "(or the agent's model settings), or use the local proposer."
            )
        import openai

        client = openai.OpenAI(
            base_url=self.base_url, api_key=self.api_key, timeout=self.timeout, max_retries=0
        )
        result = ProposerResult(calls=1)
        try:
            response = client.chat.completions.create(
                model=self.model,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
                temperature=0,
                max_tokens=MAX_ANSWER_TOKENS,
            )
        except openai.APITimeoutError:
            result.error = f"The model endpoint did not answer within {self.timeout:g} seconds; try again later or raise LEARNING_MODEL_TIMEOUT."
            return result
        except openai.APIStatusError as exc:
            result.error = f"The model endpoint answered HTTP {exc.status_code}; check the endpoint, model name and key."
            return result
        except openai.APIConnectionError:
            result.error = (
                f"Could not reach the model endpoint at {self.base_url}; check that it is running."
            )
            return result
        except Exception as exc:  # an odd endpoint must never crash a review
            result.error = f"The model call failed ({type(exc).__name__}); check the endpoint."
            return result
        finally:
            client.close()
        usage = getattr(response, "usage", None)
        if usage is not None:
            result.tokens_in = int(getattr(usage, "prompt_tokens", 0) or 0)
            result.tokens_out = int(getattr(usage, "completion_tokens", 0) or 0)
        try:
            content = response.choices[0].message.content or ""
        except (AttributeError, IndexError, TypeError):
            result.error = "The model endpoint answered without a message."
            return result
        data, error = parse_json_answer(content)
        result.data, result.error = data, error
        return result

    def propose_sentence(self, corpus, persona, settings, *, avoid=frozenset()) -> ProposerResult:
        users_clause = (
            f" and from at least {settings.min_users} different users"
            if settings.across_users
            else ""
        )
        system = SENTENCE_SYSTEM.format(
            min_conversations=settings.min_conversations,
            users_clause=users_clause,
            language=language.LANGUAGE_NAMES[language.persona_language(persona) or "en"],
        )
        current = (
            f"Current goals: {persona.get('goals') or '(none)'}\n"
            f"Current background: {persona.get('background') or '(none)'}\n\n"
        )
        result = self._chat(system, current + "User messages:\n\n" + corpus_prompt(corpus))
        if result.data is not None:
            shape_error = check_sentence_shape(result.data)
            if shape_error:
                result.data, result.error = None, shape_error
        return result

    def propose_rule(self, corpus, persona, settings, *, avoid=frozenset()) -> ProposerResult:
        users_clause = (
            f" and from at least {settings.min_users} different users"
            if settings.across_users
            else ""
        )
        system = RULE_SYSTEM.format(
            min_corrections=settings.min_corrections, users_clause=users_clause
        )
        rules = "\n".join(f"- {r}" for r in persona.get("standing_rules") or []) or "(none)"
        user = f"Standing rules in force:\n{rules}\n\nCorrections:\n\n" + corpus_prompt(
            corpus, corrections_only=True
        )
        result = self._chat(system, user)
        if result.data is not None:
            shape_error = check_rule_shape(result.data)
            if shape_error:
                result.data, result.error = None, shape_error
        return result
