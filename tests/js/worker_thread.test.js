// The API inside a Node worker_thread, as a checker runs untrusted solutions
// in a worker it can terminate.
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';

test('a worker_thread runs a jit shard_map and can be terminated', async () => {
  const lib = new URL('../../web/lib/index.js', import.meta.url).href;
  const code = `
    import * as sl from '${lib}';
    import { parentPort } from 'node:worker_threads';
    await sl.init();
    const mesh = sl.makeMesh([8], ['data']);
    const f = sl.jit((x) => sl.shardMap((b) => sl.lax.psum(b, 'data'), { mesh, inSpecs: sl.P('data'), outSpecs: sl.P() })(x));
    parentPort.postMessage(await (await f(sl.array([1, 2, 3, 4, 5, 6, 7, 8]))).tolist());
  `;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
  const value = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  expect(value).toEqual([36]);
  await worker.terminate();
}, 60000);
