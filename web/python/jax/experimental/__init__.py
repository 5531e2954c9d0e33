"""jax.experimental."""
