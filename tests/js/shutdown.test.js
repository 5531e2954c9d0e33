// sl.shutdown() stops the device runtime; arrays of the old one say so, and
// a later init() starts a fresh runtime that works like the first.
import { expect, test } from 'vitest';
import * as sl from '../../web/lib/index.js';

test('shutdown stops the runtime; init starts a fresh one', async () => {
  await sl.init();
  const f = sl.jit((x) => x.mul(2).sum());
  const x = sl.array([1, 2, 3]);
  expect(await (await f(x)).item()).toBe(12);
  sl.shutdown();
  expect(() => sl.deviceCount()).toThrow(/call `await sl.init\(\)`/);
  await expect(x.data()).rejects.toThrow(sl.DeviceError);
  await sl.init();
  expect(sl.deviceCount()).toBe(8);
  const mesh = sl.makeMesh([8], ['data']);
  const y = sl.devicePut(sl.np.arange(8), new sl.NamedSharding(mesh, sl.P('data')));
  expect(await (await f(y)).item()).toBe(56);
  sl.shutdown();
  sl.shutdown(); // idempotent
});
