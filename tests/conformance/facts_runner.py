"""Runs the facts collected from JAX's tests and docs (tests/conformance/jax_sources/*.txt)
on ShardLab's jax. A file holds facts, each headed by a line

    # fact: <path in JAX's repository>:<line> <what it checks>

and made of doctest examples: the scenario JAX's test or page sets up, then what
JAX's test asserts or the page prints, as a printed output or as an assertion
that prints nothing. Each fact runs in a namespace of its own (jax, lax, jnp
and np, as JAX's doctests have them) and passes when every one of its examples
does, compared as doctest_runner compares docstring examples. run(files)
returns each fact's outcome."""

import doctest
import json
import re

from doctest_runner import _Runner

_HEAD = re.compile(r"^# fact: (\S+):(\d+) (.+)$", re.M)


def _namespace():
    """The names every fact starts with: JAX's doctest namespace."""
    import jax
    import numpy

    return {"jax": jax, "lax": jax.lax, "jnp": jax.numpy, "np": numpy}


def facts_of(name, text):
    """The facts of one file's `text`: [{id (source:line title), source, line, title, examples}]."""
    heads = list(_HEAD.finditer(text))
    facts = []
    parser = doctest.DocTestParser()
    for i, head in enumerate(heads):
        body = text[head.end() : heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        first_line = text.count("\n", 0, head.end()) + 1
        examples = parser.get_examples(body, name)
        for e in examples:
            e.lineno += first_line
        facts.append({"id": f"{head.group(1)}:{head.group(2)} {head.group(3).strip()}", "source": head.group(1), "line": int(head.group(2)), "title": head.group(3).strip(), "file": name, "examples": examples})
    return facts


def run(files):
    """Every fact of `files` (JSON: {file name: text}) run, as JSON: [{id, file, title, passed, example, got}]."""
    out = []
    for name, text in json.loads(files).items():
        for fact in facts_of(name, text):
            runner = _Runner()
            test = doctest.DocTest(fact["examples"], _namespace(), fact["id"], name, 0, None)
            runner.run(test, out=lambda s: None, clear_globs=True)
            failed = next((o for o in runner.outcomes if not o["passed"]), None)
            ran = len(runner.outcomes) == len(fact["examples"]) and fact["examples"]
            record = {"id": fact["id"], "file": name, "line": fact["line"], "title": fact["title"], "passed": bool(ran) and failed is None}
            if failed is not None:
                example = next(e for e in fact["examples"] if e.lineno == failed["line"])
                record.update(example=example.source, want=example.want, got=failed.get("got", ""))
            out.append(record)
    return json.dumps(out)
