// Ablations: where data flow alone cannot say whether the answer depends on
// what a feature computes (a ppermute of values that happen to be zeros is
// still read), the judge changes a copy of the program the sandbox sent and
// runs it again: if the outputs stay the same with the feature's results
// replaced by zeros, the answer never needed them.

import { subPrograms } from './jaxpr_query.js';

/**
 * The exported text `text` (jax.export's, as the sandbox sent it) with each
 * equation `select(eqn)` picks, at any depth, computing zeros instead: its
 * one output becomes its first operand times 0, so the equation must give a
 * value of its operand's type (a ppermute, say). Returns
 * {text, count} (count: how many equations were replaced); throws when an
 * equation picked cannot be replaced so.
 */
export function ablated(text, select) {
  const doc = JSON.parse(text);
  let count = 0;
  const walk = (p) => {
    p.eqns = p.eqns.map((e) => {
      subPrograms(e).forEach(walk);
      if (!select(e)) return e;
      const [x] = e.inputs;
      if (e.outputs.length !== 1 || !x || x.aval.str !== e.outputs[0].aval.str) {
        throw new Error(`a ${e.primitive} equation whose output is not of its operand's type cannot be replaced by zeros`);
      }
      count++;
      const zero = { literal: 0, aval: { dtype: x.aval.dtype, shape: [], vma: [], str: `${x.aval.str.split('[')[0]}[]` } };
      return { primitive: 'mul', params: {}, inputs: [x, zero], outputs: e.outputs };
    });
  };
  walk(doc.program);
  return { text: JSON.stringify(doc), count };
}
