// The playground (#/playground): a script with no problem attached, in
// Python or JavaScript, run eagerly on the 8 devices in a worker of its own
// (playground_runner.js). Run shows what it printed, the programs its jit and
// make_jaxpr calls traced, and the pictures of the last one. The code is
// kept in localStorage per language, and Share puts it, compressed, in the
// URL's fragment (share_url.js): nothing leaves the browser. Everything a
// script produces goes in as text (dom.js).

import './playground.css';
import { h } from './dom.js';
import { createEditor, setText } from './editor.js';
import { EXAMPLES } from './playground_examples.js';
import { PlaygroundRunner } from './playground_runner.js';
import { statusText } from './pyodide_sources.js';
import { programPictures } from './pictures.js';
import { splitter } from './splitter.js';
import { timelineView } from './timeline.js';
import { LANGUAGE_NAMES, LANGUAGES } from './problems.js';
import { foldBodies } from './program_text.js';
import { decodeCode, encodeCode } from './share_url.js';

const codeKey = (lang) => `shardlab.playground.${lang}`;
const route = (lang, code) => `#/playground?lang=${lang}${code ? `&code=${code}` : ''}`;
// How a traced program is named, per language.
const KIND_NAMES = {
  python: { jit: 'jax.jit', make_jaxpr: 'jax.make_jaxpr' },
  javascript: { jit: 'sl.jit', make_jaxpr: 'sl.makeJaxpr' },
};

let pythonStage = '';
const runner = new PlaygroundRunner((status) => {
  pythonStage = statusText(status);
  const el = document.getElementById('python-status');
  if (el) el.textContent = pythonStage;
});

/**
 * Leaves the playground: its worker (a runtime of 8 device threads, and
 * Python) is ended, and a script still running with it.
 */
export function leavePlayground() {
  runner.stop();
}

/**
 * Shows the playground in `main` for the route's query `params`
 * (URLSearchParams: `lang`, and `code` from a shared link, which the editor
 * opens instead of the saved code until it is edited).
 */
