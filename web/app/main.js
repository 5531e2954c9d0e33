// The checker page: the problem list, a problem's statement (markdown with
// KaTeX math), the editor, Run and Submit, the results, the traced program
// and pictures of the sharding. The learner's code runs in a dedicated module
// worker (checker_worker.js) stopped after a time limit; the verdict is
// computed here, from what the worker returns.

import 'katex/dist/katex.min.css';
import katex from 'katex';
import { marked } from 'marked';
import { EditorView, basicSetup } from 'codemirror';
import { keymap } from '@codemirror/view';
import { javascript } from '@codemirror/lang-javascript';
import { checkSolution } from '../checker/engine.js';
import { portRunner } from '../checker/port_runner.js';
import { programPictures } from './pictures.js';
import { PROBLEMS, problemById } from './problems.js';

const TIME_LIMIT_MS = 10000;
const main = document.getElementById('main');
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

if (!globalThis.crossOriginIsolated) {
  const notice = document.getElementById('notice');
  notice.hidden = false;
  notice.textContent =
    'This page is not cross-origin isolated, so SharedArrayBuffer is missing: ShardLab runs the 8 devices on one ' +
    'worker with the lockstep executor (same results, no parallel speed-up). Serve it with ' +
    'Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp for 8 device threads.';
}
document.getElementById('runtime').textContent = globalThis.crossOriginIsolated ? '8 devices: Web Worker threads' : '8 devices: lockstep worker';

/** Markdown with $inline$ and $$display$$ math rendered by KaTeX. */
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
const codeKey = (id) => `shardlab.code.${id}`;

function template(p) {
  return `import * as sl from 'shardlab';\nconst { P, lax, np, nn } = sl;\n\nexport default function solve(${p.args.join(', ')}) {\n  // return { ${Object.keys(p.outputs).join(', ')} };\n}\n`;
}

