// The API manifest: every public function of the JS API once, with JAX's
// module and name for it and how Python's jax binds it. It is the one home
// of these facts: Python's jax builds its table-bound functions from it
// (web/python/jax/_src/table.py reads MANIFEST), and tests hold the JS
// exports, the declarations (index.d.ts and functions.d.ts, generated from
// it), the Python package and the README's API table to it.
//
// One line per function: the JAX module ('-' when JAX has none), the JAX
// name, the JS function (its path under `shardlab`), then one of
//   JAX's parameters, in JAX's order, in the table's notation (below):
//       Python's jax binds the function from this line;
//   core: NAME   the core's registry states its parameters (jax.lax's NAME:
//       a collective, pmean, pcast; lax/parallel.js reads them through one
//       binding): the JS function is built from them, and Python's jax binds
//       it as a table line with the parameters they give;
//   hand: FILE   Python's jax binds it by hand, in FILE;
//   js only: WHY   no Python binding (JS's own, or Python syntax in JAX).
// The notation: parameters are passed to JS positionally, in that order,
// except those in {braces}, which go in the JS function's options object
// under their camelCase names. `x:tree` is a pytree (the function maps over
// its leaves and returns the same structure); `s:shape` is a shape (an int
// is a 1-d shape, as in numpy); `xs:seq` is a sequence of arrays, each
// element converted as jnp.asarray converts it (a Python int a weakly typed
// int32, a list of ints an int32 array); `dtype:cast` converts the first argument to
// that dtype before the call (a reduction's dtype=); `*cases` takes the rest
// of the positional arguments; those after `*` are keyword-only; `=...`
// marks a parameter the caller may leave out (the JS function has JAX's
// default). Parameters may end with `-> tuple`: the function returns several
// arrays (a JS list), which Python gives as JAX does, a tuple; or with
// `-> Name(field, ...)`: JAX's NamedTuple of that name and those fields (a
// list of results only: a function that returns one array returns it as it is). A parameter
// named as an array operand (ARRAY_PARAMS) is one: in jax.numpy Python's jax
// refuses a list or tuple there with JAX's TypeError (its check_arraylike).
// A line may end
// with `# ` and a sentence: the doc comment of the
// function's declaration where scripts/gen_types.mjs generates it (a line
// whose parameters are all arrays; index.d.ts declares the others).

import { laxParams } from './lax/parallel.js';

/** The parameter names that stand for an array operand in the manifest's notation. */
export const ARRAY_PARAMS = ['x', 'x1', 'x2', 'y', 'a', 'b', 'm', 'v', 'q', 'arr', 'operand', 'lhs', 'rhs', 'pred', 'on_true', 'on_false'];

