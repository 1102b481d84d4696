// git checkpoint serve: the web page. Everything shown comes from notes and paths that may be
// hostile, so text goes into the page only as text nodes, never parsed as markup.
'use strict';

// The token came in the URL once; the HttpOnly cookie it set is what the page uses from now on.
if (new URLSearchParams(location.search).has('token')) history.replaceState(null, '', '/' + location.hash);

const $ = (id) => document.getElementById(id);

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === false || value == null) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child != null && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// Replace `node`'s children with `children` (nested arrays flattened, null and false left out).
function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
}

async function api(method, path, body) {
  const init = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (_) { /* not JSON */ }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

// `showChanges`: shows the open checkpoint's changes again, as chosen. `repository`: which
// directory the server acts on (GET /api/repository).
const state = { all: [], byId: new Map(), selected: null, ticked: [], said: new Map(), asking: new Set(), showChanges: null, repository: null };
const enc = encodeURIComponent;
const shortId = (hex) => (hex || '').slice(0, 7);
// As `list` shows a checkpoint: by its name, else its message.
const label = (c) => c.name || c.message || '(no message)';
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function localDay(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function age(iso) {
  const secs = (Date.now() - new Date(iso).getTime()) / 1000;
  if (!(secs >= 0)) return '';
  const steps = [[60, 'second', 1], [3600, 'minute', 60], [86400, 'hour', 3600], [Infinity, 'day', 86400]];
  for (const [limit, unit, size] of steps) if (secs < limit) return `${plural(Math.floor(secs / size), unit)} ago`;
  return '';
}

let toastTimer = 0;
function toast(text) {
  const node = $('toast');
  node.textContent = text;
  node.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => node.classList.remove('show'), 3500);
}

function notice(text, kind) {
  return el('div', { class: `notice ${kind || ''}`, role: kind === 'error' ? 'alert' : 'status' }, text);
}

// --- The timeline ---------------------------------------------------------------------

// Every checkpoint, 200 at a time (the most the API gives at once), newest first.
async function fetchAll() {
  const all = [];
  for (;;) {
    const before = all.length ? `&before=${encodeURIComponent(all[all.length - 1].id)}` : '';
    const page = await api('GET', `/api/checkpoints?limit=200${before}`);
    all.push(...page);
    if (page.length < 200) return all;
  }
}

async function load() {
  try {
    state.all = await fetchAll();
  } catch (err) {
    $('timeline').replaceChildren(notice(err.message, 'error'));
    return;
  }
  state.byId = new Map(state.all.map((c) => [c.id, c]));
  state.ticked = state.ticked.filter((id) => state.byId.has(id));
  fillSelect($('kind'), [...new Set(state.all.map((c) => c.kind))].sort(), (k) => k);
  fillSelect($('session'), [...new Set(state.all.map((c) => c.session).filter(Boolean))],
    (s) => `session ${s.slice(0, 12)}`);
  renderTimeline();
  if (!state.selected && location.hash.length > 1) {
    let id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (_) { /* keep it as it is */ }
    select(id);
  }
}

function fillSelect(select, values, text) {
  const chosen = select.value;
  select.replaceChildren(select.options[0]);
  for (const v of values) select.append(el('option', { value: v }, text(v)));
  select.value = values.includes(chosen) ? chosen : '';
}

function shown() {
  const q = $('q').value.trim().toLowerCase();
  const kind = $('kind').value;
  const session = $('session').value;
  return state.all.filter((c) => (!kind || c.kind === kind) && (!session || c.session === session) &&
    (!q || [c.id, c.message, c.name, c.kind, c.session, c.agent, c.commit, c.head && c.head.ref]
      .some((s) => s && String(s).toLowerCase().includes(q))));
}

function renderTimeline() {
  const list = shown();
  const nav = $('timeline');
  if (!list.length) {
    nav.replaceChildren(el('p', { class: 'empty' }, state.all.length ? 'No checkpoint matches.' : 'No checkpoints yet: git checkpoint save'));
    return;
  }
  // Grouped by day, then by agent session (in order of their newest checkpoint).
  const days = new Map();
  for (const c of list) {
    const day = localDay(new Date(c.created_at));
    if (!days.has(day)) days.set(day, new Map());
    const sessions = days.get(day);
    const key = c.session || '';
    if (!sessions.has(key)) sessions.set(key, []);
    sessions.get(key).push(c);
  }
  const groups = [];
  for (const [day, sessions] of days) {
    groups.push(el('h2', {}, day));
    for (const [session, cps] of sessions) {
      const agent = cps.find((c) => c.agent);
      groups.push(el('h3', {}, session ? `session ${session}${agent ? ` · ${agent.agent}` : ''}` : 'no session'));
      groups.push(el('ul', { class: 'cps' }, cps.map(row)));
    }
  }
  // A live update re-renders the timeline: whoever was moving through it keeps their place.
  const active = document.activeElement;
  const focusedRow = nav.contains(active) && active.closest('.cp-row');
  nav.replaceChildren(...groups);
  if (focusedRow) {
    const again = nav.querySelector(`.cp-row[data-id="${CSS.escape(focusedRow.dataset.id)}"] .${active.classList.contains('tick') ? 'tick' : 'open'}`);
    if (again) again.focus({ preventScroll: true });
  }
  $('compare').disabled = state.ticked.length !== 2;
}

// What the save's secret scan found: where, never the value (the note holds none).
const secretCount = (c) => (c.secrets ? (c.secrets.findings || []).length + (c.secrets.omitted || 0) : 0);

function secretsField(c) {
  const s = c.secrets;
  const places = (s.findings || []).map((f) => el('li', {}, `${f.path}${f.line ? ` line ${f.line}` : ''} (${f.rule})`));
  if (s.omitted) places.push(el('li', {}, `and ${s.omitted} more`));
  return el('div', { class: 'secrets' },
    el('p', {}, `${secretCount(c)} possible secret(s) in files beyond HEAD; git checkpoint push holds this checkpoint back (--allow-secrets sends it).`),
    el('ul', {}, ...places));
}

function row(c) {
  const stats = c.stats ? `+${c.stats.added} ~${c.stats.modified} -${c.stats.deleted}` : '';
  const time = new Date(c.created_at);
  return el('li', { class: `cp-row${c.id === state.selected ? ' selected' : ''}`, 'data-id': c.id },
    el('input', {
      type: 'checkbox', class: 'tick', 'aria-label': `tick ${c.id} to compare`, tabindex: -1,
      checked: state.ticked.includes(c.id), onchange: () => tick(c.id),
    }),
    el('button', { type: 'button', class: 'open', onclick: () => select(c.id), title: c.id },
      el('span', { class: 'time', title: c.created_at }, time.toLocaleTimeString()),
      el('span', { class: `kind ${c.kind}` }, c.kind),
      el('span', { class: 'stats' }, stats, c.pinned ? el('span', { class: 'pin', title: 'pinned' }, ' ★') : null),
      secretCount(c) ? el('span', { class: 'secrets-mark', title: `${secretCount(c)} possible secret(s): push holds it back` }, '⚠ secrets') : null,
      el('span', { class: 'label' }, label(c)),
      said(c)));
}

// --- What was said: the conversation kept with a checkpoint ------------------------------

const hasConversation = (c) => Boolean(c.conversation && c.conversation.format);
const turnText = (t) => (t.role === 'tool_call'
  ? `${t.tool || '?'} ${typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments || {})}`
  : t.text || '');
const clip = (text, n) => (text.length > n ? `${text.slice(0, n)}…` : text);

// Beside a row: the last prompt and the tool call that came next, fetched once per checkpoint.
function fillSaid(span, s) {
  span.replaceChildren(
    s.prompt ? el('span', { class: 'prompt', title: s.prompt.text }, `“${clip(s.prompt.text, 80)}”`) : null,
    s.next_tool ? el('span', { class: 'next-tool', title: turnText(s.next_tool) }, ` → ${clip(turnText(s.next_tool), 60)}`) : null);
}

function said(c) {
  if (!hasConversation(c)) return null;
  const span = el('span', { class: 'said', 'data-said': c.id });
  const known = state.said.get(c.id);
  if (known) fillSaid(span, known);
  else if (!state.asking.has(c.id)) {
    state.asking.add(c.id);
    api('GET', `/api/checkpoints/${enc(c.id)}/conversation?summary=true`).then((s) => {
      state.said.set(c.id, s);
      document.querySelectorAll(`[data-said="${CSS.escape(c.id)}"]`).forEach((n) => fillSaid(n, s));
    }).catch(() => { state.asking.delete(c.id); });
  }
  return span;
}

// In a checkpoint's view: the prompt, the tool call that came next, and every turn.
async function conversationInto(target, c) {
  let conv;
  try { conv = await api('GET', `/api/checkpoints/${enc(c.id)}/conversation`); } catch (err) { target.replaceChildren(notice(err.message, 'error')); return; }
  const turns = (conv.turns || []).map((t) => el('li', { class: `turn ${t.role}` },
    el('span', { class: 'who' }, t.role === 'tool_call' ? 'tool call' : t.role.replace('_', ' ')),
    el('span', { class: 'what' }, clip(turnText(t), 2000))));
  target.replaceChildren(
    el('h3', {}, 'Conversation'),
    el('dl', { class: 'meta' },
      el('dt', {}, 'prompt'), el('dd', { class: 'prompt' }, conv.prompt ? conv.prompt.text : '—'),
      el('dt', {}, 'then'), el('dd', { class: 'next-tool' }, conv.next_tool ? turnText(conv.next_tool) : '—')),
    turns.length
      ? el('details', {}, el('summary', {}, `${turns.length} turns (${conv.format})`), el('ol', { class: 'turns' }, ...turns))
      : el('details', {}, el('summary', {}, `${conv.format}, ${conv.bytes} bytes`), el('pre', {}, clip(typeof conv.content === 'string' ? conv.content : JSON.stringify(conv.content, null, 2), 20000))));
}

function tick(id) {
  state.ticked = state.ticked.includes(id) ? state.ticked.filter((t) => t !== id) : [...state.ticked, id].slice(-2);
  renderTimeline();
}

// --- A checkpoint -----------------------------------------------------------------------

async function select(id) {
  let c = state.byId.get(id);
  if (!c) {
    try { c = await api('GET', `/api/checkpoints/${enc(id)}`); } catch (err) { toast(err.message); return; }
  }
  state.selected = c.id;
  if (location.hash !== `#${c.id}`) history.replaceState(null, '', `#${c.id}`);
  document.body.classList.add('showing');
  renderTimeline();
  const older = state.all.filter((o) => o.id < c.id && o.worktree === c.worktree)[0];
  const detail = $('detail');
  const meta = el('dl', { class: 'meta' });
  const field = (name, value) => { if (value != null && value !== '') meta.append(el('dt', {}, name), el('dd', {}, value)); };
  field('id', el('span', { class: 'id' }, c.id));
  field('commit', el('span', { class: 'mono' }, c.commit));
  field('created', `${new Date(c.created_at).toLocaleString()} (${age(c.created_at)})`);
  field('kind', c.kind);
  field('name', c.name);
  field('message', c.message);
  field('branch', c.head && c.head.ref ? c.head.ref : 'detached HEAD');
  field('HEAD', c.head && c.head.commit ? el('span', { class: 'mono' }, shortId(c.head.commit)) : 'none (unborn branch)');
  field('worktree', c.worktree);
  field('session', c.session);
  field('agent', c.agent);
  field('index', c.index);
  // A plain directory has no HEAD: its counts are against an empty directory.
  const noHead = state.repository && state.repository.plain && !(c.head && c.head.commit);
  if (c.stats) field('files', `${c.stats.files} files; ${noHead ? 'since an empty directory (a plain directory has no HEAD)' : 'since HEAD'}: ${c.stats.added} added, ${c.stats.modified} modified, ${c.stats.deleted} deleted`);
  field('pinned', c.pinned ? 'yes' : 'no');
  if (secretCount(c)) field('secrets', secretsField(c));
  else if (c.secrets) field('secrets', 'none found');
  if (c.skipped && c.skipped.length) field('left out', c.skipped.map((s) => `${s.path} (${s.reason})`).join(', '));
  if (c.fetched) field('fetched', `from ${c.fetched.remote}`);
  if (c.meta && Object.keys(c.meta).length) field('meta', el('pre', {}, JSON.stringify(c.meta, null, 2)));

  const against = el('select', { 'aria-label': 'compare with', id: 'against' },
    older ? el('option', { value: 'previous' }, `changes since the previous checkpoint (${older.id})`) : null,
    el('option', { value: 'head' }, 'changes since its HEAD commit'),
    el('option', { value: 'worktree' }, 'differences from the working tree now'));
  const changes = el('div', { id: 'changes' });
  const showChanges = () => {
    const choice = against.value;
    if (choice === 'previous') diffInto(changes, `/api/checkpoints/${enc(older.id)}/diff?to=${enc(c.id)}`);
    else if (choice === 'head') diffInto(changes, `/api/checkpoints/${enc(c.id)}/diff?base=head`);
    // Against the working tree, each hunk can be taken back alone: its id names it.
    else diffInto(changes, `/api/checkpoints/${enc(c.id)}/diff`, c);
  };
  state.showChanges = showChanges;
  against.addEventListener('change', showChanges);
  fill(detail,
    el('button', { type: 'button', class: 'back', onclick: back }, '← Checkpoints'),
    el('h2', {}, label(c)),
    el('div', { id: 'outcome' }),
    el('div', { class: 'bar' },
      el('button', { type: 'button', class: 'primary', id: 'restore', onclick: () => restore(c) }, 'Restore…'),
      older ? el('button', { type: 'button', id: 'revert', title: `take back what changed from ${older.id} to this checkpoint, keeping later changes`, onclick: () => revertStep(older, c) }, 'Revert this step…') : null,
      el('button', { type: 'button', onclick: () => setPinned(c, !c.pinned) }, c.pinned ? 'Unpin' : 'Pin'),
      el('button', { type: 'button', class: 'danger', onclick: () => drop(c) }, 'Drop…')),
    meta,
    hasConversation(c) ? el('div', { id: 'conversation' }) : null,
    el('div', { class: 'bar' }, against),
    changes);
  if (hasConversation(c)) conversationInto($('conversation'), c);
  showChanges();
}

function back() {
  document.body.classList.remove('showing');
  const current = document.querySelector(`.cp-row[data-id="${CSS.escape(state.selected || '')}"] .open`);
  if (current) current.focus();
}

// `restoreFrom`: the diff is from that checkpoint to the working tree, and each hunk gets a
// button that restores it alone.
async function diffInto(target, path, restoreFrom) {
  target.replaceChildren(el('p', { class: 'empty' }, 'Loading the changes…'));
  let diff;
  try { diff = await api('GET', path); } catch (err) { target.replaceChildren(notice(err.message, 'error')); return; }
  renderDiff(target, diff, restoreFrom);
}

function renderDiff(target, diff, restoreFrom) {
  if (!diff.files.length) { target.replaceChildren(el('p', { class: 'empty' }, 'No differences.')); return; }
  const sections = fileSections(diff.files, splitPatch(diff.patch));
  const rows = diff.files.map((f, i) => el('tr', {},
    el('td', { class: `st-${f.status}` }, f.status),
    el('td', { class: 'path' }, el('a', { href: `#`, onclick: (e) => { e.preventDefault(); const s = document.getElementById(`file-${i}`); if (s) s.scrollIntoView(); } },
      f.old_path ? `${f.old_path} → ${f.path}` : f.path)),
    el('td', {}, f.binary ? el('span', { class: 'badge' }, 'binary') : [el('span', { class: 'n-add' }, `+${f.additions}`), ' ', el('span', { class: 'n-del' }, `-${f.deletions}`)])));
  const total = diff.files.reduce((n, f) => n + f.additions, 0);
  const removed = diff.files.reduce((n, f) => n + f.deletions, 0);
  fill(target,
    el('p', {}, `${plural(diff.files.length, 'file')} changed, ${total} insertions(+), ${removed} deletions(-)`),
    el('table', { class: 'files' }, el('tbody', {}, rows)),
    diff.patch_truncated ? notice('The patch is too large to show whole; it is cut.', 'warn') : null,
    sections.map((lines, i) => patchBlock(lines, i, diff.files[i], restoreFrom)));
}

// The patch's sections, one per file: git shows a change of type as two (a deletion and an
// addition), which belong to one file.
function fileSections(files, sections) {
  const grouped = [];
  let at = 0;
  for (const f of files) {
    if (at >= sections.length) break;
    const n = f.status === 'T' ? 2 : 1;
    grouped.push(sections.slice(at, at + n).flat());
    at += n;
  }
  return grouped;
}

function splitPatch(patch) {
  const sections = [];
  for (const line of (patch || '').split('\n')) {
    if (line.startsWith('diff --git ') || !sections.length) sections.push([]);
    sections[sections.length - 1].push(line);
  }
  if (sections.length) {
    const last = sections[sections.length - 1];
    if (last[last.length - 1] === '') last.pop();
  }
  return sections;
}

const MAX_LINES = 2000;
function patchBlock(lines, index, file, restoreFrom) {
  const pre = el('pre', { class: 'patch', id: `file-${index}`, tabindex: 0 });
  // The file's hunks, in the order of the patch's `@@` lines; one whose range is not that of
  // its line (it should not happen) gets no button rather than another hunk's.
  const hunks = (file && file.hunks) || [];
  const range = (h) => h.header.slice(0, h.header.indexOf(' @@') + 3);
  const line = (text, n) => {
    const h = restoreFrom && text.startsWith('@@') ? hunks[n] : null;
    if (!h || !text.startsWith(range(h))) return el('span', { class: lineClass(text) }, text);
    return el('span', { class: 'hunk' }, text, el('button', {
      type: 'button', class: 'restore-hunk', 'data-hunk': h.id,
      title: `write this hunk of ${file.path} back as checkpoint ${restoreFrom.id} has it; the rest of the file stays (undoable)`,
      onclick: (e) => restoreHunk(restoreFrom, file, h, e.currentTarget),
    }, 'Restore this hunk'));
  };
  const fill = (limit) => {
    let n = 0;
    pre.replaceChildren(...lines.slice(0, limit).map((text) => line(text, text.startsWith('@@') ? n++ : -1)));
    if (lines.length > limit) {
      pre.append(el('span', {}, el('button', { type: 'button', onclick: () => fill(Infinity) }, `Show ${lines.length - limit} more lines`)));
    }
  };
  fill(MAX_LINES);
  return pre;
}

function lineClass(line) {
  if (/^(diff --git |index |--- |\+\+\+ |new file|deleted file|old mode|new mode|similarity|rename |copy )/.test(line)) return 'head';
  if (line.startsWith('Binary files ') || line === 'GIT binary patch') return 'bin';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return '';
}

function compare() {
  const [a, b] = [...state.ticked].sort();
  if (!a || !b) return;
  state.selected = null;
  document.body.classList.add('showing');
  renderTimeline();
  const changes = el('div', { id: 'changes' });
  state.showChanges = null;
  fill($('detail'),
    el('button', { type: 'button', class: 'back', onclick: back }, '← Checkpoints'),
    el('h2', {}, 'Compare ', el('span', { class: 'id' }, a), ' → ', el('span', { class: 'id' }, b)),
    el('p', {}, label(state.byId.get(a)), ' → ', label(state.byId.get(b))),
    changes);
  diffInto(changes, `/api/checkpoints/${enc(a)}/diff?to=${enc(b)}`);
}

// --- Changing things ------------------------------------------------------------------

// The changes shown again (after something changed the working tree), if a checkpoint is open.
function showChangesAgain() {
  if (state.showChanges && $('changes')) state.showChanges();
}

// Restore one hunk of the difference between checkpoint `c` and the working tree: the server
// refuses it (and changes nothing) when that hunk is no longer there as it was shown.
async function restoreHunk(c, file, hunk, button) {
  button.disabled = true;
  try {
    const done = await api('POST', `/api/checkpoints/${enc(c.id)}/restore`, { hunks: [hunk.id] });
    showRestored(done, `Restored a hunk of ${file.path} from checkpoint ${done.target}`);
  } catch (err) {
    button.disabled = false;
    outcome(notice(err.message, 'error'));
    const box = $('outcome');
    if (box) box.scrollIntoView({ block: 'nearest' });
  }
  showChangesAgain();
  load();
}

function outcome(node) {
  const box = $('outcome');
  if (box) box.replaceChildren(node); else $('detail').prepend(node);
}

async function restore(c) {
  let plan;
  try { plan = await api('POST', `/api/checkpoints/${enc(c.id)}/restore`, { dry_run: true }); } catch (err) { outcome(notice(err.message, 'error')); return; }
  const dialog = $('confirm');
  const changes = [...plan.write.map((p) => ['write', p]), ...plan.delete.map((p) => ['delete', p]), ...plan.replaced_ignored.map((p) => ['replace ignored', p])];
  if (!changes.length) { outcome(notice(`The working tree already matches checkpoint ${c.id}: nothing to restore.`)); return; }
  const boxes = changes.map(([what, path]) => el('input', { type: 'checkbox', checked: true, value: path, 'data-what': what }));
  const go = el('button', { type: 'button', class: 'primary', id: 'confirm-restore' }, 'Restore');
  const cancel = el('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel');
  const count = () => { const n = boxes.filter((b) => b.checked).length; go.disabled = !n; go.textContent = n === boxes.length ? 'Restore' : `Restore ${plural(n, 'path')}`; };
  boxes.forEach((b) => b.addEventListener('change', count));
  fill(dialog,
    el('h2', { id: 'confirm-title' }, `Restore checkpoint ${c.id}?`),
    el('p', {}, `This would write ${plural(plan.write.length, 'file')} and delete ${plural(plan.delete.length, 'file')}. `,
      'The working tree as it is now is saved first as a checkpoint, so this can be undone.'),
    plan.head_moved ? notice('HEAD has moved since this checkpoint was taken; restore leaves HEAD and the branch alone.', 'warn') : null,
    el('ul', {}, changes.map(([what, path], i) => el('li', {}, el('label', {}, boxes[i], el('span', { class: `badge ${what === 'write' ? 'n-add' : 'n-del'}` }, what), el('span', { class: 'mono' }, path))))),
    el('div', { class: 'bar' }, go, cancel));
  go.addEventListener('click', async () => {
    const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
    const body = chosen.length === boxes.length ? {} : { paths: chosen };
    go.disabled = true;
    try {
      const done = await api('POST', `/api/checkpoints/${enc(c.id)}/restore`, body);
      dialog.close();
      showRestored(done, `Restored checkpoint ${done.target}`);
    } catch (err) {
      dialog.close();
      outcome(notice(err.message, 'error'));
    }
    showChangesAgain();
    load();
  });
  dialog.showModal();
  go.focus();
}

// Take back the step from `from` to `to` (what the agent did in it), keeping what changed
// since: a dry run first, then the confirmation; conflicts are refused by the server.
async function revertStep(from, to) {
  const path = `/api/checkpoints/${enc(from.id)}/revert`;
  let plan;
  try { plan = await api('POST', path, { to: to.id, dry_run: true }); } catch (err) { outcome(notice(err.message, 'error')); return; }
  const changes = [...plan.write.map((p) => ['write', p]), ...plan.delete.map((p) => ['delete', p])];
  if (!changes.length) { outcome(notice('Nothing to take back: the working tree no longer holds that step\'s change.')); return; }
  const dialog = $('confirm');
  const go = el('button', { type: 'button', class: 'primary', id: 'confirm-revert' }, 'Revert');
  const cancel = el('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel');
  fill(dialog,
    el('h2', { id: 'confirm-title' }, `Take back the step ${from.id} → ${to.id}?`),
    el('p', {}, `This would write ${plural(plan.write.length, 'file')} and delete ${plural(plan.delete.length, 'file')}; `,
      'changes made since that step stay. The working tree as it is now is saved first as a checkpoint, so this can be undone.'),
    el('ul', {}, changes.map(([what, p]) => el('li', {}, el('span', { class: `badge ${what === 'write' ? 'n-add' : 'n-del'}` }, what), ' ', el('span', { class: 'mono' }, p)))),
    el('div', { class: 'bar' }, go, cancel));
  go.addEventListener('click', async () => {
    go.disabled = true;
    try {
      const done = await api('POST', path, { to: to.id });
      dialog.close();
      showRestored(done, `Took back the step ${done.from} → ${done.to}`);
    } catch (err) {
      dialog.close();
      outcome(notice(err.message, 'error'));
    }
    showChangesAgain();
    load();
  });
  dialog.showModal();
  go.focus();
}

function showRestored(done, what) {
  const counts = `${plural(done.write.length, 'file')} written, ${plural(done.delete.length, 'file')} deleted`;
  const lines = [`${what}: ${counts}.`];
  if (done.safety) lines.push(` The state before is checkpoint ${done.safety}.`);
  const undo = el('button', { type: 'button', id: 'undo', onclick: () => step('undo') }, 'Undo');
  const redo = el('button', { type: 'button', id: 'redo', onclick: () => step('redo') }, 'Redo');
  outcome(el('div', { class: 'notice', role: 'status', id: 'restored' }, lines.join(''), el('div', { class: 'bar' }, undo, what.startsWith('Undid') ? redo : null)));
  undo.focus();
}

async function step(which) {
  try {
    const done = await api('POST', `/api/${which}`, {});
    showRestored(done, which === 'undo' ? `Undid: back to checkpoint ${done.target}` : `Redid: back to checkpoint ${done.target}`);
  } catch (err) {
    outcome(notice(err.message, 'error'));
  }
  showChangesAgain();
  load();
}

async function setPinned(c, pinned) {
  try {
    const now = await api(pinned ? 'PUT' : 'DELETE', `/api/checkpoints/${enc(c.id)}/pin`);
    state.byId.set(now.id, now);
    state.all = state.all.map((o) => (o.id === now.id ? now : o));
    select(now.id);
  } catch (err) { outcome(notice(err.message, 'error')); }
}

async function drop(c) {
  if (!confirm(`Drop checkpoint ${c.id}? Its commit stays until git gc runs.`)) return;
  try {
    await api('DELETE', `/api/checkpoints/${enc(c.id)}`);
    state.selected = null;
    history.replaceState(null, '', '/');
    $('detail').replaceChildren(notice(`Dropped checkpoint ${c.id}.`));
    document.body.classList.remove('showing');
  } catch (err) { outcome(notice(err.message, 'error')); }
  load();
}

async function saveNow() {
  try {
    const c = await api('POST', '/api/checkpoints', {});
    toast(`Checkpoint ${c.id}`);
  } catch (err) { toast(err.message); }
  load();
}

// --- Live updates and keys --------------------------------------------------------------

let reloadTimer = 0;
function live() {
  const source = new EventSource('/api/events');
  const dot = $('live');
  source.onopen = () => { dot.classList.add('on'); dot.title = 'live updates: on'; };
  source.onerror = () => { dot.classList.remove('on'); dot.title = 'live updates: reconnecting'; };
  const said = {
    saved: (d) => `saved ${d.id}`, restored: (d) => `restored ${d.target}`,
    dropped: (d) => `dropped ${plural(d.ids.length, 'checkpoint')}`, pruned: (d) => `pruned ${plural(d.ids.length, 'checkpoint')}`,
    pinned: (d) => `${d.pinned ? 'pinned' : 'unpinned'} ${d.id}`,
  };
  for (const [name, text] of Object.entries(said)) {
    source.addEventListener(name, (event) => {
      try { toast(text(JSON.parse(event.data))); } catch (_) { /* ignore */ }
      clearTimeout(reloadTimer);
      reloadTimer = setTimeout(load, 250);
    });
  }
}

function moveFocus(delta) {
  const buttons = [...document.querySelectorAll('#timeline .open')];
  if (!buttons.length) return;
  const at = buttons.indexOf(document.activeElement);
  const selected = buttons.findIndex((b) => b.closest('.cp-row').dataset.id === state.selected);
  const from = at >= 0 ? at : selected;
  const next = buttons[Math.max(0, Math.min(buttons.length - 1, from < 0 ? 0 : from + delta))];
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

document.addEventListener('keydown', (e) => {
  const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName) && e.target.type !== 'checkbox';
  if (e.key === 'Escape' && typing) { e.target.blur(); return; }
  if (typing || e.ctrlKey || e.metaKey || e.altKey || $('confirm').open) return;
  if (e.key === '/') { e.preventDefault(); $('q').focus(); }
  else if (e.key === 'j' || e.key === 'ArrowDown') { e.preventDefault(); moveFocus(1); }
  else if (e.key === 'k' || e.key === 'ArrowUp') { e.preventDefault(); moveFocus(-1); }
  else if (e.key === 'x') {
    const rowNode = document.activeElement && document.activeElement.closest('.cp-row');
    if (rowNode) {
      const id = rowNode.dataset.id;
      tick(id);
      const again = document.querySelector(`.cp-row[data-id="${CSS.escape(id)}"] .open`);
      if (again) again.focus();
    }
  } else if (e.key === 'r' && state.selected) { const c = state.byId.get(state.selected); if (c) restore(c); }
  else if (e.key === 'v' && $('revert')) { $('revert').click(); }
  else if (e.key === 'Escape') back();
});

$('q').addEventListener('input', renderTimeline);
$('kind').addEventListener('change', renderTimeline);
$('session').addEventListener('change', renderTimeline);
$('compare').addEventListener('click', compare);
$('save').addEventListener('click', saveNow);

// Which directory this server acts on, in the header: a plain directory above the one serve was
// started in is said as such (a restore rewrites all of it).
async function where() {
  try {
    state.repository = await api('GET', '/api/repository');
  } catch (_) {
    return;
  }
  const r = state.repository;
  const node = $('where');
  node.textContent = r.acting_on
    ? `acting on ${r.acting_on}, the directory above the one serve was started in`
    : r.directory;
  node.classList.toggle('above', !!r.acting_on);
  node.title = r.plain ? `a plain directory; its checkpoints are kept in ${r.store}` : 'the working tree';
}

where().then(load);
live();
