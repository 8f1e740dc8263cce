"""The head every document a player signs is read by (protocol/headers.py): turn files and
their sealed envelopes, takeback requests and answers, joins and seeds are refused alike
when they name another game (WRONG_GAME), are signed by another key than their side's
(WRONG_SIDE), or name no definition where one is needed (WRONG_VERSION; an archived turn
file or takeback from before the binding is still read)."""

from __future__ import annotations

import pytest

from sekigahara_pbem.crypto import signing
from sekigahara_pbem.protocol import documents as docs
from sekigahara_pbem.protocol import joins, takebacks, turns
from sekigahara_pbem.refusal import Code, Refusal


@pytest.fixture
def made(fresh_game):
    """Each kind of document, as its body, its signer's side and how it is read."""
    _, ref, players, definition = fresh_game
    alice, bob = players["ishida"], players["tokugawa"]
    resign = signing.sign(turns.body(definition, "ishida", 1, [{"type": "resign"}]), alice)
    join_t = joins.make_join(definition, bob)
    kinds = {
        "turn": (turns.body(definition, "ishida", 1, [{"type": "resign"}]), "ishida", turns.parse),
        "request": (
            takebacks.request_body(definition, "ishida", 2, "0" * 64, ""),
            "ishida",
            takebacks.parse_request,
        ),
        "consent": (
            takebacks.consent_body(definition, "tokugawa", "0" * 64, "accept"),
            "tokugawa",
            takebacks.parse_consent,
        ),
        "join": (signing.split(join_t)[0], "tokugawa", joins.parse_join),
        "seed": (
            signing.split(joins.make_seed(definition, alice, join_t, "j"))[0],
            "ishida",
            joins.parse_seed,
        ),
    }
    return definition, ref, players, resign, kinds


KINDS = ("turn", "request", "consent", "join", "seed")


def _refused(call) -> Refusal:
    with pytest.raises(Refusal) as caught:
        call()
    return caught.value


@pytest.mark.parametrize("kind", KINDS)
def test_each_document_is_read_by_its_sides_key_alone(made, kind):
    definition, _, players, _, kinds = made
    body, side, read = kinds[kind]
    other = "tokugawa" if side == "ishida" else "ishida"
    assert read(definition, signing.sign(body, players[side]), "f").side == side
    refused = _refused(lambda: read(definition, signing.sign(body, players[other]), "f"))
    assert refused.code == Code.WRONG_SIDE
    assert (
        str(refused) == f"f: side: signed by {players[other].public.name}, who does not play {side}"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_each_document_of_another_game_id_is_refused(made, kind):
    definition, _, players, _, kinds = made
    body, side, read = kinds[kind]
    elsewhere = body.replace("game: g\n", "game: h\n")
    assert elsewhere != body
    refused = _refused(lambda: read(definition, signing.sign(elsewhere, players[side]), "f"))
    assert refused.code == Code.WRONG_GAME and str(refused) == "f: game: not for game g"


@pytest.mark.parametrize("kind", KINDS)
def test_a_document_naming_no_definition_is_read_only_from_the_archive(made, kind):
    definition, _, players, _, kinds = made
    body, side, read = kinds[kind]
    unbound = docs.dump({k: v for k, v in docs.load_yaml(body, "f").items() if k != "definition"})
    signed = signing.sign(unbound, players[side])
    assert _refused(lambda: read(definition, signed, "f")).code == Code.WRONG_VERSION
    if kind in ("join", "seed"):  # joins and seeds are never read unbound
        return
    assert read(definition, signed, "f", archived=True).side == side


def test_an_envelope_is_sealed_by_its_player_or_the_referee(made):
    definition, ref, players, resign, _ = made
    for sealer in (players["ishida"], ref):
        shown = turns.envelope(definition, turns.seal(definition, resign, sealer), "e")
        assert (shown.side, shown.signer) == ("ishida", sealer.public)
    refused = _refused(
        lambda: turns.envelope(definition, turns.seal(definition, resign, players["tokugawa"]), "e")
    )
    assert refused.code == Code.WRONG_SIDE


def test_a_document_of_another_format_names_the_one_expected(made):
    definition, _, players, _, kinds = made
    body, side, _ = kinds["join"]
    signed = signing.sign(body.replace("seki-join/2", "seki-join/9"), players[side])
    refused = _refused(lambda: joins.parse_join(definition, signed, "f"))
    assert str(refused) == "f: format: expected 'seki-join/2', got 'seki-join/9'"
