// Running a program the sandbox sent on the judge's own devices, on one
// case's inputs, within the check's time limit: the one road by which the
// judge runs a solution's program (a case, an ablation).

import { setForeignOutput } from '../lib/api/core/debug_calls.js';
import * as sl from '../lib/index.js';
import { rawOutputs } from './outputs.js';

// A case's argument as the judge passes it: numbers stay numbers (f32[] inputs), arrays become arrays of the declared dtype.
function argValue(problem, name, v) {
  const dtype = problem.inputs?.[name]?.dtype ?? 'float32';
  return typeof v === 'number' && dtype === 'float32' ? v : sl.array(v, { dtype });
}

/**
 * The outputs (rawOutputs' plain data) of `exported` (an Exported) run on
 * `input` ({argument: value}), the run counted by `clock` (solution_clock.js)
 * against `deadline`: past it the devices are stopped (a while_loop that
 * never ends), so later runs can go on, and the run rejects with the
 * deadline's TimeoutError. With `print`, the program's jax.debug.print
 * calls go to print(text) (else nowhere).
 */
export async function runOn(problem, exported, input, deadline, clock, print = null) {
  const args = [];
  const before = setForeignOutput(print);
  try {
    for (const name of problem.args) args.push(argValue(problem, name, input[name]));
    return await rawOutputs(problem, await deadline.race(clock.running(exported.call(...args)), () => sl.cancel()));
  } finally {
    setForeignOutput(before);
    for (const a of args) if (typeof a !== 'number') a.dispose();
  }
}
