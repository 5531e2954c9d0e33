// What a program the judge ran returned, described in plain data (shapes,
// layouts, values) for the comparison with the expected outputs.

import * as sl from '../lib/index.js';

/**
 * What a solution returned, as plain data: {kind: 'object' | description,
 * keys, values: {key: {dtype, shape, spec (entries), data, blocks?} | {notArray: type}}};
 * blocks (each device's, from addressableShards) for the outputs that ask for them.
 */
export async function rawOutputs(problem, out) {
  if (out === null || typeof out !== 'object' || Array.isArray(out)) {
    const kind = out === null ? 'null' : Array.isArray(out) ? `an array of ${out.length}` : typeof out;
    return { kind, keys: [], values: {} };
  }
  const values = {};
  for (const k of Object.keys(problem.outputs)) {
    const v = Object.hasOwn(out, k) ? out[k] : undefined;
    if (!(v instanceof sl.Array)) {
      if (k in out) values[k] = { notArray: typeof v };
      continue;
    }
    values[k] = { dtype: v.dtype, shape: v.shape, spec: v.sharding.spec.entries.map((e) => e ?? null), data: Array.from(await v.data()) };
    if (problem.outputs[k].blocks) {
      values[k].blocks = v.addressableShards.map((s) => ({ device: s.device, index: s.index, data: Array.from(s.data) }));
    }
    v.dispose();
  }
  return { kind: 'object', keys: Object.keys(out), values };
}