export async function showPlayground(main, params) {
  // A script still running belongs to the view being left.
  if (runner.busy) runner.stop();
  const hash = location.hash;
  const lang = LANGUAGES.includes(params.get('lang')) ? params.get('lang') : LANGUAGES[0];
  let doc = localStorage.getItem(codeKey(lang)) ?? EXAMPLES[lang];
  let notice = null;
  if (params.has('code')) {
    try {
      doc = await decodeCode(params.get('code'));
      notice = h('p', { class: 'play-notice' }, 'This is the code of a shared link; once you edit it, it replaces your saved code.');
    } catch (e) {
      notice = h('p', { class: 'play-notice fail', role: 'alert' }, `The shared link's code cannot be read: ${e.message}. The editor shows your saved code.`);
    }
  }
  if (location.hash !== hash) return; // left while the shared code was read
  runner.warm(lang); // the devices, and Python, start while the code is read

  const select = h('select', { id: 'language', 'aria-label': 'Language' }, LANGUAGES.map((l) => h('option', { value: l, selected: l === lang ? '' : null }, LANGUAGE_NAMES[l])));
  select.onchange = () => {
    location.hash = route(select.value);
  };
  const runButton = h('button', { id: 'run', type: 'button', 'aria-keyshortcuts': 'Control+Enter', title: 'Ctrl+Enter' }, 'Run');
  const stopButton = h('button', { id: 'stop', type: 'button', disabled: '' }, 'Stop');
  const shareButton = h('button', { id: 'share', type: 'button' }, 'Share');
  const resetButton = h('button', { id: 'reset', type: 'button' }, 'Reset to example');
  const runStatus = h('span', { id: 'run-status', role: 'status' });
  const shareLink = h('input', { id: 'share-link', type: 'text', readonly: '', 'aria-label': 'Link to this code' });
  const shareBox = h('p', { class: 'share', hidden: '' }, h('label', { for: 'share-link' }, 'Link: '), shareLink, h('span', { class: 'status', role: 'status' }));
  const output = h('pre', { id: 'output', class: 'output', tabindex: 0, 'aria-label': 'Output' });
  const programs = h('div', { id: 'programs' });
  const sharding = h('div', { id: 'sharding', class: 'scroll-box', tabindex: 0, 'aria-label': 'Sharding of the last program' });
  const timeline = h('div', { id: 'timeline', class: 'scroll-box', tabindex: 0, 'aria-label': 'Timeline of the run' });
  const idle = () => {
    output.replaceChildren(h('span', { class: 'placeholder' }, 'Run the script to see what it prints.'));
    programs.replaceChildren(h('p', { class: 'placeholder' }, `The programs its ${KIND_NAMES[lang].jit} and ${KIND_NAMES[lang].make_jaxpr} calls trace.`));
    sharding.replaceChildren(h('p', { class: 'placeholder' }, 'How the last traced program lays its arrays over the devices.'));
    timeline.replaceChildren(h('p', { class: 'placeholder' }, 'What each device did while the script ran.'));
  };
  idle();

  const panes = h('div', { class: 'playground split' });
  panes.append(
    h(
      'section',
      { class: 'play-code', id: 'play-code' },
      h('div', { class: 'play-head' }, h('h1', {}, 'Playground'), select),
      notice,
      h('div', { class: 'editor', id: 'editor' }),
      h('div', { class: 'buttons' }, runButton, stopButton, shareButton, resetButton),
      h('p', { class: 'play-status' }, lang === 'python' && h('span', { id: 'python-status', role: 'status' }, pythonStage), runStatus),
      h('p', { class: 'shortcuts' }, h('kbd', {}, 'Ctrl'), '+', h('kbd', {}, 'Enter'), ' runs the script · it runs on the 8 devices in a worker of its own; Stop ends it'),
      shareBox,
    ),
    splitter(panes, { key: 'shardlab.split.playground', label: 'Resize the script and its results', controls: 'play-code', initial: 50 }),
    h(
      'section',
      { class: 'play-results', 'aria-label': 'Results' },
      h('h2', {}, 'Output'),
      output,
      h('h2', {}, 'Traced programs'),
      programs,
      h('h2', {}, 'Sharding of the last program'),
      sharding,
      h('h2', {}, 'Timeline of the run'),
      timeline,
    ),
  );
  main.replaceChildren(panes);

  const editor = createEditor({
    parent: document.getElementById('editor'),
    doc,
    lang,
    keys: [{ key: 'Mod-Enter', run: () => (run(), true) }],
    label: `Your script in ${LANGUAGE_NAMES[lang]}`,
    scrollerLabel: 'Script editor',
    onChange: (text) => {
      localStorage.setItem(codeKey(lang), text);
      // Edited, the code is the saved one: a reload must not bring the shared link's back.
      if (new URLSearchParams(location.hash.split('?')[1]).has('code')) history.replaceState(null, '', route(lang));
    },
  });

  async function run() {
    if (runner.busy) return;
    output.replaceChildren();
    programs.replaceChildren();
    sharding.replaceChildren();
    timeline.replaceChildren();
    runButton.disabled = true;
    stopButton.disabled = false;
    runStatus.textContent = 'Running…';
    let count = 0;
    const result = await runner.run(lang, editor.state.doc.toString(), {
      onOut: (stream, text) => output.append(h('span', { class: stream === 'stderr' ? 'stderr' : null }, text)),
      onProgram: ({ kind, text, bodies }) =>
        programs.append(h('section', { class: 'traced' }, h('h3', {}, `${++count}. ${KIND_NAMES[lang][kind] ?? kind}`), h('pre', { class: 'jaxpr', tabindex: 0 }, foldBodies(text, bodies)))),
    });
    runButton.disabled = false;
    stopButton.disabled = true;
    if (result.stopped) runStatus.textContent = 'Stopped';
    else if (result.crashed) runStatus.textContent = `The worker failed: ${result.crashed}`;
    else runStatus.textContent = `${result.failed ? 'Ended with an error' : 'Done'} in ${result.ms} ms`;
    if (!count) programs.replaceChildren(h('p', {}, 'No program was traced.'));
    sharding.replaceChildren(pictures(result.program));
    // Equations are named from no program: a script may run several, so the bars name their primitives.
    timeline.replaceChildren(result.timeline ? timelineView(result.timeline) : h('p', {}, 'Nothing ran on the devices.'));
  }

  runButton.onclick = run;
  stopButton.onclick = () => runner.stop();
  resetButton.onclick = () => setText(editor, EXAMPLES[lang]);
  shareButton.onclick = async () => {
    const url = new URL(route(lang, await encodeCode(editor.state.doc.toString())), location.href).href;
    history.replaceState(null, '', url);
    shareLink.value = url;
    shareBox.hidden = false;
    shareLink.select();
    const said = shareBox.querySelector('[role=status]');
    said.textContent = '';
    try {
      await navigator.clipboard.writeText(url);
      said.textContent = ' Copied to the clipboard.';
    } catch {
      said.textContent = ' Copy the link to share this code.';
    }
  };
}

// The sharding pictures of the last traced program's JSON, if one was traced.
function pictures(program) {
  return program ? programPictures(program, []) : h('p', {}, 'No program was traced.');
}
