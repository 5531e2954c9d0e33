// fails: pads-to-bucket, cases
// message: traced at L=1 the program returns f32\[\d,64\] and bool\[\d,64\], but the width should be 8
// One bucket for every length: a single program, but short rows are padded to 64 columns.
import * as sl from 'shardlab';

const { np } = sl;

export default function masked_mean(x, lengths) {
  const [B, L] = x.shape;
  const padded = np.pad(x, [[0, 0], [0, 64 - L]]);
  const mask = np.less(np.arange(64), lengths.reshape([B, 1]));
  const mean = np.where(mask, padded, 0).sum(1).div(lengths);
  return { padded, mask, mean };
}
