// The play and replay page: a client of the public HTTP API only (no build step, no other host).
"use strict";

const $ = (id) => document.getElementById(id);
const BOTS = [
  ["human", "human"], ["easy", "bot · easy"], ["medium", "bot · medium"], ["hard", "bot · hard"],
  ["greedy", "bot · greedy"], ["random", "bot · random"],
];
const COLOURS = ["blue", "green", "yellow", "red"];

// ---------------------------------------------------------------------------------- HTTP
async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const r = await fetch(path, init);
  const type = r.headers.get("content-type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const e = new Error(typeof data === "object" ? `${data.code}: ${data.detail}` : r.statusText);
    e.problem = data;
    throw e;
  }
  return data;
}

// -------------------------------------------------------------------- names and sentences
const catalogs = {}; // "game/id" -> {card id: name}

async function loadNames(state) {
  const key = `${state.game}/${state.catalog.id}`;
  if (!catalogs[key]) {
    catalogs[key] = {};
    try {
      const doc = await api(`/v1/catalogs/${encodeURIComponent(state.catalog.id)}?game=${encodeURIComponent(state.game)}`);
      for (const c of doc.catalog.cards) catalogs[key][c.id] = c.name;
    } catch (e) { /* a custom catalog: ids are shown as they are */ }
  }
  return catalogs[key];
}

let names = {};
let game = "architectura";

function cardName(id) {
  if (id === null || id === undefined) return "a hidden card";
  if (game === "architectura") {
    const dot = id.indexOf(".");
    const def = id.slice(dot + 1);
    return `${id.slice(0, dot)} ${names[def] || def}`;
  }
  return names[id] ? `${id} ${names[id]}` : id;
}

function cellText(c) {
  if (!Array.isArray(c)) return "outside the city";
  return game === "architectura" ? `street ${c[0]}, block ${c[1]}` : `(${c[0]}, ${c[1]})`;
}

function seatName(s) {
  return game === "architectura" ? `${(state && state.seats[s] && state.seats[s].colour) || COLOURS[s]} (seat ${s})` : `seat ${s}`;
}

const DIRS = ["east", "south", "west", "north"];

function optionText(o) {
  const c = o.card !== undefined ? cardName(o.card) : "";
  const t = o.target !== undefined ? cardName(o.target) : "";
  const lay = o.from ? `Buy from the ${o.from} and lay` : "Lay"; // a final turn (F-8.2)
  switch (o.type) {
    case "play": return `Play ${c} on ${cellText(o.cell)}`;
    case "mulligan": return "Mulligan: hand to the bottom of the deck, draw again";
    case "obelisk": return `Obelisk: put ${c} into the deck`;
    case "pass": return "Pass";
    case "pay": return `Pay with ${c}`;
    case "apply": return "Use a protection token";
    case "decline": return "Decline";
    case "rotate": return `Rotate ${t} ${o.steps > 0 ? "clockwise" : "counter-clockwise"} (${o.steps > 0 ? "+" : ""}${o.steps})`;
    case "destroy": case "restore": case "swap": case "remove": case "protect":
      return `${o.type[0].toUpperCase()}${o.type.slice(1)} ${t}`;
    case "move": return `Move ${t} to ${cellText(o.cell)}`;
    case "fountain": return `Place the Fountain on ${cellText(o.cell)}`;
    case "guesthouse": return `Escape to ${cellText(o.cell)}`;
    case "play_face_down": return `Play ${c} face down on ${cellText(o.cell)}`;
    case "manufactory": return `Return ${t} to the hand`;
    case "smithy": return `Copy the effect of ${t}`;
    case "buy": return `Buy ${c}${o.from === "deck" ? " from the deck" : ""}`;
    case "look": return "Look at the deck (coordenadora)";
    case "skip": return "Buy nothing";
    case "lay":
      if (o.x === undefined) return `${lay} ${c} in the site`;
      return `${lay} ${c} at (${o.x}, ${o.y}), half B ${DIRS[o.r]}`;
    case "convert": return `Convert ${t} with ${cardName(o.designer)}`;
    case "clone": return o.from ? `Buy ${c} from the ${o.from} and clone ${t} with it` : `Clone ${t} with ${c}`;
    default: {
      const rest = Object.entries(o).filter(([k]) => k !== "seat" && k !== "type").map(([k, v]) => `${k} ${JSON.stringify(v)}`);
      return `${o.type} ${rest.join(", ")}`;
    }
  }
}

