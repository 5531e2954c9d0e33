"""ShardLab's jax: JAX's Python API bound onto ShardLab's JS API, so the JAX
a learner writes here runs unchanged on JAX. docs/python.md lists what it
covers and every known difference."""

from . import debug, dtypes, errors, lax, nn, numpy, random, scipy, sharding, tree, tree_util  # noqa: F401
from . import experimental  # noqa: F401
from ._src.api import (  # noqa: F401
    device_put,
    grad,
    jit,
    jvp,
    linear_transpose,
    linearize,
    make_jaxpr,
    shard_map,
    value_and_grad,
    vjp,
)
from ._src.vmap import hessian, jacfwd, jacobian, jacrev, vmap  # noqa: F401
from ._src.devices import device_get  # noqa: F401
from ._src.pmap import pmap  # noqa: F401
from ._src.custom import custom_jvp, custom_vjp  # noqa: F401
from ._src.checkpoint import checkpoint, checkpoint_policies, remat  # noqa: F401
from ._src.array import PublicArray as Array, Shard  # noqa: F401
from ._src.abstract import ShapeDtypeStruct, eval_shape, typeof  # noqa: F401
from ._src.config import config, disable_jit, numpy_dtype_promotion  # noqa: F401
from ._src.devices import (  # noqa: F401
    Device,
    block_until_ready,
    device_count,
    devices,
    local_device_count,
    make_mesh,
)
from .sharding import AxisType, Mesh, NamedSharding, PartitionSpec, reshard, set_mesh  # noqa: F401
from .sharding import PartitionSpec as P  # noqa: F401 (JAX 0.11: jax.P)

__version__ = "0.11.0"
