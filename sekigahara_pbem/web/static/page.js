// The page of `seki play --web`: shows the moment the server sends (web/moment.py) and
// sends back what the player does. Every answer is the indices of the chosen choices of
// the question shown, with the moment's number; the server checks it as the terminal
// does. A moment of waiting (a two-party record's action done, the next not yet asked)
// is looked at again until the next question comes, on the same page. While a stack move
// is built, its path so far is drawn on the map; a question that picks blocks shows them
// as tiles, each a checkbox of its own, so a click on a block ticks it as the list did.
// Plain script, no library, nothing fetched from anywhere but this server.
"use strict";
(() => {
  const W = JSON.parse(document.getElementById("words").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  let now = null;
  let error = "";
  let busy = false;
  const POLL = 150; // ms between looks while seki works out the next question
  const LOOKS = 10; // looks that fail in a row before the page says seki is gone
  const MARGIN = 24; // px kept in view beyond what a question is about

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
      }).catch(() => null);
      if (r === null) return gone(); // nothing listens on the page's port
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
    if (data.ended === "over") { // how the game, the turn or the record ended
      const end = [el("pre", { class: "done over" }, data.closing.join("\n"))];
      if (data.link) { // a turn file to mail: the player's own mail client, addressed
        const p = el("p", { class: "done" });
        p.append(el("a", { href: data.link.href, id: "mail" }, data.link.text));
        end.push(p);
      }
      document.querySelector("main").replaceChildren(...end);
      return;
    }
    if (data.ended) { // stopped: nothing written
      document.querySelector("main").replaceChildren(el("p", { class: "done" }, W.stopped));
      return;
    }
    if (data.waiting) {
      $("ask").replaceChildren(el("p", { class: "hint waiting" }, W.waiting));
      setTimeout(refresh, POLL);
      return;
    }
    const scrolled = frame() ? frame().scrollLeft : 0;
    $("board").innerHTML = data.map;
    frame().scrollLeft = scrolled; // the map stays where the player scrolled it
    showSituation();
    showHand();
    showTurn();
    showStory();
    showAsk();
    showTools();
    drawTargets();
    const q = question();
    document.body.classList.toggle("on-map", Boolean(now.move || (q && q.choices.some((c) => c.place))));
    follow();
  }

  // The map's frame, which scrolls sideways where the screen is narrower than the map.
  const frame = () => document.querySelector("#board .board-frame");

  // What the question is about is kept in sight where the map is wider than its frame:
  // the place asked about (where the column stands, the fight) with the places and blocks
  // that answer. Out of view, the map scrolls to them; if they cannot all be seen at once,
  // to the place asked about; where there is none, the map stays where it was.
  function follow() {
    const f = frame().getBoundingClientRect();
    const all = around(boxes("#board svg .overlay .here, #board svg .answers"));
    const wanted = all && all.right - all.left <= f.width ? all : around(boxes("#board svg .overlay .here"));
    if (!wanted || (wanted.left >= f.left && wanted.right <= f.right)) return;
    frame().scrollLeft += (wanted.left + wanted.right - f.left - f.right) / 2;
  }

  function boxes(selector) {
    return [...document.querySelectorAll(selector)].map((e) => e.getBoundingClientRect());
  }

  // The span across these boxes, with a margin; null for none.
  function around(rects) {
    if (!rects.length) return null;
    return {
      left: Math.min(...rects.map((r) => r.left)) - MARGIN,
      right: Math.max(...rects.map((r) => r.right)) + MARGIN,
    };
  }

  // seki is no longer running (the command ended, or was stopped at its terminal, before
  // this page saw how): nothing here can be answered now, and the page says so.
  function gone() {
    document.querySelector("main").replaceChildren(el("p", { class: "done gone" }, W.gone));
  }

  let failed = 0; // looks in a row that failed
  async function refresh() {
    let data;
    try {
      data = await (await fetch("state")).json();
    } catch (e) { // a busy machine: look again for a while; then the server is gone
      if (++failed < LOOKS) setTimeout(refresh, POLL * 4);
      else gone();
      return;
    }
    failed = 0;
    show(data);
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

  // The choices by the block or disk they name (a tile's `unit` is its face, with its id).
  function byUnit() {
    const out = {};
    (question() ? question().choices : []).forEach((c) => {
      if (c.unit) (out[c.unit.id] = out[c.unit.id] || []).push(c);
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
      now.turn.forEach((t) => list.append(turnItem(t)));
      box.append(list);
      if (now.cut) box.append(el("p", { class: "hint" }, now.cut));  // why the file ends here
      if (now.unseen) box.append(el("p", { class: "hint unseen" }, now.unseen));  // and the map stops
      box.append(el("p", { class: "hint" }, now.record ? W.record_hint : W.sign_hint));
      if (error) box.append(el("p", { class: "error" }, error));
      box.append(button(W.sign, "primary", () => send("sign", { seq: now.seq })));
      return;
    }
    box.append(el("p", { class: "prompt" }, q.prompt));
    if (q.choices.some((c) => c.place)) box.append(el("p", { class: "hint" }, W.map_hint));
    if (error) box.append(el("p", { class: "error" }, error));
    const list = el("div", { class: q.tiles ? "choices tiles" : "choices" });
    q.choices.forEach((c) => {
      const cls = (c.place ? "placed " : "") + (c.default ? "default" : "");
      if (q.multi) {
        const label = el("label", { id: `choice-${c.i}`, class: (q.tiles ? "tile " : "") + cls });
        const tick = el("input", { type: "checkbox", value: String(c.i) });
        tick.checked = c.default;
        tick.addEventListener("change", showPicked);
        label.append(tick, ...(q.tiles ? tile(c) : [el("span", {}, c.label)]));
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
    if (q.tiles) box.append(el("p", { class: "hint" }, W.tiles_hint));
    box.append(list);
    if (q.multi) {
      const count = q.count.charAt(0).toUpperCase() + q.count.slice(1);
      box.append(el("p", { class: "hint" }, q.count ? W.then_ok.replace("{count}", count) : W.pick_any));
      const ok = button(W.ok, "primary", () => answer(checked()));
      ok.id = "ok";
      box.append(el("p", { id: "chosen", class: "chosen", "aria-live": "polite" }), ok);
      showPicked();
    }
  }

  // A block's tile: its face as the map draws it, its id and what it is; a disk's letter.
  function tile(c) {
    const u = c.unit;
    const face = svg("svg", { viewBox: "-2 -6 17 20", width: 30, height: 36, "aria-hidden": "true" });
    if (u.disk) {
      const disk = svg("g", { class: "disk" });
      disk.append(svg("circle", { cx: 6, cy: 6, r: 6 }), svg("text", { x: 6, y: 9, class: "disk-letter" }, u.disk));
      face.append(disk);
    } else {
      face.append(svg("rect", { width: 12, height: 12, rx: 1.5, fill: u.colour }),
        svg("text", { x: 6, y: 9.5, class: "mon" }, String(u.mon)));
      if (u.leader) face.append(svg("path", { d: "M12,0 l-4,0 4,-4z", class: "flag" + (u.leader === 3 ? " protagonist" : "") }));
      if (u.ability === "gun") face.append(svg("circle", { cx: 1.5, cy: 1.5, r: 1.8, class: "ability" }));
      else if (u.ability === "cavalry") face.append(svg("path", { d: "M1.5,-0.5 l2,2 -2,2 -2,-2z", class: "ability" }));
    }
    const name = el("span", { class: "name", title: c.label });
    name.append(el("b", {}, u.id), el("small", {}, u.traits));
    return [face, name];
  }

  // Whether this many chosen answer the question (the server checks it again).
  function fits(q, n) {
    if (q.limit !== null && n > q.limit) return false;
    if (typeof q.pick === "number") return n === q.pick;
    return q.pick === "any" || n > 0;
  }

  // Undo takes back the last answer: of the question asked, of the decision before it
  // in a two-party record, or, beside the record to sign, its last (play/two_party.py).
  function showTools() {
    const stop = button(W.stop, "quiet", () => send("stop", {}));
    $("tools").replaceChildren(button(W.undo, "quiet", () => send("undo", { seq: now.seq })), stop);
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

  // What is chosen so far, shown on the cards, the tiles and in the count; OK once it fits.
  function showPicked() {
    const picked = new Set(checked());
    const cards = by("card");
    document.querySelectorAll("#hand .card").forEach((card) => {
      const mine = cards[card.dataset.card] || [];
      card.classList.toggle("picked", mine.some((c) => picked.has(c.i)));
    });
    document.querySelectorAll("#ask .choices label").forEach((label) => {
      label.classList.toggle("picked", label.querySelector("input").checked);
    });
    const units = byUnit();
    document.querySelectorAll("#board svg g.block.answers").forEach((block) => {
      const mine = units[block.dataset.block] || [];
      block.classList.toggle("picked", mine.some((c) => picked.has(c.i)));
    });
    const q = question();
    if (!q || !q.multi) return;
    $("chosen").textContent = W.chosen.replace("{n}", picked.size);
    $("ok").disabled = !fits(q, picked.size);
  }

  // The game at a glance (web/moment.situation): week, turn and step, the points, each
  // side's cards and blocks off the map, the Mōri Box and the eliminated.
  function showSituation() {
    const s = now.situation;
    const box = $("situation");
    box.replaceChildren(...s.lines.map((line) => el("p", {}, line)));
    const table = el("table", { class: "counts" });
    const head = el("tr");
    head.append(el("th"), ...s.headers.map((h) => el("th", { class: "num" }, h)));
    table.append(head);
    s.counts.forEach(([side, ...counts]) => {
      const row = el("tr");
      row.append(el("th", {}, side), ...counts.map((c) => el("td", { class: "num" }, String(c))));
      table.append(row);
    });
    box.append(table);
    s.boxes.forEach(([name, text]) => {
      const p = el("p");
      p.append(el("b", {}, name + ": "), text);
      box.append(p);
    });
  }

  // One action of the turn (a battle plan with its orders).
  function turnItem(t) {
    const item = el("li", {}, t.text);
    if (t.detail) item.append(el("pre", {}, t.detail));
    return item;
  }

  // The turn so far, beside the question; the Sign screen lists it itself (it was shown
  // twice there).
  function showTurn() {
    $("turn-title").textContent = W.so_far;
    const list = $("turn");
    list.replaceChildren();
    now.turn.forEach((t) => list.append(turnItem(t)));
    $("turn-box").hidden = !now.turn.length || !question();
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

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function ring(layer, loc, r, cls) {
    const [x, y] = now.places[loc];
    const c = svg("circle", { cx: x, cy: y, r, class: cls, "data-loc": loc });
    layer.append(c);
    return c;
  }

  // A path on the map: from place to place along the roads taken, through their centres,
  // over a pale casing that sets it apart from the roads under it.
  function path(layer, locs, cls) {
    if (locs.length < 2) return;
    const points = locs.map((loc) => now.places[loc].join(",")).join(" ");
    layer.append(svg("polyline", { points, class: "casing" }),
      svg("polyline", { points, class: cls, "data-locs": locs.join(" ") }));
  }

  // The stack move being built: the columns already stopped, the one walking now from
  // the stack's place to where it stands, and a force march's step while its card is
  // asked (dashed).
  function drawMove(layer) {
    const m = now.move;
    if (!m) return;
    m.done.forEach((locs) => path(layer, locs, "path done"));
    path(layer, m.now, "path now");
    if (m.next) path(layer, [m.at, m.next], "path now march");
    ring(layer, m.from, 5, "start");
  }

  // Over the map: the move being built, then the rings: where the column stands, and
  // each place that answers a choice (clickable, above everything else so nothing hides
  // it).
  function drawTargets() {
    const board = document.querySelector("#board svg");
    const q = question();
    if (!board || !q) return;
    const layer = svg("g", { class: "overlay" });
    board.append(layer);
    drawMove(layer);
    const at = q.at || (now.move && now.move.at);
    if (at) ring(layer, at, 20, "here");
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
    // The names of the ringed places again, over their rings (the rings hid them)
    const ringed = [...layer.querySelectorAll("circle.here, circle.target")];
    new Set(ringed.map((r) => r.dataset.loc)).forEach((loc) => {
      const name = document.querySelector(`#loc-${loc} text.label`);
      if (name) layer.append(name.cloneNode(true));
    });
    // A block on the map answers as its tile or button does (which go, losses, a muster).
    Object.entries(byUnit()).forEach(([id, choices]) => {
      const block = board.querySelector(`g.block[data-block="${id}"]`);
      if (!block) return;
      block.classList.add("answers");
      block.addEventListener("click", () => choose(choices));
    });
    showPicked();
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

  window.addEventListener("resize", follow);
  refresh();
})();
