// The Sharding tab as a JAX user reads it: the mesh as a grid of device ids,
// every array's blocks labelled with the devices holding them (the labels
// computed here from the problem's mesh and specs, not by the page's code),
// pictures named by argument and output key, and the ring all-reduce's
// ppermutes drawn as rings with their bytes. Screenshots in light and dark.
import { expect, test } from './fixtures.js';
import deviceMesh from '../../problems/device-mesh-named-sharding/problem.js';
import { appUrl, root, solution, typeCode } from './app_page.js';

const shots = `${root}build/test-results/screenshots`;

// Solves problem `id` with its reference (Run: the examples) and opens the Sharding tab.
async function shardingOf(page, id) {
  await page.goto(appUrl(`#/problem/${id}?lang=javascript`));
  await typeCode(page, solution(id));
  await page.click('#run');
  await expect(page.locator('#verdict')).toHaveText('Examples passed', { timeout: 60000 });
  await page.click('#tab-sharding');
  return page.locator('#panel-sharding');
}

// Screenshots of `panel` in both themes.
async function shoot(page, panel, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await panel.screenshot({ path: `${shots}/sharding-${name}-${scheme}.png` });
  }
}

// The block labels of an array laid out by `spec` on a 2×4 mesh (data, model), row-major:
// device d sits at data = d / 4, model = d % 4; an entry's part is its axes' coordinates, major first.
function expectedLabels(spec) {
  const coord = { data: (d) => Math.floor(d / 4), model: (d) => d % 4 };
  const size = { data: 2, model: 4 };
  const part = (entry, d) => [entry ?? []].flat().reduce((p, a) => p * size[a] + coord[a](d), 0);
  const blocks = new Map();
  for (let d = 0; d < 8; d++) {
    const key = [part(spec[0], d), part(spec[1], d)];
    const k = JSON.stringify(key);
    if (!blocks.has(k)) blocks.set(k, { key, devs: [] });
    blocks.get(k).devs.push(d);
  }
  return [...blocks.values()].sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1]).map((b) => `dev ${b.devs.join(',')}`);
}

test('device-mesh-named-sharding: a 2-D mesh grid and every output named, with its blocks labelled by their devices', async ({ page }) => {
  const panel = await shardingOf(page, 'device-mesh-named-sharding');
  const mesh = panel.locator('figure.mesh');
  await expect(mesh.locator('g.device')).toHaveText(['0', '1', '2', '3', '4', '5', '6', '7']);
  await expect(mesh.locator('svg')).toContainText('model = 4');
  await expect(mesh.locator('.tick.row')).toHaveText(['data=0', 'data=1']);
  const at = async (d) => mesh.locator(`g.device[data-device="${d}"]`).boundingBox();
  const [d0, d3, d4] = [await at(0), await at(3), await at(4)];
  expect(d4.y).toBeGreaterThan(d0.y); // rows along data
  expect(d4.x).toBeCloseTo(d0.x, 0);
  expect(d3.y).toBeCloseTo(d0.y, 0); // columns along model
  expect(d3.x).toBeGreaterThan(d0.x);
  await expect(mesh.locator('figcaption')).toContainText('data = 2 × model = 4');
  for (const [key, out] of Object.entries(deviceMesh.outputs)) {
    const fig = panel.locator(`figure.array[data-name="${key}"]`);
    await expect(fig).toHaveCount(1);
    await expect(fig.locator('figcaption code')).toHaveText(key);
    await expect(fig.locator('.block-label')).toHaveText(expectedLabels(out.sharding));
  }
  await expect(panel.locator('figure.array[data-name="replicated"] figcaption')).toContainText('every device holds the whole array');
  await expect(panel.locator('figure.array[data-name="rows"] figcaption')).toContainText('replicated over model (each block on 4 devices)');
  await expect(panel.locator('figure.array[data-name="x"]')).toHaveCount(5); // the argument, as each shard_map takes it
  await expect(panel).not.toContainText('output 0');
  await expect(panel.locator('svg[role=img]')).toHaveCount(await panel.locator('figure').count());
  // pictures.css reached the built page (its policy refuses a stylesheet inlined as data:): a block is not drawn black.
  expect(await panel.locator('.block rect').first().evaluate((r) => getComputedStyle(r).fill)).not.toBe('rgb(0, 0, 0)');
  await shoot(page, panel, 'device-mesh');
});

test('tensor-parallel-mlp: inputs named by argument, outputs by key, the one computed outside the shard_map replicated', async ({ page }) => {
  const panel = await shardingOf(page, 'tensor-parallel-mlp');
  for (const name of ['x', 'w1', 'b1', 'w2', 'hidden', 'out']) await expect(panel.locator(`figure.array[data-name="${name}"]`)).toHaveCount(1);
  await expect(panel.locator('figure.array[data-name="w2"] .block-label')).toHaveText(Array.from({ length: 8 }, (_, d) => `dev ${d}`));
  await expect(panel.locator('figure.array[data-name="out"] figcaption')).toContainText('every device holds the whole array');
  await expect(panel.locator('figure.collective[data-primitive="psum"] figcaption')).toContainText('psum over model: 1 group of 8');
  await expect(panel).not.toContainText('output 0');
  await shoot(page, panel, 'tensor-parallel');
});

