// The peer rows of `npm run bench` (group "peers"): ShardLab against
// TensorFlow.js's wasm backend and jax-js on the same cases (cases.mjs,
// measured by measure.mjs), in Node, each library in a process of its own
// (child.mjs). In Node the peers run on one thread (TF.js turns threads off
// in Node; jax-js's pool needs a browser's Worker), so ShardLab runs the
// matmuls on one device; the training steps run on its 8 devices.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromiumPage } from '../chromium.mjs';
import { agreement, measure } from './measure.mjs';

const CHILD = fileURLToPath(new URL('child.mjs', import.meta.url));
const PROCESSES = { 'shardlab-1': ['shardlab', '1'], 'shardlab-8': ['shardlab', '8'], tfjs: ['tfjs'], jaxjs: ['jaxjs'] };

// A child process speaking host.mjs's protocol: ask(message) -> its answer (or throws its error).
function spawnChild(name) {
  const kid = fork(CHILD, PROCESSES[name], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
  const next = () =>
    new Promise((resolve, reject) => {
      const died = (code) => reject(new Error(`peers: the ${name} process exited with code ${code}`));
      kid.once('exit', died);
      kid.once('message', (m) => {
        kid.off('exit', died);
        if (m.error) reject(new Error(`peers (${name}): ${m.error}`));
        else resolve(m);
      });
    });
  const ready = next();
  return {
    ready,
    ask: (m) => {
      const answer = next();
      kid.send(m);
      return answer;
    },
    close: () => kid.connected && kid.send({ exit: true }),
  };
}

/** Runs `body(libraries, configs)` with every library's process started (and ended after). */
async function withChildren(body) {
  const children = Object.fromEntries(Object.keys(PROCESSES).map((n) => [n, spawnChild(n)]));
  try {
    const configs = {};
    for (const [n, c] of Object.entries(children)) configs[n] = (await c.ready).ready;
    const libraries = [
      { impl: 'shardlab', ask: (c) => children[c.startsWith('matmul') ? 'shardlab-1' : 'shardlab-8'].ask },
      { impl: 'tfjs-wasm', ask: () => children.tfjs.ask },
      { impl: 'jax-js', ask: () => children.jaxjs.ask },
    ];
    return await body(libraries, configs);
  } finally {
    for (const c of Object.values(children)) c.close();
  }
}

/** Every case at its small size in every library, in Node: [{case, impl, error (null when it agrees with ShardLab)}]. */
export const peerAgreement = () => withChildren((libraries) => agreement(libraries));

/** The Node peer rows, and what each process ran (`configs`: backend, devices). */
export const peerRows = ({ level = 'full' } = {}) => withChildren(async (libraries, configs) => ({ rows: await measure(libraries, { level }), configs }));

/** The Chromium peer rows (impl "...-chromium"): the page built and run in headless Chromium; `configs` as it reports them. */
export async function peerChromiumRows({ level = 'full' } = {}) {
  await build({ configFile: fileURLToPath(new URL('vite.config.mjs', import.meta.url)) });
  const { rows, extra } = await chromiumPage('build/bench/peers/page.html', { level });
  return { rows, configs: extra.configs };
}
