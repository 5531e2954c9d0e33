"""jax.experimental.mesh_utils: create_device_mesh."""

from .._src.devices import create_device_mesh  # noqa: F401
