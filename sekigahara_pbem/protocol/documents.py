"""The YAML bodies of the protocol's documents: dumping them mail-safe and reading them
back without trusting them.

Every document (game definition, join, turn file, record, packet, reveal) is a YAML
mapping with a `format` key, signed with crypto/signing.py. Bodies are read with
yaml.safe_load under a size limit, and every field is checked with a message naming the
file and the field.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import re
import zlib
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from ..refusal import N_, Code, Refusal, SekiError, quoted, type_words

MAX_BYTES = 1_000_000  # no legitimate document comes near this
MAX_INFLATED = 8_000_000  # a whole sealed state or packet section inflates to ~100 KB
WRAP = 64  # sealed sections are split into lines of this length


class DocumentError(Refusal):
    """A document that cannot be accepted; `where` names the file and the field (never
    translated). The message is a template filled with `params`, as a Refusal's
    (`DocumentError(where, N_("larger than {limit} bytes"), None, limit=...)`); without
    params it is taken as it is."""

    def __init__(self, where: str, message: str, /, *, code: Code | None = None, **params: Any):
        super().__init__(message, code=code, at=where, **params)


# libyaml's emitter when PyYAML was built with it (seven times faster). Over every
# document of games/demo its text is the pure emitter's byte for byte; they differ only
# in how long double-quoted strings wrap, and both read back to the same data.
# (ignore: a base chosen at run time, which mypy cannot follow)
class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    def ignore_aliases(self, data: object) -> bool:
        """Never an anchor, where a body holds one object twice: a document read with
        `plain_load` refuses aliases, and seki writes only what it would accept."""
        return True


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump(body: dict) -> str:
    """YAML text for a body: keys in the order given, short lines, Unicode kept."""
    return yaml.dump(body, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=72)


def wrap(token: str) -> str:
    """A long token (a sealed section) as lines short enough for any mail system."""
    return "\n".join(token[i : i + WRAP] for i in range(0, len(token), WRAP)) + "\n"


def unwrap(text: str) -> str:
    return "".join(text.split())


def inflate(data: bytes, where: str, limit: int = MAX_INFLATED) -> bytes:
    """zlib-decompress at most `limit` bytes: a small compressed "bomb" in a sealed state
    or section would otherwise inflate to gigabytes in every auditor's `seki verify`."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, limit)
    except zlib.error:
        raise DocumentError(where, N_("not zlib-compressed data")) from None
    if inflater.unconsumed_tail:
        raise DocumentError(where, N_("inflates to more than {limit} bytes"), limit=limit)
    if not inflater.eof:
        raise DocumentError(where, N_("compressed data cut short"))
    if inflater.unused_data.strip(b"\0"):  # zero padding may follow the stream, nothing else
        raise DocumentError(where, N_("data after the compressed stream"))
    return out


def read_capped(path: Path, limit: int = MAX_BYTES) -> str:
    """A file of a game directory as text, refused (naming it) beyond `limit` bytes or
    where it is not UTF-8: an archive is another party's, and even the referee's own
    directory may hold a file put there by hand, so no file in it is read whole
    unchecked, nor decoded on trust."""
    if not path.is_file():
        raise DocumentError(str(path), N_("missing"))
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise DocumentError(str(path), N_("larger than {limit} bytes"), limit=limit)
    return decode(data, str(path))


BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def decode_saved(data: bytes, where: str) -> str:
    """A text file a person saved, as `decode` reads it, but in UTF-16 or with a byte-order
    mark too: what Windows PowerShell 5.1's `>` writes (`seki keys new alice > alice.pub`)."""
    for bom, encoding in BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError:  # boundary: the codec reports bad bytes by raising
                raise DocumentError(where, N_("not UTF-8 or UTF-16 text")) from None
            return text.replace("\r\n", "\n")
    return decode(data, where)


def read_saved(path: Path) -> str:
    """A file a person sent or saved, as text (`decode_saved`), read whole but never
    beyond the size any document may have."""
    with open(path, "rb") as f:
        return decode_saved(f.read(MAX_BYTES + 1), str(path))


