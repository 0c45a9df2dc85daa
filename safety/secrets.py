"""Safety shared by every write and render path: the secret scan (at write).

The injection scan lives in ``safety.injection``. This module refuses
credential-shaped values, using detect-secrets the way the library intends:

* **Its plugins**, run as ``detect_secrets.core.scan.scan_line`` runs them (``scan_line``
  below, without its per-call set-up): the provider
  detectors (AWS, GitHub, Slack, Stripe, JWT, private keys ...), ``KeywordDetector``
  (``password = "..."``) and ``BasicAuthDetector`` (``https://user:pass@host``).
* **Its heuristic filters** (``detect_secrets.filters.heuristic``) on every candidate:
  sequential strings, UUIDs, likely ids (``user_id = ...``), templated values
  (``{x}``, ``<x>``, ``${X}``), values starting with ``$``, indirect references
  (``get_secret("x")``), non-alphanumeric values, lock and swagger files.

Persona text is prose, not code, so more rules read it as prose. The older ones were
written one shape at a time (keyword forms such as ``password = hunter2`` and "the
password is ...", numeric PINs and door codes next to a lock word, high-entropy tokens
judged by their context: a hex string after "commit" or "sha" is a digest, base64 of text
is an encoding, a UUID is an id). Each new independent part brought new shapes, so the
**general mechanisms** (below ``_GEN_PW_WORDS``) state the shapes once:

* a credential word in ~30 languages (password, PIN, passcode, login, key, token,
  secret, cookie and their translations, inflected forms included) followed within a
  few words, or on the next line of a config, by a value that looks like a credential
  (``_looks_random``: a human password after a password word, a machine-made value
  after a key word), or a password just before a login word;
* a provider-style key (``<prefix>_<segment>_<random tail>``) of any provider;
* an Authorization header of any scheme and the API-key headers;
* credentials in connection strings without ``scheme://`` (Oracle ``user/pw@host``,
  ``curl -u``, ``--password``, ``mysql -p``, ``redis-cli -a``, a login pasted as
  ``<e-mail> / <password>``) and name-then-value configs
  (Terraform ``default =``, Kubernetes ``name:``/``value:``);

* a key written in groups after a word naming a key (a base32 authenticator setup key, a
  numeric recovery key), a code after a keypad, a locker or a combination;

and every candidate passes the same look-alike checks: placeholders and redaction markers
(``[FILTERED]``, ``<hidden>``), masked or templated values, references to a secret store
or to code (``settings.API_KEY``), example values, hex digests (content addresses such as
``urn:btih:`` included), UUIDs, ids named as ids (``client_id``, ``Account SID``, media
and list ids in a URL query), Stripe-style object ids, base64 of any text (a table, a
path, truncated or not), PEM blocks whose body is prose, public keys and certificates
(which the learned layer never reads either).

A **learned layer** (``safety.secret_scorer``) is stacked on top: it vetoes a
generic hit (keyword or entropy) it scores below ``VETO_BELOW`` and flags a text no rule
caught when it scores at least ``FLAG_ABOVE``; provider shapes and structural hits are
never vetoed.

Judgement calls: a bare 32+ hex string with no context is refused (hex API keys exist
and a persona has no need for one); AWS's documented example key ``AKIAIOSFODNN7EXAMPLE``
is refused (the AWS plugin's own judgement; other values spelled as examples pass);
placeholders such as ``<redacted>``, ``${TOKEN}``,
``****``, ``changeme``, ``YOUR_API_KEY`` pass.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
import threading
from typing import TypedDict

from detect_secrets.core import scan as ds_scan
from detect_secrets.core.potential_secret import PotentialSecret
from detect_secrets.filters import heuristic
from detect_secrets.plugins.high_entropy_strings import (
    Base64HighEntropyString,
    HexHighEntropyString,
)
from detect_secrets.plugins.keyword import KeywordDetector
from detect_secrets.settings import (
    cache_bust,
    configure_settings_from_baseline,
    get_plugins,
    get_settings,
)
from detect_secrets.util.code_snippet import get_code_snippet

from safety import secret_scorer
from safety.errors import UnsafeText

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
_FILTERS = [{"path": "safety.secrets.is_indirect_reference"}] + [
    {"path": f"detect_secrets.filters.heuristic.{name}"}
    for name in (
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
_configure_lock = threading.Lock()
_configured = False


def _configure_detect_secrets() -> None:
    """Apply our plugin and filter choice to detect-secrets' settings, once per process.

    detect-secrets keeps its settings in one process-wide object; ``transient_settings``
    swaps them for one block and back, which costs more than the scan itself (it rebuilds
    every plugin and filter cache twice). personaweb is the only user of detect-secrets in
    its processes, so the settings are set once and kept.
    """
    global _configured
    if _configured:
        return
    with _configure_lock:
        if not _configured:
            cache_bust()  # drops every cached plugin, filter and the settings object
            configure_settings_from_baseline(_SETTINGS)
            # what ``scan_line`` does on every call (ad-hoc text has no file to judge)
            get_settings().disable_filters("detect_secrets.filters.common.is_invalid_file")
            _configured = True


_ADHOC = "adhoc-string-scan"
#: Every word of ``KeywordDetector``'s deny list contains one of these.
_KEYWORD_GATE = re.compile(r"key|pass|pwd|secret|contrase", re.IGNORECASE)


def scan_line(line: str) -> list[PotentialSecret]:
    """``detect_secrets.core.scan.scan_line`` without its per-call set-up.

    The library's version clears its filter cache and resolves every plugin's arguments by
    signature inspection on each call, which is most of its cost; here each plugin is
    called directly and detect-secrets' own filter chain judges every candidate found, as
    in ``scan_line``."""
    context = get_code_snippet(lines=[line], line_number=1)
    found = []
    for plugin in get_plugins():
        if isinstance(plugin, KeywordDetector) and not _KEYWORD_GATE.search(line):
            continue  # none of its keywords is in the line: its regexes cannot match
        for secret in plugin.analyze_line(
            filename=_ADHOC, line=line, line_number=0, context=context
        ):
            if not any(
                ds_scan._is_filtered_out(
                    required_filter_parameters=[required],
                    filename=secret.filename,
                    secret=secret.secret_value,
                    plugin=plugin,
                    line=line,
                    context=context,
                )
                for required in ("secret", "context")
            ):
                found.append(secret)
    return found


class SecretFound(UnsafeText):
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
LEARNED_KIND = "Credential (learned score)"
PREFIXED_KIND = "Provider-style Key"
AUTH_HEADER_KIND = "Authorization Header"
PASSPHRASE_KIND = "Passphrase"
#: A PIN, a door or alarm code, a lock combination: a number next to a word that makes it
#: secret. The learned layer never vetoes it (its features do not see short numbers).
CODE_KIND = "PIN or Access Code"

#: Words that name a password, a PIN or a login secret, in the languages persona text uses.
_PASSWORD_WORDS = (
    r"pass(?:word|wd|phrase|code)?s?|pwd|pw|pin|contrase(?:ñ|n)a|clave|mot de passe|mdp|passwort|kennwort"
    r"|senha|wachtwoord|parola d'ordine|parola chiave|has(?:ł|l)[oa]|(?:ş|s)ifre(?:si|niz|n)?|(?:totp|otp|2fa|mfa)[ _-]?(?:seed|secret|key)|_?auth(?:token)?"
    r"|(?:alarm|door|gate|safe|key safe|lock|entry|access|security|wifi|wi-fi) ?code"
    r"|密码|密碼|口令|パスワード|暗証番号|비밀번호|كلمة المرور|كلمة السر"
)
_KEYWORD = re.compile(
    r"(?<![A-Za-z0-9])(?P<kw>(?:[a-z]+_)?pass(?:word|wd|phrase|code)?s?|pwd|api[ _-]?keys?|access[ _-]?keys?"
    r"|secret[ _-]?keys?|client[ _-]?secrets?|secrets?|(?:auth|access|bearer|api|refresh|session)[ _-]?tokens?"
    r"|tokens?|bearer|private[ _-]?keys?|" + _PASSWORD_WORDS + r"|key)(?![A-Za-z])"
    # up to four words naming what it is for: "password for the vet portal is", "mot de passe
    # du routeur est", "Senha do painel:", "Kennwort für das Kassensystem:"
    # what it is for: "password for the vet portal is", "mot de passe du routeur est",
    # "Senha do painel:", "Kennwort für das Kassensystem:"; one other word only before ":" or
    # "=" ("mot de passe provisoire : ..."); never before a bare space
    r"(?:(?P<what>\s+(?:for|of|to|on|at|from|du|de|des|del|della|dell'|da|do|dos|das|für|fur|voor|van|per|pour"
    r"|para|zum|zur|f[üu]r)(?:\s+[^\s:=\"'`]+){1,4}?)(?P<sep1>\s*(?:is|was|are|=|:|es|est|ist|lautet|é|è)\s*)"
    r"|(?P<what1>\s+[^\s:=\"'`]+)(?P<sep2>\s*[:=]\s*)"
    r"|(?P<sep>\s*(?:is|was|are|=|:|:=|=>|->|es|est|ist|lautet|e|é|è)\s*|\s+))"
    r"(?P<q>[\"'`])?(?P<value>(?<=[\"'`])[^\"'`\n]{4,}(?=[\"'`])|[^\s\"'`]{4,})",
    re.IGNORECASE,
)
_PASSWORD_KW = re.compile(r"(?:[a-z]+_)?(?:" + _PASSWORD_WORDS + r")", re.IGNORECASE)
_KEY_WORD = re.compile(
    r"secrets?|tokens?|(?:api|access|secret)[ _-]?keys?|key|bearer", re.IGNORECASE
)
#: Numeric codes count only after a word that makes them secret ("the PIN is 4471", "Alarm
#: disarm code: 6048", "combinación del candado: 2-19-33"); a bare "code" needs a word for
#: a door, an alarm, a safe or a lock near it, so "discount code" and "status code" pass.
_CODE_VALUE = re.compile(
    r"(?:\b(?:is|was|=|es|est|ist|é|è|lautet|with|to|now|it's|it is)\b|[:=：]|は|是|هي|هو|\s)\s*[*#]?"
    r"(?P<value>\d[\dA-ZА-ЯЁ]{2,9}|\d{1,3}(?:[- ]\d{1,3}){2,3})#?"
    r"(?![\w.,/-]\d)",
    re.IGNORECASE,
)
_PIN_WORDS = re.compile(
    r"(?<![A-Za-z])(?:pin|pins|puk|pincode|pin code|passcode|unlock|unlock code|combination|combo|combinaison"
    r"|combinaci[oó]n|combina[cç][aã]o"
    r"|combinazione|PIN-Code|PIN-Nummer)(?![A-Za-z])|暗証番号|密码|密碼|口令|暗码|비밀번호|رمز",
    re.IGNORECASE,
)
_CODE_WORDS = re.compile(
    # a keypad only ever takes a code: "Garage keypad: 8315" is one
    r"(?<![A-Za-z])(?:codes?|c[oó]digo|codice|c[oó]digos|zahlencode|kod|kodu|koden|keypads?|keypad"
    r"|tastiera|teclado|clavier|tastenfeld)(?![A-Za-z])"
    r"|(?<![^\W\d_])код\w*|コード|코드|رمز|密码|代码",
    re.I,
)
_LOCK_WORDS = re.compile(
    r"(?<![A-Za-z])(?:alarm\w*|door|doors|gate|safe|lock|padlock|lockbox|key ?safe|keypad|entry|garage|vault"
    r"|disarm|locker|lockers|opener|porte|portail|coffre|puerta|port[oó]n|caja fuerte|alarma|alarme|port[aã]o|cofre|cadeado"
    r"|cancello|allarme|cassaforte|lucchetto|deur|poort|hek|kluis|alarminstallatie|t[üu]r|tor|tresor"
    r"|schloss|alarmanlage|unlock|unlocks|master|intercom|drzwi|domofon\w*|sejf\w*|bram\w*|kap(?:ı|i)\w*"
    r"|kasa\w*|ipad|iphone|phone|tablet|laptop|override"
    r"|d(?:ö|o)rr|larm|kassask(?:å|a)p|дверь|двери|домофона?|подъезда?|сейфа?|замка?|сигнализаци\w*"
    r"|калитки|ворот)(?![^\W\d_])|门禁|门|保险箱|金庫|ドア|玄関|도어락|현관|باب|خزنة",
    re.IGNORECASE,
)


_RECOVERY_CODES = re.compile(
    r"(?<![A-Za-z])(?:recovery|backup|2fa|mfa|one-time|otp) codes?\b[^:=\n]{0,40}[:=]\s*\w*\d\w*",
    re.I,
)


_TYPED_CODE = re.compile(
    r"\b(?:unlock|open|disarm)(?:s|ed)?\s+(?:it\s+)?with\s+(?:the\s+)?(?:code\s+)?\*?\d[\d-]{3,9}\b|"
    r"\b(?:type|enter|press|dial|key in|punch in|tap)\s+\*?\d[\d *#-]{2,12}\s+(?:\w+\s+){0,2}"
    r"(?:to|and)\s+(?:then\s+)?(?:unlock|disarm|open|arm|get in|enter|OFF)\b",
    re.I,
)


_ENTRY_VERB = re.compile(
    r"\b(?:enter|dial|type|key in|punch in|press|tap|use|input)\s*[*#]?$", re.IGNORECASE
)


_OWNED_PIN = re.compile(
    r"\b(?:sim|card|phone|mobile|bank|debit|credit|atm|voicemail|account|admin|master|puk)\s+pin\b",
    re.IGNORECASE,
)


#: A key written in groups after a word naming a key: a TOTP setup key in base32
#: (``jbsw y3dp ehpk 3pxp``), a BitLocker or backup recovery key (``401236-558910-...``),
#: a licence key (``7KQ2M-XW9PD-...``).
_GROUPED_KEY = re.compile(
    r"(?<![\w-])(?P<value>[A-Za-z0-9]{4,6}(?:[ -][A-Za-z0-9]{4,6}){3,})(?![\w-])"
)
_GROUPED_KEY_CONTEXT = re.compile(
    r"(?<![A-Za-z])(?:key|keys|secret|seed|recovery|setup|2fa|mfa|totp|otp|authenticator"
    r"|licen[cs]e|serial key|product key|bitlocker|filevault|backup code|unlock)(?![A-Za-z])",
    re.IGNORECASE,
)


def _grouped_key(line: str) -> bool:
    for m in _GROUPED_KEY.finditer(line):
        groups = re.split(r"[ -]", m.group("value"))
        body = groups[:-1]  # the last group may be shorter
        if len({len(g) for g in body}) != 1 or len(groups[-1]) > len(body[0]):
            continue
        with_digit = sum(any(c.isdigit() for c in g) for g in groups)
        numeric = all(g.isdigit() for g in groups)
        if not (numeric or with_digit >= 2):
            continue
        if numeric and sum(map(len, groups)) < 20:
            continue  # a phone or card number, a date
        before = line[max(0, m.start() - 60) : m.start()]
        if _GROUPED_KEY_CONTEXT.search(before) and not re.search(
            r"(?i)fingerprint|\bfpr\b|checksum|digest|hash|\bid\b", before
        ):
            return True
    return False


def _secret_code(line: str) -> bool:
    if _RECOVERY_CODES.search(line) or _TYPED_CODE.search(line) or _grouped_key(line):
        return True
    for m in _CODE_VALUE.finditer(line):
        before = line[max(0, m.start() - 60) : m.start() + 1]
        spaced = not line[m.start() : m.start("value")].strip(" *#")
        if _PIN_WORDS.search(before) and (
            not spaced or _OWNED_PIN.search(before) or re.search(r"[- ]", m.group("value"))
        ):
            # "the PIN is 4471", "SIM PIN 7310", "combination 07-29-15"; not "desk pin 4721"
            return True
        lock = _LOCK_WORDS.search(before)
        if lock and (_CODE_WORDS.search(before) or re.search(r"[- ]", m.group("value"))):
            return True  # "door code 0192"; a lockbox combination "0-9-6-3"
        if (
            lock
            and _ENTRY_VERB.search(line[: m.start("value")])
            and sum(c.isdigit() for c in m.group("value")) >= 4
            and not re.match(r"\s\d{2,}", line[m.end() :])  # "dial 0800 123 4567": a phone
        ):
            return True  # "at the intercom dial 0815", "manager override, enter 7391"
    return False


_PLACEHOLDER = re.compile(
    r"^(?:<.*>|\$\{?\w+\}?|\{\{?.*\}?\}|\[.*\]|\(\w*\)|\*+|x+|\.+|redacted|hidden|none|null|n/a|changeme"
    r"|filtered|scrubbed|removed|omitted|masked|censored|sanitized|elided|obfuscated|withheld"
    r"|change[_-]?me|your[_-][\w-]+|(?:[\w-]*[_-])?(?:example|placeholder|dummy|sample)(?:[_-][\w-]*)?|secret|password|xxx+|todo"
    r"|tbd|fixme|[\w-]+[_-]here|replace[_-]?(?:me|this)|fill[_-]?(?:me|in)|insert[_-][\w-]+|set[_-]?me"
    r"|unset|empty|undefined|not[_-]set|redact(?:ed)?|masked|\.\.\.|…|%\w+%)$",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9+/=_.\-])[A-Za-z0-9+/=_\-]{20,}(?![A-Za-z0-9+/=_\-])")
_HEX = re.compile(r"^[0-9a-fA-F]{32,}$")
#: Words that say a hex string is a digest, not a key (looked for shortly before it).
_DIGEST_CONTEXT = re.compile(
    r"\b(?:commit|commits|sha|sha(?:\d|sum|-\d)\w*|checksum|checksums|digest|hash|md5|revision|rev|build"
    r"|etag|fingerprint|tag|version|release|changeset|object|blob|tree|cherry[- ]pick(?:ed)?|rebase"
    r"|rebased|revert|reverted|merge|merged|checkout|bisect|diff|blame|squash|squashed|amend|head|ref"
    r"|branch|pushed|parent|submodule|bumped|pinned|pin|image|integrity|h1|sha256sum|sha1sum|md5sum"
    r"|event|trace|span|request|correlation|bisect|bad|good|hashes|deploy|deployed|deploying|rollback"
    r"|rolled|roll back|reference|resolved|lock|locked|upstream|sum|compare|sha\d*sum|oid|git|github|gitlab"
    r"|blake\w*|b\d?sum|xxh\w*|keccak\w*|ripemd\w*|sm3|crc\w*)\b",
    re.IGNORECASE,
)
#: The same for a base64 digest (``SHA256:...`` fingerprints, ``sha512-...`` integrity).
_BASE64_DIGEST_CONTEXT = re.compile(
    r"(?:\b(?:fingerprint|integrity|checksum|digest|hash|etag)\b[^\n]{0,20}|\b(?:sha(?:1|256|384|512)|md5|h1):\s*)$",
    re.IGNORECASE,
)
_BASE64_DIGEST_PREFIX = re.compile(r"sha(?:1|256|384|512)-", re.IGNORECASE)
_BASE64 = Base64HighEntropyString(limit=4.0)
_HEXES = HexHighEntropyString(limit=3.0)
#: The kinds the generic rules give (a keyword next to a value, a high-entropy token):
#: the learned layer may veto them, never a provider's own shape.
GENERIC_RULE_KINDS = frozenset([KEYWORD_KIND, _BASE64.secret_type, _HEXES.secret_type])
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
_URL_CREDENTIALS = re.compile(
    r"\b[a-z][a-z0-9+.-]*://(?:[^\s:/@]*@)?[^\s:/@]*:(?P<pw>[^\s/@]{3,})@[\w.-]+", re.I
)


#: A part of an identifier: a word written small or capitalised ("add", "Custody"), or a number.
_IDENTIFIER_PART = re.compile(r"[A-Z][a-z]{2,}|[a-z]{3,}|\d+")


def _words_joined(token: str) -> bool:
    """Whether ``token`` is an identifier joined from words and numbers, each word of
    three letters or more, written small or capitalised (a migration's name
    ``20260919_AddCustodyEvents``, ``get_user_by_id_v2``, ``OrderPlacedEventHandler2``):
    what code names, never a key. Random key bytes almost never split into such words:
    two capitals or a capital and a digit side by side, or a lone lower-case letter
    between them, break the run (``9fQ2xL7vR4kT1mZ8``)."""
    parts = [p for p in re.split(r"[_-]", token) if p]
    if not parts:
        return False
    words = 0
    for part in parts:
        pieces = _IDENTIFIER_PART.findall(part)
        if "".join(pieces) != part:
            return False
        words += sum(1 for piece in pieces if not piece.isdigit())
    return words >= 2


def _classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


#: Public object ids of payment APIs (``cus_...``, ``price_...``): names, not credentials.
_OBJECT_ID = re.compile(
    r"^(?:(?:cus|price|prod|sub|si|acct|pi|ch|in|ii|txn|evt|pm|seti|cs|plink|po|tr|re|cn|ba|card|src|tok"
    r"|ord|we|file|link|pyr|dp|du|il|btok|setatt|py|pst|trr|mbur|ich|bpc|ipi|prv|ph|cbtxn)_[A-Za-z0-9]{8,}"
    # the shape of any Stripe-style object id: a short prefix, then a shard digit and a capital
    r"|[a-z]{2,6}_[0-9][A-Z][A-Za-z0-9]{12,28})$"
)
#: A filled-in example value: a run of X, x, * or 0 where the random part would be.
_MASKED = re.compile(r"(?:X{6,}|x{6,}|\*{4,}|0{10,}|•{4,}|\.{3,}|…)")
#: Keys that are public by design: publishable payment keys, map tokens, captcha site keys.
_PUBLIC_KEY = re.compile(r"^(?:pk_(?:live|test)_|pk\.|rk_test_|sk_test_)")


def _in_angle_brackets(line: str, value: str | None) -> bool:
    """A value inside ``<...>`` is a description of one (``<set in 1Password: 'Admin'>``)."""
    at = line.find(value) if value else -1
    if at < 0 or not value:
        return False
    if re.search(r"=\s*[\"']?$", line[:at]):
        return False  # an XML attribute value: <add key="SmtpPassword" value="..." />
    opened = line.rfind("<", 0, at + 1)
    return opened >= 0 and ">" not in line[opened:at] and ">" in line[at + len(value) :]


def _named_as_id(line: str, value: str | None) -> bool:
    """A plugin hit that the text names as an id ("Account SID AC...", "client_id: ...")."""
    at = line.find(value) if value else -1
    return at > 0 and bool(
        re.search(r"(?i)\b(?:s?id|ids)\b\s*[:=]?\s*[\"']?$", _words_of(line[max(0, at - 30) : at]))
        and not re.search(r"(?i)key|token|secret", line[max(0, at - 30) : at])
    )


def _token_around(line: str, value: str | None) -> str:
    """The whole token of ``line`` holding ``value`` (a plugin may report only a prefix)."""
    if not value:
        return ""
    at = line.find(value)
    if at < 0:
        return value
    start, end = at, at + len(value)
    stop = " \t\"'`,;()<>[]{}"
    while start > 0 and line[start - 1] not in stop:
        start -= 1
    while end < len(line) and line[end] not in stop:
        end += 1
    return line[start:end].split("=", 1)[-1] if "=" in line[start:at] else line[start:end]


def _example_value(value: str) -> bool:
    """A documented placeholder, a masked key or a public key, not a credential."""
    return bool(
        value and (_PLACEHOLDER.match(value) or _MASKED.search(value) or _PUBLIC_KEY.match(value))
    )


#: What detect-secrets' indirect-reference regex needs at the least: a name, then ``(`` or ``[``.
_CALL_OR_INDEX = re.compile(r"[\w.-][\[(]")


def is_indirect_reference(line: str) -> bool:
    """detect-secrets' ``get_secret("x")`` filter (``heuristic.is_indirect_reference``),
    registered in its place: its regex backtracks over the whole line, so a line without a
    call or an index is answered without it. Same answers."""
    return bool(_CALL_OR_INDEX.search(line)) and heuristic.is_indirect_reference(line)


@functools.lru_cache(maxsize=1024)
def _indirect_reference(line: str) -> bool:
    """The same filter for our own candidates; lines repeat."""
    return is_indirect_reference(line)


def _filtered_out(value: str, line: str) -> bool:
    """detect-secrets' heuristic filters, as its own scan applies them to a candidate."""
    return (
        _example_value(value)
        or bool(_OBJECT_ID.match(value))
        or heuristic.is_sequential_string(value)
        or heuristic.is_potential_uuid(value)
        or heuristic.is_templated_secret(value)
        or heuristic.is_prefixed_with_dollar_sign(value)
        or heuristic.is_likely_id_string(value, line)
        or _indirect_reference(line)
        or heuristic.is_not_alphanumeric_string(value)
    )