function eventText(e) {
  const who = e.seat !== undefined ? seatName(e.seat) : "";
  const c = e.card !== undefined ? cardName(e.card) : "";
  switch (e.type) {
    case "played": return `${who} played ${c} on ${cellText(e.cell)} (value ${e.value})`;
    case "played_face_down": return `${who} played ${c} face down on ${cellText(e.cell)}`;
    case "compared": return `the played card (${e.played_value}) compared with ${c} to its left (${e.left_value}): ${String(e.outcome).replace(/_/g, " ")}`;
    case "rotated": return `${c} on ${cellText(e.cell)} rotated ${e.steps > 0 ? "+" : ""}${e.steps}: value ${e.value}`;
    case "destroyed": return `${c} on ${cellText(e.cell)} destroyed (turned face down)`;
    case "moved": return `${c} moved from ${cellText(e.from)} to ${cellText(e.to)}`;
    case "swapped": return `${cardName(e.cards[0])} and ${cardName(e.cards[1])} swapped places`;
    case "restored": return `${c} on ${cellText(e.cell)} restored face up`;
    case "removed": return `${c} removed from the game`;
    case "protected": return `${who} protected ${c} with a token`;
    case "protection_kept": return `${c} stays protected`;
    case "token_returned": return `a protection token returns to ${who || "its owner"}`;
    case "fountain_placed": return `${who} placed the Fountain on ${cellText(e.cell)}`;
    case "returned_to_hand": return `${c} returned to ${who || "its owner"}'s hand`;
    case "copied": return `${who} copied the effect of ${c}`;
    case "hand_limit": return `${who}'s hand limit is now ${e.limit}`;
    case "mulligan": return `${who} took a mulligan (${e.count} cards)`;
    case "obelisk_taken": return `${who} used the Obelisk`;
    case "declined": return `${who} declined`;
    case "passed": return `${who} passed`;
    case "skipped": return `${who} bought nothing`;
    case "drew": return `${who} drew ${e.cards ? e.cards.map(cardName).join(", ") : `${e.count} card(s)`}`;
    case "bought": return `${who} bought ${c} from the ${e.from || "market"}`;
    case "looked": return `${who} looked at ${e.cards ? e.cards.map(cardName).join(", ") : `${e.count} deck card(s)`}`;
    case "laid": return e.x === undefined ? `${who} laid ${c} in the site` : `${who} laid ${c} at (${e.x}, ${e.y}), half B ${DIRS[e.r]}`;
    case "converted": return `${who} converted ${cardName(e.target)} with ${cardName(e.designer)}`;
    case "cloned": return `${who} cloned ${cardName(e.target)} with ${c}`;
    case "refilled": return `${c} turned up into the market`;
    case "end_triggered": return `the end is triggered by ${who} (${String(e.reason || "").replace(/_/g, " ")})`;
    case "final_round": return `final round: ${(e.seats || []).map(seatName).join(", ")}`;
    case "game_over": {
      const w = e.scores && e.scores.winners ? e.scores.winners.map(seatName).join(", ") : "?";
      return `game over: ${w} win${e.scores && e.scores.winners && e.scores.winners.length === 1 ? "s" : ""}`;
    }
    default: {
      const rest = Object.entries(e).filter(([k]) => !["type", "clause", "decision"].includes(k)).map(([k, v]) => `${k} ${JSON.stringify(v)}`);
      return `${e.type.replace(/_/g, " ")}: ${rest.join(", ")}`;
    }
  }
}

// A clause badge: a link into the rules tab, at that clause.
function clauseBadge(clause) {
  const a = document.createElement("a");
  a.className = "clause";
  a.href = `#rule-${clause}`;
  a.dataset.clause = clause;
  a.textContent = clause;
  a.addEventListener("click", (ev) => { ev.preventDefault(); openRule(clause); });
  return a;
}

