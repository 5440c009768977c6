"""Mutations for the fuzz harness: text, JSON documents and argument vectors made wrong the
ways an unlucky user or an attacker makes them, from a seeded `random.Random`.

Every function here is deterministic given the `Random` it is handed, so a run is
reproduced from its seed; nothing here knows a genre.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

MAX_CHARS = 250_000
"""Mutated inputs are cut to this length (the harness fuzzes parsers, not memory)."""

SPICE = (
    *("\x00", "\ud800", "\udfff", "\udc80", "\n", "\r", "\t", "\x0b", "\x85", "\u2028"),
    *("\ufeff", "\u200b", "\u00e9", "\u0663", "\u00b2", "\uff15", "\u0660", " "),
    *"xX./:,-_?#+o%&={}[]\"\\'019azAZ~;*^|<>!",
)
"""Characters that parsers trip on: NULs, surrogates, line breaks of every kind, digits
that `int()` accepts but regexes may not (Arabic-Indic, fullwidth) and ones it refuses
(superscripts), separators of every format."""

PIECES = (
    ".",
    "/",
    "x",
    ":",
    ",",
    "-",
    "_",
    "?",
    "&",
    "=",
    "p?",
    "/p?",
    "0",
    "1",
    "9",
    "00",
    "-1",
    "99",
    "100",
    "101",
    "1024",
    "1025",
    "999999",
    "9" * 40,
    "1e9",
    "..",
    "//",
    "%00",
    "%2e%2e",
    "https://",
    "_edit",
    "_play",
    "#",
    "+",
    "....",
    "####",
    " ",
    "\n",
    "\ud800",
    "\r\n",
    "0x10",
    "1_000",
    "+5",
    "NaN",
    "inf",
)
"""Pieces inserted whole: separators, digits, numbers at and past the size limits."""

NUMBERS = (
    "0",
    "-1",
    "1",
    "2",
    "3",
    "4",
    "5",
    "30",
    "31",
    "99",
    "100",
    "101",
    "1000",
    "1024",
    "1025",
    "65535",
    "65536",
    "2147483648",
    "9" * 20,
    "9" * 400,
    "00",
    "007",
    "1.5",
    "1e3",
    "-0",
    "\u0663",
    "\uff15",
)

_DIGITS = re.compile(r"[0-9]+")


def _any_char(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(SPICE)
    if roll < 0.8:
        return chr(rng.randrange(32, 127))
    return chr(rng.randrange(0x110000))


def _flip(rng: random.Random, text: str) -> str:
    if not text:
        return _any_char(rng)
    at = rng.randrange(len(text))
    return text[:at] + _any_char(rng) + text[at + 1 :]


def _flip_byte(rng: random.Random, text: str) -> str:
    raw = bytearray(text.encode("utf-8", "surrogatepass"))
    if not raw:
        return text
    at = rng.randrange(len(raw))
    raw[at] ^= 1 << rng.randrange(8)
    return bytes(raw).decode("utf-8", "surrogateescape")


def _truncate(rng: random.Random, text: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text) + 1)
    return text[:at] if rng.random() < 0.7 else text[at:]


def _insert(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    piece = rng.choice(PIECES) * (1 if rng.random() < 0.9 else rng.randrange(2, 50))
    return text[:at] + piece + text[at:]


def _delete(rng: random.Random, text: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text))
    return text[:at] + text[at + rng.randrange(1, 9) :]


def _duplicate(rng: random.Random, text: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text))
    span = text[at : at + rng.randrange(1, max(2, len(text) - at + 1))]
    return text[:at] + span * rng.randrange(2, 4) + text[at:]


def _swap(rng: random.Random, text: str) -> str:
    if len(text) < 2:
        return text
    i, j = sorted(rng.sample(range(len(text)), 2))
    return text[:i] + text[j] + text[i + 1 : j] + text[i] + text[j + 1 :]


def _case(rng: random.Random, text: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text))
    end = at + rng.randrange(1, 12)
    return text[:at] + text[at:end].swapcase() + text[end:]


def _number(rng: random.Random, text: str) -> str:
    runs = list(_DIGITS.finditer(text))
    if not runs:
        return _insert(rng, text)
    run = rng.choice(runs)
    return text[: run.start()] + rng.choice(NUMBERS) + text[run.end() :]


def _field(rng: random.Random, text: str) -> str:
    """Delete, duplicate or swap one field between separators (`.`, `/`, `:`, `,`, lines)."""
    seps = [s for s in (".", "/", ":", ",", "\n", "&", "?") if s in text]
    if not seps:
        return _insert(rng, text)
    sep = rng.choice(seps)
    fields = text.split(sep)
    at = rng.randrange(len(fields))
    roll = rng.random()
    if roll < 0.4:
        del fields[at]
    elif roll < 0.8:
        fields.insert(at, fields[at])
    else:
        other = rng.randrange(len(fields))
        fields[at], fields[other] = fields[other], fields[at]
    return sep.join(fields)


TEXT_OPS: tuple[Callable[[random.Random, str], str], ...] = (
    _flip,
    _flip,
    _flip_byte,
    _truncate,
    _insert,
    _insert,
    _delete,
    _duplicate,
    _swap,
    _case,
    _number,
    _number,
    _field,
    _field,
)


def mutate_text(rng: random.Random, text: str, most: int = 4) -> str:
    """`text` after one to `most` random edits (flips, truncation, insertions, fields)."""
    for _ in range(1 + min(most - 1, int(rng.expovariate(1.2)))):
        text = rng.choice(TEXT_OPS)(rng, text)
        if len(text) > MAX_CHARS:
            text = text[:MAX_CHARS]
    return text


# --- JSON --------------------------------------------------------------------------------


class Raw:
    """A JSON token written as is (a 5,000-digit integer, NaN, deep nesting), which
    `json.dumps` would refuse or could not spell."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _odd_value(rng: random.Random) -> Any:
    choices: tuple[Callable[[], Any], ...] = (
        lambda: None,
        lambda: True,
        lambda: False,
        lambda: 0,
        lambda: -1,
        lambda: 1.5,
        lambda: 2.0,
        lambda: 2**63,
        lambda: -(2**63) - 1,
        lambda: "",
        lambda: "1",
        lambda: "5x5",
        lambda: "\ud800",
        lambda: "a\nb",
        lambda: "x" * rng.choice((100, 10_000)),
        list,
        dict,
        lambda: [[]],
        lambda: [None],
        lambda: {"": None},
        lambda: Raw("1" + "0" * 4999),
        lambda: Raw("-" + "7" * 5000),
        lambda: Raw("9" * 4300),
        lambda: Raw("1e400"),
        lambda: Raw("-1e400"),
        lambda: Raw("NaN"),
        lambda: Raw("Infinity"),
        lambda: Raw("1E-400"),
        lambda: Raw("[" * 50_000 + "]" * 50_000),
        lambda: Raw('{"a":' * 20_000 + "1" + "}" * 20_000),
        lambda: Raw("[" * 300 + "1" + "]" * 300),
        lambda: Raw('"\\ud800"'),
        lambda: Raw('"\\udfff\\ud800"'),
        lambda: Raw('"\\u0000"'),
    )
    return rng.choice(choices)()


