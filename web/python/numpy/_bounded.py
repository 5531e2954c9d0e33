"""numpy's bounded integer draws (distributions.c): Lemire's
multiply-and-reject for Generator.integers and choice, with 32-bit draws
whenever the range fits 32 bits, and the masked rejection of
random_interval that shuffle and permutation use. Each draws from a bit
generator's _next32 / _next64 exactly as numpy's C does."""

_M32 = 0xFFFFFFFF
_M64 = 0xFFFFFFFFFFFFFFFF


def lemire32(next32, rng):
    """A uniform int in [0, rng] for 0 < rng < 2**32 - 1: Lemire's method on 32-bit draws."""
    excl = rng + 1
    m = next32() * excl
    if (m & _M32) < excl:
        threshold = (_M32 - rng) % excl  # the low words that would bias the result
        while (m & _M32) < threshold:
            m = next32() * excl
    return m >> 32


def lemire64(next64, rng):
    """A uniform int in [0, rng] for 2**32 - 1 < rng < 2**64 - 1: Lemire's method on 64-bit draws."""
    excl = rng + 1
    m = next64() * excl
    if (m & _M64) < excl:
        threshold = (_M64 - rng) % excl
        while (m & _M64) < threshold:
            m = next64() * excl
    return m >> 64


def bounded64(bitgen, rng):
    """A uniform int in [0, rng] as numpy's random_bounded_uint64 (unmasked): 32-bit draws for a 32-bit range."""
    if rng == 0:
        return 0
    if rng < _M32:
        return lemire32(bitgen._next32, rng)
    if rng == _M32:
        return bitgen._next32()
    if rng == _M64:
        return bitgen._next64()
    return lemire64(bitgen._next64, rng)


def bounded32(bitgen, rng):
    """A uniform int in [0, rng] (rng < 2**32) as numpy's random_buffered_bounded_uint32 (unmasked)."""
    if rng == 0:
        return 0
    if rng == _M32:
        return bitgen._next32()
    return lemire32(bitgen._next32, rng)


def bool_drawer(bitgen):
    """A function rng -> a uniform bool in [0, rng] (rng 0 or 1) as numpy's buffered_bounded_bool: one bit of a
    32-bit draw each, lowest first, the draw's 32 bits kept across the calls of one integers() call."""
    state = [0, 0]  # the buffered draw and how many of its bits are left

    def draw(rng):
        if rng == 0:
            return 0
        if state[1]:
            state[0] >>= 1
            state[1] -= 1
        else:
            state[0], state[1] = bitgen._next32(), 31
        return state[0] & 1

    return draw


def interval(bitgen, top):
    """A uniform int in [0, top] as numpy's random_interval: draws masked to top's bit length, the ones above top
    rejected (32-bit draws when top fits 32 bits)."""
    if top == 0:
        return 0
    mask = (1 << top.bit_length()) - 1
    draw = bitgen._next32 if top <= _M32 else bitgen._next64
    while True:
        value = draw() & mask
        if value <= top:
            return value
