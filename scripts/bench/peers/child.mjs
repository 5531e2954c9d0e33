// One library of the peer benchmark in a Node process of its own (`node
// child.mjs <shardlab|tfjs|jaxjs> [devices]`), driven by index.mjs over IPC
// with host.mjs's messages (and {exit: true}): each library gets the machine
// to itself while it runs, and none sees another's globals (ShardLab's
// pthreads give Node a global Worker, which jax-js would take for a
// browser's).
import { register } from 'node:module';
import { makeHost } from './host.mjs';

register('./node_resolve.mjs', import.meta.url);
const [lib, devices] = process.argv.slice(2);
const impl = await import(`./${lib}.mjs`);
process.on('disconnect', () => process.exit(0)); // the parent is gone: do not linger with device threads
const config = await impl.load({ devices: Number(devices ?? 8) });
const ask = makeHost(impl);

process.on('message', async (m) => {
  if (m.exit) process.exit(0);
  try {
    process.send(await ask(m));
  } catch (e) {
    process.send({ error: `${e.name}: ${e.message}` });
  }
});
process.send({ ready: config });
