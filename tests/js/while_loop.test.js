// lax.whileLoop and lax.foriLoop with a traced bound from JS: the printed
// program against JAX's (make_jaxpr of fori_loop(0, n, ...)), values against
// loops written out here, forward mode against float64 finite differences,
// JAX's reverse-mode error, vmap with a different trip count per example,
// JAX's errors, a power iteration in a shardMap on both executors (bitwise
// equal), and loops that never end: cancel() stops them on both executors and
// the next call works; the checker's time limit stops one and reports it.
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';
import { close } from './close.js';

const { np, lax } = sl;
beforeAll(() => sl.init());
const i32 = (v) => sl.array(v, { dtype: 'int32' });

describe('while_loop', () => {
  test("fori_loop with a traced bound prints as JAX's while", () => {
    const f = (n) => lax.foriLoop(0, n, (i, v) => np.add(v, i), 0);
    expect(sl.makeJaxpr(f)(i32(5)).toString()).toBe(
      [
        '{ lambda ; a:i32[]. let',
        '    _:i32[] _:i32[] b:i32[] = while[',
        '      body_jaxpr={ lambda ; c:i32[] d:i32[] e:i32[]. let',
        '          f:i32[] = add c 1:i32[]',
        '          g:i32[] = add e c',
        '        in (f, d, g) }',
        '      body_nconsts=0',
        '      cond_jaxpr={ lambda ; h:i32[] i:i32[] j:i32[]. let k:bool[] = lt h i in (k,) }',
        '      cond_nconsts=0',
        '    ] 0:i32[] a 0:i32[]',
        '  in (b,) }',
      ].join('\n'),
    );
  });

  test('values against a loop: data-dependent trip counts, trees, eagerly and under jit', async () => {
    // Collatz steps of n (int32 carry), and a float tree carry doubled until past a limit.
    const collatz = (n) =>
      lax.whileLoop(
        ({ n }) => np.greater(n, 1),
        ({ n, steps }) => ({ n: np.where(np.equal(np.remainder(n, 2), 0), np.floorDivide(n, 2), np.add(np.multiply(n, 3), 1)), steps: np.add(steps, 1) }),
        { n, steps: i32(0) },
      ).steps;
    const ref = (n) => {
      let s = 0;
      for (; n > 1; s++) n = n % 2 === 0 ? n / 2 : 3 * n + 1;
      return s;
    };
    for (const n of [1, 6, 27]) {
      expect(await (await sl.jit(collatz)(i32(n))).item()).toBe(ref(n));
      expect(await collatz(i32(n)).item()).toBe(ref(n));
    }
    const f = sl.jit((x, limit) => lax.whileLoop(([v]) => np.less(np.min(v), limit), ([v, k]) => [np.multiply(v, 2), np.add(k, 1)], [x, 0]));
    const [v, k] = await f(sl.array([0.5, 3]), sl.array(10));
    expect(await v.tolist()).toEqual([16, 96]); // every entry doubles until the smallest passes 10
    expect(await k.item()).toBe(5);
  });

  test('forward mode against float64 finite differences; reverse mode is JAX error', async () => {
    // four steps of x <- tanh(x) * k + x
    const f = (x, k) => lax.whileLoop(([i]) => np.less(i, 4), ([i, y]) => [np.add(i, 1), np.add(np.multiply(np.tanh(y), k), y)], [i32(0), x])[1];
    const ref = (x, k) => {
      for (let i = 0; i < 4; i++) x = Math.tanh(x) * k + x;
      return x;
    };
    const x = [0.3, -0.7], k = [0.5, 1.5], dx = [1, -2], h = 1e-6;
    const [y, dy] = await sl.jvp(f, [sl.array(x), sl.array(k)], [sl.array(dx), sl.array([0, 0])]);
    close(await y.tolist(), x.map((v, j) => ref(v, k[j])), 'y', 1e-5);
    close(await dy.tolist(), x.map((v, j) => (ref(v + h * dx[j], k[j]) - ref(v - h * dx[j], k[j])) / (2 * h)), 'dy', 1e-4);
    expect(() => sl.grad((x) => np.sum(f(x, sl.array(k))))(sl.array(x))).toThrow(
      'Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values. Try using lax.scan, or using fori_loop with static start/stop.',
    );
  });

  test('vmap: each example loops as long as its own predicate holds', async () => {
    const f = (x) => lax.whileLoop((v) => np.less(v, 10), (v) => np.multiply(v, 2), x);
    expect(await (await sl.jit(sl.vmap(f))(sl.array([1, 3, 20, 0.5]))).tolist()).toEqual([16, 12, 20, 16]);
    // fori_loop with a traced bound per example
    const g = (n) => lax.foriLoop(0, n, (i, s) => np.add(s, i), i32(0));
    expect(await (await sl.jit(sl.vmap(g))(i32([0, 1, 5, 10]))).tolist()).toEqual([0, 0, 10, 45]);
  });

  test("JAX's errors: a predicate that is not a bool scalar, carry types, a varying predicate around a collective", () => {
    expect(() => sl.makeJaxpr((x) => lax.whileLoop((v) => np.sum(v), (v) => v, x))(sl.array([1]))).toThrow(
      'cond_fun must return a boolean scalar, but got output type(s) [f32[]].',
    );
    expect(() => sl.makeJaxpr((x) => lax.whileLoop((v) => np.less(np.sum(v), 3), (v) => np.sum(v), x))(sl.array([1]))).toThrow(
      /while_loop body function carry input and carry output must have equal types, but carry 0 is f32\[1\] as input and f32\[\] as output/,
    );
    expect(() => sl.makeJaxpr((x) => lax.whileLoop((v) => np.less(v, 3), (v) => [v], x))(sl.array(1))).toThrow(/body_fun output pytree structure must match init_val/);
    const mesh = sl.makeMesh([8], ['i']);
    const body = (x) => lax.whileLoop((v) => np.less(np.sum(v), 100), (v) => np.add(v, lax.psum(v, 'i')), x);
    expect(() => sl.makeJaxpr(sl.shardMap(body, { mesh, inSpecs: sl.P('i'), outSpecs: sl.P('i') }))(sl.array(new Array(8).fill(1)))).toThrow(
      /while_loop: the predicate varies across devices along \('i',\), but the loop performs psum/,
    );
  });
});

