#!/usr/bin/env bash
# The README's walkthrough, as one script (tests/http/test_examples.py runs it against gunicorn, so
# every command here works as pasted). Needs curl and jq, and the service running:
#   bash scripts/serve.sh &        then        bash examples/walkthrough.sh
# BASE points elsewhere (BASE=http://localhost:9000 bash examples/walkthrough.sh). The JSON
# files it writes go to a temporary directory.
set -euo pipefail
cd "$(mktemp -d)"
BASE="${BASE:-http://localhost:8000}"

echo "== 1. A new game: 2 seats, seed 42 (Architectura)"
curl -s $BASE/v1/games -H 'content-type: application/json' -d '{"seats": 2, "seed": 42}' > game.json
jq -c '.state.pending | {seat, kind, prompt, options: .options[:3]}' game.json

echo "== 2. A full turn: seat 0 plays its first option; the events say what happened"
jq '{state, decisions: [.state.pending.options[0]], notation: true}' game.json > turn.json
curl -s $BASE/v1/resolve -H 'content-type: application/json' -d @turn.json > after1.json
jq -c '.events[]' after1.json
jq -c '.pending | {seat, kind}' after1.json

echo "== 3. Seat 1 plays in notation (card@street,block), read from its options"
jq -r '.pending.options[] | select(.type == "play") | "\(.card)@\(.cell[0]),\(.cell[1])"' after1.json | head -1 > move.txt
cat move.txt
jq --arg move "$(cat move.txt)" '{state, decisions: [$move], notation: true}' after1.json > turn2.json
curl -s $BASE/v1/resolve -H 'content-type: application/json' -d @turn2.json > after2.json
jq -c '.events[] | {type, seat, card, cell, clause, notation}' after2.json
echo "   the card's effect asks seat 1 first:"
jq -c '.pending | {seat, kind, clause, prompt, options}' after2.json
jq '{state, decisions: ["decline"], notation: true}' after2.json > turn3.json
curl -s $BASE/v1/resolve -H 'content-type: application/json' -d @turn3.json > after3.json
jq -c '.events[] | {type, seat, clause, notation}' after3.json
jq -c '.pending | {seat, kind}' after3.json

echo "== 4. An illegal move changes nothing and says why, with the clause it breaks"
jq '{state, decisions: [.state.pending.options[0].card + "@2,5"]}' after3.json > illegal.json
curl -s $BASE/v1/resolve -H 'content-type: application/json' -d @illegal.json | jq -c '{status, code, clause, detail, pointer}'
curl -s $BASE/v1/rules/A-4.1 | jq -r .text
echo "   the same, asked in Portuguese (pt, fr, de and en are spoken):"
curl -s $BASE/v1/resolve -H 'content-type: application/json' -H 'Accept-Language: pt' -d @illegal.json | jq -c '{code, detail}'

echo "== 5. Seat 0's view (what it may see), and a suggestion made from that view alone"
jq '{state, seat: 0}' after3.json > view-request.json
curl -s $BASE/v1/view -H 'content-type: application/json' -d @view-request.json > view.json
jq -c '{view_of, hand: .seats[0].hand, opponent_hand: .seats[1].hand, opponent_hand_count: .seats[1].hand_count}' view.json
jq '{view: ., seat: 0, level: "easy", seed: 1}' view.json > suggest.json
curl -s $BASE/v1/suggest -H 'content-type: application/json' -d @suggest.json | jq -c '{decision, bot, level}'

echo "== 6. Replay: the set-up and the decisions settle the game again"
echo '{"setup": {"seats": 2, "seed": 42}, "decisions": ["blue.palace@1,1", "green.school@1,2", "decline"]}' > replay.json
curl -s $BASE/v1/replay -H 'content-type: application/json' -d @replay.json | jq -c '{ok, applied, turn: .state.turn}'

echo "== 7. A game record (every decision in notation), replayed as it is"
curl -s $BASE/v1/record -H 'content-type: application/json' -d @replay.json > record.json
jq -c '{record: .record | {format, game, rules_version}, decisions}' record.json
curl -s $BASE/v1/replay -H 'content-type: application/json' -d @record.json | jq -c '{ok, applied}'

echo "== 8. The same record from the last state alone: a state carries its history"
jq '{state}' after3.json > last.json
curl -s $BASE/v1/record -H 'content-type: application/json' -d @last.json | jq -c '{setup, decisions}'
