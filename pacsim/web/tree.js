// The pacsim search-tree page: draws the trees pacsim traced (pacsim/web/tree.py, docs/tree.md).
// Nodes are rows of tree.columns; a node's children are built only when it is first expanded.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // The trees are gzipped JSON in base64 (pacsim/web/tree.py): unpacked by the browser itself.
  const packed = Uint8Array.from(atob($("trees").textContent.trim()), (c) => c.charCodeAt(0));
  new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).text()
    .then((text) => start(JSON.parse(text)));
  const TOP = 8;  // children shown before "and N more"
  const make = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const shown = (v) => (typeof v === "number" ? String(Math.round(v * 1000) / 1000) : v === null ? "?" : String(v));

  function start(trees) {
    trees.forEach((tree, number) => render(tree, number));
    const parting = trees[0].parting;
    if (trees.length > 1) {
      $("parting").hidden = false;
      $("parting").textContent = parting === null || parting === undefined
        ? "The two best lines agree as far as both go."
        : `The choices part at level ${parting}: ` + trees.map((t) => `${t.title} takes ${edgeAt(t, parting)}`).join(", ") + ".";
    }
    document.body.dataset.ready = "yes";
  }

  function edgeAt(tree, level) {
    const row = tree.nodes[tree.principal[level]];
    return row ? row[tree.columns.indexOf("edge")] : "?";
  }

  function render(tree, number) {
    const C = {};
    tree.columns.forEach((name, i) => { C[name] = i; });
    const rows = tree.nodes;
    const kids = rows.map(() => []);
    rows.forEach((r, i) => { if (r[C.parent] >= 0) kids[r[C.parent]].push(i); });
    const onLine = new Set(tree.principal);
    const partingNode = tree.parting === null || tree.parting === undefined ? -1 : tree.principal[tree.parting];
    const pane = make("section", "pane");
    pane.id = "tree" + number;
    pane.append(make("h2", "", tree.title || tree.algorithm));
    const s = tree.stats;
    pane.append(make("div", "summary",
      `${tree.algorithm}${tree.depth === null ? "" : ", " + tree.depth + " levels"} · value ${shown(tree.value)}` +
      (tree.action === null ? "" : ` · plays ${tree.action}`) +
      ` · generated ${s.generated}, evaluated ${s.evaluated}, cut-offs ${s.cutoffs}` +
      (tree.nodesEmbedded < tree.nodesTotal
        ? ` · ${tree.nodesEmbedded} of ${tree.nodesTotal} nodes embedded (breadth first, best line whole); the rest were cut to keep the page small`
        : ` · ${tree.nodesTotal} nodes`)));
    pane.append(levelTable(tree.countsByLevel));
    const list = make("ul", "children root");
    pane.append(list);
    $("panes").append(pane);
    const root = item(0);
    list.append(root);
    // Open at the root; in a comparison, down the best line to where the choices part.
    expand(root);
    if (partingNode >= 0) {
      let li = root;
      for (const index of tree.principal.slice(1, tree.parting)) {
        li = li.querySelector(`:scope > ul > li[data-node="${index}"]`);
        if (!li) break;
        expand(li);
      }
    }

    function levelTable(counts) {
      const table = make("table", "levels");
      const head = make("tr"), body = make("tr");
      head.append(make("th", "", "level"));
      body.append(make("th", "", "nodes"));
      counts.forEach((count, level) => { head.append(make("td", "", String(level))); body.append(make("td", "", String(count))); });
      table.append(head, body);
      return table;
    }

    function item(i) {
      const r = rows[i], li = make("li", "node");
      li.dataset.node = i;
      li.dataset.tree = number;
      if (onLine.has(i)) li.classList.add("pv");
      if (r[C.cut]) li.classList.add("cut");
      if (i === partingNode) li.classList.add("parting");
      const line = make("span", "label");
      const openable = r[C.children] > 0 || r[C.unsearched].length > 0;
      line.append(make("span", "toggle", openable ? "▸" : ""));
      if (r[C.edge] !== null) line.append(make("span", "edge", r[C.edge] + (r[C.probability] !== null && r[C.probability] !== undefined ? ` (p=${shown(r[C.probability])})` : "") + " → "));
      line.append(make("span", "kind kind-" + r[C.kind], r[C.kind]));
      line.append(make("span", "value", " " + shown(r[C.value])));
      if (r[C.alpha] !== null) line.append(make("span", "window", ` [${shown(r[C.alpha])}, ${shown(r[C.beta])}]`));
      if (r[C.visits]) line.append(make("span", "badge", `${r[C.visits]} visits`));
      if (r[C.flags] & 2) line.append(make("span", "badge", "table"));
      if (r[C.flags] & 4) line.append(make("span", "badge", "probe"));
      if (r[C.flags] & 8) line.append(make("span", "badge", "probed leaf"));
      if (r[C.cut]) line.append(make("span", "reason", " ✂ " + r[C.cut]));
      li.append(line);
      line.addEventListener("mouseenter", () => show(i));
      line.addEventListener("click", () => { select(li, i); if (openable) toggle(li); });
      return li;
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
      children.forEach((j) => { if (onLine.has(j)) top.add(j); });
      const rest = children.filter((j) => !top.has(j));
      children.filter((j) => top.has(j)).forEach((j) => list.append(item(j)));
      if (rest.length) {
        const more = make("li", "more", `… and ${rest.length} more`);
        more.addEventListener("click", () => { rest.forEach((j) => list.insertBefore(item(j), more)); more.remove(); });
        list.append(more);
      }
      const missing = r[C.children] - children.length;
      if (missing > 0) list.append(make("li", "pruned", `${missing} children not embedded in this page (node cap)`));
      r[C.unsearched].forEach((name) => list.append(make("li", "pruned", `${name}: pruned (${r[C.cut]})`)));
      li.append(list);
      li.querySelector(".toggle").textContent = "▾";
    }

    function select(li, i) {
      document.querySelectorAll(".node.selected").forEach((e) => e.classList.remove("selected"));
      li.classList.add("selected");
      show(i);
    }

    function show(i) {
      const r = rows[i], path = [];
      for (let j = i; j > 0; j = rows[j][C.parent]) path.unshift(rows[j][C.edge]);
      $("node-info").textContent = `${tree.title || tree.algorithm}: node ${i}, level ${levelOf(i)}\n` +
        `path: ${path.join(" · ") || "(root)"}\n${r[C.kind]} value ${shown(r[C.value])}` +
        (r[C.alpha] !== null ? `, window [${shown(r[C.alpha])}, ${shown(r[C.beta])}] on entry` : "") +
        (r[C.cut] ? `\ncut: ${r[C.cut]}` : "") + (r[C.flags] & 2 ? "\nanswered by the transposition table" : "");
      if (tree.board) drawBoard(tree.board, r[C.board]);
      else { $("position").hidden = false; $("position").textContent = r[C.board]; }
      $("node-info").dataset.node = i;
    }

    function levelOf(i) {
      let level = 0;
      for (let j = i; j > 0; j = rows[j][C.parent]) level++;
      return level;
    }
  }

  // The board as the search imagined it: [pacman, ghosts..., scared..., score, cells eaten since the root...].
  function drawBoard(board, f) {
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
    for (let g = 0; g < K; g++) {
      const [x, y] = center(f[1 + g]);
      circle(x, y, cell * S.GHOST_RADIUS, rgb(f[1 + K + g] > 0 ? S.SCARED : S.GHOSTS[g % S.GHOSTS.length]));
    }
    const [x, y] = center(f[0]);
    circle(x, y, cell * S.PACMAN_RADIUS, rgb(S.PACMAN));
    pen.fillStyle = rgb(S.TEXT);
    pen.font = "13px sans-serif";
    pen.fillText(`score ${f[1 + 2 * K]}`, 4, L.height * cell + 15);
    $("position").hidden = true;
  }
})();
