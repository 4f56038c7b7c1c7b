"""Shared helpers: seeded random games and the repository's root."""

import pathlib
import random

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]

# The notebooks are run by test_notebooks.py with the module they are written for, not
# imported as tests.
collect_ignore_glob = ["notebooks/*"]


def random_bimatrix(rng, m, n, low=-5, high=5):
    a = [[rng.randint(low, high) for _ in range(n)] for _ in range(m)]
    b = [[rng.randint(low, high) for _ in range(n)] for _ in range(m)]
    return a, b


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def rng():
    return random.Random(20261123)


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    import nimbus as _nimbus

    doctest_namespace["nimbus"] = _nimbus
