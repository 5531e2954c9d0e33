"""The host's side of Python in ShardLab (not part of jax): running a
learner's script or loading a solution's function, and reporting a Python
exception as the learner sees it (their own file's frames only)."""

import importlib.util
import linecache
import sys
import traceback
import types


def _text(source):
    """A source file's text as Python reads it: bytes (a JS Uint8Array) are
    decoded by their byte order mark or coding line, as `python file.py`
    does; a leading byte order mark in text (pasted from an editor that
    saves one) is dropped."""
    if not isinstance(source, str):
        return importlib.util.decode_source(source.to_bytes() if hasattr(source, "to_bytes") else bytes(source))
    return source.removeprefix("\ufeff")


def _compile(source, filename):
    source = _text(source)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return compile(source, filename, "exec")


def refuse_processes():
    """Makes os.system raise PermissionError, as the CLI's sandbox refuses to
    start processes: Pyodide would otherwise hand the command to Node, whose
    refusal is a fatal error of the interpreter instead of the learner's
    exception at the learner's line."""
    import os
    import posix

    def system(command):
        raise PermissionError(f"os.system({command!r}): the checker's sandbox starts no processes")

    os.system = posix.system = system


def format_exception(exc, filename):
    """`exc` as Python prints it, keeping only the frames of `filename` (the
    learner's file): the traceback the learner would see from their code."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        frames = []
    text = "".join(traceback.format_list(frames))
    head = "Traceback (most recent call last):\n" if frames else ""
    return head + text + "".join(traceback.format_exception_only(type(exc), exc))


def error_name(exc):
    """The exception's class name as JAX's users know it (TracerBoolConversionError, ValueError, ...)."""
    return type(exc).__name__


def run_script(source, filename):
    """Runs `source` (text, or a file's bytes) as the script `filename` (as __main__); returns None, or
    the formatted exception that ended it."""
    module = types.ModuleType("__main__")
    module.__file__ = filename
    sys.modules["__main__"] = module
    try:
        exec(_compile(source, filename), module.__dict__)
    except BaseException as e:  # noqa: BLE001 (the learner's, reported as Python reports it)
        return format_exception(e, filename)
    return None


def load_function(source, filename, name):
    """Executes the solution `source` (text, or a file's bytes) in a fresh module and returns the
    function the problem names, or the one public top-level function it
    defines; raises ValueError naming what it found otherwise."""
    module = types.ModuleType("solution")
    module.__file__ = filename
    exec(_compile(source, filename), module.__dict__)
    fn = module.__dict__.get(name)
    if callable(fn):
        return fn
    public = [
        v for k, v in module.__dict__.items()
        if not k.startswith("_") and isinstance(v, types.FunctionType) and v.__module__ == "solution"
    ]
    if len(public) == 1:
        return public[0]
    found = ", ".join(f.__name__ for f in public) or "none"
    raise ValueError(
        f"{filename} must define the function `{name}` (or exactly one public top-level function); "
        f"its public functions: {found}"
    )


def solution_caller(source, filename, name):
    """The solution's function (load_function) as the sandbox calls it from JS
    while tracing: {"call": f} where f(js_args) gives {"value": its result as
    JS values} or {"error": {"name", "message"}} with the learner's
    traceback; or {"error": message} when the file cannot be loaded."""
    from pyodide.ffi import create_proxy

    from jax._src.js import from_js, to_js_value

    try:
        fn = load_function(source, filename, name)
    except BaseException as e:  # noqa: BLE001 (the learner's file: reported as a load error)
        return _js_object({"error": format_exception(e, filename)})

    def call(js_args):
        try:
            out = fn(*[from_js(a) for a in js_args])
            return _js_object({"value": to_js_value(out)})
        except BaseException as e:  # noqa: BLE001 (the learner's: reported to the judge)
            return _js_object({"error": _js_object({"name": error_name(e), "message": format_exception(e, filename)})})

    return _js_object({"call": create_proxy(call)})


def _js_object(d):
    import js
    from pyodide.ffi import to_js

    return js.Object.fromEntries(to_js([[k, v] for k, v in d.items()]))
