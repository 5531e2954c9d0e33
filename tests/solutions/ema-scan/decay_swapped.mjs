// fails: cases
// message: output 'all' differs
// The weights swapped (m_t = (1 - decay) m_{t-1} + decay x_t): a scan, but the wrong average.
import * as sl from 'shardlab';

const { lax, np } = sl;

export default function ema(xs, decay) {
  const step = (m, x) => {
    const next = m.mul(np.subtract(1, decay)).add(x.mul(decay));
    return [next, next];
  };
  const first = xs.at(sl.slice(0, 1)).get();
  const [last, rest] = lax.scan(step, first.reshape([xs.shape[1]]), xs.at(sl.slice(1, null)).get());
  return { all: np.concatenate([first, rest]), last };
}
