// The benchmarks' MLP training step: one SGD step on the mean squared error
// of relu(x W1 + b1) W2 + b2, in JAX's two ways of running it tensor-parallel
// over one mesh axis (W1 by columns, b1 and W2 by rows, x and y whole):
// written by hand with shard_map (each device differentiates its blocks, one
// psum), and in the global view, the arrays typed by their Explicit
// shardings and the step partitioned (the same psum, inserted). The peers'
// mlp-train-step case and the scale rows run them.
import * as sl from '../../web/lib/index.js';
import { LR } from './peers/cases.mjs';

const { P, lax, np, nn } = sl;

const hidden = (x, w1, b1) => nn.relu(x.matmul(w1).add(b1));
const mlpLoss = (forward) => (p, x, y) => np.mean(np.square(forward(x, p.w1, p.b1, p.w2).add(p.b2).sub(y)));
const sgd = (p, g) => Object.fromEntries(Object.keys(p).map((k) => [k, p[k].sub(g[k].mul(LR))]));

/** The step (w1, b1, w2, b2, x, y) -> {w1, b1, w2, b2} whose forward pass is `forward(x, w1, b1, w2)`. */
const stepOf = (forward) => (w1, b1, w2, b2, x, y) => sgd({ w1, b1, w2, b2 }, sl.grad(mlpLoss(forward))({ w1, b1, w2, b2 }, x, y));

/** The step on one device's whole arrays. */
export const wholeStep = stepOf((x, w1, b1, w2) => hidden(x, w1, b1).matmul(w2));

/** How the step's inputs (w1, b1, w2, b2, x, y) are split over mesh axis `axis`. */
export const mlpSpecs = (axis) => [P(null, axis), P(axis), P(axis, null), P(), P(), P()];

/** The step written with shard_map over `mesh`'s one axis: the psum of each device's partial product. */
export function shardMapStep(mesh) {
  const axis = mesh.axisNames[0];
  const specs = mlpSpecs(axis);
  const local = (x, w1, b1, w2) => lax.psum(hidden(x, w1, b1).matmul(w2), axis);
  return sl.shardMap(stepOf(local), { mesh, inSpecs: specs, outSpecs: { w1: specs[0], b1: specs[1], w2: specs[2], b2: P() } });
}

/**
 * The step in the global view, for arrays placed by mlpSpecs over an Explicit
 * axis: the contraction over the sharded hidden dimension is asked for
 * replicated (out_sharding P()), which the partitioner computes as each
 * device's partial product and a psum.
 */
export const globalStep = stepOf((x, w1, b1, w2) => np.matmul(hidden(x, w1, b1), w2, { outSharding: P() }));
