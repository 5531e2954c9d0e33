# numpy.random's Generator (default_rng over PCG64, seeded through a
# SeedSequence) in ShardLab's numpy against numpy itself. The expected values
# were recorded from numpy 1.24.2 (Debian bookworm's python3-numpy, on an
# x86-64 CPU with FMA, glibc 2.36) with
#   apt-get install -y python3-numpy
#   /usr/bin/python3 tests/python/numpy_random.py > tests/python/numpy_random.expected
# then the last section's lines ("outside the subset": ShardLab's errors for
# what its numpy does not have, which numpy runs) replaced by ShardLab's
# output, read by hand; every other line is what numpy printed. Scalars print
# with print() (str), which numpy 1.24 and 2 share.
import hashlib
import math

import numpy as np


def digest(values):
    """A short hash of floats' exact bits (or ints), so long runs of draws compare bit for bit."""
    text = ",".join(float(v).hex() if isinstance(v, float) else str(int(v)) for v in values)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def attempt(f):
    try:
        print(f())
    except Exception as e:  # noqa: BLE001 - the error is what is printed
        print(f"{type(e).__name__}: {e}")


print("-- SeedSequence and PCG64")
ss = np.random.SeedSequence(12345)
print(ss)
print(repr(ss.generate_state(4)))
kids = ss.spawn(2)
print(kids[1], ss.n_children_spawned)
print(repr(kids[1].generate_state(3)))
print(repr(np.random.SeedSequence([1, 2, 3]).generate_state(3)))
print(repr(np.random.SeedSequence(2**70 + 5).generate_state(3)))
print(repr(np.random.SeedSequence(0).pool), np.random.SeedSequence(0).entropy)
bg = np.random.PCG64(0)
print(bg.state)
print(bg.advance(10**30).state["state"], bg.jumped().state["state"])
bg.state = np.random.PCG64(42).state
print(np.random.Generator(bg).random(), np.random.default_rng(42).random())

print("-- seeds: 0, 42, 12345, a list, an int above 2**64, a SeedSequence, a PCG64")
for seed in (0, 42, 12345, [1, 2, 3], 2**70 + 5, np.random.SeedSequence(7), np.random.PCG64(3)):
    rng = np.random.default_rng(seed)
    print(rng.random(), rng.integers(1000), rng.standard_normal(), rng.integers(2**40))
rng = np.random.default_rng(0)
print(np.random.default_rng(rng) is rng, rng, type(rng.bit_generator).__name__)
fresh = np.random.default_rng()
print(type(fresh.random()).__name__, fresh.random() != np.random.default_rng().random())

print("-- random")
rng = np.random.default_rng(12345)
print(rng.random(), type(rng.random()).__name__)
print(repr(rng.random(5)))
print(repr(rng.random((2, 3))))
print(repr(rng.random(())))
print(repr(rng.random(4, dtype=np.float32)), rng.random(dtype=np.float32))
print(repr(rng.random((2, 2), dtype="float32")))
print(digest(rng.random(5000).tolist()), digest(rng.random(5000, dtype=np.float32).tolist()))

print("-- uniform")
print(rng.uniform(), rng.uniform(-2, 3), type(rng.uniform()).__name__)
print(repr(rng.uniform(10, 20, 4)))
print(repr(rng.uniform(-1.5, 1.5, (2, 3))))
print(repr(rng.uniform([0, 1, 2], [[3], [10]])))
print(repr(rng.uniform([0, 100], 200, size=(3, 2))))
print(repr(rng.uniform(5, 5, 2)))

