// The checker page: the problem list, a problem's statement (markdown with
// KaTeX math), the editor, Run and Submit, the results, the traced program
// and pictures of the sharding. The learner's code runs only in a module
// worker (sandbox_worker.js) that traces it; the page's judge, a worker of
// its own (judge_worker.js, so the page never freezes), rebuilds the
// programs it sends, runs them on its own devices and computes every
// verdict. Every text of the page is built as elements (dom.js, report.js);
// only the project's own statements are HTML.

import 'katex/dist/katex.min.css';
import './cases.css';
import './pictures.css';
import './timeline.css';
import katex from 'katex';
import { marked } from 'marked';
import { Judge } from './judge_client.js';
import { myInputSection } from './my_input.js';
import { statusText } from './pyodide_sources.js';
import { leavePlayground, showPlayground } from './playground.js';
import { h, markup } from './dom.js';
import { createEditor, setText } from './editor.js';
import { LANGUAGE_NAMES, LANGUAGES, PROBLEMS, problemById } from './problems.js';
import { renderReport } from './report.js';
import { splitter } from './splitter.js';

const TIME_LIMIT_MS = 10000;
const main = document.getElementById('main');

if (!globalThis.crossOriginIsolated) {
  const notice = document.getElementById('notice');
  notice.hidden = false;
  notice.textContent =
    'This page is not cross-origin isolated, so SharedArrayBuffer is missing: ShardLab runs the 8 devices on one ' +
    'worker with the lockstep executor (same results, no parallel speed-up). Serve it with ' +
    'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp for 8 device threads.';
}
document.getElementById('runtime').textContent = globalThis.crossOriginIsolated ? '8 devices: Web Worker threads' : '8 devices: lockstep worker';

// The theme: the system's (auto) unless the toggle chose light or dark; kept in localStorage.
const THEMES = ['auto', 'light', 'dark'];
const themeKey = 'shardlab.theme';
function applyTheme(theme) {
  if (theme === 'auto') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  const button = document.getElementById('theme');
  button.textContent = `Theme: ${theme}`;
  button.setAttribute('aria-label', `Colour theme: ${theme} (change)`);
}
let theme = THEMES.includes(localStorage.getItem(themeKey)) ? localStorage.getItem(themeKey) : 'auto';
applyTheme(theme);
document.getElementById('theme').onclick = () => {
  theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
  localStorage.setItem(themeKey, theme);
  applyTheme(theme);
};

/** Markdown with $inline$ and $$display$$ math rendered by KaTeX, as HTML: only for the project's own statement.md files. */
function renderMarkdown(md) {
  const math = [];
  const protect = (tex, display) => {
    math.push(katex.renderToString(tex, { displayMode: display, throwOnError: false }));
    return `@@MATH${math.length - 1}@@`;
  };
  const text = md.replace(/\$\$([\s\S]+?)\$\$/g, (_, t) => protect(t, true)).replace(/\$([^$\n]+?)\$/g, (_, t) => protect(t, false));
  return marked.parse(text).replace(/@@MATH(\d+)@@/g, (_, i) => math[Number(i)]);
}

const solvedKey = (id) => `shardlab.solved.${id}`;
const codeKey = (id, lang) => `shardlab.code.${id}.${lang}`;

// Python's sandbox starts Pyodide as soon as a problem opens in Python; its state shows beside the buttons.
let pythonStatus = { stage: '' };
const judge = new Judge((status) => {
  pythonStatus = status;
  const el = document.getElementById('python-status');
  if (el) el.textContent = statusText(status);
});

function template(p, lang) {
  if (lang === 'python') {
    const keys = Object.keys(p.outputs).map((k) => `"${k}": ...`).join(', ');
    return `import jax\nimport jax.numpy as jnp\nfrom jax.sharding import AxisType, NamedSharding, PartitionSpec as P\n\n\ndef ${p.functionName}(${p.args.join(', ')}):\n    # return {${keys}}\n    ...\n`;
  }
  return `import * as sl from 'shardlab';\nconst { P, lax, np, nn } = sl;\n\nexport default function solve(${p.args.join(', ')}) {\n  // return { ${Object.keys(p.outputs).join(', ')} };\n}\n`;
}

