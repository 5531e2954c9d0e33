// What a check's time limit counts: the solution's own time, as well as the
// host can measure it. The sandbox's CPU time while it traces (wall time
// where that cannot be read: a page's worker), and the judge's CPU time
// while it runs the solution's programs (where the judge cannot read its
// own, a page, those runs count nothing: the limit's wall-clock backstop
// still ends a loop that never does). The judge's own work (rebuilding,
// comparing) is not the solution's time: payload limits bound it instead.

/**
 * A clock over `sandboxCpu` and `judgeCpu` (meters of CPU milliseconds, or
 * null where there are none): `used()` is the solution's time so far;
 * `tracing(promise)` and `running(promise)` count the time until `promise`
 * settles as the sandbox's and the judge's work on the solution.
 */
export function solutionClock({ sandboxCpu = null, judgeCpu = null } = {}) {
  let traceWall = 0;
  let traceSince = null;
  let runs = 0;
  let runSince = null;
  const span = (start, stop) => (promise) => {
    start();
    return promise.finally(stop);
  };
  return {
    used() {
      const traced = sandboxCpu ? sandboxCpu() : traceWall + (traceSince === null ? 0 : performance.now() - traceSince);
      const ran = judgeCpu ? runs + (runSince === null ? 0 : judgeCpu() - runSince) : 0;
      return traced + ran;
    },
    tracing: span(
      () => (traceSince = performance.now()),
      () => {
        traceWall += performance.now() - traceSince;
        traceSince = null;
      },
    ),
    running: span(
      () => (runSince = judgeCpu?.() ?? 0),
      () => {
        if (judgeCpu) runs += judgeCpu() - runSince;
        runSince = null;
      },
    ),
  };
}
