"""The player's loop (`seki play`): a whole turn built by answering questions on the
player's shadow state, then signed. `session` holds the pure part; `labels` words the
questions; `console` asks them at a terminal or from a script of answers."""
