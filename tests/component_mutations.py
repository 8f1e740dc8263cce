"""A fuzzer for component sets (issue 37): sets derived from the packaged one by
structure-aware mutations (a field dropped, an item duplicated or removed, a value of
another type, a number out of range or huge, an odd string, a reference swapped for
another id), now and then written out as YAML and mutated as text (a 5,000-digit
integer, a date that does not exist, an alias), each loaded as a game's carried copy is.

Each set must end in one of two ways: refused with a ComponentError (a one-line message
naming the file and the field), or accepted; an accepted set must play a random game to
the end (rules/engine.py through testing/random_player.playout) with every invariant
holding at its end, and its public report must render, text and HTML. Anything else is
a failure, kept with the seed that replays it.

Used by tests/test_component_fuzz.py (a short run in CI, the long one marked slow).
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from sekigahara_pbem.protocol import component_files
from sekigahara_pbem.protocol.component_files import MANIFESTS
from sekigahara_pbem.reports import render_public_html, render_public_text
from sekigahara_pbem.rules.components import ComponentError, Components, build_components
from sekigahara_pbem.rules.invariants import check_all
from sekigahara_pbem.rules.views import view
from sekigahara_pbem.testing.random_player import playout

ODD_STRINGS = [
    "", " ", "../../etc/passwd", "a/b", "x\x00y", "x\ny", "x\u200fy", "\u202eosaka",
    "?ishida-f1", "?ishida-s0", "<b>Osaka</b>", "Osaka & Kyoto", "{side}", "%s", "-rf",
    "OSAKA", "osaka ", "ōsaka", "x" * 300, "bag", "mori", "recruit", "eliminated",
    "ishida", "tokugawa", "1", "a--b", "a_b", "Kyōto\u0301\u0301", "\ufeffkyoto", "\t",
]  # fmt: skip
ODD_NUMBERS = [-(10**40), -1, 0, 1, 2, 3, 4, 5, 7, 8, 99, 100, 10**6, 10**40, 10**5000]
ODD_VALUES = [None, True, False, 1.5, float("inf"), [], {}, [1, 2], {"a": 1}, "1"]
TEXT_MUTATIONS = [
    ("number", "1" * 5000), ("number", "0x" + "f" * 5000), ("number", "-" + "9" * 4301),
    ("number", "1:" * 2000 + "0"), ("date", "2026-02-30"), ("date", "2026-11-22"),
    ("int tag", "!!int x"), ("alias", "&a [1, 2]"), ("binary", "!!binary aGk="),
    ("set", "!!set {a: null}"), ("float", "1e99999"), ("null", "~"),
]  # fmt: skip


@dataclass
class Outcome:
    sets: int = 0
    accepted: int = 0
    played: int = 0
    refused: int = 0
    seconds: float = 0.0
    failures: list = field(default_factory=list)  # (seed, mutations, what went wrong)
    messages: set = field(default_factory=set)


def packaged_docs() -> dict[str, Any]:
    """The packaged set's three manifests as the loader parses them."""
    texts = component_files.component_set().texts
    return {n: yaml.safe_load(t) for n, t in zip(MANIFESTS, texts, strict=True)}


