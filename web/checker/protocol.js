// The messages between the checker's judge and a solution's sandbox, the
// same in the CLI (a child process) and the page (a module worker). Every
// message carries the protocol version; what a sandbox sends is read by
// readSandboxMessage, which accepts only well-formed messages of the types
// below and in their order, since the sandbox runs the learner's code.
//
// judge -> sandbox
//   {v, type: 'trace', id, signatures: [[{name, dtype, shape}, ...], ...]}
//       trace the solution once per signature (one entry per argument)
// sandbox -> judge
//   {v, type: 'progress', stage, fraction?}   loading (Python's start); ignored
//   {v, type: 'started'}                      the runtime is up (Python included); the
//                                             solution's own time starts here
//   {v, type: 'ready'}                        the solution is loaded
//   {v, type: 'loadError', message}           it cannot be loaded
//   {v, type: 'traced', id, results: [{exported} | {error: {name, message}}, ...]}
//       per signature, the jax.export text of the traced program, or why tracing failed

/** The protocol's version, in every message. */
export const PROTOCOL_VERSION = 1;

/** The longest string a sandbox may send: an exported program, an error message. */
export const MAX_MESSAGE_CHARS = 16 << 20;
/** The longest error name a sandbox may send. */
export const MAX_ERROR_NAME = 100;
/** The longest error message a sandbox may send (the sandbox cuts longer ones). */
export const MAX_ERROR_CHARS = 20000;
/**
 * The most text one 'traced' message carries, every result together: the
 * judge's work rebuilding programs grows with it. A sandbox gives the
 * signatures past it a ResourceError instead of their programs.
 */
export const MAX_TRACED_CHARS = 32 << 20;

/** What the judge reports when a sandbox breaks the protocol. */
export const MALFORMED = "the solution's sandbox sent a malformed message";

/** A broken protocol: the check fails with MALFORMED and the sandbox is ended. */
export class ProtocolError extends Error {
  constructor(detail) {
    super(`${MALFORMED} (${detail})`);
    this.name = 'ProtocolError';
  }
}

/** A trace request for `signatures` (lists of {name, dtype, shape}). */
export function traceRequest(id, signatures) {
  return { v: PROTOCOL_VERSION, type: 'trace', id, signatures };
}

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isText = (s, max) => typeof s === 'string' && s.length <= max;

/**
 * Reads message `m` from a sandbox in state `s` ({started: bool, ready: bool,
 * pending: the outstanding request {id, count} or null}): returns {type, ...fields},
 * copied out of `m`, or throws a ProtocolError.
 */
export function readSandboxMessage(m, s) {
  if (!isObject(m)) throw new ProtocolError('not an object');
  if (m.v !== PROTOCOL_VERSION) throw new ProtocolError(`protocol version ${JSON.stringify(m.v)}, not ${PROTOCOL_VERSION}`);
  const keys = Object.keys(m);
  const only = (...allowed) => {
    const extra = keys.find((k) => !['v', 'type', ...allowed].includes(k));
    if (extra !== undefined) throw new ProtocolError(`unexpected field ${JSON.stringify(extra).slice(0, 40)} in '${m.type}'`);
  };
  switch (m.type) {
    case 'progress':
      only('stage', 'fraction');
      if (!isText(m.stage, 200) || (m.fraction !== undefined && !(typeof m.fraction === 'number' && m.fraction >= 0 && m.fraction <= 1))) {
        throw new ProtocolError("a bad 'progress'");
      }
      return { type: 'progress', stage: m.stage, fraction: m.fraction };
    case 'started':
      only();
      if (s.started) throw new ProtocolError("a second 'started'");
      return { type: 'started' };
    case 'ready':
      only();
      if (s.ready) throw new ProtocolError("a second 'ready'");
      if (!s.started) throw new ProtocolError("'ready' before 'started'");
      return { type: 'ready' };
    case 'loadError':
      only('message');
      if (s.ready) throw new ProtocolError("'loadError' after 'ready'");
      if (!isText(m.message, MAX_ERROR_CHARS)) throw new ProtocolError("a bad 'loadError'");
      return { type: 'loadError', message: m.message };
    case 'traced': {
      only('id', 'results');
      if (!s.ready || !s.pending || m.id !== s.pending.id) throw new ProtocolError("a 'traced' nobody asked for");
      if (!Array.isArray(m.results) || m.results.length !== s.pending.count) throw new ProtocolError("'traced' with the wrong number of results");
      const size = m.results.reduce((n, r) => n + (typeof r?.exported === 'string' ? r.exported.length : typeof r?.error?.message === 'string' ? r.error.message.length : 0), 0);
      if (size > MAX_TRACED_CHARS) throw new ProtocolError(`'traced' with more than ${MAX_TRACED_CHARS} characters of results`);
      const results = m.results.map((r) => {
        if (isObject(r) && Object.keys(r).length === 1 && isText(r.exported, MAX_MESSAGE_CHARS)) return { exported: r.exported };
        const e = isObject(r) && Object.keys(r).length === 1 ? r.error : null;
        if (isObject(e) && isText(e.name, MAX_ERROR_NAME) && isText(e.message, MAX_ERROR_CHARS) && Object.keys(e).length === 2) {
          return { error: { name: e.name, message: e.message } };
        }
        throw new ProtocolError("a bad result in 'traced'");
      });
      return { type: 'traced', id: m.id, results };
    }
    default:
      throw new ProtocolError(`unknown type ${JSON.stringify(m.type)?.slice(0, 40)}`);
  }
}