function eventItem(e, cls) {
  const li = document.createElement("li");
  if (cls) li.className = cls;
  li.textContent = eventText(e);
  if (e.clause) li.appendChild(clauseBadge(e.clause));
  return li;
}

// --------------------------------------------------------------------------- the rules
const rulesOf = {}; // game -> its entries (GET /v1/rules?game=)
let rulesShown = null;

async function loadRules(g) {
  if (!rulesOf[g]) rulesOf[g] = (await api(`/v1/rules?game=${encodeURIComponent(g)}`)).games[0].clauses;
  if (rulesShown === g) return;
  const box = $("rules-text");
  box.textContent = "";
  const withClauses = new Set(rulesOf[g].filter((c) => c.section).map((c) => c.section));
  let section = box;
  let rulings = null;
  for (const c of rulesOf[g]) {
    if (c.kind === "section") {
      section = document.createElement("section");
      section.id = `rule-${c.clause}`;
      const h = document.createElement("h3");
      h.textContent = `${c.clause} ${c.title || ""}`;
      section.appendChild(h);
      if (!withClauses.has(c.clause)) section.appendChild(entryText(c.text));
      box.appendChild(section);
      continue;
    }
    if (c.kind === "ruling" && !rulings) {
      rulings = document.createElement("section");
      const h = document.createElement("h3");
      h.textContent = "Rulings";
      rulings.appendChild(h);
      box.appendChild(rulings);
    }
    const p = entryText(c.text);
    p.id = `rule-${c.clause}`;
    const b = document.createElement("b");
    b.textContent = c.title ? `${c.clause} ${c.title}` : c.clause;
    p.prepend(b);
    (c.kind === "ruling" ? rulings : section).appendChild(p);
  }
  rulesShown = g;
}

function entryText(text) {
  const p = document.createElement("p");
  p.className = "entry";
  p.textContent = text;
  return p;
}

async function openRule(clause) {
  showTab("rules");
  await loadRules(game);
  // A-3.1c is read in its clause A-3.1; an id not listed falls back to its section
  const ids = [clause, clause.replace(/[a-z]$/, ""), clause.replace(/\.[^.]*$/, "")];
  const target = ids.map((id) => document.getElementById(`rule-${id}`)).find(Boolean);
  for (const el of document.querySelectorAll("#rules-text .target")) el.classList.remove("target");
  if (!target) return;
  target.classList.add("target");
  target.scrollIntoView({ block: "center" });
}

// -------------------------------------------------------------------- click -> options
// An option can be picked by the cards and cells it names; a click on the board gives keys
// of the same form, and the options matching every key clicked so far are the candidates.
function optionKeys(o) {
  const keys = new Set();
  for (const f of ["card", "target", "designer"]) if (typeof o[f] === "string") keys.add(`card:${o[f]}`);
  if (Array.isArray(o.cell)) keys.add(`cell:${JSON.stringify(o.cell)}`);
  if (o.x !== undefined && o.y !== undefined) {
    const bx = [1, 0, -1, 0][o.r], by = [0, 1, 0, -1][o.r];
    keys.add(`cell:${o.seat}:${JSON.stringify([o.x, o.y])}`);
    keys.add(`cell:${o.seat}:${JSON.stringify([o.x + bx, o.y + by])}`);
  }
  return keys;
}

function clickKeys(el) {
  const keys = [];
  const cellEl = el.closest("[data-cell]");
  const cardEl = el.closest("[data-card]");
  if (cardEl) keys.push(`card:${cardEl.getAttribute("data-card")}`);
  if (cellEl) {
    const seat = cellEl.getAttribute("data-seat");
    const cell = JSON.stringify(JSON.parse(cellEl.getAttribute("data-cell"))); // "[1, 1]" -> "[1,1]"
    keys.push(`cell:${seat !== null && game !== "architectura" ? seat + ":" : ""}${cell}`);
  }
  return keys;
}

// --------------------------------------------------------------------------- the game
let state = null;
let setupUsed = null;
let decisionLog = [];
let seatKinds = [];
let options = [];
let selection = []; // keys clicked so far
let busy = false;
let chosen = null; // the option picked, waiting for Confirm (or a second tap)
let snapshots = []; // before each human decision: what Undo goes back to
let updates = 0; // counts board updates: data-step on <body>, with data-phase, for tests