test('ring-allreduce-ppermute: seven ppermutes, each a ring of 8 arrows d → d+1, with the bytes each device sends', async ({ page }) => {
  const panel = await shardingOf(page, 'ring-allreduce-ppermute');
  const steps = panel.locator('figure.collective[data-primitive="ppermute"]');
  await expect(steps).toHaveCount(7);
  for (let k = 0; k < 7; k++) {
    const arrows = steps.nth(k).locator('g.arrow');
    await expect(arrows).toHaveCount(8);
    const pairs = await arrows.evaluateAll((gs) => gs.map((g) => [Number(g.dataset.from), Number(g.dataset.to)]));
    expect(pairs).toEqual(Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]));
  }
  // The first example's x is 8×1: each device's block is one float32, 4 bytes, sent to its neighbour.
  await expect(steps.first().locator('figcaption')).toContainText('block f32[1,1] = 4 B per device; each device sends 4 B');
  await expect(panel.locator('figure.array[data-name="x"]')).toHaveCount(1);
  await expect(panel.locator('figure.array[data-name="out"]')).toHaveCount(1);
  await shoot(page, panel, 'ring');
});

test('a collective over one axis of a 2-D mesh runs one group per coordinate of the other; a 3-D array is drawn by its last two dimensions', async ({ page }) => {
  await page.goto('/tests/browser/pages/pictures.html');
  const groups = await page.evaluate(async () => {
    const sl = await import('/web/lib/index.js');
    const { programPictures } = await import('/web/app/pictures.js');
    await sl.init();
    const mesh = sl.makeMesh([2, 4], ['data', 'model']);
    const f = sl.shardMap((x, t) => [sl.lax.psum(x.add(sl.lax.allGather(x, 'model', { tiled: true }).sum({ axis: 0, keepdims: true })), 'data'), t], {
      mesh,
      inSpecs: [sl.P('data', 'model'), sl.P('data', null, 'model')],
      outSpecs: [sl.P(null, 'model'), sl.P('data', null, 'model')],
    });
    const program = sl.makeJaxpr(f)(new sl.ShapeDtypeStruct([8, 8]), new sl.ShapeDtypeStruct([2, 3, 8])).toJSON();
    const outTree = { kind: 'object', keys: ['y', 't'], children: [{ kind: 'leaf' }, { kind: 'leaf' }] };
    document.getElementById('results').replaceChildren(programPictures(program, ['x', 't'], outTree));
    return program.eqns.length;
  });
  expect(groups).toBe(1);
  const psum = page.locator('figure.collective[data-primitive="psum"]');
  await expect(psum.locator('figcaption')).toContainText('psum over data: 4 groups of 2');
  await expect(psum.locator('g.device')).toHaveText(['0', '4', '1', '5', '2', '6', '3', '7']);
  const gather = page.locator('figure.collective[data-primitive="all_gather"]');
  await expect(gather.locator('figcaption')).toContainText('all_gather over model: 2 groups of 4');
  await expect(gather.locator('figcaption')).toContainText('each device sends 96 B'); // its 4×2 float32 block to 3 peers
  await expect(page.locator('figure.array[data-name="y"]')).toHaveCount(1);
  const cube = page.locator('figure.array[data-name="t"]').first(); // f32[2,3,8] P('data', None, 'model'): one 1×4 grid per half of dim 0
  await expect(cube.locator('.grid-title')).toHaveText(['[0:1, :, :]', '[1:2, :, :]']);
  await expect(cube.locator('.block-label')).toHaveText(Array.from({ length: 8 }, (_, d) => `dev ${d}`));
  await expect(cube.locator('figcaption')).toContainText('3-D: drawn by its last two dimensions');
  const results = page.locator('#results');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await results.screenshot({ path: `${shots}/sharding-2d-collectives-${scheme}.png` });
  }
});

// The bytes a picture states are the program JSON's, the core's traffic rule
// for each collective; the expected figures are counted here by hand from the
// algorithms communicator.h describes.
test("each collective's picture states the bytes the program JSON gives: uneven senders by position, and a large psum read in place", async ({ page }) => {
  await page.goto('/tests/browser/pages/pictures.html');
  const traffic = await page.evaluate(async () => {
    const sl = await import('/web/lib/index.js');
    const { programPictures } = await import('/web/app/pictures.js');
    await sl.init();
    const mesh = sl.makeMesh([8], ['i']);
    const f = sl.shardMap((x, big) => [sl.lax.ppermute(x, 'i', [[0, 1], [1, 2]]), sl.lax.psum(big, 'i')], {
      mesh,
      inSpecs: [sl.P('i'), sl.P('i')],
      outSpecs: [sl.P('i'), sl.P()],
    });
    const program = sl.makeJaxpr(f)(new sl.ShapeDtypeStruct([8, 3]), new sl.ShapeDtypeStruct([8 * 8192])).toJSON();
    const outTree = { kind: 'object', keys: ['y', 's'], children: [{ kind: 'leaf' }, { kind: 'leaf' }] };
    document.getElementById('results').replaceChildren(programPictures(program, ['x', 'big'], outTree));
    return program.eqns[0].params.jaxpr.eqns.filter((e) => e.collective).map((e) => [e.primitive, e.traffic.sent]);
  });
  // ppermute of a 12-byte block: only sources 0 and 1 send. psum of 32 KiB, past the 16 KiB
  // staging limit, into a replicated result the group shares: each device's block leaves it once.
  expect(traffic).toEqual([
    ['ppermute', [12, 12, 0, 0, 0, 0, 0, 0]],
    ['psum', Array(8).fill(32768)],
  ]);
  const ppermute = page.locator('figure.collective[data-primitive="ppermute"] figcaption');
  await expect(ppermute).toContainText('each device sends up to 12 B (by position in its group: 12 B, 12 B, 0 B, 0 B, 0 B, 0 B, 0 B, 0 B)');
  const psum = page.locator('figure.collective[data-primitive="psum"] figcaption');
  await expect(psum).toContainText('block f32[8192] = 32 KiB per device; each device sends 32 KiB');
  await expect(psum).toContainText('read in place (two barriers)');
});