_EXAMPLE_WORD = re.compile(
    r"example|placeholder|dummy|sample|changeme|change_me|replace_?me|do_?not_?use|not_?real|your_|insert"
    r"|redacted",
    re.IGNORECASE,
)


def _credential_like(value: str, *, quoted: bool, line: str, password: bool = False) -> bool:
    """A value after a credential keyword that is plausibly the credential itself.

    After a password word (``password``, ``senha``, ``PIN`` ...) and a real separator a
    four-digit number or an id-shaped value is the password ("Minha senha do banco é
    73915", ``password 10d8e14c-...``); after other keywords they are ids."""
    value = value.strip().rstrip(".,;:!?)")
    if _EXAMPLE_WORD.search(value):
        return False
    if password and re.fullmatch(r"\d{4,12}", value):
        return True
    if len(value) < (4 if quoted else 6) or _PLACEHOLDER.match(value):
        return False
    if re.match(r"(?i)(?:sha\d*|md5|blake\w*)[:-]", value) or _PATH.fullmatch(value):
        return False  # SHA256:... is a fingerprint, uploads/2024/06/x.jpg a path
    if len(value) >= 16 and _decodes_to_words(value):
        return False  # base64 of a path, a CSV, a sentence: an encoding, not a key
    if password and heuristic.is_potential_uuid(value):
        return True
    if (
        _filtered_out(value, line)
        or _CODE_REFERENCE.match(value)
        or _SECRET_REFERENCE.search(value)
        or _in_angle_brackets(line, value)
    ):
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
        if _ID_CONTEXT.search(_words_of(line[max(0, m.start() - 30) : m.end("kw")])):
            continue  # "Idempotency-Key: ...", "site key ...": an id
        quoted = m.group("q") is not None
        value = m.group("value")
        bare = m.group("sep") is not None and not m.group("sep").strip()
        if not quoted and bare:
            # no "is" / "=" / ":" between keyword and value ("pw espresso-doppio-7"): only a
            # value shaped like a password, never an ordinary word
            bare_value = value.rstrip(".,;:!?)")
            if (
                len(bare_value) >= 8
                and _classes(bare_value) >= 3
                and _credential_like(value, quoted=False, line=line)
            ):
                return True
            if (  # .netrc: "password 10d8e14c-9fb2-..."
                _PASSWORD_KW.fullmatch(m.group("kw"))
                and len(bare_value) >= 16
                and heuristic.is_potential_uuid(bare_value)
            ):
                return True
            if (  # "secret 803cb98dc935deae6d00": a long random value after a key word
                _KEY_WORD.fullmatch(m.group("kw"))
                and len(bare_value) >= 16
                and _credential_like(value, quoted=False, line=line)
            ):
                return True
            continue
        password = bool(_PASSWORD_KW.fullmatch(m.group("kw"))) and not bare
        if _credential_like(value, quoted=quoted, line=line, password=password):
            return True
    return False


