// Test and benchmark hooks, for the project's own tests and benches only
// (the package's `exports` do not name this file): the test build of the
// module, whose jobs can fail on purpose, under the device runtime and under
// the JS API; and a program run many times in one job on the device
// threads, so a benchmark times the program, not the job's start.

import { initWith } from './api/core/state.js';
import { startDevices } from './engine/start_devices.js';

export { injectFault, runRepeated } from './engine/test_hooks.js';

/** loadDevices with the test build of the module (with threads). */
export function loadTestDevices(options = {}) {
  return startDevices(options, { testBuild: true });
}

/** sl.init with the test build of the module under it (with threads). */
export function initTestBuild(options = {}) {
  return initWith(options, (o) => startDevices(o, { testBuild: true }));
}
