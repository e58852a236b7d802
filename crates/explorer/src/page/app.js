// The explorer's page: the board drawn as SVG, every move's value from
// /api/v1/position, the main line from /api/v1/mainline, and the position kept
// in the URL so that it can be shared.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const state = {
  board: "5x5",
  position: null, // text of the position shown
  answer: null, // the last /api/v1/position answer for it
  history: [], // earlier positions, for undo
  flipped: false,
  selected: null, // square name of the piece picked up
  editing: null, // the grid being edited, or null
  request: 0, // the number of the latest request, so late answers are dropped
  refresh: null, // the timer that asks again while a solve goes on
};

const $ = (id) => document.getElementById(id);

function parsePosition(text) {
  const [ranks, side] = text.trim().split(/\s+/);
  const rows = ranks.split("/").map((rank) => {
    const cells = [];
    for (const run of rank.match(/\d+|[WB]/g) || []) {
      if (run === "W" || run === "B") cells.push(run);
      else for (let i = 0; i < Number(run); i++) cells.push(".");
    }
    return cells;
  });
  return { rows, side, width: rows[0].length, height: rows.length };
}

function positionText(rows, side) {
  const ranks = rows.map((cells) => {
    let text = "";
    let empty = 0;
    for (const cell of cells) {
      if (cell === ".") { empty++; continue; }
      if (empty) { text += empty; empty = 0; }
      text += cell;
    }
    return empty ? text + empty : text;
  });
  return ranks.join("/") + " " + side;
}

function squareName(file, row, height) {
  return String.fromCharCode(97 + file) + (height - row);
}

function moveEnds(name) {
  const [from, to] = name.split(/[-x]/);
  return { from, to };
}

function startPosition(board) {
  const [w, h] = board.split("x").map(Number);
  const rows = [];
  for (let r = 0; r < h; r++) {
    const piece = r < 2 ? "B" : r >= h - 2 ? "W" : ".";
    rows.push(new Array(w).fill(piece));
  }
  return positionText(rows, "w");
}

function showError(message) {
  const error = $("error");
  error.textContent = message || "";
  error.hidden = !message;
}

function describe(answer) {
  const toMove = answer.to_move === "white" ? "White" : "Black";
  if (answer.game_over) return `Game over: ${answer.winner} has won.`;
  if (!answer.winner) {
    if (answer.solving) return `${toMove} to move. Solving…`;
    if (answer.busy) return `${toMove} to move. The solver is busy; try again shortly.`;
    if (answer.hard) {
      return `${toMove} to move. Unknown: too hard to solve here for now (tried again in ${answer.retry_after} s).`;
    }
    return `${toMove} to move. Unknown (the solve stopped at its limit).`;
  }
  const winner = answer.winner === "white" ? "White" : "Black";
  return `${toMove} to move. ${winner} wins; the game lasts ${answer.length} plies under perfect play.`;
}

