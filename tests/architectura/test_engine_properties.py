"""Property tests over random games (hypothesis, derandomized for CI).

After EVERY decision of thousands of random games (2-4 seats, basic and advanced with random
legal A-1.5 replacements):
- card conservation: every card instance is in exactly one zone;
- every top card's value matches its formula, recomputed here from the catalog document
  (A-2.1, A-2.3, A-2.4, A-2.6), and the A-8.1 city scores are their sums;
- protection tokens are conserved (A-6.1, A-6.4) and hands respect their limits (A-3.5);
- the offered plays are exactly the cells an independent A-4.1/A-4.2/A-4.3 oracle finds;
- every listed decision applies; near-miss decisions (another cell, another card, another
  seat, another target) are refused with the right code and leave the input untouched;
- the JSON state round-trips exactly, the JSON and in-memory faces agree, and replaying the
  same seed and decisions gives a byte-identical (canonical JSON) state (A-1.6).
The in-memory face carries the volume; the JSON face runs a few hundred games.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import scenario as S
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.architectura as arch
from engine.architectura.city import eligible_cells, eligible_cells_lifted
from engine.architectura.flow import OP_CLAUSE
from engine.canonical import dumps
from engine.errors import IllegalDecision

RAW = S.card_defs()
BLOCKS = 8
FORMULA = re.compile(r"^(X|No\.)([+-][0-9]+)?$")
Game = arch.Game


# -- independent oracles (from the rule text and the catalog document, not the engine) -----


def random_replacements(rnd: random.Random, seats: int) -> list[dict[str, str]]:
    """A-1.5: any subset of additional cards, each replacing its basic card once."""
    adds = [cid for cid, d in RAW.items() if d["kind"] == "additional"]
    out = []
    for _ in range(seats):
        reps: dict[str, str] = {}
        for a in rnd.sample(adds, rnd.randint(0, len(adds))):
            target = S.default_replaces(a)
            if target not in reps.values():
                reps[a] = target
        out.append(reps)
    return out


def expected_names(colours: list[str], reps: list[dict[str, str]]) -> Counter[str]:
    names: Counter[str] = Counter()
    for col, r in zip(colours, reps, strict=True):
        by_basic = {v: k for k, v in r.items()}
        for b in S.basic_ids():
            names[f"{col}.{by_basic.get(b, b)}"] += 1
    return names


def cid(name: str) -> str:
    return name.split(".", 1)[1]


def value_of(entries_top: list[tuple[str, int, bool] | None], cell: int) -> int | None:
    """A-2: the value of the top card of `cell` from (card name, orientation, face_up)."""
    top = entries_top[cell]
    if top is None or not top[2]:
        return None
    d = RAW[cid(top[0])]
    if "values" in d:
        return int(d["values"][top[1]])
    m = FORMULA.match(d["formula"])
    assert m is not None
    off = int(m.group(2) or 0)
    block = cell % BLOCKS
    if m.group(1) == "X":
        left = value_of(entries_top, cell - 1) if block > 0 else None
        return (left if left is not None else 0) + off
    return block + 1 + off


def tops_of_game(g: Game) -> list[tuple[str, int, bool] | None]:
    return [(g.name(s[-1][0]), s[-1][1], s[-1][2]) if s else None for s in g.city]


def tops_of_state(state: dict[str, Any]) -> list[tuple[str, int, bool] | None]:
    out: list[tuple[str, int, bool] | None] = []
    for row in state["city"]:
        for stack in row:
            out.append(
                (stack[-1]["card"], stack[-1]["orientation"], stack[-1]["face_up"])
                if stack
                else None
            )
    return out


def oracle_eligible(g: Game, seat: int) -> set[int]:
    """A-4.1 (a)(b)(c) with A-4.3 and ruling A-R1 (a token occupies its cell)."""

    def occupied(c: int) -> bool:
        return bool(g.city[c]) or g.fountain[c] >= 0

    first_empty = next(
        (st_ for st_ in range(g.n) if not any(occupied(st_ * BLOCKS + b) for b in range(BLOCKS))),
        None,
    )
    out = set()
    for c in range(g.n * BLOCKS):
        f = g.fountain[c]
        if f >= 0:
            if f == seat:
                out.add(c)
            continue
        stack = g.city[c]
        if stack:
            if not stack[-1][2]:
                out.add(c)
            continue
        b = c % BLOCKS
        if (b > 0 and occupied(c - 1)) or (b == 0 and c // BLOCKS == first_empty):
            out.add(c)
    return out


def oracle_run(g: Game, seat: int, cell: int) -> bool:
    """A-4.2: 3-4 players; the play would make 3+ consecutive face-up own cards."""
    if g.n < 3:
        return False
    base = cell - cell % BLOCKS

    def own(c: int) -> bool:
        s = g.city[c]
        return bool(s) and s[-1][2] and g.owner(s[-1][0]) == seat

    run = 1
    c = cell - 1
    while c >= base and own(c):
        run, c = run + 1, c - 1
    c = cell + 1
    while c < base + BLOCKS and own(c):
        run, c = run + 1, c + 1
    return run >= 3


def payable(g: Game, seat: int, iid: int) -> bool:
    d = RAW[cid(g.name(iid))]
    cost = d.get("cost")
    if not cost:
        return True
    avail = len(g.hands[seat]) - 1
    if "graveyard" in cost["from"]:
        avail += len(g.graves[seat])
    return avail >= int(cost["remove"])


# -- invariants --------------------------------------------------------------------------------


def check_game(g: Game, expected: Counter[str]) -> None:
    # conservation
    seen: Counter[str] = Counter()
    for s in range(g.n):
        for zone in (g.decks[s], g.hands[s], g.outside[s], g.graves[s], g.removed[s]):
            seen.update(g.name(i) for i in zone)
    for stack in g.city:
        seen.update(g.name(e[0]) for e in stack)
    for t in g.tasks:
        if t["k"] == "pay":
            seen[g.name(t["card"])] += 1
    assert seen == expected, (seen - expected, expected - seen)
    # values and scores
    tops = tops_of_game(g)
    sums = [0] * g.n
    for c in range(len(g.city)):
        v = value_of(tops, c)
        stack = g.city[c]
        if v is not None:
            sums[g.owner(stack[-1][0])] += v
        # covered cards are face down (A-4.1c), tokens only on face-up tops
        assert all(not e[2] and not e[3] for e in stack[:-1])
        if stack and (stack[-1][3] or not stack[-1][2]):
            assert stack[-1][2] or not stack[-1][3]
    scores = arch.final_scores(g)["seats"]
    assert [x["city"] for x in scores] == sums
    # tokens
    for s in range(g.n):
        on_cards = sum(1 for st_ in g.city if st_ and st_[-1][3] and g.owner(st_[-1][0]) == s)
        assert g.tokens[s] >= 0 and g.tokens[s] + on_cards + g.fountain.count(s) == 2
        assert 3 <= g.limits[s] <= 5


def check_turn_options(g: Game, opts: list[tuple[Any, ...]]) -> None:
    """At a turn decision: the plays are exactly the oracle's; start-of-turn options per A-3.1."""
    t = g.tasks[-1]
    if t["k"] != "turn":
        return
    seat = t["seat"]
    assert len(g.hands[seat]) <= g.limits[seat]
    cells = {c for c in oracle_eligible(g, seat) if not oracle_run(g, seat, c)}
    want = set()
    for iid in g.hands[seat]:
        if RAW[cid(g.name(iid))].get("placement") == "outside":
            want.add(("play", iid, -1))
        elif payable(g, seat, iid):
            want.update(("play", iid, c) for c in cells)
    plays = {a for a in opts if a[0] == "play"}
    assert plays == want
    others = {a for a in opts if a[0] != "play"}
    can_mull = not g.mulligan[seat] and bool(g.hands[seat])
    assert (("mulligan",) in others) == can_mull
    obel = (
        not g.started[seat]
        and bool(g.hands[seat])
        and any(cid(g.name(d)) == "obelisk" for d in g.decks[seat])
    )
    assert {a for a in others if a[0] == "obelisk"} == (
        {("obelisk", h) for h in g.hands[seat]} if obel else set()
    )
    assert (("pass",) in others) == (bool(others - {("pass",)}) and not plays)


