"""numpy.random.PCG64 in ShardLab's numpy: numpy's default bit generator,
PCG XSL RR 128/64 (a 128-bit LCG with numpy's 128-bit multiplier, output
the xor of its halves rotated by its top six bits), seeded from a
SeedSequence as numpy seeds it. Python's ints are the 128-bit arithmetic,
masked."""

from ._seed_sequence import SeedSequence

_M128 = (1 << 128) - 1
_M64 = (1 << 64) - 1
# PCG_DEFAULT_MULTIPLIER_128 (pcg64.h): 2549297995355413924 * 2**64 + 4865540595714422341.
_MULT = (2549297995355413924 << 64) | 4865540595714422341
# numpy's jump: (phi - 1) * 2**128, so jumped streams are far apart.
_JUMP = 0x9E3779B97F4A7C15F39CC0605CEDC835


class PCG64:
    """np.random.PCG64(seed=None): numpy's PCG-64 bit generator (seed: None, an int, ints, or a SeedSequence)."""

    def __init__(self, seed=None):
        if not isinstance(seed, SeedSequence):
            seed = SeedSequence(seed)
        self._seed_seq = seed
        w = seed._state_words(8)
        # generate_state(4, uint64): each uint64 word is two uint32 words, lowest first.
        v = [w[2 * i] | (w[2 * i + 1] << 32) for i in range(4)]
        init_state, init_seq = (v[0] << 64) | v[1], (v[2] << 64) | v[3]
        self._inc = ((init_seq << 1) | 1) & _M128
        # pcg's srandom: one step from 0 (which leaves inc), add the initial state, one more step.
        self._state = ((self._inc + init_state) * _MULT + self._inc) & _M128
        self._has_uint32 = 0
        self._uinteger = 0

    @property
    def seed_seq(self):
        """The SeedSequence this generator was seeded from."""
        return self._seed_seq

    def _next64(self):
        """The next 64-bit output: step the LCG, then xor its halves and rotate by its top 6 bits."""
        s = (self._state * _MULT + self._inc) & _M128
        self._state = s
        x = (s >> 64) ^ (s & _M64)
        rot = s >> 122
        return ((x >> rot) | (x << (64 - rot))) & _M64

    def _next32(self):
        """The next 32-bit output: the low half of a 64-bit one, its high half kept for the next call (numpy's)."""
        if self._has_uint32:
            self._has_uint32 = 0
            return self._uinteger
        x = self._next64()
        self._has_uint32 = 1
        self._uinteger = x >> 32
        return x & 0xFFFFFFFF

    def _next_double(self):
        """A float64 in [0, 1): the top 53 bits of a 64-bit output."""
        return (self._next64() >> 11) * (1.0 / 9007199254740992.0)

    def _next_float(self):
        """A float32 in [0, 1) (as a Python float): the top 24 bits of a 32-bit output."""
        return (self._next32() >> 8) * (1.0 / 16777216.0)

    @property
    def state(self):
        """The state as numpy's dict: {'bit_generator': 'PCG64', 'state': {'state', 'inc'}, 'has_uint32', 'uinteger'}."""
        return {"bit_generator": "PCG64", "state": {"state": self._state, "inc": self._inc},
                "has_uint32": self._has_uint32, "uinteger": self._uinteger}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        if value.get("bit_generator", "") != "PCG64":
            raise ValueError("state must be for a PCG64 RNG")
        self._state = int(value["state"]["state"]) & _M128
        self._inc = int(value["state"]["inc"]) & _M128
        self._has_uint32 = int(value["has_uint32"])
        self._uinteger = int(value["uinteger"]) & 0xFFFFFFFF

    def advance(self, delta):
        """Moves the state on as if delta 64-bit outputs were drawn (modulo 2**128); returns self."""
        delta = int(delta) & _M128
        # The LCG's delta-fold composition by squaring: (mult, plus) pairs composed bit by bit.
        acc_mult, acc_plus, cur_mult, cur_plus = 1, 0, _MULT, self._inc
        while delta:
            if delta & 1:
                acc_mult = (acc_mult * cur_mult) & _M128
                acc_plus = (acc_plus * cur_mult + cur_plus) & _M128
            cur_plus = ((cur_mult + 1) * cur_plus) & _M128
            cur_mult = (cur_mult * cur_mult) & _M128
            delta >>= 1
        self._state = (acc_mult * self._state + acc_plus) & _M128
        self._has_uint32 = 0
        self._uinteger = 0
        return self

    def jumped(self, jumps=1):
        """A new PCG64 whose state is this one's advanced by jumps * (phi - 1) * 2**128 draws."""
        other = PCG64(self._seed_seq)
        other.state = self.state
        return other.advance(_JUMP * int(jumps))

    def spawn(self, n_children):
        """n_children new PCG64s seeded from this one's SeedSequence's spawned children (numpy 1.25's)."""
        return [PCG64(s) for s in self._seed_seq.spawn(n_children)]

    def __repr__(self):
        return f"<numpy.random._pcg64.PCG64 object at 0x{id(self):x}>"

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(
            f"PCG64.{name} is not in ShardLab's numpy subset; its PCG64 has state, advance, jumped, spawn and seed_seq "
            "(draw through np.random.Generator(bit_generator))"
        )
