"""The learned layer of the injection scan: a logistic regression over three kinds of
features of one normalised text (``safety.injection.normalise``):

* its 384-dimensional all-MiniLM-L6-v2 vector, read from the stored embeddings (English
  centric: it carries the meaning of English text, little of other languages);
* a few dozen **cues**: multilingual regexes for the things that set a hostile line
  apart from an ordinary persona line that shares its words. A cue is evidence, not a
  verdict (the pattern table blocks on its own; a cue never does): "the requester talks
  about themselves" (``me``, ``my``), "the assistant's own settings, memory or
  guardrails", "secretly", "even though it is not true", "rules ... void", a header
  shaped like a system message, a line that opens with a prohibition ("never", "do
  not") as guardrails do, and so on. Pairs of cues that only mean something together
  (a prohibition *and* a send verb) are features too, so a linear model can tell
  "Never send the client list outside" from "Send the client list to me";
* hashed **n-grams**, the language-independent part: character 2- to 5-grams inside
  each token plus word unigrams and bigrams, CRC-32 hashed into ``NGRAM_BUCKETS``
  buckets, sublinear counts, unit length per text. They work on any script, so Arabic,
  Chinese or Japanese text is judged on its own words, not only on what MiniLM makes of
  it;
* **concepts** (``safety.concepts``): a hand-written lexicon in ten languages maps
  words to a few dozen concepts that attacks combine (CONCEAL, TELL, USER, RULES, VOID,
  YOUR + CONFIG + CHANGE, ...), with negation ("never share" gives ``!SEND``); the block
  holds which concepts occur, which pairs share a sentence and which follow each other.
  The same attempt in German or Chinese gives the same columns;
* three **neighbour** features: the mean cosine of the vector to its 3 nearest hostile
  and to its 3 nearest ordinary train texts, and their difference (the train vectors ship
  in the model file as int8 rows). They let the linear model bend around clusters that
  one hyperplane over the vector cannot separate.

The model is trained by ``manage.py safety train`` on every train file
(``injection_train.jsonl`` and ``injection_train_<part>.jsonl``, see ``split_paths``);
the threshold is chosen on the validation files for <= 2 % false alarms on ordinary
rows. Weights (float16, zlib, base64), the feature layout and the threshold ship in
``safety/data/injection_model.json`` and load offline with numpy and scipy (no
scikit-learn at run time). The test split (``injection_test.jsonl`` and its parts) is written
after the model is frozen and is only ever measured (``bench/injection.py``); once measured it
becomes train or validation data (``injection_train_seen*``, ``injection_validation_seen*``)
and the split stays empty until a new independent set is written.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
import threading
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from safety.concepts import get_space

DATA_DIR = Path(__file__).resolve().parent / "data"
MODEL_PATH = DATA_DIR / "injection_model.json"
SPLITS = ("train", "validation", "test")
FEATURE_VERSION = 4
#: Largest share of ordinary validation texts the threshold may flag.
TARGET_FALSE_ALARMS = 0.02
#: The false-alarm budget the threshold is chosen with on validation. It was 1.5 % while
#: validation was mostly the team's own rows and every independent set raised more false
#: alarms than validation did (5.7 %, 3.4 %, 2.3 % against 2.0 %). Validation is now mostly
#: independent writers' sets, and leaving each of the eight independent sets out in turn
#: (fit without it, threshold on the rest of validation, measure it) gave 91.2 % detected /
#: 1.49 % false alarms pooled at a 2 % budget, 90.7 % / 1.30 % at 1.75 % and 90.0 % / 1.11 %
#: at 1.5 %: the budget now carries over, so it is the target itself.
VALIDATION_FALSE_ALARMS = TARGET_FALSE_ALARMS
#: Whether the budget must also hold on each independent writer's set in validation on its
#: own (``*_seen<N>``), not only on validation pooled. The ninth writer's set (test9: honest
#: guardrails *about* attacks, names like "admin override desk") raised 3.1 % false alarms at
#: a threshold that kept every earlier writer's set under 2 %: writers differ more than the
#: pooled figure shows, so the threshold follows the hardest writer seen.
PER_WRITER_BUDGET = True


def split_path(split: str) -> Path:
    """The main file of a split (``injection_<split>.jsonl``); see ``split_paths``."""
    return DATA_DIR / f"injection_{split}.jsonl"


def split_paths(split: str) -> list[Path]:
    """Every file of a split that exists: ``injection_<split>.jsonl``, then each
    ``injection_<split>_<part>.jsonl`` in name order (parts are added by hand, in batches)."""
    main = split_path(split)
    parts = sorted(DATA_DIR.glob(f"injection_{split}_*.jsonl"))
    return ([main] if main.exists() else []) + parts


def split_exists(split: str) -> bool:
    return bool(split_paths(split))


@dataclass(frozen=True)
class LabelledText:
    text: str
    hostile: bool
    family: str
    lang: str
    view: str


def load_split(split: str, *, leave_out: Path | None = None) -> list[LabelledText]:
    """Rows of one labelled split (``{"text", "label", "family", "lang", "view"}`` per
    line), from every file of ``split_paths(split)`` but ``leave_out``; a split with no file
    has no rows."""
    return [row for path in split_paths(split) if path != leave_out for row in load_file(path)]


def independent_sets() -> list[Path]:
    """The labelled files written by someone who saw neither the code nor the data (each
    was a test split once, measured, then used): ``*_seen<N>.jsonl`` in train or validation."""
    return sorted(
        (p for split in ("train", "validation") for p in split_paths(split) if "_seen" in p.stem),
        key=lambda p: int(re.sub(r"\D", "", p.stem.rsplit("_seen", 1)[1]) or 0),
    )


def load_file(path: Path) -> list[LabelledText]:
    """Rows of one labelled file (one JSON object per line)."""
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            if row["label"] not in ("hostile", "ordinary"):
                raise ValueError(f"unknown label {row['label']!r} in {path.name}")
            rows.append(
                LabelledText(
                    text=row["text"],
                    hostile=row["label"] == "hostile",
                    family=row["family"],
                    lang=row["lang"],
                    view=row.get("view", "plain"),
                )
            )
    return rows


# --- cues ----------------------------------------------------------------------------
# Every regex runs on the normalised text (lower case, accents dropped, confusables
# folded). Word lists cover en, es, fr, de, pt, it, nl; zh, ja and ar use phrases.

_ME = (
    r"\b(?:me|my|mine|myself|i|i'm|i'll|i've|us|our|mi|mis|yo|moi|mon|ma|mes|je|j'|mir|mich|mein|meine"
    r"|meinen|meiner|ich|meu|minha|meus|minhas|eu|mio|mia|miei|mie|io|mij|mijn|ik)\b|我|私に|私の|私が|私|لي|بريدي|عنواني|طلبي"
)
_OWNER = (
    r"\b(?:owner|manager|handler|account holder|boss|operator|auditor|maya|dueno|duena|proprietaire"
    r"|gerante|inhaber|inhaberin|chefin|chef|dono|dona|titolare|eigenaar)\b|店主|主人|オーナー|المالك"
)
_SELF_TARGET = (
    r"\byour (?:own )?(?:settings|configuration|config|persona|memory|long-term memory|guardrails|rules"
    r"|tool permissions|tools|review mode|instructions|prompt|setup|system prompt|restrictions|policies"
    r"|filters|notes|permissions|safety|identity|role|loyalty|goals)\b"
    r"|\b(?:tu|tus|ta|tes|deine?n?|sua|suas|tua|tue|je|jouw)\s+(?:configuracion|configuration|konfiguration"
    r"|configuracao|configurazione|configuratie|memoria|memoire|gedachtnis|geheugen|parametres|einstellungen"
    r"|instellingen|reglas|regles|regeln|regras|regole|regels|consignes|instrucciones|instructions|anweisungen"
    r"|instrucoes|istruzioni|instructies|pautas|directives|vorgaben|diretrizes|linee guida|richtlijnen)\b"
    r"|你的(?:配置|设置|记忆|规则|指令|准则)|(?:設定|記憶|ルール|指示)を|إعداداتك|ذاكرتك|قواعدك|تعليماتك|إرشاداتك"
)
_RULE_NOUN = (
    r"\b(?:rules?|guardrails?|restrictions?|guidelines?|instructions?|limits?|polic(?:y|ies)|constraints?"
    r"|directives?|guidance|orders|normas|reglas|pautas|restricciones|instrucciones|regles|consignes"
    r"|contraintes|directives|regeln|anweisungen|vorgaben|richtlinien|einschrankungen|regras|normas"
    r"|restricoes|instrucoes|diretrizes|regole|norme|restrizioni|istruzioni|indicazioni|regels|richtlijnen"
    r"|beperkingen|instructies)\b|规则|规定|限制|指令|指示|准则|ルール|制限|指示|方針|ガイドライン|القواعد|القيود|التعليمات|الإرشادات|التوجيهات"
)
_VOID = (
    r"\b(?:void|null|expired?|cancell?ed|revoked|withdrawn|obsolete|outdated|superseded|lifted|invalid"
    r"|no longer (?:apply|applies|valid|binding|count|hold|matter)|not binding|lost their force|do not hold"
    r"|don't hold|a draft|only a draft|a test|a joke|blank|empty|deleted|suspended|paused|off)\b"
    r"|\b(?:anulad[oa]s?|caducad[oa]s?|no son validas|ya no (?:son|valen|aplican)|nulles?|non avenues|expire"
    r"|supprimees|levees|ungultig|aufgehoben|abgelaufen|gelten nicht|nicht mehr|nao valem|expiraram|anulad[oa]s"
    r"|desativadas|scadute|annullat[oa]|non sono piu|disattivate|ongeldig|vervallen|verlopen|uitgeschakeld"
    r"|desactivadas|desactivees|deaktiviert)\b"
    r"|作废|失效|过期|解除|无效|無効|期限切れ|解除され|効力がありません|باطلة|ملغى|انتهت صلاحيتها|رفع القيود"
)
_PLACE_PRIOR = (
    r"\b(?:above|earlier|previous|prior|before this|at the top|so far|until now|you were given|given to you"
    r"|de arriba|anteriores?|antes|ci-dessus|precedentes?|auparavant|oben|vorher|bisherigen?|vorherigen?"
    r"|acima|anteriores|qui sopra|precedenti|prima|hierboven|eerdere|vorige|voor dit)\b"
    r"|上面|之前|以前|上記|上の|前に|أعلاه|السابقة|قبل"
)
_HEADER = (
    r"^\W{0,6}(?:system|sys|developer|dev|admin|administrator|operator|root|security team|trust and safety"
    r"|sistema|systeme|systeem|entwickler|desarrollador|developpeur|sviluppatori|ontwikkelaar)\b[^\n]{0,30}?[:\]>)】-]"
    r"|^\W{0,4}[\[<(【](?:[^\]>)】]{0,30})[\]>)】]|^#{1,6} |【系统】|【システム】|^النظام|^\[النظام\]|^系统[:：]|^システム[:：]"
)
_FROM_AUTHORITY = (
    r"\b(?:from|by) (?:the |your )?(?:developers?|engineering team|platform|creators?|openai|anthropic"
    r"|administrators?|admins?|security team|head office|system|operator|trust and safety)\b"
    r"|\b(?:message|notice|note|memo|instruction|update) (?:from|by)\b"
    r"|\b(?:del equipo|de la plateforme|du developpeur|vom entwickler|entwicklerteam|da equipe|dagli sviluppatori"
    r"|van het ontwikkelteam|ontwikkelteam)\b|开发团队|開発チーム|فريق التطوير"
)
_SECRECY = (
    r"\b(?:secretly|quietly|silently|covertly|discreetly|without (?:telling|letting|asking|anyone|review|checks?"
    r"|approval|the owner|the user)|behind (?:the scenes|(?:\w+(?:'s)? ){0,2}backs?)|hide|hidden from"
    r"|keep (?:it|this|that|what)|out of (?:any|the) "
    r"(?:report|summary|log)|leave out|remove any trace|no one|nobody|never mention|don't mention|do not mention"
    r"|en silencio|sin que|en secreto|a escondidas|discretement|en secret|sans (?:le dire|que)|heimlich"
    r"|unauffallig|ohne dass|discretamente|em segredo|sem que|di nascosto|in silenzio|senza che|stilletjes"
    r"|zonder dat|in het geheim)\b|悄悄|偷偷|秘密地|こっそり|内緒|بهدوء|سراً|دون علم"
)
_DECEIVE = (
    r"\b(?:lie|lies|lying|pretend|make up|made up|fake|even though|although it|not true|isn't true|is not true"
    r"|deny|act as if|as if nothing|reassure|claim that|say that nothing|nothing has changed|aunque no|mentir"
    r"|finge|meme si|mentir|pretendre|auch wenn|obwohl|lugen|vortauschen|mesmo que|fingir|anche se|fingere"
    r"|mentire|ook al|doen alsof|liegen)\b|即使|尽管|假装|撒谎|実際には|嘘|ふり|حتى لو|تظاهر|اكذب"
)
_SEND = (
    r"\b(?:send|sends|forward|email|e-mail|paste|upload|share|copy|post|bcc|cc|transfer|export|attach|include"
    r"|read (?:me|out)|message|leak|publish|compile|collect|put|write|move|pay|envia|reenvia|copia|pega|comparte"
    r"|envoie|transfere|colle|copie|partage|schick|sende|leite|kopier|fuge|envie|encaminhe|cole|copie|manda"
    r"|inoltra|incolla|stuur|kopieer|plak|deel)\b|转发|发到|发给|复制|粘贴|送って|転送|貼り付け|コピー|أرسل|انسخ|الصق|أعد توجيه"
)
_SENSITIVE = (
    r"\b(?:passwords?|passcodes?|codes?|card (?:numbers?|details)|salar(?:y|ies)|customer list|client list"
    r"|contact list|chat history|conversation (?:history|logs?)|messages|e-?mails|private notes|notes|dates of birth"
    r"|addresses|phone numbers|bank (?:details|statements)|api keys?|tokens?|records|payroll|two-factor|files"
    r"|contrasenas|correos|mensajes|clientes|mots de passe|messages|courriels|e-mails|passworter|nachrichten"
    r"|kundenliste|senhas|mensagens|clientes|password|messaggi|clienti|wachtwoorden|berichten|klantenlijst)\b"
    r"|邮件|消息|客户名单|密码|メール|メッセージ|顧客リスト|パスワード|رسائل|قائمة العملاء|كلمات المرور"
)
_EXTERNAL = (
    r"[\w.+-]+@[\w-]+\.[\w.]+|\bhttps?://|\b(?:gmail|outlook|hotmail|yahoo|pastebin|public (?:post|forum|link)"
    r"|personal (?:e-?mail|inbox|address|account)|outside address|external (?:address|account))\b"
)
_NEG_START = (
    r"^(?:never|do not|don't|dont|no|not|refuse|decline|avoid|under no circumstances|you must never|you must not"
    r"|nunca|no |jamas|ne |n'|jamais|nie|niemals|kein|keine|gib nie|nao|nunca|non |mai|nooit|niet|geen|stuur nooit"
    r"|geef nooit|schick nie)\b|^(?:绝不|不要|别|切勿|没有书面|未经)|(?:ないこと|しないこと|ないでください)。?$|^لا "
)
_NEG_ANY = r"\b(?:never|do not|don't|must not|nunca|jamais|nie|niemals|mai|nooit)\b|绝不|不要|決して|ないこと|لا "
_COND = (
    r"^(?:when|whenever|if|once|the next time|next time|as soon as|after|at|on|from|starting|should|later|in your next)\b"
    r"|^(?:cuando|si|a partir de|quand|lorsque|des|la prochaine fois|wenn|sobald|ab|falls|quando|se|a partir|da|als|zodra|vanaf)\b"
    r"|^(?:当|如果|下次|从明天|等)|(?:たら|ときは|明日から)|^(?:عندما|إذا|ابتداء)"
)
_HARM_ACT = (
    r"\b(?:approve|approves|approved|grant|delete|erase|remove|disable|switch off|turn off|skip|bypass|replace"
    r"|change the (?:bank|payee|iban)|move money|iban|transfer|refund|keep the deposit|admin rights|full access"
    r"|operator rights|without (?:review|checks|asking|approval)|automatically|auto-apply|no longer require"
    r"|pre-?approved|trusted|aprueba|aprobado|elimina|borra|desactiva|approuve|supprime|desactive|genehmige"
    r"|losche|entferne|aprove|aprovado|remova|desative|approva|approvato|elimina|disattiva|keur goed"
    r"|goedgekeurd|verwijder|schakel uit)\b|批准|删除|自动|承認|削除|自動|وافق|احذف|تلقائيا"
)
_UNLIMITED = (
    r"\b(?:no (?:limits|restrictions|rules|filters|owner|exceptions)|without (?:limits|restrictions|rules|filters)"
    r"|unrestricted|unfiltered|never refuses?|whoever|anyone who|anything|everything|any request|all requests"
    r"|sin limites|sin reglas|sin dueno|sans limites|sans regles|ohne grenzen|ohne regeln|sem limites"
    r"|sem regras|senza limiti|senza regole|zonder grenzen|zonder regels)\b|没有限制|没有规则|制限もなく|ルールのない|بلا حدود|بلا قواعد"
)
_REPLY_LEAK = (
    r"\b(?:into|in|at the (?:end|bottom) of) (?:your|the|each|every) (?:reply|replies|answer|response)\b"
    r"|\bword for word\b|\bverbatim\b|\bexactly as (?:written|it is)\b|\bin full\b|\bcode block\b"
    r"|\b(?:palabra por palabra|mot pour mot|wortlich|palavra por palavra|parola per parola|woord voor woord"
    r"|tal cual|tel quel|unverandert|exatamente|cosi com'e|precies zoals)\b|一字不差|原样|一字一句|そのまま|حرفيا|كما هو"
)
_IDENTITY = (
    r"^(?:you are|you're|your (?:real|true) (?:identity|self)|role:|persona:|name:|identity|goals?:"
    r"|eres|tu es|du bist|voce e|sei |je bent|你是|あなたは|أنت)\b"
)

CUE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("me", _ME),
    ("owner", _OWNER),
    ("self_target", _SELF_TARGET),
    ("rule_noun", _RULE_NOUN),
    ("void", _VOID),
    ("place_prior", _PLACE_PRIOR),
    ("header", _HEADER),
    ("from_authority", _FROM_AUTHORITY),
    ("secrecy", _SECRECY),
    ("deceive", _DECEIVE),
    ("send", _SEND),
    ("sensitive", _SENSITIVE),
    ("external", _EXTERNAL),
    ("neg_start", _NEG_START),
    ("neg_any", _NEG_ANY),
    ("cond", _COND),
    ("harm_act", _HARM_ACT),
    ("unlimited", _UNLIMITED),
    ("reply_leak", _REPLY_LEAK),
    ("identity", _IDENTITY),
)
_CUES = tuple((name, re.compile(rx, re.MULTILINE)) for name, rx in CUE_PATTERNS)
# Cue pairs that mean something together; the product is its own feature.
CUE_PAIRS: tuple[tuple[str, str], ...] = (
    ("neg_start", "send"),
    ("neg_start", "sensitive"),
    ("neg_start", "me"),
    ("neg_start", "self_target"),
    ("neg_start", "harm_act"),
    ("neg_start", "owner"),
    ("neg_any", "owner"),
    ("send", "me"),
    ("send", "external"),
    ("send", "sensitive"),
    ("sensitive", "me"),
    ("sensitive", "external"),
    ("rule_noun", "void"),
    ("rule_noun", "place_prior"),
    ("void", "place_prior"),
    ("self_target", "harm_act"),
    ("self_target", "me"),
    ("cond", "harm_act"),
    ("cond", "secrecy"),
    ("cond", "send"),
    ("secrecy", "owner"),
    ("deceive", "owner"),
    ("header", "rule_noun"),
    ("header", "void"),
    ("from_authority", "rule_noun"),
    ("identity", "unlimited"),
    ("identity", "me"),
    ("identity", "owner"),
    ("reply_leak", "rule_noun"),
    ("reply_leak", "sensitive"),
)
CUE_NAMES: tuple[str, ...] = tuple(name for name, _ in CUE_PATTERNS) + tuple(
    f"{a}*{b}" for a, b in CUE_PAIRS
)
_CUE_INDEX = {name: i for i, (name, _) in enumerate(CUE_PATTERNS)}
_PAIR_INDEX = np.array([[_CUE_INDEX[a], _CUE_INDEX[b]] for a, b in CUE_PAIRS], dtype=np.intp)


def cue_vector(text: str) -> np.ndarray:
    """The cue features of one normalised text (0/1 floats)."""
    base = np.fromiter((1.0 if rx.search(text) else 0.0 for _, rx in _CUES), np.float32, len(_CUES))
    pairs = base[_PAIR_INDEX[:, 0]] * base[_PAIR_INDEX[:, 1]]
    return np.concatenate([base, pairs])


# --- character and word n-grams --------------------------------------------------------
# Language-independent evidence: n-grams of characters inside each token (padded with a
# space at each end, so "ignore" gives " i", "ig", ..., "e " and a prefix differs from a
# middle), plus word unigrams and bigrams. They are hashed with CRC-32 (stable across
# processes and Python versions, unlike ``hash``) into ``NGRAM_BUCKETS`` buckets; counts
# become ``1 + log(count)`` and each text's n-gram vector has unit length.

NGRAM_BUCKETS = 1 << 18
CHAR_NGRAMS = (2, 5)
_TOKEN = re.compile(r"\w+|[^\w\s]+")
# Spelling variants that carry no meaning for the n-grams: Arabic short vowels and
# tatweel, and the alef / yeh / teh marbuta forms that writers interchange.
_NGRAM_FOLD = str.maketrans(
    {"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ـ": None}
    | {chr(c): None for c in range(0x064B, 0x0660)}
    | {"\u0670": None}
)


@functools.lru_cache(maxsize=1 << 16)
def _token_buckets(token: str) -> tuple[int, ...]:
    """The buckets of one token's character n-grams, and of the token as a word (when
    it is one). Texts share most of their tokens, so each is hashed once per process."""
    mask = NGRAM_BUCKETS - 1
    low, high = CHAR_NGRAMS
    padded = f" {token} "
    size = len(padded)
    grams = [
        padded[i : i + n] for n in range(low, min(high, size) + 1) for i in range(size - n + 1)
    ]
    if token[0].isalnum() or token[0] == "_":
        grams.append(f"w {token}")
    return tuple(zlib.crc32(g.encode("utf-8", "surrogatepass")) & mask for g in grams)


def _ngram_keys(text: str) -> list[int]:
    """The bucket of every n-gram of normalised ``text`` (a bucket once per occurrence)."""
    text = text.translate(_NGRAM_FOLD)
    mask = NGRAM_BUCKETS - 1
    tokens = _TOKEN.findall(text)
    keys = list(chain.from_iterable(map(_token_buckets, tokens)))
    words = [t for t in tokens if t[0].isalnum() or t[0] == "_"]
    keys.extend(
        zlib.crc32(f"b {a} {b}".encode("utf-8", "surrogatepass")) & mask
        for a, b in zip(words, words[1:], strict=False)
    )
    return keys


def _ngram_counts(text: str) -> dict[int, int]:
    return dict(Counter(_ngram_keys(text)))


def ngram_matrix(texts: Sequence[str]) -> sparse.csr_matrix:
    """Hashed, sublinear, unit-length n-gram rows of normalised ``texts``."""
    per_text = [_ngram_keys(text) for text in texts]
    lengths = np.fromiter(map(len, per_text), np.int64, len(per_text))
    flat = np.fromiter(chain.from_iterable(per_text), np.int64, int(lengths.sum()))
    owner = np.repeat(np.arange(len(per_text), dtype=np.int64), lengths)
    # one sort for every row: sorted (row, bucket) pairs and how often each occurs
    pairs, counts = np.unique(owner * NGRAM_BUCKETS + flat, return_counts=True)
    indptr = np.searchsorted(pairs // NGRAM_BUCKETS, np.arange(len(per_text) + 1))
    sublinear = counts.astype(np.float64)
    values = np.empty(len(pairs), np.float64)
    for a, b in zip(indptr[:-1].tolist(), indptr[1:].tolist(), strict=True):
        row = 1.0 + np.log(sublinear[a:b])
        norm = float(np.sqrt(row @ row)) or 1.0
        values[a:b] = row / norm
    return sparse.csr_matrix(
        (
            values.astype(np.float32),
            (pairs % NGRAM_BUCKETS).astype(np.int32),
            indptr.astype(np.int64),
        ),
        shape=(len(per_text), NGRAM_BUCKETS),
    )


@dataclass(frozen=True)
class Features:
    """``dense``: ``[vector, cues]`` rows; ``ngrams``: the hashed n-gram rows;
    ``concepts``: the concept rows (``safety.concepts``)."""

    dense: np.ndarray
    ngrams: sparse.csr_matrix
    concepts: sparse.csr_matrix

    def __len__(self) -> int:
        return self.dense.shape[0]

    def rows(self, index: Sequence[int]) -> Features:
        idx = list(index)
        return Features(self.dense[idx], self.ngrams[idx], self.concepts[idx])


def feature_matrix(texts: Sequence[str], vectors: np.ndarray) -> Features:
    """The features of normalised ``texts`` and their stored vectors."""
    space = get_space()
    if not len(texts):
        width = vectors.shape[1] if vectors.ndim == 2 else 384
        return Features(
            np.zeros((0, width + len(CUE_NAMES)), dtype=np.float32),
            sparse.csr_matrix((0, NGRAM_BUCKETS), dtype=np.float32),
            sparse.csr_matrix((0, space.width), dtype=np.float32),
        )
    cues = np.stack([cue_vector(t) for t in texts])
    dense = np.hstack([np.asarray(vectors, dtype=np.float32), cues]).astype(np.float32)
    return Features(dense, ngram_matrix(texts), space.matrix(texts))


# --- nearest labelled neighbours ------------------------------------------------------
# How close a text's sentence vector comes to the hostile and to the ordinary train
# texts (mean cosine of the ``k`` nearest of each): a non-linear view of the vector that
# a linear model cannot build on its own. The train vectors ship with the model.

NEIGHBOURS_K = 3
NEIGHBOUR_NAMES = ("near_hostile", "near_ordinary", "near_hostile-near_ordinary")


def _top_mean(sims: np.ndarray, k: int) -> np.ndarray:
    """Mean of the ``k`` largest values of each row; ``sims`` is overwritten.

    ``k`` passes of argmax, each masking what it found: for a handful of neighbours this
    is several times faster than ``np.partition`` over thousands of columns.
    """
    kk = min(k, sims.shape[1])
    rows = np.arange(len(sims))
    total = np.zeros(len(sims), np.float32)
    for _ in range(kk):
        best = sims.argmax(axis=1)
        total += sims[rows, best]
        sims[rows, best] = -np.inf
    return total / np.float32(kk)


def neighbour_features(
    vectors: np.ndarray,
    reference: np.ndarray,
    reference_hostile: np.ndarray,
    *,
    k: int | None = None,
    exclude: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """``(n, 3)`` rows of NEIGHBOUR_NAMES for unit ``vectors`` against ``reference`` rows.

    ``exclude`` (``(rows, reference rows)``, two index arrays of equal length) hides a
    reference row from a row: in
    training, a text never counts as its own neighbour, nor do sentences of the same row.
    """
    if not len(reference) or not len(vectors):
        return np.zeros((len(vectors), len(NEIGHBOUR_NAMES)), dtype=np.float32)
    vectors = np.asarray(vectors, np.float32)[:, : reference.shape[1]]
    k = k or NEIGHBOURS_K
    means = []
    for cls in (True, False):
        mask = reference_hostile == cls
        if not mask.any():
            means.append(np.zeros(len(vectors), np.float32))
            continue
        # One product per class: cheaper than one product and a copy of each half.
        sims = vectors @ reference[mask].T
        if exclude is not None:
            hidden = mask[exclude[1]]
            column = np.cumsum(mask) - 1  # a reference row's column among its class
            sims[exclude[0][hidden], column[exclude[1][hidden]]] = -1.0
        means.append(_top_mean(sims, k))
    return np.stack([means[0], means[1], means[0] - means[1]], axis=1).astype(np.float32)


# --- the shipped model --------------------------------------------------------------


def _pack(a: np.ndarray) -> str:
    return base64.b64encode(zlib.compress(np.asarray(a, "<f2").tobytes(), 9)).decode("ascii")


def _unpack(data: str) -> np.ndarray:
    return np.frombuffer(zlib.decompress(base64.b64decode(data)), "<f2").astype(np.float32)


def _pack_rows(a: np.ndarray) -> dict[str, str]:
    """Unit-scale rows as int8 with one float16 scale per row (a quarter of float32)."""
    a = np.asarray(a, np.float32)
    scale = (np.abs(a).max(axis=1, initial=0.0) / 127.0).astype(np.float16)
    safe = np.where(scale > 0, scale.astype(np.float32), 1.0)[:, None]
    q = np.clip(np.rint(a / safe), -127, 127).astype(np.int8)
    return {
        "int8": base64.b64encode(zlib.compress(q.tobytes(), 9)).decode("ascii"),
        "scale": _pack(scale),
    }


def _unpack_rows(doc: dict[str, str], rows: int) -> np.ndarray:
    q = np.frombuffer(zlib.decompress(base64.b64decode(doc["int8"])), np.int8)
    scale = _unpack(doc["scale"])
    return (q.reshape(rows, -1).astype(np.float32) * scale[:, None]).astype(np.float32)


def _rows_as_stored(a: np.ndarray) -> np.ndarray:
    """``a`` as ``_pack_rows`` stores it."""
    a = np.asarray(a, np.float32)
    if not len(a):
        return a
    return _unpack_rows(_pack_rows(a), len(a))


def _half(a: np.ndarray) -> np.ndarray:
    """``a`` as stored in the model file (float16), back in float32."""
    return np.asarray(a, dtype=np.float32).astype(np.float16).astype(np.float32)


@dataclass(frozen=True)
class InjectionModel:
    """A frozen logistic regression over both kinds of features:
    ``p = sigmoid(dense @ dense_coef + ngrams @ ngram_coef + intercept)``.

    Weights are kept at float16 precision (as stored in the file), so a freshly fitted
    model scores exactly like the same model read back.
    """

    dense_coef: np.ndarray  # (384 + cues,)
    ngram_coef: np.ndarray  # (NGRAM_BUCKETS,)
    concept_coef: np.ndarray  # (concept space width,)
    neighbour_coef: np.ndarray  # (len(NEIGHBOUR_NAMES),)
    reference: np.ndarray  # (n, 384) unit train vectors for the neighbour features
    reference_hostile: np.ndarray  # (n,) bool
    intercept: float
    threshold: float
    families: tuple[str, ...]
    family_coef: np.ndarray  # (n_families, 384 + cues): names a hit, never decides one
    family_intercept: np.ndarray
    meta: dict[str, Any]

    def neighbours(self, features: Features) -> np.ndarray:
        return neighbour_features(features.dense, self.reference, self.reference_hostile)

    def decision(self, features: Features) -> np.ndarray:
        return (
            features.dense @ self.dense_coef
            + features.ngrams @ self.ngram_coef
            + features.concepts @ self.concept_coef
            + self.neighbours(features) @ self.neighbour_coef
            + self.intercept
        ).astype(np.float64)

    def probabilities(self, features: Features) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.decision(features)))

    def family_of(self, features: Features) -> list[str]:
        scores = features.dense @ self.family_coef.T + self.family_intercept
        return [self.families[int(i)] for i in scores.argmax(axis=1)]

    def to_json(self) -> str:
        def floats(a: np.ndarray) -> list[Any]:
            return np.round(np.asarray(a, dtype=np.float64), 7).tolist()

        doc = {
            "feature_version": FEATURE_VERSION,
            "cue_names": list(CUE_NAMES),
            "ngram_buckets": NGRAM_BUCKETS,
            "char_ngrams": list(CHAR_NGRAMS),
            "intercept": round(float(self.intercept), 7),
            "threshold": round(float(self.threshold), 7),
            "dense_coef": _pack(self.dense_coef),
            "ngram_coef": _pack(self.ngram_coef),
            "concept_lexicon": get_space().lexicon.digest,
            "concept_width": get_space().width,
            "concept_coef": _pack(self.concept_coef),
            "neighbours_k": NEIGHBOURS_K,
            "neighbour_coef": _pack(self.neighbour_coef),
            "reference": _pack_rows(self.reference),
            "reference_hostile": base64.b64encode(
                np.packbits(np.asarray(self.reference_hostile, bool)).tobytes()
            ).decode("ascii"),
            "reference_rows": len(self.reference),
            "families": list(self.families),
            "family_intercept": floats(self.family_intercept),
            "family_coef": [_pack(row) for row in self.family_coef],
            "meta": self.meta,
        }
        return json.dumps(doc, indent=None, separators=(",", ":"), sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> InjectionModel:
        doc = json.loads(text)
        if (
            doc["feature_version"] != FEATURE_VERSION
            or tuple(doc["cue_names"]) != CUE_NAMES
            or doc.get("ngram_buckets") != NGRAM_BUCKETS
            or tuple(doc.get("char_ngrams", ())) != CHAR_NGRAMS
            or doc.get("neighbours_k") != NEIGHBOURS_K
            or doc.get("concept_lexicon") != get_space().lexicon.digest
            or doc.get("concept_width") != get_space().width
        ):
            raise ValueError(
                "The injection model file was built for other features; run `manage.py safety train`."
            )
        n_reference = int(doc["reference_rows"])
        return cls(
            dense_coef=_unpack(doc["dense_coef"]),
            ngram_coef=_unpack(doc["ngram_coef"]),
            concept_coef=_unpack(doc["concept_coef"]),
            neighbour_coef=_unpack(doc["neighbour_coef"]),
            reference=_unpack_rows(doc["reference"], n_reference),
            reference_hostile=np.unpackbits(
                np.frombuffer(base64.b64decode(doc["reference_hostile"]), np.uint8)
            )[:n_reference].astype(bool),
            intercept=float(doc["intercept"]),
            threshold=float(doc["threshold"]),
            families=tuple(doc["families"]),
            family_coef=np.stack([_unpack(row) for row in doc["family_coef"]]),
            family_intercept=np.asarray(doc["family_intercept"], dtype=np.float64),
            meta=doc.get("meta", {}),
        )


_model: InjectionModel | None = None
_model_lock = threading.Lock()


def get_model() -> InjectionModel:
    """The shipped model, read once per process (a small JSON file, milliseconds)."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                _model = InjectionModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))
    return _model


