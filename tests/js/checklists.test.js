// docs/architecture.md's how-to-add checklists are true: for an existing
// example of each (a primitive, a collective, a jnp function over existing
// primitives, a problem), the hand-written files outside tests and docs
// whose code names it are exactly the checklist's, and the checklist names
// each of them. A file that only mentions the example in a comment does
// not count; a use elsewhere (a consumer of the function) would, and would
// be a sign the example is no longer a clean one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const doc = read('docs/architecture.md');

// The text of the doc's section headed `title`.
function section(title) {
  const start = doc.indexOf(`## ${title}`);
  expect(start, `docs/architecture.md has a section "${title}"`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

// The tracked files outside tests, docs and built output whose code (not a comment line) matches `pattern`.
function namedIn(pattern, { except = [] } = {}) {
  const files = execFileSync('git', ['ls-files', 'cpp', 'web', 'problems', 'scripts'], { cwd: root, encoding: 'utf8' }).split('\n');
  const comment = /^\s*(\/\/|\/\*|\*|#)/;
  return files
    .filter((f) => /\.(h|cc|js|mjs|ts|py)$/.test(f) && !except.some((e) => f.startsWith(e)))
    .filter((f) => read(f).split('\n').some((line) => !comment.test(line) && pattern.test(line)))
    .sort();
}

// Asserts that the files naming the example are `required` plus some of
// `optional`, and the section names them all; `except`'s files are not
// searched (the example's own folder, or a consumer named for why).
function expectChecklist(title, pattern, { required, optional = [], mentioned = [...required, ...optional], except }) {
  const text = section(title);
  for (const path of mentioned) expect(text, `the section "${title}" names ${path}`).toContain(path);
  const found = namedIn(pattern, { except });
  for (const path of required) expect(found, `${path} names the example`).toContain(path);
  expect(found.filter((f) => !required.includes(f) && !optional.includes(f)), 'files the checklist does not name').toEqual([]);
  return found;
}

test('adding a primitive: the files that name cumprod (a primitive with a jax.lax and a jnp face) are the checklist\'s', () => {
  expectChecklist('Adding a primitive', /\bcumprod\b|\bkCumprod\b|\bCumprod\b/, {
    required: ['cpp/ir/core/primitive.h', 'cpp/ir/primitives/reductions.h', 'cpp/ir/primitives/reductions.cc', 'web/lib/api/lax/index.js', 'web/lib/api/numpy/math.js', 'web/lib/api/manifest.js', 'web/lib/index.d.ts'],
    optional: ['cpp/ir/tracing/ops.h', 'cpp/ir/tracing/ops.cc'],
    mentioned: ['cpp/ir/core/primitive.h', 'cpp/ir/primitives/<family>.h', 'web/lib/api/numpy/<part>.js', 'web/lib/index.d.ts', 'cpp/ir/tracing/ops.h'],
  });
});

test('adding a collective: the files that name all_to_all are exactly the checklist\'s eight', () => {
  const found = expectChecklist('Adding a collective', /\ball_to_all\b|\ballToAll\b|\bk?AllToAll\b/, {
    required: [
      'cpp/ir/core/primitive.h',
      'cpp/ir/primitives/parallel.h',
      'cpp/ir/primitives/parallel.cc',
      'cpp/runtime/collectives/collectives.h',
      'cpp/runtime/collectives/all_to_all.cc',
      'web/lib/api/lax/index.js',
      'web/lib/index.d.ts',
      'web/lib/api/manifest.js',
    ],
    mentioned: ['cpp/ir/core/primitive.h', 'cpp/ir/primitives/parallel.h', 'cpp/ir/primitives/parallel.cc', 'cpp/runtime/collectives/collectives.h', 'cpp/runtime/collectives/<family>.cc', 'web/lib/api/lax/index.js', 'web/lib/index.d.ts', 'web/lib/api/manifest.js'],
    // The partitioner moves an axis between dimensions with all_to_all: a consumer of it, not a step of adding a collective.
    except: ['cpp/ir/transforms/partition.cc'],
  });
  expect(found).toHaveLength(8);
});

test('adding a jnp function over existing primitives: kron is named by its implementation and its manifest line only; its type is generated from the line, and Python binds it from the manifest', () => {
  expectChecklist('Adding a function to the API', /\bkron\b/, {
    required: ['web/lib/api/numpy/matrices.js', 'web/lib/api/manifest.js'],
    mentioned: ['web/lib/api/manifest.js', 'scripts/gen_types.mjs', 'web/lib/functions.d.ts', 'web/lib/index.d.ts', 'web/python/jax/_src/table.py'],
  });
});

test('adding a problem: ema-scan is named only by its folder and its line in problems/index.js', () => {
  expectChecklist('Adding a problem', /ema-scan/, {
    required: ['problems/index.js'],
    mentioned: ['problems/<id>/', 'problems/index.js'],
    except: ['problems/ema-scan/'],
  });
});
