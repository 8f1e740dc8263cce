"""`seki play --web`: one turn answered by clicking, in the player's own browser.

The page drives the very same guided dialogue as the terminal (play/session.py): each
question of the moment with its choices, worded by play/labels.py; the choices that name
a place answered on the map, those that name a card in the hand. Nothing is built here
that the terminal could not build: an answer is the indices of the chosen choices, read
by play/console.parse as the terminal's numbers are.
"""
