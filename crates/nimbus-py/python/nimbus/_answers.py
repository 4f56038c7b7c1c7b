"""Answers as Python objects: exact numbers as Fractions, readable in a notebook, picklable."""

from fractions import Fraction
import html

__all__ = ["Answer", "q", "exact_text", "from_value", "write_text"]


def write_text(text, path):
    """``text`` written to ``path``; without a path, ``text`` itself (the games' ``write``)."""
    if path is None:
        return text
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return None


def q(text):
    """An exact number written by the library ("-2/3", "5") as a Fraction."""
    # Fractions are immutable, and answers repeat a few numbers (0, 1, 1/2) many times.
    hit = _CACHE.get(text)
    if hit is not None:
        return hit
    value = _parse(text)
    if len(_CACHE) < 4096:
        _CACHE[text] = value
    return value


_CACHE = {}


def _parse(text):
    num, _, den = text.partition("/")
    return _COPRIME(int(num), int(den) if den else 1)


def _coprime_by_slots(n, d):
    # What Fraction._from_coprime_ints (Python 3.12 on) does: the library writes fractions
    # in lowest terms with a positive denominator, so the gcd Fraction() would compute (the
    # bulk of the cost for numbers of many digits) is skipped.
    f = object.__new__(Fraction)
    f._numerator = n
    f._denominator = d
    return f


def _pick_coprime():
    made = getattr(Fraction, "_from_coprime_ints", None) or _coprime_by_slots
    try:
        if made(-6, 7) == Fraction(-6, 7) and hash(made(3, 1)) == hash(3):
            return made
    except (AttributeError, TypeError):
        pass
    return Fraction


_COPRIME = _pick_coprime()


def exact_text(x):
    """A Python number as the exact text the library reads.

    Fractions and integers are exact; a float is read as the decimal it prints as
    (``0.1`` is 1/10, not the binary number nearest to it), which is what a person who typed
    it meant; Decimals and strings are read as written.
    """
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, str):
        return x.strip()
    if isinstance(x, float):
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(f"{x} is not a finite number")
        return repr(x)
    # numpy scalars, Decimal, and anything else that knows its value
    for attr in ("numerator", "denominator"):
        if not hasattr(x, attr):
            break
    else:
        return f"{int(x.numerator)}/{int(x.denominator)}"
    if hasattr(x, "dtype"):
        kind = x.dtype.kind
        if kind in "iub":
            return str(int(x))
        if kind == "f":
            return exact_text(float(x))
        if kind == "O":
            return exact_text(x.item())
    text = str(x)
    if text.replace(".", "", 1).replace("-", "", 1).replace("e", "", 1).isdigit():
        return text
    raise TypeError(f"not a number: {x!r}")


class Answer:
    """An answer: its fields are attributes (``a.outcome``) and keys (``a["outcome"]``).

    It prints readably, shows as a table in a notebook, compares by its fields and pickles;
    :meth:`to_dict` gives plain dicts and lists.
    """

    def __init__(self, fields=None, **more):
        self.__dict__.update(fields or {})
        self.__dict__.update(more)

    def __getitem__(self, key):
        return self.__dict__[key]

    def __setitem__(self, key, value):
        self.__dict__[key] = value

    def __contains__(self, key):
        return key in self.__dict__

    def get(self, key, default=None):
        return self.__dict__.get(key, default)

    def pop(self, key, *default):
        return self.__dict__.pop(key, *default)

    def keys(self):
        return self.__dict__.keys()

    def items(self):
        return self.__dict__.items()

    def __eq__(self, other):
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def to_dict(self):
        """The answer as plain dicts and lists (Fractions kept)."""

        def plain(v):
            if isinstance(v, Answer):
                return {k: plain(x) for k, x in v.items()}
            if isinstance(v, list):
                return [plain(x) for x in v]
            return v

        return plain(self)

    def __repr__(self):
        shown = ", ".join(f"{k}={_short(v)}" for k, v in self.items())
        return f"{type(self).__name__}({shown})"

    def _repr_html_(self):
        rows = "".join(
            f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
            f"<td style='text-align:left'>{html.escape(_short(v, 300))}</td></tr>"
            for k, v in self.items()
        )
        return f"<table><caption>{type(self).__name__}</caption>{rows}</table>"


def _short(v, limit=120):
    text = repr(v) if not isinstance(v, Fraction) else str(v)
    if isinstance(v, list) and all(isinstance(x, Fraction) for x in v):
        text = "[" + ", ".join(str(x) for x in v) + "]"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def from_value(value, cls=Answer):
    """The library's answer (dicts and lists) as nested Answers, without the schema field."""

    def convert(v):
        if isinstance(v, dict):
            return Answer({k: convert(x) for k, x in v.items()})
        if isinstance(v, list):
            return [convert(x) for x in v]
        return v

    value.pop("schema", None)
    return cls({k: convert(x) for k, x in value.items()})
