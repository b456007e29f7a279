"""The live display page's script (served inline by :func:`.server_display.display_page`).

The desk pushes the display's data when it changes (server-sent events, ``display/stream``): all of it, (an
event named ``table``) one table's line, or (``standings``, when a game ended) the standings' rows. Each table is drawn client-side as a mini-board in SVG: the hexes
(terrain colour, number token) once a round from ``display/boards.json`` -- a board is ~2 KB and never changes
within a round -- and from each push only what stands on it (``pieces``: buildings, roads, the robber), the
players in their colours with their VP, and the holders of Longest Road and Largest Army, in the event's
language (the push's ``labels``). So a pushed line is the pieces' few hundred bytes, not a board.

Everything from the desk goes into the page as text or SVG attributes (``textContent``, ``setAttribute``),
never as HTML, so a player named ``<script>`` is shown as those characters. After each update the page sets
``data-shown-at`` (epoch ms) on the table it changed and fires ``display:shown``: tests wait on these.

The screen never scrolls (a projector has no one to scroll it): up to ``MAX_TABLES`` tables share the grid, laid
out in the columns x rows that give each mini-board the most room; more tables, or more players than the
standings' box holds, are paged through by themselves every ``EVERY_S`` seconds (``?every=N`` in the address sets
it), saying which ("Tables 1–12 of 20"). Each turn of a page fires ``display:paged``.
"""

