//! The extension module `nimbus._nimbus`: thin bindings over `nimbus::api`. Each function
//! takes plain values, calls the one library function that answers the question, and returns
//! the answer as the dicts and lists `--json` would print (exact numbers as strings, except in
//! Nash answers, whose numbers are made `fractions.Fraction`s here), which the `nimbus` package
//! turns into Python objects. Work on Rust data runs with the GIL released, in a worker thread,
//! while this thread watches for Ctrl-C.

use nimbus::api::game::NormalForm;
use nimbus::api::{self, Limits};
use nimbus::api::{parse_number, Q};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

mod callbacks;
mod two_player;

/// Rust's allocations in the module (Python's objects keep Python's allocator).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pyo3::create_exception!(
    _nimbus,
    LimitError,
    PyValueError,
    "A limit (positions, memory or work) would be passed; raise it with the keyword named in \
     the message."
);

/// The keyword argument of the API setting `key`, with its value if one is meant
/// (`method="logit"`).
fn keyword(key: &str, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("{key}=\"{v}\""),
        None => key.to_string(),
    }
}

/// The library's notes with the settings they name written as keyword arguments.
fn keyword_notes(notes: &mut [String]) {
    for n in notes.iter_mut() {
        *n = api::render_settings(n, &keyword);
    }
}

/// A library error as a Python exception: `LimitError` for the budgets, `KeyboardInterrupt`
/// for Ctrl-C, `ValueError` otherwise; each setting the message names is written as the
/// keyword argument that sets it (`max_work`, `method="logit"`).
pub(crate) fn to_py(e: nimbus::api::Error) -> PyErr {
    let message = e.render(&keyword);
    match e.kind() {
        "interrupted" => PyKeyboardInterrupt::new_err("interrupted"),
        "state_limit" | "memory_limit" | "work_limit" | "time_limit" => {
            LimitError::new_err(message)
        }
        _ => PyValueError::new_err(message),
    }
}

/// Runs `work` with the GIL released. Small work runs here; other work runs in a worker
/// thread while this one checks for Ctrl-C every 20 ms, asks the library to stop when it
/// comes, and raises `KeyboardInterrupt` once the worker has stopped.
fn run<T: Send>(
    py: Python<'_>,
    small: bool,
    work: impl FnOnce() -> nimbus::api::Result<T> + Send,
) -> PyResult<T> {
    if small {
        return py.detach(work).map_err(to_py);
    }
    nimbus::api::host::clear_interrupt();
    let waiting = std::thread::current();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        // The worker says it is done and wakes this thread, so a short call returns at once
        // rather than at the next tick of the signal check. (`is_finished` lags the wake-up:
        // waiting on it could sleep a whole tick.)
        let worker = s.spawn(|| {
            let result = work();
            done.store(true, std::sync::atomic::Ordering::Release);
            waiting.unpark();
            result
        });
        // (A worker that panicked never says so, but it does finish.)
        let finished = || done.load(std::sync::atomic::Ordering::Acquire) || worker.is_finished();
        let mut stop: Option<PyErr> = None;
        while !finished() {
            py.detach(|| {
                let until = std::time::Instant::now() + std::time::Duration::from_millis(20);
                while !finished() {
                    let now = std::time::Instant::now();
                    if now >= until {
                        break;
                    }
                    std::thread::park_timeout(until - now);
                }
            });
            if stop.is_none() {
                if let Err(e) = py.check_signals() {
                    nimbus::api::host::interrupt();
                    stop = Some(e);
                }
            }
        }
        let result = worker
            .join()
            .unwrap_or_else(|_| Err(nimbus::api::Error::Invalid("the solver stopped".into())));
        nimbus::api::host::clear_interrupt();
        match (stop, result) {
            (Some(e), _) => Err(e),
            (None, r) => r.map_err(to_py),
        }
    })
}

/// An answer as Python dicts, lists, strings and numbers (`{"schema": 1, ...}`), the same
/// value `--json` prints.
pub(crate) fn answer_to_py<T: serde::Serialize>(py: Python<'_>, answer: &T) -> PyResult<Py<PyAny>> {
    pythonize::pythonize(py, &api::versioned(answer))
        .map(Bound::unbind)
        .map_err(conversion)
}

