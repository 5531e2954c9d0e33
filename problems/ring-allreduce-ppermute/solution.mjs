// Reference solution: 7 ring steps with ppermute and a running sum.
import * as sl from 'shardlab';

const { P, lax } = sl;

export default function ringAllReduce(x) {
  const mesh = sl.makeMesh([8], ['data']);
  const ring = Array.from({ length: 8 }, (_, d) => [d, (d + 1) % 8]);
  const body = (block) => {
    let sum = block;
    let message = block;
    for (let step = 0; step < 7; step++) {
      message = lax.ppermute(message, 'data', ring);
      sum = sum.add(message);
    }
    return { out: sum };
  };
  return sl.shardMap(body, { mesh, inSpecs: P('data'), outSpecs: { out: P('data') } })(x);
}
