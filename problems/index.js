// The problems, in the order the CLI and the page list them: each one's
// data (problem.js: the arguments, examples, generator, float64 reference
// and structural requirements), with its statement.md and reference
// solution.mjs beside it. Adding a problem is a folder and a line here.
import deviceMesh from './device-mesh-named-sharding/problem.js';
import dataParallel from './data-parallel-step/problem.js';
import tensorParallel from './tensor-parallel-mlp/problem.js';
import ring from './ring-allreduce-ppermute/problem.js';
import ema from './ema-scan/problem.js';

export default [deviceMesh, dataParallel, tensorParallel, ring, ema];