/// A run of the dynamics as flat series, for the nashpy-named calls that turn every record
/// into NumPy arrays: `at`, and each record's `profile` (and `counts`, `distributions` where
/// the rule has them) concatenated, player after player, record after record — one series
/// each rather than a dictionary a record; with `plays` and `generations` as the answer has
/// them.
fn series_to_py(py: Python<'_>, a: api::dynamics::Answer) -> PyResult<Py<PyAny>> {
    use pyo3::types::{PyBytes, PyDict};
    let d = PyDict::new(py);
    // Each series as the bytes of little-endian doubles, which NumPy reads without a Python
    // float for each number (for a thousand records of three shares, most of the call).
    // `put` writes a record's numbers, or says the record has none (then neither has the
    // series).
    type Put<'a> = &'a dyn Fn(&api::dynamics::Point, &mut Vec<u8>) -> bool;
    let flat = |put: Put| -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for p in &a.points {
            if !put(p, &mut out) {
                return None;
            }
        }
        Some(out)
    };
    let doubles = |out: &mut Vec<u8>, rows: &[Vec<f64>]| {
        for v in rows.iter().flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    let bytes = |v: Vec<u8>| PyBytes::new(py, &v);
    if let Some(at) = flat(&|p, out| {
        out.extend_from_slice(&p.at.to_le_bytes());
        true
    }) {
        d.set_item("at", bytes(at))?;
    }
    if let Some(v) = flat(&|p, out| {
        doubles(out, &p.profile);
        true
    }) {
        d.set_item("profile", bytes(v))?;
    }
    if let Some(c) = flat(&|p, out| match &p.counts {
        Some(c) => {
            for v in c.iter().flatten() {
                out.extend_from_slice(&(*v as f64).to_le_bytes());
            }
            true
        }
        None => false,
    }) {
        d.set_item("counts", bytes(c))?;
    }
    if let Some(v) = flat(&|p, out| match &p.distributions {
        Some(x) => {
            doubles(out, x);
            true
        }
        None => false,
    }) {
        d.set_item("distributions", bytes(v))?;
    }
    if let Some(plays) = &a.plays {
        d.set_item(
            "plays",
            plays.iter().flatten().copied().collect::<Vec<usize>>(),
        )?;
    }
    if let Some(g) = &a.generations {
        d.set_item("generations", g.concat())?;
    }
    d.set_item("notes", &a.notes)?;
    Ok(d.into_any().unbind())
}

/// A Nash answer for the Python layer: the same fields as its serialised form, built directly
/// (a 2 x 2 answer is on the order of the solve itself when it goes through serde), with the
/// probabilities and payoffs already `Fraction`s and the game's own names and title left out
/// since the caller's `Game` has them.
fn nash_to_py(py: Python<'_>, a: api::nash::Answer) -> PyResult<Py<PyAny>> {
    use pyo3::types::{PyDict, PyList, PyTuple};
    let numbers = |v: &[Q]| -> PyResult<Bound<'_, PyTuple>> {
        PyTuple::new(
            py,
            v.iter()
                .map(|x| fraction(py, x))
                .collect::<PyResult<Vec<_>>>()?,
        )
    };
    let mut equilibria = Vec::with_capacity(a.equilibria.len());
    for e in &a.equilibria {
        let profile = PyTuple::new(
            py,
            e.profile
                .iter()
                .map(|s| numbers(s))
                .collect::<PyResult<Vec<_>>>()?,
        )?;
        equilibria.push(PyTuple::new(py, [profile, numbers(&e.payoffs)?])?);
    }
    let d = PyDict::new(py);
    d.set_item(
        "method",
        pythonize::pythonize(py, &a.method).map_err(conversion)?,
    )?;
    d.set_item("described", &a.described)?;
    d.set_item("equilibria", PyList::new(py, equilibria)?)?;
    d.set_item(
        "components",
        pythonize::pythonize(py, &a.components).map_err(conversion)?,
    )?;
    d.set_item(
        "eliminated",
        pythonize::pythonize(py, &a.eliminated).map_err(conversion)?,
    )?;
    d.set_item(
        "enumeration",
        pythonize::pythonize(py, &a.enumeration).map_err(conversion)?,
    )?;
    d.set_item(
        "logit_path",
        pythonize::pythonize(py, &a.logit_path).map_err(conversion)?,
    )?;
    d.set_item("perfect", &a.perfect)?;
    d.set_item("proper", &a.proper)?;
    d.set_item("ess", &a.ess)?;
    d.set_item(
        "tracing",
        pythonize::pythonize(py, &a.tracing).map_err(conversion)?,
    )?;
    d.set_item("notes", &a.notes)?;
    Ok(d.into_any().unbind())
}

