// The play and replay page: a client of the public HTTP API only (no build step, no other host).
"use strict";

const $ = (id) => document.getElementById(id);
const BOTS = ["human", "easy", "medium", "hard", "greedy", "random"]; // labels: bot_<kind>

// ------------------------------------------------------------------------------ language
// Every word of the page is in one table, app/static/play-text.json ({key: {en, pt, fr, de}});
// the language is the one picked on the page (kept in localStorage), else the browser's, and
// every API call asks for it (Accept-Language), so boards, prompts and rule texts follow.
const LANGS = { en: "English", pt: "Português", fr: "Français", de: "Deutsch" };
let TEXT = {};
let lang = "en";

function browserLanguage() {
  let saved = null;
  try { saved = localStorage.getItem("play.lang"); } catch (e) { /* storage off: not kept */ }
  if (saved && LANGS[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const l = String(tag).slice(0, 2).toLowerCase();
    if (LANGS[l]) return l;
  }
  return "en";
}

// The page's text for `key` in the page's language, its {placeholders} filled from `vars`.
function t(key, vars) {
  const entry = TEXT[key];
  const s = entry ? entry[lang] || entry.en : key;
  return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
}

// A sentence with a count: `key_one` for 1, `key_many` otherwise.
function tn(key, n, vars) { return t(n === 1 ? `${key}_one` : `${key}_many`, { n, ...vars }); }

// The fixed text of the page: data-t (text), data-t-label (aria-label and title),
// data-t-placeholder.
function applyText() {
  document.documentElement.lang = lang;
  document.title = t("page_title");
  for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of document.querySelectorAll("[data-t-label]")) {
    el.setAttribute("aria-label", t(el.dataset.tLabel));
    el.setAttribute("title", t(el.dataset.tLabel));
  }
  for (const el of document.querySelectorAll("[data-t-placeholder]")) el.placeholder = t(el.dataset.tPlaceholder);
}

async function setLanguage(l) {
  lang = LANGS[l] ? l : "en";
  try { localStorage.setItem("play.lang", lang); } catch (e) { /* storage off: not kept */ }
  $("lang").value = lang;
  applyText();
  try { await loadGames(); } catch (e) { /* the facts stay in the language they were */ }
  const kinds = Array.from(document.querySelectorAll("#seat-config select"), (sel) => sel.value);
  renderSetupChoices();
  renderSeatConfig();
  kinds.forEach((k, i) => { $(`seat-${i}`).value = k; }); // the seats as they were chosen
  for (const li of document.querySelectorAll("#events li, #rp-events li")) li.replaceWith(eventItem(li.event, li.className));
  rulesShown = null;
  if (!$("rules").classList.contains("hidden")) showTab("rules");
  if (rp) {
    await loadNames(rp.info);
    if (!$("replay").classList.contains("hidden")) useGame(rp.info);
    await replayGo(rp.at);
  }
  // the play tab's board, prompt and options: asked again in this language (not while a bot
  // is thinking: its answer is shown in the new language anyway)
  if (state && !busy && ["human", "over"].includes(document.body.dataset.phase)) await update(state, []);
  if (typeof reviewLanguage === "function") await reviewLanguage(); // review.js (issue 20)
}

