"""The one table from JAX's names to ShardLab's JS API.

Each line: the jax module, the JAX name, the JS function it calls, and JAX's
parameters in JAX's order (a caller may give any of them by position, in
that order, or by name). They are passed to JS positionally, in that order,
except those in {braces}, which go in the JS function's options object
under their camelCase names. `x:tree` is a pytree (the function maps
over its leaves and returns the same structure); `s:shape` is a shape (an int
is a 1-d shape, as in numpy); `dtype:cast` converts the first argument to
that dtype before the call (a reduction's dtype=); `*cases` takes the rest of
the positional arguments; those after `*` are keyword-only; `=...` marks a parameter the caller may leave out
(the JS function has JAX's default). A JS function added to the API is one
line here."""

import re

from . import pytree
from .js import UNDEFINED, call, from_js, sl

TABLE = r"""
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
numpy  arctan2          np.arctan2           x1, x2
numpy  logaddexp        np.logaddexp         x1, x2
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
numpy  isnan            np.isnan             x
numpy  isinf            np.isinf             x
numpy  nan_to_num       np.nanToNum          x, *, {nan=0.0, posinf=None, neginf=None}
numpy  round            np.round             a
numpy  fmod             np.fmod              x1, x2
numpy  remainder        np.remainder         x1, x2
numpy  mod              np.remainder         x1, x2
numpy  floor_divide     np.floorDivide       x1, x2
numpy  where            np.where             condition, x=..., y=..., *, {size=None, fill_value=None}
numpy  nonzero          np.nonzero           a, *, {size=None, fill_value=None}
numpy  matmul           np.matmul            a, b
numpy  dot              np.dot               a, b
numpy  sum              np.sum               a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {initial=None}
numpy  prod             np.prod              a, {axis=None}, dtype:cast=None, {keepdims=False}, *, {initial=None}
numpy  mean             np.mean              a, {axis=None}, dtype:cast=None, {keepdims=False}
numpy  max              np.max               a, {axis=None, keepdims=False}, *, {initial=None}
numpy  min              np.min               a, {axis=None, keepdims=False}, *, {initial=None}
numpy  amax             np.max               a, {axis=None, keepdims=False}
numpy  argmax           np.argmax            a, {axis=None}, *, {keepdims=False}
numpy  argmin           np.argmin            a, {axis=None}, *, {keepdims=False}
numpy  cumsum           np.cumsum            a, {axis=None}, dtype:cast=None
numpy  cumprod          np.cumprod           a, {axis=None}, dtype:cast=None
numpy  sort             np.sort              a, {axis=-1}, *, {kind=None, stable=True, descending=False}
numpy  argsort          np.argsort           a, {axis=-1}, *, {kind=None, stable=True, descending=False}
numpy  einsum           np.einsum            subscripts, *operands
numpy  amin             np.min               a, {axis=None, keepdims=False}
numpy  var              np.var               a, {axis=None}, dtype:cast=None, *, {ddof=0, keepdims=False}
numpy  std              np.std               a, {axis=None}, dtype:cast=None, *, {ddof=0, keepdims=False}
numpy  count_nonzero    np.countNonzero      a, {axis=None, keepdims=False}
numpy  any              np.any               a, {axis=None}, *, {keepdims=False}
numpy  all              np.all               a, {axis=None}, *, {keepdims=False}
numpy  reshape          np.reshape           a, shape:shape
numpy  transpose        np.transpose         a, axes=None
numpy  expand_dims      np.expandDims        a, axis
numpy  squeeze          np.squeeze           a, axis=None
numpy  concatenate      np.concatenate       arrays, axis=0
numpy  stack            np.stack             arrays, axis=0
numpy  astype           np.astype            x, dtype
numpy  full             np.full              shape:shape, fill_value, dtype=None
numpy  zeros            np.zeros             shape:shape, dtype=None
numpy  ones             np.ones              shape:shape, dtype=None
numpy  zeros_like       np.zerosLike         a
numpy  ones_like        np.onesLike          a
numpy  arange           np.arange            start, stop=None, step=None, dtype=None
numpy  eye              np.eye               N, M=None, k=0, dtype=None
numpy  identity         np.identity          n, dtype=None
numpy  tri              np.tri               N, M=None, k=0, dtype=None
numpy  tril             np.tril              m, k=0
numpy  triu             np.triu              m, k=0
numpy  linspace         np.linspace          start, stop, num=50, {endpoint=True}, *, {dtype=None}
numpy  diagonal         np.diagonal          a, offset=0
numpy  trace            np.trace             a, offset=0
numpy  swapaxes         np.swapaxes          a, axis1, axis2
numpy  moveaxis         np.moveaxis          a, source, destination
numpy  hstack           np.hstack            tup
numpy  vstack           np.vstack            tup
numpy  outer            np.outer             a, b
numpy  inner            np.inner             a, b
numpy  roll             np.roll              a, shift, axis=None
numpy  split            np.split             ary, indices_or_sections, axis=0
numpy  array_split      np.arraySplit        ary, indices_or_sections, axis=0
numpy  tile             np.tile              A, reps
numpy  repeat           np.repeat            a, repeats, axis=None
numpy  kron             np.kron              a, b
numpy  diag             np.diag              v, k=0
numpy  broadcast_to     np.broadcastTo       array, shape:shape
numpy  pad              np.pad               array, pad_width, *, {constant_values=0}
numpy  clip             np.clip              arr, min=None, max=None
numpy  bitwise_and      np.bitwiseAnd        x, y
numpy  bitwise_or       np.bitwiseOr         x, y
numpy  bitwise_xor      np.bitwiseXor        x, y
numpy  bitwise_not      np.bitwiseNot        x
numpy  invert           np.bitwiseNot        x
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
nn     swish            nn.silu              x
nn     softplus         nn.softplus          x
nn     elu              nn.elu               x, alpha=1.0
nn     leaky_relu       nn.leakyRelu         x, negative_slope=0.01
nn     one_hot          nn.oneHot            x, num_classes, *, {dtype=None}
nn     logsumexp        nn.logsumexp         a, {axis=None}, *, {keepdims=False}
nn     standardize      nn.standardize       x, {axis=-1, mean=None, variance=None, epsilon=1e-05}
numpy.linalg norm     np.linalg.norm       x, {ord=None, axis=None, keepdims=False}
random PRNGKey           random.PRNGKey       seed
random key              random.key           seed
random key_data         random.keyData       keys
random wrap_key_data    random.wrapKeyData   key_bits
random split            random.split         key, num=2
random fold_in          random.foldIn        key, data
random bits             random.bits          key, shape:shape=(), dtype=None
random uniform          random.uniform       key, shape:shape=(), dtype=float32, minval=0.0, maxval=1.0
random normal           random.normal        key, shape:shape=(), dtype=float32
random bernoulli        random.bernoulli     key, p=0.5, shape:shape=None
random randint          random.randint       key, shape:shape, minval, maxval, dtype=int32
random permutation      random.permutation   key, x, axis=0, independent=False
random categorical      random.categorical   key, logits, axis=-1, shape:shape=None
random truncated_normal random.truncatedNormal key, lower, upper, shape:shape=None, dtype=float32
scipy.special logsumexp nn.logsumexp         a, {axis=None}, *, {keepdims=False}
lax    psum             lax.psum             x:tree, axis_name
lax    pmean            lax.pmean            x:tree, axis_name
lax    pmax             lax.pmax             x:tree, axis_name
lax    pmin             lax.pmin             x:tree, axis_name
lax    all_gather       lax.allGather        x:tree, axis_name, *, {axis=0, tiled=False}
lax    psum_scatter     lax.psumScatter      x:tree, axis_name, *, {scatter_dimension=0, tiled=False}
lax    ppermute         lax.ppermute         x:tree, axis_name, perm
lax    all_to_all       lax.allToAll         x:tree, axis_name, split_axis, concat_axis, *, {tiled=False}
lax    axis_index       lax.axisIndex        axis_name
lax    pcast            lax.pcast            x:tree, axis_name, *, {to}
lax    pvary            lax.pvary            x:tree, axis_name
lax    stop_gradient    lax.stopGradient     x:tree
lax    dot_general      lax.dotGeneral       lhs, rhs, dimension_numbers
lax    slice            lax.slice            operand, start_indices, limit_indices, strides=None
lax    dynamic_slice    lax.dynamicSlice     operand, start_indices, slice_sizes
lax    dynamic_update_slice lax.dynamicUpdateSlice operand, update, start_indices
lax    pad              lax.pad              operand, padding_value, padding_config
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
lax    max              np.maximum           x, y
lax    min              np.minimum           x, y
"""