function phase(name) {
  document.body.dataset.phase = name;
  document.body.dataset.step = String(++updates);
}

function humanSeats() { return seatKinds.map((k, i) => (k === "human" ? i : -1)).filter((i) => i >= 0); }

function viewer() {
  if (!state) return null;
  const humans = humanSeats();
  if (!humans.length) return null;
  const p = state.pending;
  return p && humans.includes(p.seat) ? p.seat : humans[0];
}

function renderSeatConfig() {
  const n = Number($("seats").value);
  const box = $("seat-config");
  const old = seatKinds.slice();
  box.textContent = "";
  for (let i = 0; i < n; i++) {
    const wrap = document.createElement("label");
    wrap.className = "seat-cfg";
    const b = document.createElement("b");
    b.textContent = $("game").value === "architectura" ? `${COLOURS[i]} (seat ${i})` : `seat ${i}`;
    const sel = document.createElement("select");
    sel.id = `seat-${i}`;
    for (const [v, label] of BOTS) {
      const opt = document.createElement("option");
      opt.value = v;
      opt.textContent = label;
      sel.appendChild(opt);
    }
    sel.value = old[i] || (i === 0 ? "human" : "easy");
    wrap.append(b, sel);
    box.appendChild(wrap);
  }
}

function setStatus(text, cls, clause) {
  const s = $("status");
  s.textContent = text;
  if (clause) s.appendChild(clauseBadge(clause));
  s.className = `status ${cls || ""}`;
}

async function showBoard(target, body) {
  placeSvg(target, await api("/v1/render", body));
}

// The legend of the game in play (GET /v1/legend): its symbols drawn by the service as on the board.
async function showLegend() {
  placeSvg($("legend"), await api(`/v1/legend?game=${encodeURIComponent(game)}`));
}

function placeSvg(target, svg) {
  // the SVG is the service's own answer (every text escaped there); parse it as a document
  // rather than as HTML so that nothing in it is interpreted as markup of the page
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  const node = document.importNode(doc.documentElement, true);
  ownIds(node, target.id);
  target.replaceChildren(node);
}

// The board marks what the last decisions changed (class last-move): /v1/render reads the
// cards and cells named by the events /v1/resolve answered (at most 64), those of the seat's
// decisions in a row (a turn of buy then lay), so a bot's whole turn is marked.
let marked = { seat: null, events: [] };

function markTurn(seat, events) {
  const earlier = marked.seat === seat ? marked.events : [];
  marked = { seat, events: earlier.concat(events).slice(-64) };
  return marked.events;
}

function withMarks(body, events) {
  if (events && events.length) body.last_events = events.slice(-64);
  return body;
}