def setup_for(seed: int, seats: int, advanced: bool) -> dict[str, Any]:
    rnd = random.Random(seed)
    setup: dict[str, Any] = {
        "seats": seats,
        "seed": seed,
        "variant": "advanced" if advanced else "basic",
        "first_seat": rnd.randrange(seats),
    }
    if advanced:
        setup["replacements"] = random_replacements(rnd, seats)
    return setup


def names_for(setup: dict[str, Any]) -> Counter[str]:
    seats = setup["seats"]
    return expected_names(list(S.COLOURS[:seats]), setup.get("replacements") or [{}] * seats)


# -- in-memory volume -----------------------------------------------------------------------


def play_in_memory(seed: int, seats: int, advanced: bool, try_all: bool) -> None:
    setup = setup_for(seed, seats, advanced)
    g = arch.new_game_internal(setup)
    expected = names_for(setup)
    rnd = random.Random(seed ^ 0x5EED)
    actions = []
    steps = 0
    while not arch.is_terminal(g):
        opts = arch.legal_actions(g)
        assert opts, "a running game always has a decision"
        assert len(set(opts)) == len(opts)
        assert arch.current_player(g) == g.tasks[-1]["seat"]
        check_game(g, expected)
        check_turn_options(g, opts)
        if try_all:
            for a in opts:  # every listed decision applies
                h = g.copy()
                arch.apply_action(h, a)
                check_game(h, expected)
        a = rnd.choice(opts)
        actions.append(a)
        arch.apply_action(g, a)
        steps += 1
        assert steps < 2000
    check_game(g, expected)
    assert arch.current_player(g) is None and arch.legal_actions(g) == []
    assert abs(sum(arch.returns(g)) - 1.0) < 1e-9
    # same seed, same decisions: the same game
    h = arch.new_game_internal(setup)
    for a in actions:
        arch.apply_action(h, a)
    assert dumps(arch.game_to_json(h)) == dumps(arch.game_to_json(g))


