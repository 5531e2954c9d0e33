// Exposes the device runtime to the Playwright test (tests/browser/devices.spec.js);
// a file, not an inline script, since the pages are served with a CSP that forbids those.
import { loadDevices } from '/web/lib/engine/devices.js';
import { loadTestDevices, runRepeated } from '/web/lib/testing.js';

// repeatedCollective(rt, mesh, x, desc, reps): one job of `reps` runs of a collective's program (the test hook
// benchmarks use), on a runtime of the test build (loadTestDevices).
const repeatedCollective = async (rt, mesh, x, desc, reps) => {
  const program = rt.collectiveProgram(mesh, x, desc, []);
  try {
    return (await runRepeated(rt, mesh, program, [x], reps))[0];
  } finally {
    program.delete();
  }
};
window.shardlab = { loadDevices, loadTestDevices, repeatedCollective };
document.getElementById('status').textContent = crossOriginIsolated ? 'isolated' : 'not isolated';
