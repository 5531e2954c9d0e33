// The device runtime's hooks for the project's own tests and benches
// (web/lib/testing.js exports them; the package leaves this file out), both
// on the test build of the module: a job that fails on purpose, and a
// program run many times in one job on the device threads.

/**
 * A job in which device `device` of `mesh` fails between two psums, on a
 * runtime of the test build: mode 'throw' (an error), 'trap' or 'abort'
 * (both kill its worker). Resolves or rejects as the job ends.
 */
export function injectFault(runtime, mesh, device, { mode = 'throw' } = {}) {
  const { Module } = runtime;
  if (!Module.submitFault) return Promise.reject(new Error('injectFault: the runtime is not of the test build (loadTestDevices)'));
  const threaded = runtime._executor;
  return threaded.submit((id) => {
    Module.submitFault(threaded.core, id, mesh, device, mode);
    return undefined;
  });
}

/**
 * Runs `program` `reps` times in one job on the devices of a threaded
 * runtime of the test build (the native benchmarks do the same,
 * exec/repeated_job.h); resolves to the last run's outputs.
 */
export async function runRepeated(runtime, mesh, program, inputs, reps) {
  const { Module } = runtime;
  if (!Module.submitRepeated) throw new Error('runRepeated: the runtime is not of the test build (loadTestDevices)');
  const threaded = runtime._executor;
  const run = await threaded.submit((id, ins) => Module.submitRepeated(threaded.core, id, mesh, program, ins, reps), inputs);
  const outs = Array.from({ length: run.size() }, (_, i) => run.output(i));
  run.delete();
  return outs;
}
