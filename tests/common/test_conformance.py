"""One conformance suite over every registered game (issue 17, item 8; the idea of OpenSpiel's
`random_sim_test`): whatever a game is, through the interface every game offers
(engine.games.GameDefinition) and its registered facts (engine.registry.GameInfo) alone.

For each game: random complete games through the JSON face, where every option listed is
accepted unchanged and a near miss (an option with one field changed to a value not offered)
is refused naming a code, a clause and a pointer; the notation reads back what it writes; an
exact JSON round trip of every state; a byte-identical replay from the set-up and from any
state on the way; views that never leak (a seat's view is the same for every world its
WorldSampler deals from it, and names none of its unseen cards; nor does its copy of the
events, unless the decision showed the card to it); conservation of cards (the game's
`GameInfo.state_cards`); the set-up's seat range; sealed states over HTTP; every HTTP
endpoint; its SVG drawing; and bots playing a whole game.

The games are engine/'s and Toy Match (tests/toygame/), a game written only for the tests:
importing its package registers it, as a real game's package registers itself, and this
module keeps it registered for its own tests only (other modules see engine/'s games).
"""

from __future__ import annotations

import copy
import inspect
import json
import math
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
import toygame  # registers Toy Match, as a game's package registers itself
from ai_support import play_checked
from http_support import make_app, ok, post

from ai.balance import run_balance
from ai.bots import Bot, Budget, GreedyBot, IsmctsBot, RandomBot
from ai.model import model_for
from ai.tournament import run_match
from engine.canonical import dumps
from engine.errors import EngineError, IllegalDecision, SetupError
from engine.games import GAMES, GameDefinition, GameModule, engine, info
from engine.registry import register_game, unregister_game

register_game(toygame.INFO, toygame)  # again if another module imported it first: idempotent
GAME_IDS = tuple(GAMES)  # every registered game, read at collection: Toy Match among them
unregister_game(toygame.GAME_ID)  # the modules collected after this one see engine/'s games

RANDOM_GAMES = 6  # per game, seat counts in turn through its range
OPTIONS_CHECKED = 25  # options applied per state (a sample: a placement step lists hundreds)
VIEWED_STATES = 12  # states per game whose views are re-dealt by the sampler
WORLDS = 3  # worlds sampled per view
HTTP_DECISIONS = 4
SECRET = "conformance-secret-" + "x" * 24


@pytest.fixture(autouse=True, scope="module")
def _toy_match_registered() -> Iterator[None]:
    """Toy Match is a registered game for this module's tests (and apps) only."""
    register_game(toygame.INFO, toygame)
    yield
    unregister_game(toygame.GAME_ID)


@pytest.fixture(scope="module")
def client(_toy_match_registered: None) -> Any:
    return make_app().test_client()


@pytest.fixture(scope="module")
def sealed(_toy_match_registered: None) -> Any:
    return make_app(STATE_SECRET=SECRET).test_client()


def test_toy_match_is_served_in_this_module_only() -> None:
    assert toygame.GAME_ID in GAME_IDS and toygame.GAME_ID in GAMES
    assert GAME_IDS[0] == GAMES[0] != toygame.GAME_ID  # the default game stays engine/'s
    assert engine(toygame.GAME_ID) is toygame and info(toygame.GAME_ID) is toygame.INFO


# -- random games through the JSON face ------------------------------------------------------


@dataclass
class Played:
    """One random game: its set-up, every state (the set-up's first), the decision taken in
    each and its events."""

    setup: dict[str, Any]
    states: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)


def setups(game: str) -> list[dict[str, Any]]:
    seats = list(info(game).seats)
    eng = engine(game)
    return [eng.tournament_setup(100 + k, seats[k % len(seats)], None) for k in range(RANDOM_GAMES)]


@cache
def played(game: str) -> tuple[Played, ...]:
    """RANDOM_GAMES random complete games, through `new_game`, `legal_decisions`, `apply`."""
    eng = engine(game)
    out = []
    for k, setup in enumerate(setups(game)):
        rnd = random.Random(k)
        p = Played(setup, [eng.new_game(setup)])
        while True:
            moves = eng.legal_decisions(p.states[-1])
            if moves["game_over"]:
                break
            assert len(p.decisions) < 2000, "the game does not end"
            d = rnd.choice(moves["options"])
            state, events = eng.apply_all(p.states[-1], [d])
            p.decisions.append(d)
            p.states.append(state)
            p.events.append(events)
        out.append(p)
    return tuple(out)


