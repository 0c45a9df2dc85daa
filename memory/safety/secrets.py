"""Safety shared by every write and render path: the secret scan (at write).

The injection scan lives in ``memory.safety.injection``. This module refuses
credential-shaped values, using detect-secrets the way the library intends:

* **Its plugins**, run through ``detect_secrets.core.scan.scan_line``: the provider
  detectors (AWS, GitHub, Slack, Stripe, JWT, private keys ...), ``KeywordDetector``
  (``password = "..."``) and ``BasicAuthDetector`` (``https://user:pass@host``).
* **Its heuristic filters** (``detect_secrets.filters.heuristic``) on every candidate:
  sequential strings, UUIDs, likely ids (``user_id = ...``), templated values
  (``{x}``, ``<x>``, ``${X}``), values starting with ``$``, indirect references
  (``get_secret("x")``), non-alphanumeric values, lock and swagger files.

Persona text is prose, not code, so three narrow additions read it as prose:

* **keyword forms in prose and config**: ``password = hunter2``, ``pwd: ...``, "the
  password is ...", ``Passwort: ...``, "la contraseña es ..."; the value must look like
  a credential (no spaces unless quoted, long enough, letters with digits or symbols),
  so "the wifi password is on the fridge" passes;
* **high-entropy tokens** measured with detect-secrets' own entropy functions, only on
  single tokens shaped like a credential, and never when the context says what they
  are: a hex string next to "commit", "sha", "checksum", "digest", "hash", "revision",
  "build", "etag" is a digest; base64 that decodes to plain words is an encoding; a
  UUID is an id;
* **key prefixes** the installed plugins do not know: OpenAI project / service keys,
  Anthropic, Google API keys, GitHub fine-grained tokens, Hugging Face tokens.

Judgement calls: a bare 32+ hex string with no context is refused (hex API keys exist
and a persona has no need for one); placeholders such as ``<redacted>``, ``${TOKEN}``,
``****``, ``changeme``, ``YOUR_API_KEY`` pass.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from typing import TypedDict

from detect_secrets.core.scan import scan_line
from detect_secrets.filters import heuristic
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.settings import transient_settings

from personaweb.errors import Refusal

# Plugins that look for a credential by its shape or by a keyword next to it. The bare
# high-entropy plugins are not run through ``scan_line``: in ad-hoc mode they report
# every word of a sentence; their entropy measure is applied to candidate tokens below.
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
_FILTERS = [
    {"path": f"detect_secrets.filters.heuristic.{name}"}
    for name in (
        "is_indirect_reference",
        "is_likely_id_string",
        "is_lock_file",
        "is_not_alphanumeric_string",
        "is_potential_uuid",
        "is_prefixed_with_dollar_sign",
        "is_sequential_string",
        "is_swagger_file",
        "is_templated_secret",
    )
]
_SETTINGS = {"plugins_used": _PLUGINS, "filters_used": _FILTERS}


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
BASIC_AUTH_KIND = "Basic Auth Credentials"

_KEYWORD = re.compile(
    r"(?<![A-Za-z])(?P<kw>(?:[a-z]+_)?pass(?:word|wd|phrase|code)?s?|pwd|api[ _-]?keys?|access[ _-]?keys?"
    r"|secret[ _-]?keys?|client[ _-]?secrets?|secrets?|(?:auth|access|bearer|api|refresh|session)[ _-]?tokens?"
    r"|tokens?|bearer|private[ _-]?keys?|pin|contrase(?:ñ|n)a|mot de passe|passwort|kennwort|senha"
    r"|wachtwoord|password|key)(?![A-Za-z])"
    r"(?:\s+(?:for|of|to|on)\s+(?:the\s+)?[\w.@-]+(?:\s+[\w.@-]+)?)?"
    r"(?P<sep>\s*(?:is|was|are|=|:|:=|=>|->|es|est|ist|lautet|e|é|è|is)\s*|\s+)"
    r"(?P<q>[\"'`])?(?P<value>[^\s\"'`]{4,}|(?<=[\"'`])[^\"'`\n]{4,}(?=[\"'`]))",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(
    r"^(?:<.*>|\$\{?\w+\}?|\{\{?.*\}?\}|\[.*\]|\*+|x+|\.+|redacted|hidden|none|null|n/a|changeme"
    r"|change[_-]?me|your[_-][\w-]+|(?:[\w-]*[_-])?(?:example|placeholder|dummy|sample)(?:[_-][\w-]*)?|secret|password|xxx+|todo"
    r"|tbd|[\w-]+[_-]here)$",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_.\-])[A-Za-z0-9+/=_\-]{20,}(?![A-Za-z0-9+/=_\-])")
_HEX = re.compile(r"^[0-9a-fA-F]{32,}$")
#: Words that say a hex string is a digest, not a key (looked for shortly before it).
_DIGEST_CONTEXT = re.compile(
    r"\b(?:commit|commits|sha(?:1|256|512)?|checksum|checksums|digest|hash|md5|revision|rev|build"
    r"|etag|fingerprint|tag|version|release|changeset|object|blob|tree|cherry-pick|cherry-picked|rebase"
    r"|rebased|revert|reverted|merge|merged|checkout|bisect|diff|blame|squash|squashed|amend|head|ref"
    r"|branch|pushed)\b",
    re.IGNORECASE,
)
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
# ``scheme://user:password@host`` for any scheme (postgres, redis, ftp ...); the user may
# be empty (``redis://:pw@host``).
_URL_CREDENTIALS = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]*:(?P<pw>[^\s/@]{3,})@[\w.-]+", re.I)


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def _filtered_out(value: str, line: str) -> bool:
    """detect-secrets' heuristic filters, as its own scan applies them to a candidate."""
    return (
        heuristic.is_sequential_string(value)
        or heuristic.is_potential_uuid(value)
        or heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_likely_id_string(value, line)
        or heuristic.is_indirect_reference(line)
        or heuristic.is_not_alphanumeric_string(value)
    )