SCRIPT = r"""
<script>
let clock = null, clockAt = 0;
let labels = {paused: 'paused', time_up: 'Time!', table: 'Table {n}', vp_of: '{n} VP', terrains: {}}, lang = 'en';
let boards = {}, boardsRound = null, boardsAsked = null, columns = [];
const latest = {};  // table -> its last pushed line (drawn again once the boards arrive)
const SIZE = 10, SQ3 = Math.sqrt(3), SVGNS = 'http://www.w3.org/2000/svg';
const TERRAIN = {forest: '#217333', hills: '#bd6133', pasture: '#8ccc59', fields: '#edc74d', mountains: '#8c8c99',
                 desert: '#e6d69e', gold: '#f2b31a', sea: '#3373bf'};
const COLOUR = {red: '#d92626', blue: '#2659e6', white: '#f7f7f7', orange: '#ff8c1a', green: '#1aa640',
                brown: '#804d26'};
const WORDS = typeof PAGE_WORDS === 'undefined' ? {paging: {}, presets_ja: {}} : PAGE_WORDS;
const MAX_TABLES = 12, EVERY_S = Number(new URLSearchParams(location.search).get('every')) || 15;
let tablesPage = 0, standingsPage = 0;
function two(n) { return String(n).padStart(2, '0'); }
function tick() {
  const el = document.getElementById('clock');
  if (!clock) {  // not set yet: a line saying so, smaller than the digits ("--:--" looked like bars)
    const words = labels.clock_none || '';
    if (el.firstElementChild?.className === 'waiting' && el.textContent === words) return;  // (4 times a second)
    const waiting = document.createElement('span');
    waiting.className = 'waiting';
    waiting.textContent = words;
    el.replaceChildren(waiting);
    return;
  }
  const left = Math.max(0, Math.ceil(clock.left - (clock.running ? (performance.now() - clockAt) / 1000 : 0)));
  const digits = two(Math.floor(left / 60)) + ':' + two(left % 60);
  if (left <= 0 || clock.running) { el.textContent = left <= 0 ? labels.time_up : digits; return; }
  const state = document.createElement('span');  // "(paused)" on its own smaller line: the digits stay large
  state.className = 'state';
  state.textContent = lang === 'ja' ? '（' + labels.paused + '）' : ' (' + labels.paused + ')';
  el.replaceChildren(digits, state);
}
// --- one screen, no scrolling: the tables' grid and the pages -------------------------------------------------
function pageNote(what, first, last, n) {
  const w = (WORDS.paging[lang] || WORDS.paging.en || {})[what] || '{a}-{b} / {n}';
  return w.replace('{a}', first).replace('{b}', last).replace('{n}', n);
}
// The grid's shape for ``count`` tables: the columns x rows that give a mini-board the most room, and that room
// (px). A board is ~1.1 times as wide as high; its card also holds the heading, the players and the awards: about
// 12 % of the screen's height, 20 % where the card is under 16 em wide and the players go one under another.
function gridFor(count, width, height) {
  const em = innerHeight * 0.02, gap = innerHeight * 0.012;
  let best = {cols: 1, rows: count, side: -1};
  for (let cols = 1; cols <= count; cols++) {
    const rows = Math.ceil(count / cols);
    const w = (width - gap * (cols - 1)) / cols, h = (height - gap * (rows - 1)) / rows;
    const side = Math.min(w / 1.1, h - innerHeight * (w < 16 * em ? 0.2 : 0.12));
    if (side > best.side) best = {cols: cols, rows: rows, side: side};
  }
  return best;
}
function layoutTables() {
  const list = document.getElementById('tables'), items = [...list.children], n = items.length;
  // As many tables on a screen as keep each board at least a fifth of the screen high (read from the back of
  // the room), at most MAX_TABLES; the rest on the next pages.
  let per = Math.max(1, Math.min(n, MAX_TABLES));
  while (per > 1 && gridFor(per, list.clientWidth, list.clientHeight).side < innerHeight * 0.2) per -= 1;
  const pages = Math.max(1, Math.ceil(n / per));
  tablesPage %= pages;
  const first = tablesPage * per;
  items.forEach((li, i) => { const away = i < first || i >= first + per; if (li.hidden !== away) li.hidden = away; });
  const grid = gridFor(per, list.clientWidth, list.clientHeight);  // writes below only what changed: a write
  const cols = 'repeat(' + grid.cols + ', minmax(0, 1fr))', rows = 'repeat(' + grid.rows + ', minmax(0, 1fr))';
  if (list.style.gridTemplateColumns !== cols) list.style.gridTemplateColumns = cols;  // lays the page out again
  if (list.style.gridTemplateRows !== rows) list.style.gridTemplateRows = rows;
  const note = document.getElementById('tables-page');
  const text = pages > 1 ? pageNote('tables', first + 1, Math.min(n, first + per), n) : '';
  if (note.textContent !== text) note.textContent = text;
  if (document.body.dataset.tablesPage !== String(tablesPage)) document.body.dataset.tablesPage = tablesPage;
  return pages;
}
// The standings' type size and rows per page are measured only when the rows or the screen change (measuring
// lays the page out again: ~40 ms for 24 rows on a loaded machine); turning a page only hides other rows.
let standingsPer = 0, standingsFitted = false;
function fitStandings() {
  const box = document.getElementById('standings-box'), rows = [...document.getElementById('standings').children];
  const table = box.querySelector('table');
  rows.forEach(r => { r.hidden = false; });
  // A preset with many columns (CATAN Studio's nine): smaller type until every column fits, rather than cut.
  // The padding is in em, so the width scales with the type: one measurement gives the size, a second checks.
  table.style.fontSize = '2.4vh';
  for (let size = 2.4, tries = 0; table.scrollWidth > box.clientWidth && size > 1.5 && tries < 4; tries++) {
    size = Math.max(1.5, Math.min(size - 0.1, size * box.clientWidth / table.scrollWidth));
    table.style.fontSize = size.toFixed(2) + 'vh';
  }
  const rowHeight = rows.length ? rows[0].getBoundingClientRect().height : 0;
  const room = box.clientHeight - document.getElementById('columns').getBoundingClientRect().height;
  standingsPer = rowHeight ? Math.max(1, Math.floor(room / rowHeight)) : rows.length;
  standingsFitted = true;
}
function layoutStandings() {
  if (!standingsFitted) fitStandings();
  const rows = document.getElementById('standings').children, note = document.getElementById('standings-page');
  const per = standingsPer, pages = rows.length <= per ? 1 : Math.ceil(rows.length / per);
  standingsPage %= pages;
  const first = standingsPage * per;
  for (let i = 0; i < rows.length; i++) {
    const away = i < first || i >= first + per;
    if (rows[i].hidden !== away) rows[i].hidden = away;
  }
  const text = pages > 1 ? pageNote('standings', first + 1, Math.min(rows.length, first + per), rows.length) : '';
  if (note.textContent !== text) note.textContent = text;
  return pages;
}
function refit() { standingsFitted = false; layout(); }
function layout() { return [layoutTables(), layoutStandings()]; }
function turnPages() {
  const [tablePages, standingPages] = layout();
  if (tablePages < 2 && standingPages < 2) return;
  tablesPage += 1; standingsPage += 1;
  layout();
  document.dispatchEvent(new Event('display:paged'));
}
function shown(target) {
  target.dataset.shownAt = String(performance.timeOrigin + performance.now());
  document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1);
  document.dispatchEvent(new Event('display:shown'));
}
// --- the mini-board: axial hexes, pointy-top (docs/record-format.md) ---------------------------------------------
function centre(h) { return [SIZE * SQ3 * (h[0] + h[1] / 2), SIZE * 1.5 * h[1]]; }
function middle(hexes) {  // a corner is the middle of its three hexes, a side's middle that of its two
  const cs = hexes.map(centre);
  return [cs.reduce((s, c) => s + c[0], 0) / cs.length, cs.reduce((s, c) => s + c[1], 0) / cs.length];
}
function svg(name, attrs, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
const hexLayers = {};  // table -> its drawn hexes (cloned for each redraw)
function hexLayer(table, board) {
  if (hexLayers[table] && hexLayers[table].board === board && hexLayers[table].lang === lang) return hexLayers[table].g.cloneNode(true);
  const g = svg('g', {class: 'hexes'});
  for (const h of board.hexes) {
    const [x, y] = centre(h.at);
    const corners = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 30);
      corners.push((x + SIZE * Math.cos(a)).toFixed(2) + ',' + (y + SIZE * Math.sin(a)).toFixed(2));
    }
    const hex = svg('polygon', {points: corners.join(' '), fill: TERRAIN[h.terrain] || '#ccc', stroke: '#333',
                                'stroke-width': 0.4, class: 'hex', 'data-terrain': h.terrain});
    hex.appendChild(svg('title', {}, (labels.terrains || {})[h.terrain] || h.terrain));
    g.appendChild(hex);
    if (h.number) {
      g.appendChild(svg('circle', {cx: x, cy: y, r: 3.7, fill: '#fff8e1', stroke: '#333', 'stroke-width': 0.2}));
      g.appendChild(svg('text', {x: x, y: y + 1.5, 'text-anchor': 'middle', 'font-size': 4.2, class: 'number',
                                 fill: h.number === 6 || h.number === 8 ? '#c62828' : '#222'}, String(h.number)));
    }
  }
  hexLayers[table] = {board: board, lang: lang, g: g};
  return g.cloneNode(true);
}
function pieceLayer(pieces, players) {
  const g = svg('g', {class: 'pieces'});
  if (!pieces) return g;
  const colour = seat => COLOUR[(players[seat] || {}).color] || '#000';
  for (const [seat, side] of pieces.roads) {
    const [a, b] = side.map(centre), [mx, my] = middle(side);
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const ux = -(b[1] - a[1]) / len * SIZE * 0.38, uy = (b[0] - a[0]) / len * SIZE * 0.38;
    g.appendChild(svg('line', {x1: mx - ux, y1: my - uy, x2: mx + ux, y2: my + uy, stroke: colour(seat),
                               'stroke-width': 2, 'stroke-linecap': 'round', class: 'road', 'data-seat': seat}));
  }
  for (const [seat, kind, corner] of pieces.buildings) {
    const [x, y] = middle(corner);
    const shape = kind === 'city' ? svg('rect', {x: x - 2.5, y: y - 2.5, width: 5, height: 5})
                                  : svg('circle', {cx: x, cy: y, r: 2});
    for (const [k, v] of [['fill', colour(seat)], ['stroke', '#000'], ['stroke-width', 0.5], ['class', kind],
                          ['data-seat', seat]]) shape.setAttribute(k, v);
    g.appendChild(shape);
  }
  if (pieces.robber) {
    const [x, y] = centre(pieces.robber);
    const robber = svg('ellipse', {cx: x + 4.6, cy: y - 3.4, rx: 1.7, ry: 2.6, fill: '#222', class: 'robber'});
    robber.appendChild(svg('title', {}, labels.robber || 'Robber'));
    g.appendChild(robber);
  }
  return g;
}
function boardSvg(t) {
  const board = boards[t.table];
  if (!board) return null;
  const xs = [], ys = [];
  for (const h of board.hexes) { const [x, y] = centre(h.at); xs.push(x); ys.push(y); }
  const x0 = Math.min(...xs) - SIZE, y0 = Math.min(...ys) - SIZE;
  const box = [x0, y0, Math.max(...xs) + SIZE - x0, Math.max(...ys) + SIZE - y0].map(v => v.toFixed(1)).join(' ');
  const s = svg('svg', {viewBox: box, class: 'board', role: 'img'});
  s.appendChild(svg('title', {}, t.text || ''));
  s.appendChild(hexLayer(t.table, board));
  s.appendChild(pieceLayer(t.pieces, t.players));
  return s;
}
function tableItem(t) {
  const li = document.createElement('li');
  li.dataset.table = t.table;
  li.dataset.events = t.events;
  const head = document.createElement('h3');
  head.textContent = labels.table.replace('{n}', t.table) + (t.finished ? ' — ' + (labels.finished || '') : '');
  li.appendChild(head);
  const drawn = boardSvg(t);
  if (drawn) li.appendChild(drawn);
  const players = document.createElement('ul');
  players.className = 'players';
  for (const p of t.players) {
    const row = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = COLOUR[p.color] || '#000';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = p.name;
    const vp = document.createElement('span');
    vp.className = 'vp';
    vp.textContent = p.vp === null || p.vp === undefined ? '' : labels.vp_of.replace('{n}', p.vp);
    row.append(swatch, name, vp);
    players.appendChild(row);
  }
  li.appendChild(players);
  const awards = document.createElement('p');
  awards.className = 'awards';
  const colon = lang === 'ja' ? '：' : ': ';
  awards.textContent = [['longest_road', t.longest_road], ['largest_army', t.largest_army]]
    .filter(([, who]) => who).map(([what, who]) => labels[what] + colon + who).join(lang === 'ja' ? '　' : ' · ');
  li.appendChild(awards);
  return li;
}
function showTable(t) {
  latest[t.table] = t;
  const item = tableItem(t);
  const old = document.querySelector('#tables > li[data-table="' + Number(t.table) + '"]');
  if (old) { item.hidden = old.hidden; old.replaceWith(item); }
  else { document.getElementById('tables').appendChild(item); layoutTables(); }
  shown(item);
}
function askBoards(round) {
  if (boardsAsked === round) return;
  boardsAsked = round;
  fetch('display/boards.json', {cache: 'no-store'}).then(r => r.json()).then(b => {
    boards = b.boards; boardsRound = b.round;
    for (const key in hexLayers) delete hexLayers[key];
    for (const t of Object.values(latest)) showTable(t);
  }).catch(() => { boardsAsked = null; });  // the desk restarting: the next push asks again
}
function show(d) {
  labels = d.labels || labels; lang = d.lang || 'en';
  clock = d.clock; clockAt = performance.now(); tick();
  document.getElementById('clock-note').textContent = d.clock_note || '';
  document.getElementById('round').textContent = d.round;
  document.documentElement.lang = lang;  // the organiser may switch the language while the page is open
  const [before, after] = (labels.round_of || (labels.round || '') + ' {n}').split('{n}');  // 第2ラウンド / round 2
  document.getElementById('round-word').textContent = before;
  document.getElementById('round-after').textContent = after || '';
  document.getElementById('preset').textContent = lang === 'ja' ? (WORDS.presets_ja[d.preset] || d.preset) : d.preset;
  const [standingsTitle, tablesTitle] = document.querySelectorAll('h2');  // the page's only two headings
  standingsTitle.textContent = labels.standings || '';
  tablesTitle.textContent = labels.tables || '';
  document.getElementById('columns').replaceChildren(...(d.columns || []).map(c => {
    const th = document.createElement('th'); th.textContent = c; return th;
  }));
  columns = d.columns || [];
  drawStandings(d.standings);
  for (const key in latest) delete latest[key];
  for (const t of d.tables) latest[t.table] = t;
  const items = d.tables.map(tableItem);
  document.getElementById('tables').replaceChildren(...items);
  document.getElementById('byes').textContent = d.byes || '';
  layout();
  if (d.round !== boardsRound) askBoards(d.round);
  const at = String(performance.timeOrigin + performance.now());
  for (const item of items) item.dataset.shownAt = at;
  shown(document.body);
}
function drawStandings(rows) {
  const body = document.getElementById('standings'), standings = JSON.stringify([columns, rows]);
  if (body.dataset.drawn === standings) return false;  // most pushes (the clock, a table) leave them as they were
  body.replaceChildren(...rows.map(row => {
    const tr = document.createElement('tr');
    for (const cell of row) { const td = document.createElement('td'); td.textContent = cell; tr.appendChild(td); }
    return tr;
  }));
  body.dataset.drawn = standings;
  standingsFitted = false;
  return true;
}
function showStandings(d) {  // a game ended: the standings alone (its table's line comes as any table's)
  if (drawStandings(d.standings)) { layoutStandings(); shown(document.getElementById('standings')); }
}
async function poll() {
  try { show(await (await fetch('display.json', {cache: 'no-store'})).json()); }
  catch (e) { /* the desk restarting: the next second tries again */ }
}
if (window.EventSource) {
  const source = new EventSource('display/stream');  // reconnects by itself
  source.onmessage = e => show(JSON.parse(e.data));
  source.addEventListener('table', e => showTable(JSON.parse(e.data)));
  source.addEventListener('standings', e => showStandings(JSON.parse(e.data)));
} else {
  setInterval(poll, 1000);
}
setInterval(tick, 250);
setInterval(turnPages, EVERY_S * 1000);
addEventListener('resize', refit);
document.fonts.addEventListener('loadingdone', refit);  // the Japanese font arriving makes rows taller
layout();
</script>
"""