print("-- integers")
rng = np.random.default_rng(42)
print(rng.integers(10), type(rng.integers(10)).__name__, rng.integers(5, dtype=int), type(rng.integers(5, dtype=int)).__name__)
print(repr(rng.integers(10, size=8)))
print(repr(rng.integers(-5, 5, size=(2, 6))))
print(repr(rng.integers(-5, 5, size=10, endpoint=True)))
print(repr(rng.integers(0, 2**40, size=4)), repr(rng.integers(-(2**62), 2**62, size=3)))
print(repr(rng.integers(-(2**63), 2**63, size=3)), repr(rng.integers(-(2**63), 2**63 - 1, size=2, endpoint=True)))
print(repr(rng.integers(2**32 - 1, size=3)), repr(rng.integers(2**32, size=3)), repr(rng.integers(2**32 + 1, size=3)))
print(repr(rng.integers(7, 8, size=3)), repr(rng.integers(3, 3, size=3, endpoint=True)), repr(rng.integers(5, size=0)))
print(repr(rng.integers(100, size=6, dtype=np.int32)), rng.integers(-3, 4, dtype=np.int32), type(rng.integers(3, dtype=np.int32)).__name__)
print(repr(rng.integers(-(2**31), 2**31, size=3, dtype=np.int32)))
print(repr(rng.integers(2**32, size=4, dtype=np.uint32)), type(rng.integers(9, dtype=np.uint32)).__name__)
print(repr(rng.integers(2, size=10, dtype=np.bool_)), rng.integers(2, dtype=np.bool_), rng.integers(0, 1, dtype=bool, endpoint=True))
print(repr(rng.integers([1, 2, 3], 10)), repr(rng.integers([1, 2, 3], [[10], [2**40]])))
print(repr(rng.integers(0, [1, 5, 9], size=(2, 3), dtype=np.int32, endpoint=True)))
print(rng.integers(5.9), repr(rng.integers([0.5, 3.7], 10)))
ints = rng.integers(-1000, 10**15, size=3000)
print(digest(ints.tolist()), int(ints.min()), int(ints.max()))
small = rng.integers(0, 6, size=3000, dtype=np.int32)
print(digest(small.tolist()), [int((small == k).sum()) for k in range(6)])
attempt(lambda: rng.integers(0))
attempt(lambda: rng.integers(-3))
attempt(lambda: rng.integers(5, 5))
attempt(lambda: rng.integers(6, 5, endpoint=True))
attempt(lambda: rng.integers(0, -1, endpoint=True))
attempt(lambda: rng.integers(2**63))
attempt(lambda: rng.integers(-1, 5, dtype=np.uint32))
attempt(lambda: rng.integers(2**31 + 1, dtype=np.int32))
attempt(lambda: rng.integers(3, dtype=np.bool_))
attempt(lambda: rng.integers([5, 2], 4))
attempt(lambda: rng.integers(0, [0, 3]))
attempt(lambda: rng.integers(3, dtype=np.float64))

print("-- standard_normal and normal (ziggurat: tail beyond r = 3.654 and wedges)")
rng = np.random.default_rng(0)
print(rng.standard_normal(), type(rng.standard_normal()).__name__, rng.standard_normal(dtype=np.float32))
print(repr(rng.standard_normal(5)))
print(repr(rng.standard_normal((2, 3))))
print(repr(rng.standard_normal(4, dtype=np.float32)))
for seed in (0, 1, 12345):
    # 30000 draws a dtype: about 210 wedge tests and 8 tail draws each, by ShardLab's count.
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(30000).tolist()
    f = rng.standard_normal(30000, dtype=np.float32).tolist()
    print(seed, digest(z), repr(math.fsum(z)), [v for v in z if abs(v) > 3.6541528853610088])
    print(seed, digest(f), repr(math.fsum(f)), [v for v in f if abs(v) > 3.6541529])
rng = np.random.default_rng(2021)
print(rng.normal(), rng.normal(10, 0.5), type(rng.normal()).__name__)
print(repr(rng.normal(3, 2, 4)))
print(repr(rng.normal(0, 1, (2, 2))))
print(repr(rng.normal([0, 10, 100], [[1], [0.1]])))
print(repr(rng.normal([0, 10], 2, size=(3, 2))))
print(repr(rng.normal(7, 0.0, 2)))
print(digest(rng.normal(-1, 3, 2000).tolist()))
attempt(lambda: rng.normal(0, -1))
attempt(lambda: rng.normal(0, -0.0))
attempt(lambda: rng.normal([0, 1], [1, -2]))
attempt(lambda: rng.uniform(2, 1))
attempt(lambda: rng.uniform(0, np.inf))
attempt(lambda: rng.uniform([0, 1], 3, size=(3,)))
attempt(lambda: rng.normal(size=-1))
attempt(lambda: rng.standard_normal(dtype=np.int64))
attempt(lambda: rng.random(dtype=np.int32))

