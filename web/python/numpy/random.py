"""numpy.random in ShardLab's numpy: numpy's Generator API over PCG64
(default_rng, Generator, PCG64, SeedSequence), drawing numpy's numbers bit
for bit. numpy's legacy functions (np.random.seed, rand, normal, ...) and
its other bit generators are not here."""

from ._generator import Generator, default_rng
from ._pcg64 import PCG64
from ._seed_sequence import SeedSequence

__all__ = ["Generator", "PCG64", "SeedSequence", "default_rng"]


def __getattr__(name):
    raise AttributeError(
        f"numpy.random.{name} is not in ShardLab's numpy subset; it has default_rng, Generator, PCG64 and "
        "SeedSequence (rng = np.random.default_rng(seed); rng.random, uniform, integers, standard_normal, normal, "
        "choice, permutation, shuffle), which draw numpy's numbers bit for bit; jax.random draws JAX's"
    )
