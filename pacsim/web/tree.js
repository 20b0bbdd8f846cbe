// The pacsim search-tree page: draws the trees pacsim traced (pacsim/web/tree.py, docs/tree.md).
// Nodes are rows of tree.columns; a node's children are built only when it is first expanded.
// A comparison opens at its lesson (tree.lessonPath); an exercise (tree.exercise) hides the values
// but its givens until the student has answered, then shows them all and says why.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // The trees are gzipped JSON in base64 (pacsim/web/tree.py): unpacked by the browser itself.
  const packed = Uint8Array.from(atob($("trees").textContent.trim()), (c) => c.charCodeAt(0));
  new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).text()
    .then((text) => start(JSON.parse(text)));
  const TOP = 8;  // children shown before "and N more"
  const TABLE = 2, PROBE = 4, PINNED = 8, CUT = 16, AVERAGE = 32;  // a row's flags (tree.py)
  const make = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const shown = (v) => (typeof v === "number" ? String(Math.round(v * 1000) / 1000) : v === null ? "?" : String(v));
  const panes = [];  // one per tree: {show(i), select(li, i), reveal()}
  let selected = null;  // [pane, node] whose board stays shown

  function start(trees) {
    const single = trees.length === 1 && trees[0].title === document.title;
    trees.forEach((tree, number) => panes.push(render(tree, number, single)));
    const quiz = trees.some((tree) => tree.exercise);
    if (trees.length > 1) {  // an exercise says these once answered
      const parting = trees[0].parting;
      $("lesson").textContent = trees[0].lesson || "The two searches value alike every position both searched.";
      $("lesson").hidden = quiz;
      $("parting").hidden = quiz;
      $("parting").textContent = parting === null || parting === undefined
        ? "The two best lines agree as far as both go."
        : `The choices part at level ${parting}: ` + trees.map((t) => `${t.title} takes ${edgeAt(t, parting)}`).join(", ") + ".";
    }
    // The legend says only what this page can show.
    document.querySelectorAll(".for-compare").forEach((e) => { e.hidden = trees.length < 2; });
    document.querySelectorAll(".for-board").forEach((e) => { e.hidden = !trees[0].board; });
    panes[0].select(0);  // the root's board, from the start
    document.body.dataset.ready = "yes";
  }

  function edgeAt(tree, level) {
    const row = tree.nodes[tree.principal[level]];
    return row ? row[tree.columns.indexOf("edge")] : "?";
  }

  function render(tree, number, single) {
    const C = {};
    tree.columns.forEach((name, i) => { C[name] = i; });
    const rows = tree.nodes;
    const kids = rows.map(() => []);
    rows.forEach((r, i) => { if (r[C.parent] >= 0) kids[r[C.parent]].push(i); });
    const quiz = tree.exercise || null;
    let hidden = Boolean(quiz);  // values hidden until the question is answered
    const givens = new Set(quiz ? quiz.givens : []);
    const onLine = new Set(tree.principal);
    const partingNode = tree.parting === null || tree.parting === undefined ? -1 : tree.principal[tree.parting];
    const lessonNodes = new Set((tree.lessonPath || []).slice(tree.lessonStart || 1));  // valued differently
    const opened = new Set([...(tree.lessonPath || []), ...(quiz ? pathTo(quiz.node) : [])]);  // never left in "and N more"
    const items = new Map();  // node -> its li, once built
    const pane = make("section", "pane");
    pane.id = "tree" + number;
    if (!single) pane.append(make("h2", "", tree.title || tree.algorithm));
    const summary = make("div", "summary");
    pane.append(summary);
    pane.append(levelTable(tree.countsByLevel));
    if (quiz) pane.append(questionBox());
    const list = make("ul", "children root");
    pane.append(list);
    $("panes").append(pane);
    writeSummary();
    const root = item(0);
    list.append(root);
    expand(root);
    // A comparison opens down its lesson's path (the move the two value differently, expanded);
    // else, down the best line to where the choices part; an exercise at its question.
    const path = quiz ? pathTo(quiz.node) : tree.lessonPath && tree.lessonPath.length ? tree.lessonPath
      : partingNode >= 0 ? tree.principal.slice(0, tree.parting) : [0];
    path.slice(1).forEach((i) => { const li = items.get(i); if (li) expand(li); });
    if (quiz && quiz.kind === "move") kids[0].forEach((i) => { const li = items.get(i); if (li) expand(li); });

    function writeSummary() {
      const s = tree.stats;
      summary.textContent = `${tree.algorithm}${tree.depth === null ? "" : ", " + tree.depth + " levels"}` +
        (hidden ? "" : ` · value ${shown(tree.value)}` + (tree.action === null ? "" : ` · plays ${tree.action}`)) +
        ` · generated ${s.generated}, evaluated ${s.evaluated}, cut-offs ${s.cutoffs}` + idleCuts(s.cutoffs) +
        (tree.nodesEmbedded < tree.nodesTotal
          ? ` · ${tree.nodesEmbedded} of ${tree.nodesTotal} nodes embedded (breadth first, best line whole); the rest were cut to keep the page small`
          : ` · ${tree.nodesTotal} nodes`);
    }

    // The search counts a cut-off at a node's last move too, which cuts nothing: the page shows only real cuts.
    function idleCuts(counted) {
      const real = rows.filter((r) => r[C.flags] & CUT).length;
      return tree.nodesEmbedded === tree.nodesTotal && real < counted ? ` (${counted - real} at a node's last move, which cut nothing)` : "";
    }

    function pathTo(i) {
      const path = [];
      for (let j = i; j >= 0; j = rows[j][C.parent]) path.unshift(j);
      return path;
    }

    // Who moves at each level: the movers of the level's nodes (Pacman, ghost 1, ... or MAX, MIN, chance).
    function levelTable(counts) {
      const movers = counts.map(() => new Set());
      rows.forEach((r, i) => { if (r[C.mover]) movers[levelOf(i)].add(r[C.mover]); });
      const table = make("table", "levels");
      const head = make("tr"), body = make("tr"), who = make("tr", "movers");
      head.append(make("th", "", "level"));
      body.append(make("th", "", "nodes"));
      who.append(make("th", "", "moves"));
      counts.forEach((count, level) => {
        head.append(make("td", "", String(level)));
        body.append(make("td", "", String(count)));
        who.append(make("td", "", [...movers[level]].join(" / ") || "—"));
      });
      table.append(head, body, who);
      return table;
    }

    function secret(i) { return hidden && !givens.has(i); }

    function item(i) {
      const r = rows[i], li = make("li", "node");
      li.dataset.node = i;
      li.dataset.tree = number;
      items.set(i, li);
      if (r[C.cut]) li.classList.add("cut");
      if (lessonNodes.has(i)) li.classList.add("lesson");
      if (quiz && i === quiz.node) li.classList.add("asked");
      const line = make("span", "label");
      const openable = r[C.children] > 0 || r[C.unsearched].length > 0;
      line.append(make("span", "toggle", openable ? "▸" : ""));
      const parent = r[C.parent];
      if (r[C.edge] !== null) {
        const by = parent >= 0 ? rows[parent][C.mover] : null;
        if (by) line.append(make("span", "who", by + " "));
        line.append(make("span", "edge", r[C.edge] + (r[C.probability] !== null && r[C.probability] !== undefined ? ` (p=${shown(r[C.probability])})` : "") + " → "));
      }
      line.append(make("span", "kind kind-" + r[C.kind], r[C.kind]));
      line.append(make("span", "value"));
      line.append(make("span", "window"));
      if (r[C.visits]) line.append(make("span", "badge", `${r[C.visits]} visits`));
      if (r[C.flags] & TABLE) line.append(make("span", "badge", "table"));
      if (r[C.flags] & PROBE) line.append(make("span", "badge", "probe"));
      if (r[C.flags] & PINNED) line.append(make("span", "badge", "probed leaf"));
      line.append(make("span", "badge average"));
      line.append(make("span", "reason"));
      li.append(line);
      paint(li, i);
      line.addEventListener("mouseenter", () => show(i));
      line.addEventListener("mouseleave", () => { if (selected) panes[selected[0]].show(selected[1]); });
      line.addEventListener("click", () => { select(i); if (openable) toggle(li); });
      return li;
    }

    // What a node's line shows that an exercise hides until it is answered.
    function paint(li, i) {
      const r = rows[i], line = li.querySelector(":scope > .label");
      const veiled = secret(i);
      line.querySelector(".value").textContent = " " + (veiled ? "?" : shown(r[C.value]));
      line.querySelector(".window").textContent = r[C.alpha] !== null && !hidden ? ` [${shown(r[C.alpha])}, ${shown(r[C.beta])}]` : "";
      const average = line.querySelector(".average");
      average.hidden = hidden || !(r[C.flags] & AVERAGE);
      average.textContent = "average";
      average.title = "the best line ends here: the value is the average of the outcomes, none of which decides it";
      line.querySelector(".reason").textContent = r[C.cut] ? (hidden ? " ✂ cut" : " ✂ " + r[C.cut]) : "";
      li.classList.toggle("pv", !hidden && onLine.has(i));
      li.classList.toggle("parting", !hidden && i === partingNode);
      li.dataset.value = veiled ? "" : shown(r[C.value]);
    }

    function toggle(li) {
      const list = li.querySelector(":scope > ul");
      if (list) {
        list.hidden = !list.hidden;
        li.querySelector(".toggle").textContent = list.hidden ? "▸" : "▾";
      } else {
        expand(li);
      }
    }

    function expand(li) {
      if (li.querySelector(":scope > ul")) return;
      const i = Number(li.dataset.node), r = rows[i];
      const list = make("ul", "children");
      const children = kids[i];
      const kind = r[C.kind];
      // The top children for the mover (MAX: highest, MIN: lowest, chance: most probable), the best line always.
      const key = (j) => {
        const v = rows[j][C.value];
        const n = typeof v === "number" ? v : v === "+inf" ? Infinity : -Infinity;
        if (rows[j][C.visits]) return -rows[j][C.visits];
        return kind === "max" ? -n : kind === "min" ? n : -(rows[j][C.probability] || 0);
      };
      const top = children.length > TOP ? new Set([...children].sort((a, b) => key(a) - key(b)).slice(0, TOP)) : new Set(children);
      children.forEach((j) => { if (onLine.has(j) || opened.has(j) || givens.has(j)) top.add(j); });
      const rest = children.filter((j) => !top.has(j));
      children.filter((j) => top.has(j)).forEach((j) => list.append(item(j)));
      if (rest.length) {
        const more = make("li", "more", `… and ${rest.length} more`);
        more.addEventListener("click", () => { rest.forEach((j) => list.insertBefore(item(j), more)); more.remove(); });
        list.append(more);
      }
      const missing = r[C.children] - children.length;
      if (missing > 0) list.append(make("li", "pruned", `${missing} children not embedded in this page (node cap)`));
      // An exercise keeps the cut's reason (it names the bound, half the answer) until it is answered.
      r[C.unsearched].forEach((name) => list.append(make("li", "pruned", hidden ? `${name}: pruned` : `${name}: pruned (${r[C.cut]})`)));
      li.append(list);
      li.querySelector(".toggle").textContent = "▾";
    }

    function select(i) {
      document.querySelectorAll(".node.selected").forEach((e) => e.classList.remove("selected"));
      const li = items.get(i);
      if (li) li.classList.add("selected");
      selected = [number, i];
      show(i);
    }

    function show(i) {
      const r = rows[i], steps = [];
      for (let j = i; j > 0; j = rows[j][C.parent]) steps.unshift(`${rows[rows[j][C.parent]][C.mover] || ""} ${rows[j][C.edge]}`.trim());
      const value = secret(i) ? "?" : shown(r[C.value]);
      $("node-info").textContent = `${tree.title || tree.algorithm}: node ${i}, level ${levelOf(i)}` +
        (r[C.mover] ? `, ${r[C.mover]} to move` : "") + `\npath: ${steps.join(" · ") || "(root)"}\n${r[C.kind]} value ${value}` +
        (r[C.alpha] !== null && !hidden ? `, window [${shown(r[C.alpha])}, ${shown(r[C.beta])}] on entry` : "") +
        (r[C.cut] && !hidden ? `\ncut: ${r[C.cut]}` : "") + (r[C.flags] & TABLE ? "\nanswered by the transposition table" : "") +
        (r[C.flags] & AVERAGE && !hidden ? "\nthe best line ends here: the value is an average of the outcomes, none of which decides it" : "");
      if (tree.board) drawBoard(tree.board, r[C.board], moveInto(i));
      else { $("position").hidden = false; $("position").textContent = r[C.board]; }
      $("node-info").dataset.node = i;
      $("node-info").dataset.tree = number;
    }

    // The move to draw on node i's board: [agent, from cell, to cell], the move into it
    // (at the root: the move the search plays, once an exercise does not hide it).
    function moveInto(i) {
      let parent = rows[i][C.parent], child = i;
      if (parent < 0) {
        if (hidden || tree.principal.length < 2) return null;
        parent = 0;
        child = tree.principal[1];
      }
      const agent = agentOf(rows[parent][C.mover]);
      if (agent === null) return null;
      return [agent, rows[parent][C.board][agent], rows[child][C.board][agent]];
    }

    function levelOf(i) {
      let level = 0;
      for (let j = i; j > 0; j = rows[j][C.parent]) level++;
      return level;
    }

    // -- the exercise: the question, the answer checked, the values shown ---------------
    function questionBox() {
      const box = make("div", "question");
      box.append(make("div", "prompt", quiz.prompt));
      const form = make("div", "answer");
      if (quiz.kind === "move") {
        quiz.choices.forEach((choice) => {
          const button = make("button", "choice", choice);
          button.type = "button";
          button.addEventListener("click", () => check(choice, box));
          form.append(button);
        });
      } else {
        const input = make("input");
        input.type = "text";
        input.placeholder = "a number, or a/b";
        input.setAttribute("aria-label", "your answer: the node's value");
        const button = make("button", "check", "Check");
        button.type = "button";
        button.addEventListener("click", () => check(input.value, box));
        input.addEventListener("keydown", (event) => { if (event.key === "Enter") check(input.value, box); });
        form.append(input, button);
      }
      box.append(form, make("div", "verdict"), make("div", "why"));
      return box;
    }

    function check(given, box) {
      const right = quiz.kind === "move" ? quiz.accepted.includes(given) : near(parseAnswer(given), quiz.answer);
      if (quiz.kind !== "move" && Number.isNaN(parseAnswer(given))) {
        box.querySelector(".verdict").className = "verdict wrong";
        box.querySelector(".verdict").textContent = `"${given}" is not a number: type one like 12, -3.5 or 53/2.`;
        return;
      }
      const verdict = box.querySelector(".verdict");
      verdict.className = "verdict " + (right ? "right" : "wrong");
      const also = quiz.kind === "move" && quiz.accepted.length > 1 ? ` (${quiz.accepted.join(", ")} are worth the same; it plays ${quiz.answer})` : "";
      verdict.textContent = (right ? `Right: ${quiz.kind === "move" ? given : shown(quiz.answer)}.` : `Not quite: you said ${given}, ${tree.algorithm} says ${shown(quiz.answer)}.`) + also;
      box.querySelector(".why").textContent = quiz.explanation;
      box.dataset.answered = right ? "right" : "wrong";
      box.querySelectorAll("input, button").forEach((e) => { e.disabled = true; });  // answered once: the values are shown now
      reveal();
    }

    function reveal() {
      if (!hidden) return;
      hidden = false;
      writeSummary();
      items.forEach((li, i) => paint(li, i));
      const li = items.get(quiz.node);
      if (li) {
        expand(li);
        kids[quiz.node].forEach((j) => { const child = items.get(j); if (child) expand(child); });
        select(quiz.node);
      }
      if (panes.every((p) => p.answered())) {
        $("lesson").hidden = !$("lesson").textContent;
        $("parting").hidden = panes.length < 2;
      }
    }

    return { show, select, answered: () => !hidden };
  }

  function parseAnswer(text) {
    const t = String(text).trim().replace("−", "-");
    const fraction = t.match(/^([-+]?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)$/);
    if (fraction) return Number(fraction[1]) / Number(fraction[2]);
    return t === "" ? NaN : Number(t);
  }

  function near(given, answer) {
    if (typeof answer !== "number") return String(given) === String(answer);
    return Math.abs(given - answer) <= Math.max(0.01, 1e-3 * Math.abs(answer));
  }

  function agentOf(mover) {
    if (mover === "Pacman") return 0;
    const ghost = /^ghost (\d+)$/.exec(mover || "");
    return ghost ? Number(ghost[1]) : null;
  }

  // The board as the search imagined it: [pacman, ghosts..., scared..., score, cells eaten since the root...],
  // and the move drawn as an arrow (agent, from cell, to cell).
  function drawBoard(board, f, move) {
    const S = board.style, L = board.layout, K = board.ghosts;
    const canvas = $("board"), pen = canvas.getContext("2d");
    const cell = Math.max(8, Math.min(S.CELL_PIXELS, Math.floor(420 / L.width)));
    canvas.width = L.width * cell;
    canvas.height = L.height * cell + 20;
    const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
    const center = (c) => [(L.cells[2 * c + 1] + 0.5) * cell, (L.cells[2 * c] + 0.5) * cell];
    const circle = (x, y, radius, color) => { pen.fillStyle = color; pen.beginPath(); pen.arc(x, y, radius, 0, 2 * Math.PI); pen.fill(); };
    pen.fillStyle = rgb(S.BACKGROUND);
    pen.fillRect(0, 0, canvas.width, canvas.height);
    pen.fillStyle = rgb(S.WALL);
    L.walls.forEach((line, r) => [...line].forEach((mark, c) => { if (mark === "%") pen.fillRect(c * cell + 1, r * cell + 1, cell - 2, cell - 2); }));
    const eaten = new Set(f.slice(2 + 2 * K));
    const capsules = new Set(board.capsules);
    board.food.forEach((c) => {
      if (eaten.has(c)) return;
      const [x, y] = center(c);
      if (capsules.has(c)) circle(x, y, cell * S.CAPSULE_RADIUS, rgb(S.CAPSULE));
      else circle(x, y, Math.max(1.5, cell * S.FOOD_RADIUS), rgb(S.FOOD));
    });
    const colorOf = (agent) => agent === 0 ? rgb(S.PACMAN) : rgb(S.GHOSTS[(agent - 1) % S.GHOSTS.length]);
    for (let g = 0; g < K; g++) {
      const [x, y] = center(f[1 + g]);
      circle(x, y, cell * S.GHOST_RADIUS, rgb(f[1 + K + g] > 0 ? S.SCARED : S.GHOSTS[g % S.GHOSTS.length]));
    }
    const [x, y] = center(f[0]);
    circle(x, y, cell * S.PACMAN_RADIUS, rgb(S.PACMAN));
    if (move) arrow(pen, center(move[1]), center(move[2]), colorOf(move[0]), cell);
    pen.fillStyle = rgb(S.TEXT);
    pen.font = "13px sans-serif";
    pen.fillText(`score ${f[1 + 2 * K]}`, 4, L.height * cell + 15);
    $("position").hidden = true;
  }

  // An arrow from one cell's centre to another's (a ring where the mover stayed).
  function arrow(pen, [x0, y0], [x1, y1], color, cell) {
    pen.strokeStyle = color;
    pen.fillStyle = color;
    pen.lineWidth = Math.max(2, cell / 6);
    if (x0 === x1 && y0 === y1) {
      pen.beginPath(); pen.arc(x0, y0, cell * 0.55, 0, 2 * Math.PI); pen.stroke();
      return;
    }
    pen.beginPath(); pen.arc(x1, y1, cell * 0.5, 0, 2 * Math.PI); pen.stroke();  // where the mover lands
    const angle = Math.atan2(y1 - y0, x1 - x0), head = cell * 0.4;
    const tipX = x1 - Math.cos(angle) * cell * 0.1, tipY = y1 - Math.sin(angle) * cell * 0.1;
    pen.beginPath(); pen.moveTo(x0, y0); pen.lineTo(tipX, tipY); pen.stroke();
    pen.beginPath();
    pen.moveTo(tipX, tipY);
    pen.lineTo(tipX - head * Math.cos(angle - 0.5), tipY - head * Math.sin(angle - 0.5));
    pen.lineTo(tipX - head * Math.cos(angle + 0.5), tipY - head * Math.sin(angle + 0.5));
    pen.closePath(); pen.fill();
  }
})();