def set_model(model: InjectionModel | None) -> None:
    """Replace the process-wide model (after retraining; ``None`` re-reads the file)."""
    global _model
    with _model_lock:
        _model = model


# --- training -----------------------------------------------------------------------

#: Inverse regularisation strength of the decision model. Chosen on validation (with the
#: handwritten4 data): 0.3 -> 61.6 %, 1 -> 66.7 %, 3 -> 68.3 %, 10 -> 68.7 %, 30 -> 64.4 %
#: detected at 2 % false alarms, n-gram scale 1. With the writers7 rows and the disarmed
#: patterns (at 2 % / mean over 1-3 %; n-gram weight 3 unless said): C 3 -> 81.2 / 80.6 %,
#: 10 -> 77.7 / 72.8 %, 1 -> 82.1 / 81.3 %, 0.5 -> 81.5 / 81.4 %; C 1 with n-gram weight 4
#: -> 83.6 / 81.2 %; C 3 with n-gram weight 2 / 1.5 -> 79.6 / 78.9 %, 80.2 / 77.8 %.
#: Then (writers9 rows, STAKE / INTERNAL / BOT / DEFEND concepts), fitted without the ninth
#: writer's set and measured on it: C 1 -> 92.3 % detected at its own 2 % false-alarm
#: threshold, C 3 -> 93.1 %, C 0.5 -> 87.3 % (without the writers9e rows: 88.5 / 90.4 / 87.3).
C_REGULARISATION = 3.0
#: Inverse regularisation strength of the family namer (it only names a hit).
NAMER_C = 1.0
#: Weight of the n-gram block against the dense block (both have unit-scale rows). The
#: n-grams are what the model has of a language MiniLM reads poorly, and they need the
#: larger weight to count against the 384 dense columns: on validation (C = 3) scale 0.5
#: -> 61.5 %, 1 -> 68.3 %, 2 -> 69.8 %, 3 -> 72.9 %, 4 -> 73.4 %, 5 -> 73.4 %, 8 -> 70.5 %,
#: 12 -> 68.8 %; with the last batch of rows 4 -> 71.1 %, 5 -> 72.3 %. With the concept
#: block the n-grams need less weight (the concepts carry what they carried across
#: languages): see CONCEPT_SCALE.
NGRAM_SCALE = 3.0
#: Weight of the concept block (unit-length rows, like the n-grams). On validation (C 3;
#: detected at 2 % false alarms / mean over 1, 1.5, 2, 2.5, 3 %): without concepts, n-gram
#: weight 5 -> 72.9 / 70.9 %, 3 -> 71.2 / 69.5 %; n-gram weight 3 and concept weight 1 ->
#: 77.2 / 75.1 %, 1.25 -> 79.7 / 76.4 %, 1.5 -> 79.4 / 76.4 %, 2 -> 79.3 / 77.0 %, 3 -> 73.9 %
#: (without triples); n-gram weight 2 / 4 with concept weight 1.5 -> 78.4 / 77.9 %.
#: Checked again with the 525-row set in validation and the purpose concepts (mean over 1-3 %):
#: C 1 / 3 / 10 -> 72.7 / 72.7 / 72.5 %; concept weight 1.5 / 2 / 2.5 -> 72.3 / 72.7 / 72.5 %;
#: n-gram weight 2 -> 73.2 %; ordinary rows weighted 1.5 / 2.5 times the balanced weight ->
#: 72.5 / 73.0 %; no neighbour features -> 70.8 %. All within noise but the last, so the
#: settings stay.
CONCEPT_SCALE = 2.0


