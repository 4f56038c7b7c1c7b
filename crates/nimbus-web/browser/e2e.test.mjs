// The page of `nimbus serve` in a real browser (Debian's Chromium, driven by Playwright): a
// user's questions asked through the page and the answers read back from it.
//
// NIMBUS_BIN names the binary (default: target/release/nimbus of the workspace); CHROMIUM
// names the browser (default: /usr/bin/chromium).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import fs from "node:fs";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const bin = process.env.NIMBUS_BIN || path.join(root, "target/release/nimbus");
const browserPath = process.env.CHROMIUM || "/usr/bin/chromium";

let server, base, browser;

before(async () => {
  // The server has the opening book of the 7 x 6 board the repository carries (two stones
  // deep: its first two answers come from it).
  const book = path.join(root, "data/connect4/opening-7x6-2.book");
  server = spawn(bin, ["serve", "--port", "0", "--db", book], { stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    let seen = "";
    server.stdout.on("data", (chunk) => {
      seen += chunk;
      const m = seen.match(/http:\/\/[^/\s]+\//);
      if (m) resolve(m[0]);
    });
    server.on("exit", (code) => reject(new Error(`nimbus serve exited with ${code}: ${seen}`)));
  });
  browser = await chromium.launch({
    executablePath: browserPath,
    // Without these, Chromium keeps trying to reach Google's hosts, which this machine's
    // closed network refuses.
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) {
    const exited = new Promise((resolve) => server.on("exit", resolve));
    server.kill("SIGTERM");
    // A graceful shutdown: the server ends by itself on SIGTERM.
    const code = await exited;
    assert.equal(code, 0, "nimbus serve stops cleanly on SIGTERM");
  }
});

async function page(fragment = "") {
  const p = await browser.newPage();
  await p.goto(base + (fragment ? "#" + new URLSearchParams(fragment).toString() : ""));
  return p;
}

/// The equilibria table as text: one array of cells per equilibrium.
async function equilibria(p) {
  await p.waitForSelector("#equilibria");
  return p.$$eval("#equilibria tr", (rows) => rows.slice(1).map((r) => [...r.cells].map((c) => c.textContent.trim())));
}

test("the prisoner's dilemma, typed into the grid: (D, D) only", async () => {
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "3", b0_0: "3", a0_1: "0", b0_1: "5", a1_0: "5", b1_0: "0", a1_1: "1", b1_1: "1" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.fill("#r0", "Cooperate"); await p.fill("#r1", "Defect");
  await p.click("#solveNash");
  const eq = await equilibria(p);
  assert.equal(eq.length, 1);
  assert.match(eq[0][1], /Cooperate: 0, Defect: 1/);
  assert.equal(eq[0][3], "1, 1");
  // The answer can be shared: the URL holds the game.
  const again = await page(Object.fromEntries(new URLSearchParams(new URL(p.url()).hash.slice(1))));
  await again.click("#solveNash");
  assert.deepEqual(await equilibria(again), eq);
  await p.close(); await again.close();
});

test("rock-paper-scissors, pasted: the uniform equilibrium, as fractions and decimals", async () => {
  const p = await page({ tab: "nash" });
  await p.click("#pasteBtn");
  await p.fill("#pasteText", "0 -1 1\n1 0 -1\n-1 1 0\n\n0 1 -1\n-1 0 1\n1 -1 0");
  await p.click("#pasteApply");
  await p.click("#solveNash");
  const eq = await equilibria(p);
  assert.equal(eq.length, 1);
  assert.match(eq[0][1], /1\/3 \(0\.3333\).*1\/3 \(0\.3333\).*1\/3 \(0\.3333\)/);
  assert.equal(eq[0][3], "0, 0");
  await p.close();
});

test("Zero-sum value solves the game typed: both matrices, and says when it is not zero-sum", async () => {
  // Typed into the grid, a game that is not zero-sum: the column matrix is sent, and the
  // answer says what was solved.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "3", b0_0: "3", a0_1: "0", b0_1: "5", a1_0: "5", b1_0: "0", a1_1: "1", b1_1: "1" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.click("#solveZero");
  await p.waitForSelector("#nashOut h2");
  const text = await p.textContent("#nashOut");
  assert.match(text, /not zero-sum/);
  assert.doesNotMatch(text, /without the column player's matrix/);
  // Pasted, a zero-sum game (B = -A): its value, and no such note.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "0 -1 1\n1 0 -1\n-1 1 0\n\n0 1 -1\n-1 0 1\n1 -1 0");
  await q.click("#pasteApply");
  await q.click("#solveZero");
  await q.waitForSelector("#nashOut h2");
  assert.match(await q.textContent("#nashOut h2"), /Value 0/);
  assert.doesNotMatch(await q.textContent("#nashOut"), /not zero-sum/);
  // An uploaded .nfg that is not zero-sum: the same note.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/bos.nfg"));
  await r.click("#solveZero");
  await r.waitForSelector("#nashOut h2");
  assert.match(await r.textContent("#nashOut"), /not zero-sum/);
  await p.close(); await q.close(); await r.close();
});

test("an uploaded .nfg: the battle of the sexes has three equilibria", async () => {
  const p = await page({ tab: "nash" });
  await p.setInputFiles("#nfgFile", path.join(root, "examples/bos.nfg"));
  await p.click("#solveNash");
  const eq = await equilibria(p);
  assert.equal(eq.length, 3);
  await p.close();
});

test("a 2 x 2 game draws its best-reply diagram, lines and all", async () => {
  const p = await page({ tab: "nash", row: "2 0; 0 1", col: "1 0; 0 2" });
  await p.click("#solveNash");
  await p.waitForSelector("#plot svg");
  // Every stroked shape of the diagram, with the length of its box: the best replies are
  // drawn only if some of them have a visible extent.
  const shapes = await p.$$eval("#plot svg line, #plot svg polyline, #plot svg path", (els) =>
    els.map((e) => { const b = e.getBBox(); const s = getComputedStyle(e); return { w: b.width, h: b.height, stroke: s.stroke, width: parseFloat(s.strokeWidth) }; }));
  const visible = shapes.filter((s) => s.stroke !== "none" && s.width > 0 && s.w + s.h > 50);
  assert.ok(visible.length >= 2, `the best replies are drawn: ${JSON.stringify(shapes)}`);
  // And on the screen: the plot's pixels are not all background.
  const png = await (await p.$("#plot svg")).screenshot();
  const colours = await p.evaluate(async (b64) => {
    const img = new Image(); img.src = "data:image/png;base64," + b64; await img.decode();
    const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
    const g = c.getContext("2d"); g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let coloured = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60) coloured++;
    return coloured;
  }, png.toString("base64"));
  assert.ok(colours > 200, `coloured pixels in the diagram: ${colours}`);
  await p.close();
});

test("a full game of tic-tac-toe through clicks: the solver never loses", async () => {
  const p = await page({ tab: "play", game: "tictactoe", first: "you" });
  await p.waitForSelector("#grid-board");
  for (let turn = 0; turn < 9; turn++) {
    const verdict = await p.textContent("#verdict");
    if (verdict.includes("Game over")) break;
    const free = await p.$$("#grid-board button[aria-label^='play']");
    assert.ok(free.length > 0, "a free cell while the game goes on");
    // A different cell each game turn: the last free one, then the first, and so on.
    const cell = free[turn % 2 === 0 ? free.length - 1 : 0];
    await cell.click();
    // The board is marked busy while Nimbus thinks, and redrawn with its answer.
    await p.waitForFunction(() => document.querySelector("#grid-board") && !document.querySelector("#grid-board.thinking"));
  }
  const verdict = await p.textContent("#verdict");
  assert.match(verdict, /Game over/);
  assert.doesNotMatch(verdict, /you won/);
  // Undo takes back a move and the reply.
  const moves = new URLSearchParams(new URL(p.url()).hash.slice(1)).get("moves").split(" ").length;
  await p.click("#undo");
  await p.waitForFunction((n) => new URLSearchParams(location.hash.slice(1)).get("moves").split(" ").filter(Boolean).length === n - 2, moves);
  await p.close();
});

// Finished games, each side in turn: the verdict says who won from the user's side. The page
// once compared the user's side with "first" where its select says "you" or "nimbus", and
// congratulated a user who had lost.
for (const [game, first, moves, verdict] of [
  ["tictactoe", "you", "1 4 2 5 3", /you won!/],
  ["tictactoe", "you", "1 4 2 5 9 6", /you lost\./],
  ["tictactoe", "nimbus", "1 4 2 5 3", /you lost\./],
  ["tictactoe", "nimbus", "1 4 2 5 9 6", /you won!/],
  ["tictactoe", "you", "1 2 3 5 4 6 8 7 9", /a draw/],
  ["tictactoe", "nimbus", "1 2 3 5 4 6 8 7 9", /a draw/],
  ["connect4", "you", "1 2 1 2 1 2 1", /you won!/],
  ["connect4", "nimbus", "1 2 1 2 1 2 1", /you lost\./],
  ["connect4", "you", "1 2 1 2 1 2 3 2", /you lost\./],
  ["connect4", "nimbus", "1 2 1 2 1 2 3 2", /you won!/],
]) {
  test(`${game}, you ${first === "you" ? "first" : "second"}, after ${moves}: ${verdict.source}`, async () => {
    const p = await page({ tab: "play", game, first, moves });
    await p.waitForFunction(() => document.querySelector("#verdict") && /Game over/.test(document.querySelector("#verdict").textContent));
    const text = await p.textContent("#verdict");
    assert.match(text, verdict, text);
    await p.close();
  });
}

/// Holds every /api/solve answer back for `ms`, so that the page's waiting states can be seen.
async function slowSolves(p, ms) {
  await p.route("**/api/solve", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

test("play: your move shows at once, Nimbus thinks visibly, and a click meanwhile is answered", async () => {
  const p = await page({ tab: "play", game: "connect4", first: "you" });
  await p.waitForSelector("#grid-board");
  assert.match(await p.textContent("#verdict"), /You are X \(red\)\. .*Your move/);
  await slowSolves(p, 1500);
  await p.click("#grid-board button[data-move='4']");
  // Before any answer: the disc at the bottom of column 4, and a thinking state.
  const column = (c) => p.$$eval(`#grid-board button[data-move='${c}']`, (bs) => bs.map((b) => b.className));
  const four = await column(4);
  assert.equal(four[four.length - 1], "X");
  assert.equal(four.filter(Boolean).length, 1);
  assert.match(await p.textContent("#verdict"), /You played 4\. Nimbus is thinking/);
  assert.ok(await p.$("#grid-board.thinking"));
  // A second click while it thinks is not played, and the page says why.
  await p.click("#grid-board button[data-move='5']");
  assert.match(await p.textContent("#verdict"), /still thinking/);
  assert.deepEqual((await column(5)).filter(Boolean), []);
  // Its answer: two discs, and the user's turn again.
  await p.waitForFunction(() => /Nimbus played/.test(document.querySelector("#verdict").textContent));
  assert.equal((await p.$$("#grid-board button.X")).length + (await p.$$("#grid-board button.O")).length, 2);
  // Undo says what it is doing until the board is back.
  await p.click("#undo");
  assert.match(await p.textContent("#verdict"), /Taking back your last move/);
  await p.waitForFunction(() => !new URLSearchParams(location.hash.slice(1)).get("moves"));
  assert.equal((await p.$$("#grid-board button.X")).length, 0);
  await p.close();
});

test("play with the opening book: the first answers are exact, at once, and say where they came from", async () => {
  // Nimbus opens (a link with no move yet: Nimbus moves first, as New game does): its move and
  // the verdict on the position it leaves both come from the book (a search of either takes
  // minutes).
  const p = await page({ tab: "play", game: "connect4", first: "nimbus" });
  await p.waitForFunction(() => /Nimbus played/.test((document.querySelector("#verdict") || {}).textContent || ""));
  const opened = await p.textContent("#verdict");
  assert.match(opened, /Nimbus played 4\./, opened);
  assert.match(opened, /From here, for you: loss in \d+ plies \(score -1\)\. \(From Nimbus's opening book, without a search\.\)/, opened);
  // You open: the empty board's verdict comes from the book too.
  const q = await page({ tab: "play", game: "connect4", first: "you" });
  await q.waitForSelector("#grid-board");
  const empty = await q.textContent("#verdict");
  assert.match(empty, /From here, for you: win in \d+ plies \(score 1\)\. \(From Nimbus's opening book/, empty);
  await p.close(); await q.close();
});

test("play second: the page names your colour and explains an estimate", async () => {
  const p = await page({ tab: "play", game: "tictactoe", first: "nimbus", moves: "5" });
  await p.waitForSelector("#grid-board");
  assert.match(await p.textContent("#verdict"), /You are O \(blue\)\./);
  // An answer the server's time budget cut short (made so here: the real answer, marked
  // unproved) is shown as an estimate, in words.
  await p.route("**/api/solve", async (route) => {
    const real = await (await route.fetch()).json();
    real.exact = false;
    for (const m of real.scores || []) m.exact = false;
    await route.fulfill({ json: real });
  });
  await p.check("#showScores");
  await p.waitForSelector("#scoreRow .mono");
  const verdict = await p.textContent("#verdict");
  assert.match(verdict, /estimate for you from here: -?\d+ \(from a search that stopped early, not proved; above 0 favours you/);
  assert.match(await p.textContent("#scoreRow"), /~ marks an estimate from a search that stopped early/);
  assert.match(await p.textContent("#scoreRow .mono"), /~/);
  await p.close();
});

test("the score of every Connect Four column, on request", async () => {
  const p = await page({ tab: "play", game: "connect4", first: "you", moves: "4 4 4 4 3" });
  await p.waitForSelector("#grid-board");
  await p.check("#showScores");
  await p.waitForSelector("#scoreRow .mono", { timeout: 20000 });
  const text = await p.textContent("#scoreRow .mono");
  assert.equal(text.split(/\s+/).filter((t) => /^\d:$/.test(t)).length, 7, text);
  await p.close();
});

test("kayles 7 + nim 3: a winning move, clicked, leaves a P-position", async () => {
  const p = await page({ tab: "sg", expr: "kayles 7 + nim 3" });
  await p.waitForSelector("#outcome");
  assert.match(await p.textContent("#outcome"), /^N-position/);
  const moves = await p.$$("button.winning");
  assert.equal(moves.length, 3);
  await moves[0].click();
  await p.waitForFunction(() => document.querySelector("#outcome") && document.querySelector("#outcome").textContent.startsWith("P"));
  assert.match(await p.inputValue("#expr"), /kayles 6 \+ nim 3/);
  await p.close();
});

test("readable on a phone: nothing wider than the screen but the tables that scroll", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const p = await context.newPage();
  for (const fragment of ["", "#tab=cgt&kind=hb", "#tab=cgt&kind=dom&dom=........|........|........"]) {
    await p.goto(base + fragment);
    await p.reload();
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page width ${width} at '${fragment}'`);
  }
  await context.close();
});

test("the page asks nothing of the network but the server", async () => {
  const p = await browser.newPage();
  const hosts = new Set();
  p.on("request", (r) => hosts.add(new URL(r.url()).host));
  await p.goto(base + "#tab=sg&expr=nim+3");
  await p.waitForSelector("#outcome");
  assert.deepEqual([...hosts], [new URL(base).host]);
  await p.close();
});



test("a 2 x 3 game draws the upper envelope, and a degenerate game lists its components", async () => {
  const p = await page({ tab: "nash", row: "1 3 0; 2 0 3", col: "3 0 2; 0 3 2" });
  await p.click("#solveNash");
  await p.waitForSelector("#plot svg polyline");
  const text = await p.textContent("#plot svg");
  assert.match(text, /upper envelope/);
  assert.match(text, /t = 1\/3/);
  assert.match(text, /t = 2\/3/);
  await p.close();
  // The first two columns are copies: segments of equilibria.
  const q = await page({ tab: "nash", row: "1 1 0; 0 0 1; 0 0 0", col: "1 1 0; 0 0 1; 1 1 0" });
  await q.click("#solveNash");
  await q.waitForSelector("#components li");
  assert.match(await q.textContent("#components"), /extreme equilibria #1, #2/);
  await q.close();
});

test("Download .nfg writes the game in Gambit's format, and it reads back", async () => {
  const p = await page({ tab: "nash", row: "3 0; 5 1", col: "3 5; 0 1", rn: "C,D", cn: "C,D" });
  const [download] = await Promise.all([p.waitForEvent("download"), p.click("#saveNfg")]);
  const text = fs.readFileSync(await download.path(), "utf8");
  assert.match(text, /^NFG 1 R/);
  assert.match(text, /"C" "D"/);
  await p.setInputFiles("#nfgFile", { name: "game.nfg", mimeType: "text/plain", buffer: Buffer.from(text) });
  await p.click("#solveNash");
  const eq = await equilibria(p);
  assert.equal(eq.length, 1);
  assert.match(eq[0][1], /C: 0, D: 1/);
  await p.close();
});

/// How many pixels of a screenshot (PNG) are near `rgb`, counted in the page.
async function pixelsNear(p, png, rgb) {
  return p.evaluate(async ([b64, [r, g, b]]) => {
    const img = new Image(); img.src = "data:image/png;base64," + b64; await img.decode();
    const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
    const ctx = c.getContext("2d"); ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) < 60) n++;
    return n;
  }, [png.toString("base64"), rgb]);
}

/// Analyses what the partizan tab shows; its value and outcome letter once they are in.
async function cgtValue(p) {
  await p.click("#solveCgt");
  await p.waitForSelector("#cgtOutcome");
  await p.waitForSelector("#thermo svg");
  return [(await p.textContent("#cgtValue")).replace(/^Value\s*/, ""), (await p.textContent("#cgtOutcome"))[0]];
}

async function domSize(p, rows, cols) {
  await p.fill("#domRows", String(rows)); await p.locator("#domRows").blur();
  await p.fill("#domCols", String(cols)); await p.locator("#domCols").blur();
}

const RED = [192, 57, 43], BLUE = [31, 79, 168], YELLOW = [242, 194, 48], WALL = [31, 119, 180];

test("Domineering drawn on the board: every outcome, winning moves outlined and played", async () => {
  const p = await page({ tab: "cgt", kind: "dom" });
  // One row of two: only Right has a move.
  await domSize(p, 1, 2);
  assert.deepEqual(await cgtValue(p), ["-1", "R"]);
  assert.equal((await p.$$("#domBoard rect.win.R")).length, 1);
  assert.equal((await p.$$("#domBoard rect.win.L")).length, 0);
  assert.ok(await pixelsNear(p, await (await p.$("#domBoard")).screenshot(), RED) > 100, "Right's move outlined in red");
  assert.match(await p.textContent("#winsR"), /row 1, columns 1–2 → 0/);
  // The thermograph of -1, drawn: its mast in the walls' colour.
  assert.ok(await pixelsNear(p, await (await p.$("#thermo svg")).screenshot(), WALL) > 100, "the thermograph is drawn");
  // A column of two: Left's.
  await domSize(p, 2, 1);
  assert.deepEqual(await cgtValue(p), ["1", "L"]);
  assert.ok(await pixelsNear(p, await (await p.$("#domBoard")).screenshot(), BLUE) > 100, "Left's move outlined in blue");
  // The 2 x 2 square: the player to move wins; Left's move played leaves Left's column.
  await domSize(p, 2, 2);
  assert.deepEqual(await cgtValue(p), ["±1", "N"]);
  assert.equal((await p.$$("#domBoard rect.win.L")).length, 2);
  assert.equal((await p.$$("#domBoard rect.win.R")).length, 2);
  await p.click("#winsL button >> nth=0");
  await p.waitForSelector("#thermo svg");
  assert.deepEqual([await p.textContent("#cgtValue"), (await p.textContent("#cgtOutcome"))[0]], ["Value 1", "L"]);
  assert.equal((await p.$$("#domBoard rect.cell[aria-label$='taken']")).length, 2);
  // A board drawn cell by cell: a column of two beside a row of two is zero.
  await p.click("#domClear");
  await domSize(p, 2, 4);
  for (const [r, c] of [[0, 1], [1, 1], [1, 2], [1, 3]]) await p.click(`#domBoard rect[data-r='${r}'][data-c='${c}']`);
  assert.deepEqual(await cgtValue(p), ["0", "P"]);
  assert.match(await p.textContent("#cgtOut"), /no winning move[\s\S]*no winning move/);
  // The link holds the board: opened again, the same answer.
  const again = await page(Object.fromEntries(new URLSearchParams(new URL(p.url()).hash.slice(1))));
  await again.waitForSelector("#cgtOutcome");
  assert.equal(await again.textContent("#cgtOutcome"), await p.textContent("#cgtOutcome"));
  assert.equal((await again.$$("#domBoard rect.cell[aria-label$='taken']")).length, 4);
  await p.close(); await again.close();
});

test("Hackenbush drawn with clicks: every outcome, an edge rubbed out, a winning chop played", async () => {
  const p = await page({ tab: "cgt", kind: "hb" });
  const edge = async (colour, a, b) => {
    await p.check(`input[name=hbColour][value=${colour}]`);
    await p.click(`#hbBoard circle[data-x='${a[0]}'][data-y='${a[1]}']`);
    await p.click(`#hbBoard circle[data-x='${b[0]}'][data-y='${b[1]}']`);
  };
  // A blue edge on the ground: 1.
  await edge("B", [1, 0], [1, 1]);
  assert.deepEqual(await cgtValue(p), ["1", "L"]);
  assert.ok(await pixelsNear(p, await (await p.$("#hbBoard")).screenshot(), YELLOW) > 50, "the winning chop is marked");
  // A red one beside it: 0; Left's edge rubbed out: -1.
  await edge("R", [3, 0], [3, 1]);
  assert.deepEqual(await cgtValue(p), ["0", "P"]);
  await p.click("#hbBoard .hit[data-edge='0']");
  assert.deepEqual(await cgtValue(p), ["-1", "R"]);
  // Recoloured green by drawing it again: *.
  await edge("G", [3, 1], [3, 0]);
  assert.deepEqual(await cgtValue(p), ["*", "N"]);
  // A stalk blue then red above: 1/2. An edge in the air is drawn but does not count.
  await p.click("#hbClear");
  await edge("B", [2, 0], [2, 1]);
  await edge("R", [2, 1], [2, 2]);
  await edge("B", [6, 3], [6, 4]);
  assert.equal((await p.$$("#hbBoard line.edge[stroke-dasharray='4 6']")).length, 1);
  assert.deepEqual(await cgtValue(p), ["1/2", "L"]);
  assert.equal(await p.textContent("#winsL"), "the blue edge (2,0)–(2,1) → 0");
  assert.equal(await p.textContent("#winsR"), "");
  // Left's chop of the blue edge brings the red one down with it.
  await p.click("#winsL button >> nth=0");
  await p.waitForSelector("#thermo svg");
  assert.equal(await p.textContent("#cgtValue"), "Value 0");
  assert.equal((await p.$$("#hbBoard line.edge")).length, 0, "the chopped edge and the one above it are gone");
  await p.close();
});

test("a partizan expression: typed, analysed with Enter, a move played, an error shown", async () => {
  const p = await page({ tab: "cgt", kind: "expr" });
  for (const [expr, value, outcome] of [["toads 'TT..FF'", null, null], ["{1|-1} - {1|-1}", "0", "P"], ["1/2 + ^", "1/2^", "L"], ["-1 + *", "-1*", "R"], ["*", "*", "N"]]) {
    await p.fill("#cgtExpr", expr);
    if (value === null) {
      await p.press("#cgtExpr", "Enter");
      await p.waitForSelector("#thermo svg");
      continue;
    }
    assert.deepEqual(await cgtValue(p), [value, outcome], expr);
  }
  // The value up to infinitesimals, shown when it differs.
  assert.match(await p.textContent("#cgtOut .facts"), /^reduced form0stops/);
  await p.fill("#cgtExpr", "{1|-1}");
  await cgtValue(p);
  assert.match(await p.textContent("#cgtOut .facts"), /^stops/);
  await p.fill("#cgtExpr", "{3||2*|1*} + ^");
  await cgtValue(p);
  assert.match(await p.textContent("#cgtOut .facts"), /reduced form\{3\|\|2\|1\}/);
  // A winning move of a sum, clicked: the expression becomes the sum after it.
  await p.fill("#cgtExpr", "domineering '..|..' + toads 'T.F'");
  await cgtValue(p);
  const first = await p.$eval("#winsL button", (b) => b.textContent.split(" → ")[0]);
  await p.click("#winsL button >> nth=0");
  await p.waitForSelector("#thermo svg");
  assert.equal(await p.inputValue("#cgtExpr"), first);
  // A mistake: the error, where the answer goes.
  await p.fill("#cgtExpr", "domineering 'x'");
  await p.click("#solveCgt");
  await p.waitForSelector("#cgtOut .err");
  assert.match(await p.textContent("#cgtOut .err"), /domineering/);
  await p.close();
});

test("the best correlated equilibrium, from the grid, pasted and from a .nfg; perfect equilibria marked", async () => {
  // Aumann's chicken typed into the grid: 21/2 together, on three profiles.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "6", b0_0: "6", a0_1: "2", b0_1: "7", a1_0: "7", b1_0: "2", a1_1: "0", b1_1: "0" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.click("#solveCorrelated");
  await p.waitForSelector("#ceValue");
  assert.match(await p.textContent("#ceValue"), /best correlated equilibrium: 21\/2/);
  assert.equal((await p.$$("#distribution tr")).length, 4);
  // The payoffs drawn: three Nash equilibria (red), the correlated polygon, the best ringed.
  await p.waitForSelector("#plot svg circle[fill='#d62728']");
  assert.match(await p.textContent("#plotTitle"), /^Payoffs: feasible \(grey\), correlated equilibria/);
  assert.equal((await p.$$("#plot svg circle[fill='#d62728']")).length, 3);
  assert.equal((await p.$$("#plot svg polygon[fill='#9ecae1']")).length, 1);
  // The row player's best, and a coarse one.
  await p.selectOption("#ceObjective", "player:1");
  await p.check("#coarse");
  await p.click("#solveCorrelated");
  await p.waitForFunction(() => /coarse correlated equilibrium: 7/.test(document.querySelector("#ceValue")?.textContent || ""));
  await p.close();
  // Selten's game pasted: two equilibria, the second pair of strategies weakly dominated.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "1 0\n0 0\n\n1 0\n0 0");
  await q.click("#pasteApply");
  await q.check("#perfect");
  await q.click("#solveNash");
  const eq = await equilibria(q);
  assert.equal(eq.length, 2);
  // By their payoffs: (1, 1) on the first strategies, (0, 0) on the weakly dominated ones.
  const marks = Object.fromEntries(eq.map((row) => [row[3], row[4]]));
  assert.deepEqual(marks, { "1, 1": "yes", "0, 0": "no" }, JSON.stringify(eq));
  await q.click("#solveCorrelated");
  await q.waitForSelector("#ceValue");
  assert.match(await q.textContent("#ceValue"), /: 2$/);
  await q.close();
  // A .nfg file uploaded: the battle of the sexes.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/bos.nfg"));
  await r.click("#solveCorrelated");
  await r.waitForSelector("#ceValue");
  assert.match(await r.textContent("#ceValue"), /best correlated equilibrium: \d/);
  assert.ok((await r.$$("#distribution tr")).length >= 2);
  await r.close();
});

test("the tracing procedure: typed from the uniform prior and from one of its own, pasted with a bad prior, from a .nfg", async () => {
  // The stag hunt typed into the grid: from the uniform prior the safe hare (7, 7) ...
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "9", b0_0: "9", a0_1: "0", b0_1: "8", a1_0: "8", b1_0: "0", a1_1: "7", b1_1: "7" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.selectOption("#method", "tracing");
  await p.click("#solveNash");
  let eq = await equilibria(p);
  assert.equal(eq.length, 1);
  assert.equal(eq[0][3], "7, 7");
  assert.match(await p.textContent("#tracingNote"), /Traced from the prior .*1\/2, 1\/2.*best replies to it \(D, D\).*\(1 pivot\)/);
  // ... and from a prior that trusts the stag, the stag (9, 9).
  await p.fill("#prior", "0.9 0.1 0.9 0.1");
  await p.click("#solveNash");
  await p.waitForFunction(() => /9\/10/.test(document.querySelector("#tracingNote")?.textContent || ""));
  eq = await equilibria(p);
  assert.equal(eq.length, 1);
  assert.equal(eq[0][3], "9, 9");
  await p.close();
  // Pasted, with a prior of the wrong length: refused, saying why.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "9 0\n8 7\n\n9 8\n0 7");
  await q.click("#pasteApply");
  await q.selectOption("#method", "tracing");
  await q.fill("#prior", "1 0 1");
  await q.click("#solveNash");
  await q.waitForSelector("#nashOut .err");
  assert.match(await q.textContent("#nashOut .err"), /the prior has 3 probabilities/);
  await q.close();
  // The battle of the sexes from a .nfg: one equilibrium, pure.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/bos.nfg"));
  await r.selectOption("#method", "tracing");
  await r.click("#solveNash");
  eq = await equilibria(r);
  assert.equal(eq.length, 1);
  assert.match(eq[0][3], /^(2, 1|1, 2)$/);
  await r.close();
});

test("risk dominance: typed (the hare), pasted (three ranked), from a .nfg (a tie: both listed), refused for three players", async () => {
  // The stag hunt typed into the grid: the hare risk-dominates the stag.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "9", b0_0: "9", a0_1: "0", b0_1: "8", a1_0: "8", b1_0: "0", a1_1: "7", b1_1: "7" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.selectOption("#method", "risk-dominance");
  await p.click("#solveNash");
  let eq = await equilibria(p);
  assert.equal(eq.length, 1);
  assert.equal(eq[0][3], "7, 7");
  assert.match(await p.textContent("#nashOut"), /\(D, D\) risk-dominates \(C, C\).*bicentric prior \(1\/8 7\/8; 1\/8 7\/8\)/);
  await p.close();
  // Pasted: three strict equilibria, the largest risk-dominates both others.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "4 0 0\n0 3 0\n0 0 2\n\n4 0 0\n0 3 0\n0 0 2");
  await q.click("#pasteApply");
  await q.selectOption("#method", "risk-dominance");
  await q.click("#solveNash");
  eq = await equilibria(q);
  assert.equal(eq.length, 1);
  assert.equal(eq[0][3], "4, 4");
  assert.equal((await q.textContent("#nashOut")).match(/risk-dominates/g).length, 3);
  await q.close();
  // The battle of the sexes from a .nfg: equally risky, so neither, and both are listed.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/bos.nfg"));
  await r.selectOption("#method", "risk-dominance");
  await r.click("#solveNash");
  eq = await equilibria(r);
  assert.equal(eq.length, 2);
  assert.match(await r.textContent("#nashOut"), /neither of .* risk-dominates the other/);
  await r.close();
  // Three players: refused, saying why.
  const t = await page({ tab: "nash" });
  await t.setInputFiles("#nfgFile", path.join(root, "examples/2x2x2.nfg"));
  await t.selectOption("#method", "risk-dominance");
  await t.click("#solveNash");
  await t.waitForSelector("#nashOut .err");
  assert.match(await t.textContent("#nashOut .err"), /two-player game/);
  await t.close();
});

test("evolutionarily stable equilibria marked: typed, pasted and from a .nfg; refused for an asymmetric game", async () => {
  // Hawk–dove typed into the grid (prize 2, cost 4): only the even mix is stable.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "-1", b0_0: "-1", a0_1: "2", b0_1: "0", a1_0: "0", b1_0: "2", a1_1: "1", b1_1: "1" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.check("#ess");
  await p.click("#solveNash");
  const eq = await equilibria(p);
  assert.equal(eq.length, 3);
  const marks = Object.fromEntries(eq.map((row) => [row[3], row[4]]));
  assert.deepEqual(marks, { "0, 2": "no", "1/2, 1/2": "yes", "2, 0": "no" }, JSON.stringify(eq));
  assert.match(await p.textContent("#nashOut"), /ESS: both play the same x/);
  await p.close();
  // An asymmetric game pasted: refused, saying why.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "1 2\n0 1\n\n1 2\n0 1");
  await q.click("#pasteApply");
  await q.check("#ess");
  await q.click("#solveNash");
  await q.waitForSelector("#nashOut .err");
  assert.match(await q.textContent("#nashOut .err"), /symmetric games/);
  await q.close();
  // Rock–paper–scissors from a .nfg, with both refinements: the centre is perfect but only
  // neutrally stable, so not an ESS.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/rps.nfg"));
  await r.check("#perfect");
  await r.check("#ess");
  await r.click("#solveNash");
  const rps = await equilibria(r);
  assert.equal(rps.length, 1);
  assert.deepEqual(rps[0].slice(-2), ["yes", "no"]);
  await r.close();
  // Myerson's game from a .nfg, perfect and proper marked: (D, R) is perfect, not proper.
  const my = await page({ tab: "nash" });
  await my.setInputFiles("#nfgFile", path.join(root, "examples/myerson.nfg"));
  await my.check("#perfect");
  await my.check("#proper");
  await my.click("#solveNash");
  const myMarks = (await equilibria(my)).map((row) => row.slice(-2));
  assert.deepEqual(myMarks, [["yes", "yes"], ["yes", "no"], ["no", "no"]]);
  assert.match(await my.textContent("#nashOut"), /Proper: the limit of play/);
  await my.close();
});

test("the repeated game: typed, pasted and from a .nfg; no equilibrium; a bad discount", async () => {
  // The prisoner's dilemma of QuantEcon's example typed in, discount 9/10: four vertices,
  // exact, one of them (39/4, 3), and the folk-theorem picture.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "9", b0_0: "9", a0_1: "1", b0_1: "10", a1_0: "10", b1_0: "1", a1_1: "3", b1_1: "3" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.fill("#discount", "0.9");
  await p.click("#solveRepeated");
  await p.waitForSelector("#repeatedVertices");
  const rows = await p.$$eval("#repeatedVertices tr", (r) => r.slice(1).map((x) => [...x.cells].map((c) => c.textContent.trim())));
  assert.equal(rows.length, 4, JSON.stringify(rows));
  assert.ok(rows.some((r) => r[0] === "39/4" && r[1] === "3"), JSON.stringify(rows));
  await p.waitForSelector("#plotCard:not([hidden]) svg");
  await p.close();
  // Matching pennies pasted, discount 1/2: no pure-action equilibrium, said so.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "1 -1\n-1 1\n\n-1 1\n1 -1");
  await q.click("#pasteApply");
  await q.fill("#discount", "1/2");
  await q.click("#solveRepeated");
  await q.waitForSelector("#repeatedTitle");
  assert.match(await q.textContent("#repeatedTitle"), /No pure-action subgame-perfect equilibrium/);
  assert.equal(await q.$("#repeatedVertices"), null);
  await q.close();
  // The prisoner's dilemma from a .nfg, and a discount that is not one.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/pd.nfg"));
  await r.fill("#discount", "0.9");
  await r.click("#solveRepeated");
  await r.waitForSelector("#repeatedVertices");
  assert.match(await r.textContent("#repeatedVertices"), /-5\/9/);
  await r.fill("#discount", "1.5");
  await r.click("#solveRepeated");
  await r.waitForSelector("#nashOut .err");
  assert.match(await r.textContent("#nashOut .err"), /discount/);
  await r.close();
});

test("stochastic games: the example, a file, value iteration, a bad game", async () => {
  // The Big Match from the example button: exact values 1, 2, 0; the row player stops a third
  // of the time, the column player mixes evenly.
  const p = await page({ tab: "nash" });
  await p.click("#ssgExample");
  await p.click("#solveStochastic");
  await p.waitForSelector("#ssgStates");
  const states = async (pg) => pg.$$eval("#ssgStates tr", (r) => r.slice(1).map((x) => [...x.cells].map((c) => c.textContent.trim())));
  const rows = await states(p);
  assert.deepEqual(rows.map((r) => [r[0], r[1]]), [["match", "1"], ["won", "2"], ["lost", "0"]]);
  assert.equal(rows[0][2], "play 2/3, stop 1/3");
  assert.equal(rows[0][3], "left 1/2, right 1/2");
  assert.equal(rows[1][2], "(no choice)");
  assert.match(await p.textContent("#ssgSummary"), /^Exact values, by policy iteration/);
  // The same by value iteration.
  await p.selectOption("#ssgMethod", "value");
  await p.click("#solveStochastic");
  await p.waitForFunction(() => /value iteration/.test(document.querySelector("#ssgSummary")?.textContent || ""));
  assert.deepEqual((await states(p)).map((r) => r[1]), ["1", "2", "0"]);
  await p.close();
  // A game with an irrational value from a file: bounds, and the note saying so.
  const q = await page({ tab: "nash" });
  await q.setInputFiles("#ssgFile", path.join(root, "examples/quadratic.ssg"));
  await q.waitForFunction(() => document.querySelector("#ssgText").value.includes("state"));
  await q.click("#solveStochastic");
  await q.waitForSelector("#ssgStates");
  assert.match(await q.textContent("#ssgSummary"), /^Values between proven bounds/);
  assert.match((await states(q))[0][1], /….*≈ 1\.58257/);
  // Text that is not a game: the error, in the card.
  await q.fill("#ssgText", "discount 2\nstate s\n  1 1: 0 -> s\n");
  await q.click("#solveStochastic");
  await q.waitForSelector("#ssgOut .err");
  assert.match(await q.textContent("#ssgOut .err"), /discount/);
  await q.close();
});

test("learning dynamics: the replicator typed, on a pasted 3 x 3 simplex, fictitious play from a .nfg, a bad start", async () => {
  // Hawk–dove typed into the grid, the replicator from nine hawks in ten: half hawks at the
  // end, three rest points, the mix stable, and a time series drawn.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "-1", b0_0: "-1", a0_1: "2", b0_1: "0", a1_0: "0", b1_0: "2", a1_1: "1", b1_1: "1" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.selectOption("#dynRule", "replicator");
  await p.fill("#dynLength", "30");
  await p.fill("#dynStart", "9/10 1/10");
  await p.click("#runDynamics");
  await p.waitForSelector("#restPoints");
  const rows = await p.$$eval("#dynPoints tr", (r) => r.slice(1).map((x) => [...x.cells].map((c) => c.textContent.trim())));
  assert.equal(rows.length, 11);
  assert.equal(rows[0][1], "0.9000, 0.1000");
  assert.equal(rows[10][1], "0.5000, 0.5000");
  const rests = await p.$$eval("#restPoints tr", (r) => r.slice(1).map((x) => [...x.cells].map((c) => c.textContent.trim())));
  assert.deepEqual(rests.map((r) => [r[0], r[3]]), [["1, 0", "unstable"], ["0, 1", "unstable"], ["1/2, 1/2", "asymptotically stable"]]);
  await p.waitForSelector("#plot svg polyline");
  assert.equal(await p.textContent("#plotTitle"), "How play evolves");
  await p.close();
  // Rock–paper–scissors with wins worth 2, pasted: the simplex, its centre a filled (stable) disc.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "0 -1 2\n2 0 -1\n-1 2 0\n\n0 2 -1\n-1 0 2\n2 -1 0");
  await q.click("#pasteApply");
  await q.selectOption("#dynRule", "replicator");
  await q.click("#runDynamics");
  await q.waitForSelector("#plot svg circle");
  assert.equal(await q.textContent("#plotTitle"), "The simplex: trajectories and rest points");
  const fills = await q.$$eval("#plot svg circle", (c) => c.map((x) => x.getAttribute("fill")));
  assert.deepEqual(fills.sort(), ["#000000", "#ffffff", "#ffffff", "#ffffff"]);
  // The stable disc is at the triangle's centre: the mean of its corners.
  const centre = await q.$eval("#plot svg polygon", (t) => { const p = t.getAttribute("points").split(" ").map((xy) => xy.split(",").map(Number)); return [(p[0][0] + p[1][0] + p[2][0]) / 3, (p[0][1] + p[1][1] + p[2][1]) / 3]; });
  const disc = await q.$eval("#plot svg circle[fill='#000000']", (c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))]);
  assert.ok(Math.abs(disc[0] - centre[0]) < 1 && Math.abs(disc[1] - centre[1]) < 1, JSON.stringify([disc, centre]));
  await q.close();
  // Rock–paper–scissors from a .nfg under fictitious play: exact frequencies, near a third.
  const r = await page({ tab: "nash" });
  await r.setInputFiles("#nfgFile", path.join(root, "examples/rps.nfg"));
  await r.fill("#dynLength", "3000");
  await r.click("#runDynamics");
  await r.waitForSelector("#dynPoints");
  const fp = await r.$$eval("#dynPoints tr", (x) => x.slice(1).map((y) => [...y.cells].map((c) => c.textContent.trim())));
  assert.equal(fp[fp.length - 1][0], "3000");
  assert.match(fp[fp.length - 1][1], /^\d+\/\d+, \d+\/\d+, \d+\/\d+$/);
  await r.waitForSelector("#plot svg polyline");
  // A start of the wrong shape: refused, saying so.
  await r.fill("#dynStart", "1 2");
  await r.click("#runDynamics");
  await r.waitForSelector("#nashOut .err");
  assert.match(await r.textContent("#nashOut .err"), /the game needs 2/);
  await r.fill("#dynStart", "");
  await r.fill("#dynLength", "abc");
  await r.click("#runDynamics");
  await r.waitForSelector("#nashOut .err");
  assert.match(await r.textContent("#nashOut .err"), /rounds: give a whole number/);
  await r.close();
});

test("learning dynamics, the other rules: two populations on the square, best response's cycle, regret matching, the Moran process, mutation and logit, their errors", async () => {
  // Battle of the sexes typed, two populations: the unit square, two stable corners filled,
  // the mixed saddle open, five rest points with both populations' shares.
  const p = await page({ tab: "nash" });
  const cells = { a0_0: "2", b0_0: "1", a0_1: "0", b0_1: "0", a1_0: "0", b1_0: "0", a1_1: "1", b1_1: "2" };
  for (const [id, v] of Object.entries(cells)) await p.fill("#" + id, v);
  await p.selectOption("#dynRule", "replicator");
  await p.check("#dynTwo");
  await p.click("#runDynamics");
  await p.waitForSelector("#restPoints");
  const rests = await p.$$eval("#restPoints tr", (r) => r.slice(1).map((x) => [...x.cells].map((c) => c.textContent.trim())));
  assert.equal(rests.length, 5);
  assert.deepEqual(rests[4], ["2/3, 1/3; 1/3, 2/3", "2/3, 2/3", "yes", "unstable"]);
  await p.waitForSelector("#plot svg circle");
  assert.equal(await p.textContent("#plotTitle"), "The unit square: trajectories and rest points");
  const fills = await p.$$eval("#plot svg circle", (c) => c.map((x) => x.getAttribute("fill")));
  assert.deepEqual(fills.sort(), ["#000000", "#000000", "#ffffff", "#ffffff", "#ffffff"]);
  // Best response on the same game from the miscoordinated corner: a cycle of two.
  await p.uncheck("#dynTwo");
  await p.selectOption("#dynRule", "best-response");
  await p.fill("#dynStart", "1 0; 0 1");
  await p.fill("#dynLength", "20");
  await p.click("#runDynamics");
  await p.waitForSelector("#dynEnding");
  assert.match(await p.textContent("#dynEnding"), /From round 0, a cycle of 2/);
  // From a coordinated corner it settles at once.
  await p.fill("#dynStart", "1 0; 1 0");
  await p.click("#runDynamics");
  await p.waitForSelector("#dynEnding");
  assert.match(await p.textContent("#dynEnding"), /Settled at round 0 in the pure equilibrium \(C, C\)/);
  // Regret matching: a regret column of exact fractions and the joint play.
  await p.fill("#dynStart", "");
  await p.selectOption("#dynRule", "regret-matching");
  await p.fill("#dynLength", "5000");
  await p.click("#runDynamics");
  await p.waitForSelector("#dynJoint");
  const heads = await p.$$eval("#dynPoints tr th", (h) => h.map((x) => x.textContent));
  assert.equal(heads[heads.length - 1], "regret");
  const joint = await p.$$eval("#dynJoint td", (c) => c.map((x) => x.textContent));
  assert.equal(joint.length, 4);
  // The Moran process, three against two: exact fixation; without a population, refused.
  await p.selectOption("#dynRule", "moran");
  await p.fill("#dynLength", "");
  await p.click("#runDynamics");
  await p.waitForSelector("#nashOut .err");
  assert.match(await p.textContent("#nashOut .err"), /needs "population"/);
  await p.fill("#dynPopulation", "3 2");
  await p.click("#runDynamics");
  await p.waitForSelector("#dynFixation");
  const fix = await p.$$eval("#dynFixation tr", (r) => r.slice(1).map((x) => [...x.cells].map((c) => c.textContent.trim())));
  assert.equal(fix.length, 2);
  assert.match(fix[0][1], /^\d+\/\d+ ≈ 0\.\d{6}$/);
  // Mutation on a rule that has none: refused.
  await p.selectOption("#dynRule", "fictitious-play");
  await p.fill("#dynMutation", "0.1");
  await p.click("#runDynamics");
  await p.waitForSelector("#nashOut .err");
  assert.match(await p.textContent("#nashOut .err"), /mutation belongs to/);
  await p.close();
  // Rock–paper–scissors pasted: the replicator–mutator and the logit dynamics on the simplex
  // (trajectories, no rest points listed: a note says so), stochastic fictitious play.
  const q = await page({ tab: "nash" });
  await q.click("#pasteBtn");
  await q.fill("#pasteText", "0 -1 1\n1 0 -1\n-1 1 0\n\n0 1 -1\n-1 0 1\n1 -1 0");
  await q.click("#pasteApply");
  await q.selectOption("#dynRule", "replicator");
  await q.fill("#dynMutation", "0.05");
  await q.click("#runDynamics");
  await q.waitForSelector("#plot svg polyline");
  assert.equal(await q.textContent("#plotTitle"), "The simplex: trajectories and rest points");
  assert.match(await q.textContent("#dynTitle"), /replicator-mutator/);
  await q.fill("#dynMutation", "");
  await q.selectOption("#dynRule", "logit");
  await q.click("#runDynamics");
  await q.waitForSelector("#dynTitle");
  assert.match(await q.textContent("#dynTitle"), /logit dynamics/);
  await q.selectOption("#dynRule", "stochastic-fictitious-play");
  await q.fill("#dynLength", "200");
  await q.click("#runDynamics");
  await q.waitForSelector("#dynTitle");
  assert.match(await q.textContent("#dynTitle"), /stochastic fictitious play, 200 rounds/);
  const last = await q.$$eval("#dynPoints tr", (r) => r[r.length - 1].cells[0].textContent);
  assert.equal(last, "200");
  await q.close();
});
