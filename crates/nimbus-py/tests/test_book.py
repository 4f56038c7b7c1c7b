"""The book's Python examples (```python blocks in docs/src and the README) run as written,
from the repository's root, so that none of them goes stale."""

import os
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]


def blocks():
    pages = sorted((ROOT / "docs" / "src").glob("*.md")) + [ROOT / "README.md"]
    for page in pages:
        for code in re.findall(r"```python\n(.*?)```", page.read_text(), re.S):
            yield page.name, code


def test_the_book_has_python_examples():
    assert any(True for _ in blocks())


def test_every_python_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    for name, code in blocks():
        try:
            exec(compile(code, name, "exec"), {})
        except Exception as e:  # noqa: BLE001 - the page's name is what a reader needs
            raise AssertionError(f"a Python example in {name} fails: {e!r}") from e
