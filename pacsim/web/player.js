// The pacsim HTML player: draws the frames pacsim computed (no rule is applied here).
// The game is the JSON in <script id="game">; see pacsim/web/frames.py for its format.
"use strict";
(function () {
  const game = JSON.parse(document.getElementById("game").textContent);
  const S = game.style, L = game.layout, K = game.ghosts, frames = game.frames;
  let last = frames.length - 1;
  const $ = (id) => document.getElementById(id);
  const canvas = $("board"), pen = canvas.getContext("2d");
  const facing = { North: 90, South: 270, East: 0, West: 180, Stop: 0 };
  const look = { North: [0, -1], South: [0, 1], East: [1, 0], West: [-1, 0], Stop: [0, 0] };
  const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
  const walls = L.walls.map((row) => [...row].map((mark) => mark === "%"));
  const isWall = (r, c) => r >= 0 && r < L.height && c >= 0 && c < L.width && walls[r][c];
  const speeds = [1, 2, 5, 10, 20, 50, 100, 200];
  let move = 0, playing = false, timer = null, cell = S.CELL_PIXELS;
  // 10 moves a second, faster for a long game, so that a whole game plays in about 10 seconds.
  let speed = speeds.findIndex((s) => s >= Math.max(10, last / 10));
  if (speed < 0) speed = speeds.length - 1;

  // The food and capsules left at each move, from the cells eaten on the way.
  const left = [];
  function addLeft(f) {
    const items = new Set(left.length ? left[left.length - 1] : [...game.food, ...game.capsules]);
    f.slice(2 + 3 * K + 1).forEach((c) => items.delete(c));
    left.push(items);
  }
  frames.forEach(addLeft);
  const capsules = new Set(game.capsules);

  function position(f) {
    return { pacman: f[0], dir: game.actions[f[1]], ghosts: f.slice(2, 2 + K),
             dirs: f.slice(2 + K, 2 + 2 * K).map((d) => game.actions[d]), scared: f.slice(2 + 2 * K, 2 + 3 * K),
             score: f[2 + 3 * K] };
  }
  const center = (c) => [(L.cells[2 * c + 1] + 0.5) * cell, (L.cells[2 * c] + 0.5) * cell];
  function circle(x, y, r, color) { pen.fillStyle = color; pen.beginPath(); pen.arc(x, y, r, 0, 2 * Math.PI); pen.fill(); }

  function drawWalls() {
    const half = Math.max(1, cell * S.WALL_THICKNESS / 2);
    pen.fillStyle = rgb(S.WALL);
    for (let r = 0; r < L.height; r++) for (let c = 0; c < L.width; c++) {
      if (!walls[r][c]) continue;
      const x = (c + 0.5) * cell, y = (r + 0.5) * cell;
      circle(x, y, half, rgb(S.WALL));
      if (isWall(r, c + 1)) pen.fillRect(x, y - half, cell, 2 * half);
      if (isWall(r + 1, c)) pen.fillRect(x - half, y, 2 * half, cell);
      if (isWall(r, c + 1) && isWall(r + 1, c) && isWall(r + 1, c + 1)) pen.fillRect(x, y, cell, cell);
    }
  }

  function drawPacman(p) {
    const [x, y] = center(p.pacman), radius = cell * S.PACMAN_RADIUS;
    // The mouth opens and closes while playing; a still picture shows it open, so he faces somewhere.
    const degrees = playing ? S.MOUTH_DEGREES[move % S.MOUTH_DEGREES.length] : Math.max(...S.MOUTH_DEGREES);
    const mouth = degrees * Math.PI / 180;
    const angle = facing[p.dir] * Math.PI / 180;
    pen.fillStyle = rgb(S.PACMAN);
    pen.beginPath(); pen.moveTo(x, y);
    // Screen y grows downwards: the canvas turns clockwise, so angles are negated.
    pen.arc(x, y, radius, -angle - mouth, -angle + mouth - 2 * Math.PI, true);
    pen.closePath(); pen.fill();
  }

  function drawGhost(index, cellNumber, dir, timer) {
    const [x, y] = center(cellNumber), radius = cell * S.GHOST_RADIUS;
    const head = y - cell * 0.12, bottom = y + cell * 0.42;
    let color = S.GHOSTS[index % S.GHOSTS.length];
    if (timer) color = timer <= S.FLASH_TIMER && move % 2 === 1 ? S.SCARED_FLASH : S.SCARED;
    circle(x, head, radius, rgb(color));
    pen.beginPath(); pen.moveTo(x - radius, head); pen.lineTo(x - radius, bottom);
    for (let tooth = 1; tooth < 6; tooth++) pen.lineTo(x - radius + 2 * radius * tooth / 6, bottom - (tooth % 2 ? cell * 0.12 : 0));
    pen.lineTo(x + radius, bottom); pen.lineTo(x + radius, head); pen.closePath(); pen.fill();
    if (timer) {
      for (const side of [-1, 1]) circle(x + side * cell * 0.13, head, Math.max(1, cell * 0.05), rgb(S.SCARED_FACE));
      pen.strokeStyle = rgb(S.SCARED_FACE); pen.lineWidth = Math.max(1, cell * 0.04); pen.beginPath();
      for (let step = 0; step < 6; step++) {
        const px = x - cell * 0.22 + cell * 0.088 * step, py = head + cell * 0.14 + (step % 2 ? cell * 0.04 : -cell * 0.02);
        step ? pen.lineTo(px, py) : pen.moveTo(px, py);
      }
      pen.stroke();
      return;
    }
    const [lx, ly] = look[dir];
    for (const side of [-1, 1]) {
      const ex = x + side * cell * 0.16;
      circle(ex, head, Math.max(1, cell * 0.11), rgb(S.EYE_WHITE));
      circle(ex + lx * cell * 0.05, head + ly * cell * 0.05, Math.max(1, cell * 0.05), rgb(S.PUPIL));
    }
  }

  function drawBanner(word) {
    const width = L.width * cell, height = cell * 2.2, middle = L.height * cell / 2;
    pen.fillStyle = "rgba(0,0,0,0.75)"; pen.fillRect(0, middle - height / 2, width, height);
    pen.fillStyle = rgb(S.BANNERS[word] || S.TEXT); pen.font = `bold ${Math.round(cell * 1.4)}px sans-serif`;
    pen.textAlign = "center"; pen.textBaseline = "middle"; pen.fillText(word, width / 2, middle);
  }

  function showValues() {
    const box = $("values");
    if (!game.values) return;
    box.hidden = false;  // a page made from the template without values (the lesson map's) shows them when the game has them
    const row = game.values[move];
    const chosen = move < last ? game.actions[frames[move + 1][1]] : null;
    const visits = game.valuesHeading[0] === "Visits";  // counts, shown whole, as the viewer shows them
    const line = (text, kind) => { const div = document.createElement("div"); div.className = kind; div.textContent = text; box.appendChild(div); };
    box.replaceChildren();
    game.valuesHeading.forEach((text, index) => line(text, index ? "about" : "title"));
    if (!row) { line(move < last ? "no values" : "", "about"); return; }
    for (const [action, value] of row) {
      const number = Number.isFinite(value) ? value.toFixed(visits ? 0 : 1) : value;
      line(`${action} ${number}`, action === chosen ? "chosen" : "");
    }
  }

  function draw() {
    if (!frames.length) return;  // a live game before its first frame
    const p = position(frames[move]);
    pen.fillStyle = rgb(S.BACKGROUND); pen.fillRect(0, 0, canvas.width, canvas.height);
    drawWalls();
    for (const c of left[move]) {
      const [x, y] = center(c), big = capsules.has(c);
      circle(x, y, Math.max(big ? 2 : 1, cell * (big ? S.CAPSULE_RADIUS : S.FOOD_RADIUS)), rgb(big ? S.CAPSULE : S.FOOD));
    }
    drawPacman(p);
    p.ghosts.forEach((g, i) => drawGhost(i, g, p.dirs[i], p.scared[i]));
    if (move === last && game.outcome) drawBanner(game.outcome.toUpperCase());
    $("score").textContent = String(p.score);
    $("move").textContent = String(move);
    $("slider").value = String(move);
    $("outcome").textContent = move === last && game.outcome ? game.outcome : "";
    showValues();
    showMark(p);
    showTree();
  }

  // Marked moves (the lesson map's trap move): a line under the board says which and why, at that move the
  // line is highlighted and Pacman ringed; elsewhere it says where the mark is (key m goes there).
  const marks = Object.entries(game.marks || {}).map(([at, text]) => [Number(at), text]).sort((a, b) => a[0] - b[0]);
  function showMark(p) {
    if (!marks.length) return;
    const here = marks.find(([at]) => at === move);
    const box = $("mark");
    box.hidden = false;
    box.classList.toggle("here", Boolean(here));
    box.textContent = here ? `\u25B6 move ${move}: ${here[1]}` : `marked: move ${marks.map(([at]) => at).join(", ")} (m goes there): ${marks[0][1]}`;
    if (!here) return;
    const [x, y] = center(p.pacman);
    pen.strokeStyle = rgb(S.HIGHLIGHT); pen.lineWidth = Math.max(2, cell / 8);
    pen.beginPath(); pen.arc(x, y, cell * 0.62, 0, 2 * Math.PI); pen.stroke();
  }
  function nextMark() {
    if (!marks.length) return;
    const next = marks.find(([at]) => at > move) || marks[0];
    pause(); go(next[0]);
  }

  // The tree searched at this move (replay --tree): the tree page, its data this move's, in a frame under the board.
  let treeShown = -1;
  function showTree() {
    if (!game.trees || $("tree-view").hidden || treeShown === move) return;
    treeShown = move;
    const packed = game.trees[move];
    $("tree-frame").srcdoc = packed ? game.treePage.replace(game.treeData, packed) : "<p style='color:#ddd'>No search at this position.</p>";
  }
  function toggleTree() {
    if (!game.trees) return;
    $("tree-view").hidden = !$("tree-view").hidden;
    treeShown = -1;
    showTree();
  }

  function resize() {
    // The viewer's cell size in an iframe; a page of its own grows the board to the window (up to GROWTH times).
    const GROWTH = 3, most = game.standalone ? GROWTH * S.CELL_PIXELS : S.CELL_PIXELS;
    const across = (document.documentElement.clientWidth - 24 - panelWidth()) / L.width;
    setCell(Math.min(most, across));
    // What the heading, status and controls take at this width, measured: the board gets the rest of the height.
    const around = document.documentElement.scrollHeight - canvas.offsetHeight;
    setCell(Math.min(cell, (window.innerHeight - around) / L.height));
  }

  const panelWidth = () => (game.values ? $("values").offsetWidth + 8 : 0);  // the values beside the board, and the gap

  function setCell(size) {
    cell = Math.max(S.MIN_CELL_PIXELS, Math.floor(size));
    const ratio = window.devicePixelRatio || 1;
    canvas.width = L.width * cell * ratio; canvas.height = L.height * cell * ratio;
    canvas.style.width = `${L.width * cell}px`; canvas.style.height = `${L.height * cell}px`;
    $("player").style.width = `${L.width * cell + panelWidth()}px`;  // the controls as wide as the board
    pen.setTransform(ratio, 0, 0, ratio, 0, 0);
    draw();
  }

  function go(to) {
    move = Math.max(0, Math.min(Math.max(last, 0), to));
    if (move === last) pause();
    draw();
    if (game.standalone) history.replaceState(null, "", `#move=${move}`);
  }
  function tick() { if (move >= last) { pause(); return; } go(move + 1); }
  function play() {
    if (move >= last) go(0);  // from the end: over again, shown at once
    playing = true; $("play").textContent = "\u275A\u275A"; $("play").title = "pause (space)";
    clearInterval(timer); timer = setInterval(tick, 1000 / speeds[speed]);
  }
  function pause() { playing = false; clearInterval(timer); $("play").textContent = "\u25B6"; $("play").title = "play (space)"; }
  function setSpeed(index) {
    speed = Math.max(0, Math.min(speeds.length - 1, index)); $("speed").value = String(speed);
    if (playing) play();
  }
  function fromHash() {
    const found = /move=(\d+|end)/.exec(location.hash);
    if (found) { pause(); go(found[1] === "end" ? last : Number(found[1])); }
  }

  // pacsim play --browser: the frames arrive as the game is played (pacsim/web/live.py); the page follows
  // the newest unless the reader stepped back, and a keyboard Pacman's keys go to the game.
  function live() {
    window.pacsimLive = { frames, actions: game.actions };  // what tests read of the game so far
    const moves = { ArrowUp: "North", ArrowDown: "South", ArrowRight: "East", ArrowLeft: "West",
                    w: "North", s: "South", d: "East", a: "West", W: "North", S: "South", D: "East", A: "West" };
    if (game.keyboard) {
      Object.keys(moves).forEach((key) => { keys[key] = () => fetch("key", { method: "POST", body: moves[key], headers: { "X-Pacsim-Key-Token": game.keyToken } }).catch(() => {}); });
      $("title").textContent += " \u00B7 arrow keys or WASD move Pacman";
    }
    async function poll() {
      let reply;
      try { reply = await (await fetch(`frames.json?since=${frames.length}`)).json(); }
      catch (error) { $("outcome").textContent = " (the game's server has stopped)"; return; }
      const following = playing || move === last || last < 0;
      reply.frames.forEach((f, i) => { frames.push(f); addLeft(f); if (game.values) game.values.push(reply.values[i]); });
      last = frames.length - 1;
      $("slider").max = String(last); $("moves").textContent = String(last);
      if (reply.done) game.outcome = reply.outcome || (reply.error ? "error" : null);
      if (reply.frames.length && last === reply.frames.length - 1) resize();  // the first frames: the board's size
      if (following || reply.done) go(last); else draw();
      if (reply.error) $("title").textContent += ` (${reply.error})`;
      if (!reply.done) setTimeout(poll, 100);
    }
    poll();
  }

  // The page's colours are the viewer's too (player.css reads these variables).
  for (const [name, color] of [["--text", S.TEXT], ["--dim", S.DIM_TEXT], ["--panel", S.PANEL],
                               ["--highlight", S.HIGHLIGHT], ["--highlight-text", S.HIGHLIGHT_TEXT], ["--background", S.BACKGROUND]]) {
    document.documentElement.style.setProperty(name, rgb(color));
  }
  if (game.recordedScore !== null && game.recordedScore !== game.score) {
    $("title").textContent += ` (the record says score ${game.recordedScore}: it does not match the replay)`;
  }
  $("speed").replaceChildren(...speeds.map((s, i) => new Option(`${s} moves/s`, String(i))));
  $("speed").value = String(speed);
  $("slider").max = String(last);
  $("moves").textContent = String(last);
  $("play").onclick = () => (playing ? pause() : play());
  $("step").onclick = () => { pause(); go(move + 1); };
  $("back").onclick = () => { pause(); go(move - 1); };
  $("first").onclick = () => { pause(); go(0); };
  $("last").onclick = () => { pause(); go(last); };
  $("slider").oninput = () => { pause(); go(Number($("slider").value)); };
  $("speed").onchange = () => setSpeed(Number($("speed").value));
  $("tree").onclick = toggleTree;
  const keys = {
    " ": () => (playing ? pause() : play()), ArrowRight: () => $("step").onclick(), ArrowLeft: () => $("back").onclick(),
    Home: () => $("first").onclick(), End: () => $("last").onclick(), "+": () => setSpeed(speed + 1), "-": () => setSpeed(speed - 1),
    t: toggleTree, m: nextMark,
  };
  keys["."] = keys.ArrowRight; keys[","] = keys.ArrowLeft; keys["="] = keys["+"];
  document.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) {
      if (event.key !== " ") return;  // the slider and the speed list keep their own arrow keys
    }
    event.preventDefault(); action();
  });
  window.addEventListener("resize", resize);
  if (game.live) live();
  if (!game.standalone) move = last;  // see replay_page in player.py: side by side, each shows its end
  resize();
  if (game.standalone) { window.addEventListener("hashchange", fromHash); fromHash(); }
})();