_PASSPHRASE = re.compile(
    r"(?<![A-Za-z])(?:pass ?phrase|seed phrase|recovery phrase|mnemonic)(?:\s+[^\s:=]+){0,5}?\s*(?:is|:|=)\s*"
    r"(?P<value>(?:[A-Za-z0-9]+\s+){3,}[A-Za-z0-9]+)",
    re.IGNORECASE,
)


def _passphrase(line: str) -> bool:
    return any(not _PLACEHOLDER.match(m.group("value")) for m in _PASSPHRASE.finditer(line))


#: Base64 of a file starts with its signature: PNG, GIF, JPEG, PDF, zip, gzip, RIFF, WOFF2.
_ENCODED_FILE = re.compile(r"^(?:iVBORw0KGgo|R0lGOD|/9j/|JVBERi0|UEsDB|H4sI|UklGR|d09GMg)")


def _decodes_to_words(token: str) -> bool:
    """Base64 of text (a greeting, JSON, CSV, an SVG; also a truncated one) is an encoding,
    not a key: random key bytes almost never decode to printable UTF-8."""
    token = re.sub(r"^[\w-]+=(?=[A-Za-z0-9+/])", "", token)  # "cursor=eyJ..." is key=value
    raw = token.replace("-", "+").replace("_", "/").rstrip("=")
    raw = raw[: len(raw) - len(raw) % 4] if len(raw) % 4 == 1 else raw + "=" * (-len(raw) % 4)
    try:
        text = base64.b64decode(raw, validate=True).decode("utf-8", errors="strict")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        try:  # a truncated encoding may end inside a character
            text = base64.b64decode(raw[: len(raw) - len(raw) % 4 - 4], validate=True).decode(
                "utf-8"
            )
        except (binascii.Error, ValueError, UnicodeDecodeError):
            return False
    if len(text) < 8 or re.fullmatch(r"[\w.@+-]{1,64}:[^\s:,=]{4,64}", text):
        return False  # "ci-bot:s2a5E7..." is a user:password pair, not text
    if not re.search(r"\s", text) and _looks_random(text, pw=True):
        return False  # base64 of a password (a Kubernetes Secret's data): still the secret
    printable = sum(1 for c in text if c.isprintable() or c in "\n\r\t")
    letters = sum(1 for c in text if c.isalpha())
    words = sum(1 for c in text if c.isalnum())
    # text, or a table of numbers (CSV, a log): random bytes are almost never all printable
    return printable == len(text) and (
        letters >= 0.3 * len(text)
        or (letters >= 3 and words >= 0.5 * len(text) and bool(re.search(r"[,;\t\n ]", text)))
    )


