"""Reading the fields of an action dict, with `Malformed` naming the field when the shape
is wrong. Actions come from files players write, so nothing is assumed about them."""

from __future__ import annotations

from typing import Any

from ..refusal import type_words
from .vocab import N_, Malformed

MAX_LIST = 200


def get_str(action: dict, key: str, required: bool = True) -> Any:
    value = action.get(key)
    if value is None:
        if required:
            raise Malformed(key, N_("missing"))
        return None
    if not isinstance(value, str):
        raise Malformed(key, N_("expected text, got {type}"), type=type_words(type(value)))
    return value


def get_str_list(action: dict, key: str, required: bool = True) -> list[str]:
    value = action.get(key)
    if value is None:
        if required:
            raise Malformed(key, N_("missing"))
        return []
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise Malformed(key, N_("expected a list of at most {n} names"), n=MAX_LIST)
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise Malformed(
                f"{key}[{i}]", N_("expected text, got {type}"), type=type_words(type(v))
            )
    return value


def get_dict_list(action: dict, key: str) -> list[dict]:
    value = action.get(key)
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        raise Malformed(key, N_("expected a non-empty list"))
    for i, v in enumerate(value):
        if not isinstance(v, dict):
            raise Malformed(f"{key}[{i}]", N_("expected a mapping"))
    return value


def one_of(value: str, choices: Any, key: str) -> str:
    if value not in choices:
        raise Malformed(
            key,
            N_("'{value}' is not one of {choices}"),
            value=value,
            choices=", ".join(sorted(choices)),
        )
    return value


def known(value: str, table: Any, key: str, unknown: str) -> str:
    """`value` if `table` has it; else Malformed with the template `unknown` (marked with
    N_, naming {value}), so that each kind of name is refused in words a translator can
    inflect."""
    if value not in table:
        raise Malformed(key, unknown, value=value)
    return value
