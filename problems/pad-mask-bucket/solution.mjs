// Reference solution: the bucket is chosen from the static shape, the mask
// compares positions with the traced lengths.
import * as sl from 'shardlab';

const { np } = sl;
const BUCKETS = [8, 16, 32, 64];

export default function masked_mean(x, lengths) {
  const [B, L] = x.shape; // JS numbers, even under jit
  const width = BUCKETS.find((b) => b >= L);
  const padded = np.pad(x, [[0, 0], [0, width - L]]);
  const mask = np.less(np.arange(width), lengths.reshape([B, 1]));
  const mean = np.where(mask, padded, 0).sum(1).div(lengths);
  return { padded, mask, mean };
}