/** The list's groups, in order (each problem names its topic). */
// The topics, in the order their first problems are listed (problems/index.js).
const TOPICS = [...new Set(PROBLEMS.map((p) => p.topic))];

// The problem list: one table per topic (difficulty, a mark on the solved
// ones), and a filter on the titles, ids, topics and difficulties as one types.
function showList() {
  const solved = (p) => Boolean(localStorage.getItem(solvedKey(p.id)));
  const row = (p) =>
    h(
      'tr',
      { 'data-search': `${p.title} ${p.id} ${p.topic} ${p.difficulty}`.toLowerCase() },
      h('td', {}, solved(p) && h('span', { class: 'pass', title: 'solved' }, '✓')),
      h('td', {}, h('a', { href: `#/problem/${p.id}` }, p.title)),
      h('td', {}, p.difficulty),
    );
  const groups = TOPICS.map((topic) => {
    const problems = PROBLEMS.filter((p) => p.topic === topic);
    const head = h('thead', {}, h('tr', {}, h('th', {}, h('span', { class: 'sr-only' }, 'Solved')), h('th', {}, 'Problem'), h('th', {}, 'Difficulty')));
    const count = `${problems.filter(solved).length} of ${problems.length} solved`;
    return h('section', { class: 'topic' }, h('h2', {}, topic, h('span', { class: 'count' }, ` ${count}`)), h('table', { class: 'list' }, head, h('tbody', {}, problems.map(row))));
  });
  const none = h('p', { id: 'no-match', hidden: '' }, 'No problem matches the filter.');
  const filter = h('input', { id: 'filter', type: 'search', placeholder: 'Filter: vmap, Autodiff, Hard…', 'aria-label': 'Filter problems' });
  filter.oninput = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const section of groups) {
      const rows = [...section.querySelectorAll('tbody tr')];
      for (const r of rows) r.hidden = !words.every((w) => r.dataset.search.includes(w));
      section.hidden = rows.every((r) => r.hidden);
    }
    none.hidden = groups.some((g) => !g.hidden);
  };
  const playground = h('p', {}, 'Or try anything on the 8 devices in the ', h('a', { href: '#/playground' }, 'playground'), '.');
  main.replaceChildren(h('h1', {}, 'Problems'), playground, filter, none, ...groups);
}

