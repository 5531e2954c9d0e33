# ShardLab's numpy subset against numpy itself: every line below prints what
# numpy 1.24.2 (Debian 12's python3-numpy) printed for it, recorded in
# numpy_host.expected (numpy 2's array printing and promotion agree for these).
import numpy as np

x = np.arange(16).reshape(4, 4)
print(x)
print(repr(x), x.dtype, x.shape, x.ndim, x.size)
print(repr(np.arange(4)), repr(np.arange(1, 2, 0.25)), repr(np.arange(3, dtype=np.float32)))
print(repr(np.linspace(0, 2, 5)), repr(np.linspace(0, 1, 4, endpoint=False)), np.linspace(-1, 1, 7))
print(repr(np.zeros((2, 3))), repr(np.ones(3, dtype=np.int32)), repr(np.full((2,), 7)), repr(np.eye(3)))
print(repr(np.array([[1.5, 2], [3, 4]])), repr(np.array([True, False])), repr(np.array([1, 2.5])), repr(np.array(3.0)))
print(repr(np.zeros(0)), repr(np.zeros((0, 3))), repr(np.array([], dtype=np.int32)))
print(repr(np.array([0.1, 0.2, 0.3]) * 3), repr(np.array([1e-5, 1.0])), repr(np.array([1e10, 1.0])))
a = np.arange(6).reshape(2, 3)
print(a.T, repr(a.transpose()), repr(a.reshape(-1)), repr(a.reshape(3, -1)), repr(a.ravel()))
print(repr(a[1]), repr(a[:, 1]), repr(a[::-1, ::2]), repr(a[..., 0]), repr(a[None, 0].shape))
print(a[1, 2], a[-1, -1], a.sum(), a.sum(axis=0), a.sum(axis=1, keepdims=True).shape, a.mean(), a.mean(axis=0))
print(a.max(), a.min(axis=1), a.prod(), a.any(), (a > 2).all(axis=0), a.argmax(), a.argmin())
print(repr(a + 1), repr(a * 2.5), repr(a / 2), repr(a // 2), repr(a % 4), repr(-a), repr(a ** 2), repr(abs(-a)))
print(repr(a + np.array([10, 20, 30])), repr(a + np.array([[100], [200]])), repr(a == 3), repr(a < 2))
f = np.array([1.0, 2.0, 4.0], dtype=np.float32)
print(repr(f + 1), repr(f * 0.5), repr(f + np.array([1, 2, 3])), repr(f / 3), repr(np.sqrt(f)))  # (numpy's float32 exp is not correctly rounded; ShardLab's is)
i32 = np.array([1, 2], dtype=np.int32)
print(repr(i32 + 1), repr(i32 * i32), repr(i32 / 2), repr(i32 + np.array([1, 2])), repr(i32.astype(np.float64)))
print(repr(np.concatenate([a, a])), repr(np.concatenate([a, a], axis=1)), repr(np.stack([np.arange(2), np.arange(2)], axis=1)))
print(repr(np.array([[1, 2], [3, 4]]) @ np.array([[5], [6]])), np.array([1.0, 2.0]) @ np.array([3.0, 4.0]), repr(np.dot(np.eye(2), np.array([1.0, 2.0]))))
print(repr(np.where(a > 2, a, -1)), repr(np.maximum(a, 3)), repr(np.minimum(a, 2.5)), repr(np.broadcast_to(np.arange(3), (2, 3))))
print(np.allclose([1.0, 2.0], [1.0, 2.0000001]), np.allclose([1.0], [1.1]), repr(np.isclose([1.0, np.nan], [1.0, np.nan], equal_nan=True)))
print(np.array_equal(a, a.copy()), np.array_equal(a, a.T), a.tolist(), np.float32(0.1) + 0, len(a), [int(v) for v in np.arange(3)])
b = np.zeros((2, 3), dtype=np.int32)
b[0] = 5
b[1, 1:] = [7, 8]
print(repr(b), repr(np.array([np.nan, np.inf, -np.inf, 1.5])), repr(np.arange(1001)[-3:]))
print(np.arange(2000.0))
np.testing.assert_allclose(np.array([1.0, 2.0]), [1.0, 2.0 + 1e-9])
np.testing.assert_array_equal(a, np.arange(6).reshape(2, 3))
try:
    np.testing.assert_array_equal(a, a + 1)
except AssertionError:
    print("assert_array_equal raised")
try:
    np.arange(6).reshape(4, 2)
except ValueError as e:
    print("ValueError:", e)
try:
    a + np.arange(4)
except ValueError as e:
    print("ValueError:", e)