// Two pictures on one page must not share ids: a `url(#hatch)` would resolve to the first
// picture's pattern, even inside a hidden pane, and draw nothing. Prefix each id with the
// board's own and rewrite the references to it.
function ownIds(svg, prefix) {
  const renamed = new Map();
  for (const el of svg.querySelectorAll("[id]")) {
    renamed.set(el.id, `${prefix}-${el.id}`);
    el.id = `${prefix}-${el.id}`;
  }
  if (!renamed.size) return;
  const ref = /url\(#([^)]+)\)|^#(.+)$/g;
  for (const el of svg.querySelectorAll("*")) {
    for (const a of Array.from(el.attributes)) {
      if (!a.value.includes("#")) continue;
      const v = a.value.replace(ref, (m, u, h) => {
        const id = u || h;
        if (!renamed.has(id)) return m;
        return u ? `url(#${renamed.get(id)})` : `#${renamed.get(id)}`;
      });
      if (v !== a.value) el.setAttribute(a.name, v);
    }
  }
}

function logEvents(events, first) {
  const ol = $("events");
  events.forEach((e, i) => ol.appendChild(eventItem(e, i === 0 && first ? "turn" : "")));
  ol.scrollTop = ol.scrollHeight;
}

function showScores(scores) {
  const box = $("scores");
  box.textContent = "";
  if (!scores || !scores.seats) { box.textContent = "—"; return; }
  const table = document.createElement("table");
  table.className = "scores";
  for (const s of scores.seats) {
    const tr = document.createElement("tr");
    const who = document.createElement("td");
    who.textContent = `${seatName(s.seat)}${state.game_over && scores.winners.includes(s.seat) ? " ★" : ""}`;
    const pts = document.createElement("td");
    pts.className = "n";
    pts.textContent = s.total;
    tr.append(who, pts);
    table.appendChild(tr);
  }
  box.appendChild(table);
}

function showOptions() {
  const box = $("options");
  box.textContent = "";
  const p = state.pending;
  const mine = !state.game_over && p && seatKinds[p.seat] === "human";
  $("board").classList.toggle("clickable", mine);
  for (const el of $("board").querySelectorAll("[data-hit]")) el.removeAttribute("data-hit");
  for (const el of $("board").querySelectorAll(".chosen")) el.classList.remove("chosen");
  if (!mine) { $("selection").textContent = ""; return; }
  const matching = candidates();
  $("selection").textContent = selection.length
    ? `${matching.length} option(s) use what you clicked; click more, or choose below.`
    : "Click a card or a cell on the board, or choose below.";
  // light up what can be clicked next
  const hot = new Set();
  for (const o of matching) for (const k of optionKeys(o)) hot.add(k);
  for (const el of $("board").querySelectorAll("[data-card], [data-cell]")) {
    const keys = clickKeys(el).filter((k) => (el.hasAttribute("data-card") ? k.startsWith("card:") : k.startsWith("cell:")));
    if (keys.some((k) => selection.includes(k))) el.classList.add("chosen");
    else if (selection.length && keys.some((k) => hot.has(k))) el.setAttribute("data-hit", "");
  }
  // the options that use what was clicked come first
  const ordered = selection.length ? [...matching, ...options.filter((o) => !matching.includes(o))] : options;
  for (const o of ordered) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option" + (selection.length && matching.includes(o) ? " match" : "") + (o === chosen ? " picked" : "");
    b.textContent = optionText(o);
    b.addEventListener("click", () => choose(o));
    box.appendChild(b);
  }
}

// A move is committed by Confirm, or by a second tap on the same option.
function choose(o) {
  if (busy) return;
  if (chosen === o) { confirmChoice(); return; }
  chosen = o;
  $("choice-text").textContent = optionText(o);
  $("choice").classList.remove("hidden");
  showOptions();
}

function clearChoice() {
  chosen = null;
  $("choice").classList.add("hidden");
}

async function confirmChoice() {
  if (!chosen) return;
  const o = chosen;
  clearChoice();
  const before = { state, log: decisionLog.length, events: $("events").children.length };
  snapshots.push(before);
  await decide(o);
  if (state === before.state) { snapshots.pop(); undoState(); } // refused: nothing to take back
}

async function undo() {
  if (busy || !snapshots.length) return;
  busy = true;
  try {
    const back = snapshots.pop();
    marked = { seat: null, events: [] };
    decisionLog.length = back.log;
    const ol = $("events");
    while (ol.children.length > back.events) ol.lastChild.remove();
    await update(back.state, []);
  } catch (e) { setStatus(e.message, "error"); } finally { busy = false; undoState(); }
}

function candidates() {
  return options.filter((o) => {
    const keys = optionKeys(o);
    return selection.every((k) => keys.has(k));
  });
}

async function onBoardClick(ev) {
  if (busy || !state || state.game_over) return;
  const p = state.pending;
  if (!p || seatKinds[p.seat] !== "human") return;
  const keys = clickKeys(ev.target);
  if (!keys.length) return;
  // a click on a city card names both the card and its cell: keep the one that narrows best
  let best = null;
  for (const k of keys) {
    const withPrev = options.filter((o) => [...selection, k].every((x) => optionKeys(o).has(x)));
    const alone = options.filter((o) => optionKeys(o).has(k));
    if (withPrev.length) { if (!best || withPrev.length < best.n) best = { sel: [...selection, k], n: withPrev.length }; }
    else if (alone.length && (!best || best.restart)) best = { sel: [k], n: alone.length, restart: true };
  }
  if (!best) { $("selection").textContent = "No option uses what you clicked."; return; }
  selection = best.sel;
  const matching = candidates();
  if (matching.length === 1) { choose(matching[0]); return; }
  showOptions();
}

