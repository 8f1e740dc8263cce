"""Rule 7 and 9.3: the Movement Phase: the movement level (7.1), mustering (7.2), stack
moves (7.3), overruns (7.4), and Mōri blocks brought to Ōsaka (9.3)."""
