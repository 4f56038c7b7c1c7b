"""Games from Gambit's files: the one place that knows both kinds of game, so that the strategic
and the tree modules need not import each other."""

from . import _nimbus
from ._strategic import Game
from ._text import is_efg, read_text
from ._tree import Tree


def read_game(path):
    """A game from a Gambit file: a :class:`Game` from a .nfg file, a
    :class:`nimbus.Tree` from an .efg file."""
    text = read_text(path)
    if is_efg(text):
        return Tree(_nimbus.GameTree.parse(text, str(path)))
    return Game(_nimbus.NormalFormGame.parse(text, str(path)))


# pygambit 16's ``Game.read_game`` reads either kind of file, so it is attached here, where both
# kinds are known (the strategic module cannot import the tree module, which imports it).
Game.read_game = staticmethod(read_game)
