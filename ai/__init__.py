"""Bots for every registered game (random, greedy and ISMCTS), a position cache and a tournament
runner.

`ai.bots` holds the bots (they read only a seat's view; the ISMCTS search is `ai.mcts`, how
it judges a position `ai.evaluators`, what every bot shares `ai.base`), `ai.service` the
`suggest` entry point used by the HTTP layer, `ai.cache` the position cache (Redis or
in-process LRU), `ai.tournament` the command that plays bots against each other.
"""
