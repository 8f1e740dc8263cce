"""What tests the engine, shipped with it: the scenario runner behind `seki scenario run`
(scenario_files reads the files, scenario_runner plays them and checks their
expectations), the random legal player (random_player) and the fuzzer built on it that
`seki simulate` runs (invariant_fuzzer). None of it is on the path of a game: the referee
and the players never import it."""
