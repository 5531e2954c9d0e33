// np.linalg's factorizations and solves against float64 references written
// out here (Gaussian elimination for det and solve, products of the factors
// for cholesky, qr, eigh and svd), their gradients against the float64
// formulas (d det a = det a * a^-T, d log|det a| = a^-T, d(sum a^-1 b)),
// stacks, JAX's docstring values and the errors. Tolerances: float32
// factorizations of O(1) matrices agree with float64 to 1e-5 relative.
import { beforeAll, expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

const { np } = sl;
beforeAll(() => sl.init());

const range = (n) => Array.from({ length: n }, (_, i) => i);
// A deterministic well-conditioned n x n matrix (diagonally dominant) and an m x n one.
const square = (n, seed = 1) => range(n).map((i) => range(n).map((j) => Math.sin(seed * (i * n + j + 1)) + (i === j ? n : 0)));
const rect = (m, n, seed = 3) => range(m).map((i) => range(n).map((j) => Math.cos(seed * (i * n + j) + 0.5)));
const f32 = (rows) => sl.array(rows, { dtype: 'float32' });
// float64 matrix helpers
const mm = (a, b) => a.map((r) => b[0].map((_, j) => r.reduce((s, v, k) => s + v * b[k][j], 0)));
const T = (a) => a[0].map((_, j) => a.map((r) => r[j]));
const eye = (n) => range(n).map((i) => range(n).map((j) => (i === j ? 1 : 0)));
const maxDiff = (a, b) => Math.max(...a.flat(Infinity).map((v, k) => Math.abs(v - b.flat(Infinity)[k])));
// det and inverse by Gauss-Jordan with partial pivoting, in float64.
function gauss(a) {
  const n = a.length;
  const m = a.map((r, i) => [...r, ...eye(n)[i]]);
  let det = 1;
  for (let j = 0; j < n; j++) {
    let p = j;
    for (let i = j + 1; i < n; i++) if (Math.abs(m[i][j]) > Math.abs(m[p][j])) p = i;
    if (p !== j) { [m[p], m[j]] = [m[j], m[p]]; det = -det; }
    det *= m[j][j];
    const pivot = m[j][j];
    m[j] = m[j].map((v) => v / pivot);
    for (let i = 0; i < n; i++) if (i !== j) { const f = m[i][j]; m[i] = m[i].map((v, c) => v - f * m[j][c]); }
  }
  return { det, inv: m.map((r) => r.slice(n)) };
}

test('solve, inv, det and slogdet against float64 Gaussian elimination', async () => {
  for (const n of [1, 2, 3, 4, 6]) {
    const a = square(n);
    const { det, inv } = gauss(a);
    const b = range(n).map((i) => i - 1.5);
    const x = await np.linalg.solve(f32(a), f32(b)).tolist();
    expect(maxDiff([x], [mm(inv, b.map((v) => [v])).map((r) => r[0])])).toBeLessThan(1e-5);
    expect(maxDiff(await np.linalg.inv(f32(a)).tolist(), inv)).toBeLessThan(1e-5);
    expect(Math.abs((await np.linalg.det(f32(a)).item()) - det) / Math.abs(det)).toBeLessThan(1e-5);
    const [s, logabsdet] = np.linalg.slogdet(f32(a));
    expect(await s.item()).toBe(Math.sign(det));
    expect(Math.abs((await logabsdet.item()) - Math.log(Math.abs(det)))).toBeLessThan(1e-5);
  }
  // a negative determinant (two rows swapped), a singular matrix
  const swapped = [[0, 1, 2], [3, 4, 5.5], [6, 7, 8]].reverse();
  expect(await np.linalg.slogdet(f32([[2, 1, 0, 0], [1, 2, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]]))[0].item()).toBe(-1);
  expect(await np.linalg.det(f32(swapped)).item()).toBeCloseTo(gauss(swapped).det, 4);
  const [s0, l0] = np.linalg.slogdet(f32([[1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 0, 1, 0]]));
  expect([await s0.item(), await l0.item()]).toEqual([0, -Infinity]);
});

test('solve takes a vector, matrices, and stacks whose batch dimensions broadcast', async () => {
  const a = [square(3, 1), square(3, 2)];
  const bm = rect(3, 2);
  const got = await np.linalg.solve(f32(a), f32(bm)).tolist();  // (2,3,3) with (3,2): b broadcast
  for (const k of [0, 1]) expect(maxDiff(got[k], mm(gauss(a[k]).inv, bm))).toBeLessThan(1e-5);
  expect(np.linalg.solve(f32(a), f32([bm, bm])).shape).toEqual([2, 3, 2]);
  expect(np.linalg.solve(f32(a[0]), f32([1, 2, 3])).shape).toEqual([3]);
  expect(() => np.linalg.solve(f32([1, 2]), f32([1, 2]))).toThrow('np.linalg.solve: left hand array must be square matrices');
  expect(() => np.linalg.solve(f32(a), f32([[1, 2, 3], [4, 5, 6]]))).toThrow('Prior to JAX v0.5.0, this would have been treated as a batched 1-dimensional solve');
  expect(() => np.linalg.solve(f32(a[0]), f32([1, 2]))).toThrow("np.linalg.solve: b's length 2 must equal a's size 3");
});

test('cholesky, qr, eigh and svd: the factors give the matrix back', async () => {
  const a = square(4);
  const spd = mm(a, T(a));
  const l = await np.linalg.cholesky(f32(spd)).tolist();
  expect(maxDiff(mm(l, T(l)), spd)).toBeLessThan(1e-4 * 16);
  expect(l[0][3]).toBe(0);
  expect(maxDiff(await np.linalg.cholesky(f32(spd), { upper: true }).tolist(), T(l))).toBe(0);
  expect((await np.linalg.cholesky(f32([[1, 2], [2, 1]])).tolist()).flat().every(Number.isNaN)).toBe(true);
  for (const [m, n] of [[5, 3], [3, 5]]) {
    const r = rect(m, n);
    const [q, rr] = np.linalg.qr(f32(r));
    const [Q, R] = [await q.tolist(), await rr.tolist()];
    expect(maxDiff(mm(Q, R), r)).toBeLessThan(1e-5);
    expect(maxDiff(mm(T(Q), Q), eye(Math.min(m, n)))).toBeLessThan(1e-5);
    expect(np.linalg.qr(f32(r), 'complete')[0].shape).toEqual([m, m]);
    expect(maxDiff(await np.linalg.qr(f32(r), 'r').tolist(), R)).toBe(0);
    const [u, s, vh] = np.linalg.svd(f32(r), false);
    const [U, S, V] = [await u.tolist(), await s.tolist(), await vh.tolist()];
    expect(maxDiff(mm(U.map((row) => row.map((v, j) => v * S[j])), V), r)).toBeLessThan(1e-5);
    expect(S).toEqual([...S].sort((x, y) => y - x));
    expect(np.linalg.svd(f32(r))[0].shape).toEqual([m, m]);
    expect(await np.linalg.svdvals(f32(r)).tolist()).toEqual(S);
  }
  const sym = mm(square(4), T(square(4)));
  const [w, v] = np.linalg.eigh(f32(sym));
  const [W, V] = [await w.tolist(), await v.tolist()];
  expect(W).toEqual([...W].sort((x, y) => x - y));
  expect(maxDiff(mm(V.map((row) => row.map((x, j) => x * W[j])), T(V)), sym)).toBeLessThan(1e-4 * 30);
  expect(await np.linalg.eigvalsh(f32(sym)).tolist()).toEqual(W);
  // hermitian=True: singular values |eigenvalues|, descending
  const [, sh] = np.linalg.svd(f32([[2, 0], [0, -3]]), true, true, true);
  expect(await sh.tolist()).toEqual([3, 2]);
});

test('pinv, matrix_rank, matrix_power and the 2-norm against float64', async () => {
  const a = square(3);
  const { inv } = gauss(a);
  expect(maxDiff(await np.linalg.pinv(f32(a)).tolist(), inv)).toBeLessThan(1e-5);
  const r = rect(4, 2);  // pinv of a tall matrix: (r^T r)^-1 r^T, whose entries reach 1.5 (so 1e-5 relative)
  expect(maxDiff(await np.linalg.pinv(f32(r)).tolist(), mm(gauss(mm(T(r), r)).inv, T(r)))).toBeLessThan(2e-5);
  expect(await np.linalg.matrixRank(f32([[1, 0], [0, 0]])).item()).toBe(1);
  expect(await np.linalg.matrixRank(f32([[1, 2], [2, 4.0000001]])).item()).toBe(1);
  expect(await np.linalg.matrixRank(f32(a)).item()).toBe(3);
  const p5 = mm(mm(mm(mm(a, a), a), a), a);
  expect(maxDiff(await np.linalg.matrixPower(f32(a), 5).tolist(), p5) / 1000).toBeLessThan(1e-5);
  expect(maxDiff(await np.linalg.matrixPower(f32(a), -2).tolist(), mm(inv, inv))).toBeLessThan(1e-5);
  expect(await np.linalg.matrixPower(f32(a), 0).tolist()).toEqual(eye(3));
  const s = await np.linalg.svdvals(f32(r)).tolist();
  expect(await np.linalg.norm(f32(r), { ord: 2 }).item()).toBe(s[0]);
  expect(await np.linalg.norm(f32(r), { ord: -2 }).item()).toBe(s[1]);
  expect(await np.linalg.norm(f32(r), { ord: 'nuc' }).item()).toBeCloseTo(s[0] + s[1], 5);
});

test('gradients: det, log|det|, solve and eigvalsh against their float64 formulas', async () => {
  for (const n of [2, 3, 5]) {
    const a = square(n, 2);
    const { det, inv } = gauss(a);
    const g = await sl.grad((x) => np.linalg.det(x))(f32(a)).tolist();
    expect(maxDiff(g, T(inv).map((r) => r.map((v) => v * det))) / Math.abs(det)).toBeLessThan(1e-4);
    const gl = await sl.grad((x) => np.linalg.slogdet(x)[1])(f32(a)).tolist();
    expect(maxDiff(gl, T(inv))).toBeLessThan(1e-4);
    // d/da sum(a^-1 b) = -(a^-T 1)(a^-1 b)^T
    const b = range(n).map((i) => [i + 1]);
    const x = mm(inv, b);
    const y = mm(T(inv), range(n).map(() => [1]));
    const want = y.map((r) => x.map((c) => -r[0] * c[0]));
    expect(maxDiff(await sl.grad((m) => np.sum(np.linalg.solve(m, f32(b))))(f32(a)).tolist(), want)).toBeLessThan(1e-4);
  }
  // pinv: JAX's custom rule, finite where singular values repeat: at I, d sum(pinv) = -1 everywhere
  // (p = I: -da + da^T - da^T + da^T - da^T = -da); at a tall matrix, d pinv = -pinv da pinv + ... as the
  // float64 formula (a^T a)^-1 a^T differentiated by finite differences.
  expect((await sl.grad((m) => np.sum(np.linalg.pinv(m)))(np.eye(3)).tolist()).flat()).toEqual(Array(9).fill(-1));
  const tall = rect(4, 2);
  const pinv64 = (r) => mm(gauss(mm(T(r), r)).inv, T(r));
  const sumPinv = (r) => pinv64(r).flat().reduce((s, v) => s + v, 0);
  const fd = tall.map((row, i) => row.map((_, j) => {
    const bump = (h) => tall.map((rr, ii) => rr.map((v, jj) => (ii === i && jj === j ? v + h : v)));
    return (sumPinv(bump(1e-6)) - sumPinv(bump(-1e-6))) / 2e-6;
  }));
  expect(maxDiff(await sl.grad((m) => np.sum(np.linalg.pinv(m)))(f32(tall)).tolist(), fd)).toBeLessThan(5e-4);  // float32, entries up to ~2
  // d(sum of eigenvalues) = d trace = I (on the symmetric part)
  const sym = mm(square(3), T(square(3)));
  expect(maxDiff(await sl.grad((m) => np.sum(np.linalg.eigvalsh(m)))(f32(sym)).tolist(), eye(3))).toBeLessThan(1e-5);
});

test("JAX's docstring examples", async () => {
  // jax/_src/numpy/linalg.py at jax-v0.11.0
  expect(await np.linalg.det(sl.array([[1, 2], [3, 4]])).item()).toBe(-2);
  const [s, l] = np.linalg.slogdet(sl.array([[1, 2], [3, 4]]));
  expect([await s.item(), await np.exp(l).item()]).toEqual([-1, 2]);
  expect(await np.linalg.solve(f32([[1, 2, 3], [2, 4, 2], [3, 2, 1]]), f32([14, 16, 10])).tolist()).toEqual([1, 2, 3].map((v) => expect.closeTo(v, 5)));
  expect(await np.linalg.matrixRank(sl.array([[1, 0], [0, 0]])).item()).toBe(1);
});

test('lax.linalg: JAX\'s orders and shapes, apart from np.linalg\'s for the same input', async () => {
  const sym = f32([[2, 1], [1, 2]]);
  const [values] = np.linalg.eigh(sym);
  const [vectors, w] = sl.lax.linalg.eigh(sym);  // lax's order: (v, w)
  expect([await values.tolist(), await w.tolist(), vectors.shape]).toEqual([[1, 3], [1, 3], [2, 2]]);
  const tall = f32(rect(3, 2));
  expect(np.linalg.qr(tall).map((x) => x.shape)).toEqual([[3, 2], [2, 2]]);
  expect(sl.lax.linalg.qr(tall).map((x) => x.shape)).toEqual([[3, 3], [3, 2]]);  // full_matrices=True by default
  const [lu, pivots, permutation] = sl.lax.linalg.lu(f32([[1, 2], [3, 4]]));
  expect([await lu.tolist(), await pivots.tolist(), await permutation.tolist()]).toEqual([[[3, 4], [1 / 3, 2 - 4 / 3].map(Math.fround)], [1, 1], [1, 0]]);
  const x = sl.lax.linalg.triangularSolve(f32([[2, 0], [1, 4]]), f32([2, 9]), { leftSide: true, lower: true });
  expect(await x.tolist()).toEqual([1, 2]);
});

test('errors name the function, the shape and what is valid', () => {
  expect(() => np.linalg.det(f32([[1, 2, 3]]))).toThrow('np.linalg.det: argument must have shape [..., n, n], got (1, 3)');
  expect(() => np.linalg.cholesky(f32([1, 2]))).toThrow('np.linalg.cholesky: argument must have shape [..., n, n], got (2)');
  expect(() => np.linalg.qr(f32([[1]]), 'raw')).toThrow("np.linalg.qr: unsupported mode \"raw\"");
  expect(() => np.linalg.eigh(f32([[1]]), 'X')).toThrow("np.linalg.eigh: UPLO must be 'L' or 'U'");
  expect(() => np.linalg.slogdet(f32([[1]]), { method: 'qr' })).toThrow("Unknown slogdet method 'qr'");
  expect(() => sl.grad((x) => np.sum(np.linalg.qr(x)[0]))(f32([[1, 2, 3], [4, 5, 6]]))).toThrow('qr: the derivative of qr of f32[2,3] is defined here for m >= n');
});
