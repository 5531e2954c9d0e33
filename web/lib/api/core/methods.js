// Array methods shared by traced values and concrete arrays, so programs
// chain: x.matmul(w).add(b).sub(y).square().sum().

import { at } from '../indexing.js';
import * as nn from '../nn.js';
import * as np from '../numpy/index.js';
import { ArrayBase } from './tracer.js';

const METHODS = {
  /** x + y */ add: np.add,
  /** x - y */ sub: np.subtract,
  /** x * y */ mul: np.multiply,
  /** x / y */ div: np.divide,
  /** x ** y */ pow: np.power,
  /** -x */ neg: np.negative,
  /** x @ y */ matmul: np.matmul,
  /** x @ y */ dot: np.dot,
  /** x * x */ square: np.square,
  /** sqrt(x) */ sqrt: np.sqrt,
  /** e^x */ exp: np.exp,
  /** ln x */ log: np.log,
  /** tanh x */ tanh: np.tanh,
  /** |x| */ abs: np.abs,
  /** max(x, 0) */ relu: nn.relu,
  /** sum over axes */ sum: np.sum,
  /** mean over axes */ mean: np.mean,
  /** max over axes */ max: np.max,
  /** min over axes */ min: np.min,
  /** reshape */ reshape: np.reshape,
  /** transpose */ transpose: np.transpose,
  /** dtype conversion */ astype: np.astype,
  /** insert a size-1 axis */ expandDims: np.expandDims,
  /** drop size-1 axes */ squeeze: np.squeeze,
  /** x == y */ eq: np.equal,
  /** x != y */ ne: np.notEqual,
  /** x < y */ lt: np.less,
  /** x <= y */ le: np.lessEqual,
  /** x > y */ gt: np.greater,
  /** x >= y */ ge: np.greaterEqual,
};

for (const [name, f] of Object.entries(METHODS)) {
  Object.defineProperty(ArrayBase.prototype, name, {
    value(...args) {
      return f(this, ...args);
    },
    writable: true,
    configurable: true,
  });
}
Object.defineProperty(ArrayBase.prototype, 'at', {
  /** x.at(...index): JAX's x.at[index] (.get(), .set(v), .add(v), ...); entries are integers, sl.slice(...), null, '...' or arrays. */
  value(...index) {
    return at(this, ...index);
  },
  writable: true,
  configurable: true,
});
Object.defineProperty(ArrayBase.prototype, 'T', {
  get() {
    return np.transpose(this);
  },
  configurable: true,
});
