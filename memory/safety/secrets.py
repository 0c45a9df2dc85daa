"""Safety shared by every write and render path: the secret scan (at write).

The injection scan lives in ``memory.safety.injection``. This module refuses
credential-shaped values. detect-secrets' maintained plugins are the core detector;
three narrow additions close gaps they leave on prose (persona text is prose, not
code):

* **keyword context**: ``password = hunter2hunter2``, ``api key is <32 hex>``, ``token:
  "..."``. detect-secrets' ``KeywordDetector`` only fires on code-shaped assignments
  with quotes; here a credential keyword followed by ``is`` / ``=`` / ``:`` (or a
  quoted value) counts when the value looks like a credential (no spaces, long enough,
  mixed letters and digits or symbols), so "Never share the system password with
  anyone" passes.
* **high-entropy tokens**: detect-secrets' ``Base64HighEntropyString`` and
  ``HexHighEntropyString`` entropy measures, applied only to single tokens shaped like
  a credential (base64: 24+ chars with upper, lower and digits; hex: 32+ chars with
  letters and digits). On whole sentences the plain plugins fire on ordinary words.
* **key prefixes** the installed plugins do not know: OpenAI project / service keys
  without the legacy ``T3BlbkFJ`` marker, Anthropic, Google API keys, GitHub
  fine-grained tokens, Hugging Face tokens.

Judgement calls: a 40-hex git commit id is refused as a "Hex High Entropy String" (a
persona has no need for one and it is indistinguishable from a hex key); UUIDs pass
(hyphenated, low entropy); placeholders such as ``<redacted>``, ``${TOKEN}``, ``****``
pass.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TypedDict

from detect_secrets.core.scan import scan_line
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.settings import transient_settings

from personaweb.errors import Refusal

# Plugins that look for a credential by its shape or by a keyword next to it. The
# bare high-entropy plugins are left out: on prose they fire on ordinary words
# ("loves mythic fantasy"), and a refusal must mean something.
_PLUGINS = [
    {"name": name}
    for name in (
        "ArtifactoryDetector",
        "AWSKeyDetector",
        "AzureStorageKeyDetector",
        "BasicAuthDetector",
        "CloudantDetector",
        "DiscordBotTokenDetector",
        "GitHubTokenDetector",
        "GitLabTokenDetector",
        "IbmCloudIamDetector",
        "IbmCosHmacDetector",
        "JwtTokenDetector",
        "KeywordDetector",
        "MailchimpDetector",
        "NpmDetector",
        "OpenAIDetector",
        "PrivateKeyDetector",
        "PypiTokenDetector",
        "SendGridDetector",
        "SlackDetector",
        "SoftlayerDetector",
        "SquareOAuthDetector",
        "StripeDetector",
        "TelegramBotTokenDetector",
        "TwilioKeyDetector",
    )
]


@dataclass(frozen=True)
class SecretFinding:
    kind: str


class SecretFound(Refusal):
    """A credential-shaped value was offered for storage; nothing was written."""

    def __init__(self, *, field: str, kinds: list[str]) -> None:
        self.field = field
        self.kinds = kinds
        super().__init__(
            f"The {field} looks like it holds a secret ({', '.join(sorted(set(kinds)))}). "
            "Remove the credential and save again; personaweb never stores secrets in a persona."
        )


KEYWORD_KIND = "Secret Keyword"  # detect-secrets' name for a keyword-assigned secret

_KEYWORD = re.compile(
    r"(?<![A-Za-z])(?P<kw>pass(?:word|wd|phrase|code)s?|pwd|api[ _-]?keys?|access[ _-]?keys?|secret[ _-]?keys?"
    r"|client[ _-]?secrets?|secrets?|(?:auth|access|bearer|api|refresh|session)[ _-]?tokens?|tokens?|bearer"
    r"|private[ _-]?keys?|pin|contrase(?:ñ|n)a|mot de passe|passwort|kennwort|senha)(?![A-Za-z])"
    r"(?P<sep>\s*(?:is|was|are|=|:|:=|=>|->|es|est|ist|e|é)\s*|\s+)"
    r"(?P<q>[\"'`])?(?P<value>[^\s\"'`]{4,}|(?<=[\"'`])[^\"'`\n]{4,}(?=[\"'`]))",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(
    r"^(?:<.*>|\$\{?\w+\}?|\{\{?.*\}?\}|\[.*\]|\*+|x+|\.+|redacted|hidden|none|null|n/a)$", re.I
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_.\-])[A-Za-z0-9+/=_\-]{20,}(?![A-Za-z0-9+/=_\-])")
_HEX = re.compile(r"^[0-9a-fA-F]{32,}$")
_BASE64 = Base64HighEntropyString(limit=4.0)
_HEXES = HexHighEntropyString(limit=3.0)
_EXTRA_PREFIXES = (
    (
        "OpenAI Token",
        re.compile(
            r"(?<![A-Za-z0-9])sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32,}"
        ),
    ),
    ("Anthropic API Key", re.compile(r"(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{32,}")),
    ("Google API Key", re.compile(r"(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}")),
    ("GitHub Token", re.compile(r"(?<![A-Za-z0-9])github_pat_[A-Za-z0-9_]{40,}")),
    ("Hugging Face Token", re.compile(r"(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}")),
)


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def _credential_like(value: str, *, quoted: bool) -> bool:
    """A value after a credential keyword that is plausibly the credential itself."""
    value = value.strip().rstrip(".,;:!?)")
    if len(value) < (4 if quoted else 8) or _PLACEHOLDER.match(value):
        return False
    if quoted:
        return True  # password is "correct horse battery staple"
    if "://" in value or len(set(value)) < 4:
        return False
    has_letter = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    return has_letter and (has_digit or _classes(value) >= 3)


def _keyword_hits(line: str) -> bool:
    for m in _KEYWORD.finditer(line):
        quoted = m.group("q") is not None
        if not quoted and not m.group("sep").strip():
            # no "is" / "=" / ":" between keyword and value: only an unmistakable token
            value = m.group("value")
            if len(value) >= 16 and _classes(value) >= 3 and _credential_like(value, quoted=False):
                return True
            continue
        if _credential_like(m.group("value"), quoted=quoted):
            return True
    return False


def _entropy_hits(line: str) -> list[str]:
    kinds = []
    for m in _TOKEN.finditer(line):
        token = m.group(0)
        if _HEX.match(token):
            mixed = any(c.isalpha() for c in token) and any(c.isdigit() for c in token)
            if mixed and _HEXES.calculate_shannon_entropy(token) > _HEXES.entropy_limit:
                kinds.append(_HEXES.secret_type)
        elif (
            len(token) >= 24
            and _classes(token.replace("-", "").replace("_", "")) >= 3
            and _BASE64.calculate_shannon_entropy(token) > _BASE64.entropy_limit
        ):
            kinds.append(_BASE64.secret_type)
    return kinds


@functools.lru_cache(maxsize=2048)
def _scan(text: str) -> tuple[str, ...]:
    kinds: list[str] = []
    lines = text.splitlines() or [text]
    with transient_settings({"plugins_used": _PLUGINS, "filters_used": []}):
        for line in lines:
            kinds.extend(s.type for s in scan_line(line))
    for line in lines:
        kinds.extend(kind for kind, rx in _EXTRA_PREFIXES if rx.search(line))
        if _keyword_hits(line):
            kinds.append(KEYWORD_KIND)
        kinds.extend(_entropy_hits(line))
    # A keyword hit on a value a shape plugin already named adds nothing.
    if KEYWORD_KIND in kinds and len(set(kinds)) > 1:
        kinds = [k for k in kinds if k != KEYWORD_KIND]
    return tuple(dict.fromkeys(kinds))


def find_secrets(text: str) -> list[str]:
    """Kinds of credential found in ``text`` (empty when none)."""
    if not text or not text.strip():
        return []
    return list(_scan(text))


def refuse_secrets(*, field: str, text: str) -> None:
    kinds = find_secrets(text)
    if kinds:
        raise SecretFound(field=field, kinds=kinds)


class ScanEntry(TypedDict):
    blocked: bool
    pattern_ids: list[str]
    secret_kinds: list[str]


def scan_entry(text: str, *, semantic: bool | None = None) -> ScanEntry:
    """One entry as the ``persona scan`` CLI reports it.

    ``{"blocked": bool, "pattern_ids": [str, ...], "secret_kinds": [str, ...]}``:
    ``blocked`` and ``pattern_ids`` come from the injection scan
    (``memory.safety.injection.scan``), ``secret_kinds`` from the secret scan.
    """
    from memory.safety.injection import scan

    result = scan(text, semantic=semantic)
    return {
        "blocked": result.blocked,
        "pattern_ids": list(result.pattern_ids),
        "secret_kinds": find_secrets(text),
    }