_MISSING = object()


class _Param:
    __slots__ = ("name", "optional", "option", "kind", "variadic", "keyword_only")

    def __init__(self, text, option, keyword_only):
        self.option = option
        self.keyword_only = keyword_only
        self.variadic = text.startswith("*")
        text = text.lstrip("*")
        self.optional = "=" in text or option
        self.name, _, self.kind = text.split("=")[0].partition(":")


def _parse(params):
    out = []
    keyword_only = False
    for group, option in re.findall(r"\{([^}]*)\}|([^{},]+)", params):
        for p in (group or option).split(","):
            if p.strip() == "*":
                keyword_only = True
            elif p.strip():
                out.append(_Param(p.strip(), option=bool(group), keyword_only=keyword_only))
    return out


def _camel(name):
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


def _js_function(path):
    obj = sl
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _make(module, name, path, params_text):
    params = _parse(params_text)
    qualname = f"jax.{module}.{name}"
    target = []  # the JS function, resolved on first call

    def fn(*args, **kwargs):
        bound = {}
        i = 0
        for p in params:
            if p.variadic:
                bound[p.name] = list(args[i:])
                i = len(args)
            elif i < len(args) and not p.keyword_only:
                bound[p.name] = args[i]
                i += 1
        if i < len(args):
            raise TypeError(f"{qualname}() takes {i} positional arguments but {len(args)} were given")
        for k, v in kwargs.items():
            p = next((p for p in params if p.name == k), None)
            if p is None:
                names = ", ".join(p.name for p in params)
                raise TypeError(f"{qualname}() got an unexpected keyword argument '{k}' (its arguments here: {names})")
            if k in bound:
                raise TypeError(f"{qualname}() got multiple values for argument '{k}'")
            bound[k] = v
        for p in params:
            if p.name not in bound and not p.optional:
                raise TypeError(f"{qualname}() missing required argument '{p.name}'")
        tree = None
        positional, options = [], {}
        for p in params:
            v = bound.get(p.name, _MISSING)
            if p.kind == "tree" and v is not _MISSING:
                leaves, tree = pytree.tree_flatten(v)
                v = leaves
            elif p.kind == "shape" and isinstance(v, int):
                v = (v,)
            if p.kind == "cast":
                if v is not _MISSING and v is not None:
                    positional[0] = from_js(call(sl.np.astype, positional[0], v))
                continue
            if p.option:
                if v is not _MISSING:
                    options[_camel(p.name)] = v
            elif p.variadic:
                positional.extend(v)
            else:
                positional.append(v)
        while positional and positional[-1] is _MISSING:
            positional.pop()
        # A parameter left out before a given one is JS's undefined (its default).
        positional = [UNDEFINED if v is _MISSING else v for v in positional]
        if options:
            positional.append(options)
        if not target:
            target.append(_js_function(path))
        out = from_js(call(target[0], *positional))
        return pytree.tree_unflatten(tree, out) if tree is not None else out

    fn.__name__ = name
    fn.__qualname__ = name
    fn.__doc__ = f"{qualname}({params_text.strip()}): ShardLab's {path}."
    return fn


def functions(module):
    """The functions of jax.`module` ('numpy', 'lax', 'nn', 'scipy.special') built from the table, by name."""
    out = {}
    for line in TABLE.strip().splitlines():
        mod, name, path, params = re.match(r"(\S+)\s+(\S+)\s+(\S+)\s*(.*)", line).groups()
        if mod == module:
            out[name] = _make(mod, name, path, params)
    return out
