// Module resolution hooks for the CLI: a solution file anywhere on disk may
// `import * as sl from 'shardlab'` and gets the checker's own instance.
const TARGETS = {
  shardlab: new URL('../lib/index.js', import.meta.url).href,
  'shardlab/devices': new URL('../lib/runtime/devices.js', import.meta.url).href,
};

/** Resolves 'shardlab' to this package's entry point. */
export async function resolve(specifier, context, next) {
  if (specifier in TARGETS) return { url: TARGETS[specifier], shortCircuit: true };
  return next(specifier, context);
}
