"""A-8 scores (A-8.1) and tie-breaks (A-8.2); end-of-game effects (A-7.10)."""

from __future__ import annotations

import pytest
import scenario as S
from scenario import build

import engine.architectura as arch


def test_A_8_1_score_is_the_sum_of_face_up_top_cards() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city={
            (1, 1): "blue.palace=11",
            (1, 2): ["-green.palace", "blue.villa"],  # X = 11 + 2 (covered card ignored)
            (1, 3): "-blue.temple",  # face down: no value
            (1, 4): "green.bridge",  # No. = 4
            (2, 1): "green.market",
        },
    )
    sc = arch.score(s)
    assert sc["final"] is False
    blue, green = sc["seats"]
    assert (blue["city"], blue["total"], blue["face_up_cards"], blue["lowest_card_value"]) == (
        24,
        24,
        2,
        11,
    )
    assert (green["city"], green["total"], green["face_up_cards"]) == (6, 6, 2)
    assert blue["colour"] == "blue" and blue["outside"] == 0 and blue["bonuses"] == []
    assert sc["winners"] == [0] and sc["decided_by"] == "score" and sc["clause"] == "A-8.1"


def test_A_8_1_end_of_game_effects_and_outside_cards_count() -> None:
    s = build(
        2,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city=S.streets("green.park blue.statue blue.theatre"),
        outside={0: ["blue.graveyard"]},
        graveyard={0: ["blue.market", "blue.palace"]},
    )
    blue = arch.score(s)["seats"][0]
    assert blue["city"] == 4 + 7
    assert blue["outside"] == 3
    assert sorted(b["points"] for b in blue["bonuses"]) == [1, 4, 4]
    assert blue["total"] == 11 + 3 + 9


# Tied totals: the city's streets, the tied totals, the winners and what decided.
TIE_BREAKS = {
    "A-8.2 tie broken by most face-up cards": (
        ("blue.palace", "green.school green.park=5"),
        [10, 10],
        [1],
        "face_up_cards",
    ),
    "A-8.2 then the single lowest-valued card wins": (
        # blue 10 + 2, lowest 2; green 7 + 5, lowest 5
        ("blue.palace blue.market", "green.school=7 green.tavern=5"),
        [12, 12],
        [0],
        "lowest_card",
    ),
}


@pytest.mark.parametrize("clause", TIE_BREAKS)
def test_A_8_2_tie_breaks(clause: str) -> None:
    city, totals, winners, decided_by = TIE_BREAKS[clause]
    s = build(2, hands={0: ["blue.well"], 1: ["green.well"]}, city=S.streets(*city))
    sc = arch.score(s)
    assert [x["total"] for x in sc["seats"]] == totals
    assert sc["winners"] == winners
    assert (sc["decided_by"], sc["clause"]) == (decided_by, "A-8.2")


def test_A_8_2_otherwise_the_win_is_shared() -> None:
    s = build(
        3,
        hands={0: ["blue.well"], 1: ["green.well"]},
        city=S.streets("blue.palace blue.market", "green.palace green.market", "yellow.park"),
    )
    sc = arch.score(s)
    assert sc["winners"] == [0, 1]
    assert (sc["decided_by"], sc["clause"]) == ("shared", "A-8.2")
    g = arch.load(s)
    assert arch.returns(g) == [0.5, 0.5, 0.0]


def test_A_8_2_shared_when_nobody_has_a_card() -> None:
    s = build(2, hands={0: ["blue.well"], 1: ["green.well"]})
    sc = arch.score(s)
    assert sc["winners"] == [0, 1] and sc["decided_by"] == "shared"


def test_A_8_final_scores_recorded_at_game_end() -> None:
    s = build(2, hands={0: ["blue.palace"], 1: []}, rest="removed")
    s2, _ = S.play(s, "blue.palace", (1, 1))
    assert s2["game_over"] is True
    assert s2["scores"]["winners"] == [0]
    g = arch.load(s2)
    assert arch.is_terminal(g) and arch.returns(g) == [1.0, 0.0]
    assert arch.final_scores(g) == s2["scores"]
