# A learner's placement: the mesh from numpy's reshape of the devices, and mesh_utils.
import jax
import numpy as np
from jax.experimental import mesh_utils
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def place(x):
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
    grid = Mesh(mesh_utils.create_device_mesh((2, 4)), ("data", "model"))
    return {
        "rows": jax.device_put(x, NamedSharding(mesh, P("data"))),
        "cols": jax.device_put(x, NamedSharding(grid, P(None, "model"))),
        "grid": jax.device_put(x, NamedSharding(mesh, P("data", "model"))),
        "flat": jax.device_put(x, NamedSharding(grid, P(("data", "model")))),
        "replicated": jax.device_put(x, NamedSharding(mesh, P())),
    }
