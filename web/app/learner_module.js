// A learner's JavaScript, given as text, imported as an ES module in a worker
// (the checker's sandbox and the playground): `shardlab` is importable in it
// and reads the worker's own instance.

// `import * as sl from 'shardlab'` and `import { P } from 'shardlab'` become
// reads of globalThis.__shardlab (a module from a blob cannot import by name);
// each import stays on its line, so line numbers are the learner's.
function bindImports(code) {
  return code
    .replace(/import\s+\*\s+as\s+(\w+)\s+from\s+['"]shardlab['"];?/g, 'const $1 = globalThis.__shardlab;')
    .replace(/import\s+\{([^}]*)\}\s+from\s+['"]shardlab['"];?/g, (_, names) => `const {${names.replace(/\s+as\s+/g, ': ')}} = globalThis.__shardlab;`);
}

/** Imports `code` as a module with `sl` as its `shardlab`; resolves to its namespace, or rejects with what its loading or evaluation threw. */
export async function importLearnerModule(code, sl) {
  globalThis.__shardlab = sl;
  const url = URL.createObjectURL(new Blob([bindImports(code)], { type: 'text/javascript' }));
  try {
    return await import(/* @vite-ignore */ url);
  } finally {
    URL.revokeObjectURL(url);
  }
}
