// How Python writes values in JAX's messages, for the messages that quote them.

/** A Python tuple's repr of JS values (strings quoted, null as None, lists as tuples): (3,), (2, 3), ('x', None), (). */
export function pyTuple(xs) {
  const item = (x) => (x === null ? 'None' : Array.isArray(x) ? pyTuple(x) : typeof x === 'string' ? `'${x}'` : String(x));
  return `(${xs.map(item).join(', ')}${xs.length === 1 ? ',' : ''})`;
}