ODD_KEYS = ("", "\ud800", "a\nb", "a\rb", "\u2028", "genre", "id", "x" * 300, "0", "__proto__")


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths to every node of a JSON value (capped: big boards have many cells)."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):
            out += _nodes(item, (*path, index))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def mutate_json(rng: random.Random, doc: Any, most: int = 3) -> Any:
    """A deep copy of the JSON value `doc` after one to `most` structural edits: keys
    deleted or added (odd names), values swapped for odd types, lists cut, grown or
    wrapped. May hold `Raw` tokens; write it with `dump_json`."""
    doc = json.loads(json.dumps(doc))
    for _ in range(1 + min(most - 1, int(rng.expovariate(1.0)))):
        path = rng.choice(_nodes(doc))
        node = _get(doc, path)
        roll = rng.random()
        if isinstance(node, dict) and roll < 0.5:
            if node and rng.random() < 0.5:
                del node[rng.choice(list(node))]
            else:
                node[rng.choice(ODD_KEYS)] = _odd_value(rng)
        elif isinstance(node, list) and roll < 0.6:
            action = rng.randrange(5)
            if action == 0 and node:
                del node[rng.randrange(len(node))]
            elif action == 1 and node:
                node.insert(rng.randrange(len(node)), node[rng.randrange(len(node))])
            elif action == 2:
                node.append(_odd_value(rng))
            elif action == 3:
                doc = _set(doc, path, [node])
            else:
                del node[rng.randrange(len(node) + 1) :]
        elif isinstance(node, str) and roll < 0.5:
            doc = _set(doc, path, mutate_text(rng, node, 2))
        elif isinstance(node, int) and not isinstance(node, bool) and roll < 0.5:
            doc = _set(doc, path, rng.choice((node + 1, node - 1, -node, node * 1000, 0)))
        else:
            doc = _set(doc, path, _odd_value(rng))
    return doc


