"""The kinds of record, one module each (issue 12): the checks that admit an input are the
checks `seki verify` runs again on the archive, so the referee and verify cannot disagree,
and a two-party peer can admit the other's records with the same code.

- `opening`: joins, seeds and the setup record (rule 5);
- `turn`: a player's turn file (the engine's actions, battle plans, resignation, or an
  extension request);
- `deadline`: a missed deadline, answered by the game's no-move policy;
- `takeback`: a request, its answer, and the record restoring the state before.

`context` loads a game for adjudication; `writer` writes one record with everything
beside it, computed in full before any file is touched.
"""