def _namer(
    dense: np.ndarray, families: Sequence[str]
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The family namer: a multinomial regression over the dense features of hostile rows."""
    from sklearn.linear_model import LogisticRegression

    names = sorted(set(families))
    if len(names) < 2:
        return (tuple(names) or ("injection",)), np.zeros((1, dense.shape[1])), np.zeros(1)
    namer = LogisticRegression(C=NAMER_C, max_iter=5000, solver="lbfgs")
    namer.fit(dense, list(families))
    family_names = tuple(str(c) for c in namer.classes_)
    if len(family_names) > 2:
        return family_names, namer.coef_, namer.intercept_
    coef = np.vstack([-namer.coef_, namer.coef_])
    return family_names, coef, np.array([-namer.intercept_[0], namer.intercept_[0]])


#: At most this many train rows ship as neighbour reference rows (int8, about 0.5 kB each
#: in the file): past it, evenly spaced rows are kept, so the model file stays under 6 MB
#: as the labelled files grow (12,680 train rows: all of them would make 6.6 MB; 11,000 ->
#: 5.8 MB, validation 81.5 % at 2 %, mean 81.0 %; 10,000 -> 80.7 / 79.8 %; all ->
#: 82.1 / 81.3 %, the same within noise). The neighbour features are computed against the same rows
#: in training and at scan time.
MAX_REFERENCE_ROWS = 11_000


def reference_rows(n: int, limit: int = MAX_REFERENCE_ROWS) -> np.ndarray:
    """Indices of the train rows kept as neighbour reference rows (all, or ``limit`` evenly
    spaced ones; deterministic)."""
    if n <= limit:
        return np.arange(n, dtype=np.intp)
    return np.unique(np.linspace(0, n - 1, limit).round().astype(np.intp))


def _same_group(group: np.ndarray, reference_group: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ``(row, reference row)`` pairs whose groups are equal, as two index arrays
    (a few per row: the dense ``(n, n_reference)`` comparison took a quarter of a GB)."""
    order = np.argsort(group, kind="stable")
    ordered = group[order]
    start = np.searchsorted(ordered, reference_group, side="left")
    count = np.searchsorted(ordered, reference_group, side="right") - start
    first = np.repeat(start - (np.cumsum(count) - count), count)
    rows = order[first + np.arange(int(count.sum()))]
    return rows, np.repeat(np.arange(len(reference_group)), count)


def fit(
    features: Features,
    hostile: np.ndarray,
    families: Sequence[str],
    *,
    groups: Sequence[int] | None = None,
    c: float = C_REGULARISATION,
    ngram_scale: float = NGRAM_SCALE,
    concept_scale: float = CONCEPT_SCALE,
    neighbours: bool = True,
) -> InjectionModel:
    """Fit the decision model and the family namer; deterministic for the same input.

    ``families`` names the family of each hostile row (ignored for ordinary rows);
    ``groups`` marks rows cut from the same labelled text (they are never each other's
    neighbours). The threshold is left at 0.5 here; ``choose_threshold`` sets it from
    validation.
    """
    from sklearn.linear_model import LogisticRegression

    width = features.dense.shape[1]
    group = np.asarray(groups if groups is not None else range(len(features)))
    kept = reference_rows(len(features)) if neighbours else np.zeros(0, np.intp)
    reference = (
        _rows_as_stored(features.dense[kept, :384]) if len(kept) else np.zeros((0, 384), np.float32)
    )
    reference_hostile = np.asarray(hostile, bool)[kept]
    near = neighbour_features(
        features.dense,
        reference,
        reference_hostile,
        exclude=_same_group(group, group[kept]) if neighbours else None,
    )
    design = sparse.hstack(
        [
            sparse.csr_matrix(features.dense),
            sparse.csr_matrix(near),
            features.ngrams * ngram_scale,
            features.concepts * concept_scale,
        ],
        format="csr",
    )
    decision = LogisticRegression(C=c, class_weight="balanced", max_iter=5000, solver="lbfgs")
    decision.fit(design, hostile)
    coef = decision.coef_[0]
    n_near = len(NEIGHBOUR_NAMES)
    n_ngram = features.ngrams.shape[1]
    hostile_idx = [int(i) for i in np.flatnonzero(hostile)]
    names, family_coef, family_intercept = _namer(
        features.dense[hostile_idx], [families[i] for i in hostile_idx]
    )
    return InjectionModel(
        dense_coef=_half(coef[:width]),
        neighbour_coef=_half(coef[width : width + n_near]),
        ngram_coef=_half(coef[width + n_near : width + n_near + n_ngram] * ngram_scale),
        concept_coef=_half(coef[width + n_near + n_ngram :] * concept_scale),
        reference=reference,
        reference_hostile=reference_hostile,
        intercept=float(decision.intercept_[0]),
        threshold=0.5,
        families=names,
        family_coef=_half(family_coef),
        family_intercept=np.asarray(family_intercept, dtype=np.float64),
        meta={},
    )


#: How far above the highest unflagged ordinary validation score the threshold sits.
THRESHOLD_MARGIN = 0.001


def allowed_false_alarms(n_ordinary: int, target: float = TARGET_FALSE_ALARMS) -> int:
    return int(np.floor(target * n_ordinary + 1e-9))


def choose_threshold(ordinary_scores: Sequence[float], *, allowed: int) -> float:
    """A threshold that flags at most ``allowed`` of the ordinary scores.

    A text is flagged when its score is ``>=`` the threshold. The threshold sits a
    little (``THRESHOLD_MARGIN``, or halfway to the next score up if that is closer)
    above the highest ordinary score that must stay unflagged, so the last decimals of a
    vector encoded in another batch cannot move a validation text across it.
    """
    scores = np.sort(np.asarray(ordinary_scores, dtype=np.float64))[::-1]
    allowed = max(allowed, 0)
    if allowed >= len(scores):
        return 0.5 if not len(scores) else float(min(0.5, scores[-1]))
    upper = scores[allowed - 1] if allowed > 0 else 1.0
    return float(min(scores[allowed] + THRESHOLD_MARGIN, (scores[allowed] + upper) / 2))


def data_digest() -> dict[str, str]:
    """sha256 of the labelled files the model was built from (recorded in the model)."""
    return {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for split in ("train", "validation")
        for path in split_paths(split)
    }


@dataclass(frozen=True)
class SplitRates:
    detected: int
    hostile: int
    false_alarms: int
    ordinary: int

    @property
    def detection(self) -> float:
        return self.detected / self.hostile if self.hostile else 0.0

    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.ordinary if self.ordinary else 0.0


def rates(rows: Sequence[LabelledText], flagged: Sequence[bool]) -> SplitRates:
    return SplitRates(
        detected=sum(1 for r, f in zip(rows, flagged, strict=True) if r.hostile and f),
        hostile=sum(1 for r in rows if r.hostile),
        false_alarms=sum(1 for r, f in zip(rows, flagged, strict=True) if not r.hostile and f),
        ordinary=sum(1 for r in rows if not r.hostile),
    )


#: Whether the sentences of ordinary train rows are fitted as ordinary rows too (the scan
#: scores each sentence of a text, so an ordinary sentence must score low on its own).
FIT_ORDINARY_SENTENCES = True


#: Whether an encoded hostile train row (base64, ROT13, reversed, homoglyphs, ...) is fitted
#: through what the scan decodes from it: the scan scores that decoded text, so the model
#: should have seen such text, which is often clumsier than a plain row (a spelled-out
#: command, a word split by invisible characters).
FIT_DECODED_VIEWS = True
#: Encodings whose first normalised view is already the readable text (the normaliser
#: folds look-alike letters, drops invisible characters and undoes leetspeak).
_READABLE_WHEN_NORMALISED = frozenset({"homoglyph", "invisible", "leet"})


def _decoded_strings(r: LabelledText) -> list[str]:
    """The readable strings the scan finds in an encoded row (see ``FIT_DECODED_VIEWS``)."""
    from safety.injection import _decoded_views, _scorable, normalise

    norm = normalise(r.text)
    if not norm.text:
        return []
    found = [norm.text] if r.view in _READABLE_WHEN_NORMALISED else []
    if norm.matching != norm.text:
        found.append(norm.matching)
    found.extend(_decoded_views(r.text, norm))
    return [v for v in dict.fromkeys(found) if _scorable(v)]


def training_texts(
    rows: Sequence[LabelledText],
    *,
    ordinary_sentences: bool = FIT_ORDINARY_SENTENCES,
    decoded: bool = FIT_DECODED_VIEWS,
) -> tuple[list[str], np.ndarray, list[str], list[int]]:
    """Normalised texts, hostile flags, families and groups (the index of the labelled row
    each text comes from) fitted from labelled ``rows``.

    ``plain`` rows are fitted as they read. An encoded row's raw normalised form teaches
    nothing; with ``decoded`` a hostile one is fitted through its decoded strings (what
    the scan scores), otherwise it is skipped.
    """
    from safety.injection import _scorable, views

    texts: list[str] = []
    hostile: list[bool] = []
    families: list[str] = []
    groups: list[int] = []
    seen: set[str] = set()
    for n, r in enumerate(rows):
        if r.view != "plain":
            strings = _decoded_strings(r) if decoded and r.hostile else []
        else:
            found = views(r.text)
            if not found:
                continue
            strings = found[:1]
            if ordinary_sentences and not r.hostile:
                strings = [v for v in found if v == found[0] or _scorable(v)]
        for text in strings:
            if text in seen:
                continue
            seen.add(text)
            texts.append(text)
            hostile.append(r.hostile)
            families.append(r.family)
            groups.append(n)
    return texts, np.array(hostile, dtype=bool), families, groups


def train(
    vector_source: Callable[[list[str]], np.ndarray],
    *,
    c: float = C_REGULARISATION,
    ngram_scale: float = NGRAM_SCALE,
    concept_scale: float = CONCEPT_SCALE,
    ordinary_sentences: bool = FIT_ORDINARY_SENTENCES,
    decoded: bool = FIT_DECODED_VIEWS,
    neighbours: bool = True,
    leave_out: Path | None = None,
) -> tuple[InjectionModel, SplitRates]:
    """Fit on the train split, choose the threshold on the validation split.

    ``leave_out`` drops one labelled file from both (``bench/injection.py --leave-one-out``
    fits without an independent set and then measures it).

    ``vector_source`` maps normalised strings to their sentence vectors (the command
    passes the embedding model; a test passes a stand-in). The threshold counts every
    validation false alarm, the pattern table's included, against the 2 % budget.
    """
    from safety.injection import _decoded_views, _pattern_hits, learned_scores, normalise

    texts, hostile, families, groups = training_texts(
        load_split("train", leave_out=leave_out),
        ordinary_sentences=ordinary_sentences,
        decoded=decoded,
    )
    vectors = vector_source(texts) if texts else np.zeros((0, 384), np.float32)
    model = fit(
        feature_matrix(texts, vectors),
        hostile,
        families,
        groups=groups,
        c=c,
        ngram_scale=ngram_scale,
        concept_scale=concept_scale,
        neighbours=neighbours,
    )

    files = [p for p in split_paths("validation") if p != leave_out]
    by_file = [(path, load_file(path)) for path in files]
    validation = [row for _, rows in by_file for row in rows]
    pattern_flags = []
    for r in validation:
        norm = normalise(r.text)
        pattern_flags.append(bool(_pattern_hits(norm, _decoded_views(r.text, norm))))
    scores = learned_scores([r.text for r in validation], model=model, vector_source=vector_source)
    probability = [s.probability if s else 0.0 for s in scores]

    def threshold_for(index: range) -> float:
        ordinary = [probability[i] for i in index if not validation[i].hostile]
        alarms = sum(1 for i in index if not validation[i].hostile and pattern_flags[i])
        unflagged = [
            probability[i] for i in index if not validation[i].hostile and not pattern_flags[i]
        ]
        return choose_threshold(
            unflagged,
            allowed=allowed_false_alarms(len(ordinary), VALIDATION_FALSE_ALARMS) - alarms,
        )

    # The budget holds for validation as a whole and for each independent writer's set in it
    # (``PER_WRITER_BUDGET``): the fresh test set is one writer's, and writers differ.
    threshold = threshold_for(range(len(validation)))
    start = 0
    independent = set(independent_sets())
    for path, rows in by_file:
        if PER_WRITER_BUDGET and path in independent:
            threshold = max(threshold, threshold_for(range(start, start + len(rows))))
        start += len(rows)
    flagged = [f or p >= threshold for f, p in zip(pattern_flags, probability, strict=True)]
    result = rates(validation, flagged)
    model = replace(
        model,
        threshold=threshold,
        meta={
            "trained_on": len(texts),
            "c": c,
            "ngram_scale": ngram_scale,
            "concept_scale": concept_scale,
            "ordinary_sentences": ordinary_sentences,
            "decoded_views": decoded,
            "neighbours": neighbours,
            "data_sha256": data_digest(),
            "validation": {
                "detected": result.detected,
                "hostile": result.hostile,
                "false_alarms": result.false_alarms,
                "ordinary": result.ordinary,
            },
        },
    )
    return model, result
