// "Run with my input": one input the learner edits as JSON (example 1's to
// start, kept per problem), checked against the problem's constraints by the
// --cases validator before anything runs (its reason shown when it is
// outside them), then the editor's code checked on it alone; the result is
// shown beside the reference's answer through the Cases tab's view.

import { checkInput } from '../checker/validate_cases.js';
import { caseValuesView } from './case_tables.js';
import { inputJson } from './case_values.js';
import { h } from './dom.js';

const inputKey = (id) => `shardlab.input.${id}`;

/**
 * The section for problem `p`: `check(cases)` checks the editor's current
 * code on `cases` ([{input}]) and resolves to the engine's report.
 */
export function myInputSection(p, check) {
  const start = localStorage.getItem(inputKey(p.id)) ?? inputJson(p.examples[0].input);
  const text = h('textarea', { id: 'my-input-json', spellcheck: 'false', rows: 8, 'aria-describedby': 'my-input-help' }, start);
  text.oninput = () => localStorage.setItem(inputKey(p.id), text.value);
  const reset = h('button', { type: 'button', id: 'my-input-example' }, 'Reset to example 1');
  reset.onclick = () => {
    text.value = inputJson(p.examples[0].input);
    localStorage.removeItem(inputKey(p.id));
  };
  const button = h('button', { type: 'button', id: 'run-mine' }, 'Run with my input');
  const result = h('div', { id: 'my-result' });
  // A reason the input cannot run is an alert; a verdict of a run is a status.
  const show = (cls, role, message, ...rest) => result.replaceChildren(h('p', { id: 'my-verdict', class: `my-verdict ${cls}`, role }, message), ...rest);
  button.onclick = async () => {
    let input;
    try {
      input = JSON.parse(text.value);
    } catch (e) {
      show('fail', 'alert', `The input is not JSON: ${e.message}`);
      return;
    }
    const { error } = checkInput(p, input);
    if (error) {
      show('fail', 'alert', `Outside the problem's constraints: ${error}`);
      return;
    }
    show('', 'status', 'Running your code on this input…');
    let report;
    try {
      report = await check([{ input }]);
    } catch (e) {
      show('fail', 'alert', e.message);
      return;
    }
    const [c] = report.cases;
    const verdict = c.passed ? "Your result matches the reference's answer" : `Your result differs from the reference's answer: ${c.message}`;
    show(c.passed ? 'pass' : 'fail', 'status', verdict, caseValuesView(p, report.caseValues[0], { expected: "Reference's answer", actual: 'Your result' }));
  };
  return h(
    'details',
    { id: 'my-input', class: 'my-input' },
    h('summary', {}, 'Run with my input'),
    h('label', { for: 'my-input-json' }, 'Input'),
    h('p', { id: 'my-input-help', class: 'help' }, `JSON with the arguments ${p.args.join(', ')}, within the problem's constraints.`),
    text,
    h('div', { class: 'buttons' }, button, reset),
    result,
  );
}
