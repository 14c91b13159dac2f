"""Bots for every registered game (random, greedy and ISMCTS), a position cache and a tournament
runner.

`ai.bots` holds the bots (they read only a seat's view), `ai.service` the `suggest` entry
point used by the HTTP layer, `ai.cache` the position cache (Redis or in-process LRU),
`ai.tournament` the command that plays bots against each other.
"""