/// How `nimbus._answers` makes a Fraction from a numerator and denominator already in lowest
/// terms, and how it reads an exact text; looked up once.
static MAKERS: pyo3::sync::PyOnceLock<(Py<PyAny>, Py<PyAny>)> = pyo3::sync::PyOnceLock::new();

/// Fractions already made, by (numerator, denominator). Answers repeat a few small numbers
/// (0, 1, 1/2) many times, and a `Fraction` is immutable, so one object serves every use; the
/// lookup costs far less than a call into Python.
static MADE: std::sync::Mutex<Option<Made>> = std::sync::Mutex::new(None);

type Made = std::collections::HashMap<(i64, i64), Py<PyAny>>;

/// At most this many Fractions are kept.
const MADE_CAP: usize = 4096;

/// An exact number as a Python `fraction.Fraction`, without the gcd `Fraction()` would
/// compute: the library keeps its numbers in lowest terms.
fn fraction<'py>(py: Python<'py>, x: &Q) -> PyResult<Bound<'py, PyAny>> {
    use num_traits::ToPrimitive;
    let (make, parse) = MAKERS.get_or_try_init(py, || -> PyResult<_> {
        let m = py.import("nimbus._answers")?;
        Ok((m.getattr("_COPRIME")?.unbind(), m.getattr("q")?.unbind()))
    })?;
    let (Some(n), Some(d)) = (x.numer().to_i64(), x.denom().to_i64()) else {
        return parse.bind(py).call1((nimbus::api::show(x),));
    };
    // The lock is never held across a call into Python, which may let another thread run.
    let hit = MADE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(|m| m.get(&(n, d)).map(|f| f.clone_ref(py)));
    if let Some(f) = hit {
        return Ok(f.into_bound(py));
    }
    let f = make.bind(py).call1((n, d))?;
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let made = made.get_or_insert_with(Default::default);
    if made.len() < MADE_CAP {
        made.insert((n, d), f.clone().unbind());
    }
    Ok(f)
}

fn conversion(e: pythonize::PythonizeError) -> PyErr {
    PyValueError::new_err(format!("cannot convert the answer: {e}"))
}

/// The budgets from the keywords every function takes (`None`: the default).
pub(crate) fn limits(
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> Limits {
    let d = Limits::default();
    Limits {
        max_states: max_states.unwrap_or(d.max_states),
        max_memory: max_memory.unwrap_or(d.max_memory),
        max_work: max_work.unwrap_or(d.max_work),
    }
}

fn number(text: &str, what: &str) -> PyResult<Q> {
    parse_number(text.trim()).map_err(|why| PyValueError::new_err(format!("{what}: {why}")))
}

fn matrix(rows: &[Vec<String>], what: &str) -> PyResult<Vec<Vec<Q>>> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            r.iter()
                .enumerate()
                .map(|(j, x)| number(x, &format!("{what}[{i}][{j}]")))
                .collect()
        })
        .collect()
}

/// A strategic-form game held in Rust, so that each question about it crosses the binding
/// once.
#[pyclass(module = "nimbus._nimbus", frozen)]
struct NormalFormGame {
    game: NormalForm,
}

/// Games with at most this many profiles are solved in the calling thread: they take
/// microseconds, and a worker thread would cost more than the work.
const SMALL: usize = 400;

/// Games of three or more players with at most this many profiles (2^5) are solved in the
/// calling thread by [`Game::equilibria`]: their enumeration takes milliseconds.
const SMALL_MANY_PLAYERS: usize = 32;

#[pymethods]
impl NormalFormGame {
    /// A two-player game from its payoff matrices (exact numbers as strings).
    #[staticmethod]
    fn bimatrix(a: Vec<Vec<String>>, b: Vec<Vec<String>>) -> PyResult<Self> {
        let (a, b) = (matrix(&a, "A")?, matrix(&b, "B")?);
        let game = nimbus::api::game::bimatrix(&a, &b).map_err(to_py)?;
        Ok(NormalFormGame { game })
    }

    /// An n-player game: `payoffs[k]` lists every player's payoff at profile `k`, profiles
    /// numbered with the first player's strategy changing fastest (Gambit's order).
    #[staticmethod]
    fn new(
        title: String,
        players: Vec<String>,
        strategies: Vec<Vec<String>>,
        payoffs: Vec<Vec<String>>,
    ) -> PyResult<Self> {
        let payoffs = matrix(&payoffs, "payoffs")?;
        let game = NormalForm::new(title, players, strategies, payoffs).map_err(to_py)?;
        Ok(NormalFormGame { game })
    }

