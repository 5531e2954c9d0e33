// Host arrays as the engine exchanges them with the core and the lockstep
// worker: typed arrays by dtype, and a dtype's view over raw 32-bit words.

import { laneArray } from '../dtypes.js';

/** A dtype's typed array over the bits of a host array (a Uint32Array of its lanes). */
export const hostView = (dtype, bits) => new (laneArray(dtype))(bits.buffer, bits.byteOffset, bits.length);
