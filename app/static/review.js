// The game review on /play (POST /v1/review, docs/review.md): a chart of each seat's win
// chance over the game, a verdict per reviewed decision, mistakes marked in the event lists,
// and a decision's best alternative on the board. Loaded after play.js, whose page-level
// names it reads ($, api, t, tn, showBoard, optionText, seatName, setupUsed, decisionLog, state,
// rp). Its words are play.js's table (app/static/play-text.json, keys rv_* and verdict_*), and
// play.js calls reviewLanguage() when the language changes: the panel is written again.
"use strict";

const VERDICT_CLASS = { best: "v-best", good: "v-good", inaccuracy: "v-inaccuracy", mistake: "v-mistake", blunder: "v-blunder" };
const MARKED = ["inaccuracy", "mistake", "blunder"];
const SEAT_INK = ["#1f5fbf", "#2e8b3a", "#c9a100", "#c0392b"];
const SVG_NS = "http://www.w3.org/2000/svg";

let reviewed = null; // {tab, log: {setup|state, decisions}, answer}
let reviewStatus = null; // what the status line says: a function writing it in the page's language
let altShown = null; // the decision whose best alternative is shown

// The status line, from a function that writes it (called again in another language).
function setReviewStatus(text) {
  reviewStatus = text;
  $("review-status").textContent = text();
}

function verdictName(verdict) { return t(`verdict_${verdict}`); }

async function postReview(log) {
  // no level: the service's default, the deepest that answers at once (docs/review.md)
  const body = { ...log, seed: 0 };
  const r = await fetch("/v1/review", {
    method: "POST", headers: { "content-type": "application/json", "accept-language": lang }, body: JSON.stringify(body),
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
    if (p) setReviewStatus(() => t("rv_progress", { done: p.done, total: p.total }));
    if (doc.status === "finished") return doc.result;
    if (doc.status === "failed" || doc.status === "cancelled") {
      const e = new Error(`review job ${doc.status}`);
      e.text = doc.status === "failed" ? () => t("rv_job_failed") : () => t("rv_job_cancelled");
      throw e;
    }
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
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "review-chart", role: "img", "aria-label": t("rv_chart_label") });
  for (const p of [0, 50, 100]) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), stroke: "#d9cfbb" }));
    const tick = svgEl("text", { x: 4, y: y(p) + 4, "font-size": 10, fill: "#7a6f5c" });
    tick.textContent = `${p}%`;
    svg.appendChild(tick);
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
      title.textContent = t("rv_dot_title", { index: d.index, decision: optionText(d.decision), verdict: verdictName(d.verdict), win: d.win_after, best: d.win_best });
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
  b.dataset.verdict = verdict;
  b.textContent = verdictName(verdict);
  return b;
}

function seatLine(answer) {
  const p = document.createElement("p");
  p.id = "review-seats";
  p.textContent = answer.seats.filter((s) => s.reviewed).map((s) => {
    const c = s.counts;
    return t("rv_seat_line", {
      seat: seatName(s.seat), accuracy: s.accuracy, inaccuracies: tn("rv_inaccuracies", c.inaccuracy),
      mistakes: tn("rv_mistakes", c.mistake), blunders: tn("rv_blunders", c.blunder),
    });
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
    if (d.notation) li.dataset.notation = d.notation; // the engine's notation: ids, not words
    if (!d.verdict) {
      li.className = "muted";
      li.textContent = `${d.seat === null ? "" : seatName(d.seat) + ": "}${d.skipped === "forced" ? t("rv_forced") : t("rv_not_reviewed")}`;
    } else {
      li.textContent = (d.judged_by === "margin"
        ? t("rv_row_margin", { seat: seatName(d.seat), decision: optionText(d.decision), margin: d.margin.after })
        : t("rv_row", { seat: seatName(d.seat), decision: optionText(d.decision), win: d.win_after })) + " ";
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
  altShown = d;
  const out = await api("/v1/replay", { ...(log.setup ? { setup: log.setup } : { state: log.state }), decisions: log.decisions.slice(0, d.index) });
  const after = await api("/v1/resolve", { state: out.state, decisions: [d.best.decision] });
  // a seat that could no longer win is judged by its score margin (docs/review.md)
  $("review-alt-text").textContent = d.verdict === "best"
    ? t("rv_alt_best", { index: d.index, decision: optionText(d.decision), win: d.win_after })
    : d.judged_by === "margin"
      ? t("rv_alt_margin", {
        index: d.index, best: optionText(d.best.decision), m_best: d.margin.best,
        decision: optionText(d.decision), m_after: d.margin.after, verdict: verdictName(d.verdict),
      })
      : t("rv_alt_other", {
        index: d.index, best: optionText(d.best.decision), win_best: d.win_best,
        decision: optionText(d.decision), win: d.win_after, verdict: verdictName(d.verdict),
      });
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
    try { log = JSON.parse($("log").value); } catch (e) { setReviewStatus(() => t("log_not_json", { error: e.message })); return; }
    log = log.setup ? { setup: log.setup, decisions: log.decisions } : { state: log.state, decisions: log.decisions };
  }
  const panel = $("review");
  panel.classList.remove("hidden");
  $(tab === "play" ? "play" : "replay").appendChild(panel);
  setReviewStatus(() => t("rv_running"));
  $("review-body").textContent = "";
  $("review-alt").classList.add("hidden");
  altShown = null;
  document.body.dataset.review = "running";
  try {
    const answer = await postReview(log);
    reviewed = { tab, log, answer };
    showReview();
    document.body.dataset.review = "done";
  } catch (e) {
    setReviewStatus(e.text || (() => e.message)); // else the API's sentence, in the language asked
    document.body.dataset.review = "failed";
  }
}

// The reviewed game's status, chart, seats' accuracy, decisions and marks in the event lists.
function showReview() {
  const answer = reviewed.answer;
  setReviewStatus(() => t("rv_done", { iterations: answer.settings.iterations }));
  $("review-body").textContent = "";
  $("review-body").append(chart(answer), seatLine(answer), decisionList(answer));
  markEvents(answer);
}

// play.js calls this once the page is written in another language (its event items too).
async function reviewLanguage() {
  if (reviewStatus) setReviewStatus(reviewStatus);
  if (!reviewed || document.body.dataset.review !== "done") return;
  showReview();
  if (altShown) await showAlternative(reviewed.answer.decisions.find((d) => d.index === altShown.index));
}

document.addEventListener("DOMContentLoaded", () => {
  $("review-game").addEventListener("click", () => runReview("play"));
  $("review-log").addEventListener("click", () => runReview("replay"));
  // each event item of the play tab learns the decision that caused it (the log's last one);
  // an item written again in another language (replaceWith) keeps the one it had
  new MutationObserver((changes) => {
    for (const c of changes) {
      c.addedNodes.forEach((li, i) => {
        const before = c.removedNodes[i] && c.removedNodes[i].dataset && c.removedNodes[i].dataset.decision;
        if (li.dataset) li.dataset.decision = before || String(decisionLog.length - 1);
      });
    }
  }).observe($("events"), { childList: true });
  new MutationObserver(markReplayStep).observe($("rp-step"), { childList: true, characterData: true, subtree: true });
});

// play.js calls this when a game ends: the review is offered
function reviewOffer(over) {
  $("review-game").classList.toggle("hidden", !over);
}
