"""Two-party games (docs/two-party.md): no referee; each side keeps its own secrets and
computes every step of the engine its own knowledge allows."""