function showList() {
  const rows = PROBLEMS.map(
    (p) => `<tr><td>${localStorage.getItem(solvedKey(p.id)) ? '<span class="pass" title="solved">✓</span>' : ''}</td>
      <td><a href="#/problem/${p.id}">${esc(p.title)}</a></td><td>${esc(p.difficulty)}</td></tr>`,
  ).join('');
  main.innerHTML = `<h1>Problems</h1><table class="list"><thead><tr><th></th><th>Problem</th><th>Difficulty</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function showProblem(p) {
  const examples = p.examples
    .map((e, i) => `<details><summary>Example ${i + 1}</summary><pre>input: ${esc(JSON.stringify(e.input))}\nexpected: ${esc(JSON.stringify(e.expected))}</pre></details>`)
    .join('');
  const hints = p.hints.map((h, i) => `<details class="hint"><summary>Hint ${i + 1}</summary><p>${esc(h)}</p></details>`).join('');
  const reqs = p.requirements.map((r) => `<li>${esc(r.text)}</li>`).join('');
  main.innerHTML = `<div class="problem">
    <section class="statement">${renderMarkdown(p.statement)}<h2>Examples</h2>${examples}<h2>Hints</h2>${hints}<h2>Checked requirements</h2><ul>${reqs}</ul></section>
    <section><div class="editor" id="editor"></div>
      <div class="buttons"><button id="run">Run (examples)</button><button id="submit">Submit</button><button id="reset">Reset to template</button></div>
      <div id="results" class="results"></div></section></div>`;
  const run = (full) => runChecks(p, editor.state.doc.toString(), full);
  const editor = new EditorView({
    doc: localStorage.getItem(codeKey(p.id)) ?? template(p),
    parent: document.getElementById('editor'),
    extensions: [
      keymap.of([{ key: 'Ctrl-Enter', run: () => (run(false), true) }]),
      basicSetup,
      javascript(),
      EditorView.updateListener.of((u) => u.docChanged && localStorage.setItem(codeKey(p.id), u.state.doc.toString())),
    ],
  });
  window.__shardlabEditor = editor;
  document.getElementById('run').onclick = () => run(false);
  document.getElementById('submit').onclick = () => run(true);
  document.getElementById('reset').onclick = () => editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: template(p) } });
}

// A runner over a fresh module worker holding the learner's code.
async function pageRunner(p, code) {
  const worker = new Worker(new URL('./checker_worker.js', import.meta.url), { type: 'module' });
  worker.postMessage({ init: { problemId: p.id, code } });
  return portRunner(
    {
      post: (m) => worker.postMessage(m),
      onMessage: (f) => (worker.onmessage = (e) => f(e.data)),
      onError: (f) => (worker.onerror = (e) => f(new Error(e.message))),
      terminate: () => worker.terminate(),
    },
    { timeLimitMs: TIME_LIMIT_MS },
  );
}

async function runChecks(p, code, full) {
  const out = document.getElementById('results');
  out.innerHTML = `<p>${full ? 'Submitting' : 'Running the examples'}…</p>`;
  for (const b of document.querySelectorAll('.buttons button')) b.disabled = true;
  let report;
  try {
    const runner = await pageRunner(p, code);
    report = await checkSolution(p, null, { runner, cases: full ? undefined : p.examples });
  } catch (e) {
    out.innerHTML = `<p class="fail verdict">${esc(e.message)}</p>`;
    return;
  } finally {
    for (const b of document.querySelectorAll('.buttons button')) b.disabled = false;
  }
  if (full && report.passed) localStorage.setItem(solvedKey(p.id), '1');
  out.innerHTML = renderReport(p, report, full);
}

function renderReport(p, r, full) {
  const failedCases = r.cases.filter((c) => !c.passed).length;
  const failedReqs = full ? r.requirements.filter((q) => !q.passed).length : 0;
  const ok = failedCases === 0 && failedReqs === 0;
  const verdict = ok ? (full ? 'All passed' : 'Examples passed') : `${failedCases} case(s) and ${failedReqs} requirement(s) failed`;
  const cases = r.cases
    .map((c) => {
      const diffs = c.diffs.map((d) => `<div class="diff">${esc(d.output)}[${d.index}] expected ${d.expected}, got <span class="actual">${d.actual}</span></div>`).join('');
      return `<div class="case ${c.passed ? 'pass' : 'fail'}">${c.passed ? '✓' : '✗'} ${esc(c.name)}${c.maxAbsError === null ? '' : ` (max abs error ${c.maxAbsError.toExponential(1)})`}${c.passed ? '' : `: ${esc(c.message)}`}</div>${diffs}`;
    })
    .join('');
  const reqs = full ? r.requirements.map((q) => `<div class="req ${q.passed ? 'pass' : 'fail'}">${q.passed ? '✓' : '✗'} ${esc(q.message)}</div>`).join('') : '';
  const program = r.jaxpr ? `<details><summary>Traced program</summary><pre class="jaxpr">${foldBodies(r.jaxpr)}</pre></details>` : '';
  const pictures = r.program ? `<details open><summary>Sharding</summary>${programPictures(r.program, p.args)}</details>` : '';
  return `<p class="verdict ${ok ? 'pass' : 'fail'}" id="verdict">${verdict}</p><p>${r.cases.length} cases in ${r.timeMs} ms (seed ${r.seed})</p>
    <h3>Cases</h3>${cases}${full ? `<h3>Requirements</h3>${reqs}` : ''}${program}${pictures}`;
}

/** The jaxpr text with every shard_map body in its own foldable block. */
function foldBodies(text) {
  const lines = text.split('\n');
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    out += `${esc(lines[i])}\n`;
    if (!lines[i].includes('jaxpr={ lambda') || lines[i].trimEnd().endsWith('}')) continue;
    const indent = lines[i].search(/\S/) + 2;
    const end = lines.findIndex((l, j) => j > i && l.search(/\S/) === indent && l.trimStart().startsWith('in ('));
    if (end < 0) continue;
    out += `<details open class="body"><summary>shard_map body (${end - i - 1} equations)</summary>${esc(lines.slice(i + 1, end).join('\n'))}\n</details>`;
    i = end - 1;
  }
  return out;
}

function route() {
  const m = location.hash.match(/^#\/problem\/([\w-]+)/);
  const p = m && problemById(m[1]);
  if (p) showProblem(p);
  else showList();
}
window.addEventListener('hashchange', route);
route();