#: Ids that look random by design: trace, span, request and event ids, ksuids, site keys.
_ID_CONTEXT = re.compile(
    r"\b(?:trace|span|request|correlation|event|message|ksuid|ulid|uuid|guid|snowflake|site ?key|sitekey"
    r"|publishable|public|idempotency|playlist|track|video|channel|file|doc|document|folder|sheet"
    r"|spreadsheet|form|album|post|item|record|asset|image|photo|run|job|task|workflow|board|issue)"
    r"(?: ?ids?)?\b",
    re.IGNORECASE,
)


def _words_of(text: str) -> str:
    """``targetRevision``, ``GIT_SHA``, ``data-sitekey`` read as words for the context rules."""
    return re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ").replace("-", " ")


#: Public keys and certificates are meant to be shared: an ``authorized_keys`` line, a PEM
#: block of a public key or a certificate.
_SSH_PUBLIC_KEY = re.compile(
    r"\b(?:ssh-(?:rsa|dss|ed25519)|(?:sk-)?ecdsa-sha2-\S+|sk-ssh-\S+)\s+AAAA"
)
#: A whole ``authorized_keys``-style public key, comment included: shared by design, so no
#: rule and not the learned layer reads it.
_SSH_PUBLIC_KEY_TOKEN = re.compile(
    r"\b(?:ssh-(?:rsa|dss|ed25519)|(?:sk-)?ecdsa-sha2-\S+|sk-ssh-\S+)\s+AAAA[A-Za-z0-9+/]+=*"
    r"(?:\s+[\w.+-]+@[\w.-]+)?"
)
#: A PEM block whose body is prose, not base64 ("...paste your key file here..."): a
#: template of a key, not one. A block with no body at all still counts (a pasted header).
_PEM_TEMPLATE = re.compile(
    r"-----BEGIN (?P<what>[A-Z0-9 ]+)-----(?P<body>(?:(?!-----)[\s\S])*?)-----END (?P=what)-----"
)