def _credential_like(value: str, *, quoted: bool, line: str) -> bool:
    """A value after a credential keyword that is plausibly the credential itself."""
    value = value.strip().rstrip(".,;:!?)")
    if len(value) < (4 if quoted else 6) or _PLACEHOLDER.match(value):
        return False
    if _filtered_out(value, line):
        return False
    if quoted:
        return True  # password is "correct horse battery staple"
    if "://" in value or len(set(value)) < 4:
        return False
    has_letter = any(c.isalpha() for c in value)
    has_digit = any(c.isdigit() for c in value)
    if value.isdigit():
        return len(value) >= 8  # a long numeric PIN; "pin 4721" is a desk number
    return has_letter and (has_digit or _classes(value) >= 3)


def _keyword_hits(line: str) -> bool:
    for m in _KEYWORD.finditer(line):
        quoted = m.group("q") is not None
        value = m.group("value")
        if not quoted and not m.group("sep").strip():
            # no "is" / "=" / ":" between keyword and value: only an unmistakable token
            if (
                len(value) >= 16
                and _classes(value) >= 3
                and _credential_like(value, quoted=False, line=line)
            ):
                return True
            continue
        if _credential_like(value, quoted=quoted, line=line):
            return True
    return False


def _decodes_to_words(token: str) -> bool:
    """Base64 of plain text (a greeting, a sentence) is an encoding, not a key."""
    raw = token.replace("-", "+").replace("_", "/")
    raw += "=" * (-len(raw) % 4)
    try:
        text = base64.b64decode(raw, validate=True).decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return False
    letters = sum(1 for c in text if c.isalpha() or c == " ")
    return len(text) >= 8 and letters >= 0.85 * len(text) and " " in text


def _entropy_hits(line: str) -> list[str]:
    kinds = []
    for m in _TOKEN.finditer(line):
        token = m.group(0)
        if _filtered_out(token, line) or _PLACEHOLDER.match(token) or token.startswith("/"):
            continue  # a leading slash makes it a path (/srv/app/releases/...), not a key
        if _HEX.match(token):
            before = line[max(0, m.start() - 40) : m.start()]
            if _DIGEST_CONTEXT.search(before):
                continue
            mixed = any(c.isalpha() for c in token) and any(c.isdigit() for c in token)
            if mixed and _HEXES.calculate_shannon_entropy(token) > _HEXES.entropy_limit:
                kinds.append(_HEXES.secret_type)
        elif (
            len(token) >= 24
            and _classes(token.replace("-", "").replace("_", "")) >= 3
            and any(c.isdigit() for c in token)
            and _BASE64.calculate_shannon_entropy(token) > _BASE64.entropy_limit
            and not _decodes_to_words(token)
        ):
            kinds.append(_BASE64.secret_type)
    return kinds


def _url_credentials(line: str) -> bool:
    for m in _URL_CREDENTIALS.finditer(line):
        pw = m.group("pw")
        if not (_PLACEHOLDER.match(pw) or heuristic.is_templated_secret(pw)):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _scan(text: str) -> tuple[str, ...]:
    kinds: list[str] = []
    lines = text.splitlines() or [text]
    with transient_settings(_SETTINGS):
        for line in lines:
            kinds.extend(
                s.type
                for s in scan_line(line)
                if not (s.secret_value and _PLACEHOLDER.match(s.secret_value))
            )
    for line in lines:
        kinds.extend(kind for kind, rx in _EXTRA_PREFIXES if rx.search(line))
        if BASIC_AUTH_KIND not in kinds and _url_credentials(line):
            kinds.append(BASIC_AUTH_KIND)
        if _keyword_hits(line):
            kinds.append(KEYWORD_KIND)
        kinds.extend(_entropy_hits(line))
    # A keyword or entropy hit on a value a shape plugin already named adds nothing.
    shapes = set(kinds) - {KEYWORD_KIND, _BASE64.secret_type, _HEXES.secret_type}
    if shapes:
        kinds = [k for k in kinds if k in shapes]
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
