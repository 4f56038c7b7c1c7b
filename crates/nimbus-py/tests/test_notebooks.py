"""Notebooks written for pygambit run with only the import changed: one in pygambit 16's
object model, one in pygambit 17's. The 17 one also runs with pygambit 17 itself, so that it
is known to be that version's code and not ours. (pygambit 16 has no wheel for this Python:
its notebook follows its documentation.)"""

import pathlib

import pytest

import nimbus

HERE = pathlib.Path(__file__).parent


def run(name, module, root):
    code = (HERE / "notebooks" / name).read_text()
    exec(compile(code, name, "exec"), {"gbt": module, "POKER": str(root / "examples/one-card-poker.efg")})


def test_a_pygambit_16_notebook_runs_with_nimbus(root):
    run("pygambit16.py", nimbus, root)


def test_a_pygambit_17_notebook_runs_with_nimbus(root):
    run("pygambit17.py", nimbus, root)


def test_the_pygambit_17_notebook_is_pygambit_17_code(root):
    gbt = pytest.importorskip("pygambit")
    if not gbt.__version__.startswith("17"):
        pytest.skip(f"pygambit {gbt.__version__} is not 17")
    run("pygambit17.py", gbt, root)
