"""What in a text is pasted data, not language addressed to anyone (issue 27).

A developer pastes code, SQL, logs, stack traces and command output into a message. Those
lines are data the assistant reads; they give no instruction, and a classifier trained on
sentences reads their symbols and identifiers as noise that looks like anything, hostile
included. ``language_of`` keeps what reads as language:

- every line outside a fenced block (```` ``` ```` or ``~~~``) but a line that is plainly
  data there too: a stack frame or exception line, a log line opening with a timestamp,
  a shell, REPL or database prompt, or a line marked as code (brackets, ``=``, ``;``,
  ``::``, ``->``, a call) whose tokens are mostly not words;
- inside a fenced block: the comments (``#``, ``//``, ``--``, ``;;``, ``/* */``,
  ``<!-- -->``, docstrings, ``(* *)``, ``{- -}``), where an instruction meant for an
  assistant hides in code, and any line that reads as a sentence (four words or more,
  mostly words, nothing marked as code): a document pasted in a fence (an issue, an
  e-mail) is read as language.

The injection scan's learned layer scores what ``language_of`` keeps
(``safety.injection.views``); its word patterns still read the whole text, pasted data
included, so an order to "ignore previous instructions" is found wherever it stands.
"""

from __future__ import annotations

import re

__all__ = ["language_of"]

