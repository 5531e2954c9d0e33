// ShardLab's side of the peer cases (cases.mjs): on a 1-device runtime, each
// case as one jitted function; on 8 devices, the sharded programs: the matmul
// column-sharded, the MLP step tensor-parallel (W1 by columns, W2 by rows,
// one psum; its gradient through the shard_map), the linear steps the
// data-parallel problem's reference solution (x and y by rows, pmean).
import * as sl from '../../../web/lib/index.js';
import dataParallelStep from '../../../problems/data-parallel-step/solution.mjs';
import { mlpSpecs, shardMapStep, wholeStep } from '../mlp_step.mjs';
import { caseHandle, LR } from './cases.mjs';

const { P, NamedSharding } = sl;

/** The implementations, by case: (devices) -> {fn, specs: per input its PartitionSpec on the 8-device mesh}. */
function program(name, devices) {
  const mesh = devices > 1 ? sl.makeMesh([devices], ['d']) : null;
  if (name.startsWith('matmul')) {
    if (!mesh) return { fn: (a, b) => a.matmul(b) };
    const fn = sl.shardMap((a, b) => a.matmul(b), { mesh, inSpecs: [P(), P(null, 'd')], outSpecs: P(null, 'd') });
    return { fn, specs: [P(), P(null, 'd')] };
  }
  if (name === 'mlp-train-step') {
    if (!mesh) return { fn: wholeStep };
    // The whole step in the shard_map, as one writes it in JAX: each device differentiates its blocks
    // (the psum's transpose hands every device the output's cotangent), so nothing is recomputed.
    return { fn: shardMapStep(mesh), specs: mlpSpecs('d') };
  }
  // The linear steps: the problem's reference solution makes its own 8-device mesh.
  if (mesh) return { fn: (w, b, x, y) => dataParallelStep(w, b, x, y, LR), specs: [P(), P(), P('d'), P('d')], mesh: sl.makeMesh([8], ['data']) };
  const loss = (w, b, x, y) => x.matmul(w).add(b).sub(y).square().sum().div(x.shape[0]);
  return {
    fn: (w, b, x, y) => {
      const [l, [gw, gb]] = sl.valueAndGrad(loss, { argnums: [0, 1] })(w, b, x, y);
      return { w: w.sub(gw.mul(LR)), b: b.sub(gb.mul(LR)), loss: l };
    },
  };
}

/** Starts the runtime with `devices` devices (memory for the MLP's 16 MiB weights and their gradients). */
export async function load({ devices = 8 } = {}) {
  await sl.init({ devices, memoryMB: 1024 });
  const info = sl.runtimeInfo();
  return { backend: `wasm, ${info.devices} device${info.devices > 1 ? 's' : ''} (${info.executor})` };
}

/**
 * Case `name` on this realm's runtime with `inputs` ({name: {data, shape}}):
 * {run() (one awaited call), output() ({key: Float32Array}), dispose()}.
 */
export async function setup(name, inputs) {
  const devices = sl.runtimeInfo().devices;
  const { fn, specs, mesh: own } = program(name, devices);
  const mesh = own ?? (devices > 1 ? sl.makeMesh([devices], ['d']) : null);
  // The inputs live on the devices as the program reads them, so a call moves no data.
  const host = Object.values(inputs).map(({ data, shape }) => sl.array(data, { shape }));
  const args = specs ? host.map((a, i) => sl.devicePut(a, new NamedSharding(mesh, P(...specs[i].entries.map((e) => (e === 'd' ? mesh.axisNames[0] : e)))))) : host;
  const jitted = sl.jit(fn);
  return caseHandle({
    call: async () => {
      const out = await jitted(...args);
      return out instanceof sl.Array ? { c: out } : out;
    },
    read: async (a) => {
      const data = await a.data();
      a.dispose();
      return data;
    },
    free: (a) => a.dispose(),
    dispose: () => {
      for (const a of new Set([...host, ...args])) a.dispose();
    },
  });
}