// ---------------------------------------------------------------------------------- HTTP
async function api(path, body) {
  const headers = { "accept-language": lang };
  const init = body === undefined ? { headers } : {
    method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body),
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
const catalogs = {}; // "game/id/language" -> {card id: name}

// `info`: the game and catalog id of a game shown ({game, catalog}, from a seat's view)
async function loadNames(info) {
  const key = `${info.game}/${info.catalog}/${lang}`;
  if (!catalogs[key]) {
    catalogs[key] = {};
    try {
      const doc = await api(`/v1/catalogs/${encodeURIComponent(info.catalog)}?game=${encodeURIComponent(info.game)}`);
      Object.assign(catalogs[key], doc.names); // in the page's language
    } catch (e) { /* a custom catalog: ids are shown as they are */ }
  }
  return catalogs[key];
}

// Each game's facts (GET /v1/games, in the page's language): its name, seats, seat colours,
// how a cell is named and its set-up choices. The page names no game.
let GAMES = {};
let names = {};
let game = null;

async function loadGames() {
  GAMES = {};
  for (const g of (await api("/v1/games")).games) GAMES[g.game] = g;
}

function facts(g) { return GAMES[g || game] || { colours: [], cell: "({0}, {1})", setup: {}, seats: { min: 2, max: 4 } }; }

// A card by its id: a catalog card's name (with the id, which names the copy), or, for an id
// `colour.card`, the colour's name and the card's (a seat's copy of a card of the catalog).
function cardName(id) {
  if (id === null || id === undefined) return t("hidden_card");
  const dot = id.indexOf(".");
  if (dot > 0 && !(id in names)) {
    const def = id.slice(dot + 1);
    return `${colourName(id.slice(0, dot))} ${names[def] || def}`;
  }
  return names[id] ? `${id} ${names[id]}` : id;
}

function colourName(c) {
  const known = facts().colours.find((x) => x.colour === c);
  return known ? known.name : c;
}

function cellText(c) {
  if (!Array.isArray(c)) return t("outside_city");
  return facts().cell.replace(/\{(\d)\}/g, (m, i) => String(c[Number(i)]));
}

// A seat by its colour, for a game whose seats have colours, else by its number.
function seatName(s, g) {
  const colours = facts(g).colours;
  if (!colours.length) return t("seat_n", { seat: s });
  const own = table && table.game === (g || game) ? table.colours[s] : null;
  return t("seat_colour", { colour: colourName(own || (colours[s] && colours[s].colour)), seat: s });
}

const DIRS = ["east", "south", "west", "north"]; // dir_<name>
const half = (r) => t(`dir_${DIRS[r]}`);
const signed = (n) => `${n > 0 ? "+" : ""}${n}`;
const words = (v) => (TEXT[`word_${v}`] ? t(`word_${v}`) : String(v || "").replace(/_/g, " "));

// A decision as a sentence: opt_<type>, with the cards and cells it names.
function optionText(o) {
  const v = { card: o.card !== undefined ? cardName(o.card) : "", target: o.target !== undefined ? cardName(o.target) : "" };
  if (o.cell !== undefined) v.cell = cellText(o.cell);
  if (o.type === "lay") { // from the market or the deck on a final turn (F-8.2)
    const where = o.from ? `opt_lay_from_${o.from}` : "opt_lay";
    return o.x === undefined ? t(`${where}_site`, v) : t(where, { ...v, x: o.x, y: o.y, half: half(o.r) });
  }
  if (o.type === "rotate") return t(o.steps > 0 ? "opt_rotate_cw" : "opt_rotate_ccw", { ...v, steps: signed(o.steps) });
  if (o.type === "buy" && o.from === "deck") return t("opt_buy_deck", v);
  if (o.type === "convert") return t("opt_convert", { ...v, designer: cardName(o.designer) });
  if (o.type === "clone" && o.from) return t(`opt_clone_from_${o.from}`, v);
  if (TEXT[`opt_${o.type}`]) return t(`opt_${o.type}`, v);
  const rest = Object.entries(o).filter(([k]) => k !== "seat" && k !== "type").map(([k, x]) => `${k} ${JSON.stringify(x)}`);
  return `${o.type} ${rest.join(", ")}`;
}

// An event as a sentence: ev_<type>, with who, the cards and cells it names.
function eventText(e) {
  const v = { who: e.seat !== undefined ? seatName(e.seat) : t("its_owner"), card: e.card !== undefined ? cardName(e.card) : "" };
  for (const f of ["cell", "from", "to"]) if (Array.isArray(e[f])) v[f] = cellText(e[f]);
  const cards = (key) => (e.cards ? t(key, { ...v, cards: e.cards.map(cardName).join(", ") }) : tn(`${key}_count`, e.count, v));
  switch (e.type) {
    case "compared": return t("ev_compared", { ...v, played: e.played_value, left: e.left_value, outcome: words(e.outcome) });
    case "rotated": return t("ev_rotated", { ...v, steps: signed(e.steps), value: e.value });
    case "swapped": return t("ev_swapped", { a: cardName(e.cards[0]), b: cardName(e.cards[1]) });
    case "drew": return cards("ev_drew");
    case "looked": return cards("ev_looked");
    case "mulligan": return tn("ev_mulligan", e.count, v);
    case "bought": return t(e.from === "deck" ? "ev_bought_deck" : "ev_bought", v);
    case "laid": return e.x === undefined ? t("ev_laid_site", v) : t("ev_laid", { ...v, x: e.x, y: e.y, half: half(e.r) });
    case "converted": return t("ev_converted", { ...v, target: cardName(e.target), designer: cardName(e.designer) });
    case "cloned": return t("ev_cloned", { ...v, target: cardName(e.target) });
    case "end_triggered": return t("ev_end_triggered", { ...v, reason: words(e.reason) });
    case "final_round": return t("ev_final_round", { seats: (e.seats || []).map(seatName).join(", ") });
    case "game_over": {
      const w = (e.scores && e.scores.winners) || [];
      return tn("ev_game_over", w.length, { winners: w.map(seatName).join(", ") || "?" });
    }
    default: {
      if (TEXT[`ev_${e.type}`]) return t(`ev_${e.type}`, { ...v, value: e.value, limit: e.limit });
      const rest = Object.entries(e).filter(([k]) => !["type", "clause", "decision"].includes(k)).map(([k, x]) => `${k} ${JSON.stringify(x)}`);
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
  li.event = e; // written again when the language changes
  li.textContent = eventText(e);
  if (e.clause) li.appendChild(clauseBadge(e.clause));
  return li;
}

// --------------------------------------------------------------------------- the rules
const rulesOf = {}; // "game/language" -> its entries (GET /v1/rules?game=)
let rulesShown = null;

async function loadRules(g) {
  const key = `${g}/${lang}`;
  if (!rulesOf[key]) rulesOf[key] = (await api(`/v1/rules?game=${encodeURIComponent(g)}`)).games[0].clauses;
  if (rulesShown === key) return;
  const box = $("rules-text");
  box.textContent = "";
  const withClauses = new Set(rulesOf[key].filter((c) => c.section).map((c) => c.section));
  let section = box;
  let rulings = null;
  for (const c of rulesOf[key]) {
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
      h.textContent = t("rulings");
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
  rulesShown = key;
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
  // A-3.1c is read in its clause; an id not listed falls back to its section
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
    keys.push(`cell:${seat !== null ? seat + ":" : ""}${cell}`); // a cell of one seat's own
  }
  return keys;
}

// --------------------------------------------------------------------------- the game
// The page never reads the state: the service may seal and encrypt it (STATE_ENCRYPT,
// docs/trust.md), and in clear it names every hand and the deck order. It is kept only to be
// sent back; what the page shows and decides on comes from the view of the human seat at the
// table (POST /v1/view), of which `table` keeps what the page needs (readTable).
let state = null;
let table = null; // {game, catalog, colours, viewer, pending: {seat}, over, scores}
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

function viewer() { return table ? table.viewer : null; }

// What the human seat to play (else the first human seat) may see of the state: its view's
// facts the page uses, never a hand or a deck but its own. With no human seat (bots only),
// seat 0's view says who decides, and the board is the referee's picture.
async function readTable() {
  const humans = humanSeats();
  let seat = humans.length ? humans[0] : 0;
  let view = await api("/v1/view", { state, seat });
  const p = view.pending;
  if (p && humans.includes(p.seat) && p.seat !== seat) {
    seat = p.seat; // hot seat: the board turns to the human who decides
    view = await api("/v1/view", { state, seat });
  }
  return {
    game: view.game,
    catalog: view.catalog.id,
    colours: view.seats.map((s) => s.colour || null),
    viewer: humans.length ? seat : null,
    pending: p ? { seat: p.seat } : null,
    over: Boolean(view.game_over),
    scores: view.scores,
  };
}

// Everything the play tab keeps about the game in progress (tests look for secrets in it).
function playMemory() {
  return { state, table, options, chosen, selection, snapshots, decisionLog, setupUsed, seatKinds };
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
    b.textContent = seatName(i, $("game").value);
    const sel = document.createElement("select");
    sel.id = `seat-${i}`;
    for (const v of BOTS) {
      const opt = document.createElement("option");
      opt.value = v;
      opt.textContent = t(`bot_${v}`);
      sel.appendChild(opt);
    }
    sel.value = old[i] || (i === 0 ? "human" : "easy");
    wrap.append(b, sel);
    box.appendChild(wrap);
  }
}

// The games offered, by name (GET /v1/games), the first the default.
function renderGameChoice() {
  const sel = $("game");
  const was = sel.value;
  sel.textContent = "";
  for (const g of Object.values(GAMES)) {
    const opt = document.createElement("option");
    opt.value = g.game;
    opt.textContent = g.name;
    sel.appendChild(opt);
  }
  if (GAMES[was]) sel.value = was;
}

// The chosen game's seat counts and set-up fields (each a select of its choices: label_<field>,
// <field>_<choice> in the page's words, else the field and choice as the API names them).
function renderSetupChoices() {
  const f = facts($("game").value);
  const seats = $("seats");
  const n = seats.value;
  seats.textContent = "";
  for (let k = f.seats.min; k <= f.seats.max; k++) {
    const opt = document.createElement("option");
    opt.textContent = String(k);
    seats.appendChild(opt);
  }
  seats.value = Number(n) >= f.seats.min && Number(n) <= f.seats.max ? n : String(f.seats.min);
  const box = $("setup-choices");
  const kept = Object.fromEntries(Array.from(box.querySelectorAll("select"), (s) => [s.id, s.value]));
  box.textContent = "";
  for (const [field, choices] of Object.entries(f.setup)) {
    const label = document.createElement("label");
    const span = document.createElement("span");
    span.textContent = TEXT[`label_${field}`] ? t(`label_${field}`) : field;
    const sel = document.createElement("select");
    sel.id = `setup-${field}`;
    for (const c of choices) {
      const opt = document.createElement("option");
      opt.value = c;
      opt.textContent = TEXT[`${field}_${c}`] ? t(`${field}_${c}`) : c;
      sel.appendChild(opt);
    }
    if (choices.includes(kept[sel.id])) sel.value = kept[sel.id];
    label.append(span, " ", sel);
    box.appendChild(label);
  }
}

function setStatus(text, cls, clause) {
  const s = $("status");
  s.textContent = text;
  if (clause) s.appendChild(clauseBadge(clause));
  s.className = `status ${cls || ""}`;
}

// On a phone the seats' panels go one a row (the render's `columns`): the board grows down.
const NARROW = window.matchMedia("(max-width: 700px)");

async function showBoard(target, body) {
  if (NARROW.matches) body.columns = 1;
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
  focusableCards(node);
  target.replaceChildren(node);
}

// The play tab's board: the human seat's picture (the referee's with bots only), with
// `preview` (an option) drawn as if taken (POST /v1/render's preview; nothing is applied).
async function showPlayBoard(preview) {
  const v = viewer();
  const body = v === null ? { state } : { state, seat: v };
  if (preview) body.preview = preview;
  await showBoard($("board"), withMarks(body, marked.events));
  $("board").dataset.preview = preview ? placementKey(preview) : "";
}

// The board marks what the last decisions changed (class last-move): /v1/render reads the
// cards and cells named by the events /v1/resolve answered (at most 64), those of the seat's
// decisions in a row (a turn of buy then lay), so a bot's whole turn is marked.
let marked = { seat: null, events: [] };

function markTurn(seat, events) {
  const earlier = marked.seat === seat ? marked.events : [];
  marked = { seat, events: earlier.concat(events).slice(-64) };
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
    who.textContent = `${seatName(s.seat)}${table.over && scores.winners.includes(s.seat) ? " ★" : ""}`;
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
  const p = table && table.pending;
  const mine = Boolean(p) && !table.over && seatKinds[p.seat] === "human";
  $("board").classList.toggle("clickable", mine);
  for (const el of $("board").querySelectorAll("[data-hit]")) el.removeAttribute("data-hit");
  for (const el of $("board").querySelectorAll(".chosen")) el.classList.remove("chosen");
  if (!mine) { $("selection").textContent = ""; return; }
  const matching = candidates();
  $("selection").textContent = selection.length ? tn("selection_count", matching.length) : t("selection_hint");
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
  const wasPlacement = isPlacement(chosen);
  chosen = o;
  $("choice-text").textContent = optionText(o);
  $("choice").classList.remove("hidden");
  $("turn").classList.toggle("hidden", !isPlacement(o) || turnsOf(o).length < 2);
  showOptions();
  if (isPlacement(o) || wasPlacement) previewChoice();
}

function clearChoice() {
  chosen = null;
  $("choice").classList.add("hidden");
}

// ------------------------------------------------------ a space seen before it is laid
// A lay into the building is drawn in place before it is confirmed (the render's preview:
// nothing is applied, drawn or dealt), and Turn goes through the options that lay the same
// card on the same cell in another rotation.
function isPlacement(o) { return Boolean(o) && o.type === "lay" && o.x !== undefined; }

function placementKey(o) { return isPlacement(o) ? `${o.card}@${o.x},${o.y},${o.r}` : ""; }

function turnsOf(o) {
  return options.filter((x) => isPlacement(x) && x.card === o.card && x.x === o.x && x.y === o.y && x.from === o.from)
    .sort((a, b) => a.r - b.r);
}

let previews = 0; // the latest preview asked for wins
async function previewChoice() {
  const mine = ++previews;
  const o = isPlacement(chosen) ? chosen : null;
  try {
    const keep = state;
    await showPlayBoard(o);
    if (mine !== previews || keep !== state) return;
    showOptions();
  } catch (e) { setStatus(e.message, "error"); }
}

function turnChoice() {
  if (busy || !isPlacement(chosen)) return;
  const turns = turnsOf(chosen);
  choose(turns[(turns.indexOf(chosen) + 1) % turns.length]);
}

function cancelChoice() {
  const wasPlacement = isPlacement(chosen);
  clearChoice();
  showOptions();
  if (wasPlacement) previewChoice();
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
  if (busy || !state || !table || table.over) return;
  const p = table.pending;
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
  if (!best) { $("selection").textContent = t("selection_none"); return; }
  selection = best.sel;
  const matching = candidates();
  if (matching.length === 1) { choose(matching[0]); return; }
  showOptions();
}

async function update(resolved, events) {
  state = resolved;
  if (typeof reviewOffer === "function") reviewOffer(state.game_over); // review.js (issue 20)
  selection = [];
  clearChoice();
  table = await readTable();
  await loadNames(table);
  if (!$("play").classList.contains("hidden")) useGame(table); // not under the replay's sentences
  if (events && events.length) logEvents(events, true);
  await showPlayBoard();
  showScores(table.over ? table.scores : await api("/v1/score", { state }));
  if (table.over) {
    options = [];
    const w = table.scores.winners;
    setStatus(tn("status_over", w.length, { winners: w.map(seatName).join(", ") }), "ok");
    showOptions();
    phase("over");
    return;
  }
  const p = table.pending;
  if (seatKinds[p.seat] === "human") {
    const legal = await api("/v1/legal-moves", { state }); // the human's own options only
    options = legal.options;
    setStatus(t("status_yours", { seat: seatName(p.seat), prompt: legal.pending.prompt }), "", legal.pending.clause);
    phase("human");
    showOptions();
  } else {
    options = [];
    showOptions();
    setStatus(t("status_thinking", { seat: seatName(p.seat), bot: t(`bot_${seatKinds[p.seat]}`) }), "thinking");
    phase("bot");
    setTimeout(botMove, 50);
  }
}

async function resolve(decision) {
  const body = { state, decisions: [decision] };
  // the table sees the events as the human seat shown may (other hands' draws withheld);
  // only the state and the events of the answer are read (its `pending` may name a bot's hand)
  if (viewer() !== null) body.events_for = viewer();
  const seat = table.pending.seat;
  const out = await api("/v1/resolve", body);
  decisionLog.push(decision);
  markTurn(seat, out.events);
  await update(out.state, out.events);
}

async function decide(option) {
  if (busy) return;
  busy = true;
  $("undo").disabled = true;
  try { await resolve(option); } catch (e) { setStatus(e.message, "error"); } finally { busy = false; undoState(); }
}

function undoState() {
  $("undo").disabled = busy || !snapshots.length || (table && !table.over && seatKinds[table.pending.seat] !== "human");
}

async function botMove() {
  if (busy || !state || !table || table.over) return;
  const seat = table.pending.seat;
  const kind = seatKinds[seat];
  if (kind === "human") return;
  busy = true;
  try {
    // the service searches on the bot seat's view; the page never sees that view (its hand)
    const req = { state, seat, seed: decisionLog.length };
    if (kind === "greedy" || kind === "random") req.bot = kind; else req.level = kind;
    const out = await api("/v1/suggest", req);
    await resolve(out.decision);
  } catch (e) {
    setStatus(t("bot_error", { error: e.message }), "error");
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
    setup.game = game;
    for (const field of Object.keys(facts().setup)) setup[field] = $(`setup-${field}`).value;
    const out = await api("/v1/games", setup);
    setupUsed = setup;
    decisionLog = [];
    snapshots = [];
    table = null;
    marked = { seat: null, events: [] };
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
let rp = null; // {info: {game, catalog}, decisions, states: [], events: [], at}

async function loadLog() {
  const verdict = $("replay-verdict");
  verdict.className = "muted";
  let log;
  try { log = JSON.parse($("log").value); } catch (e) { verdict.textContent = t("log_not_json", { error: e.message }); verdict.className = "error"; return; }
  if (!log || !Array.isArray(log.decisions) || (!log.setup && !log.state)) {
    verdict.textContent = t("log_incomplete");
    verdict.className = "error";
    return;
  }
  try {
    const start = log.setup ? (await api("/v1/games", log.setup)).state : log.state;
    const check = await api("/v1/replay", log.setup ? { setup: log.setup, decisions: log.decisions } : { state: log.state, decisions: log.decisions });
    // the game and catalog of the log's start, read from a view (the start may be encrypted)
    const view = await api("/v1/view", { state: start, seat: 0 });
    const info = { game: view.game, catalog: view.catalog.id };
    await loadNames(info);
    useGame(info);
    const usable = check.ok ? log.decisions.length : check.applied;
    rp = { info, decisions: log.decisions.slice(0, usable), states: [start], events: [[]], at: 0 };
    await replayGo(0); // the board first: the verdict says the log is loaded
    if (check.ok) {
      verdict.textContent = tn("log_legal", log.decisions.length);
      verdict.className = "ok";
    } else {
      const err = check.error;
      verdict.textContent = t("log_illegal", { index: err.index, code: err.code, clause: err.clause || "-", detail: err.detail, applied: check.applied });
      verdict.className = "error";
    }
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
  $("rp-step").textContent = t("rp_step", { k, n: rp.decisions.length });
  $("rp-decision").textContent = k ? optionText(rp.decisions[k - 1]) : t("rp_start");
  const ol = $("rp-events");
  ol.textContent = "";
  for (const e of rp.events[k]) ol.appendChild(eventItem(e));
}

// --------------------------------------------------------------------------- wiring
// option and event sentences name the cards of the game shown in the tab; `info`: {game, catalog}
function useGame(info) {
  if (!info) return;
  game = info.game;
  names = catalogs[`${info.game}/${info.catalog}/${lang}`] || {};
}

function showTab(name) {
  if (name !== "rules") useGame(name === "play" ? table : rp && rp.info);
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  for (const pane of ["play", "replay", "rules"]) $(pane).classList.toggle("hidden", name !== pane);
  if (name === "rules") loadRules(game).catch((e) => { $("rules-text").textContent = e.message; });
}

// ------------------------------------------------------------ a card's text, on tap too
// The board's cards carry their text in an SVG <title> (a hover tooltip, which a touch
// screen never shows): a tap, a click or Enter on a card shows it in the card panel.
function showCardText(target) {
  const el = target.closest && target.closest("[data-card]");
  const title = el && el.querySelector(":scope > title");
  if (!title || !title.textContent) return;
  $("card-info-text").textContent = title.textContent;
  $("card-info").classList.remove("hidden");
}

function focusableCards(svg) {
  for (const el of svg.querySelectorAll("[data-card]")) if (el.querySelector(":scope > title")) el.setAttribute("tabindex", "0");
}

function cardKeys(ev) {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  if (!ev.target.closest || !ev.target.closest("[data-card]")) return;
  ev.preventDefault();
  ev.target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
}

document.addEventListener("DOMContentLoaded", async () => {
  try { TEXT = await (await fetch("/static/play-text.json")).json(); } catch (e) { TEXT = {}; }
  lang = browserLanguage();
  const picker = $("lang");
  for (const [code, label] of Object.entries(LANGS)) {
    const opt = document.createElement("option");
    opt.value = code;
    opt.textContent = label;
    opt.lang = code;
    picker.appendChild(opt);
  }
  picker.value = lang;
  picker.addEventListener("change", () => setLanguage(picker.value));
  applyText();
  $("seed").value = String(Math.floor(Math.random() * 1e6));
  try { await loadGames(); } catch (e) { setStatus(e.message, "error"); return; }
  renderGameChoice();
  const onGame = () => {
    renderSetupChoices();
    renderSeatConfig();
  };
  $("game").addEventListener("change", onGame);
  $("seats").addEventListener("change", renderSeatConfig);
  $("setup").addEventListener("submit", start);
  $("board").addEventListener("click", onBoardClick);
  for (const b of [$("board"), $("replay-board")]) {
    b.addEventListener("click", (ev) => showCardText(ev.target));
    b.addEventListener("keydown", cardKeys);
  }
  $("card-info-close").addEventListener("click", () => $("card-info").classList.add("hidden"));
  $("confirm").addEventListener("click", confirmChoice);
  $("turn").addEventListener("click", turnChoice);
  $("cancel").addEventListener("click", cancelChoice);
  $("undo").addEventListener("click", undo);
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
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
  start(new Event("submit")); // a board at once: the first game listed, you against an easy bot
});
