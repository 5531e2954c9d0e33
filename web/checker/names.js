// The API names a requirement's message mentions, in the solution's language:
// ShardLab's JS names ('sl.shardMap', 'lax.pcast', 'np.sum') for JavaScript,
// JAX's for Python ('jax.shard_map', 'jax.lax.pcast', 'jnp.sum'), looked up
// in the API manifest (web/lib/api/manifest.js), the one home of which JAX
// function each JS one is.

import { MANIFEST } from '../lib/api/manifest.js';

/** The languages a solution may be written in, by file extension. */
export const LANGUAGES = { '.py': 'python', '.mjs': 'javascript', '.js': 'javascript' };

// The JAX module a JS namespace stands for (where a JS function is several JAX ones:
// np.minimum is jnp.minimum and lax.min), and how a Python solution spells each module.
const JAX_MODULE = { np: 'numpy', 'np.linalg': 'numpy.linalg', lax: 'lax', nn: 'nn', random: 'random' };
const PYTHON_MODULE = { jax: 'jax', numpy: 'jnp', 'numpy.linalg': 'jnp.linalg' };

/**
 * `jsName` (e.g. 'lax.pcast', 'sl.shardMap') as a solution in `lang`
 * ('python' | 'javascript') writes it; throws for a name the manifest does
 * not bind to a JAX function (a requirement's message would name nothing).
 */
export function apiName(jsName, lang) {
  if (lang !== 'python') return jsName;
  const js = jsName.replace(/^sl\./, '');
  const namespace = js.includes('.') ? js.slice(0, js.lastIndexOf('.')) : null;
  const lines = MANIFEST.filter((l) => l.js === js && l.module);
  const line = lines.find((l) => l.module === (JAX_MODULE[namespace] ?? 'jax')) ?? lines[0];
  if (!line) throw new Error(`apiName: ${jsName} has no JAX name in the API manifest`);
  return `${PYTHON_MODULE[line.module] ?? `jax.${line.module}`}.${line.name}`;
}
