// The API names a requirement's message mentions, in the solution's language:
// ShardLab's JS names ('sl.shardMap', 'lax.pcast', 'np.sum') for JavaScript,
// JAX's for Python ('jax.shard_map', 'jax.lax.pcast', 'jnp.sum'). The rule
// is the Python package's (web/python/jax/_src/table.py): JAX's name is the
// snake_case of the JS one.

const PYTHON_PREFIX = { sl: 'jax', np: 'jnp', lax: 'jax.lax', nn: 'jax.nn' };

/** The languages a solution may be written in, by file extension. */
export const LANGUAGES = { '.py': 'python', '.mjs': 'javascript', '.js': 'javascript' };

/** `jsName` (e.g. 'lax.pcast', 'sl.shardMap') as a solution in `lang` ('python' | 'javascript') writes it. */
export function apiName(jsName, lang) {
  if (lang !== 'python') return jsName;
  const [prefix, ...rest] = jsName.split('.');
  const snake = rest.join('.').replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return PYTHON_PREFIX[prefix] ? `${PYTHON_PREFIX[prefix]}.${snake}` : jsName;
}
