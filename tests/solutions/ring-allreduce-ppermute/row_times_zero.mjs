// A decoy: the ring passes messages computed from x but multiplied by zero,
// while the sum comes from x captured whole outside the body.
// fails: ring-carries-the-rows
// message: x is used outside the shard_map
import * as sl from 'shardlab';

const { P, lax, np } = sl;

export default function ring(x) {
  const mesh = sl.makeMesh([8], ['data']);
  const perm = Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]);
  const total = np.sum(x, { axis: 0, keepdims: true });
  const body = (row, t) => {
    let sum = t;
    let message = row.mul(0);
    for (let i = 0; i < 7; i++) {
      message = lax.ppermute(message, 'data', perm);
      sum = sum.add(message);
    }
    return sum;
  };
  return { out: sl.shardMap(body, { mesh, inSpecs: [P('data'), P()], outSpecs: P('data') })(x, total) };
}