async function getJson(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function query(board, position) {
  return new URLSearchParams({ board, position }).toString();
}

async function load(board, position, how = "push") {
  clearTimeout(state.refresh);
  const request = ++state.request;
  showError("");
  let answer;
  try {
    answer = await getJson("/api/v1/position?" + query(board, position));
  } catch (err) {
    if (request === state.request) showError(err.message);
    return;
  }
  if (request !== state.request) return;
  if (how === "play" && state.position) state.history.push({ board: state.board, position: state.position });
  state.board = answer.board;
  state.position = answer.position;
  state.answer = answer;
  state.selected = null;
  const url = "?" + query(answer.board, answer.position);
  if (how === "replace" || how === "refresh") history.replaceState(null, "", url);
  else if (location.search !== url) history.pushState(null, "", url);
  $("board-input").value = answer.board;
  $("position-input").value = answer.position;
  render();
  if (answer.solving) {
    state.refresh = setTimeout(() => load(answer.board, answer.position, "refresh"), 2000);
  }
  loadMainLine(request);
}

async function loadMainLine(request) {
  const line = $("mainline");
  if (state.answer.game_over) { line.textContent = "(the game is over)"; return; }
  line.textContent = "…";
  try {
    const found = await getJson("/api/v1/mainline?" + query(state.board, state.position));
    if (request !== state.request) return;
    line.replaceChildren();
    found.moves.forEach((name, index) => {
      const item = document.createElement("span");
      item.textContent = (index % 2 === 0 ? `${index / 2 + 1}. ` : "") + name + " ";
      line.append(item);
    });
    if (!found.complete) {
      const rest = document.createElement("span");
      rest.className = "unknown";
      rest.textContent = found.moves.length ? "… (not known further yet)" : "(not known yet)";
      line.append(rest);
    }
  } catch (err) {
    if (request === state.request) line.textContent = err.message;
  }
}

function render() {
  renderBoard();
  renderMoves();
  const status = $("status");
  status.textContent = state.answer ? describe(state.answer) : "";
  status.classList.toggle("solving", Boolean(state.answer && state.answer.solving));
}

function renderBoard() {
  const svg = $("board");
  const grid = state.editing || parsePosition(state.position);
  const { width, height, rows } = grid;
  const margin = 0.35;
  svg.setAttribute("viewBox", `${-margin} 0 ${width + margin} ${height + margin}`);
  svg.replaceChildren();
  const moves = state.answer && !state.editing ? state.answer.moves : [];
  const targets = new Set(
    moves.filter((m) => moveEnds(m.move).from === state.selected).map((m) => moveEnds(m.move).to)
  );
  for (let row = 0; row < height; row++) {
    for (let file = 0; file < width; file++) {
      const x = state.flipped ? width - 1 - file : file;
      const y = state.flipped ? height - 1 - row : row;
      const name = squareName(file, row, height);
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("x", x);
      rect.setAttribute("y", y);
      rect.setAttribute("width", 1);
      rect.setAttribute("height", 1);
      let kind = (file + row) % 2 === 0 ? "light" : "dark";
      if (name === state.selected) kind = "selected";
      else if (targets.has(name)) kind = "target";
      rect.setAttribute("class", kind);
      rect.dataset.square = name;
      svg.append(rect);
      const cell = rows[row][file];
      if (cell !== ".") {
        const piece = document.createElementNS(SVG, "circle");
        piece.setAttribute("cx", x + 0.5);
        piece.setAttribute("cy", y + 0.5);
        piece.setAttribute("r", 0.36);
        piece.setAttribute("class", "piece " + (cell === "W" ? "white" : "black"));
        piece.dataset.square = name;
        svg.append(piece);
      }
    }
  }
  for (let file = 0; file < width; file++) {
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", (state.flipped ? width - 1 - file : file) + 0.42);
    label.setAttribute("y", height + 0.27);
    label.setAttribute("class", "coord");
    label.textContent = String.fromCharCode(97 + file);
    svg.append(label);
  }
  for (let row = 0; row < height; row++) {
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", -0.27);
    label.setAttribute("y", (state.flipped ? height - 1 - row : row) + 0.58);
    label.setAttribute("class", "coord");
    label.textContent = String(height - row);
    svg.append(label);
  }
}

function renderMoves() {
  const body = $("moves").querySelector("tbody");
  body.replaceChildren();
  if (!state.answer || state.editing) return;
  for (const move of state.answer.moves) {
    const row = document.createElement("tr");
    row.dataset.move = move.move;
    const cells = [
      [move.move, ""],
      [move.outcome === "unknown" && state.answer.solving ? "solving" : move.outcome, move.outcome],
      [move.length ?? "", move.outcome],
    ];
    for (const [text, kind] of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      if (kind) cell.className = kind;
      row.append(cell);
    }
    row.addEventListener("click", () => play(move));
    body.append(row);
  }
}

function play(move) {
  // Dropped at once, so that the pointer's release does not play it again.
  state.selected = null;
  load(state.board, move.position, "play");
}

function squareAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  return target && target.dataset ? target.dataset.square : undefined;
}

