// pacsim's capture-the-flag page: draws the frames of pacsim.engine.capture.frames (an HTML replay, or a game
// played live, polled from frames.json). The page applies no rule: every frame is the whole position.
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("capture-data").textContent);
  const board = data.board;
  const frames = data.frames;
  const TEAM = ["#e63232", "#3c78ff"];
  const FOOD = ["#ff9a9a", "#a8c4ff"];
  const HALF = ["#1c0707", "#07071c"];
  const DIRECTIONS = ["North", "South", "East", "West", "Stop"];
  const cell = Math.max(8, Math.min(28, Math.floor(1100 / board.width)));
  const canvas = document.getElementById("board");
  canvas.width = board.width * cell;
  canvas.height = board.height * cell;
  const draw = canvas.getContext("2d");
  const slider = document.getElementById("slider");
  const playButton = document.getElementById("play");
  const middle = Math.floor(board.width / 2);
  let shown = 0, timer = null, following = true;

  document.getElementById("red-name").textContent = board.red + " (red)";
  document.getElementById("blue-name").textContent = board.blue + " (blue)";

  const centre = (x, y) => [x * cell + cell / 2, (board.height - 1 - y) * cell + cell / 2];
  const side = (x) => (x < middle ? 0 : 1);

  function drawMaze() {
    for (const team of [0, 1]) {
      draw.fillStyle = HALF[team];
      draw.fillRect(team ? middle * cell : 0, 0, team ? canvas.width - middle * cell : middle * cell, canvas.height);
    }
    draw.fillStyle = "#2b2bd6";
    for (const [x, y] of board.walls) {
      const [cx, cy] = centre(x, y);
      draw.fillRect(cx - cell * 0.42, cy - cell * 0.42, cell * 0.84, cell * 0.84);
    }
  }

  function drawItems(frame) {
    const food = BigInt("0x" + frame.food), capsules = BigInt("0x" + frame.capsules);
    board.cells.forEach(([x, y], index) => {
      const bit = BigInt(index);
      const [cx, cy] = centre(x, y);
      if ((food >> bit) & 1n) dot(cx, cy, cell * 0.12, FOOD[side(x)]);
      if ((capsules >> bit) & 1n) dot(cx, cy, cell * 0.28, "#ffffff");
    });
  }

  function drawMarks(frame) {
    for (const [cells, [r, g, b]] of frame.marks || []) {
      draw.fillStyle = `rgba(${r}, ${g}, ${b}, 0.45)`;
      for (const [x, y] of cells) {
        const [cx, cy] = centre(x, y);
        draw.fillRect(cx - cell / 2, cy - cell / 2, cell, cell);
      }
    }
  }

  // The noisy distances the mover heard: the cells at that Manhattan distance from it, for each opponent it did not see.
  function drawHeard(frame) {
    if (!frame.heard || frame.mover === null) return;
    const [mx, my] = frame.agents[frame.mover];
    draw.setLineDash([3, 3]);
    draw.lineWidth = 1.5;
    frame.agents.forEach((_, other) => {
      if (other % 2 === frame.mover % 2 || frame.seen[other] || frame.heard[other] < 0) return;
      const reach = frame.heard[other];
      draw.strokeStyle = TEAM[other % 2];
      draw.beginPath();
      const corners = [[mx, my + reach], [mx + reach, my], [mx, my - reach], [mx - reach, my]].map(([x, y]) => centre(x, y));
      corners.forEach(([x, y], i) => (i ? draw.lineTo(x, y) : draw.moveTo(x, y)));
      draw.closePath();
      draw.stroke();
    });
    draw.setLineDash([]);
  }

  function dot(x, y, radius, color) {
    draw.fillStyle = color;
    draw.beginPath();
    draw.arc(x, y, radius, 0, 2 * Math.PI);
    draw.fill();
  }

  function drawAgent(agent, index, mover) {
    const [x, y, direction, pacman, scared, carrying] = agent;
    const [cx, cy] = centre(x, y);
    const color = TEAM[index % 2];
    if (pacman) {
      const facing = { 0: -Math.PI / 2, 1: Math.PI / 2, 2: 0, 3: Math.PI }[direction] ?? 0;
      draw.fillStyle = color;
      draw.beginPath();
      draw.moveTo(cx, cy);
      draw.arc(cx, cy, cell * 0.45, facing + 0.55, facing - 0.55 + 2 * Math.PI);
      draw.closePath();
      draw.fill();
    } else {
      drawGhost(cx, cy, scared ? "#f0f0ff" : color, color, direction);
    }
    if (index === mover) {
      draw.strokeStyle = "#ffe600";
      draw.lineWidth = 2;
      draw.strokeRect(cx - cell / 2 + 1, cy - cell / 2 + 1, cell - 2, cell - 2);
    }
    draw.font = `bold ${Math.max(8, cell * 0.42)}px system-ui, sans-serif`;
    draw.textAlign = "center";
    draw.textBaseline = "middle";
    draw.fillStyle = scared && !pacman ? color : "#000";
    draw.fillText(String(index), cx, cy + cell * 0.05);
    if (carrying) badge(cx + cell * 0.42, cy - cell * 0.42, String(carrying));
  }

  function drawGhost(cx, cy, body, outline, direction) {
    const r = cell * 0.42;
    draw.fillStyle = body;
    draw.strokeStyle = outline;
    draw.lineWidth = 2;
    draw.beginPath();
    draw.arc(cx, cy - r * 0.1, r, Math.PI, 0);
    draw.lineTo(cx + r, cy + r);
    for (let i = 1; i <= 4; i++) draw.lineTo(cx + r - (i * r) / 2, cy + r - (i % 2 ? r * 0.3 : 0));
    draw.closePath();
    draw.fill();
    draw.stroke();
  }

  function badge(x, y, text) {
    dot(x, y, cell * 0.3, "#ffe600");
    draw.fillStyle = "#000";
    draw.font = `bold ${Math.max(8, cell * 0.36)}px system-ui, sans-serif`;
    draw.fillText(text, x, y + 1);
  }

  function role(agent, index) {
    const [, , , pacman, scared] = agent;
    if (pacman) return "Pacman";
    return scared ? `scared ghost (${scared})` : "ghost";
  }

  function describe(frame) {
    document.getElementById("score").textContent = frame.score;
    document.getElementById("move").textContent = `move ${frame.move} of ${frames.length - 1}${data.live && !data.done ? "+" : ""}`;
    document.getElementById("turn").textContent = frame.mover === null ? "the start" :
      `agent ${frame.mover} (${frame.mover % 2 ? "blue" : "red"}): ${frame.action} · ${frame.left} moves left`;
    const rows = frame.agents.map((agent, index) =>
      `<tr class="${index === frame.mover ? "mover" : ""}"><td class="${index % 2 ? "blue" : "red"}">${index}</td>` +
      `<td>${role(agent, index)}</td><td>${agent[5]}</td><td>${agent[6]}</td></tr>`);
    document.querySelector("#agents tbody").innerHTML = rows.join("");
    const heard = document.getElementById("heard");
    heard.textContent = frame.heard ? `agent ${frame.mover} heard: ` + frame.heard.map((distance, other) =>
      other === frame.mover ? null : `${other}: ${distance}${frame.seen[other] ? " (seen)" : ""}`).filter(Boolean).join(", ") : "";
    const last = shown === frames.length - 1 && (!data.live || data.done);
    document.getElementById("outcome").textContent = last && data.outcome ? data.outcome : "";
  }

  function show(index) {
    if (!frames.length) return;
    shown = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[shown];
    drawMaze();
    drawMarks(frame);
    drawItems(frame);
    drawHeard(frame);
    frame.agents.forEach((agent, i) => drawAgent(agent, i, frame.mover));
    slider.max = frames.length - 1;
    slider.value = shown;
    describe(frame);
  }

  function play(on) {
    clearInterval(timer);
    timer = on ? setInterval(() => (shown < frames.length - 1 ? show(shown + 1) : play(false)), 60) : null;
    playButton.textContent = on ? "\u275A\u275A" : "\u25B6";
  }

  slider.addEventListener("input", () => { play(false); show(Number(slider.value)); following = shown === frames.length - 1; });
  playButton.addEventListener("click", () => play(!timer));
  document.getElementById("back").addEventListener("click", () => { play(false); show(shown - 1); });
  document.getElementById("step").addEventListener("click", () => { play(false); show(shown + 1); });

  const STEER = { ArrowUp: [0, "North"], ArrowDown: [0, "South"], ArrowRight: [0, "East"], ArrowLeft: [0, "West"],
                  w: [1, "North"], s: [1, "South"], d: [1, "East"], a: [1, "West"] };
  document.addEventListener("keydown", (event) => {
    if (data.keyboard && STEER[event.key]) {
      const [slot, action] = STEER[event.key];
      fetch("key", { method: "POST", headers: { "X-Pacsim-Key-Token": data.keyToken }, body: `${slot} ${action}` });
      event.preventDefault();
      return;
    }
    const moves = { ArrowLeft: -1, ",": -1, ArrowRight: 1, ".": 1 };
    if (event.key in moves) { play(false); show(shown + moves[event.key]); }
    else if (event.key === " ") { play(!timer); event.preventDefault(); }
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(frames.length - 1);
  });
  if (data.keyboard) document.getElementById("keys").textContent =
    `${data.keyboard}: arrow keys steer agent ${data.keyboard === "red" ? 0 : 1}, W/A/S/D agent ${data.keyboard === "red" ? 2 : 3}`;

  async function poll() {
    while (!data.done) {
      try {
        const reply = await (await fetch(`frames.json?since=${frames.length}`)).json();
        frames.push(...reply.frames);
        data.done = reply.done;
        data.outcome = reply.outcome;
        if (reply.frames.length || reply.done) show(following ? frames.length - 1 : shown);
      } catch (error) {
        document.getElementById("outcome").textContent = "the game's server has stopped";
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  window.pacsimCapture = { data, frames, shown: () => shown };  // for tests and the curious: what the page holds
  const linked = /#move=(\d+)/.exec(location.hash);
  show(linked ? Number(linked[1]) : 0);
  if (data.live) poll();
})();