def _pem_template(m: re.Match[str]) -> str:
    body = m.group("body").replace("\\n", "\n")
    if body.strip() and not re.search(r"[A-Za-z0-9+/=]{16,}", body):
        return "(a key template)"
    return m.group(0)


_PUBLIC_BLOCK = re.compile(
    r"-----BEGIN (?P<what>(?:[A-Z]+ )*(?:PUBLIC KEY|CERTIFICATE|PUBLIC KEY BLOCK))-----.*?"
    r"(?:-----END (?P=what)-----|\Z)",
    re.DOTALL,
)


#: Query parameters that name media, lists, pages and tracking ids, never a credential.
_URL_ID_PARAM = re.compile(
    r"v|vi|list|index|idx|id|ids|t|p|pp|page|q|query|search|feature|si|ref|lang|hl|start|end"
    r"|playlist|video|track|album|artist|item|post|story|photo|set|album_id|gclid|fbclid|dclid"
    r"|msclkid|mc_eid|igshid|utm_\w+|(?!sess)\w+_id",
    re.IGNORECASE,
)


def _entropy_hits(line: str) -> list[str]:
    kinds: list[str] = []
    if _SSH_PUBLIC_KEY.search(line):
        return kinds
    for m in _TOKEN.finditer(line):
        token = m.group(0)
        before = line[max(0, m.start() - 40) : m.start()]
        pair = re.match(r"^([A-Za-z_][\w-]*)=(?=[A-Za-z0-9+/])", token)
        if pair:  # GIT_SHA=c064..., trace_id=6b0b...: judge the value, with its key as context
            before += pair.group(1) + "="
            token = token[pair.end() :]
            if _URL_ID_PARAM.fullmatch(pair.group(1)) and re.search(r"[?&]$", line[: m.start()]):
                continue  # ?v=...&list=PL...&index=4: a media, list or page id in a URL
            if re.search(r"pass|pwd|secret|token|key|auth|sess|cookie", pair.group(1), re.I):
                if _credential_like(token, quoted=False, line=line, password=True):
                    kinds.append(KEYWORD_KIND)  # PGPASSWORD=..., PHPSESSID=...
                continue
        if (
            _filtered_out(token, line)
            or _PLACEHOLDER.match(token)
            or token.startswith("/")
            or _ENCODED_FILE.match(token)
            or _PATH.fullmatch(token)
        ):
            continue  # a leading slash makes it a path (/srv/app/releases/...), not a key
        words = _words_of(before)
        if (
            _ID_CONTEXT.search(words)
            or re.search(r"base64,$", before)
            or re.search(r"(?i)\b(?:s?id|ids)\s*[:=]?\s*[\"']?$", words)
        ):
            continue  # an id by what precedes it, the payload of a data: URI
        if _HEX.match(token):
            after = line[m.end() : m.end() + 30]
            if (
                _DIGEST_CONTEXT.search(words)
                or _DIGEST_CONTEXT.search(_words_of(line[: m.start()]))
                or _DIGEST_CONTEXT.search(after)  # "b25f... is the first bad commit"
                or re.search(r"(?:@|#|\b(?:h1|zh):|\burn:[\w.-]+:(?:[\w.-]+:)?)$", before)
                # a pinned git ref, a lock-file hash, a content address (urn:btih:, urn:sha1:)
                or re.match(
                    r"(?:  ?| \*)[\w.-]*/[\w./-]+|  \S", after
                )  # "<sha>  file", "<sha> vendor/x"
            ):
                continue
            mixed = any(c.isalpha() for c in token) and any(c.isdigit() for c in token)
            if mixed and _HEXES.calculate_shannon_entropy(token) > _HEXES.entropy_limit:
                kinds.append(_HEXES.secret_type)
        elif (
            _BASE64_DIGEST_CONTEXT.search(before)
            or _BASE64_DIGEST_PREFIX.match(token)
            or re.search(r"\burn:[\w.-]+:(?:[\w.-]+:)?$", before)
        ):
            continue  # an SSH fingerprint, a subresource integrity value, a go.sum hash
        elif (
            len(token) >= 24
            and _classes(token.replace("-", "").replace("_", "")) >= 3
            and any(c.isdigit() for c in token)
            and _BASE64.calculate_shannon_entropy(token) > _BASE64.entropy_limit
            and not _decodes_to_words(token)
            and not _words_joined(token)
        ):
            kinds.append(_BASE64.secret_type)
    return kinds


def _url_credentials(line: str) -> bool:
    for m in _URL_CREDENTIALS.finditer(line):
        pw = m.group("pw")
        if not (_PLACEHOLDER.match(pw) or heuristic.is_templated_secret(pw)):
            return True
    return False


# ---------------------------------------------------------------------------------------
# General mechanisms. The rules above grew one shape at a time; these state the shapes
# once, so a form nobody listed is still read: a credential word in any of ~20 languages
# followed (within a few words, or on the next line of a config) by a value that looks
# like a credential; a provider-style prefix on a random tail; credentials in any
# connection string; an Authorization header of any scheme. Every candidate value passes
# the same look-alike checks (placeholders, masked or templated values, references to a
# secret store, digests, UUIDs, ids, base64 of text, public keys).

#: A password, a PIN or a login secret: after these any non-trivial value is the secret.
_GEN_PW_WORDS = (
    r"pass(?:word|wd|phrase|code)?s?|pwd|pw|pin|pincode|credentials?|creds|log ?in(?:to)?|sign ?in(?:to)?"
    r"|contrase(?:ñ|n)as?|clave|senhas?|palavra[- ]passe|mot de passe|mdp|passwort|kennwort"
    r"|wachtwoord\w*|parola d'ordine|has(?:ł|l)\w*|(?:ş|s)ifre\w*|parol(?:a|ă|ası|asi)"
    r"|парол\w*|пин-код\w*|l(?:ö|o)senord\w*|adgangskode\w*|passord\w*|kodeord\w*|salasan\w*"
    r"|hesl\w*|jelsz\w*|κωδικ\w*|συνθηματικ\w*|סיסמ\w*|पासवर्ड|mật khẩu|kata sandi|kata laluan"
    r"|contrasenya|รหัสผ่าน|رمز عبور|passwor\w*|kennw\w*|lozink\w*|лозинк\w*|gesl(?:o|a|om)|(?:š|s)ifr\w*"
    r"|parool\w*|salas(?:õ|o)na\w*|parole|slapta(?:ž|z)od\w*|nenosiri|পাসওয়ার্ড|கடவுச்சொல்"
    r"|zugangsdaten|identifiants|credenciales|credenziali|inloggegevens"
    r"|(?:zugangs|toegangs|adgangs|tür|deur|access|entry|security|door|gate|alarm)[ -]?code"
    r"|c(?:ó|o)digo de acce(?:s)?so|code d'acc(?:è|e)s|codice di accesso|kod dost(?:ę|e)pu|eri(?:ş|s)im kodu"
    r"|код\w* доступа|пин-код\w*|كلمة (?:ال)?(?:سر|مرور)|رمز (?:ال)?(?:دخول|سري)"
    r"|密码|密碼|口令|パスワード|暗証番号|비밀번호|암호|كلمة المرور|كلمة السر|كلمة مرور"
)
#: A key, a token or a secret: after these the value must look random.
_GEN_KEY_WORDS = (
    r"(?:api|access|secret|private|signing|encryption|master|license|licence|auth|app|client"
    r"|consumer|webhook|hmac|session|bearer|refresh|bot|deploy|service|account)?[ _-]?"
    r"(?:keys?|tokens?|secrets?)|apikey|bearer|cookie|session ?id|signature|sig|pat"
    r"|personal access token"
    r"|llave|cl(?:é|e)|jeton|schl(?:ü|u)ssel|geheimnis|chave|segredo|chiave|segreto|sleutel"
    r"|geheim|klucz|anahtar(?:ı)?|ключ|токен|секрет|nyckel|nøgle|avain|kulcs"
    r"|密钥|秘钥|令牌|トークン|シークレット|キー|토큰|키|مفتاح|رمز"
)
_GEN_WORD = re.compile(
    r"(?:(?<![^\W_])|(?-i:(?<=[a-z])(?=[A-Z]))|(?=[\u3000-\u9fff\uac00-\ud7af\u0600-\u06ff]))"
    r"(?:(?P<pw>" + _GEN_PW_WORDS + r")|(?P<key>" + _GEN_KEY_WORDS + r"))"
    r"(?:(?![^\W_])|(?-i:(?<=[a-z])(?=[A-Z]))|(?<=[\u3000-\u9fff\uac00-\ud7af\u0600-\u06ff]))",
    re.IGNORECASE,
)
#: A word that makes the next value an id, a name or a number, not the secret.
_GEN_ID_WORD = re.compile(
    r"(?:\b(?:ids?|user(?:name)?|usuario|utilisateur|benutzer|utente|gebruiker|login|account"
    r"|email|e-mail|mail|number|no\.?|nr\.?|order|ref(?:erence)?|sku|serial|tracking|invoice"
    r"|ticket|booking|confirmation|fingerprint|version|host|port|region|zone|user ?id|uid)"
    r"|用户名|ユーザー|아이디)\s*(?:is|:|=|#)?\s*$",
    re.IGNORECASE,
)
_GEN_VALUE = re.compile(
    r"(?:[^\s\"'`,;()<>\[\]{}|&\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]|&(?!\w+=))+"
)
#: References to a secret kept elsewhere: the text names it, it does not hold it.
_SECRET_REFERENCE = re.compile(
    r"os\.environ|process\.env|getenv|\bENV\[|\benv\(|\bvault:|op://|secretsmanager|ssm:"
    r"|secretKeyRef|valueFrom|@Value\(|!secret\b|\bsecrets\.\w|\$\(|\$\{|\{\{|%\(\w+\)s|%\w+%"
    r"|\bENC\[|\$ANSIBLE_VAULT|!vault\b|BEGIN PGP MESSAGE",  # encrypted: not the secret in clear
    re.IGNORECASE,
)
_CODE_REFERENCE = re.compile(
    r"^(?:(?:settings|config|conf|cfg|env|os|process|self|this|app|secrets|vault|params|options|args"
    r"|credentials|creds|st\.secrets)\.[\w.\[\]'\"]+|(?:[a-z_]\w*\.)+(?:[A-Z][A-Z0-9_]+|[a-z]+_[a-z_]+))$"
)
#: A path: two or more slashes and a segment that is a word or a number (uploads/2024/06/x).
_PATH = re.compile(r"(?=.*(?:^|/)(?:[a-z]{3,}|\d+)(?:/|$))[\w.-]+(?:/[\w.-]+){2,}/?")
_HOST_OR_FILE = re.compile(r"^[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,6}$")


