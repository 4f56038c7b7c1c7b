"""Type stubs of the extension module: every function returns the library's answer as the
dicts and lists `--json` prints."""

from typing import Any, Callable, Iterable, Optional, Sequence

SCHEMA: int

class LimitError(ValueError): ...

class NormalFormGame:
    @staticmethod
    def bimatrix(a: Sequence[Sequence[str]], b: Sequence[Sequence[str]]) -> NormalFormGame: ...
    @staticmethod
    def new(
        title: str,
        players: Sequence[str],
        strategies: Sequence[Sequence[str]],
        payoffs: Sequence[Sequence[str]],
    ) -> NormalFormGame: ...
    @staticmethod
    def parse(text: str, source: str) -> NormalFormGame: ...
    def nfg(self) -> str: ...
    def title(self) -> str: ...
    def players(self) -> list[str]: ...
    def strategies(self) -> list[list[str]]: ...
    def payoff_table(self) -> list[list[str]]: ...
    def nash(
        self,
        method: str = "auto",
        label: Optional[int] = None,
        dominance: str = "none",
        path: bool = False,
        max_states: Optional[int] = None,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
        max_supports: Optional[int] = None,
        time_limit: Optional[float] = None,
        digits: Optional[int] = None,
        refine: Optional[str] = None,
        select: Optional[str] = None,
    ) -> dict[str, Any]: ...
    def zero_sum(self, float: bool = False, max_memory: Optional[int] = None) -> dict[str, Any]: ...
    def correlated(
        self,
        maximize: str = "welfare",
        coarse: bool = False,
        vertices: bool = False,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
        plot: bool = False,
    ) -> dict[str, Any]: ...
    def dynamics(
        self,
        rule: str = "fictitious-play",
        rounds: int = 1000,
        time: float = 10.0,
        points: int = 11,
        start: Optional[Sequence[Sequence[str]]] = None,
        ties: str = "first",
        two_populations: bool = False,
        plot: bool = False,
        times: Optional[Sequence[float]] = None,
        rest_points: bool = True,
        plays: bool = False,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
        noise: float = 0.1,
        perturbation: float = 0.01,
        mutation: Optional[str] = None,
        population: Optional[Sequence[int]] = None,
        runs: int = 1000,
        seed: int = 0,
        series: bool = False,
        graph: Optional[Sequence[tuple[int, int]]] = None,
    ) -> dict[str, Any]: ...
    def repeated(
        self,
        discount: str,
        tolerance: Optional[str] = None,
        plot: bool = False,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> dict[str, Any]: ...
    def verify(self, profile: Sequence[Sequence[str]], tolerance: str = "0") -> dict[str, Any]: ...
    def dominated(self, weak: bool = False) -> list[dict[str, Any]]: ...

class GameTree:
    @staticmethod
    def parse(text: str, source: str) -> GameTree: ...
    @staticmethod
    def builtin(name: str) -> GameTree: ...
    def efg(self) -> str: ...
    def svg(
        self,
        method: Optional[str] = None,
        max_states: Optional[int] = None,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> str: ...
    def nfg(
        self,
        max_states: Optional[int] = None,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> str: ...
    def describe(self) -> dict[str, Any]: ...
    def cfr(
        self,
        iterations: int = 1000,
        target: Optional[float] = None,
        variant: str = "cfr+",
        reports: int = 10,
        checkpoint: Optional[str] = None,
        sampling: Optional[str] = None,
        seed: int = 1,
        max_states: Optional[int] = None,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
    ) -> dict[str, Any]: ...
    def nash(
        self,
        method: str = "auto",
        covering: int = 1,
        time_limit: Optional[float] = None,
        max_supports: Optional[int] = None,
        max_states: Optional[int] = None,
        max_memory: Optional[int] = None,
        max_work: Optional[int] = None,
        select: Optional[str] = None,
        refine: Optional[str] = None,
    ) -> dict[str, Any]: ...

def sg(
    expression: str,
    misere: bool = False,
    rule: Optional[str] = None,
    max_moves: int = 20,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
def sequence(
    ruleset: str,
    upto: Optional[int] = None,
    misere: bool = False,
    prove: bool = False,
    checkpoint: Optional[str] = None,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
def solve(
    game: str,
    position: Optional[str] = None,
    all: bool = False,
    method: Optional[str] = None,
    depth: Optional[int] = None,
    time_limit: Optional[float] = None,
    save: Optional[str] = None,
    db: Optional[str] = None,
    scores: bool = False,
    reply: bool = False,
    remoteness: bool = False,
    book: Optional[int] = None,
    threads: Optional[int] = None,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
def stochastic(
    text: str,
    source: str = ...,
    method: str = ...,
    tolerance: str = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> dict[str, Any]: ...
def misere_quotient(
    ruleset: str,
    upto: int = ...,
    positions: list[list[int]] = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> dict[str, Any]: ...
def cgt(
    expression: str,
    max_moves: int = ...,
    incentives: bool = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> dict[str, Any]: ...
def cgt_positions(
    left: Callable[[Any], Any],
    right: Callable[[Any], Any],
    starts: list[Any],
    name: str,
    max_moves: int = ...,
    incentives: bool = ...,
    regions: Optional[Callable[[Any], Any]] = ...,
    max_states: Optional[int] = ...,
    max_memory: Optional[int] = ...,
    max_work: Optional[int] = ...,
) -> dict[str, Any]: ...
def sg_positions(
    moves: Callable[[Any], Iterable[Any]],
    starts: Sequence[Any],
    name: str,
    misere: bool = False,
    rule: Optional[str] = None,
    max_moves: int = 20,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
def sg_heaps(
    moves: Callable[[int], Iterable[Any]],
    heaps: Sequence[int],
    name: str,
    misere: bool = False,
    rule: Optional[str] = None,
    max_moves: int = 20,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
def sequence_heaps(
    moves: Callable[[int], Iterable[Any]],
    name: str,
    upto: int = 100,
    misere: bool = False,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
def solve_callbacks(
    start: Any,
    to_move: Callable[[Any], int],
    moves: Callable[[Any], Iterable[Any]],
    play: Callable[[Any, Any], Any],
    result: Callable[[Any], Optional[int]],
    name: str,
    position: Optional[str] = None,
    all: bool = False,
    method: Optional[str] = None,
    depth: Optional[int] = None,
    time_limit: Optional[float] = None,
    max_states: Optional[int] = None,
    max_memory: Optional[int] = None,
    max_work: Optional[int] = None,
) -> dict[str, Any]: ...
