// The game review on /play (POST /v1/review, docs/review.md): a chart of each seat's win
// chance over the game, a verdict per reviewed decision, mistakes marked in the event lists,
// and a decision's best alternative on the board. Loaded after play.js, whose page-level
// names it reads ($, api, showBoard, optionText, seatName, setupUsed, decisionLog, state, rp).
"use strict";

const REVIEW_BUDGET = { iterations: 60 }; // per decision: a whole game within the synchronous limit
const VERDICT_CLASS = { best: "v-best", good: "v-good", inaccuracy: "v-inaccuracy", mistake: "v-mistake", blunder: "v-blunder" };
const MARKED = ["inaccuracy", "mistake", "blunder"];
const SEAT_INK = ["#1f5fbf", "#2e8b3a", "#c9a100", "#c0392b"];
const SVG_NS = "http://www.w3.org/2000/svg";

let reviewed = null; // {tab, log: {setup|state, decisions}, answer}

async function postReview(log) {
  const body = { ...log, budget: REVIEW_BUDGET, seed: 0 };
  const r = await fetch("/v1/review", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (r.status === 202) return pollJob(r.headers.get("Location"));
  if (!r.ok) throw new Error(`${data.code}: ${data.detail}`);
  return data;
}

async function pollJob(location) {
  for (;;) {
    await new Promise((ok) => setTimeout(ok, 500));
    const doc = await api(location);
    const p = doc.progress.positions;
    if (p) $("review-status").textContent = `Reviewing on the workers: ${p.done} of ${p.total} decisions…`;
    if (doc.status === "finished") return doc.result;
    if (doc.status === "failed" || doc.status === "cancelled") throw new Error(`review job ${doc.status}`);
  }
}

function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

// Each seat's win chance at its own reviewed decisions (as that seat saw it), over the game.
function chart(answer) {
  const W = 640, H = 200, L = 34, R = 10, T = 10, B = 24;
  const n = Math.max(1, answer.decisions.length);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (p) => T + (1 - p / 100) * (H - T - B);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "review-chart", role: "img", "aria-label": "win chance of each seat over the game" });
  for (const p of [0, 50, 100]) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: "#d9cfbb" }));
    const t = svgEl("text", { x: 4, y: y(p) + 4, "font-size": 10, fill: "#7a6f5c" });
    t.textContent = `${p}%`;
    svg.appendChild(t);
  }
  for (const s of answer.seats) {
    const rows = answer.decisions.filter((d) => d.seat === s.seat && d.verdict);
    if (!rows.length) continue;
    const ink = SEAT_INK[s.seat % SEAT_INK.length];
    const pts = rows.map((d) => `${x(d.index).toFixed(1)},${y(d.win_before).toFixed(1)}`).join(" ");
    svg.appendChild(svgEl("polyline", { points: pts, fill: "none", stroke: ink, "stroke-width": 2, "data-seat": s.seat }));
    for (const d of rows) {
      const bad = MARKED.includes(d.verdict);
      const dot = svgEl("circle", { cx: x(d.index), cy: y(d.win_after), r: bad ? 5 : 2.5, fill: bad ? "#b3261e" : ink, "data-index": d.index, class: `dot ${VERDICT_CLASS[d.verdict]}` });
      const title = svgEl("title", {});
      title.textContent = `decision ${d.index}: ${d.notation || ""} · ${d.verdict} (win ${d.win_after}% of ${d.win_best}%)`;
      dot.appendChild(title);
      dot.addEventListener("click", () => showAlternative(d));
      svg.appendChild(dot);
    }
  }
  return svg;
}

function badge(verdict) {
  const b = document.createElement("span");
  b.className = `verdict ${VERDICT_CLASS[verdict]}`;
  b.textContent = verdict;
  return b;
}

function seatLine(answer) {
  const p = document.createElement("p");
  p.id = "review-seats";
  p.textContent = answer.seats.filter((s) => s.reviewed).map((s) => {
    const c = s.counts;
    return `${seatName(s.seat)}: accuracy ${s.accuracy} (${c.inaccuracy} inaccuracies, ${c.mistake} mistakes, ${c.blunder} blunders)`;
  }).join(" · ");
  return p;
}