    /// A game from the text of a .nfg file.
    #[staticmethod]
    fn parse(text: &str, source: &str) -> PyResult<Self> {
        let game = nimbus::api::game::nfg(text, source).map_err(to_py)?;
        Ok(NormalFormGame { game })
    }

    /// The game as a .nfg file.
    fn nfg(&self) -> String {
        nimbus::api::game::nfg_text(&self.game)
    }

    fn title(&self) -> String {
        self.game.title.clone()
    }

    fn players(&self) -> Vec<String> {
        self.game.players.clone()
    }

    fn strategies(&self) -> Vec<Vec<String>> {
        self.game.strategies.clone()
    }

    /// Every player's payoff at every profile, as exact strings.
    fn payoff_table(&self) -> Vec<Vec<String>> {
        (0..self.game.profiles())
            .map(|k| {
                self.game
                    .payoffs_at(k)
                    .iter()
                    .map(nimbus::api::show)
                    .collect()
            })
            .collect()
    }

    /// The Nash equilibria (`nimbus::api::nash::solve`), as JSON.
    #[pyo3(signature = (method="auto", label=None, dominance="none", path=false, max_states=None, max_memory=None, max_work=None, max_supports=None, time_limit=None, digits=None, refine=None, select=None))]
    #[allow(clippy::too_many_arguments)]
    fn nash(
        &self,
        py: Python<'_>,
        method: &str,
        label: Option<usize>,
        dominance: &str,
        path: bool,
        max_states: Option<u64>,
        max_memory: Option<u64>,
        max_work: Option<u64>,
        max_supports: Option<u64>,
        time_limit: Option<f64>,
        digits: Option<u32>,
        refine: Option<&str>,
        select: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let (method, prior) = api::nash::choose(method, select).map_err(to_py)?;
        let dominance = api::nash::Dominance::parse(dominance).map_err(to_py)?;
        let refine = match refine {
            Some(list) => api::nash::Refinement::parse_list(list).map_err(to_py)?,
            None => Vec::new(),
        };
        let req = api::nash::Request {
            method,
            label,
            dominance,
            plot: false,
            path,
            max_supports,
            time_limit,
            digits,
            refine,
            prior,
        };
        let limits = limits(max_states, max_memory, max_work);
        let g = &self.game;
        // The equilibria of three or more players take a time the number of profiles does not
        // bound (a 6 × 6 × 6 game's enumeration, 216 profiles, runs for minutes): beyond the
        // smallest such games they run in a worker, so that Ctrl-C stops them.
        let small =
            g.profiles() <= SMALL && (g.players.len() == 2 || g.profiles() <= SMALL_MANY_PLAYERS);
        let mut answer = run(py, small, || api::nash::solve(g, &req, &limits))?;
        keyword_notes(&mut answer.notes);
        nash_to_py(py, answer)
    }

    /// The correlated (or coarse correlated) equilibrium that maximises `maximize`
    /// (`nimbus::api::correlated::solve`).
    #[pyo3(signature = (maximize="welfare", coarse=false, vertices=false, max_memory=None, max_work=None, plot=false))]
    #[allow(clippy::too_many_arguments)]
    fn correlated(
        &self,
        py: Python<'_>,
        maximize: &str,
        coarse: bool,
        vertices: bool,
        max_memory: Option<u64>,
        max_work: Option<u64>,
        plot: bool,
    ) -> PyResult<Py<PyAny>> {
        let req = api::correlated::Request {
            maximize: api::correlated::Target::parse(maximize).map_err(to_py)?,
            coarse,
            vertices,
            plot,
        };
        let limits = limits(None, max_memory, max_work);
        let g = &self.game;
        let answer = run(py, g.profiles() <= SMALL, || {
            api::correlated::solve(g, &req, &limits)
        })?;
        let d = answer_to_py(py, &answer)?;
        if let Some(svg) = &answer.plot {
            d.bind(py).set_item("plot", svg)?;
        }
        Ok(d)
    }