def decode(data: bytes, where: str) -> str:
    """Bytes another party sent as UTF-8 text, refused (naming `where`) if they are not:
    Python tells valid UTF-8 only by decoding. Line ends come out as LF, the one form seki
    writes, signs and hashes: a copy whose line ends a tool changed to CRLF (Git for
    Windows' autocrlf, a mail client) is the same document, read one way everywhere."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:  # boundary: the codec reports bad bytes by raising
        raise DocumentError(where, N_("not UTF-8 text")) from None
    return text.replace("\r\n", "\n")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# The longest number a document may hold, in characters: seki writes none longer than a
# dozen digits. Python reads a decimal integer of more than 4,300 digits as a ValueError,
# and one written in hex, octal, binary or base 60 (YAML 1.1) as a number too long to
# write back in decimal: both were bugs where a stranger's document held one.
MAX_NUMBER = 100
NUMBER_TOO_LONG = "a number longer than 100 characters"


def _bounded_int(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> int:
    """YAML's int, refused (a YAMLError naming its line) when longer than MAX_NUMBER."""
    if len(node.value) > MAX_NUMBER:
        raise yaml.constructor.ConstructorError(None, None, NUMBER_TOO_LONG, node.start_mark)
    return loader.construct_yaml_int(node)


class _Safe(yaml.SafeLoader):
    """PyYAML's safe loader, numbers bounded (`_bounded_int`)."""


_Safe.add_constructor("tag:yaml.org,2002:int", _bounded_int)
_FAST: type | None = None
if hasattr(yaml, "CSafeLoader"):  # libyaml, when PyYAML was built with it
    # (ignore: PyYAML ships no types, and CSafeLoader exists only with libyaml)
    class _CSafe(yaml.CSafeLoader):  # type: ignore[misc, name-defined]
        """libyaml's safe loader, numbers bounded (`_bounded_int`)."""

    _CSafe.add_constructor("tag:yaml.org,2002:int", _bounded_int)
    _FAST = _CSafe
FAST_DEPTH = 1000
_LEAD = re.compile(r"^[ ?-]*", re.MULTILINE)


def safe_loader(text: str) -> type:
    """libyaml's safe loader (about ten times faster) when the text is `shallow`, else
    PyYAML's own."""
    return _FAST if _FAST is not None and shallow(text) else _Safe


def shallow(text: str) -> bool:
    """Whether the text cannot nest deeper than FAST_DEPTH: libyaml composes nodes by
    recursion in C, so a document nested a hundred thousand deep would crash the process
    instead of raising. The bound: every flow bracket may open a level, and block nesting
    needs indentation or `- `/`? ` indicators at the start of a line (a mapping's sequence
    may share its indentation, hence twice). No line's lead is longer than the line: where
    the longest line keeps within the bound, the leads are not measured (matching `_LEAD`
    everywhere was a third of reading a document)."""
    flows = text.count("[") + text.count("{")
    if flows + 2 * (max(map(len, text.split("\n"))) + 1) <= FAST_DEPTH:
        return True
    lead = max(map(len, _LEAD.findall(text)), default=0)
    return flows + 2 * (lead + 1) <= FAST_DEPTH


def safe_load(text: str) -> Any:
    """The text's YAML, read by the safe loader `safe_loader` picks: with `plain_load`,
    the one place seki parses a document or a component manifest (`load_yaml`,
    protocol/component_files.py)."""
    loader = safe_loader(text)
    return constructed(text, loader) if loader is _Safe else _load(text, loader)


def _load(text: str, loader: type) -> Any:
    """`constructed(text, loader)` for one of libyaml's loaders, its objects built by
    `_built` where the document is plain (no alias, no merge key): PyYAML's constructor
    was two thirds of reading a document, the rest being libyaml's."""
    if "*" in text or "<<" in text:
        return constructed(text, loader)
    reader = loader(text)
    try:
        node = reader.get_single_node()
        return None if node is None else _built(reader, node, 0)
    except (_Unusual, yaml.YAMLError, *_CONSTRUCTOR_ERRORS):  # read again, to fail as
        pass  # PyYAML fails (it builds breadth first: the first value it refuses may differ)
    finally:
        reader.dispose()
    return constructed(text, loader)


