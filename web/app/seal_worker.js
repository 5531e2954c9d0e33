// What the sandbox worker takes away before the learner's code runs. The
// policy it is served with (headers.js) already allows it no connection and
// no nested worker; these are the rest of what a worker of the site's origin
// shares with the site's other contexts (storage, channels, locks: a
// learner's code could read or take what the page or another tab holds),
// and the one way out of the worker the page would not see at once.

// The storage, channels and workers of the origin, by where the worker finds them (the global
// object's own attributes, for [Global] interfaces, or their prototypes').
const SHARED = {
  global: ['BroadcastChannel', 'Worker', 'SharedWorker', 'WebSocket', 'EventSource', 'indexedDB', 'caches'],
  WorkerGlobalScope: ['indexedDB', 'caches'],
  WorkerNavigator: ['locks', 'storage', 'serviceWorker'],
};

/**
 * Removes the origin's shared state from this worker's reach and makes
 * self.close() call `onClose` first (the page learns of the worker's end
 * at once, not at the time limit). Only the removed functions could undo
 * it, and nothing is left holding them.
 */
export function sealWorker(onClose) {
  for (const name of SHARED.global) delete self[name];
  for (const [type, names] of Object.entries(SHARED)) {
    const proto = type === 'global' ? null : self[type]?.prototype;
    if (proto) for (const name of names) delete proto[name];
  }
  // close() is DedicatedWorkerGlobalScope's, which WebIDL puts on the global object itself (an interface
  // marked [Global]) where an engine follows it, else on a prototype: replaced where the worker finds it.
  let owner = self;
  while (owner && !Object.hasOwn(owner, 'close')) owner = Object.getPrototypeOf(owner);
  const close = owner.close;
  owner.close = function closeAndSay() {
    onClose();
    close.call(this);
  };
}