def random_games(examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """`examples` seeded games of 2-4 seats, basic or advanced (derandomized: the same
    games on every run)."""
    games = given(
        seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([2, 3, 4]), advanced=st.booleans()
    )
    return lambda test: settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )(games(test))


@random_games(260)
def test_random_games_in_memory_keep_every_invariant(seed: int, seats: int, advanced: bool) -> None:
    """8 games per example: 2080 games; every option tried in one game of each batch."""
    for k in range(8):
        play_in_memory(seed * 8 + k, seats, advanced, try_all=k == 0)


# -- JSON face ------------------------------------------------------------------------------------


def refused(state: dict[str, Any], decision: dict[str, Any]) -> IllegalDecision:
    before = dumps(state)
    try:
        arch.apply(state, decision)
    except IllegalDecision as e:
        assert dumps(state) == before, "a refused decision mutated its input"
        return e
    raise AssertionError(f"near-miss decision accepted: {decision}")


def near_misses(
    state: dict[str, Any], g: Game, opts: list[dict[str, Any]], rnd: random.Random
) -> None:
    pending = state["pending"]
    seat = pending["seat"]
    listed = {json.dumps(o, sort_keys=True) for o in opts}
    o = rnd.choice(opts)
    # wrong seat
    wrong = dict(o, seat=(seat + 1) % g.n)
    e = refused(state, wrong)
    assert (e.code, e.clause) == ("not_your_decision", "A-3")
    if pending["kind"] == "play" and o["type"] == "play" and o["cell"] is not None:
        # another cell for the same card
        cards_cells = {
            (x["card"], tuple(x["cell"])) for x in opts if x["type"] == "play" and x["cell"]
        }
        free = [
            [st_ + 1, b + 1]
            for st_ in range(g.n)
            for b in range(BLOCKS)
            if (o["card"], (st_ + 1, b + 1)) not in cards_cells
        ]
        if free:
            cell = rnd.choice(free)
            e = refused(state, dict(o, cell=cell))
            c = (cell[0] - 1) * BLOCKS + cell[1] - 1
            f = g.fountain[c]
            if f >= 0 and f != seat:
                assert (e.code, e.clause) == ("fountain_cell", "A-4.3")
            elif c not in oracle_eligible(g, seat):
                assert (e.code, e.clause) == ("cell_not_eligible", "A-4.1")
            else:
                assert oracle_run(g, seat, c)
                assert (e.code, e.clause) == ("three_in_a_row", "A-4.2")
        # another card: one of the seat's cards that is not in the hand
        hand = set(state["seats"][seat]["hand"])
        others = [n for n in g.inst.names if n.startswith(g.colours[seat] + ".") and n not in hand]
        if others:
            e = refused(state, dict(o, card=rnd.choice(others)))
            assert (e.code, e.clause) == ("card_not_in_hand", "A-3.2")
    if "target" in o:
        targets = {x.get("target") for x in opts if x["type"] == o["type"]}
        candidates = [n for n in g.inst.names if n not in targets]
        bad = dict(o, target=rnd.choice(candidates))
        if json.dumps(bad, sort_keys=True) not in listed:
            e = refused(state, bad)
            if o["type"] in ("rotate", "destroy", "restore", "move", "swap", "remove", "protect"):
                assert e.code in ("illegal_target", "target_protected")
                assert e.clause in ("A-6.2", OP_CLAUSE[o["type"]])
            else:  # Smithy / Manufactory choices
                assert e.code == "illegal_decision"