_FENCE = re.compile(r"```|~~~")
_INFO = re.compile(r"\A[\w+#.-]*[ \t]*\n")
_TRACE = re.compile(
    r"^\s*(?:Traceback \(most recent|File \"[^\"]+\", line \d|at [\w.$<>/]+\(|at .+:\d+\)?\s*$"
    r"|Caused by:"
    r"|\.\.\. \d+ more|\#\d+ 0x[0-9a-f]+|\d+: 0x[0-9a-f]+|[\w.]+(?:Error|Exception)\b:?)"
)
_FRAME = re.compile(r"^\s*(?:File \"[^\"]+\", line \d|at [\w.$<>/]+\([\w.]*:\d|at .+:\d+\)?\s*$)")
_PY_FRAME = re.compile(r"^\s*File \"[^\"]+\", line \d")
# a line of code by its ends: a block opened or closed, a statement ended
_CODE_LINE = re.compile(r"[{};]\s*$|^\s*(?:[}\])]|//|/\*|--\s|;;)")
# a log line's time stamp, level and source, before its message
_LOG_PREFIX = re.compile(
    r"^\s*(?:[\[(]?[\d][\d\-T:.,Z+/]*[\])]?\s+)*"
    r"(?:[\[(]?(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)[\])]?:?\s+)?"
    r"(?:\[[^\]\s]*\]\s*|[\w.-]+:\s+(?=\w))?",
    re.I,
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_LOG = re.compile(
    r"^\s*[\[(]?(?:\d{4}-\d{2}-\d{2}[T ]?\d{0,2}|\d{1,2}:\d{2}:\d{2}|\d+\.\d+\]"
    r"|(?:TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b[\]:])"
)
_PROMPT = re.compile(
    r"^\s*(?:\$|#|>>>|\.\.\.|iex(?:\(\d+\))?>|irb\([^)]*\)[:\d]*[>*]|=>|[\w-]+[=#]>|mysql>"
    r"|PS [A-Z]:\\[^>]*>|[\w@.-]+:[~/][^$]*\$)\s"
)
_CODE_MARK = re.compile(
    r"[{}();=<>\[\]|&$\\]|::|->|\w\.\w+\(|^\s*[@#]\w|\w/\w|\w:\d|\b0x[0-9a-fA-F]"
)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*[.,:;!?\"')]*")
_LINE_COMMENT = re.compile(r"(?:^|\s)(?:#|//|--|;;)\s+(.+)$")
_BLOCK_COMMENT = re.compile(
    r"/\*+(.*?)\*+/|<!--(.*?)-->|\"\"\"(.*?)\"\"\"|'''(.*?)'''|\(\*(.*?)\*\)|\{-(.*?)-\}",
    re.S,
)


def _wordy(line: str) -> tuple[int, int]:
    """How many of ``line``'s tokens are words, and how many tokens it has."""
    tokens = line.split()
    return sum(1 for t in tokens if _WORD.fullmatch(t)), len(tokens)


def _looks_like_data(line: str) -> bool:
    """A line outside a fence that looks like pasted data (see the module docstring);
    a line written in a script without spaces between words (Chinese, Japanese) never
    does."""
    if len(_CJK.findall(line)) >= 4:
        return False
    if _TRACE.match(line) or _LOG.match(line) or _PROMPT.match(line) or _CODE_LINE.search(line):
        return True
    words, tokens = _wordy(line)
    return bool(_CODE_MARK.search(line)) and words * 2 < tokens


def _reads_as_comment(body: str) -> bool:
    """A comment worth reading: words, not commented-out code or tool output."""
    words, tokens = _wordy(body)
    if words < 3:
        return False
    return words >= 6 or words * 3 >= tokens * 2 or not _CODE_MARK.search(body)


def _reads_as_sentence(line: str) -> bool:
    """A line of pasted data that is a sentence all the same (a pasted issue's text, a
    log line's message): four words or more, mostly words, nothing marked as code."""
    if _CODE_MARK.search(line) or _TRACE.match(line):
        return False
    words, tokens = _wordy(line)
    return words >= 4 and words * 4 >= tokens * 3


def _language_in(lines: list[str]) -> list[str]:
    """What reads as language in pasted data: its comments, one line each, and its lines
    that read as a sentence (a log line's message without its time stamp and level)."""
    block = "\n".join(lines)
    out: list[str] = []
    for m in _BLOCK_COMMENT.finditer(block):
        body = " ".join(next(g for g in m.groups() if g is not None).replace("*", " ").split())
        if _reads_as_comment(body):
            out.append(body)
    for line in _BLOCK_COMMENT.sub("\n", block).splitlines():
        comment = _LINE_COMMENT.search(line)
        message = _LOG_PREFIX.sub("", line, count=1)
        if comment:
            if _reads_as_comment(comment.group(1)):
                out.append(comment.group(1).strip())
        elif len(_CJK.findall(line)) >= 4 or _reads_as_sentence(message):
            out.append(message)
    return out


def _outside(part: str) -> list[str]:
    """The lines of ``part`` (outside any fence), pasted data left out: a run of two or
    more lines that look like data (blank lines between them do not end it), or one
    stack frame. One line alone that only looks like code stays (a config-looking
    override is language written to look like data)."""
    lines = part.split("\n")
    looks = [_looks_like_data(line) for line in lines]
    for i in range(1, len(lines)):  # the source line a Python frame quotes
        looks[i] = looks[i] or bool(_PY_FRAME.match(lines[i - 1]))
    data = [False] * len(lines)
    run: list[int] = []
    for i, line in enumerate([*lines, "end"]):
        if i < len(lines) and not line.strip():
            continue
        if i < len(lines) and looks[i]:
            run.append(i)
            continue
        if len(run) >= 2 or (len(run) == 1 and _FRAME.match(lines[run[0]])):
            for k in run:
                data[k] = True
        run = []
    kept: list[str] = []
    start = 0
    for i in range(len(lines) + 1):
        if i < len(lines) and data[i] == data[start]:
            continue
        chunk = lines[start:i]
        kept.extend(_language_in(chunk) if data[start] else chunk)
        start = i
    return kept


def language_of(text: str) -> str | None:
    """``text`` with its pasted data left out and what reads as language in it kept, one
    per line; None when nothing in it is pasted data (the text reads as it is)."""
    parts = _FENCE.split(text)
    kept: list[str] = []
    for n, part in enumerate(parts):
        if n % 2 == 0:
            kept.extend(_outside(part))
        else:  # inside a fence (a fence left open runs to the end); its first word, if
            # it stands alone on the opening line, names the language ("```sql")
            kept.extend(_language_in(_INFO.sub("", part, count=1).split("\n")))
    out = "\n".join(kept).strip()
    return None if out == text.strip() else out
