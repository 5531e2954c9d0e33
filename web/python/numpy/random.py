"""numpy.random in ShardLab's numpy: not provided yet (numpy's PCG64 streams
are not reproduced here); jax.random draws the same numbers as JAX's."""


def __getattr__(name):
    raise AttributeError(
        f"numpy.random.{name} is not in ShardLab's numpy subset yet; draw with jax.random "
        "(jax.random.normal(jax.random.key(0), shape)), which gives JAX's numbers bit for bit"
    )
