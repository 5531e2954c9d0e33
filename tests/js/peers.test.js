// The peer benchmark compares the same work: on every case at a small size,
// TensorFlow.js's wasm backend and jax-js (each in its own process, as the
// bench runs them: scripts/bench/peers/) give ShardLab's outputs within the
// bench's tolerance (1e-3 of each output's largest magnitude); and the
// comparison catches a difference.
import { expect, test } from 'vitest';
import { disagreement } from '../../scripts/bench/peers/cases.mjs';
import { peerAgreement } from '../../scripts/bench/peers/index.mjs';

test('every peer computes what ShardLab computes, on every case', async () => {
  const results = await peerAgreement();
  expect(results.map((r) => r.case).sort()).toEqual(['data-parallel-step', 'matmul-1024', 'matmul-256', 'mlp-train-step', 'seed-step'].flatMap((c) => [c, c]));
  for (const r of results) expect(r.error, `${r.impl} on ${r.case}`).toBeNull();
}, 120000);

test('a disagreement is reported with the output, the index and both values', () => {
  const want = { w: new Float32Array([1, -2, 3]), loss: new Float32Array([0.5]) };
  expect(disagreement(want, { w: new Float32Array([1, -2, 3.001]), loss: new Float32Array([0.5]) })).toBeNull();
  expect(disagreement(want, { w: new Float32Array([1, -2, 3.01]), loss: new Float32Array([0.5]) })).toMatch(/^output w\[2\] = 3.00999\d*, ShardLab's is 3 \(tolerance 0.003\)$/);
  expect(disagreement(want, { w: new Float32Array([1, -2, 3]) })).toBe("output loss: missing; ShardLab's has 1 values");
});