def _entropy(value: str) -> float:
    return _BASE64.calculate_shannon_entropy(value)


_TIMESTAMP = re.compile(
    r"\d{2,4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?"
)
#: A redaction marker in any bracket: [FILTERED], [REDACTED], <hidden>, (removed), ***.
_REDACTION = re.compile(
    r"[\[<({]?\s*(?:filtered|redacted|redact|hidden|removed|omitted|masked|scrubbed|censored"
    r"|sanitized|elided|obfuscated|withheld|secret|sensitive|private|not shown)\s*[\])>}]?"
    r"|\*{3,}|•{3,}|x{4,}|X{4,}",
    re.IGNORECASE,
)


def _redacted(value: str) -> bool:
    return bool(_REDACTION.fullmatch(value.strip(".,;:!?\"'`")))


#: words of letters joined as a name joins them ("ops_admin", "Ulivo.Verde", "camelCaseName"):
#: each after the first starts with a capital or follows a "-", "_" or "."; written so that
#: a string has one way to match (the nested form "(?:[A-Z]?[a-z]+[-_.]?)+" tried every split
#: of a long lower-case run before failing: exponential, a review stalled for minutes on one
#: pasted line)
_WORDS_JOINED = re.compile(r"[A-Z]?[a-z]+(?:(?:[-_.][A-Z]?|[A-Z])[a-z]+)*[-_.]?")


def _looks_random(value: str, *, pw: bool) -> bool:
    """A value that can only be a credential, judged by its shape alone.

    ``pw`` (after a password word) accepts a human password ("Tr0ut!Lake2024",
    "pelican-harbor-73"); otherwise the value must look machine-made (16+ characters of
    mixed classes, or a 16+ hex key)."""
    v = value.strip(".,;:!?)(\"'`*#")
    v = re.sub(r"^[A-Za-z_][\w.-]*=", "", v)  # host=db1: a pair, judged by its value
    if len(v) < 8 or len(v) > 400:
        return False
    if (
        "://" in v
        or re.search(r"@[\w-]+\.[A-Za-z]{2,}", v)
        or v[0] in "/~.\\@$%"
        or _HOST_OR_FILE.match(v)
        or _PATH.fullmatch(v)
        or _ENCODED_FILE.match(v)
        or re.match(r"(?i)(?:sha\d*|md5|blake\w*)[:-]", v)  # SHA256:..., sha512-...: a digest
        or re.fullmatch(r"[vV]?\d+(?:[./:,-]\d+)+[\w.+-]*", v)  # versions, dates, times
        # words joined to a number's plural or ordinal: an age group or a rank
        # ("under-15s", "over-60s", "top-3rd"), never a key
        or re.fullmatch(r"(?:[A-Za-z]+-)+\d{1,4}(?:s|st|nd|rd|th)", v)
        or _TIMESTAMP.fullmatch(v)  # 2025-11-30T10:14:22Z, a log line's time
        or _example_value(v)
        or _OBJECT_ID.match(v)
        or heuristic.is_sequential_string(v)
        or heuristic.is_templated_secret(v)
        or _SECRET_REFERENCE.search(v)
        or _CODE_REFERENCE.match(v)
        or _EXAMPLE_WORD.search(v)
        or (len(v) >= 16 and _decodes_to_words(v))
    ):
        return False
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", v):
        return False  # an UPPER_SNAKE name (AES256_GCM, DB_PASSWORD_2)
    letters = sum(c.isalpha() for c in v)
    digits = sum(c.isdigit() for c in v)
    upper = any(c.isupper() for c in v)
    lower = any(c.islower() for c in v)
    symbols = {c for c in v if not c.isalnum()}
    if _HEX.match(v) or re.fullmatch(r"[0-9a-f]{16,}", v):
        return not pw or len(v) >= 16  # a hex key; digests were set aside by their context
    if heuristic.is_potential_uuid(v):
        return pw  # .netrc "password 10d8e14c-..."; elsewhere a UUID is an id
    if digits == len(v) or letters < 2:
        return False  # numbers are PINs or ids: the code rules judge them
    if not digits:
        # letters and symbols: "Ulivo$Verde" is a password, "ops_admin" a name; a long
        # mixed-case run of letters is a random key ("UOfHoUSDAgqtTwi3...")
        if pw and upper and lower and symbols - set("-_."):
            return True
        return (
            len(v) >= 20
            and upper
            and lower
            and not _WORDS_JOINED.fullmatch(v)
            and _entropy(v) >= 3.5
        )
    if len(v) >= 16 and _entropy(v) >= 3.5 and (upper + lower + bool(symbols) + 1) >= 2:
        return True  # a machine-made key
    if not pw:
        return False
    inner_digit = any(c.isdigit() for c in v[1:-1])
    return ((upper and lower) or bool(symbols) or len(v) >= 10) and (
        bool(symbols) or digits >= 2 or inner_digit
    )


def _after(text: str, end: int) -> str:
    """The value region after a credential word: the rest of its line, or the next line
    when the word ends its line (``- name: DB_PASSWORD`` / ``value: ...``)."""
    nl = text.find("\n", end)
    rest = text[end : nl if nl >= 0 else len(text)]
    if nl >= 0 and not re.sub(r"[\s:=\"'`,{}\[\]-]", "", rest):
        nxt = text.find("\n", nl + 1)
        rest += " " + text[nl + 1 : nxt if nxt >= 0 else len(text)]
    return rest[:120]


