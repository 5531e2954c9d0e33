// jnp.result_type: JAX's type promotion as a function of its operands.

import { ValueError } from '../../errors.js';
import { DTYPE_NAMES, isDtypeName } from '../../dtypes.js';
import { avalOf, resultType as promote } from '../core/operands.js';


/**
 * np.resultType(...args): the dtype name JAX's promotion gives `args`:
 * dtype names (strongly typed), JS numbers and WeakFloats (weakly typed, as
 * Python scalars), booleans, arrays and traced values.
 */
export function resultType(...args) {
  if (!args.length) throw new ValueError('np.resultType: at least one array or dtype is required');
  const avals = args.map((x) => {
    if (typeof x !== 'string') return avalOf(x, 'np.resultType');
    if (!isDtypeName(x)) throw new ValueError(`np.resultType: ${x} is not a dtype here; the dtypes are ${DTYPE_NAMES.join(', ')}`);
    return { dtype: x, shape: [], weak: false };
  });
  return promote(avals).dtype;
}