def _places(doc: Any, path: tuple = ()) -> list[tuple]:
    """Every (container path, key or index) in a manifest."""
    found = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            found.append((path, k))
            found.extend(_places(v, (*path, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found.append((path, i))
            found.extend(_places(v, (*path, i)))
    return found


def _at(doc: Any, path: tuple) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _ids(docs: dict) -> list[str]:
    """Ids of every kind, for swapped references."""
    found = [loc["id"] for loc in docs["board"]["locations"]]
    found += [c["id"] for c in docs["blocks"]["clans"]]
    found += [b["id"] for b in docs["blocks"]["blocks"]]
    found += [c["id"] for c in docs["cards"]["cards"]]
    return found + ["gold_square", "black_star", "gold", "black"]


def _replacement(rnd: random.Random, ids: list[str], old: Any) -> Any:
    """A value in place of `old`: of another type, an odd number or string, or another
    id (a swapped reference)."""
    roll = rnd.random()
    if roll < 0.3:
        return rnd.choice(ids)
    if roll < 0.5:
        return rnd.choice(ODD_NUMBERS) if isinstance(old, int) else rnd.choice(ODD_STRINGS)
    if roll < 0.7:
        return rnd.choice(ODD_VALUES)
    if roll < 0.85 and isinstance(old, int) and not isinstance(old, bool):
        return old + rnd.choice((-2, -1, 1, 2))
    return rnd.choice(ODD_STRINGS + ODD_NUMBERS[:-1])


def _plausible(docs: dict, rnd: random.Random) -> str:
    """A change a set's owner could make on purpose: mostly still a set that loads."""
    board, blocks, cards = docs["board"], docs["blocks"]["blocks"], docs["cards"]["cards"]
    locations, roads = board["locations"], board["roads"]
    roll = rnd.randrange(14)
    if roll == 0 and roads:
        return f"road {roads.pop(rnd.randrange(len(roads)))} removed"
    if roll == 1:
        a, b = rnd.sample([loc["id"] for loc in locations], 2)
        roads.append([a, b, rnd.choice(("road", "highway"))])
        return f"road {a}-{b} added"
    if roll == 2:
        deck = rnd.choice(("ishida", "tokugawa"))
        keep = rnd.choice((0, 1, 4, 5, 6, 7, 10, 30))
        mine = [c for c in cards if c["deck"] == deck]
        gone = {c["id"] for c in rnd.sample(mine, max(len(mine) - keep, 0))}
        docs["cards"]["cards"] = [c for c in cards if c["id"] not in gone]
        return f"{deck} deck cut to {keep}"
    if roll == 3:
        bag = [b for b in blocks if not b.get("setup")]
        gone = {b["id"] for b in rnd.sample(bag, rnd.randrange(len(bag)))}
        docs["blocks"]["blocks"] = [b for b in blocks if b["id"] not in gone]
        return f"{len(gone)} bag blocks removed"
    if roll == 4:
        b = rnd.choice(blocks)
        b.update(mon=rnd.randint(1, 4), ability=rnd.choice((None, "gun", "cavalry")),
                 any_card=rnd.random() < 0.2)  # fmt: skip
        return f"block {b['id']} changed"
    if roll == 5:
        c = rnd.choice(cards)
        c["bid"] = rnd.randint(1, 9)
        if rnd.random() < 0.5:
            docs["cards"]["bid_tie"] = rnd.choice(("ishida", "gold", "black"))
        return f"card {c['id']} bid {c['bid']}"
    if roll == 6:
        loc = rnd.choice(locations)
        loc["random_blocks"] = rnd.choice((None, {"side": rnd.choice(("gold", "black")),
                                                  "count": rnd.randint(1, 3)}))  # fmt: skip
        return f"random blocks at {loc['id']}"
    if roll == 7:
        board["boxes"]["recruitment"] = {s: rnd.randint(0, 8) for s in ("ishida", "tokugawa")}
        board["recruitment_track"] = {w: rnd.randint(0, 4) for w in range(1, rnd.randint(2, 8))}
        return "recruitment changed"
    if roll == 8:
        loc = rnd.choice(locations)
        loc["castle"] = rnd.choice((None, "gold", "black"))
        return f"castle at {loc['id']}: {loc['castle']}"
    if roll == 9:
        symbol = board["boxes"]["mori"].pop("setup")["symbol"]
        board["boxes"]["mori"].pop("enters_at")
        for b in blocks:
            if b.get("setup") == symbol:
                del b["setup"]
        return "no Mori Box"
    if roll == 10:
        loc = rnd.choice(locations)
        loc["name"] = rnd.choice(("Ōsaka-jō", "Kyōto (capital)", "大坂", "Edo 2", "Sōma–Iwaki"))
        return f"{loc['id']} renamed"
    if roll == 11:
        loc = rnd.choice(locations)
        loc["pos"] = [rnd.randint(0, board["size"][0]), rnd.randint(0, board["size"][1])]
        return f"{loc['id']} moved"
    if roll == 12:
        loc = rnd.choice(locations)
        board["roads"] = [r for r in roads if loc["id"] not in r[:2]]
        return f"{loc['id']} cut off"
    b = rnd.choice(blocks)
    others = [c["id"] for c in docs["blocks"]["clans"]]
    b["clan"] = rnd.choice(others)
    return f"block {b['id']} of clan {b['clan']}"


def mutate(docs: dict, rnd: random.Random) -> list[str]:
    """One to three mutations of the manifests, in place; what each was. About half are
    plausible changes (`_plausible`), so that many sets load and are played."""
    ids = _ids(docs)
    done = []
    for _ in range(rnd.choice((1, 1, 2, 3))):
        if rnd.random() < 0.5:
            try:
                done.append(_plausible(docs, rnd))
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                done.append("a plausible change that found the set already broken")
            continue
        name = rnd.choice(MANIFESTS)
        path, key = rnd.choice(_places(docs[name]))
        container = _at(docs[name], path)
        kind = rnd.choice(("drop", "duplicate", "replace", "replace", "replace", "key"))
        where = f"{name}{list(path)}[{key!r}]"
        if kind == "drop":
            del container[key]
        elif kind == "duplicate" and isinstance(container, list):
            container.insert(key, copy.deepcopy(container[key]))
        elif kind == "key" and isinstance(container, dict):
            container[rnd.choice(ODD_STRINGS[:6] + ["extra", 7])] = container.pop(key)
        else:
            kind = "replace"
            container[key] = _replacement(rnd, ids, container[key])
        done.append(f"{kind} {where}")
    return done


def mutate_text(texts: list[str], rnd: random.Random) -> str:
    """One value of one manifest's YAML replaced by hostile text."""
    i = rnd.randrange(len(texts))
    what, bad = rnd.choice(TEXT_MUTATIONS)
    lines = texts[i].split("\n")
    candidates = [n for n, line in enumerate(lines) if ": " in line and not line.startswith("#")]
    n = rnd.choice(candidates)
    head, _, rest = lines[n].rpartition(": ")
    tail = "}" * rest.count("}") if rest.endswith("}") else ""
    lines[n] = f"{head}: {bad}{tail}"
    texts[i] = "\n".join(lines)
    return f"{what} in {MANIFESTS[i]}.yaml line {n + 1}"


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: four times faster


def _dumped(docs: dict) -> list[str]:
    return [
        yaml.dump(docs[n], Dumper=_DUMPER, allow_unicode=True, sort_keys=False) for n in MANIFESTS
    ]


def _text_of(docs: dict, mutations: list[str], rnd: random.Random) -> list[str] | None:
    """The manifests as YAML, one of them mutated as text; None if they hold a number
    YAML cannot write (a mutation put a 5,000-digit integer in: loaded as it is)."""
    try:
        texts = _dumped(docs)
    except ValueError:
        return None
    mutations.append(mutate_text(texts, rnd))
    return texts


def load(docs: dict, texts: list[str] | None, folder: Path) -> Components:
    """The set as a game's carried copy is read: files in a folder, the game's loader."""
    for name, text in zip(MANIFESTS, texts if texts is not None else _dumped(docs), strict=True):
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return component_files.load_components(folder)


def play(comp: Components, seed: int, render: bool) -> str | None:
    """A random game to its end with the set, its invariants, and (`render`) its public
    report; None if all is well, else what was wrong."""
    state = playout(comp, seed)
    if state["result"] is None:
        return "the game did not end"
    problems = check_all(state, comp)
    if problems:
        return f"invariants: {problems[:3]}"
    if render:
        public = view(state, comp, None)
        render_public_text("fuzz", 1, public, [], comp, footer="")
        render_public_html("fuzz", 1, public, [], comp)
    return None


def run(
    count: int, seed: int, folder: Path, text_every: int = 20, render_every: int = 10
) -> Outcome:
    """`count` mutated sets from `seed` on: every `text_every`-th mutated as YAML text and
    read from files; every accepted set played, every `render_every`-th reported."""
    out = Outcome()
    start = time.perf_counter()
    base = packaged_docs()
    for s in range(seed, seed + count):
        rnd = random.Random(s)
        docs = copy.deepcopy(base)
        mutations = mutate(docs, rnd)
        texts = _text_of(docs, mutations, rnd) if s % text_every == 0 else None
        try:
            if texts is not None:
                comp = load(docs, texts, folder)
            else:
                comp = build_components(docs["board"], docs["blocks"], docs["cards"])
        except ComponentError as exc:
            out.refused += 1
            out.messages.add(str(exc))
            if "\n" in str(exc) or not exc.where:
                out.failures.append((s, mutations, f"refusal not one line with a field: {exc!r}"))
        except Exception as exc:  # noqa: BLE001 - a traceback is what the fuzzer hunts
            out.failures.append((s, mutations, f"load: {type(exc).__name__}: {exc}"[:300]))
        else:
            out.accepted += 1
            try:
                problem = play(comp, s, render=out.accepted % render_every == 0)
            except Exception as exc:  # noqa: BLE001
                problem = f"play: {type(exc).__name__}: {exc}"[:300]
            out.played += 1
            if problem:
                out.failures.append((s, mutations, problem))
        out.sets += 1
    out.seconds = time.perf_counter() - start
    return out