print("-- choice")
rng = np.random.default_rng(7)
print(rng.choice(5), type(rng.choice(5)).__name__, rng.choice([1.5, 2.5, 3.5]), rng.choice(["a", "b", "c"]))
print(repr(rng.choice(10, 6)), repr(rng.choice(10, (2, 3))))
print(repr(rng.choice(10, 4, replace=False)), repr(rng.choice(10, 4, replace=False, shuffle=False)), repr(rng.choice(5, (), replace=False)))
big = rng.choice(20000, 1000, replace=False)
print(repr(big[:6]), digest(big.tolist()), len(set(big.tolist())))
print(repr(rng.choice(20000, 5, replace=False)), repr(rng.choice(20000, 500, replace=False, shuffle=False)[:4]))
p = [0.1, 0.2, 0.3, 0.15, 0.25]
print(repr(rng.choice(5, 12, p=p)), rng.choice(5, p=p), repr(rng.choice(5, 4, replace=False, p=p)))
print(repr(rng.choice(np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8]]), 2)), repr(rng.choice(np.arange(12).reshape(3, 4), 3, axis=1)))
print(repr(rng.choice(np.array([1.5, 2.5, 3.5]), size=(2, 2))))
attempt(lambda: rng.choice(5, 6, replace=False))
attempt(lambda: rng.choice(5.5))
attempt(lambda: rng.choice(0))
attempt(lambda: rng.choice([]))
attempt(lambda: rng.choice(3, p=[0.5, 0.5]))
attempt(lambda: rng.choice(3, p=[0.5, 0.6, -0.1]))
attempt(lambda: rng.choice(3, p=[0.5, 0.6, 0.1]))
attempt(lambda: rng.choice(3, p=[0.5, np.nan, 0.1]))
attempt(lambda: rng.choice(3, 3, replace=False, p=[0.5, 0.5, 0.0]))

print("-- permutation and shuffle")
rng = np.random.default_rng(99)
print(repr(rng.permutation(10)), repr(rng.permutation([1.5, 2.5, 3.5, 4.5])))
a = np.arange(12).reshape(4, 3)
print(repr(rng.permutation(a)), repr(rng.permutation(a, axis=1)), repr(a))
x = list(range(10))
rng.shuffle(x)
print(x)
y = np.arange(8)
rng.shuffle(y)
print(repr(y))
z = np.arange(24).reshape(2, 3, 4)
rng.shuffle(z)
rng.shuffle(z, axis=2)
print(repr(z))
print(digest(rng.permutation(5000).tolist()), rng.random())
attempt(lambda: rng.shuffle(5))

print("-- spawned streams (Generator.spawn is numpy 1.25's; 1.24 spawns the SeedSequence)")
rng = np.random.default_rng(np.random.SeedSequence(5))
if hasattr(np.random.Generator, "spawn"):
    children = rng.spawn(2)
else:
    children = [np.random.default_rng(s) for s in np.random.SeedSequence(5).spawn(2)]
print([c.random() for c in children], [int(c.integers(100)) for c in children])

print("-- outside the subset (ShardLab's errors; numpy has these)")
rng = np.random.default_rng(0)
attempt(lambda: rng.random(out=np.zeros(2)))
attempt(lambda: rng.standard_normal(2, out=np.zeros(2)))
attempt(lambda: rng.random(dtype="float16"))
attempt(lambda: rng.integers(5, dtype="uint64"))
attempt(lambda: rng.integers(5, dtype="int8"))
attempt(lambda: rng.exponential())
attempt(lambda: np.random.SeedSequence(1).generate_state(2, "uint64"))
attempt(lambda: np.random.PCG64(0).random_raw())
attempt(lambda: np.random.rand(3))
attempt(lambda: np.random.MT19937(0))