async function update(resolved, events, marks = []) {
  state = resolved;
  selection = [];
  clearChoice();
  if (events && events.length) logEvents(events, true);
  const v = viewer();
  await showBoard($("board"), withMarks(v === null ? { state } : { state, seat: v }, marks));
  showScores(state.game_over ? state.scores : await api("/v1/score", { state }));
  if (state.game_over) {
    options = [];
    const w = state.scores.winners.map(seatName).join(", ");
    setStatus(`Game over: ${w} win${state.scores.winners.length === 1 ? "s" : ""}.`, "ok");
    showOptions();
    phase("over");
    return;
  }
  const p = state.pending;
  if (seatKinds[p.seat] === "human") {
    const legal = await api("/v1/legal-moves", { state });
    options = legal.options;
    setStatus(`${seatName(p.seat)}, your decision: ${p.prompt}`, "", p.clause);
    phase("human");
    showOptions();
  } else {
    options = [];
    showOptions();
    setStatus(`${seatName(p.seat)} (${seatKinds[p.seat]}) is thinking`, "thinking");
    phase("bot");
    setTimeout(botMove, 50);
  }
}

async function resolve(decision) {
  const humans = humanSeats();
  const body = { state, decisions: [decision] };
  // a player at the table sees the events as their seat may (other hands' draws withheld)
  if (humans.length === 1) body.events_for = humans[0];
  const seat = state.pending.seat;
  const out = await api("/v1/resolve", body);
  decisionLog.push(decision);
  await update(out.state, out.events, markTurn(seat, out.events));
}

async function decide(option) {
  if (busy) return;
  busy = true;
  $("undo").disabled = true;
  try { await resolve(option); } catch (e) { setStatus(e.message, "error"); } finally { busy = false; undoState(); }
}

function undoState() {
  $("undo").disabled = busy || !snapshots.length || (state && !state.game_over && seatKinds[state.pending.seat] !== "human");
}

async function botMove() {
  if (busy || !state || state.game_over) return;
  const seat = state.pending.seat;
  const kind = seatKinds[seat];
  if (kind === "human") return;
  busy = true;
  try {
    // the bot is given its seat's view only, never the state
    const view = await api("/v1/view", { state, seat });
    const req = { view, seat, seed: decisionLog.length };
    if (kind === "greedy" || kind === "random") req.bot = kind; else req.level = kind;
    const out = await api("/v1/suggest", req);
    await resolve(out.decision);
  } catch (e) {
    setStatus(`bot error: ${e.message}`, "error");
  } finally {
    busy = false;
    undoState();
  }
}

async function start(ev) {
  ev.preventDefault();
  if (busy) return;
  busy = true;
  try {
    game = $("game").value;
    const seats = Number($("seats").value);
    seatKinds = [...Array(seats).keys()].map((i) => $(`seat-${i}`).value);
    const setup = { seats, seed: Math.max(0, Math.floor(Number($("seed").value) || 0)) };
    if (game === "architectura") setup.variant = $("variant").value;
    else setup.game = game;
    const out = await api("/v1/games", setup);
    setupUsed = setup;
    decisionLog = [];
    snapshots = [];
    marked = { seat: null, events: [] };
    names = await loadNames(out.state);
    showLegend().catch((e) => { $("legend").textContent = e.message; });
    $("events").textContent = "";
    busy = false;
    await update(out.state, []);
  } catch (e) {
    setStatus(e.message, "error");
  } finally {
    busy = false;
    undoState();
  }
}

// ------------------------------------------------------------------------- the replay
let rp = null; // {start, decisions, states: [], events: [], valid}

