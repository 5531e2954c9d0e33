"""Runs JAX's docstring examples (docstrings.json, extracted from JAX's
sources by scripts/conformance/extract_docstrings.py) on ShardLab's jax, as
JAX's own doctests run them (JAX's conftest.py and pyproject.toml): each
docstring's examples in order, in one namespace holding jax, lax, jnp and
np (numpy, when this Python has it), compared under NORMALIZE_WHITESPACE and
pytest's NUMBER (a float in the expected output matches any value that
rounds to it at the precision it is written with), honouring each example's
own directives (+SKIP, +ELLIPSIS, ...). run(text) returns one record per
function: whether ShardLab exposes it, and each example's outcome."""

import doctest
import importlib
import json
import re

# A number as pytest's NUMBER flag reads it: a float with a fraction or an exponent.
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])|(?<![\w.])[-+]?\d+[eE][-+]?\d+(?![\w.])")


class _Checker(doctest.OutputChecker):
    """doctest's comparison, then pytest's NUMBER: floats of `want` match `got`'s to their written precision."""

    def check_output(self, want, got, optionflags):
        if super().check_output(want, got, optionflags):
            return True
        wants, gots = _NUMBER.findall(want), _NUMBER.findall(got)
        if not wants or len(wants) != len(gots):
            return False
        for w, g in zip(wants, gots):
            digits = len(w.split(".")[1].lower().split("e")[0]) if "." in w else 0
            exponent = int(w.lower().split("e")[1]) if "e" in w.lower() else 0
            if abs(float(w) - float(g)) > 0.5 * 10 ** (exponent - digits) * (1 + 1e-9):
                return False
        # With the numbers equal, the text around them must be doctest's match too.
        return super().check_output(_NUMBER.sub("0", want), _NUMBER.sub("0", got), optionflags)


def _reported(got):
    """What an example gave, as the record keeps it the same on every machine and run: a traceback cut
    to its exception (its frames name this machine's files), objects' addresses elided."""
    if got.startswith("Traceback (most recent call last):"):
        lines = got.splitlines()
        frames = [i for i, line in enumerate(lines) if line.startswith(" ")]
        got = "\n".join(lines[frames[-1] + 1 :] if frames else lines[1:]) + "\n"
    return re.sub(r" at 0x[0-9a-f]+", " at 0x...", got)


class _Runner(doctest.DocTestRunner):
    """Records each example's outcome: passed, or what it printed or raised instead."""

    def __init__(self):
        super().__init__(checker=_Checker(), optionflags=doctest.NORMALIZE_WHITESPACE)
        self.outcomes = []

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self.outcomes.append({"line": example.lineno, "passed": True})

    def report_failure(self, out, test, example, got):
        self.outcomes.append({"line": example.lineno, "passed": False, "got": _reported(got)[:2000]})

    def report_unexpected_exception(self, out, test, example, exc_info):
        error = f"{exc_info[0].__name__}: {exc_info[1]}"
        self.outcomes.append({"line": example.lineno, "passed": False, "got": _reported(error)[:2000]})


def _public(name):
    """ShardLab's object for JAX's public name `name` (jax.numpy.cumsum), or None."""
    module, _, attr = name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attr, None)
    except ImportError:
        return None


def _namespace(fact, documented):
    """JAX's doctest namespace (conftest.py) and, as the defining module's globals would give, the function under its own name."""
    import jax

    names = {"jax": jax, "lax": jax.lax, "jnp": jax.numpy, fact["defined"]: documented}
    try:
        import numpy

        names["np"] = numpy
    except ImportError:
        pass
    return names


def run(text):
    """The outcome of every fact of `text` (docstrings.json's form), as JSON."""
    flags = doctest.OPTIONFLAGS_BY_NAME
    records = []
    for fact in json.loads(text):
        documented = _public(fact["name"])
        record = {"name": fact["name"], "exposed": documented is not None, "examples": []}
        if record["exposed"]:
            examples = []
            for e in fact["examples"]:
                options = {flags[o[1:]]: o[0] == "+" for o in e["options"]}
                examples.append(doctest.Example(e["source"], e["want"], e.get("exc_msg"), lineno=e["line"], options=options))
            runner = _Runner()
            runner.run(doctest.DocTest(examples, _namespace(fact, documented), fact["name"], fact["source"], 0, None), out=lambda s: None, clear_globs=True)
            record["examples"] = runner.outcomes
        records.append(record)
    return json.dumps(records)
