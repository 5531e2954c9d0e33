"""numpy.random.SeedSequence in ShardLab's numpy: numpy's mixing of a seed
(an int, a list of ints, a spawn key) into a pool of four 32-bit words and
the state words it hands a bit generator, bit for bit (O'Neill's seed_seq
hash as numpy adapts it)."""

import os
import time

from . import _dtypes
from ._ndarray import ndarray

_MASK32 = 0xFFFFFFFF
_POOL_SIZE = 4
# numpy's hash constants (bit_generator.pyx): the multipliers and seeds of its two hashes and its mix.
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_MULT_L, _MIX_MULT_R = 0xCA01F9DD, 0x4973F715


def _words(value):
    """An int, a numeric string or a sequence of them (concatenated) as 32-bit words, lowest first, as numpy
    coerces a seed."""
    if isinstance(value, str):
        if value.startswith("0x"):
            value = int(value, 16)
        elif value[:1].isdigit():
            value = int(value)
        else:
            raise ValueError("unrecognized seed string")
    if isinstance(value, float):  # numpy's float scalars are floats here too
        raise TypeError("seed must be integer")
    if hasattr(value, "__index__") and not hasattr(value, "__len__"):
        n = value.__index__()
        if n < 0:
            raise ValueError("expected non-negative integer")
        out = [n & _MASK32]
        n >>= 32
        while n:
            out.append(n & _MASK32)
            n >>= 32
        return out
    if getattr(value, "_shardlab_host_array", None) is not None:
        flat, _, dtype = value._shardlab_host_array
        if dtype == "uint32":
            return list(flat)  # a uint32 array passes through word for word, as numpy's
        if dtype in ("float32", "float64"):
            raise TypeError("seed must be integer")
        value = flat
    return [w for v in value for w in _words(v)]


class _Hash:
    """numpy's hashmix: each call multiplies its running constant on, so the order of calls is the hash."""

    def __init__(self):
        self.const = _INIT_A

    def __call__(self, value):
        value = (value ^ self.const) & _MASK32
        self.const = (self.const * _MULT_A) & _MASK32
        value = (value * self.const) & _MASK32
        return value ^ (value >> 16)


def _mix(x, y):
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> 16)


class SeedSequence:
    """np.random.SeedSequence(entropy=None, *, spawn_key=(), pool_size=4): numpy's seed mixer, bit for bit."""

    def __init__(self, entropy=None, *, spawn_key=(), pool_size=_POOL_SIZE, n_children_spawned=0):
        if pool_size < _POOL_SIZE:
            raise ValueError(f"The size of the entropy pool should be at least {_POOL_SIZE}")
        if entropy is None:
            # numpy draws 128 fresh bits (secrets.randbits); the OS's bytes and the clock stand in, as unrepeatable.
            entropy = int.from_bytes(os.urandom(pool_size * 4), "little") ^ time.time_ns()
            entropy &= (1 << (pool_size * 32)) - 1
        elif not isinstance(entropy, (list, tuple, range, ndarray)) and (
            isinstance(entropy, float) or not hasattr(entropy, "__index__")
        ):
            raise TypeError(f"SeedSequence expects int or sequence of ints for entropy not {entropy}")
        self.entropy = entropy
        self.spawn_key = tuple(spawn_key)
        self.pool_size = pool_size
        self.n_children_spawned = n_children_spawned
        self._pool = self._mixed(self._assembled())

    def _assembled(self):
        run = _words(self.entropy)
        spawn = _words(self.spawn_key)
        if spawn and len(run) < self.pool_size:
            # numpy 1.19's padding, so a spawn key cannot read as more entropy.
            run = run + [0] * (self.pool_size - len(run))
        return run + spawn

    def _mixed(self, entropy):
        hashmix = _Hash()
        pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(self.pool_size)]
        # Every word mixes into every other, so late words reach early ones.
        for src in range(self.pool_size):
            for dst in range(self.pool_size):
                if src != dst:
                    pool[dst] = _mix(pool[dst], hashmix(pool[src]))
        for src in range(self.pool_size, len(entropy)):
            for dst in range(self.pool_size):
                pool[dst] = _mix(pool[dst], hashmix(entropy[src]))
        return pool

    @property
    def pool(self):
        """The mixed entropy pool: a uint32 array of pool_size words."""
        return ndarray(list(self._pool), (self.pool_size,), "uint32")

    @property
    def state(self):
        """The arguments that rebuild this SeedSequence."""
        return {"entropy": self.entropy, "spawn_key": self.spawn_key, "pool_size": self.pool_size,
                "n_children_spawned": self.n_children_spawned}

    def _state_words(self, n_words):
        """n_words 32-bit words of state as Python ints (what generate_state returns, before the array)."""
        const = _INIT_B
        out = []
        for i in range(n_words):
            value = self._pool[i % self.pool_size] ^ const
            const = (const * _MULT_B) & _MASK32
            value = (value * const) & _MASK32
            out.append(value ^ (value >> 16))
        return out

    def generate_state(self, n_words, dtype="uint32"):
        """n_words words of state for seeding a bit generator, as numpy's (uint32; uint64 is not in this subset)."""
        try:
            name = _dtypes.name_of(dtype)
        except TypeError:
            name = str(getattr(dtype, "__name__", dtype))
        if name != "uint32":
            raise TypeError(
                f"SeedSequence.generate_state: dtype {name!r} is not in ShardLab's numpy subset; it gives uint32 "
                "words (numpy's uint64 word k is word 2k + word 2k+1 * 2**32 of generate_state(2 * n_words))"
            )
        n = int(n_words)
        return ndarray(self._state_words(n), (n,), "uint32")

    def spawn(self, n_children):
        """n_children new SeedSequences, each this one's spawn_key extended by its index."""
        start = self.n_children_spawned
        self.n_children_spawned += n_children
        return [
            type(self)(self.entropy, spawn_key=self.spawn_key + (i,), pool_size=self.pool_size)
            for i in range(start, start + n_children)
        ]

    def __repr__(self):
        lines = [f"{type(self).__name__}(", f"    entropy={self.entropy!r},"]
        if self.spawn_key:
            lines.append(f"    spawn_key={self.spawn_key!r},")
        if self.pool_size != _POOL_SIZE:
            lines.append(f"    pool_size={self.pool_size!r},")
        if self.n_children_spawned:
            lines.append(f"    n_children_spawned={self.n_children_spawned!r},")
        lines.append(")")
        return "\n".join(lines)
