// The checker's side of a solution worker (a Node worker_thread or a browser
// module Worker): one call at a time, each stopped by terminating the worker
// when it runs past the time limit. The worker answers {ready}, {loadError},
// {ok, ...} or {ok: false, error}.

/**
 * A runner ({trace(input), run(input), close()}) over `port` = {post,
 * onMessage, onError, terminate}; resolves once the worker has loaded the
 * solution. Rejects with a LoadError when it cannot load it.
 */
export async function portRunner(port, { timeLimitMs = 10000 } = {}) {
  let stopped = null;
  let waiting = null;
  const settle = (f) => {
    const w = waiting;
    waiting = null;
    if (w) f(w);
  };
  const named = (message, name) => Object.assign(new Error(message), { name });
  port.onMessage((m) => {
    if (m.loadError) {
      stopped = m.loadError;
      port.terminate();
      settle((w) => w.reject(named(m.loadError, 'LoadError')));
      return;
    }
    settle((w) => (m.ready || m.ok ? w.resolve(m) : w.reject(named(m.error.message, m.error.name))));
  });
  port.onError((e) => {
    stopped = `the solution could not run: ${e?.message ?? e}`;
    settle((w) => w.reject(new Error(stopped)));
  });
  const call = (message) => {
    if (stopped) return Promise.reject(new Error(stopped));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        stopped = `not run: an earlier call ran longer than ${timeLimitMs / 1000} s (the time limit)`;
        port.terminate();
        settle((w) => w.reject(named(`the solution ran longer than ${timeLimitMs / 1000} s (the time limit) and was stopped`, 'TimeoutError')));
      }, timeLimitMs);
      const done = (f) => (v) => {
        clearTimeout(timer);
        f(v);
      };
      waiting = { resolve: done(resolve), reject: done(reject) };
      if (message) port.post(message);
    });
  };
  // Loaded, or failed to load (a LoadError), or stopped while loading: then
  // every call rejects with why.
  await call(null).catch((e) => {
    if (e.name === 'LoadError') throw e;
    stopped = `the solution ${e.name === 'TimeoutError' ? `ran longer than ${timeLimitMs / 1000} s (the time limit) while loading and was stopped` : `could not start: ${e.message}`}`;
  });
  return {
    trace: async (input) => call({ kind: 'trace', input }),
    run: async (input) => (await call({ kind: 'run', input })).raw,
    close: () => port.terminate(),
  };
}
