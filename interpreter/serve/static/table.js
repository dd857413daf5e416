// A table as the holder of this link sees it. Everything shown comes from the server's
// "view" messages (see interpreter/serve/views.py); actions go back as
// {"type": "act", "action": TEXT, "turn": N}. Text from the server is always set with
// textContent, never parsed as HTML.
"use strict";

const token = location.pathname.split("/").pop();
const page = {view: null, selected: new Set(), selectionTurn: -1, socket: null, retry: 500, logCount: 0};
const $ = (id) => document.getElementById(id);

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(scheme + "://" + location.host + "/ws/" + token);
  page.socket = socket;
  socket.onopen = () => { page.retry = 500; setConnection("connected", true); };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (event.code === 4404) { setConnection("no such table", false); return; }
    setConnection("reconnecting…", false);
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 5000);
  };
}

function setConnection(text, ok) {
  const node = $("connection");
  node.textContent = text;
  node.classList.toggle("ok", ok);
  document.body.dataset.connected = ok ? "yes" : "no";
}

function send(action) {
  if (!page.view || !page.socket || page.socket.readyState !== WebSocket.OPEN) return;
  $("message").textContent = "";
  page.socket.send(JSON.stringify({type: "act", action: action, turn: page.view.turn}));
}

function receive(message) {
  if (message.type === "refused") {
    $("message").textContent = "Not taken: " + message.reason;
    return;
  }
  if (message.type !== "view") return;
  page.view = message;
  if (message.turn !== page.selectionTurn) { page.selected.clear(); page.selectionTurn = message.turn; }
  addEvents(message.events);
  render(message);
}

// ------------------------------------------------------------------ names
function seatName(seat) {
  const view = page.view;
  if (view.role === "seat" && seat === view.seat) return "you";
  const kind = view.table.seats[seat];
  return "seat " + seat + (kind === "human" ? "" : " (" + kind + ")");
}

function sideName(side) {
  const members = page.view.table.sides[side];
  if (page.view.role === "seat" && members.includes(page.view.seat)) return members.length === 1 ? "you" : "your side";
  return members.map((s) => seatName(s)).join(" + ");
}

// ------------------------------------------------------------------ drawing
function render(view) {
  const obs = view.observation;
  const roleText = view.role === "seat" ? "seat " + view.seat : view.role;
  $("title").textContent = view.table.game + " \u2014 " + roleText;
  document.title = view.table.game + " (" + roleText + ")";
  document.body.dataset.role = view.role;
  document.body.dataset.turn = String(view.turn);
  document.body.dataset.over = view.table.over ? "yes" : "no";
  renderScores(obs);
  renderInfo(obs);
  renderZones(obs, view);
  renderTrick(obs);
  renderTurn(view);
  renderDecision(view);
  renderHand(view);
  renderReferee(view);
  renderOver(view);
}

function renderScores(obs) {
  const box = $("scores");
  box.replaceChildren();
  (obs.scores || []).forEach((score, side) => {
    const item = el("div", null, "score");
    item.dataset.side = String(side);
    item.append(el("span", sideName(side), "who"), el("strong", score, "points"));
    box.append(item);
  });
}

function renderInfo(obs) {
  const parts = [];
  if (obs.deal !== undefined) parts.push("Deal " + obs.deal);
  if (obs.dealer !== undefined && obs.dealer !== null) parts.push("dealer: " + seatName(obs.dealer));
  parts.push("trumps: " + (obs.trump || "none"));
  if (obs.maker !== undefined && obs.maker !== null) parts.push("maker: " + seatName(obs.maker) + (obs.bid ? " at " + obs.bid : ""));
  $("info").textContent = parts.join(" \u00b7 ");
}

