// The judge's side of a solution's sandbox, whatever runs it (a child
// process in the CLI, a module worker in the page, the same thread in tests):
// requests go out as protocol messages, and everything that comes back is
// read by readSandboxMessage. The first thing that goes wrong — a malformed
// message, the sandbox's exit, the time limit — ends the sandbox, and every
// later request fails with the same reason.

import { ProtocolError, readSandboxMessage, traceRequest } from './protocol.js';

/** Why a sandbox cannot give what was asked: `name` is LoadError, TimeoutError, ExitError or ProtocolError. */
export class SandboxError extends Error {
  constructor(name, message) {
    super(message);
    this.name = name;
  }
}

/**
 * A time limit shared by everything one check does. What it counts is
 * `used()`: milliseconds of the solution's own time since the limit
 * started, by default wall time; the CLI counts the CPU time of the
 * sandbox's process and of the judge's runs of the solution's programs, so
 * a loaded machine does not fail a correct solution. With a meter, wall
 * time still ends it after `backstopMs` (3 times the limit by default: a
 * solution that sleeps or is stopped uses no CPU time).
 * race(promise) rejects with a TimeoutError once it has passed.
 */
export class Deadline {
  constructor(limitMs, { used = null, backstopMs = used ? 3 * limitMs : limitMs } = {}) {
    this.limitMs = limitMs;
    this.backstopAt = performance.now() + backstopMs;
    const base = used?.() ?? 0;
    this._used = used ? () => used() - base : () => 0;
  }

  /** Whether the limit (or the wall-clock backstop) has passed. */
  get passed() {
    return this._used() >= this.limitMs || performance.now() >= this.backstopAt;
  }

  /** The error of a check that ran past the limit. */
  error() {
    return new SandboxError('TimeoutError', `the check ran longer than ${this.limitMs / 1000} s (the time limit) and was stopped`);
  }

  /** `promise`, or a TimeoutError when the limit passes first (`onTimeout` runs then). */
  race(promise, onTimeout = () => {}) {
    return new Promise((resolve, reject) => {
      let timer;
      // The meter is read every 50 ms at most; a pure wall-clock limit needs one timer.
      const poll = () => {
        if (this.passed) {
          onTimeout();
          reject(this.error());
          return;
        }
        const wall = this.backstopAt - performance.now();
        const left = this.limitMs - this._used();
        timer = setTimeout(poll, Math.max(1, Math.min(wall, left, 50)));
      };
      poll();
      promise.then(
        (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        (e) => {
          clearTimeout(timer);
          reject(e);
        },
      );
    });
  }
}

/**
 * A sandbox over `port` = {post(message), kill(), close() optional, cpuMs()
 * optional: the CPU milliseconds the sandbox has used}; the host hands it
 * what the sandbox sends (receive, or malformed for what is not a message
 * at all) and tells it when the sandbox has gone (exited, with a
 * description such as 'code 1').
 */
export class Sandbox {
  constructor(port) {
    this._port = port;
    this._state = { started: false, ready: false, pending: null };
    this._broken = null;
    this._waiting = null; // {resolve, reject} of the one outstanding request (loading counts as one)
    this._nextId = 1;
    this._loaded = new Promise((resolve, reject) => {
      this._waiting = { resolve, reject };
    });
    this._loaded.catch(() => {});
    this._started = new Promise((resolve, reject) => {
      this._startWaiting = { resolve, reject };
    });
    this._started.catch(() => {});
  }

  /** A message from the sandbox. */
  receive(m) {
    if (this._broken) return;
    let msg;
    try {
      msg = readSandboxMessage(m, this._state);
    } catch (e) {
      this._fail(e);
      return;
    }
    if (msg.type === 'progress') return;
    if (msg.type === 'started') {
      this._state.started = true;
      this._startWaiting.resolve();
      return;
    }
    if (msg.type === 'loadError') {
      this._fail(new SandboxError('LoadError', msg.message));
      return;
    }
    const w = this._waiting;
    this._waiting = null;
    if (msg.type === 'ready') {
      this._state.ready = true;
      w.resolve();
    } else {
      this._state.pending = null;
      w.resolve(msg.results);
    }
  }

  /** The sandbox sent something that is not a message (`detail`: 'not JSON'). */
  malformed(detail) {
    this._fail(new ProtocolError(detail));
  }

  /** A meter of the sandbox's CPU milliseconds, or null where the host cannot read it (then wall time counts). */
  get cpuMeter() {
    return this._port.cpuMs ? () => this._port.cpuMs() : null;
  }

  /** The sandbox has gone (`how`: 'code 0', 'signal SIGKILL', 'a crash: ...'). */
  exited(how) {
    this._fail(new SandboxError('ExitError', `the solution exited (${how})`));
  }

  /**
   * Resolves once the sandbox's runtime is up (Python's start, which the
   * solution's time limit does not count); rejects when it breaks first or
   * `deadline` (the limit for starting) passes.
   */
  started(deadline) {
    return deadline.race(this._started, () => this._fail(deadline.error()));
  }

  /** Resolves once the solution is loaded; rejects with why it cannot be. */
  ready(deadline) {
    return deadline.race(this._loaded, () => this._fail(deadline.error()));
  }

  /** The sandbox's results for `signatures`: per signature {exported} or {error: {name, message}}. */
  async trace(signatures, deadline) {
    await this.ready(deadline);
    if (this._broken) throw this._broken;
    const id = this._nextId++;
    const result = new Promise((resolve, reject) => {
      this._waiting = { resolve, reject };
    });
    this._state.pending = { id, count: signatures.length };
    this._port.post(traceRequest(id, signatures));
    return deadline.race(result, () => this._fail(deadline.error()));
  }

  /** Ends the sandbox. */
  kill() {
    if (!this._broken) this._broken = new SandboxError('ExitError', 'the sandbox was closed');
    this._port.kill();
  }

  /**
   * Ends the check normally: a port that serves more than one check (a warm
   * Python worker) is only closed (`port.close`); any other is killed.
   */
  close() {
    if (!this._broken) this._broken = new SandboxError('ExitError', 'the sandbox was closed');
    if (this._port.close) this._port.close();
    else this._port.kill();
  }

  _fail(error) {
    if (this._broken) return;
    this._broken = error;
    this._port.kill();
    const w = this._waiting;
    this._waiting = null;
    w?.reject(error);
    this._startWaiting.reject(error);
  }
}