def leaves(value: Any) -> Iterator[Any]:
    """Every scalar of a JSON value (dict keys included)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v)
    else:
        yield value


def unseen_of(view: Any) -> set[str]:
    """A view's unseen cards: every list under an `unseen` key, wherever a game keeps it
    (the view's own, or each seat's)."""
    if isinstance(view, dict):
        out = set(view.get("unseen") or ())
        for k, v in view.items():
            if k != "unseen":
                out |= unseen_of(v)
        return out
    if isinstance(view, list):
        return set().union(*map(unseen_of, view)) if view else set()
    return set()


def without_unseen(view: Any) -> Any:
    if isinstance(view, dict):
        return {k: without_unseen(v) for k, v in view.items() if k != "unseen"}
    if isinstance(view, list):
        return [without_unseen(v) for v in view]
    return view


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_package_offers_the_whole_game_interface(game: str) -> None:
    mod = engine(game)
    names = set(GameDefinition.__annotations__) | {
        n for n, v in vars(GameDefinition).items() if inspect.isfunction(v)
    }
    for name in sorted(n for n in names if not n.startswith("_")):
        assert hasattr(mod, name), name
        proto = getattr(GameDefinition, name, None)
        if inspect.isfunction(proto):
            want = list(inspect.signature(proto).parameters)[1:]
            assert list(inspect.signature(getattr(mod, name)).parameters) == want, name
    facts = info(game)
    assert facts is mod.INFO  # the facts are the registration's, one object
    assert facts.id == game
    assert facts.default_catalog in mod.builtin_catalogs()
    assert facts.play_decision in mod.DECISION_FIELDS


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_catalog_document_changed_by_its_reader_changes_no_built_in_catalog(game: str) -> None:
    """Was: Architectura's and Fora de Prumo's `to_json` handed out the built-in catalog's own
    document, so a caller that reused it as a custom catalog (a test, setting its `id`)
    rewrote the reference catalog for every later game of the process."""
    eng = engine(game)
    for cat in eng.builtin_catalogs().values():
        before = copy.deepcopy(cat.to_json())
        doc = cat.to_json()
        doc["id"] = "changed"
        doc["cards"][0]["id"] = "changed"
        doc["cards"].pop()
        assert cat.to_json() == before and cat.id == before["id"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_seat_count_in_range_is_a_game_and_no_other(game: str) -> None:
    facts, eng = info(game), engine(game)
    for n in facts.seats:
        setup = eng.tournament_setup(7, n, None)
        assert eng.new_game(setup) == eng.new_game(copy.deepcopy(setup))  # seeded
        assert eng.load(eng.new_game(setup)).n == n
    for n in (facts.min_seats - 1, facts.max_seats + 1):
        with pytest.raises(SetupError) as e:
            eng.new_game(eng.tournament_setup(7, n, None))
        assert [(p.pointer, p.clause) for p in e.value.problems] == [("/seats", facts.seats_clause)]


@pytest.mark.parametrize("game", GAME_IDS)
def test_random_games_end_and_every_option_is_accepted_unchanged(game: str) -> None:
    eng = engine(game)
    rnd = random.Random(1)
    for p in played(game):
        for state, taken in zip(p.states, p.decisions, strict=False):
            moves = eng.legal_decisions(state)
            options = moves["options"]
            assert options and moves["pending"]["options"] == options
            assert taken in options and all(isinstance(o, dict) for o in options)
            sample = rnd.sample(options, min(len(options), OPTIONS_CHECKED))
            for d in sample:
                after, _ = eng.apply_all(state, [copy.deepcopy(d)])
                assert after != state
        final = p.states[-1]
        assert final["game_over"] is True
        assert eng.legal_decisions(final)["options"] == []
        with pytest.raises(IllegalDecision) as e:
            eng.apply_all(final, [p.decisions[-1]])
        assert e.value.code == "game_over"


def _altered(value: Any) -> Iterator[Any]:
    """Values no game offers in place of a field's `value`."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield from (value + 1, value - 1, value + 100)
    elif isinstance(value, list):
        yield [*value[:-1], 99] if value else [99]
    yield "not-offered"
    yield None