function renderZones(obs, view) {
  const box = $("zones");
  box.replaceChildren();
  for (const [name, value] of Object.entries(obs.zones || {})) {
    if (name === "won") continue;
    if (typeof value.count === "number") {
      if (value.count > 0) box.append(zoneRow(name, value));
      continue;
    }
    for (const [owner, part] of Object.entries(value)) {
      const seat = Number(owner);
      if (name === "hand" && view.role === "seat" && seat === view.seat) continue;
      const whose = seatName(seat) === "you" ? "your " + name : name + " of " + seatName(seat);
      if (part.count > 0 || name === "hand") box.append(zoneRow(whose, part, name === "hand"));
    }
  }
  const won = obs.tricks_won || [];
  if (won.some((n) => n > 0)) {
    box.append(el("div", "tricks won: " + won.map((n, s) => seatName(s) + " " + n).join(", "), "zone-row"));
  }
}

function zoneRow(label, value, countOnly) {
  const row = el("div", null, "zone-row");
  row.append(el("span", label, "zone-name"));
  const cards = el("span", null, "cards small");
  if (value.cards && !countOnly) value.cards.forEach((c) => cards.append(makeCard(c, false)));
  else cards.append(makeBack(value.count));
  row.append(cards);
  return row;
}

function renderTrick(obs) {
  const box = $("trick");
  box.replaceChildren();
  $("trick-number").textContent = (obs.tricks_won || []).reduce((a, b) => a + b, 0) + 1;
  for (const [seat, code] of obs.trick || []) {
    const slot = el("div", null, "played");
    slot.append(makeCard(code, false), el("span", seatName(seat), "by"));
    box.append(slot);
  }
}

function renderTurn(view) {
  const obs = view.observation;
  let text;
  if (view.error) text = "Stopped: " + view.error;
  else if (view.table.over) text = "The match is over.";
  else if (view.decision && view.decision.kind !== "referee") text = "Your turn: " + obs.phase + ".";
  else if (view.decision && view.decision.pause) text = "Referee's pause (" + obs.phase + "): continue, or record an irregularity.";
  else if (obs.current_player !== null && obs.current_player !== undefined) text = "Waiting for " + seatName(obs.current_player) + " (" + obs.phase + ").";
  else text = "";
  $("turn").textContent = text;
  $("turn").classList.toggle("mine", Boolean(view.decision));
}

function renderDecision(view) {
  const box = $("decision");
  box.replaceChildren();
  const d = view.decision;
  if (!d || d.kind === "referee") return;
  if (d.selection) box.append(selectionPanel(view, d.selection));
  if (d.playable) box.append(el("p", "Click a card of your hand to play it.", "hint"));
  if (d.actions.length) {
    const buttons = el("div", null, "buttons");
    d.actions.forEach((text) => buttons.append(actionButton(text)));
    box.append(buttons);
  } else if (d.action_count > 0) {
    box.append(freeForm(d.action_count));
  }
}

function actionButton(text) {
  const button = el("button", text, "action");
  button.type = "button";
  button.dataset.action = text;
  button.onclick = () => send(text);
  return button;
}

function freeForm(count) {
  const form = el("form", null, "free");
  const input = el("input");
  input.name = "action";
  input.placeholder = count + " possible actions: type one";
  input.maxLength = 400;
  const go = el("button", "Do it");
  form.append(input, go);
  form.onsubmit = (event) => { event.preventDefault(); send(input.value); };
  return form;
}

function selectionPanel(view, sel) {
  const panel = el("div", null, "selection");
  const bounds = sel.low === sel.high ? String(sel.low) : sel.low + " to " + sel.high;
  panel.append(el("p", "Choose " + bounds + " card" + (sel.high === 1 ? "" : "s") + " to " + sel.verb + ".", "hint"));
  const fromElsewhere = sel.cards.filter((c) => !view.hand.includes(c));
  if (fromElsewhere.length) {
    const row = el("div", null, "cards");
    fromElsewhere.forEach((code) => row.append(toggleCard(code)));
    panel.append(el("p", "Cards you may take:", "hint"), row);
  }
  const n = page.selected.size;
  const label = n === 0 ? sel.verb + " none" : sel.verb + " " + n + " card" + (n === 1 ? "" : "s");
  const confirm = el("button", label, "action confirm");
  confirm.type = "button";
  confirm.id = "confirm-selection";
  confirm.disabled = n < sel.low || n > sel.high;
  confirm.onclick = () => {
    const chosen = sel.cards.filter((c) => page.selected.has(c));
    send(sel.verb + " " + (chosen.length ? chosen.join(" ") : "none"));
  };
  panel.append(confirm);
  return panel;
}