    /// The payoffs of subgame-perfect equilibria of the game repeated with the discount
    /// `discount` (`nimbus::api::repeated::solve`).
    #[pyo3(signature = (discount, tolerance=None, plot=false, max_memory=None, max_work=None))]
    fn repeated(
        &self,
        py: Python<'_>,
        discount: &str,
        tolerance: Option<&str>,
        plot: bool,
        max_memory: Option<u64>,
        max_work: Option<u64>,
    ) -> PyResult<Py<PyAny>> {
        let mut req = api::repeated::Request {
            discount: api::repeated::parse_discount(discount).map_err(to_py)?,
            plot,
            ..Default::default()
        };
        if let Some(t) = tolerance {
            req.tolerance = api::repeated::parse_tolerance(t).map_err(to_py)?;
        }
        let limits = limits(None, max_memory, max_work);
        let g = &self.game;
        let answer = run(py, g.profiles() <= SMALL, || {
            api::repeated::solve(g, &req, &limits)
        })?;
        let d = answer_to_py(py, &answer)?;
        if let Some(svg) = &answer.plot {
            d.bind(py).set_item("plot", svg)?;
        }
        Ok(d)
    }

    /// How play evolves under a learning rule (`nimbus::api::dynamics::solve`): `start` is a
    /// vector a player of numbers as text (play counts, or shares).
    #[pyo3(signature = (rule="fictitious-play", rounds=1000, time=10.0, points=11, start=None, ties="first", two_populations=false, plot=false, times=None, rest_points=true, plays=false, max_memory=None, max_work=None, noise=0.1, perturbation=0.01, mutation=None, population=None, runs=1000, seed=0, series=false, graph=None))]
    #[allow(clippy::too_many_arguments)]
    fn dynamics(
        &self,
        py: Python<'_>,
        rule: &str,
        rounds: u64,
        time: f64,
        points: u64,
        start: Option<Vec<Vec<String>>>,
        ties: &str,
        two_populations: bool,
        plot: bool,
        times: Option<Vec<f64>>,
        rest_points: bool,
        plays: bool,
        max_memory: Option<u64>,
        max_work: Option<u64>,
        noise: f64,
        perturbation: f64,
        mutation: Option<&str>,
        population: Option<Vec<u64>>,
        runs: u64,
        seed: u64,
        series: bool,
        graph: Option<Vec<(usize, usize)>>,
    ) -> PyResult<Py<PyAny>> {
        let start = match start {
            None => None,
            Some(v) => Some(
                v.iter()
                    .map(|row| {
                        row.iter()
                            .map(|x| {
                                api::parse_number(x).map_err(|why| {
                                    to_py(api::Error::Invalid(format!("start: '{x}': {why}")))
                                })
                            })
                            .collect::<PyResult<Vec<_>>>()
                    })
                    .collect::<PyResult<Vec<_>>>()?,
            ),
        };
        let req = api::dynamics::Request {
            rule: api::dynamics::Rule::parse(rule).map_err(to_py)?,
            rounds,
            time,
            points,
            times,
            start,
            ties: api::dynamics::parse_ties(ties).map_err(to_py)?,
            plays,
            two_populations,
            plot,
            rest_points,
            noise,
            perturbation,
            mutation: mutation
                .map(api::dynamics::parse_mutation)
                .transpose()
                .map_err(to_py)?,
            population,
            runs,
            seed,
            graph,
        };
        let limits = limits(None, max_memory, max_work);
        let g = &self.game;
        let brief = api::dynamics::is_brief(g, &req);
        let mut answer = run(py, brief, || api::dynamics::solve(g, &req, &limits))?;
        keyword_notes(&mut answer.notes);
        if series {
            return series_to_py(py, answer);
        }
        let d = answer_to_py(py, &answer)?;
        if let Some(svg) = &answer.plot {
            d.bind(py).set_item("plot", svg)?;
        }
        Ok(d)
    }

    /// The zero-sum game of the first player's payoffs (`nimbus::api::zerosum::solve`).
    #[pyo3(signature = (float=false, max_memory=None))]
    fn zero_sum(
        &self,
        py: Python<'_>,
        float: bool,
        max_memory: Option<u64>,
    ) -> PyResult<Py<PyAny>> {
        let limits = limits(None, max_memory, None);
        let g = &self.game;
        let answer = run(py, g.profiles() <= SMALL, || {
            let (a, notes) = api::zerosum::matrix_of(g, "the game")?;
            let mut answer = api::zerosum::solve(&a, &api::zerosum::Request { float }, &limits)?;
            for n in notes {
                answer.note(n);
            }
            Ok(answer)
        })?;
        answer_to_py(py, &answer)
    }

