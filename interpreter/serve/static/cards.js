// Cards drawn with HTML and CSS only (no images, nothing fetched): a card code such as
// "KS" or "10H" is its rank and a suit letter; unknown suits are shown by their letter.
"use strict";

const SUITS = {S: ["\u2660", "black"], H: ["\u2665", "red"], D: ["\u2666", "red"], C: ["\u2663", "black"]};

function cardParts(code) {
  const suit = code.slice(-1).toUpperCase();
  const rank = code.slice(0, -1);
  const known = SUITS[suit];
  return {rank: rank, suit: suit, symbol: known ? known[0] : suit, colour: known ? known[1] : "black"};
}

// A card as a button (clickable) or a span; `code` goes into data-card.
function makeCard(code, clickable) {
  const parts = cardParts(code);
  const el = document.createElement(clickable ? "button" : "span");
  if (clickable) el.type = "button";
  el.className = "card " + parts.colour;
  el.dataset.card = code;
  el.setAttribute("aria-label", code);
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = parts.rank;
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = parts.symbol;
  el.append(rank, suit);
  return el;
}

function makeBack(count) {
  const el = document.createElement("span");
  el.className = "card back";
  el.textContent = String(count);
  el.title = count + " card" + (count === 1 ? "" : "s") + " face down";
  return el;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
