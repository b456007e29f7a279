"""The desk page's script (served inline by :func:`.server_display.desk_page`): the page follows the floor by itself.

The organiser had to reload the page to see a result waiting for a confirm or the clock (session 16's trial). The
page now listens to the live display's own stream (``display/stream``, :mod:`.server_push`: no second push
mechanism) and, when something the page shows may have changed -- anything beyond a table's game (the clock, the
seating, the round, the language), the standings (a result entered or corrected), a table's game starting or ending
-- reads the desk page again and puts in what changed. A part the organiser is typing in (a focused field, or a
field changed from what the page gave: the clock's minutes, a correction's numbers and reason, the settings) is
kept as typed, and only the parts beside it are brought up to date (each part has an ``id``). A table's game line
is put in straight from the stream (its ``text``), and the clock counts down between readings, as the display's.
What the display's stream does not say -- a tablet joining, a code issued elsewhere (the command line, another
desk page) -- the page reads every ``EVERY_S`` seconds (5; ``/desk?every=N``: N), as it does anything else.

Every text comes from the desk's own page (parsed with ``DOMParser``, moved in with ``importNode``: no HTML is
built here) or goes in with ``textContent``. After each update the page sets ``data-updates`` on ``<html>`` and
fires ``desk:shown``: tests wait on these. Addresses are made from ``location.origin``: a page opened with the
password in its address (``http://desk:PW@host/desk``) cannot ``fetch`` a relative one in Chromium.
"""

SCRIPT = r"""<script id=desk-script>
(() => {
const BASE = location.origin + location.pathname.replace(/[^/]*$/, '');
const EVERY_S = Number(new URLSearchParams(location.search).get('every')) || 5;
let clock = null, clockAt = 0, said = {}, asking = false, again = false;
const known = {};  // table -> whether its game has started and ended, as the page last read them
function readClock() {
  const el = document.getElementById('clock-text');
  if (!el) return;
  const d = JSON.parse(el.dataset.clock || '{}');
  clock = d.clock || null; said = d; clockAt = performance.now();
}
function two(n) { return String(n).padStart(2, '0'); }
function tick() {
  const el = document.getElementById('clock-text');
  if (!el || !clock) return;
  const left = Math.max(0, Math.ceil(clock.left - (clock.running ? (performance.now() - clockAt) / 1000 : 0)));
  let text = two(Math.floor(left / 60)) + ':' + two(left % 60);
  if (left <= 0) text = said.time_up;
  else if (!clock.running) text += said.lang === 'ja' ? '（' + said.paused + '）' : ' (' + said.paused + ')';
  if (el.textContent !== text) el.textContent = text;
}
function changedField(f) {
  if (f.type === 'hidden') return false;
  if (f.type === 'checkbox' || f.type === 'radio') return f.checked !== f.defaultChecked;
  if (f.tagName === 'SELECT') return [...f.options].some(o => o.selected !== o.defaultSelected);
  return f.value !== f.defaultValue;
}
function busy(el) {  // the organiser is typing here: a focused field, or one changed from what the page gave
  if (el.matches('details[open]') || el.querySelector('details[open]')) return true;  // (or opened a folded part)
  const focus = document.activeElement;
  if (focus && focus !== document.body && el.contains(focus) && focus.matches('input, select, textarea')) return true;
  return [...el.querySelectorAll('input, select, textarea')].some(changedField);
}
function update(old, fresh) {  // old becomes fresh, but for the parts the organiser is typing in
  if (old.isEqualNode(fresh)) return;
  if (!busy(old)) { old.replaceWith(document.importNode(fresh, true)); return; }
  for (const name of fresh.getAttributeNames()) old.setAttribute(name, fresh.getAttribute(name));
  const mine = {};
  for (const c of old.children) if (c.id) mine[c.id] = c;
  let next = null;  // fresh parts new to the page go before the part that follows them
  const parts = [...fresh.children].filter(c => c.id);
  for (let i = parts.length - 1; i >= 0; i--) {
    const f = parts[i], o = mine[f.id];
    if (o) { delete mine[f.id]; update(o, f); next = document.getElementById(f.id); }
    else { const n = document.importNode(f, true); old.insertBefore(n, next && next.parentNode === old ? next : null); next = n; }
  }
  for (const id in mine) if (!busy(mine[id])) mine[id].remove();  // gone from the desk (a part typed in stays)
}
function shown() {
  const root = document.documentElement;
  root.dataset.updates = String(Number(root.dataset.updates || 0) + 1);
  document.dispatchEvent(new Event('desk:shown'));
}
async function refresh() {
  if (asking) { again = true; return; }
  asking = true;
  try {
    const answer = await fetch(BASE + 'desk', {cache: 'no-store', credentials: 'same-origin'});
    if (answer.ok) {
      const page = new DOMParser().parseFromString(await answer.text(), 'text/html');
      document.title = page.title;
      document.documentElement.lang = page.documentElement.lang;
      update(document.body, page.body);
      readClock(); tick();
      shown();
    }
  } catch (e) { /* the desk restarting: the stream's next message asks again */ }
  asking = false;
  if (again) { again = false; refresh(); }
}
function state(t) { return (t.pieces !== null && t.pieces !== undefined) + '|' + Boolean(t.finished); }
function table(t) {  // one table's game changed: its line at once; the page again when it started or ended
  const cell = document.getElementById('game-' + Number(t.table));
  if (cell && t.pieces && cell.textContent !== (t.text || '')) { cell.textContent = t.text || ''; shown(); }
  if (known[t.table] !== state(t)) { known[t.table] = state(t); refresh(); }
}
readClock();
if (window.EventSource) {
  const source = new EventSource(BASE + 'display/stream');  // the display's own stream; reconnects by itself
  source.onmessage = e => { for (const t of JSON.parse(e.data).tables || []) known[t.table] = state(t); refresh(); };
  source.addEventListener('table', e => table(JSON.parse(e.data)));
  source.addEventListener('standings', () => refresh());
}
setInterval(tick, 250);
setInterval(refresh, EVERY_S * 1000);  // what the stream does not say: a tablet joining, a code issued elsewhere
})();
</script>"""
