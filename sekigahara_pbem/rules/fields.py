"""Reading the fields of an action dict, with `Malformed` naming the field when the shape
is wrong. Actions come from files players write, so nothing is assumed about them."""

from __future__ import annotations

from typing import Any

from .vocab import Malformed

MAX_LIST = 200


def get_str(action: dict, key: str, required: bool = True) -> Any:
    value = action.get(key)
    if value is None:
        if required:
            raise Malformed(key, "missing")
        return None
    if not isinstance(value, str):
        raise Malformed(key, f"expected text, got {type(value).__name__}")
    return value


def get_str_list(action: dict, key: str, required: bool = True) -> list[str]:
    value = action.get(key)
    if value is None:
        if required:
            raise Malformed(key, "missing")
        return []
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise Malformed(key, f"expected a list of at most {MAX_LIST} names")
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise Malformed(f"{key}[{i}]", f"expected text, got {type(v).__name__}")
    return value


def get_dict_list(action: dict, key: str) -> list[dict]:
    value = action.get(key)
    if not isinstance(value, list) or not value or len(value) > MAX_LIST:
        raise Malformed(key, "expected a non-empty list")
    for i, v in enumerate(value):
        if not isinstance(v, dict):
            raise Malformed(f"{key}[{i}]", "expected a mapping")
    return value


def one_of(value: str, choices: Any, key: str) -> str:
    if value not in choices:
        raise Malformed(key, f"'{value}' is not one of {', '.join(sorted(choices))}")
    return value


def known(value: str, table: Any, key: str, what: str) -> str:
    if value not in table:
        raise Malformed(key, f"unknown {what} '{value}'")
    return value