    /// Whether `profile` (each player's probabilities, as exact strings) is an equilibrium.
    #[pyo3(signature = (profile, tolerance="0"))]
    fn verify(
        &self,
        py: Python<'_>,
        profile: Vec<Vec<String>>,
        tolerance: &str,
    ) -> PyResult<Py<PyAny>> {
        let profile = matrix(&profile, "the profile")?;
        let tolerance = number(tolerance, "tolerance")?;
        let answer = api::verify::check(&self.game, &profile, &tolerance, false).map_err(to_py)?;
        answer_to_py(py, &answer)
    }

    /// Seconds per call of the library's work behind `nash` (`api::nash::solve`, without
    /// turning the answer into Python objects), timed inside Rust over `reps` calls: what the
    /// binding's overhead is measured against.
    #[pyo3(signature = (method="auto", reps=1000))]
    fn _time_nash(&self, py: Python<'_>, method: &str, reps: u32) -> PyResult<f64> {
        let req = api::nash::Request {
            method: api::nash::Method::parse(method).map_err(to_py)?,
            ..Default::default()
        };
        let limits = Limits::default();
        let g = &self.game;
        py.detach(|| {
            let started = std::time::Instant::now();
            for _ in 0..reps.max(1) {
                std::hint::black_box(api::nash::solve(g, &req, &limits)?);
            }
            Ok(started.elapsed().as_secs_f64() / f64::from(reps.max(1)))
        })
        .map_err(to_py)
    }

    /// Iterated elimination of dominated strategies: the steps, as JSON.
    #[pyo3(signature = (weak=false))]
    fn dominated(&self, py: Python<'_>, weak: bool) -> PyResult<Py<PyAny>> {
        let dominance = if weak {
            api::nash::Dominance::Weak
        } else {
            api::nash::Dominance::Strict
        };
        let req = api::nash::Request {
            method: api::nash::Method::Pure,
            dominance,
            ..Default::default()
        };
        let answer = api::nash::solve(&self.game, &req, &Limits::default()).map_err(to_py)?;
        pythonize::pythonize(py, &answer.eliminated)
            .map(Bound::unbind)
            .map_err(conversion)
    }
}

/// A sum of impartial games written in the expression grammar (`nimbus::api::sg::solve`).
#[pyfunction]
#[pyo3(signature = (expression, misere=false, rule=None, max_moves=20, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn sg(
    py: Python<'_>,
    expression: String,
    misere: bool,
    rule: Option<&str>,
    max_moves: usize,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let req = api::sg::Request {
        misere,
        rule: callbacks::misere_rule(rule)?,
        max_moves,
        limits: limits(max_states, max_memory, max_work),
        script: script_options(),
    };
    let answer = run(py, false, || {
        api::sg::solve(&expression, "the expression", &req)
    })?;
    answer_to_py(py, &answer)
}

/// The nim-sequence of a ruleset in the expression grammar (`nimbus::api::sequence::solve`).
#[pyfunction]
#[pyo3(signature = (ruleset, upto=None, misere=false, prove=false, checkpoint=None, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn sequence(
    py: Python<'_>,
    ruleset: String,
    upto: Option<u64>,
    misere: bool,
    prove: bool,
    checkpoint: Option<std::path::PathBuf>,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let max_work = match (prove, max_work) {
        (true, None) => Some(api::sequence::PROVE_MAX_WORK),
        (_, w) => w,
    };
    let req = api::sequence::Request {
        upto: upto.unwrap_or(100),
        misere,
        prove,
        until_proved: upto.is_none() && !prove,
        checkpoint,
        limits: limits(max_states, max_memory, max_work),
        script: script_options(),
        ..Default::default()
    };
    let mut answer = run(py, false, || api::sequence::solve(&ruleset, &req))?;
    keyword_notes(&mut answer.notes);
    answer_to_py(py, &answer)
}

/// The misère quotient of a heap game (`nimbus::api::quotient::solve`).
#[pyfunction]
#[pyo3(signature = (ruleset, upto=20, positions=Vec::new(), max_states=None, max_memory=None, max_work=None))]
fn misere_quotient(
    py: Python<'_>,
    ruleset: String,
    upto: u64,
    positions: Vec<Vec<u64>>,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let req = api::quotient::Request {
        upto,
        positions,
        limits: limits(max_states, max_memory, max_work),
    };
    let answer = run(py, false, || api::quotient::solve(&ruleset, &req))?;
    answer_to_py(py, &answer)
}

