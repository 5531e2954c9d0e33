// Module resolution hooks for the CLI's sandbox: a solution file anywhere on
// disk may `import * as sl from 'shardlab'` and gets the sandbox's own
// instance; a solution is one file, so it imports nothing beside it.
const TARGETS = {
  shardlab: new URL('../lib/index.js', import.meta.url).href,
  'shardlab/devices': new URL('../lib/engine/devices.js', import.meta.url).href,
};

let solutionUrl = null;

/** Takes the solution's URL (register's `data`). */
export function initialize(data) {
  solutionUrl = data?.solutionUrl ?? null;
}

/** Resolves 'shardlab' to this package's entry point; refuses the solution's imports of files. */
export async function resolve(specifier, context, next) {
  if (specifier in TARGETS) return { url: TARGETS[specifier], shortCircuit: true };
  if (context.parentURL === solutionUrl && !specifier.startsWith('node:') && /^(\.{0,2}\/|file:)/.test(specifier)) {
    throw new Error(`a solution is one file: it cannot import '${specifier}' (it may import 'shardlab' and Node's built-in modules)`);
  }
  return next(specifier, context);
}
