"""Rules 3, 5 and 6: setting up (5) and the weekly cycle (6): the Reinforcement Step's
sealed discards and draws, the Turn Order Step's sealed bids, and the order of phases."""
