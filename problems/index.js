// The problems, in the order the CLI and the page list them: each one's
// data (problem.js: the arguments, examples, generator, float64 reference
// and structural requirements), with its statement.md and reference
// solution.mjs beside it. Adding a problem is a folder and a line here.
import deviceMesh from './device-mesh-named-sharding/problem.js';
import dataParallel from './data-parallel-step/problem.js';
import tensorParallel from './tensor-parallel-mlp/problem.js';
import ring from './ring-allreduce-ppermute/problem.js';
import padMask from './pad-mask-bucket/problem.js';
import hvp from './hessian-vector-product/problem.js';
import clipping from './per-example-clipping/problem.js';
import ste from './straight-through-estimator/problem.js';
import lrSchedule from './traced-lr-schedule/problem.js';
import ema from './ema-scan/problem.js';
import spectralNorm from './spectral-norm/problem.js';
import attention from './batched-attention-vmap/problem.js';
import pairwise from './pairwise-distances-nested-vmap/problem.js';

export default [deviceMesh, dataParallel, tensorParallel, ring, padMask, hvp, clipping, ste, lrSchedule, ema, spectralNorm, attention, pairwise];
