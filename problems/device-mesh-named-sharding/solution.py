# Reference solution: one device_put per PartitionSpec on a 2x4 mesh.
import jax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P


def place(x):
    mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))

    def on(spec):
        return jax.device_put(x, NamedSharding(mesh, spec))

    return {
        "rows": on(P("data")),
        "cols": on(P(None, "model")),
        "grid": on(P("data", "model")),
        "flat": on(P(("data", "model"))),
        "replicated": on(P()),
    }