/** The manifest's text: one line per public function (see above). */
export const API_TABLE = `
numpy  add              np.add               x1, x2
numpy  subtract         np.subtract          x1, x2
numpy  multiply         np.multiply          x1, x2
numpy  divide           np.divide            x1, x2
numpy  true_divide      np.divide            x1, x2
numpy  power            np.power             x1, x2
numpy  pow              np.power             x1, x2
numpy  maximum          np.maximum           x1, x2
numpy  minimum          np.minimum           x1, x2
numpy  equal            np.equal             x1, x2
numpy  not_equal        np.notEqual          x1, x2
numpy  less             np.less              x1, x2
numpy  less_equal       np.lessEqual         x1, x2
numpy  greater          np.greater           x1, x2
numpy  greater_equal    np.greaterEqual      x1, x2
numpy  negative         np.negative          x
numpy  exp              np.exp               x
numpy  log              np.log               x
numpy  tanh             np.tanh              x
numpy  sqrt             np.sqrt              x
numpy  square           np.square            x
numpy  abs              np.abs               x
numpy  absolute         np.abs               x
numpy  sign             np.sign              x
numpy  floor            np.floor             x
numpy  ceil             np.ceil              x
numpy  trunc            np.trunc             x
numpy  sin              np.sin               x
numpy  cos              np.cos               x
numpy  tan              np.tan               x
numpy  arcsin           np.arcsin            x
numpy  arccos           np.arccos            x
numpy  arctan           np.arctan            x
numpy  asin             np.arcsin            x
numpy  acos             np.arccos            x
numpy  atan             np.arctan            x
numpy  arctan2          np.arctan2           x1, x2  # the angle of the point (x2, x1), in (-pi, pi]
numpy  logaddexp        np.logaddexp         x1, x2  # log(e^x1 + e^x2) without overflow (a custom_jvp function)
numpy  atan2            np.arctan2           x1, x2
numpy  sinh             np.sinh              x
numpy  cosh             np.cosh              x
numpy  log1p            np.log1p             x
numpy  expm1            np.expm1             x
numpy  exp2             np.exp2              x
numpy  log2             np.log2              x
numpy  log10            np.log10             x
numpy  reciprocal       np.reciprocal        x
numpy  isfinite         np.isfinite          x
numpy  isclose          np.isclose           a, b, rtol=1e-05, atol=1e-08, equal_nan=False
numpy  allclose         np.allclose          a, b, rtol=1e-05, atol=1e-08, equal_nan=False
numpy  isnan            np.isnan             x
numpy  isinf            np.isinf             x
numpy  nan_to_num       np.nanToNum          x, *, {nan=0.0, posinf=None, neginf=None}
numpy  round            np.round             a, decimals=0
numpy  fmod             np.fmod              x1, x2  # the remainder of x1 / x2 with the sign of x1 (C's fmod)
numpy  remainder        np.remainder         x1, x2  # the remainder of x1 / x2 with the sign of x2 (Python's %)
numpy  mod              np.remainder         x1, x2
numpy  floor_divide     np.floorDivide       x1, x2  # x1 / x2 rounded down (Python's //)
numpy  where            np.where             condition, x=..., y=..., *, {size=None, fill_value=None}
numpy  nonzero          np.nonzero           a, *, {size=None, fill_value=None}
numpy  matmul           np.matmul            a, b, *, {out_sharding=None}
numpy  dot              np.dot               a, b, *, {out_sharding=None}
numpy  sum              np.sum               a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {initial=None, where=None}
numpy  prod             np.prod              a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {initial=None, where=None}
numpy  mean             np.mean              a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {where=None}
numpy  max              np.max               a, {axis=None, keepdims=False}, *, {initial=None, where=None}
numpy  min              np.min               a, {axis=None, keepdims=False}, *, {initial=None, where=None}
numpy  amax             np.max               a, {axis=None, keepdims=False}
numpy  argmax           np.argmax            a, {axis=None}, *, {keepdims=False}
numpy  argmin           np.argmin            a, {axis=None}, *, {keepdims=False}
numpy  cumsum           np.cumsum            a, {axis=None}, dtype:cast=None
numpy  cumprod          np.cumprod           a, {axis=None}, dtype:cast=None
numpy  sort             np.sort              a, {axis=-1}, *, {kind=None, stable=True, descending=False}
numpy  argsort          np.argsort           a, {axis=-1}, *, {kind=None, stable=True, descending=False}
numpy  einsum           np.einsum            subscripts, *operands
numpy  amin             np.min               a, {axis=None, keepdims=False}
numpy  var              np.var               a, {axis=None}, dtype:cast=None, *, {ddof=0, keepdims=False, where=None}
numpy  std              np.std               a, {axis=None}, dtype:cast=None, *, {ddof=0, keepdims=False, where=None}
numpy  count_nonzero    np.countNonzero      a, {axis=None, keepdims=False}
numpy  any              np.any               a, {axis=None}, *, {keepdims=False, where=None}
numpy  all              np.all               a, {axis=None}, *, {keepdims=False, where=None}
numpy  reshape          np.reshape           a, shape:shape, order='C'
numpy  transpose        np.transpose         a, axes=None
numpy  expand_dims      np.expandDims        a, axis
numpy  squeeze          np.squeeze           a, axis=None
numpy  concatenate      np.concatenate       arrays:seq, axis=0
numpy  stack            np.stack             arrays:seq, axis=0
numpy  astype           np.astype            x, dtype
numpy  full             np.full              shape:shape, fill_value, dtype=None
numpy  zeros            np.zeros             shape:shape, dtype=None
numpy  ones             np.ones              shape:shape, dtype=None
numpy  empty            np.empty             shape:shape, dtype=None
numpy  zeros_like       np.zerosLike         a, dtype=None, shape:shape=None
numpy  ones_like        np.onesLike          a, dtype=None, shape:shape=None
numpy  full_like        np.fullLike          a, fill_value, dtype=None, shape:shape=None
numpy  arange           np.arange            start, stop=None, step=None, dtype=None
numpy  eye              np.eye               N, M=None, k=0, dtype=None
numpy  identity         np.identity          n, dtype=None
numpy  tri              np.tri               N, M=None, k=0, dtype=None
numpy  tril             np.tril              m, k=0
numpy  triu             np.triu              m, k=0
numpy  linspace         np.linspace          start, stop, num=50, {endpoint=True, retstep=False, dtype=None, axis=0} -> tuple
numpy  diagonal         np.diagonal          a, offset=0, axis1=0, axis2=1
numpy  trace            np.trace             a, offset=0, axis1=0, axis2=1
numpy  swapaxes         np.swapaxes          a, axis1, axis2
numpy  matrix_transpose np.matrixTranspose   x
numpy  moveaxis         np.moveaxis          a, source, destination
numpy  hstack           np.hstack            tup:seq
numpy  vstack           np.vstack            tup:seq
numpy  outer            np.outer             a, b
numpy  inner            np.inner             a, b
numpy  tensordot        np.tensordot         a, b, axes=2
numpy  vecdot           np.vecdot            x1, x2, *, {axis=-1}
numpy  vdot             np.vdot              a, b
numpy  matvec           np.matvec            x1, x2
numpy  vecmat           np.vecmat            x1, x2
numpy  fmax             np.fmax              x1, x2
numpy  fmin             np.fmin              x1, x2
numpy  signbit          np.signbit           x
numpy  copysign         np.copysign          x1, x2
numpy  hypot            np.hypot             x1, x2
numpy  heaviside        np.heaviside         x1, x2
numpy  sinc             np.sinc              x
numpy  deg2rad          np.deg2rad           x
numpy  radians          np.deg2rad           x
numpy  rad2deg          np.rad2deg           x
numpy  degrees          np.rad2deg           x
numpy  fabs             np.fabs              x
numpy  isposinf         np.isposinf          x
numpy  isneginf         np.isneginf          x
numpy  logaddexp2       np.logaddexp2        x1, x2
numpy  atleast_1d       np.atleast1d         *arys
numpy  atleast_2d       np.atleast2d         *arys
numpy  atleast_3d       np.atleast3d         *arys
numpy  ravel            np.ravel             a, order='C'
numpy  column_stack     np.columnStack       tup:seq
numpy  dstack           np.dstack            tup:seq
numpy  fliplr           np.fliplr            m
numpy  flipud           np.flipud            m
numpy  rot90            np.rot90             m, k=1, axes=...
numpy  permute_dims     np.permuteDims       a, axes
numpy  unstack          np.unstack           x, *, axis=0 -> tuple
numpy  concat           np.concat            arrays:seq, *, {axis=0}
numpy  append           np.append            arr, values, axis=None
numpy  diff             np.diff              a, n=1, axis=-1, {prepend=None, append=None}
numpy  ediff1d          np.ediff1d           ary, to_end=None, to_begin=None
numpy  meshgrid         np.meshgrid          *xi, {copy=True, sparse=False, indexing='xy'}
numpy  cumulative_sum   np.cumulativeSum     x, *, {axis=None, dtype=None, include_initial=False}
numpy  cumulative_prod  np.cumulativeProd    x, *, {axis=None, dtype=None, include_initial=False}
numpy  array_equal      np.arrayEqual        a1, a2, {equal_nan=False}
numpy  array_equiv      np.arrayEquiv        a1, a2
numpy  result_type      np.resultType        hand: jax/_src/numpy.py
numpy  nansum           np.nansum            a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {initial=None, where=None}
numpy  nanprod          np.nanprod           a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {initial=None, where=None}
numpy  nanmax           np.nanmax            a, {axis=None, keepdims=False}, *, {initial=None, where=None}
numpy  nanmin           np.nanmin            a, {axis=None, keepdims=False}, *, {initial=None, where=None}
numpy  nanmean          np.nanmean           a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {where=None}
numpy  nanvar           np.nanvar            a, {axis=None}, dtype:cast=None, *, {ddof=0, keepdims=False, where=None}
numpy  nanstd           np.nanstd            a, {axis=None}, dtype:cast=None, *, {ddof=0, keepdims=False, where=None}
numpy  nanargmax        np.nanargmax         a, {axis=None}, *, {keepdims=False}
numpy  nanargmin        np.nanargmin         a, {axis=None}, *, {keepdims=False}
numpy  nancumsum        np.nancumsum         a, {axis=None}, dtype:cast=None
numpy  nancumprod       np.nancumprod        a, {axis=None}, dtype:cast=None
numpy  ptp              np.ptp               a, {axis=None, keepdims=False}
numpy  quantile         np.quantile          a, q, {axis=None, out=None, overwrite_input=False, method='linear', keepdims=False}, *, {weights=None}
numpy  nanquantile      np.nanquantile       a, q, {axis=None, out=None, overwrite_input=False, method='linear', keepdims=False}, *, {weights=None}
numpy  percentile       np.percentile        a, q, {axis=None, out=None, overwrite_input=False, method='linear', keepdims=False}, *, {weights=None}
numpy  nanpercentile    np.nanpercentile     a, q, {axis=None, out=None, overwrite_input=False, method='linear', keepdims=False}, *, {weights=None}
numpy  median           np.median            a, {axis=None, out=None, overwrite_input=False, keepdims=False}
numpy  nanmedian        np.nanmedian         a, {axis=None, out=None, overwrite_input=False, keepdims=False}
numpy  polyval          np.polyval           p, x
numpy  logspace         np.logspace          start, stop, num=50, {endpoint=True, base=10.0, dtype=None, axis=0}
numpy  geomspace        np.geomspace         start, stop, num=50, {endpoint=True, dtype=None, axis=0}
numpy  rollaxis         np.rollaxis          a, axis, start=0
numpy  trapezoid        np.trapezoid         y, x=None, {dx=1.0, axis=-1}
numpy  vander           np.vander            x, N=None, increasing=False
numpy  polyadd          np.polyadd           a1, a2
numpy  polysub          np.polysub           a1, a2
numpy  polyder          np.polyder           p, m=1
numpy  polyint          np.polyint           p, m=1, k=None
numpy  tril_indices     np.trilIndices       n, k=0, m=None -> tuple
numpy  triu_indices     np.triuIndices       n, k=0, m=None -> tuple
numpy  tril_indices_from np.trilIndicesFrom  arr, k=0 -> tuple
numpy  triu_indices_from np.triuIndicesFrom  arr, k=0 -> tuple
numpy  diag_indices     np.diagIndices       n, ndim=2 -> tuple
numpy  diag_indices_from np.diagIndicesFrom  arr -> tuple
numpy  indices          np.indices           dimensions, dtype=None, sparse=False -> tuple
numpy  flatnonzero      np.flatnonzero       a, *, {size=None, fill_value=None}
numpy  argwhere         np.argwhere          a, *, {size=None, fill_value=None}
numpy  searchsorted     np.searchsorted      a, v, {side='left', sorter=None, method='scan'}
numpy  digitize         np.digitize          x, bins, right=False
numpy  unique           np.unique            ar, {return_index=False, return_inverse=False, return_counts=False, axis=None}, *, {equal_nan=True, size=None, fill_value=None, sorted=True} -> tuple
numpy  interp           np.interp            x, xp, fp, {left=None, right=None, period=None}
numpy  isin             np.isin              element, test_elements, {assume_unique=False, invert=False}
numpy  bincount         np.bincount          x, weights=None, minlength=0, *, {length=None}
numpy  fill_diagonal    np.fillDiagonal      a, val, {wrap=False}, *, {inplace=True}
numpy  select           np.select            condlist, choicelist, default=0
numpy  average          np.average           a, {axis=None, weights=None, returned=False, keepdims=False} -> tuple
numpy  roll             np.roll              a, shift, axis=None
numpy  split            np.split             ary, indices_or_sections, axis=0
numpy  array_split      np.arraySplit        ary, indices_or_sections, axis=0
numpy  tile             np.tile              A, reps
numpy  repeat           np.repeat            a, repeats, axis=None, *, total_repeat_length=None
numpy  kron             np.kron              a, b
numpy  diag             np.diag              v, k=0
numpy  broadcast_to     np.broadcastTo       array, shape:shape
numpy  pad              np.pad               array, pad_width, {mode='constant'}, *, {constant_values=0, stat_length=None, end_values=0, reflect_type='even'}
numpy  clip             np.clip              arr, min=None, max=None
numpy  bitwise_and      np.bitwiseAnd        x, y
numpy  bitwise_or       np.bitwiseOr         x, y
numpy  bitwise_xor      np.bitwiseXor        x, y
numpy  bitwise_not      np.bitwiseNot        x
numpy  invert           np.invert            x
numpy  left_shift       np.leftShift         x, y
numpy  right_shift      np.rightShift        x, y
numpy  logical_and      np.logicalAnd        x, y
numpy  logical_or       np.logicalOr         x, y
numpy  logical_xor      np.logicalXor        x, y
numpy  logical_not      np.logicalNot        x
numpy  take             np.take              a, indices, {axis=None}, *, {mode=None, fill_value=None}
numpy  take_along_axis  np.takeAlongAxis     arr, indices, axis, *, {mode=None, fill_value=None}
numpy  flip             np.flip              m, axis=None
nn     relu             nn.relu              x
nn     sigmoid          nn.sigmoid           x
nn     gelu             nn.gelu              x
nn     softmax          nn.softmax           x, {axis=-1}
nn     log_softmax      nn.logSoftmax        x, {axis=-1}
nn     silu             nn.silu              x
nn     swish            nn.swish             x
nn     softplus         nn.softplus          x
nn     elu              nn.elu               x, alpha=1.0
nn     leaky_relu       nn.leakyRelu         x, negative_slope=0.01
nn     one_hot          nn.oneHot            x, num_classes, *, {dtype=None}
nn     logsumexp        nn.logsumexp         a, {axis=None}, *, {keepdims=False}
nn     standardize      nn.standardize       x, {axis=-1, mean=None, variance=None, epsilon=1e-05}
numpy.linalg norm     np.linalg.norm       x, {ord=None, axis=None, keepdims=False}
numpy.linalg tensordot np.tensordot       x1, x2, *, axes=2
numpy.linalg vecdot   np.vecdot            x1, x2, *, {axis=-1}
numpy.linalg vector_norm np.linalg.vectorNorm x, *, {axis=None, keepdims=False, ord=2}
numpy.linalg matrix_norm np.linalg.matrixNorm x, *, {keepdims=False, ord='fro'}
numpy.linalg diagonal np.linalg.diagonal   x, *, {offset=0}
numpy.linalg trace    np.linalg.trace      x, *, {offset=0, dtype=None}
numpy.linalg outer    np.linalg.outer      x1, x2
numpy.linalg matmul   np.matmul            x1, x2
numpy.linalg matrix_transpose np.matrixTranspose x
numpy.linalg multi_dot np.linalg.multiDot arrays:seq
numpy.linalg cholesky np.linalg.cholesky   a, *, {upper=False, symmetrize_input=True}
numpy.linalg qr       np.linalg.qr         a, mode='reduced' -> QRResult(Q, R)
numpy.linalg svd      np.linalg.svd        a, full_matrices=True, compute_uv=True, hermitian=False -> SVDResult(U, S, Vh)
numpy.linalg svdvals  np.linalg.svdvals    x
numpy.linalg eigh     np.linalg.eigh       a, UPLO=None, {symmetrize_input=True} -> EighResult(eigenvalues, eigenvectors)
numpy.linalg eigvalsh np.linalg.eigvalsh   a, UPLO='L', *, {symmetrize_input=True}
numpy.linalg solve    np.linalg.solve      a, b
numpy.linalg inv      np.linalg.inv        a
numpy.linalg det      np.linalg.det        a
numpy.linalg slogdet  np.linalg.slogdet    a, *, {method=None} -> SlogdetResult(sign, logabsdet)
numpy.linalg matrix_power np.linalg.matrixPower a, n
numpy.linalg pinv     np.linalg.pinv       a, rtol=None, {hermitian=False}
numpy.linalg matrix_rank np.linalg.matrixRank M, rtol=None, *, {hermitian=False, tol=None}
debug  print            debug.print          hand: jax/_src/debug.py
debug  callback         debug.callback       hand: jax/_src/debug.py
random PRNGKey           random.PRNGKey       seed
random key              random.key           seed, *, {impl=None}
random key_data         random.keyData       keys
random wrap_key_data    random.wrapKeyData   key_bits, *, {impl=None, dtype=None}
random split            random.split         key, num=2
random fold_in          random.foldIn        key, data
random bits             random.bits          key, shape:shape=(), dtype=None
random uniform          random.uniform       key, shape:shape=(), dtype=float32, minval=0.0, maxval=1.0
random exponential      random.exponential   key, shape:shape=(), dtype=float32
random gumbel           random.gumbel        key, shape:shape=(), dtype=float32, mode=None
random normal           random.normal        key, shape:shape=(), dtype=float32
random bernoulli        random.bernoulli     key, p=0.5, shape:shape=None
random randint          random.randint       key, shape:shape, minval, maxval, dtype=int32
random permutation      random.permutation   key, x, axis=0, independent=False
random categorical      random.categorical   key, logits, axis=-1, shape:shape=None
random truncated_normal random.truncatedNormal key, lower, upper, shape:shape=None, dtype=float32
random choice           random.choice        key, a, shape=(), replace=True, p=None, axis=0, mode=None
random gamma            random.gamma         key, a, shape:shape=None, dtype=float32
random loggamma         random.loggamma      key, a, shape:shape=None, dtype=float32
random orthogonal       random.orthogonal    key, n, shape:shape=(), dtype=float32, m=None
scipy.special logsumexp nn.logsumexp         a, {axis=None}, *, {keepdims=False}
lax    psum             lax.psum             core: psum
lax    pmean            lax.pmean            core: pmean
lax    pmax             lax.pmax             core: pmax
lax    pmin             lax.pmin             core: pmin
lax    all_gather       lax.allGather        core: all_gather
lax    psum_scatter     lax.psumScatter      core: psum_scatter
lax    ppermute         lax.ppermute         core: ppermute
lax    all_to_all       lax.allToAll         core: all_to_all
lax    axis_index       lax.axisIndex        core: axis_index
lax    axis_size        lax.axisSize         axis_name
lax    pcast            lax.pcast            core: pcast
lax    pvary            lax.pvary            x:tree, axis_name
lax    stop_gradient    lax.stopGradient     x:tree
lax    dot_general      lax.dotGeneral       lhs, rhs, dimension_numbers, *, {out_sharding=None}
lax    slice            lax.slice            operand, start_indices, limit_indices, strides=None
lax    dynamic_slice    lax.dynamicSlice     operand, start_indices, slice_sizes
lax    dynamic_update_slice lax.dynamicUpdateSlice operand, update, start_indices
lax    pad              lax.pad              operand, padding_value, padding_config
lax    slice_in_dim     lax.sliceInDim       operand, start_index, limit_index, stride=1, axis=0
lax    index_in_dim     lax.indexInDim       operand, index, axis=0, keepdims=True
lax    dynamic_slice_in_dim lax.dynamicSliceInDim operand, start_index, slice_size, axis=0
lax    dynamic_index_in_dim lax.dynamicIndexInDim operand, index, axis=0, keepdims=True
lax    dynamic_update_slice_in_dim lax.dynamicUpdateSliceInDim operand, update, start_index, axis
lax    dynamic_update_index_in_dim lax.dynamicUpdateIndexInDim operand, update, index, axis
lax    reshape          lax.reshape          operand, new_sizes, dimensions=None
lax    broadcast        lax.broadcast        operand, sizes
lax    concatenate      lax.concatenate      operands:seq, dimension
lax    stack            lax.stack            arrays, axis=0
lax    tile             lax.tile             operand, multiples
lax    unstack          np.unstack           operand, axis=0 -> tuple
lax    top_k            lax.topK             operand, k -> tuple
lax    sort             lax.sort             operand, {dimension=-1, is_stable=True, num_keys=1} -> tuple
lax    sort_key_val     lax.sortKeyVal       keys, values, {dimension=-1, is_stable=True} -> tuple
lax    select_n         lax.selectN          which, *cases
lax    select           lax.select           pred, on_true, on_false
lax    broadcast_in_dim lax.broadcastInDim   operand, shape, broadcast_dimensions
lax    convert_element_type lax.convertElementType operand, new_dtype
lax    iota             lax.iota             dtype, size
lax    rsqrt            lax.rsqrt            x
lax    logistic         lax.logistic         x
lax    reduce_sum       lax.reduceSum        operand, axes
lax    reduce_max       lax.reduceMax        operand, axes
lax    reduce_min       lax.reduceMin        operand, axes
lax    argmax           lax.argmax           operand, axis, index_dtype
lax    argmin           lax.argmin           operand, axis, index_dtype
lax    cumsum           lax.cumsum           operand, {axis=0, reverse=False}
lax    cumprod          lax.cumprod          operand, {axis=0, reverse=False}
lax    exp              np.exp               x
lax    log              np.log               x
lax    tanh             np.tanh              x
lax    sqrt             np.sqrt              x
lax    abs              np.abs               x
lax    sign             np.sign              x
lax    rev              lax.rev              operand, dimensions
lax    shift_left       lax.shiftLeft        x, y
lax    shift_right_logical lax.shiftRightLogical x, y
lax    shift_right_arithmetic lax.shiftRightArithmetic x, y
lax    bitwise_and      lax.bitwiseAnd       x, y
lax    bitwise_or       lax.bitwiseOr        x, y
lax    bitwise_xor      lax.bitwiseXor       x, y
lax    bitwise_not      lax.bitwiseNot       x
lax    bitcast_convert_type lax.bitcastConvertType operand, new_dtype
lax    erf              lax.erf              x
lax    erf_inv          lax.erfInv           x
lax    nextafter        lax.nextafter        x1, x2
lax    rem              lax.rem              x, y
lax    floor            lax.floor            x
lax    ceil             np.ceil              x
lax    sin              np.sin               x
lax    cos              np.cos               x
lax    tan              np.tan               x
lax    asin             np.arcsin            x
lax    acos             np.arccos            x
lax    atan             np.arctan            x
lax    atan2            np.arctan2           x, y
lax    sinh             np.sinh              x
lax    cosh             np.cosh              x
lax    log1p            np.log1p             x
lax    expm1            np.expm1             x
lax    exp2             np.exp2              x
lax    is_finite        np.isfinite          x
lax    round            lax.round            x, rounding_method=0
lax    neg              np.negative          x
lax    add              np.add               x, y
lax    sub              np.subtract          x, y
lax    mul              np.multiply          x, y
lax    div              lax.div              x, y
lax    square           np.square            x
lax    integer_pow      np.power             x, y
lax    pow              np.power             x, y
lax    lt               np.less              x, y
lax    le               np.lessEqual         x, y
lax    gt               np.greater           x, y
lax    ge               np.greaterEqual      x, y
lax    eq               np.equal             x, y
lax    ne               np.notEqual          x, y
lax    max              np.maximum           x, y
lax    min              np.minimum           x, y
jax    jit              jit                  hand: jax/_src/api.py
jax    checkpoint       checkpoint           hand: jax/_src/checkpoint.py
jax    remat            remat                hand: jax/_src/checkpoint.py
jax    grad             grad                 hand: jax/_src/api.py
jax    value_and_grad   valueAndGrad         hand: jax/_src/api.py
jax    vjp              vjp                  hand: jax/_src/api.py
jax    linear_transpose linearTranspose      hand: jax/_src/api.py
jax    jvp              jvp                  hand: jax/_src/api.py
jax    make_jaxpr       makeJaxpr            hand: jax/_src/api.py
jax    shard_map        shardMap             hand: jax/_src/api.py
jax    device_put       devicePut            hand: jax/_src/api.py
jax    vmap             vmap                 hand: jax/_src/vmap.py
jax    jacfwd           jacfwd               hand: jax/_src/vmap.py
jax    jacrev           jacrev               hand: jax/_src/vmap.py
jax    jacobian         jacrev               hand: jax/_src/vmap.py
jax    hessian          hessian              hand: jax/_src/vmap.py
jax    custom_jvp       customJvp            hand: jax/_src/custom.py
jax    custom_vjp       customVjp            hand: jax/_src/custom.py
jax    device_count     deviceCount          hand: jax/_src/devices.py
jax    make_mesh        makeMesh             hand: jax/_src/devices.py
jax    set_mesh         setMesh              hand: jax/_src/sharding.py
sharding set_mesh       setMesh              hand: jax/_src/sharding.py
sharding get_abstract_mesh getAbstractMesh   hand: jax/_src/sharding.py
lax    with_sharding_constraint lax.withShardingConstraint hand: jax/_src/sharding.py
jax    reshard          reshard              hand: jax/_src/sharding.py
sharding reshard        reshard              hand: jax/_src/sharding.py
jax    numpy_dtype_promotion numpyDtypePromotion hand: jax/_src/config.py
numpy  array            array                hand: jax/_src/api.py
sharding PartitionSpec  P                    hand: jax/_src/sharding.py
lax    cond             lax.cond             hand: jax/_src/control_flow.py
lax    switch           lax.switch           hand: jax/_src/control_flow.py
lax    scan             lax.scan             hand: jax/_src/control_flow.py
lax    fori_loop        lax.foriLoop         hand: jax/_src/control_flow.py
lax    while_loop       lax.whileLoop        hand: jax/_src/control_flow.py
lax    associative_scan lax.associativeScan  hand: jax/_src/control_flow.py
lax.linalg cholesky   lax.linalg.cholesky  x, *, {symmetrize_input=True}
lax.linalg eigh       lax.linalg.eigh      x, *, {lower=True, symmetrize_input=True, sort_eigenvalues=True} -> tuple
lax.linalg lu         lax.linalg.lu        x -> tuple
lax.linalg qr         lax.linalg.qr        x, *, {pivoting=False, full_matrices=True} -> tuple
lax.linalg svd        lax.linalg.svd       x, *, {full_matrices=True, compute_uv=True} -> tuple
lax.linalg triangular_solve lax.linalg.triangularSolve a, b, *, {left_side=False, lower=False, transpose_a=False, conjugate_a=False, unit_diagonal=False}
export export           export.export         js only: Python exports through the checker's sandbox
export deserialize      export.deserialize   js only: the judge rebuilds programs in JS
-      init             init                 js only: starts the wasm module and the devices
-      shutdown         shutdown             js only: ends the devices
-      cancel           cancel               js only: stops the running jobs
-      memoryStats      memoryStats          js only: the wasm heap's use
-      runtimeInfo      runtimeInfo          js only: how the runtime runs (threads, lockstep)
-      moduleSources    moduleSources        js only: the module's files, to hand a worker
-      weakFloat        weakFloat            js only: a number typed float (Python's float crosses as one)
-      loadDevices      loadDevices          js only: the device runtime alone (meshes, sharded arrays, single collectives)
-      observeTraces    observeTraces        js only: the programs jit and makeJaxpr trace, for tools
debug  visualize_array_sharding visualizeSharding hand: jax/_src/debug.py
debug  visualize_sharding visualizeSharding      hand: jax/_src/debug.py
-      at               at                   js only: x.at(...) (JAX's x.at[...] is Python syntax)
-      slice            slice                js only: sl.slice(start, stop, step) (JAX's a:b is Python syntax)
-      ownTimes         profiler.ownTimes    js only: the time each device spent, from a timeline
-      startTrace       profiler.startTrace  js only: starts recording the devices' spans
-      stopTrace        profiler.stopTrace   js only: the spans recorded since startTrace
-      tracing          profiler.tracing     js only: whether a recording is under way
`;

