// fails: pads-to-bucket, same-shape-in-bucket, cases
// message: L=\d+ and L=\d+ fall in the same bucket, but the program returns
// No bucket: the rows stay L wide, so every length L compiles its own program.
import * as sl from 'shardlab';

const { np } = sl;

export default function masked_mean(x, lengths) {
  const [B, L] = x.shape;
  const mask = np.less(np.arange(L), lengths.reshape([B, 1]));
  const mean = np.where(mask, x, 0).sum(1).div(lengths);
  return { padded: x, mask, mean };
}