def check_state(state: dict[str, Any], expected: Counter[str]) -> None:
    # exact JSON round trip and re-reading
    assert json.loads(json.dumps(state)) == state
    assert dumps(arch.game_to_json(arch.load(state))) == dumps(state)
    # conservation over the JSON zones
    seen: Counter[str] = Counter()
    for seat in state["seats"]:
        for k in ("deck", "hand", "outside", "graveyard", "removed"):
            seen.update(seat[k])
    for row in state["city"]:
        for stack in row:
            seen.update(e["card"] for e in stack)
    for t in state["resolving"]:
        if t["k"] == "pay":
            seen[t["card"]] += 1
    assert seen == expected
    # shown values are the formulas' values
    tops = tops_of_state(state)
    for i, row in enumerate(state["city"]):
        for b, stack in enumerate(row):
            if stack:
                assert stack[-1]["value"] == value_of(tops, i * BLOCKS + b)


def play_json(seed: int, seats: int, advanced: bool, try_all: bool) -> None:
    setup = setup_for(seed, seats, advanced)
    expected = names_for(setup)
    state = arch.new_game(setup)
    g = arch.new_game_internal(setup)  # the in-memory twin, driven by the same choices
    rnd = random.Random(seed ^ 0xA11)
    decisions = []
    while not state["game_over"]:
        check_state(state, expected)
        assert dumps(arch.game_to_json(g)) == dumps(state)
        out = arch.legal_decisions(state)
        opts = out["options"]
        assert opts and out["pending"] == state["pending"]
        actions = arch.legal_actions(g)
        assert [arch.action_to_json(g, arch.current_player(g), a) for a in actions] == opts
        if try_all:
            for o in opts:
                arch.apply(state, o)
        near_misses(state, g, opts, rnd)
        i = rnd.randrange(len(opts))
        before = copy.deepcopy(state)
        state, _ = arch.apply(state, opts[i])
        assert before != state
        arch.apply_action(g, actions[i])
        decisions.append(opts[i])
    check_state(state, expected)
    assert dumps(arch.game_to_json(g)) == dumps(state)
    e = refused(state, {"type": "pass"})
    assert e.code == "game_over"
    # replay from the set-up: byte-identical
    out = arch.replay({"setup": setup}, decisions)
    assert out["ok"] and out["applied"] == len(decisions)
    assert dumps(out["state"]) == dumps(state)
    again, _ = arch.apply_all(arch.new_game(setup), decisions)
    assert dumps(again) == dumps(state)


@random_games(240)
def test_random_games_through_the_json_api(seed: int, seats: int, advanced: bool) -> None:
    play_json(seed, seats, advanced, try_all=seed % 6 == 0)


def test_property_oracles_reject_a_wrong_value() -> None:
    """The value oracle is not vacuous: a tampered orientation is noticed."""
    s = S.build(2, hands={0: ["blue.palace"], 1: ["green.well"]}, city={(1, 1): "green.palace"})
    tops = tops_of_state(s)
    assert value_of(tops, 0) == 10
    s["city"][0][0][0]["orientation"] = 0
    assert value_of(tops_of_state(s), 0) == 8 != s["city"][0][0][0]["value"]


def test_lifted_eligible_cells_match_the_oracle() -> None:
    """A-4.4: the cells a card could move to, derived from the city's eligible cells
    (`eligible_cells_lifted`, what a Tavern lists), are those the oracle finds with the card
    taken off its cell; every kind of lifted cell is met (covered cards, a card alone in its
    street, a card with an empty cell to its right)."""
    kinds: Counter[str] = Counter()
    for seed in range(24):
        seats, advanced = 2 + seed % 3, seed % 2 == 1
        g = arch.new_game_internal(setup_for(seed, seats, advanced))
        rnd = random.Random(seed)
        while not g.over:
            for seat in range(g.n):
                before = eligible_cells(g, seat)
                for c, stack in enumerate(g.city):
                    if not stack:
                        continue
                    got = eligible_cells_lifted(g, seat, c, before)
                    lifted = g.copy()
                    lifted.city[c].pop()
                    assert got == sorted(oracle_eligible(lifted, seat)), (seed, seat, c)
                    assert got == eligible_cells(g, seat, lifted=c)
                    street = g.city[c - c % BLOCKS : c - c % BLOCKS + BLOCKS]
                    right_empty = c % BLOCKS < BLOCKS - 1 and not g.city[c + 1]
                    kinds["covered" if len(stack) > 1 else "single"] += 1
                    kinds["alone in its street"] += sum(map(bool, street)) == 1
                    kinds["empty cell to its right"] += right_empty
            arch.apply_action(g, rnd.choice(arch.legal_actions(g)))
    assert min(kinds.values()) > 0 and len(kinds) == 4, kinds