# What PyYAML's constructors raise, besides YAMLError, for a tagged value that cannot be:
# ValueError (2026-02-30, !!int x), KeyError (!!bool maybe), IndexError (an empty !!int),
# AttributeError (!!timestamp x), TypeError. Each was an internal error once.
_CONSTRUCTOR_ERRORS = (ValueError, KeyError, IndexError, AttributeError, TypeError)
CANNOT_BE = "a value its type cannot have"


def constructed(text: str, loader: type) -> Any:
    """PyYAML's reading of the text with `loader`, one of seki's safe loaders (documents.py,
    component_files.py); a value its constructors cannot make is refused as a YAMLError,
    as any other text PyYAML cannot read."""
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader
    except _CONSTRUCTOR_ERRORS:  # boundary: the error PyYAML raises, whichever
        raise yaml.constructor.ConstructorError(None, None, CANNOT_BE, None) from None


_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_INT, _BOOL, _NULL = "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")  # what YAML 1.1 reads as Python does
_BOOLS = yaml.constructor.SafeConstructor.bool_values  # yes/no/on/off too, as PyYAML
BUILT_DEPTH = 100  # deeper: PyYAML's constructor (seki writes documents a few levels deep)


class _Unusual(SekiError):  # noqa: N818 - not an error: the document goes to PyYAML
    """A document `_built` leaves to PyYAML's own constructor, to be read exactly as it."""


def _built(reader: Any, node: yaml.Node, depth: int) -> Any:
    """The object PyYAML's safe constructor makes of a node, made directly for text,
    lists and mappings of hashable keys; any other scalar by the loader's own constructor
    (numbers bounded, booleans, nulls ...); any other collection (a set, a tagged one, an
    unhashable key, which PyYAML refuses) is `_Unusual`."""
    tag = node.tag
    if type(node) is yaml.ScalarNode:
        value = node.value
        if tag == _STR:
            return value
        if tag == _INT and _DECIMAL.fullmatch(value):
            return int(value)
        if tag == _BOOL:
            return _BOOLS[value.lower()]
        return None if tag == _NULL else reader.construct_object(node, deep=True)
    if depth > BUILT_DEPTH:
        raise _Unusual
    if type(node) is yaml.SequenceNode and tag == _SEQ:
        return [_built(reader, item, depth + 1) for item in node.value]
    if type(node) is yaml.MappingNode and tag == _MAP:
        out = {}
        for key_node, value_node in node.value:
            key = _built(reader, key_node, depth + 1)
            if isinstance(key, list | dict):
                raise _Unusual
            out[key] = _built(reader, value_node, depth + 1)
        return out
    raise _Unusual


NO_ALIASES = "aliases are not allowed"


class PlainLoader(_Safe):
    """The safe loader without anchors or aliases: an alias could make a structure that
    refers to itself, or grow a small text into a huge one once it is walked."""

    def compose_node(self, parent, index):  # noqa: ANN001, ANN201 - PyYAML's signature
        if self.check_event(yaml.AliasEvent):
            event = self.get_event()
            raise yaml.composer.ComposerError(None, None, NO_ALIASES, event.start_mark)
        return super().compose_node(parent, index)


def plain_load(text: str, fast: type | None = _FAST, slow: type = PlainLoader) -> Any:
    """The text's YAML, refused (yaml.YAMLError) where it has an alias: for what another
    party wrote and seki walks whole (two-party documents, the component set a game
    carries). `fast` is a libyaml loader (None where PyYAML was built without it) and
    `slow` the same constructors on PlainLoader, for a text that is not `shallow`.
    libyaml's loader cannot be told to refuse aliases, so the text's events are first
    read by libyaml's parser (which does not recurse) and an alias refused; every alias
    begins with `*`, so a text without one needs no such pass. PlainLoader is eight to
    fourteen times slower: it was most of `seki verify`'s time, then most of reading a
    game's own component set (0.2 s)."""
    if fast is None or not shallow(text):
        return constructed(text, slow)
    if "*" in text:
        _refuse_aliases(text, fast)
    return _load(text, fast)


