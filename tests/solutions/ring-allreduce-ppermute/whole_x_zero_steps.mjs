// A decoy: every device gets the whole x (inSpecs P()) and sums it itself;
// 7 ppermutes of zeros are added so that the ring's steps are "there".
// fails: ring-carries-the-rows
// message: receives x as f32\[8,\d+\], more than its own row
import * as sl from 'shardlab';

const { P, lax, np } = sl;

export default function ring(x) {
  const mesh = sl.makeMesh([8], ['data']);
  const perm = Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]);
  const body = (whole) => {
    let total = np.sum(whole, { axis: 0, keepdims: true });
    let message = lax.pcast(np.zerosLike(total), 'data', { to: 'varying' });
    for (let i = 0; i < 7; i++) {
      message = lax.ppermute(message, 'data', perm);
      total = total.add(message);
    }
    return total;
  };
  return { out: sl.shardMap(body, { mesh, inSpecs: P(), outSpecs: P('data') })(x) };
}