def dump_json(rng: random.Random, value: Any, edit: bool = True) -> str:
    """JSON text of `value` with its `Raw` tokens spelled out; with `edit`, sometimes a key
    duplicated or the text edited after writing."""
    raws: list[str] = []

    def placeholder(item: Any) -> Any:
        if isinstance(item, Raw):
            raws.append(item.text)
            return f"@@RAW{len(raws) - 1}@@"
        raise TypeError(type(item).__name__)

    text = json.dumps(
        value,
        default=placeholder,
        ensure_ascii=rng.random() < 0.5,
        indent=None if rng.random() < 0.8 else 1,
    )
    for index, raw in enumerate(raws):
        text = text.replace(f'"@@RAW{index}@@"', raw, 1)
    roll = rng.random() if edit else 1.0
    if roll < 0.1 and text.startswith("{") and len(text) > 2:
        key = rng.choice(('"genre": "nonogram"', '"genre": 1', '"width": 5', '"id": null'))
        text = "{" + key + ", " + text[1:]
    elif roll < 0.3:
        text = mutate_text(rng, text, 2)
    return text


# --- argument vectors --------------------------------------------------------------------


def mutate_argv(
    rng: random.Random, argv: list[str], flags: tuple[str, ...], value: Callable[[str], str]
) -> list[str]:
    """`argv` after one to three edits: tokens dropped, repeated, swapped, flags added or
    misspelt, `--flag=value` joined, a value replaced (`value(token)` mutates one)."""
    argv = list(argv)
    for _ in range(1 + min(2, int(rng.expovariate(1.2)))):
        roll = rng.random()
        at = rng.randrange(len(argv) + 1)
        if roll < 0.12 and argv:
            del argv[min(at, len(argv) - 1)]
        elif roll < 0.2 and argv:
            token = argv[min(at, len(argv) - 1)]
            argv.insert(at, token)
        elif roll < 0.26 and len(argv) > 1:
            i, j = rng.sample(range(len(argv)), 2)
            argv[i], argv[j] = argv[j], argv[i]
        elif roll < 0.4:
            flag = rng.choice(flags)
            argv[at:at] = [flag] if rng.random() < 0.4 else [flag, rng.choice(NUMBERS + PIECES)]
        elif roll < 0.46 and argv:
            i = rng.randrange(len(argv))
            if argv[i].startswith("--") and i + 1 < len(argv):
                argv[i : i + 2] = [f"{argv[i]}={argv[i + 1]}"]
        elif roll < 0.52 and argv:
            i = rng.randrange(len(argv))
            if argv[i].startswith("--"):
                argv[i] = mutate_text(rng, argv[i], 1)
        elif roll < 0.56:
            argv.insert(at, rng.choice(("--", "-", "-h", "--help", "--json", "")))
        elif argv:
            i = rng.randrange(len(argv))
            argv[i] = value(argv[i])
    return argv


def real_argv_text(text: str) -> str:
    """`text` as a real command line can carry it: lone surrogates other than the
    `\\udc80`-`\\udcff` that Python makes of undecodable bytes are folded into that range,
    NULs (which no argv can hold) dropped."""
    out = []
    for char in text:
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF and not 0xDC80 <= code <= 0xDCFF:
            out.append(chr(0xDC80 + code % 128))
        elif char != "\x00":
            out.append(char)
    return "".join(out)