function decisionList(answer) {
  const ol = document.createElement("ol");
  ol.id = "review-decisions";
  ol.className = "events";
  ol.start = 0;
  for (const d of answer.decisions) {
    const li = document.createElement("li");
    li.value = d.index;
    li.dataset.index = d.index;
    if (!d.verdict) {
      li.className = "muted";
      li.textContent = `${d.seat === null ? "" : seatName(d.seat) + ": "}${d.skipped === "forced" ? "forced" : "not reviewed"}`;
    } else {
      li.textContent = `${seatName(d.seat)}: ${d.notation || optionText(d.decision)} · win ${d.win_after}% `;
      li.appendChild(badge(d.verdict));
      li.classList.add("reviewed");
      li.addEventListener("click", () => showAlternative(d));
    }
    ol.appendChild(li);
  }
  return ol;
}

// The position after the best decision found, in place of the one played.
async function showAlternative(d) {
  const box = $("review-alt");
  const log = reviewed.log;
  const out = await api("/v1/replay", { ...(log.setup ? { setup: log.setup } : { state: log.state }), decisions: log.decisions.slice(0, d.index) });
  const after = await api("/v1/resolve", { state: out.state, decisions: [d.best.decision] });
  $("review-alt-text").textContent = d.verdict === "best"
    ? `Decision ${d.index}: ${d.notation} was the best found (win ${d.win_after}%). The board after it:`
    : `Decision ${d.index}: best was ${d.best.notation || optionText(d.best.decision)} (win ${d.win_best}%) instead of ${d.notation} (${d.win_after}%, ${d.verdict}). The board after the best:`;
  box.classList.remove("hidden");
  await showBoard($("review-alt-board"), { state: after.state });
  for (const li of document.querySelectorAll("#review-decisions li")) li.classList.toggle("picked", Number(li.dataset.index) === d.index);
}

// Mark mistakes in the play tab's event list (its items carry the decision that caused them)
// and in the replay tab's decision line.
function markEvents(answer) {
  const byIndex = new Map(answer.decisions.filter((d) => d.verdict).map((d) => [d.index, d]));
  for (const li of document.querySelectorAll("#events li[data-decision]")) {
    li.querySelector(".verdict")?.remove();
    const d = byIndex.get(Number(li.dataset.decision));
    if (d && MARKED.includes(d.verdict) && li.classList.contains("turn")) li.appendChild(badge(d.verdict));
  }
  markReplayStep();
}

function markReplayStep() {
  const line = $("rp-decision");
  if (!line) return;
  line.querySelector(".verdict")?.remove();
  if (!reviewed || reviewed.tab !== "replay" || typeof rp === "undefined" || !rp || !rp.at) return;
  const d = reviewed.answer.decisions.find((r) => r.index === rp.at - 1 && r.verdict);
  if (d) line.appendChild(badge(d.verdict));
}

async function runReview(tab) {
  let log;
  if (tab === "play") {
    if (!setupUsed || !decisionLog.length) return;
    log = { setup: setupUsed, decisions: decisionLog.slice() };
  } else {
    try { log = JSON.parse($("log").value); } catch (e) { $("review-status").textContent = `Not JSON: ${e.message}`; return; }
    log = log.setup ? { setup: log.setup, decisions: log.decisions } : { state: log.state, decisions: log.decisions };
  }
  const panel = $("review");
  panel.classList.remove("hidden");
  $(tab === "play" ? "play" : "replay").appendChild(panel);
  $("review-status").textContent = "Reviewing each decision from its seat's view…";
  $("review-body").textContent = "";
  $("review-alt").classList.add("hidden");
  document.body.dataset.review = "running";
  try {
    const answer = await postReview(log);
    reviewed = { tab, log, answer };
    $("review-status").textContent = `Reviewed with ${answer.settings.iterations} iterations per decision.`;
    $("review-body").append(chart(answer), seatLine(answer), decisionList(answer));
    markEvents(answer);
    document.body.dataset.review = "done";
  } catch (e) {
    $("review-status").textContent = e.message;
    document.body.dataset.review = "failed";
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("review-game").addEventListener("click", () => runReview("play"));
  $("review-log").addEventListener("click", () => runReview("replay"));
  // each event item of the play tab learns the decision that caused it (the log's last one)
  new MutationObserver((changes) => {
    for (const c of changes) for (const li of c.addedNodes) if (li.dataset) li.dataset.decision = String(decisionLog.length - 1);
  }).observe($("events"), { childList: true });
  new MutationObserver(markReplayStep).observe($("rp-step"), { childList: true, characterData: true, subtree: true });
});

// play.js calls this when a game ends: the review is offered
function reviewOffer(over) {
  $("review-game").classList.toggle("hidden", !over);
}
