# device-mesh-named-sharding in the global view: a mesh of Explicit axes
# (jax.make_mesh's default in JAX 0.11), where each placement is part of the
# returned array's type (jax.typeof prints float32[8@data,4] for "rows").
import jax
from jax.sharding import NamedSharding, PartitionSpec as P


def place(x):
    mesh = jax.make_mesh((2, 4), ("data", "model"))
    specs = {"rows": P("data"), "cols": P(None, "model"), "grid": P("data", "model"), "flat": P(("data", "model")), "replicated": P()}
    return {name: jax.device_put(x, NamedSharding(mesh, spec)) for name, spec in specs.items()}