_EXPLICIT_SEPARATOR = re.compile(
    r"\s*(?:[:=：]|\b(?:is|es|est|ist|lautet|é|è|er|är|jest|to)\b|是|は|は、|：)", re.IGNORECASE
)


def _keyed_password(value: str) -> bool:
    """After "WLAN-Schlüssel:", "Clé WPA :", "API key is" a human password is the secret too
    ("Sonnenblume#4711"), when it is unmistakably one: both cases or a real symbol, and a
    digit ("cache key: user-profile-v2" is a name)."""
    v = value.strip(".,;:!?)(\"'`")
    has_cases = any(c.isupper() for c in v) and any(c.islower() for c in v)
    special = bool({c for c in v if not c.isalnum()} - set("-_."))
    return (has_cases or special) and _looks_random(v, pw=True)


_QUOTED_PHRASE = re.compile(r"[\"'‘“«]([^\"'’”»\n]{8,64})[\"'’”»]")


#: A generated app password: four groups of four letters ("abcd efgh ijkl mnop").
_APP_PASSWORD = re.compile(r"(?<![\w-])[a-z]{4}(?:[ -][a-z]{4}){3}(?![\w-])")


def _quoted_phrase(region: str) -> bool:
    """A quoted passphrase after a password word ("changed to 'Lighthouse Keeper 1987'")."""
    for q in _QUOTED_PHRASE.finditer(region[:80]):
        phrase = q.group(1).strip()
        if (
            phrase.count(" ") >= 2
            and re.search(r"[\d!#$%&*+=?@^~]", phrase)
            and not (_example_value(phrase) or _EXAMPLE_WORD.search(phrase))
            and not _SECRET_REFERENCE.search(phrase)
        ):
            return True
    return False


_SAID_PUBLIC = re.compile(
    r"\b(?:public|publishable|not (?:a )?secret|safe to (?:share|expose|publish)|client-side)\b",
    re.IGNORECASE,
)
_CAMEL_NAME = re.compile(r"[A-Za-z][a-z]+(?:[A-Z][a-z]+|[A-Z]{2,4})*[0-9]{0,2}")


def _general_word_hits(text: str) -> str | None:
    for m in _GEN_WORD.finditer(text):
        pw = m.group("pw") is not None
        if text[m.start() - 1 : m.start()].isalpha() and m.group(0).isascii():
            # a camelCase part counts only inside a camelCase name (SmtpPassword,
            # accessToken), not inside a random token ("...MinPbPw")
            left = re.search(r"[A-Za-z0-9]*$", text[: m.start()])
            right = re.match(r"[A-Za-z0-9]*", text[m.end() :])
            name = (left.group(0) if left else "") + m.group(0) + (right.group(0) if right else "")
            if not _CAMEL_NAME.fullmatch(name):
                continue
        chunk = text[: m.start()].rsplit(None, 1)[-1] if text[: m.start()].strip() else ""
        if ("/" in chunk or text[m.start() - 1 : m.start()] == ".") and text[
            m.end() : m.end() + 1
        ] not in ("=", ":"):
            continue  # a path, a branch or a host name (/login?state=..., feat/password-reset)
        if not pw and re.match(r"\s*(?:ids?|name|names|fingerprint)\b", text[m.end() :], re.I):
            continue  # "key id", "token name"
        before = _words_of(text[max(0, m.start() - 30) : m.start()])
        if _ID_CONTEXT.search(before + " " + m.group(0)) and not pw:
            continue  # "publishable key", "site key", "idempotency key"
        first = re.match(r"\s*(?:[:=]|is\b)?\s*[\"']?([^\s\"',;]+)", text[m.end() : m.end() + 60])
        if first and _redacted(first.group(1)):
            continue  # "password=[FILTERED]", "token: <hidden>": the log withheld it
        if pw:  # "Use hunter2-Blue as the login", "Copper!Fern81 is the VPN password"
            back = text[max(0, m.start() - 40) : m.start()].rsplit("\n", 1)[-1]
            if any(_looks_random(v.group(0), pw=True) for v in _GEN_VALUE.finditer(back)):
                return KEYWORD_KIND
        region = _after(text, m.end())
        if pw and (_quoted_phrase(region) or _APP_PASSWORD.search(region[:60])):
            return PASSPHRASE_KIND
        explicit = _EXPLICIT_SEPARATOR.match(region)
        if _SECRET_REFERENCE.search(region[:60]):
            continue
        k = -1
        for v in _GEN_VALUE.finditer(region):
            value = v.group(0).lstrip("=:")
            if not value:
                continue
            k += 1
            if k >= 8:
                break
            if _GEN_ID_WORD.search(region[: v.start()]) or value.startswith("/"):
                continue
            if not pw and _SAID_PUBLIC.search(region[: v.start()]):
                break  # "write key is public in the browser snippet: ..."
            human = pw
            pair = re.match(r"^([A-Za-z_][\w.-]*)=", value)
            if pair:  # "sessionid=...; csrftoken=..." after "Cookie": machine-made values only
                if re.search(
                    r"(?i)(?:^|[_.-])(?:s?id|name|user|host|port|mode|type)$", pair.group(1)
                ):
                    continue
                value, human = value[pair.end() :], False
            if _looks_random(value, pw=human):
                return KEYWORD_KIND
            if k == 0 and explicit and _keyed_password(value):
                return KEYWORD_KIND
    return None


#: A provider-style key: a short lowercase prefix, optional segments, a random tail
#: (``shpat_...``, ``dop_v1_...``, ``glsa_...``, ``lin_api_...``, ``xyz_live_...``).
_GEN_PREFIXED = re.compile(
    r"(?<![\w.@/:+-])(?P<prefix>[A-Za-z]{2,8})(?P<mid>(?:[_-][A-Za-z0-9]{1,6}){0,2})[_-]"
    r"(?P<tail>[A-Za-z0-9_-]{20,})(?![\w/+=])"
)
_KEYISH_SEGMENT = re.compile(
    r"(?:^|[_-])(?:live|test|prod|api|pat|key|sk|token|secret|access|auth|v\d)$", re.I
)
_NOT_KEY_PREFIX = re.compile(
    r"^(?:sha\d*|md5|crc\d*|blake\d*|pk|pub|public|id|uuid|ulid|req|evt|sub|ch|cus|acct|txn|order|inv|ref|build|rev|v)$",
    re.IGNORECASE,
)


def _prefixed_key(text: str) -> bool:
    for m in _GEN_PREFIXED.finditer(text):
        tail = m.group("tail").strip("_-")
        token = m.group(0)
        if (
            _NOT_KEY_PREFIX.match(m.group("prefix"))
            or _OBJECT_ID.match(token)
            or _example_value(token)
            or not any(c.isdigit() for c in tail)
            or not any(c.isalpha() for c in tail)
            or "--" in tail
            or tail.count("-") + tail.count("_") > len(tail) // 6
            or _ID_CONTEXT.search(_words_of(text[max(0, m.start() - 30) : m.start()]))
        ):
            continue
        keyish = _KEYISH_SEGMENT.search(m.group("prefix") + m.group("mid"))
        if (len(tail) >= 30 or keyish) and _entropy(tail) >= 3.3:
            return True
    return False


#: ``Authorization: <scheme> <credentials>`` of any scheme, and the API-key headers.
_AUTH_HEADER = re.compile(
    r"(?:\b(?:proxy-)?authori[sz]ation\b(?:\s+header)?|\b[Xx]-[\w-]*?(?:key|token|secret|auth|signature|session)[\w-]*"
    r"|\b(?:private|api|access|auth)-(?:token|key)\b|\bapi[-_]?key\b)"
    r"\s*[:=]\s*[\"']?(?:(?P<scheme>[A-Za-z][\w-]*)\s+)?(?P<value>[^\s\"',;]{8,})",
    re.IGNORECASE,
)