/// A two-player zero-sum stochastic game read from `text` (`nimbus::api::stochastic::solve`).
#[pyfunction]
#[pyo3(signature = (text, source="the game", method="policy", tolerance="1e-12", max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn stochastic(
    py: Python<'_>,
    text: String,
    source: &str,
    method: &str,
    tolerance: &str,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let req = api::stochastic::Request {
        method: api::stochastic::parse_method(method).map_err(to_py)?,
        tolerance: api::stochastic::parse_tolerance(tolerance).map_err(to_py)?,
    };
    let limits = limits(max_states, max_memory, max_work);
    let source = source.to_string();
    let answer = run(py, false, || {
        api::stochastic::solve(&text, &source, &req, &limits)
    })?;
    answer_to_py(py, &answer)
}

/// A sum of partizan games (`nimbus::api::cgt::solve`), with its thermograph drawn as SVG
/// under `picture`.
#[pyfunction]
#[pyo3(signature = (expression, max_moves=20, incentives=false, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn cgt(
    py: Python<'_>,
    expression: String,
    max_moves: usize,
    incentives: bool,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let req = api::cgt::Request {
        max_moves,
        incentives,
        limits: limits(max_states, max_memory, max_work),
    };
    let answer = run(py, false, || {
        api::cgt::solve(&expression, "the expression", &req)
    })?;
    cgt_to_py(py, &answer)
}

/// A partizan answer for Python, with its thermograph drawn as SVG under `picture`.
pub(crate) fn cgt_to_py(py: Python<'_>, answer: &api::cgt::Analysis) -> PyResult<Py<PyAny>> {
    let value = answer_to_py(py, answer)?;
    value
        .bind(py)
        .set_item("picture", api::cgt::thermograph_picture(answer))?;
    Ok(value)
}

/// A two-player game named as on the command line (`nimbus::api::solve::solve`).
#[pyfunction]
#[pyo3(signature = (game, position=None, all=false, method=None, depth=None, time_limit=None, save=None, db=None, scores=false, reply=false, remoteness=false, book=None, threads=None, max_states=None, max_memory=None, max_work=None))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    game: String,
    position: Option<String>,
    all: bool,
    method: Option<&str>,
    depth: Option<u32>,
    time_limit: Option<f64>,
    save: Option<String>,
    db: Option<String>,
    scores: bool,
    reply: bool,
    remoteness: bool,
    book: Option<u32>,
    threads: Option<u32>,
    max_states: Option<u64>,
    max_memory: Option<u64>,
    max_work: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let req = api::solve::Request {
        position,
        method: callbacks::search_method(method)?,
        depth,
        time_limit,
        all,
        save,
        db,
        table_bits: None,
        scores,
        reply,
        remoteness,
        book,
        host_book: None,
        // A distributed solve is a job of processes started by mpirun: the command line's.
        mpi: false,
        threads,
        limits: limits(max_states, max_memory, max_work),
        script: script_options(),
    };
    let answer = run(py, false, || api::solve::solve(&game, &req))?;
    answer_to_py(py, &answer)
}

/// The limits of a Rhai script game, whose `print` and `debug` lines go to standard error as
/// the command line's do.
fn script_options() -> api::ScriptOptions {
    api::ScriptOptions {
        output: Some(api::ScriptOutput(std::sync::Arc::new(|line| {
            eprintln!("{line}")
        }))),
        ..Default::default()
    }
}

/// A game tree held in Rust (`nimbus::api::game::Tree`).
#[pyclass(module = "nimbus._nimbus", frozen)]
struct GameTree {
    tree: nimbus::api::game::Tree,
}

#[pymethods]
impl GameTree {
    /// A tree from the text of an .efg file.
    #[staticmethod]
    fn parse(text: &str, source: &str) -> PyResult<Self> {
        let tree = nimbus::api::game::tree(text, source).map_err(to_py)?;
        Ok(GameTree { tree })
    }

    /// A built-in tree by name (kuhn).
    #[staticmethod]
    fn builtin(name: &str) -> PyResult<Self> {
        match nimbus::api::game::builtin_tree(name) {
            Some(tree) => Ok(GameTree { tree }),
            None => Err(PyValueError::new_err(format!(
                "no built-in tree is called '{name}' (there are: {})",
                nimbus::api::game::tree_names().join(", ")
            ))),
        }
    }

    /// The tree as an .efg file.
    fn efg(&self) -> String {
        nimbus::api::game::efg_text(&self.tree)
    }

