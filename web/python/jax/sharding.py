"""jax.sharding: Mesh, PartitionSpec, NamedSharding, SingleDeviceSharding, AxisType, AbstractMesh, set_mesh and
get_abstract_mesh over the JS API (jax/_src/sharding.py)."""

from ._src.sharding import (  # noqa: F401
    AxisType,
    PartitionSpec,
    Mesh,
    NamedSharding,
    SingleDeviceSharding,
    AbstractMesh,
    get_abstract_mesh,
    set_mesh,
    reshard,
)