/**
 * The manifest's lines: [{module (null when JAX has none), name, js (the
 * path under `shardlab`), binding: 'table' | 'core' | 'hand' | 'js', params
 * (the notation's text; for a 'core' line read from the registry when asked,
 * once the runtime is up; null for 'hand' and 'js'), tuple (whether Python
 * returns the JS list of results as a tuple), named ({name, fields} of the
 * NamedTuple it is, or null)}].
 */
export const MANIFEST = API_TABLE.trim()
  .split('\n')
  .map((line) => {
    const [, module, name, js, text] = /^(\S+)\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    const [full, doc = null] = text.split(/\s+#\s+/);
    const result = /\s*->\s*(tuple|(\w+)\(([\w, ]+)\))$/.exec(full);
    const tuple = result !== null;
    const named = result?.[2] ? { name: result[2], fields: result[3].split(/,\s*/) } : null;
    const rest = result ? full.slice(0, result.index) : full;
    const binding = rest.startsWith('hand:') ? 'hand' : rest.startsWith('js only:') ? 'js' : rest.startsWith('core:') ? 'core' : 'table';
    const entry = { module: module === '-' ? null : module, name, js, binding, params: binding === 'table' ? rest : null, doc, tuple, named };
    if (binding === 'core') {
      const lax = rest.slice('core:'.length).trim();
      Object.defineProperty(entry, 'params', { get: () => laxParams(lax), enumerable: true });
    }
    return entry;
  });