    /// The tree as an SVG picture; with `method`, the first equilibrium it finds drawn on it.
    #[pyo3(signature = (method=None, max_states=None, max_memory=None, max_work=None))]
    fn svg(
        &self,
        py: Python<'_>,
        method: Option<&str>,
        max_states: Option<u64>,
        max_memory: Option<u64>,
        max_work: Option<u64>,
    ) -> PyResult<String> {
        let limits = limits(max_states, max_memory, max_work);
        let method = method
            .map(api::tree::Method::parse)
            .transpose()
            .map_err(to_py)?;
        run(py, false, || api::tree::draw(&self.tree, method, &limits))
    }

    /// The reduced normal form as a .nfg file.
    #[pyo3(signature = (max_states=None, max_memory=None, max_work=None))]
    fn nfg(
        &self,
        py: Python<'_>,
        max_states: Option<u64>,
        max_memory: Option<u64>,
        max_work: Option<u64>,
    ) -> PyResult<String> {
        let limits = limits(max_states, max_memory, max_work);
        run(py, false, || {
            api::tree::convert(&self.tree, api::tree::Format::Nfg, &limits)
        })
    }

    /// What the tree is made of (`nimbus::api::tree::describe`).
    fn describe(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let info = api::tree::describe(&self.tree).map_err(to_py)?;
        answer_to_py(py, &info)
    }

    /// CFR+ or discounted CFR (`nimbus::api::tree::cfr`).
    #[pyo3(signature = (iterations=1000, target=None, variant="cfr+", reports=10, checkpoint=None, sampling=None, seed=1, max_states=None, max_memory=None, max_work=None))]
    #[allow(clippy::too_many_arguments)]
    fn cfr(
        &self,
        py: Python<'_>,
        iterations: u64,
        target: Option<f64>,
        variant: &str,
        reports: usize,
        checkpoint: Option<std::path::PathBuf>,
        sampling: Option<&str>,
        seed: u64,
        max_states: Option<u64>,
        max_memory: Option<u64>,
        max_work: Option<u64>,
    ) -> PyResult<Py<PyAny>> {
        let variant = match variant {
            "cfr+" => nimbus::api::tree::Variant::Plus,
            "dcfr" => nimbus::api::tree::Variant::Discounted,
            v => {
                return Err(PyValueError::new_err(format!(
                    "unknown variant '{v}': use cfr+ or dcfr"
                )))
            }
        };
        let req = api::tree::CfrRequest {
            variant,
            iterations,
            target,
            reports,
            checkpoint,
            sampling: match sampling {
                None => None,
                Some("external") => Some(seed),
                Some(k) => {
                    return Err(PyValueError::new_err(format!(
                        "unknown sampling '{k}': use external"
                    )))
                }
            },
        };
        let limits = limits(max_states, max_memory, max_work);
        let answer = run(py, false, || api::tree::cfr(&self.tree, &req, &limits))?;
        answer_to_py(py, &answer)
    }

    /// The equilibria (`nimbus::api::tree::solve`).
    #[pyo3(signature = (method="auto", covering=1, time_limit=None, max_supports=None, max_states=None, max_memory=None, max_work=None, select=None, refine=None))]
    #[allow(clippy::too_many_arguments)]
    fn nash(
        &self,
        py: Python<'_>,
        method: &str,
        covering: usize,
        time_limit: Option<f64>,
        max_supports: Option<u64>,
        max_states: Option<u64>,
        max_memory: Option<u64>,
        max_work: Option<u64>,
        select: Option<&str>,
        refine: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let (method, prior) = api::tree::choose(method, select).map_err(to_py)?;
        let refine = match refine {
            Some(list) => api::nash::Refinement::parse_list(list).map_err(to_py)?,
            None => Vec::new(),
        };
        let req = api::tree::Request {
            method,
            covering,
            time_limit,
            max_supports,
            prior,
            refine,
        };
        let limits = limits(max_states, max_memory, max_work);
        let answer = run(py, false, || api::tree::solve(&self.tree, &req, &limits))?;
        answer_to_py(py, &answer)
    }
}

#[pymodule]
fn _nimbus(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("LimitError", m.py().get_type::<LimitError>())?;
    m.add("SCHEMA", api::SCHEMA)?;
    m.add_class::<NormalFormGame>()?;
    m.add_class::<GameTree>()?;
    m.add_function(wrap_pyfunction!(sg, m)?)?;
    m.add_function(wrap_pyfunction!(sequence, m)?)?;
    m.add_function(wrap_pyfunction!(misere_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(stochastic, m)?)?;
    m.add_function(wrap_pyfunction!(cgt, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    callbacks::register(m)?;
    two_player::register(m)?;
    Ok(())
}
