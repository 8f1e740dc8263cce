// The page of `seki play --web`: shows the moment the server sends (web/moment.py) and
// sends back what the player does. Every answer is the indices of the chosen choices of
// the question shown, with the moment's number; the server checks it as the terminal
// does. A moment of waiting (a two-party record's action done, the next not yet asked)
// is looked at again until the next question comes, on the same page. Plain script, no
// library, nothing fetched from anywhere but this server.
"use strict";
(() => {
  const W = JSON.parse(document.getElementById("words").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  let now = null;
  let error = "";
  let busy = false;
  const POLL = 150; // ms between looks while seki works out the next question

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function button(text, cls, onclick) {
    const b = el("button", { type: "button", class: cls || "" }, text);
    b.addEventListener("click", onclick);
    return b;
  }

  async function send(what, body) {
    if (busy) return;
    busy = true;
    try {
      const r = await fetch(what, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      const data = await r.json();
      error = r.ok ? "" : data.error;
      if (r.ok) show(data);
      else if (data.stale) show(await (await fetch("state")).json(), true);
      else showAsk();
    } finally {
      busy = false;
    }
  }

  // Only a question shown is answered: a click left over from a moment gone does nothing.
  const answer = (picks) => question() && send("answer", { seq: now.seq, picks });

  function show(data, keepError) {
    now = data;
    document.body.dataset.seq = data.seq; // the moment shown, for whoever waits on it
    if (!keepError) error = "";
    if (data.ended) {
      const signed = data.record ? W.signed_record : W.signed;
      document.querySelector("main").replaceChildren(
        el("p", { class: "done" }, data.ended === "signed" ? signed : W.stopped));
      return;
    }
    if (data.waiting) {
      $("ask").replaceChildren(el("p", { class: "hint waiting" }, W.waiting));
      setTimeout(refresh, POLL);
      return;
    }
    $("board").innerHTML = data.map;
    showHand();
    showTurn();
    showStory();
    showAsk();
    showTools();
    drawTargets();
  }

  async function refresh() {
    show(await (await fetch("state")).json());
  }

  function question() {
    return now && now.question;
  }

  // The choices of the question that name each place and each card.
  function by(field) {
    const out = {};
    (question() ? question().choices : []).forEach((c) => {
      if (c[field]) (out[c[field]] = out[c[field]] || []).push(c);
    });
    return out;
  }

  function checked() {
    return [...document.querySelectorAll("#ask input[type=checkbox]")]
      .filter((box) => box.checked).map((box) => Number(box.value));
  }

  function toggle(i) {
    const box = document.querySelector(`#ask input[value="${i}"]`);
    box.checked = !box.checked;
    showPicked();
  }

  // A click on a place or a card: the one choice it names is answered (or ticked, when
  // the question picks many); several are pointed out among the buttons.
  function choose(choices) {
    const q = question();
    if (choices.length !== 1) {
      document.querySelectorAll("#ask button.hinted").forEach((b) => b.classList.remove("hinted"));
      choices.forEach((c) => $(`choice-${c.i}`).classList.add("hinted"));
      $(`choice-${choices[0].i}`).focus();
    } else if (q.multi) toggle(choices[0].i);
    else answer([choices[0].i]);
  }

  function showAsk() {
    const box = $("ask");
    box.replaceChildren();
    const q = question();
    if (!q) {
      box.append(el("p", { class: "prompt" }, now.record ? W.your_record : W.your_turn));
      const list = el("ol");
      now.turn.forEach((t) => list.append(el("li", {}, t.text)));
      box.append(list, el("p", { class: "hint" }, now.record ? W.record_hint : W.sign_hint));
      if (error) box.append(el("p", { class: "error" }, error));
      box.append(button(W.sign, "primary", () => send("sign", { seq: now.seq })));
      return;
    }
    box.append(el("p", { class: "prompt" }, q.prompt));
    if (q.choices.some((c) => c.place)) box.append(el("p", { class: "hint" }, W.map_hint));
    if (error) box.append(el("p", { class: "error" }, error));
    const list = el("div", { class: "choices" });
    q.choices.forEach((c) => {
      const cls = (c.place ? "placed " : "") + (c.default ? "default" : "");
      if (q.multi) {
        const label = el("label", { id: `choice-${c.i}`, class: cls });
        const tick = el("input", { type: "checkbox", value: String(c.i) });
        tick.checked = c.default;
        tick.addEventListener("change", showPicked);
        label.append(tick, el("span", {}, c.label));
        list.append(label);
      } else {
        const b = button(c.label, cls, () => answer([c.i]));
        b.id = `choice-${c.i}`;
        if (c.place) {
          b.addEventListener("mouseenter", () => light(c.place, true));
          b.addEventListener("mouseleave", () => light(c.place, false));
        }
        list.append(b);
      }
    });
    box.append(list);
    if (q.multi) {
      let hint = W.pick_any;
      if (typeof q.pick === "number") hint = W.pick_n.replace("{n}", q.pick);
      else if (q.pick === "some") hint = W.pick_some;
      if (q.limit !== null) hint += " " + W.at_most.replace("{n}", q.limit);
      box.append(el("p", { class: "hint" }, hint));
      box.append(button(W.ok, "primary", () => answer(checked())));
      showPicked();
    }
  }

  // Undo takes back an answer of the session asked; a record's actions, once chosen,
  // are the copy's (as at the terminal): it is signed whole or stopped.
  function showTools() {
    const stop = button(W.stop, "quiet", () => send("stop", {}));
    if (now.record) $("tools").replaceChildren(stop);
    else $("tools").replaceChildren(button(W.undo, "quiet", () => send("undo", { seq: now.seq })), stop);
  }

  function showHand() {
    $("hand-title").textContent = W.hand.replace("{n}", now.hand.length);
    const cards = by("card");
    const hand = $("hand");
    hand.replaceChildren();
    now.hand.forEach((c) => {
      const answers = cards[c.id] || [];
      const card = el("button", { type: "button", class: "card " + (answers.length ? "answers" : "idle"), "data-card": c.id });
      card.style.borderColor = c.colour;
      card.append(el("b", {}, c.id), el("span", {}, c.traits));
      if (answers.length) card.addEventListener("click", () => choose(answers));
      else card.disabled = true;
      hand.append(card);
    });
    if (!now.hand.length) hand.append(el("span", {}, W.empty));
  }

  function showPicked() {
    const picked = new Set(checked());
    const cards = by("card");
    document.querySelectorAll("#hand .card").forEach((card) => {
      const mine = cards[card.dataset.card] || [];
      card.classList.toggle("picked", mine.some((c) => picked.has(c.i)));
    });
  }

  function showTurn() {
    $("turn-title").textContent = W.so_far;
    const list = $("turn");
    list.replaceChildren();
    now.turn.forEach((t) => {
      const item = el("li", {}, t.text);
      if (t.detail) item.append(el("pre", {}, t.detail));
      list.append(item);
    });
    $("turn-box").hidden = !now.turn.length;
  }

  // What happened since the player's last turn, record by record (drawn on the map too).
  function showStory() {
    $("story-title").textContent = W.story;
    const box = $("story");
    box.replaceChildren();
    now.story.forEach((part) => {
      const list = el("ol", { class: "events" });
      part.lines.forEach((line) => list.append(el("li", {}, line)));
      box.append(el("h3", {}, part.title), list);
    });
    $("story-box").hidden = !now.story.length;
  }

  function ring(layer, loc, r, cls) {
    const [x, y] = now.places[loc];
    const c = document.createElementNS(SVG, "circle");
    Object.entries({ cx: x, cy: y, r, class: cls, "data-loc": loc }).forEach(([k, v]) => c.setAttribute(k, v));
    layer.append(c);
    return c;
  }

  // The rings over the map: where the column stands, and each place that answers a
  // choice (clickable, above everything else so nothing hides it).
  function drawTargets() {
    const svg = document.querySelector("#board svg");
    const q = question();
    if (!svg || !q) return;
    const layer = document.createElementNS(SVG, "g");
    layer.setAttribute("class", "overlay");
    svg.append(layer);
    if (q.at) ring(layer, q.at, 20, "here");
    Object.entries(by("place")).forEach(([loc, choices]) => {
      const march = choices.every((c) => c.march);
      const target = ring(layer, loc, 17, "target" + (march ? " march" : ""));
      target.addEventListener("click", () => choose(choices));
      const spot = document.getElementById(`loc-${loc}`);
      spot.classList.add("answers");
      spot.addEventListener("click", () => choose(choices));
      if (q.reach && q.reach[loc]) {
        target.addEventListener("mouseenter", () => light(loc, true));
        target.addEventListener("mouseleave", () => light(loc, false));
      }
    });
  }

  // Where the stack at `origin` could go, drawn while it is pointed at.
  function light(origin, on) {
    const layer = document.querySelector("#board svg .overlay");
    if (!layer) return;
    layer.querySelectorAll(".reach").forEach((r) => r.remove());
    layer.querySelectorAll(".target").forEach((t) => t.classList.toggle("lit", on && t.dataset.loc === origin));
    const reach = (question().reach || {})[origin];
    if (!on || !reach) return;
    Object.entries(reach).forEach(([loc, march]) => ring(layer, loc, 22, "reach" + (march ? " march" : "")));
  }

  refresh();
})();
