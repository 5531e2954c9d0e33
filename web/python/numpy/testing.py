"""numpy.testing in ShardLab's numpy: the assertions tests of JAX code use."""

import builtins

from ._ndarray import asarray


def _report(header, x, y, mismatched, extra=""):
    total = builtins.max(x.size, 1)
    lines = [header, f"Mismatched elements: {mismatched} / {total} ({100 * mismatched / total:.3g}%)"]
    if extra:
        lines.append(extra)
    lines += [f" ACTUAL: {x!r}", f" DESIRED: {y!r}"]
    return "\n".join(lines)


def assert_allclose(actual, desired, rtol=1e-07, atol=0, equal_nan=True, err_msg=""):
    """Raises AssertionError unless |actual - desired| <= atol + rtol * |desired| everywhere (shapes broadcast)."""
    x, y = asarray(actual, float), asarray(desired, float)
    close = (abs(x - y) <= atol + rtol * abs(y)) | ((x != x) & (y != y) if equal_nan else False) | (x == y)
    if not close.all():
        bad = builtins.sum(1 for v in close._flat if not v)
        diff = abs(x - y)
        raise AssertionError(
            _report(f"\nNot equal to tolerance rtol={rtol:g}, atol={atol:g}\n{err_msg}".rstrip("\n"), x, y, bad, f"Max absolute difference: {diff.max()}")
        )


def assert_array_equal(actual, desired, err_msg=""):
    """Raises AssertionError unless the arrays have the same shape and elements."""
    x, y = asarray(actual), asarray(desired)
    if x.shape != y.shape:
        raise AssertionError(f"\nArrays are not equal\n{err_msg}\n(shapes {x.shape}, {y.shape} mismatch)\n x: {x!r}\n y: {y!r}")
    same = (x == y) | ((x != x) & (y != y))
    if not same.all():
        bad = builtins.sum(1 for v in same._flat if not v)
        raise AssertionError(_report(f"\nArrays are not equal\n{err_msg}".rstrip("\n"), x, y, bad))


assert_equal = assert_array_equal