function tryMove(from, to) {
  const move = state.answer.moves.find((m) => {
    const ends = moveEnds(m.move);
    return ends.from === from && ends.to === to;
  });
  if (move) play(move);
  return Boolean(move);
}

function onPointerDown(event) {
  const square = squareAt(event);
  if (!square) return;
  if (state.editing) { cycle(square); return; }
  if (!state.answer) return;
  if (state.selected && tryMove(state.selected, square)) return;
  const movable = state.answer.moves.some((m) => moveEnds(m.move).from === square);
  state.selected = movable && square !== state.selected ? square : null;
  renderBoard();
}

function onPointerUp(event) {
  if (state.editing || !state.selected) return;
  const square = squareAt(event);
  if (square && square !== state.selected) tryMove(state.selected, square);
}

function cycle(square) {
  const grid = state.editing;
  const file = square.charCodeAt(0) - 97;
  const row = grid.height - Number(square.slice(1));
  const next = { ".": "W", W: "B", B: "." };
  grid.rows[row][file] = next[grid.rows[row][file]];
  renderBoard();
}

function setEditing(on) {
  $("edit").setAttribute("aria-pressed", String(on));
  $("editor").hidden = !on;
  if (on) {
    state.editing = parsePosition(state.position);
    document.querySelector(`input[name=edit-side][value=${state.editing.side}]`).checked = true;
  } else {
    state.editing = null;
  }
  render();
}

async function loadResults() {
  const body = $("results-table").querySelector("tbody");
  try {
    const { results } = await getJson("/api/v1/results");
    for (const result of results) {
      const row = document.createElement("tr");
      const winner = result.winner ? `${result.winner_order} (${result.winner})` : "open";
      for (const text of [result.board, winner, result.length ?? "-", result.nodes.toLocaleString("en")]) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      row.addEventListener("click", () => {
        state.history = [];
        load(result.board, result.position);
      });
      body.append(row);
    }
  } catch (err) {
    body.textContent = err.message;
  }
}

// The proof browser: a position of the loaded certificate and the moves its
// proof takes there, from /api/v1/proof.
const proof = { part: 0, path: [], answer: null };

const KIND_WORDS = {
  expanded: "its subtree",
  transposition: "a transposition",
  settled: "the verifier's search",
  given: "another part",
  finished: "game over",
  held_out: "bound reached",
};

async function loadProof(part, path) {
  let answer;
  try {
    const query = new URLSearchParams({ part: String(part), path: path.join(" ") });
    answer = await getJson("/api/v1/proof?" + query.toString());
  } catch (err) {
    if (!proof.answer) return; // No certificate loaded: the section stays hidden.
    showError(err.message);
    return;
  }
  proof.part = part;
  proof.path = path;
  proof.answer = answer;
  $("proof").hidden = false;
  renderProof();
}

