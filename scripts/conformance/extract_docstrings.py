"""Extracts the docstring examples of JAX's public functions from a JAX
source tree (run by hand when JAX's version moves; its output,
tests/conformance/docstrings.json, is committed):

    git -C <jax clone> archive jax-v0.11.0 jax | tar -x -C /tmp/jax
    python3 scripts/conformance/extract_docstrings.py /tmp/jax 0.11.0 > tests/conformance/docstrings.json

For each public module we mirror (jax, jax.numpy, jax.numpy.linalg, jax.lax,
jax.nn, jax.random, jax.scipy.special, jax.tree, jax.tree_util), the
module's `from jax._src.X import (name as name, ...)` lines say where each
public name is defined (following that module's own imports when it
re-exports the name, as jax._src.lax.control_flow does); the definition's docstring gives its examples
(doctest's `>>>` blocks with their expected output), carried over as facts
with their source file, the name it is defined under there (pytest runs a
module's doctests in the module's globals, where an example may call the
function by that name) and JAX's version. Only what JAX states is taken: no
expected output is written here.
"""

import ast
import doctest
import json
import os
import sys

PUBLIC = {
    "jax": "jax/__init__.py",
    "jax.numpy": "jax/numpy/__init__.py",
    "jax.numpy.linalg": "jax/numpy/linalg.py",
    "jax.lax": "jax/lax/__init__.py",
    "jax.lax.linalg": "jax/lax/linalg.py",
    "jax.nn": "jax/nn/__init__.py",
    "jax.nn.initializers": "jax/nn/initializers.py",
    "jax.random": "jax/random.py",
    "jax.scipy.special": "jax/scipy/special.py",
    "jax.tree": "jax/tree.py",
    "jax.tree_util": "jax/tree_util.py",
}


def exports(root, path):
    """{public name: (module path of its definition, its name there)} from the module's import-as lines."""
    tree = ast.parse(open(os.path.join(root, path)).read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("jax._src"):
            for a in node.names:
                if a.asname and not a.asname.startswith("_"):
                    out[a.asname] = (node.module.replace(".", "/") + ".py", a.name)
    return out


def _source(root, module_path):
    """The file of a module path (jax/_src/x.py, or the package jax/_src/x/__init__.py), or None."""
    full = os.path.join(root, module_path)
    if not os.path.exists(full):
        full = os.path.join(root, module_path[:-3], "__init__.py")
    return full if os.path.exists(full) else None


def _module(root, module_path, cache={}):
    """({name: docstring} of the functions and classes a _src module defines at
    top level, {name: (module path, its name there)} of what it imports from jax's own modules)."""
    if module_path not in cache:
        full = _source(root, module_path)
        found, imported = {}, {}
        if full:
            package = os.path.dirname(os.path.relpath(full, root))
            for node in ast.parse(open(full).read()).body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    doc = ast.get_docstring(node, clean=True)
                    if doc:
                        found[node.name] = doc
                elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("jax")):
                    base = package
                    for _ in range(node.level - 1 if node.level else 0):
                        base = os.path.dirname(base)
                    target = os.path.join(base, *(node.module or "").split(".")) if node.level else node.module.replace(".", "/")
                    for a in node.names:
                        imported[a.asname or a.name] = (target + ".py", a.name)
        cache[module_path] = (found, imported)
    return cache[module_path]


def docstring(root, module_path, name, depth=0):
    """The docstring of `name` as module `module_path` has it: defined there, or
    re-exported from another of jax's modules (jax._src.lax.control_flow's
    scan from its loops module), followed a few imports deep."""
    found, imported = _module(root, module_path)
    if name in found or depth > 3:
        return found.get(name)
    if name in imported:
        return docstring(root, *imported[name], depth + 1)
    return None


def options(example):
    """The example's doctest directives, as written: ["+SKIP"], ["+ELLIPSIS"], ..."""
    names = {flag: name for name, flag in doctest.OPTIONFLAGS_BY_NAME.items()}
    return [("+" if on else "-") + names[flag] for flag, on in sorted(example.options.items())]


def main(root, version):
    parser = doctest.DocTestParser()
    facts = []
    for public, path in PUBLIC.items():
        for name, (src, defined) in sorted(exports(root, path).items()):
            doc = docstring(root, src, defined)
            if not doc:
                continue
            examples = [
                {"source": e.source, "want": e.want, "exc_msg": e.exc_msg, "line": e.lineno, "options": options(e)}
                for e in parser.get_examples(doc)
            ]
            if examples:
                facts.append({"name": f"{public}.{name}", "defined": defined, "source": src, "jax": version, "examples": examples})
    json.dump(facts, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
