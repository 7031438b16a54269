"""Computer players: a bot chooses one of a seat's legal actions from what that seat may know.

A bot is given a ``Knowledge`` (``knowledge``: the seat's view, the log as the seat reads it, the game's config and
the legal actions) and its own seeded randomness, never the state. The levels (``levels``, ``search``): ``random``,
``greedy`` and ``search``. Each game supplies, in its folder's ``bot.py`` (``games``), a sampler (the hidden parts
drawn again consistently with what the seat saw: ``hidden``, ``skeleton``) and an evaluation (``estimate`` helps).
``move`` gives a bot's move from what the service holds for a seat; ``table`` and ``duel`` play whole games
offline. Imports ``events``, ``pbem.games`` and the one rule of who reads what (``pbem.proof.reading``); never
``pbem.service``.
"""