describe('loops on both executors, and loops that never end', () => {
  const fixture = fileURLToPath(new URL('./fixtures/while_loops.mjs', import.meta.url));
  const run = (mode) => JSON.parse(execFileSync(process.execPath, [fixture, mode], { encoding: 'utf8', timeout: 60000 }).trim().split('\n').pop());

  test('a power iteration in a shardMap: bitwise equal on both executors; cancel() stops an endless loop on both and the next call works', () => {
    const threaded = run('threads');
    const lockstep = run('lockstep');
    expect(threaded.executor).toBe('threaded');
    expect(lockstep.executor).toBe('lockstep');
    expect(lockstep.bits).toEqual(threaded.bits);
    expect(lockstep.steps).toBe(threaded.steps);
    expect(threaded.steps).toBeGreaterThan(3);
    // The dominant eigenvector of a matrix close to diag(4, 1, ...): close to e0.
    expect(threaded.v[0]).toBeGreaterThan(0.99);
    for (const r of [threaded, lockstep]) {
      expect(r.cancelled).toBe('CancelledError: the call was cancelled before it finished');
      expect(r.after).toEqual([-5, 1]); // sum < 0 at once: no iteration
    }
  }, 120000);

  test("the checker's time limit stops a solution's endless loop and reports it", () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const reference = readFileSync(`${root}problems/data-parallel-step/solution.mjs`, 'utf8');
    const endless = reference.replace(
      'return { w: w.sub(mw.mul(lr)),',
      'return { w: lax.whileLoop((c) => sl.np.greaterEqual(sl.np.sum(sl.np.abs(c)), 0), (c) => c.add(1), w.sub(mw.mul(lr))),',
    );
    expect(endless).not.toBe(reference);
    const dir = mkdtempSync(join(tmpdir(), 'while-'));
    writeFileSync(join(dir, 'endless.mjs'), endless);
    const t0 = Date.now();
    const r = spawnSync(process.execPath, ['web/checker/cli.js', 'check', 'data-parallel-step', join(dir, 'endless.mjs'), '--json', '--time-limit', '3'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60000,
    });
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout);
    expect([...new Set(report.cases.map((c) => c.message))]).toEqual(['the check ran longer than 3 s (the time limit) and was stopped']);
    expect(Date.now() - t0).toBeLessThan(30000); // the process ends: no device is left looping
  }, 60000);
});
