"""A public form as the change from the one before: records carry these, not whole
states (a whole public form is about 6 KB; the change of one entry, a few lines)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..refusal import N_, Refusal
from ..rules.slots import SLOT

MAX_DEPTH = 16  # levels: a public form is 7 deep, an action 4


def diff(before: Mapping[str, object], after: Mapping[str, object]) -> list[list]:
    """[path..., value] to set, or [path...] to delete, in key order; lists are set whole."""
    out: list[list] = []
    _diff(before, after, [], out)
    return out


def _diff(a: Any, b: Any, path: list, out: list[list]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in b:
                out.append([*path, k])
            elif k not in a:
                out.append([*path, k, {"=": b[k]}])
            else:
                _diff(a[k], b[k], [*path, k], out)
    elif a != b or type(a) is not type(b):
        out.append([*path, {"=": b}])


def patch(before: Mapping[str, object], changes: list[list]) -> Mapping[str, object]:
    """The public form `changes` (from `diff`) make of `before`; a Refusal (a ValueError)
    if one does not fit."""
    out = copy.deepcopy(before)
    for change in changes:
        if not isinstance(change, list) or not change:
            raise Refusal(N_("a change is not a non-empty list"))
        *path, last = change
        if isinstance(last, dict) and set(last) == {"="}:
            plain(last["="], MAX_DEPTH - len(path))
            if not path:
                if not isinstance(last["="], dict):
                    raise Refusal(N_("a public form is a mapping"))
                out = last["="]
                continue
            *above, key = path
            _at(out, above)[_key(key)] = last["="]
        else:
            parent = _at(out, path)
            if _key(last) not in parent:
                where = "/".join(map(str, change))
                raise Refusal(N_("nothing to delete at {path}"), path=where)
            del parent[_key(last)]
    return out


def _key(key: object) -> str:
    if not isinstance(key, str) or len(key) > 100 or not key.isprintable():
        raise Refusal(N_("a path step is not a name"))
    return key


def _at(value: object, path: list) -> dict:
    for step in path:
        if not isinstance(value, dict) or _key(step) not in value:
            where = "/".join(map(str, path))
            raise Refusal(N_("no place {path}"), path=where)
        value = value[step]
    if not isinstance(value, dict):
        where = "/".join(map(str, path))
        raise Refusal(N_("{path} is not a mapping"), path=where)
    return value


def plain(value: object, depth: int = MAX_DEPTH) -> None:
    """A Refusal unless `value` (an action or a public form's part, as a record claims it)
    is nested at most `depth` levels and each list in it that holds a handle holds only
    text. The walks that read them recurse a level at a time, and `knowledge.replace`
    sorts such a list (so its order says nothing of the handles): a form built deeper, a
    change at a time, or a handle beside a number, would stop them with an internal
    error where the record should be refused."""
    if depth < 0:
        raise Refusal(N_("nested more than {limit} levels deep"), limit=MAX_DEPTH)
    if isinstance(value, dict):
        for item in value.values():
            plain(item, depth - 1)
    elif isinstance(value, list):
        texts = [v for v in value if isinstance(v, str)]
        if len(texts) < len(value) and any(v.startswith(SLOT) for v in texts):
            raise Refusal(N_("a list holds a handle beside what is not a name"))
        for item in value:
            plain(item, depth - 1)