function showProblem(p, lang) {
  if (lang === 'python') judge.warm();
  const examples = p.examples.map((e, i) =>
    h('details', {}, h('summary', {}, `Example ${i + 1}`), h('pre', {}, `input: ${JSON.stringify(e.input)}\nexpected: ${JSON.stringify(e.expected)}`)),
  );
  const hints = p.hints[lang].map((hint, i) => h('details', { class: 'hint' }, h('summary', {}, `Hint ${i + 1}`), h('p', {}, hint)));
  const reqs = p.requirements.map((r) => h('li', {}, r.text));
  const statement = h('section', { class: 'statement', id: 'statement' });
  // The one HTML string of the page: the statement is the project's own markdown, not the learner's, and markup() strips anything active.
  statement.append(markup(renderMarkdown(p.statements[lang])));
  statement.append(h('h2', {}, 'Examples'), ...examples, h('h2', {}, 'Hints'), ...hints, h('h2', {}, 'Checked requirements'), h('ul', {}, reqs));
  const select = h(
    'select',
    { id: 'language', 'aria-label': 'Language' },
    LANGUAGES.map((l) => h('option', { value: l, ...(l === lang ? { selected: '' } : {}) }, LANGUAGE_NAMES[l])),
  );
  select.onchange = () => {
    location.hash = `#/problem/${p.id}?lang=${select.value}`;
  };
  const buttons = h(
    'div',
    { class: 'buttons' },
    h('button', { id: 'run', 'aria-keyshortcuts': 'Control+Enter', title: 'Ctrl+Enter' }, 'Run (examples)'),
    h('button', { id: 'submit', 'aria-keyshortcuts': 'Control+Shift+Enter', title: 'Ctrl+Shift+Enter' }, 'Submit'),
    h('button', { id: 'reset' }, 'Reset to template'),
    h('span', { id: 'python-status', class: 'status', role: 'status' }, lang === 'python' ? statusText(pythonStatus) : ''),
  );
  const panes = h('div', { class: 'problem split' });
  panes.append(
    statement,
    splitter(panes, { key: 'shardlab.split.problem', label: 'Resize the statement and the editor', controls: 'statement' }),
    h(
      'section',
      { class: 'work' },
      h('div', { class: 'toolbar' }, select),
      h('div', { class: 'editor', id: 'editor' }),
      buttons,
      h('p', { class: 'shortcuts' }, h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'), ' runs the examples · ', h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Shift'), '+', h('kbd', {}, 'Enter'), ' submits'),
      myInputSection(p, (cases) => checkCode(p, lang, editor.state.doc.toString(), cases)),
      h('div', { id: 'results', class: 'results' }),
    ),
  );
  main.replaceChildren(panes);
  const run = (full) => runChecks(p, lang, editor.state.doc.toString(), full);
  const editor = createEditor({
    parent: document.getElementById('editor'),
    doc: localStorage.getItem(codeKey(p.id, lang)) ?? template(p, lang),
    lang,
    keys: [
      { key: 'Mod-Enter', run: () => (run(false), true) },
      { key: 'Mod-Shift-Enter', run: () => (run(true), true) },
    ],
    label: `Your solution in ${LANGUAGE_NAMES[lang]}`,
    scrollerLabel: 'Solution editor',
    onChange: (text) => localStorage.setItem(codeKey(p.id, lang), text),
  });
  window.__shardlabEditor = editor;
  document.getElementById('run').onclick = () => run(false);
  document.getElementById('submit').onclick = () => run(true);
  document.getElementById('reset').onclick = () => setText(editor, template(p, lang));
}

// Whether a check is running: one at a time on the page's devices (a
// shortcut pressed again, or another problem's view, waits for it).
let checking = false;

// Checks `code` on `cases` (all of the problem's when undefined), one check at a time on the page's devices: every check button waits for it.
async function checkCode(p, lang, code, cases) {
  if (checking) throw new Error('A check is already running; its results come first.');
  checking = true;
  const buttons = [...document.querySelectorAll('.buttons button')];
  for (const b of buttons) b.disabled = true;
  try {
    return await judge.check({ problemId: p.id, lang, code, cases, timeLimitMs: TIME_LIMIT_MS });
  } finally {
    checking = false;
    for (const b of buttons) b.disabled = false;
  }
}

let reportsDrawn = 0;

async function runChecks(p, lang, code, full) {
  if (checking) return; // the running check's results come first
  const out = document.getElementById('results');
  out.replaceChildren(h('p', {}, `${full ? 'Submitting' : 'Running the examples'}…`));
  let report;
  try {
    report = await checkCode(p, lang, code, full ? undefined : p.examples);
  } catch (e) {
    out.replaceChildren(h('p', { class: 'fail verdict' }, e.message));
    return;
  }
  if (full && report.passed) localStorage.setItem(solvedKey(p.id), '1');
  out.replaceChildren(renderReport(p, report, full));
  // How many reports the page has drawn: what a script waits on for the next one (race-free, unlike an element's coming and going).
  out.dataset.reports = String(++reportsDrawn);
}

// #/problem/<id>?lang=python|javascript (Python when not given); #/playground?lang=...[&code=...].
function route() {
  const play = location.hash.match(/^#\/playground(?:\?(.*))?$/);
  if (play) return void showPlayground(main, new URLSearchParams(play[1] ?? ''));
  leavePlayground();
  const m = location.hash.match(/^#\/problem\/([\w-]+)(?:\?(.*))?$/);
  const p = m && problemById(m[1]);
  const lang = new URLSearchParams(m?.[2] ?? '').get('lang');
  if (p) showProblem(p, LANGUAGES.includes(lang) ? lang : LANGUAGES[0]);
  else showList();
}
window.addEventListener('hashchange', route);
route();
