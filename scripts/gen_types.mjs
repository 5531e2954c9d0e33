// The package's generated declarations: web/lib/functions.d.ts, made at
// build from the API manifest (web/lib/api/manifest.js). A manifest line
// whose parameters are all arrays (`x`, `x1, x2`, `pred, on_true,
// on_false`...), in np, nn or lax, is a function of arrays returning
// an array: its type follows from the line, so it is declared here, with the
// line's doc (after `#`) as its comment. index.d.ts declares the rest by hand
// and joins each namespace's generated members into its type.
//   node scripts/gen_types.mjs    (scripts/build.sh runs it)

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ARRAY_PARAMS, MANIFEST } from '../web/lib/api/manifest.js';
import { camelCase } from '../web/lib/names.js';

const ARRAY_PARAM_SET = new Set(ARRAY_PARAMS);

/** Each generated namespace: its JS name and the interface index.d.ts joins into it. */
export const NAMESPACES = { np: 'NpFunctions', nn: 'NnFunctions', lax: 'LaxFunctions' };

/** The manifest's entries whose type follows from their line: Python-bound (table) lines of one namespace's direct members, every parameter an array. */
export function generatedEntries(manifest = MANIFEST) {
  const seen = new Set();
  return manifest.filter((m) => {
    const [ns, member, more] = m.js.split('.');
    if (m.binding !== 'table' || !(ns in NAMESPACES) || !member || more !== undefined || seen.has(m.js)) return false;
    const params = m.params.split(',').map((p) => p.trim());
    if (!params.every((p) => ARRAY_PARAM_SET.has(p))) return false;
    seen.add(m.js);
    return true;
  });
}

/** The text of web/lib/functions.d.ts. */
export function functionDeclarations(manifest = MANIFEST) {
  const entries = generatedEntries(manifest);
  const lines = [
    '// Generated at build by scripts/gen_types.mjs from the API manifest',
    '// (web/lib/api/manifest.js): the functions of arrays that index.d.ts joins',
    '// into np, nn and lax. Do not edit; edit the manifest.',
    '',
    '/** An array, a traced value or array-like data (index.d.ts: ArrayLike). */',
    'type V = any;',
  ];
  for (const [ns, iface] of Object.entries(NAMESPACES)) {
    lines.push('', `/** The ${ns} functions the manifest declares. */`, `export interface ${iface} {`);
    for (const m of entries.filter((e) => e.js.startsWith(`${ns}.`))) {
      const jaxName = `jax.${m.module}.${m.name}`;
      lines.push(`  /** ${m.doc ? `${jaxName}: ${m.doc}` : jaxName} */`);
      const params = m.params.split(',').map((p) => `${camelCase(p.trim())}: V`);
      lines.push(`  ${m.js.slice(ns.length + 1)}: (${params.join(', ')}) => V;`);
    }
    lines.push('}');
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(fileURLToPath(new URL('../web/lib/functions.d.ts', import.meta.url)), functionDeclarations());
}
