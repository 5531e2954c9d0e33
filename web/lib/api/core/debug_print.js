// jax.debug.print's one road, for JS's debug.print and Python's: a format
// whose fields number the operands (debug_text.js), printed at once from
// concrete values outside a trace, or, inside one, a debug_callback equation
// that keeps the format, printed after each run of the program (per device
// in a shard_map body, in device order).

import { array, DArray } from './array.js';
import { registerPrint } from './debug_calls.js';
import { checkFields, formatText, parseFormat, templateOf } from './debug_text.js';
import { traced } from './operands.js';
import { currentTrace } from './state.js';

/**
 * Prints `pieces` (parseFormat's) with the arrays (or tracers) `operands` by
 * write(text); returns whether it was traced. `what` names the caller in errors.
 */
export function printPieces(write, pieces, operands, what = 'jax.debug.print') {
  const t = currentTrace();
  if (!t) {
    // A scalar (Python's float, a JS number) as the array a trace would make of it.
    const values = operands.map((x) => {
      const a = x instanceof DArray ? x : array(x);
      const value = { data: a.dataSync(), shape: a.shape, dtype: a.dtype };
      if (a !== x) a.dispose();
      return value;
    });
    checkFields(pieces, values, what);
    write(formatText(pieces, values));
    return false;
  }
  const tracers = operands.map((x) => traced(t, x, what));
  checkFields(pieces, tracers, what);
  const atoms = tracers.map((x) => x.atomIn(t));
  t.emit('debug_callback', { callback: registerPrint(pieces, write), fmt: templateOf(pieces) }, atoms);
  return true;
}

/** Python's jax.debug.print: `fmt` with every field numbered by operand (its static values already written in). */
export const printFormat = (write, fmt, operands) => printPieces(write, parseFormat(fmt, operands.length), Array.from(operands));