def _auth_header(text: str) -> bool:
    for m in _AUTH_HEADER.finditer(text):
        value = m.group("value").rstrip(".")
        if (
            _example_value(value)
            or _SECRET_REFERENCE.search(value)
            or heuristic.is_templated_secret(value)
        ):
            continue
        if _ID_CONTEXT.search(_words_of(m.group(0))):
            continue  # Idempotency-Key, X-Request-Id: ids, not credentials
        if _looks_random(value, pw=True):
            return True
        if m.group("scheme") and "author" in m.group(0).lower():
            rest = text[m.start("value") : text.find("\n", m.start("value")) % (len(text) + 1)]
            if any(
                _looks_random(v.group(0).split("=")[-1], pw=False)
                for v in _GEN_VALUE.finditer(rest)
            ):
                return True  # Digest username="...", response="6629fae4..."
    return False


#: Credentials in connection strings without ``scheme://``: Oracle ``user/pw@host``,
#: ``curl -u user:pw``, command-line flags (``--password x``, ``mysql -pX``), a login
#: pasted as ``<e-mail> / <password>``.
_CONNECT_FORMS = re.compile(
    r"(?<![\w/.-])[A-Za-z_][\w.-]*[/:](?P<pw1>[^\s/@:]{4,})@(?://)?[\w-]+\.[\w.-]+"
    r"|(?:\s-u|--user)\s+[^\s:]+:(?P<pw2>[^\s\"']{4,})"
    r"|(?:\s--(?:password|passwd|pass|pwd|token|secret|api[-_]key|auth[-_]token|access[-_]token)[= ]"
    r"|\bmysql\S*\s.*?\s-p|\bredis-cli\s.*?\s-a\s+"
    r"|\b(?:admin|root|administrator|superuser|sa|postgres|ubuntu|pi)\s+/\s+)"
    r"[\"']?(?P<pw3>[^\s\"']{4,})"
    # a login written as "<e-mail> / <password>", as people paste one
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*/\s*(?P<pw4>[^\s\"'/]{6,})",
    re.IGNORECASE,
)


def _connect_forms(text: str) -> bool:
    for m in _CONNECT_FORMS.finditer(text):
        if m.group("pw4"):
            # after an e-mail address only a value shaped like a password counts (not a
            # phone number, a date or a second address)
            if _looks_random(m.group("pw4"), pw=True) and not _example_value(m.group("pw4")):
                return True
            continue
        value = m.group("pw1") or m.group("pw2") or m.group("pw3")
        if not value or _example_value(value) or _SECRET_REFERENCE.search(value):
            continue
        if _looks_random(value, pw=True) or (
            m.group("pw3") and len(value) >= 6 and any(c.isdigit() for c in value)
        ):
            return True
    return False


#: A value assigned a few lines after a name that says it is a credential (Terraform
#: ``variable "db_password" { default = "..." }``, Kubernetes ``- name: API_TOKEN`` /
#: ``value: ...``, XML ``<key>password</key><string>...</string>``).
_NAMED_VALUE = re.compile(
    r"(?P<name>[\w.-]*(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|private[_-]?key|credential)[\w.-]*)"
    r"[\"']?\s*(?:\{|</\w+>|\n)(?:[^\n]*\n){0,3}?[^\n]*?\b(?:value|default|val|string|data)\b[\"']?"
    r"\s*(?:[:=>]|=>)\s*[\"']?(?P<value>[^\s\"'<>]{4,})",
    re.IGNORECASE,
)


def _named_values(text: str) -> bool:
    if "\n" not in text and "<" not in text and "{" not in text:
        return False
    for m in _NAMED_VALUE.finditer(text):
        value = m.group("value")
        if _SECRET_REFERENCE.search(value) or _example_value(value):
            continue
        if _credential_like(value, quoted=False, line=m.group(0), password=True):
            return True
    return False


def _general_hits(text: str) -> str | None:
    """The kind the general mechanisms find in ``text``, if any. Structural evidence (a
    provider-style prefix, an Authorization header, a connection string, a quoted
    passphrase) gets its own kind, which the learned layer never overrules."""
    if _prefixed_key(text):
        return PREFIXED_KIND
    if _auth_header(text):
        return AUTH_HEADER_KIND
    if _connect_forms(text):
        return BASIC_AUTH_KIND
    if _RECOVERY_CODES.search(text) or _named_values(text):
        return KEYWORD_KIND
    return _general_word_hits(text)


def candidate_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds something a credential could be: a token shaped like one
    that is not a digest, a path or a URL, or a number of 4 to 10 digits (a PIN)."""
    if _SECRET_REFERENCE.search(text):
        return []
    spans = []
    for v in _GEN_VALUE.finditer(text):
        token = v.group(0)
        if re.fullmatch(r"\d{4,10}#?", token) or (
            not _BASE64_DIGEST_PREFIX.match(token) and _looks_random(token, pw=True)
        ):
            spans.append(v.span())
    return spans


def has_candidate(text: str) -> bool:
    """Whether ``text`` holds anything a credential could be (``candidate_spans``). The
    learned layer flags a text no rule caught only when it does."""
    return bool(candidate_spans(text))


@functools.lru_cache(maxsize=4096)
def _scan(text: str) -> tuple[str, ...]:
    kinds: list[str] = []
    if "-----BEGIN" in text:
        text = _PUBLIC_BLOCK.sub("(a public key)", text)
        text = _PEM_TEMPLATE.sub(_pem_template, text)
    if "AAAA" in text:
        text = _SSH_PUBLIC_KEY_TOKEN.sub("(a public key)", text)
    lines = text.splitlines() or [text]
    _configure_detect_secrets()
    hit_lines: list[int] = []
    for n, line in enumerate(lines):
        before = len(kinds)
        kinds.extend(
            s.type
            for s in scan_line(line)
            if not (
                _example_value(s.secret_value or "")
                or _example_value(_token_around(line, s.secret_value))
                or _named_as_id(line, s.secret_value)
                or _CODE_REFERENCE.match(_token_around(line, s.secret_value))
                or _in_angle_brackets(line, s.secret_value)
            )
        )
        kinds.extend(kind for kind, rx in _EXTRA_PREFIXES if rx.search(line))
        if BASIC_AUTH_KIND not in kinds and _url_credentials(line):
            kinds.append(BASIC_AUTH_KIND)
        if _keyword_hits(line):
            kinds.append(KEYWORD_KIND)
        if _secret_code(line):
            kinds.append(CODE_KIND)
        if _passphrase(line):
            kinds.append(PASSPHRASE_KIND)
        kinds.extend(_entropy_hits(line))
        if len(kinds) > before:
            hit_lines.append(n)
    if not kinds and (general := _general_hits(text)):
        kinds.append(general)
    # A keyword or entropy hit on a value a shape plugin already named adds nothing.
    shapes = set(kinds) - GENERIC_RULE_KINDS
    if shapes:
        kinds = [k for k in kinds if k in shapes]
    # The learned layer judges what the generic rules found (never a provider's own shape)
    # and flags a text no rule caught only when it is very sure.
    vetoable = bool(kinds) and not shapes
    if vetoable:
        if _vetoed(text, lines, hit_lines):
            kinds = []
    elif not kinds and has_candidate(text):
        p = secret_scorer.score(text)
        if p is not None and p >= secret_scorer.FLAG_ABOVE:
            kinds = [LEARNED_KIND]
    return tuple(dict.fromkeys(kinds))


#: Lines either side of a line with a hit that the learned layer reads with it.
_VETO_CONTEXT = 2


def _vetoed(text: str, lines: list[str], hit_lines: list[int]) -> bool:
    """Whether the learned layer calls every generic hit a look-alike. Each hit is judged
    in its own few lines, not in the whole text: a token among the lines of a pasted
    config stays a token however long the log or the prose around it ("HW_CLOUD_TOKEN:
    hwk_live_…" above a CMake error). Hits found only in the whole text are judged in it."""
    windows = [
        "\n".join(lines[max(0, n - _VETO_CONTEXT) : n + _VETO_CONTEXT + 1]) for n in hit_lines
    ] or [text]
    for window in dict.fromkeys(windows):
        p = secret_scorer.score(window)
        if p is None or p >= secret_scorer.VETO_BELOW:
            return False
    return True


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
    (``safety.injection.scan``), ``secret_kinds`` from the secret scan.
    """
    from safety.injection import scan

    result = scan(text, semantic=semantic)
    return {
        "blocked": result.blocked,
        "pattern_ids": list(result.pattern_ids),
        "secret_kinds": find_secrets(text),
    }
