// jnp.logaddexp: log(e^x1 + e^x2) without overflow, a custom_jvp function as
// JAX's (lax's logaddexp, called after the operands are promoted to floats).
// Its value is max + log1p(e^-|x1 - x2|), whose kinks at x1 == x2 (max's and
// abs's) cancel in the value but not in the derivatives of those pieces: the
// second derivative of softplus at 0 would come out 0 instead of 1/4. The
// rule gives the smooth derivative instead.

import { customJvp } from '../custom.js';
import { defop } from '../core/op.js';
import { selectWhere as where } from './helpers.js';
import * as np from './math.js';
import { avalOf } from '../core/operands.js';
import { isFloat } from '../../dtypes.js';

// max(x1, x2) + log1p(e^-|x1 - x2|), or x1 + x2 where the difference is NaN (infinities of one sign).
const core = customJvp(
  (x1, x2) => {
    const delta = np.subtract(x1, x2);
    return where(np.isnan(delta), np.add(x1, x2), np.add(np.maximum(x1, x2), np.log1p(np.exp(np.negative(np.abs(delta))))));
  },
  { name: 'logaddexp' },
);

// d out = t1 e^(x1 - out) + t2 e^(x2 - out): the softmax weights of the two; +inf is read as 0 so inf - inf makes no NaN.
core.defjvp(
  ([x1, x2], [t1, t2]) => {
    const out = core(x1, x2);
    const finite = (v) => where(np.equal(v, Infinity), 0, v);
    const weight = (x) => np.exp(np.subtract(finite(x), finite(out)));
    return [out, np.add(np.multiply(t1, weight(x1)), np.multiply(t2, weight(x2)))];
  },
  { name: 'logaddexp_jvp' },
);

// A float32 operand (logaddexp of integers is a float, as numpy's); a JS number becomes a float32 literal.
const inexact = (x) => (typeof x === 'number' ? np.astype(x, 'float32') : isFloat(avalOf(x, 'logaddexp').dtype) ? x : np.astype(x, 'float32'));

/** log(e^x1 + e^x2), without overflow, with smooth derivatives of every order (jnp.logaddexp). */
export const logaddexp = defop('logaddexp', 2, (x1, x2) => core(inexact(x1), inexact(x2)));
