"""Type stubs of the public API of ``nimbus``."""

from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Union

from . import nash as nash
from ._answers import Answer as Answer
from ._nimbus import SCHEMA as SCHEMA, LimitError as LimitError
from ._strategic import (
    Equilibrium as Equilibrium,
    Game as Game,
    Mixed as Mixed,
    NashResult as NashResult,
    Player as Player,
    RepeatedGame as RepeatedGame,
    Strategy as Strategy,
)
from ._tree import Behaviour as Behaviour

def read_game(path: str) -> Union[Game, Tree]: ...

class TreeNash(Answer): ...
class TreeInfo(Answer): ...
class TreeCfr(Answer): ...

class Tree:
    def nash(
        self,
        method: str = ...,
        covering: int = ...,
        time_limit: Optional[float] = ...,
        max_supports: Optional[int] = ...,
        prior: Optional[Sequence[Sequence[Any]]] = ...,
        refine: Optional[str] = ...,
        **limits: int,
    ) -> TreeNash: ...
    def describe(self) -> TreeInfo: ...
    def svg(self, path: Optional[str] = ..., method: Optional[str] = ..., **limits: int) -> Optional[str]: ...
    def cfr(
        self,
        iterations: int = ...,
        target: Optional[float] = ...,
        variant: str = ...,
        reports: int = ...,
        checkpoint: Optional[str] = ...,
        sampling: Optional[str] = ...,
        seed: int = ...,
        **limits: int,
    ) -> TreeCfr: ...
    def reduced(self, **limits: int) -> Game: ...
    def write(self, path: Optional[str] = ...) -> Optional[str]: ...

def tree(name_or_path: str) -> Tree: ...

StrategicGame = Game
Rational = Fraction

def read_nfg(path: str) -> Game: ...
def read_efg(path: str) -> Tree: ...
__version__: str

class ImpartialGame:
    moves: Callable[[Any], Iterable[Any]]
    start: Any
    name: str
    def __init__(self, moves: Callable[[Any], Iterable[Any]], start: Any = ..., name: str = ...) -> None: ...

class HeapGame:
    moves: Callable[[int], Iterable[Union[int, tuple[int, ...]]]]
    name: str
    def __init__(self, moves: Callable[[int], Iterable[Union[int, tuple[int, ...]]]], name: str = ...) -> None: ...

class TwoPlayerGame:
    def __init__(
        self,
        start: Any,
        to_move: Callable[[Any], int],
        moves: Callable[[Any], Iterable[Any]],
        play: Callable[[Any, Any], Any],
        result: Callable[[Any], Optional[int]],
        name: str = ...,
    ) -> None: ...

class SG(Answer): ...
class Sequence(Answer): ...
class Solution(Answer): ...
class MisereQuotient(Answer): ...

class Thermograph(Answer):
    left: list[Answer]
    right: list[Answer]
    mean: Fraction
    temperature: Fraction
    def svg(self) -> str: ...

GameLike = Union["GameValue", int, Fraction, str]

class GameValue(Answer):
    expression: str
    canonical: str
    reduced: str
    outcome: str
    left_stop: Fraction
    right_stop: Fraction
    mean: Fraction
    temperature: Fraction
    birthday: int
    atomic_weight: Optional[str]
    left_incentives: Optional[list[str]]
    right_incentives: Optional[list[str]]
    components: list[Answer]
    left_wins: list[Answer]
    left_wins_total: int
    right_wins: list[Answer]
    right_wins_total: int
    forms: int
    def thermograph(self) -> Thermograph: ...
    def confused_with(self, other: GameLike) -> bool: ...
    def __add__(self, other: GameLike) -> GameValue: ...
    def __radd__(self, other: GameLike) -> GameValue: ...
    def __sub__(self, other: GameLike) -> GameValue: ...
    def __rsub__(self, other: GameLike) -> GameValue: ...
    def __neg__(self) -> GameValue: ...
    def __le__(self, other: GameLike) -> bool: ...
    def __lt__(self, other: GameLike) -> bool: ...
    def __ge__(self, other: GameLike) -> bool: ...
    def __gt__(self, other: GameLike) -> bool: ...
    def __hash__(self) -> int: ...

class PartizanGame:
    left: Callable[[Any], Iterable[Any]]
    right: Callable[[Any], Iterable[Any]]
    start: Any
    name: str
    regions: Optional[Callable[[Any], Iterable[Any]]]
    def __init__(
        self,
        left: Callable[[Any], Iterable[Any]],
        right: Callable[[Any], Iterable[Any]],
        start: Any = ...,
        name: str = ...,
        regions: Optional[Callable[[Any], Iterable[Any]]] = ...,
    ) -> None: ...

def partizan(
    left: Callable[[Any], Iterable[Any]],
    right: Callable[[Any], Iterable[Any]],
    start: Any = ...,
    name: str = ...,
    regions: Optional[Callable[[Any], Iterable[Any]]] = ...,
) -> PartizanGame: ...
def cgt(
    expression: Union[str, PartizanGame],
    max_moves: int = ...,
    incentives: bool = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> GameValue: ...

def impartial(moves: Callable[[Any], Iterable[Any]], start: Any = ..., name: str = ...) -> ImpartialGame: ...
def heap_game(moves: Callable[[int], Iterable[Union[int, tuple[int, ...]]]], name: str = ...) -> HeapGame: ...
def two_player(
    start: Any,
    to_move: Callable[[Any], int],
    moves: Callable[[Any], Iterable[Any]],
    play: Callable[[Any, Any], Any],
    result: Callable[[Any], Optional[int]],
    name: str = ...,
) -> TwoPlayerGame: ...
def sg(
    game: Union[str, ImpartialGame, HeapGame],
    *positions: Any,
    misere: bool = ...,
    rule: Optional[str] = ...,
    max_moves: int = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> SG: ...
def sequence(
    ruleset: Union[str, HeapGame],
    upto: Optional[int] = ...,
    misere: bool = ...,
    prove: bool = ...,
    checkpoint: Optional[str] = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> Sequence: ...
class StochasticSolution(Answer): ...

def stochastic(
    file: Optional[str] = ...,
    text: Optional[str] = ...,
    method: str = ...,
    tolerance: Union[str, float] = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> StochasticSolution: ...
def misere_quotient(
    ruleset: str,
    upto: int = ...,
    positions: Iterable[Iterable[int]] = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> MisereQuotient: ...
def solve(
    game: Union[str, TwoPlayerGame],
    position: Optional[str] = ...,
    all: bool = ...,
    method: Optional[str] = ...,
    depth: Optional[int] = ...,
    time_limit: Optional[float] = ...,
    save: Optional[str] = ...,
    db: Optional[str] = ...,
    scores: bool = ...,
    reply: bool = ...,
    remoteness: bool = ...,
    book: Optional[int] = ...,
    threads: Optional[int] = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> Solution: ...