async function loadLog() {
  const verdict = $("replay-verdict");
  verdict.className = "muted";
  let log;
  try { log = JSON.parse($("log").value); } catch (e) { verdict.textContent = `Not JSON: ${e.message}`; verdict.className = "error"; return; }
  if (!log || !Array.isArray(log.decisions) || (!log.setup && !log.state)) {
    verdict.textContent = "A log needs decisions and a setup or a state.";
    verdict.className = "error";
    return;
  }
  try {
    const start = log.setup ? (await api("/v1/games", log.setup)).state : log.state;
    const check = await api("/v1/replay", log.setup ? { setup: log.setup, decisions: log.decisions } : { state: log.state, decisions: log.decisions });
    game = start.game || "architectura";
    names = await loadNames(start);
    const usable = check.ok ? log.decisions.length : check.applied;
    rp = { decisions: log.decisions.slice(0, usable), states: [start], events: [[]], at: 0 };
    if (check.ok) {
      verdict.textContent = `The log is legal: ${log.decisions.length} decisions.`;
      verdict.className = "ok";
    } else {
      const err = check.error;
      verdict.textContent = `Decision ${err.index} is illegal: ${err.code} [${err.clause || "-"}] ${err.detail}; the first ${check.applied} can be stepped through.`;
      verdict.className = "error";
    }
    await replayGo(0);
  } catch (e) {
    verdict.textContent = e.message;
    verdict.className = "error";
  }
}

async function replayGo(k) {
  if (!rp) return;
  k = Math.max(0, Math.min(k, rp.decisions.length));
  // successive /v1/resolve calls, each state kept, so stepping back costs nothing
  while (rp.states.length <= k) {
    const i = rp.states.length - 1;
    const out = await api("/v1/resolve", { state: rp.states[i], decisions: [rp.decisions[i]] });
    rp.states.push(out.state);
    rp.events.push(out.events);
  }
  rp.at = k;
  await showBoard($("replay-board"), withMarks({ state: rp.states[k] }, rp.events[k]));
  $("rp-step").textContent = `decision ${k} of ${rp.decisions.length}`;
  $("rp-decision").textContent = k ? optionText(rp.decisions[k - 1]) : "the start";
  const ol = $("rp-events");
  ol.textContent = "";
  for (const e of rp.events[k]) ol.appendChild(eventItem(e));
}

// --------------------------------------------------------------------------- wiring
function useGameOf(doc) {
  // option and event sentences name the cards of the game shown in the tab
  if (!doc) return;
  game = doc.game || "architectura";
  names = catalogs[`${doc.game}/${doc.catalog.id}`] || {};
}

function showTab(name) {
  if (name !== "rules") useGameOf(name === "play" ? state : rp && rp.states[0]);
  for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t.dataset.tab === name);
  for (const pane of ["play", "replay", "rules"]) $(pane).classList.toggle("hidden", name !== pane);
  if (name === "rules") loadRules(game).catch((e) => { $("rules-text").textContent = e.message; });
}

document.addEventListener("DOMContentLoaded", () => {
  $("seed").value = String(Math.floor(Math.random() * 1e6));
  const onGame = () => {
    $("variant-label").style.display = $("game").value === "architectura" ? "" : "none";
    renderSeatConfig();
  };
  $("game").addEventListener("change", onGame);
  $("seats").addEventListener("change", renderSeatConfig);
  $("setup").addEventListener("submit", start);
  $("board").addEventListener("click", onBoardClick);
  $("confirm").addEventListener("click", confirmChoice);
  $("cancel").addEventListener("click", () => { clearChoice(); showOptions(); });
  $("undo").addEventListener("click", undo);
  for (const t of document.querySelectorAll(".tab")) t.addEventListener("click", () => showTab(t.dataset.tab));
  $("log-from-game").addEventListener("click", () => {
    if (!setupUsed) return;
    $("log").value = JSON.stringify({ setup: setupUsed, decisions: decisionLog });
  });
  $("log-load").addEventListener("click", loadLog);
  $("rp-first").addEventListener("click", () => replayGo(0));
  $("rp-prev").addEventListener("click", () => replayGo(rp ? rp.at - 1 : 0));
  $("rp-next").addEventListener("click", () => replayGo(rp ? rp.at + 1 : 0));
  $("rp-last").addEventListener("click", () => replayGo(rp ? rp.decisions.length : 0));
  onGame();
  phase("setup");
  start(new Event("submit")); // a board at once: Architectura, you against an easy bot
});