function toggleCard(code) {
  const card = makeCard(code, true);
  card.classList.toggle("selected", page.selected.has(code));
  card.classList.add("candidate");
  card.onclick = () => {
    if (page.selected.has(code)) page.selected.delete(code); else page.selected.add(code);
    render(page.view);
  };
  return card;
}

function renderHand(view) {
  const area = $("hand-area");
  area.hidden = view.role !== "seat";
  const box = $("hand");
  box.replaceChildren();
  const d = view.decision;
  const candidates = d && d.selection ? new Set(d.selection.cards) : new Set();
  for (const code of view.hand) {
    if (candidates.has(code)) { box.append(toggleCard(code)); continue; }
    const playable = d && d.playable && d.playable.includes(code);
    const card = makeCard(code, Boolean(d && d.playable));
    if (playable) {
      card.classList.add("playable");
      card.onclick = () => send("play " + code);
    } else if (d && d.refused && d.refused[code]) {
      card.classList.add("refused");
      card.title = d.refused[code];
      card.onclick = () => { $("message").textContent = code + " may not be played: " + d.refused[code]; };
    }
    box.append(card);
  }
}

function renderReferee(view) {
  const box = $("referee");
  box.hidden = view.role !== "referee" || !view.forms;
  if (box.hidden) return;
  const offered = $("offered");
  offered.replaceChildren();
  const d = view.decision;
  if (d) {
    d.actions.forEach((text) => offered.append(actionButton(text)));
    d.irregularities.forEach((text) => offered.append(actionButton(text)));
  }
  const names = $("irr-name");
  if (names.options.length !== view.forms.length) {
    names.replaceChildren();
    view.forms.forEach((form, i) => {
      const option = el("option", form.name + (form.laws.length ? " [" + form.laws.join(", ") + "]" : ""));
      option.value = String(i);
      names.append(option);
    });
    names.onchange = () => drawParams(view.forms[Number(names.value)]);
    const seats = $("irr-seat");
    seats.replaceChildren();
    view.table.seats.forEach((_, seat) => { const o = el("option", "seat " + seat); o.value = String(seat); seats.append(o); });
    drawParams(view.forms[0]);
    $("irregular-form").onsubmit = (event) => {
      event.preventDefault();
      const form = view.forms[Number(names.value)];
      const args = Array.from($("irr-params").querySelectorAll("input")).map((i) => i.value.trim());
      send(["irregular", form.name, seats.value, ...args].join(" "));
    };
  }
}

function drawParams(form) {
  const box = $("irr-params");
  box.replaceChildren();
  if (!form) return;
  for (const p of form.params) {
    const input = el("input");
    input.name = p.name;
    input.required = true;
    input.maxLength = 40;
    if (p.kind === "count") { input.type = "number"; input.min = p.low; input.max = p.high; input.value = p.low; }
    else input.placeholder = p.kind;
    const label = el("label", p.name + " ");
    label.append(input);
    box.append(label);
  }
}

function renderOver(view) {
  const box = $("over");
  box.hidden = !view.table.over;
  if (box.hidden) return;
  $("result").textContent = view.error ? "Stopped: " + view.error : "Match over: " + (view.table.result || "") + ".";
  const link = $("record");
  link.href = "/record/" + token;
}

function addEvents(events) {
  const log = $("log");
  if (events.length && events[0].n === 0) { log.replaceChildren(); page.logCount = 0; }
  for (const entry of events) {
    if (entry.n !== page.logCount) continue;
    page.logCount += 1;
    for (const line of entry.lines) {
      if (!line) continue;
      const item = el("li", line);
      item.dataset.type = entry.event.type;
      log.append(item);
    }
  }
  log.scrollTop = log.scrollHeight;
}

connect();
