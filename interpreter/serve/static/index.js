// The front page: the tables of this server, and a form for a new one.
"use strict";

const $ = (id) => document.getElementById(id);
const front = {games: [], upload: false};
const PLAYERS = ["human", "heuristic", "random", "search:100"];

async function loadTables() {
  const reply = await fetch("/api/tables");
  const data = await reply.json();
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  $("no-tables").hidden = data.tables.length > 0;
  for (const t of data.tables) {
    const row = document.createElement("tr");
    const watch = el("a", "watch");
    watch.href = t.watch;
    const cell = el("td");
    cell.append(watch);
    row.append(el("td", t.game), el("td", t.seats.join(", ")),
               el("td", t.over ? "over: " + (t.result || "") : "deal " + t.deals), cell);
    body.append(row);
  }
}

async function loadGames() {
  const reply = await fetch("/api/games");
  const data = await reply.json();
  front.games = data.games;
  front.upload = data.upload;
  $("upload").hidden = !data.upload;
  const select = $("game");
  select.replaceChildren();
  for (const g of data.games) {
    const option = el("option", g.title + " (" + g.players + " players)");
    option.value = g.name;
    select.append(option);
  }
  const ecarte = data.games.findIndex((g) => g.name === "ecarte");
  if (ecarte >= 0) select.selectedIndex = ecarte;
  select.onchange = drawGame;
  drawGame();
}

function game() { return front.games.find((g) => g.name === $("game").value); }

function drawGame() {
  const g = game();
  if (!g) return;
  const options = $("options");
  options.replaceChildren();
  for (const o of g.options) {
    const label = el("label", o.name + " ");
    label.title = o.doc || "";
    let input;
    if (o.choices.length) {
      input = el("select");
      o.choices.forEach((c) => { const opt = el("option", c); opt.value = c; input.append(opt); });
    } else if (o.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = Boolean(o.default);
    } else {
      input = el("input");
      input.type = "number";
      if (o.low !== null) input.min = o.low;
      if (o.high !== null) input.max = o.high;
    }
    if (input.type !== "checkbox") input.value = String(o.default);
    input.dataset.option = o.name;
    input.dataset.type = o.type;
    label.append(input);
    options.append(label, document.createTextNode(" "));
  }
  const seats = $("seats");
  seats.replaceChildren();
  for (let s = 0; s < g.players; s++) {
    const label = el("label", "seat " + s + " ");
    const select = el("select");
    select.dataset.seat = String(s);
    PLAYERS.forEach((p) => { const opt = el("option", p); opt.value = p; select.append(opt); });
    select.value = s < 2 ? "human" : "heuristic";
    label.append(select);
    seats.append(label, document.createTextNode(" "));
  }
  $("mode-label").hidden = !g.irregularities;
  $("mode").checked = false;
}

async function makeTable(event) {
  event.preventDefault();
  $("new-error").textContent = "";
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const type = input.dataset.type;
    options[input.dataset.option] = type === "bool" ? input.checked : type === "int" ? Number(input.value) : input.value;
  }
  const request = {
    game: $("game").value,
    options: options,
    seats: Array.from($("seats").querySelectorAll("select")).map((s) => s.value),
    mode: $("mode").checked ? "table" : "strict",
  };
  const rules = $("rules").value;
  if (front.upload && rules.trim()) { request.rules = rules; delete request.game; request.options = {}; request.seats = null; }
  const reply = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                            body: JSON.stringify(request)});
  const data = await reply.json();
  if (!reply.ok) { $("new-error").textContent = data.error; return; }
  const list = $("links");
  list.replaceChildren();
  for (const link of data.links) {
    const item = el("li", (link.role === "seat" ? "seat " + link.seat : link.role) + ": ");
    const a = el("a", location.origin + link.url);
    a.href = link.url;
    a.target = "_blank";
    a.dataset.role = link.role;
    if (link.seat !== null) a.dataset.seat = String(link.seat);
    item.append(a);
    list.append(item);
  }
  $("made").hidden = false;
  loadTables();
}

$("new").onsubmit = makeTable;
loadGames();
loadTables();