def near_misses(
    eng: GameModule, d: dict[str, Any], options: list[Any], n: int, seen: list[Any]
) -> list[Any]:
    """`d` with one field changed to a value that makes it a decision not offered, for each
    of its fields and its seat: once to a value the game uses (another option's, or one of
    the game's decisions': a card elsewhere), once to a value it never uses."""
    offered = {dumps(o) for o in options}
    out = []
    for name in (*eng.DECISION_FIELDS[d["type"]], "seat"):
        if name not in d:
            continue
        used = [(d["seat"] + 1) % n] if name == "seat" else [o[name] for o in options if name in o]
        used += [x[name] for x in seen if name in x and x.get("type") == d["type"]]
        for values in (used, list(_altered(d[name]))):
            for v in values:
                miss = {**d, name: v}
                if v != d[name] and dumps(miss) not in offered:
                    out.append(miss)
                    break
    return out


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_near_miss_is_refused_naming_a_code_a_clause_and_a_pointer(game: str) -> None:
    eng, prefix = engine(game), info(game).clause_prefix + "-"
    refused = 0
    for p in played(game):
        n = len(p.states[0]["seats"])
        for state, taken in zip(p.states, p.decisions, strict=False):
            options = eng.legal_decisions(state)["options"]
            for miss in near_misses(eng, taken, options, n, p.decisions):
                with pytest.raises(IllegalDecision) as e:
                    eng.apply_all(state, [miss])
                err = e.value
                where = (miss, err.to_json())
                assert err.code and err.index == 0, where
                assert err.clause and err.clause.startswith(prefix), where
                assert err.pointer.startswith("/decisions/0"), where
                refused += 1
    assert refused


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_notation_reads_back_what_it_writes(game: str) -> None:
    eng = engine(game)
    written = 0
    for p in played(game):
        for d in p.decisions:
            text = eng.decision_notation(d)
            if text is not None:
                assert eng.decision_from_notation(text) == {
                    k: v for k, v in d.items() if k != "seat"
                }
                written += 1
    assert written


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_state_makes_an_exact_json_round_trip(game: str) -> None:
    """Loaded and written again, a state is the same, byte for byte in canonical JSON; JSON
    text changes nothing; a state is valid."""
    eng = engine(game)
    for p in played(game):
        for state in p.states:
            assert json.loads(json.dumps(state)) == state
            again, events = eng.apply_all(state, [])  # load, then write
            assert events == [] and dumps(again) == dumps(state)
            assert eng.validate(state) == []


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_replay_is_byte_identical(game: str) -> None:
    eng = engine(game)
    for p in played(game):
        out = eng.replay({"setup": p.setup}, p.decisions)
        assert out["ok"] and out["applied"] == len(p.decisions)
        assert dumps(out["state"]) == dumps(p.states[-1])
        each = [{**ev, "decision": i} for i, evs in enumerate(p.events) for ev in evs]
        assert dumps(out["events"]) == dumps(each)
        k = len(p.decisions) // 2  # from a state on the way
        assert dumps(eng.replay(p.states[k], p.decisions[k:])["state"]) == dumps(p.states[-1])
        final = p.states[-1]
        score = eng.score(final)
        assert score["final"] is True and score["winners"] == final["scores"]["winners"]
        shares = eng.returns(eng.load(final))
        assert abs(sum(shares) - 1) < 1e-9
        assert [s for s, r in enumerate(shares) if r > 0] == score["winners"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_no_card_is_made_or_lost(game: str) -> None:
    cards_of = info(game).state_cards
    if cards_of is None:
        pytest.skip(f"{game} does not declare its cards (GameInfo.state_cards)")
    for p in played(game):
        dealt = Counter(cards_of(p.states[0]))
        assert dealt and max(dealt.values()) == 1
        for state in p.states:
            assert Counter(cards_of(state)) == dealt


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_searchs_tally_is_the_final_scores_without_their_explanation(game: str) -> None:
    """`tally` (what a search reads at a playout's end and in a position's features) gives
    the same winners and the same value of every field it keeps as `final_scores`, on every
    position of the random games: the game as it stands and as it ended."""
    eng = engine(game)
    for p in played(game):
        for state in p.states:
            g = eng.load(state)
            full, lean = eng.final_scores(g), eng.tally(g)
            assert lean["winners"] == full["winners"]
            assert len(lean["seats"]) == len(full["seats"]) == g.n
            for kept, whole in zip(lean["seats"], full["seats"], strict=True):
                assert kept == {k: whole[k] for k in kept} and "total" in kept


def _viewed(game: str) -> list[dict[str, Any]]:
    """VIEWED_STATES states spread over the random games (the first and the last included)."""
    states = [s for p in played(game) for s in p.states]
    step = max(1, len(states) // (VIEWED_STATES - 1))
    return [*states[::step], states[-1]]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_view_is_the_same_in_every_world_dealt_from_it(game: str) -> None:
    """Two states that differ only in what a seat cannot see give it the same view: every
    world the game's sampler deals from the view has that view; the worlds do differ."""
    eng = engine(game)
    differed = 0
    for state in _viewed(game):
        n = len(state["seats"])
        for seat in range(n):
            view = eng.player_view(state, seat)
            assert view["view_of"] == seat and view["rng"] is None
            sampler = eng.WorldSampler(copy.deepcopy(view))
            assert dumps(eng.game_view(sampler.base, seat)) == dumps(view)
            for k in range(WORLDS):
                world = sampler.sample(random.Random(k))
                assert dumps(eng.game_view(world, seat)) == dumps(view)
                other = (seat + 1) % n
                differed += dumps(eng.game_view(world, other)) != dumps(
                    eng.player_view(state, other)
                )
    assert differed, "no sampled world differed from the state: the check saw nothing hidden"


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_positions_features_read_only_what_each_seat_sees(game: str) -> None:
    """The learned evaluation's features (GameInfo.features, ai/model.py) are one row per
    seat of as many finite numbers as the game names, and a seat's row is the same in every
    world dealt from that seat's view as in the state itself: it reads no card hidden from
    that seat."""
    eng = engine(game)
    feats = eng.INFO.features
    assert feats is not None, f"{game} declares no features for its learned evaluation"
    assert len(set(feats.names)) == len(feats.names)
    moved = 0
    for state in _viewed(game):
        g = eng.load(state)
        rows = feats.of(g)
        assert len(rows) == g.n
        assert all(len(r) == len(feats.names) and all(math.isfinite(x) for x in r) for r in rows)
        moved += rows != feats.of(eng.new_game_internal(played(game)[0].setup))
        for seat in range(g.n):
            sampler = eng.WorldSampler(eng.player_view(state, seat))
            for k in range(WORLDS):
                assert feats.of(sampler.sample(random.Random(k)))[seat] == rows[seat]
    assert moved, "the features never changed along the games: they say nothing"


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_games_model_is_its_own_and_gives_win_shares(game: str) -> None:
    """Every game ships a trained model (its GameInfo.features.model): it names the game's
    features, and its estimate is a win share per seat (each in 0..1, summing to 1)."""
    eng = engine(game)
    model = model_for(eng)
    assert model is not None, f"{game} has no trained model (python -m ai.train --game {game})"
    assert model.names == eng.INFO.features.names and model.version.startswith(game + "/")
    for state in _viewed(game):
        shares = model.shares(eng.INFO.features.of(eng.load(state)))
        assert all(0.0 <= x <= 1.0 for x in shares) and abs(sum(shares) - 1) < 1e-9


def _drop_one_unseen(view: Any) -> bool:
    """Take the last card off the first non-empty `unseen` list of a view (in place)."""
    if isinstance(view, dict):
        if view.get("unseen"):
            view["unseen"].pop()
            return True
        return any(_drop_one_unseen(v) for v in view.values())
    if isinstance(view, list):
        return any(_drop_one_unseen(v) for v in view)
    return False


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_view_that_lost_an_unseen_card_is_no_view(game: str) -> None:
    eng = engine(game)
    state = played(game)[0].states[1]
    for seat in range(len(state["seats"])):
        view = eng.player_view(state, seat)
        assert _drop_one_unseen(view)
        with pytest.raises(EngineError):
            eng.WorldSampler(view)


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_engines_errors_cite_the_games_clauses(game: str) -> None:
    """A bad set-up, an unknown and a malformed catalog: every clause cited is the game's."""
    prefix, eng = info(game).clause_prefix + "-", engine(game)
    asks: list[Callable[[], Any]] = [
        lambda: eng.new_game({"game": game, "seats": 1, "seed": 1, "first_seat": "0", "x": 1}),
        lambda: eng.get_catalog("nope"),
        lambda: eng.get_catalog({"format": "nope"}),
    ]
    for ask in asks:
        with pytest.raises(EngineError) as e:
            ask()
        cited = ({e.value.clause} | {p.clause for p in e.value.problems}) - {None}
        assert cited and all(str(c).startswith(prefix) for c in cited), cited


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_view_names_none_of_its_unseen_cards(game: str) -> None:
    eng = engine(game)
    for p in played(game):
        for state in p.states[:: max(1, len(p.states) // VIEWED_STATES)]:
            for seat in range(len(state["seats"])):
                view = eng.player_view(state, seat)
                unseen = unseen_of(view)
                assert unseen or state["game_over"]
                shown = set(leaves(without_unseen(view)))
                assert not unseen & shown, (seat, unseen & shown)


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_seats_events_name_no_card_it_sees_neither_before_nor_after(game: str) -> None:
    """events_for_seat: a card unseen by the seat before a decision and after it is not
    named in its copy of the decision's events (a draw by another seat, say)."""
    eng = engine(game)
    for p in played(game):
        n = len(p.states[0]["seats"])
        unseen = [[unseen_of(eng.player_view(s, i)) for i in range(n)] for s in p.states]
        for k, events in enumerate(p.events):
            for seat in range(n):
                hidden = unseen[k][seat] & unseen[k + 1][seat]
                named = set(leaves(eng.events_for_seat(events, seat)))
                assert not hidden & named, (k, seat, hidden & named)


# -- over HTTP -------------------------------------------------------------------------------


def bare(state: dict[str, Any]) -> str:
    """A state the service answered without what the HTTP layer adds (its history), as
    canonical JSON."""
    return dumps({k: v for k, v in state.items() if k != "history"})


def _play_over_http(client: Any, game: str, decisions: int, seed: int = 0) -> list[Any]:
    """A game set up through /v1/games and `decisions` random decisions through
    /v1/legal-moves and /v1/resolve: the states the service answered."""
    rnd = random.Random(seed)
    setup = engine(game).tournament_setup(seed, info(game).min_seats, None)
    states = [ok(post(client, "/v1/games", {**setup, "game": game}))["state"]]
    for _ in range(decisions):
        moves = ok(post(client, "/v1/legal-moves", {"state": states[-1]}))
        if moves["game_over"]:
            break
        d = rnd.choice(moves["options"])
        states.append(
            ok(post(client, "/v1/resolve", {"state": states[-1], "decisions": [d]}))["state"]
        )
    return states


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_sealed_state_makes_the_round_trip_and_a_changed_field_is_refused(
    game: str, sealed: Any
) -> None:
    states = _play_over_http(sealed, game, HTTP_DECISIONS)
    assert len(states) > 1 and all("seal" in s for s in states)
    state = states[-1]
    ok(post(sealed, "/v1/score", {"state": state}))
    for name, value in (("game_over", not state["game_over"]), ("rng", "0" * 16)):
        changed = {**state, name: value}
        r = post(sealed, "/v1/legal-moves", {"state": changed})
        assert r.status_code == 422 and r.get_json()["code"] == "state_tampered", name


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_endpoint_serves_the_game(game: str, client: Any) -> None:
    eng = engine(game)
    states = _play_over_http(client, game, HTTP_DECISIONS, seed=3)
    state = states[-1]
    # a decision in notation, the events of one seat
    moves = ok(post(client, "/v1/legal-moves", {"state": state}))
    d = moves["options"][0]
    text = eng.decision_notation(d)
    body = {"state": state, "decisions": [text if text is not None else d], "events_for": 0}
    resolved = ok(post(client, "/v1/resolve", {**body, "notation": True}))
    assert resolved["state"]["game"] == game
    seat = moves["pending"]["seat"]
    view = ok(post(client, "/v1/view", {"state": state, "seat": seat}))
    assert view["view_of"] == seat and view["game"] == game
    score = ok(post(client, "/v1/score", {"state": state}))
    assert score["final"] is False and set(score["winners"]) <= set(range(len(state["seats"])))
    assert ok(post(client, "/v1/validate", {"state": state}))["valid"] is True
    # the replay of the service's own history gives its state
    history = state["history"]
    replayed = ok(post(client, "/v1/replay", history))
    assert replayed["ok"] and bare(replayed["state"]) == bare(state)
    # a game record from the state's history, which /v1/replay accepts as it is
    record = ok(post(client, "/v1/record", {"state": state}))
    assert record["record"]["game"] == game
    again = ok(post(client, "/v1/replay", record))
    assert again["ok"] and bare(again["state"]) == bare(state)
    # bots answer for the seat to play, from the state and from its view
    for request in (
        {"state": state, "seat": seat, "bot": "random"},
        {"state": state, "seat": seat, "bot": "greedy"},
        {"view": view, "seat": seat, "budget": {"iterations": 4}},
    ):
        suggested = ok(post(client, "/v1/suggest", request))
        assert suggested["decision"] in moves["options"]
    planned = ok(post(client, "/v1/suggest", {"state": state, "seat": seat, "plan": "turn"}))
    assert planned["turn"][0]["decision"] in moves["options"]
    # its built-in catalogs
    listed = ok(client.get(f"/v1/catalogs?game={game}"))
    assert listed["game"] == game
    assert info(game).default_catalog in [c["id"] for c in listed["catalogs"]]
    one = ok(client.get(f"/v1/catalogs/{info(game).default_catalog}?game={game}"))
    assert one["hash"] == state["catalog"]["hash"]
    # a set-up naming the game with a seat count out of its range: its clause
    bad = post(client, "/v1/games", {"game": game, "seats": info(game).max_seats + 1, "seed": 1})
    assert bad.status_code == 422
    assert bad.get_json()["problems"][0]["clause"] == info(game).seats_clause


def _svg(resp: Any) -> ET.Element:
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    assert resp.mimetype == "image/svg+xml"
    root = ET.fromstring(resp.get_data(as_text=True))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_drawing_renders_a_state_and_each_seats_view(game: str, client: Any) -> None:
    states = _play_over_http(client, game, 2, seed=5)
    state = states[-1]
    if info(game).renderer is None:
        r = post(client, "/v1/render", {"state": state})
        assert r.status_code == 422 and r.get_json()["code"] == "no_renderer"
        return
    _svg(post(client, "/v1/render", {"state": state}))
    for seat in range(len(state["seats"])):
        _svg(post(client, "/v1/render", {"state": state, "seat": seat}))
        view = ok(post(client, "/v1/view", {"state": state, "seat": seat}))
        _svg(post(client, "/v1/render", {"view": view}))
    final = engine(game).replay({"setup": played(game)[0].setup}, played(game)[0].decisions)
    _svg(post(client, "/v1/render", {"state": final["state"]}))


# -- bots ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_IDS)
def test_bots_finish_a_game(game: str) -> None:
    """What the tournaments play (ai.tournament.play_game): ISMCTS with a tiny budget against
    greedy, then random against ISMCTS, each a whole game through the in-memory face, replayed
    through the JSON face to the same end (tests/ai_support.py: play_checked)."""
    ismcts = IsmctsBot(Budget(iterations=4))
    matches: list[tuple[int, list[Bot]]] = [(1, [ismcts, GreedyBot()]), (2, [RandomBot(), ismcts])]
    for deal, bots in matches:
        scores, count = play_checked(deal, bots, game=game)
        assert len(scores["seats"]) == 2 and sum(count) > 0


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_match_and_a_balance_report_run_in_process(game: str) -> None:
    """ai.tournament.run_match and ai.balance.run_balance (one process: a spawned worker
    would not have a game registered by a test)."""
    match = run_match("greedy", "random", 2, processes=1, progress=False, game=game)
    assert match.games == 2 and match.a_wins + match.draws + match.b_wins == 2
    report = run_balance(game, 2, bot="random", processes=1, progress=False)
    assert report.games == 2 and report.cards  # cards were played and named


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_clause_cited_is_on_its_rule_pages(game: str, client: Any) -> None:
    """Each pending decision, each event and each near miss's refusal names a clause that
    GET /v1/rules answers, from the game's own rule pages (GameInfo.rule_documents)."""
    from app.rules import lookup

    eng, facts = engine(game), info(game)
    cited: set[str] = set()
    for p in played(game):
        n = len(p.states[0]["seats"])
        for state, taken, events in zip(p.states, p.decisions, p.events, strict=False):
            cited.add(state["pending"]["clause"])
            cited |= {ev["clause"] for ev in events}
            for miss in near_misses(eng, taken, eng.legal_decisions(state)["options"], n, []):
                with pytest.raises(IllegalDecision) as e:
                    eng.apply_all(state, [miss])
                cited.add(str(e.value.clause))
    for clause in sorted(cited):
        found = lookup(clause)
        assert found is not None and found["game"] == game, clause
        assert found["source"] in facts.rule_documents + facts.ruling_documents
    answer = ok(client.get(f"/v1/rules/{min(cited)}"))
    assert answer["game"] == game
