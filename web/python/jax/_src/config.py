"""jax.config and jax.disable_jit. ShardLab runs float32 on 8 CPU devices:
the options that would change that (x64, another device count or platform)
are refused with the reason, the others JAX has are read and set as in JAX."""

import contextlib

# Each option ShardLab honours, with its value.
_VALUES = {
    "jax_enable_x64": False,
    "jax_disable_jit": False,
    "jax_platforms": "cpu",
    "jax_platform_name": "cpu",
    "jax_default_matmul_precision": None,
    "jax_numpy_rank_promotion": "allow",
    "jax_numpy_dtype_promotion": "standard",
    "jax_debug_nans": False,
    "jax_debug_infs": False,
    "jax_log_compiles": False,
    "jax_check_tracer_leaks": False,
}
# The values an option can only keep here, and why.
_FIXED = {
    "jax_enable_x64": (False, "ShardLab computes in 32 bits and fewer only: 64-bit dtypes are not available"),
    "jax_platforms": ("cpu", "ShardLab's devices are its 8 CPU devices"),
    "jax_platform_name": ("cpu", "ShardLab's devices are its 8 CPU devices"),
}
# Options JAX has that ShardLab does not act on: setting them is refused, not ignored.
_UNSUPPORTED = ("jax_debug_nans", "jax_debug_infs", "jax_numpy_rank_promotion", "jax_default_matmul_precision")


class Config:
    """jax.config: options read as attributes (jax.config.jax_enable_x64) and set with update(name, value)."""

    def update(self, name, value):
        """Sets option `name` (as jax.config.update)."""
        if name == "jax_num_cpu_devices":
            from .devices import device_count

            if value != device_count():
                raise ValueError(f"jax.config.update('jax_num_cpu_devices', {value!r}): ShardLab has {device_count()} CPU devices, a fixed number")
            return
        if name not in _VALUES:
            raise AttributeError(f"Unrecognized config option: {name}")
        if name in _FIXED and value != _FIXED[name][0]:
            raise NotImplementedError(f"jax.config.update({name!r}, {value!r}): {_FIXED[name][1]}")
        if name == "jax_numpy_dtype_promotion":
            from .js import sl

            sl.numpyDtypePromotion(str(value))  # refuses a mode other than 'standard' and 'strict'
        elif name in _UNSUPPORTED and value != _VALUES[name]:
            raise NotImplementedError(f"jax.config.update({name!r}, {value!r}): ShardLab does not support this option yet")
        _VALUES[name] = value

    def read(self, name):
        """The value of option `name`."""
        return getattr(self, name)

    def __getattr__(self, name):
        if name == "jax_num_cpu_devices":
            from .devices import device_count

            return device_count()
        try:
            return _VALUES[name]
        except KeyError:
            raise AttributeError(f"Unrecognized config option: {name}") from None


config = Config()


def jit_disabled():
    """Whether jit and the control flow primitives run op by op (jax.disable_jit)."""
    return bool(_VALUES["jax_disable_jit"])


@contextlib.contextmanager
def numpy_dtype_promotion(mode):
    """jax.numpy_dtype_promotion('standard' | 'strict'): within it, operations join dtypes by that lattice
    ('strict': no implicit promotion between different dtypes, a Python scalar only within its kind or above)."""
    before = _VALUES["jax_numpy_dtype_promotion"]
    config.update("jax_numpy_dtype_promotion", mode)
    try:
        yield
    finally:
        config.update("jax_numpy_dtype_promotion", before)


@contextlib.contextmanager
def disable_jit(disable=True):
    """jax.disable_jit(): within it, jitted functions run op by op on concrete values, and so do
    cond, switch, while_loop and scan given concrete values, as in JAX."""
    before = _VALUES["jax_disable_jit"]
    _VALUES["jax_disable_jit"] = bool(disable)
    try:
        yield
    finally:
        _VALUES["jax_disable_jit"] = before
