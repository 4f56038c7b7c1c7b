"""Reading a game file's text as Gambit writes it: UTF-8 (with or without a byte-order mark),
or Latin-1 for the older files."""


def read_text(path):
    """The text of the file at ``path``."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def is_efg(text):
    """Whether ``text`` is a game tree in Gambit's .efg format (it starts with ``EFG``)."""
    return text.lstrip().startswith("EFG")
