// Host arrays as the engine exchanges them with the core and the lockstep
// worker: typed arrays by dtype, and a dtype's view over raw 32-bit words.

/** The typed array of each dtype (a bool is stored as 0 or 1 in 32 bits). */
export const DTYPES = { float32: Float32Array, int32: Int32Array, uint32: Uint32Array, bool: Int32Array };

/** A dtype's typed array over the bits of a host array (a Uint32Array). */
export const hostView = (dtype, bits) => new DTYPES[dtype](bits.buffer, bits.byteOffset, bits.length);
