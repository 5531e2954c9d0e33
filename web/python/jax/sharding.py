"""jax.sharding: Mesh, PartitionSpec, NamedSharding, SingleDeviceSharding and AxisType over the JS API (jax/_src/sharding.py)."""

from ._src.sharding import (  # noqa: F401
    AxisType,
    PartitionSpec,
    Mesh,
    NamedSharding,
    SingleDeviceSharding,
)
