// fails: pads-to-bucket, same-shape-in-bucket, lengths-traced, cases
// message: turns the traced lengths into numbers \(Number\(lengths.at\(i\).get\(\)\)
// Each row's length read as a JS number to build the mask: under jit lengths is abstract, so the trace stops.
import * as sl from 'shardlab';

const { np } = sl;

export default function masked_mean(x, lengths) {
  const [B, L] = x.shape;
  const width = [8, 16, 32, 64].find((b) => b >= L);
  const padded = np.pad(x, [[0, 0], [0, width - L]]);
  const rows = [];
  for (let i = 0; i < B; i++) rows.push(np.less(np.arange(width), Number(lengths.at(i).get())));
  const mask = np.stack(rows);
  const mean = np.where(mask, padded, 0).sum(1).div(lengths);
  return { padded, mask, mean };
}