def _refuse_aliases(text: str, loader: type) -> None:
    """Raise a ComposerError at the text's first alias, as PlainLoader would."""
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, NO_ALIASES, event.start_mark)


def load_yaml(text: str, where: str, plain: bool = False) -> Any:
    """Parse YAML from a file or a mail, refusing (naming `where`) what is too large,
    malformed or nested too deeply; with `plain`, for what a player wrote (a modified
    client may write anything), anchors and aliases too (`plain_load`)."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise DocumentError(where, N_("larger than {limit} bytes"), limit=MAX_BYTES)
    try:
        return plain_load(text) if plain else safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        if mark is None:
            raise DocumentError(where, N_("not valid YAML")) from None
        if getattr(exc, "problem", None) == NO_ALIASES:
            raise DocumentError(
                where, N_("YAML aliases are not allowed (line {line})"), line=mark.line + 1
            ) from None
        if getattr(exc, "problem", None) == NUMBER_TOO_LONG:
            raise DocumentError(
                where,
                N_("a number longer than {limit} characters (line {line})"),
                limit=MAX_NUMBER,
                line=mark.line + 1,
            ) from None
        raise DocumentError(
            where, N_("not valid YAML at line {line}"), line=mark.line + 1
        ) from None
    except RecursionError:  # boundary: PyYAML's own loader composes by recursion
        raise DocumentError(where, N_("nested too deeply")) from None


def load(text: str, where: str, fmt: str | tuple[str, ...], plain: bool = False) -> dict:
    """Parse a document body (`plain`: a player's, `load_yaml`) and check its format tag:
    `fmt`, or one of several (a refusal names the last, the current one)."""
    formats = (fmt,) if isinstance(fmt, str) else fmt
    body = load_yaml(text, where, plain)
    if not isinstance(body, dict):
        raise DocumentError(where, N_("expected a YAML mapping"))
    if body.get("format") not in formats:
        raise DocumentError(
            f"{where}: format",
            N_("expected {what}, got {value}"),
            what=quoted(formats[-1]),
            value=quoted(body.get("format")),
        )
    return body


def field(body: dict, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """A required field of the given type."""
    value = body.get(key)
    if (
        value is None
        or isinstance(value, bool) is not (kind is bool)
        or not isinstance(value, kind)
    ):
        want = type_words(kind)
        raise DocumentError(f"{where}: {key}", N_("missing or not {kind}"), kind=want)
    return value


def load_json(data: str | bytes, where: str) -> object:
    """JSON another party sealed or wrote, refused (naming `where`) unless it is UTF-8 JSON.
    The json module reports bad input only by raising: a syntax error, bytes that are not
    UTF-8, a nesting deeper than the interpreter's stack (RecursionError)."""
    try:
        return json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):  # boundary: json
        raise DocumentError(where, N_("does not hold JSON")) from None


_HEX = re.compile(r"(?:[0-9a-f]{2})*")


def is_hex(value: object, size: int | None = None) -> TypeGuard[str]:
    """Whether `value` is lowercase hex text (of `size` bytes, if given), as seki writes
    bytes: checked before `bytes.fromhex`, which would refuse it only by a ValueError."""
    return (
        isinstance(value, str)
        and _HEX.fullmatch(value) is not None
        and (size is None or len(value) == 2 * size)
    )


def hex_field(body: dict, key: str, where: str, size: int | None = None) -> bytes:
    """A required field of bytes written as lowercase hex (of `size` bytes, if given)."""
    value = field(body, key, str, where)
    if not is_hex(value, size):
        if size is None:
            raise DocumentError(f"{where}: {key}", N_("not hex"))
        raise DocumentError(f"{where}: {key}", N_("expected {n} bytes in hex"), n=size)
    return bytes.fromhex(value)


def peek_game(text: str, where: str) -> str:
    """The game id a signed document claims, before its signature is checked (to find the
    game definition whose keys will check it)."""
    from ..crypto.signing import split

    body, _ = split(text)
    data = load_yaml(body, where)
    game = data.get("game") if isinstance(data, dict) else None
    if not isinstance(game, str):
        raise DocumentError(f"{where}: game", N_("missing"))
    return game