function renderProof() {
  const answer = proof.answer;
  $("proof-file").textContent = answer.file;
  const partInput = $("proof-part");
  partInput.max = String(answer.parts - 1);
  partInput.value = String(answer.part);
  $("proof-parts").textContent = `${answer.parts} (${answer.part_file})`;
  const part = answer.summary;
  $("proof-claim").textContent =
    `${part.claim}: ${part.positions.toLocaleString("en")} positions, longest game ${part.height} plies` +
    (answer.verified ? "" : " (not verified by the server: breakthrough verify checks it)");
  const path = $("proof-path");
  path.replaceChildren();
  const crumb = (text, length) => {
    const link = document.createElement("a");
    link.textContent = text;
    link.addEventListener("click", () => loadProof(proof.part, proof.path.slice(0, length)));
    path.append(link, " ");
  };
  crumb("root", 0);
  proof.path.forEach((name, index) => crumb(name, index + 1));
  const node = answer.node;
  $("proof-node").textContent =
    `ply ${answer.ply}, ${answer.to_move} to move, ${answer.position}: proven by ${KIND_WORDS[node.kind]}` +
    (node.size ? `, ${node.size.toLocaleString("en")} positions` : "") + `, height ${node.height}`;
  const body = $("proof-moves").querySelector("tbody");
  body.replaceChildren();
  for (const move of answer.moves) {
    const row = document.createElement("tr");
    row.dataset.move = move.move;
    const by = move.node.kind === "given" && move.node.proven_by !== null
      ? `part ${move.node.proven_by}` : KIND_WORDS[move.node.kind];
    for (const text of [move.move, by, move.node.size.toLocaleString("en"), move.node.height]) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.append(cell);
    }
    row.addEventListener("click", () => {
      if (move.node.kind === "given" && move.node.proven_by !== null) loadProof(move.node.proven_by, []);
      else loadProof(proof.part, [...proof.path, move.move]);
    });
    body.append(row);
  }
  plotByPly(part.by_ply, answer.ply);
}

function plotByPly(counts, here) {
  const svg = $("proof-plot");
  const width = 700;
  const height = 160;
  const bottom = 14;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.replaceChildren();
  if (!counts.length) return;
  const most = Math.log10(Math.max(...counts) + 1);
  const bar = width / counts.length;
  counts.forEach((count, ply) => {
    const tall = most ? ((height - bottom - 4) * Math.log10(count + 1)) / most : 0;
    const rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", ply * bar + 0.5);
    rect.setAttribute("y", height - bottom - tall);
    rect.setAttribute("width", Math.max(bar - 1, 0.5));
    rect.setAttribute("height", tall);
    if (ply === here) rect.setAttribute("class", "here");
    const title = document.createElementNS(SVG, "title");
    title.textContent = `ply ${ply}: ${count.toLocaleString("en")} positions`;
    rect.append(title);
    svg.append(rect);
    if (ply % 5 === 0) {
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", ply * bar);
      label.setAttribute("y", height - 2);
      label.textContent = String(ply);
      svg.append(label);
    }
  });
}

function fromUrl(how) {
  const params = new URLSearchParams(location.search);
  const board = params.get("board") || "5x5";
  load(board, params.get("position") || startPosition(board), how);
}

function setUp() {
  const svg = $("board");
  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointerup", onPointerUp);
  $("start").addEventListener("click", () => {
    const board = $("board-input").value.trim();
    state.history = [];
    if (/^\d+x\d+$/.test(board)) load(board, startPosition(board));
    else showError(`board \`${board}\`: write it as WxH, for example 5x5`);
  });
  $("undo").addEventListener("click", () => {
    const earlier = state.history.pop();
    if (earlier) load(earlier.board, earlier.position, "push");
  });
  $("flip").addEventListener("click", () => { state.flipped = !state.flipped; renderBoard(); });
  $("edit").addEventListener("click", () => setEditing(!state.editing));
  $("clear").addEventListener("click", () => {
    state.editing.rows = state.editing.rows.map((cells) => cells.map(() => "."));
    renderBoard();
  });
  $("edit-done").addEventListener("click", () => {
    const side = document.querySelector("input[name=edit-side]:checked").value;
    const text = positionText(state.editing.rows, side);
    setEditing(false);
    load(state.board, text, "play");
  });
  $("position-form").addEventListener("submit", (event) => {
    event.preventDefault();
    load($("board-input").value.trim(), $("position-input").value.trim(), "play");
  });
  window.addEventListener("popstate", () => fromUrl("replace"));
  $("proof-part").addEventListener("change", (event) => loadProof(Number(event.target.value), []));
  $("proof-show").addEventListener("click", () => {
    const answer = proof.answer;
    load(answer.summary.board, answer.position, "play");
  });
  loadResults();
  loadProof(0, []);
  fromUrl("replace");
}

setUp();
