//! All extreme equilibria of a two-player game by vertex enumeration of the best-response
//! polytopes, and the Nash components they form (the method of lrsnash and Gambit's
//! enummixed; Avis, Rosenberg, Savani and von Stengel, "Enumeration of Nash equilibria for
//! two-player games", Economic Theory 2010).
//!
//! A mixed equilibrium, rescaled, is a pair of vertices `x ∈ P`, `y ∈ Q` other than the origin
//! that together carry every label. The vertices of each polytope are listed by reverse search
//! (Avis and Fukuda 1992, the method of lrs): the feasible bases form a tree whose parent links
//! are the pivots of the simplex method with Bland's rule towards the origin, and a
//! depth-first walk of that tree, computing each basis's children from its tableau, meets every
//! feasible basis once with no record of those already seen, so memory does not grow with the
//! bases visited. A degenerate vertex is reported at its lexicographically least basis only.
//!
//! Each vertex `x` of one polytope is matched as it is met with the points of the other that
//! complete its labels (as lrsnash does): for a nondegenerate `x`, the solution of one square
//! system on its support and its tight constraints, kept if it lies in the other polytope;
//! for a degenerate `x` (rare with general payoffs), the vertices of a face of the other
//! polytope, listed by a reverse search of their own. Both polytopes are searched at once and
//! the first to finish answers (the two often differ severalfold in size, and which is
//! smaller is not known in advance); the other stops. Each search's tree is cut into
//! subtrees handed between the cores (as mplrs does): a job explores a subtree for a fixed
//! number of bases and hands back the frames of its path it did not finish, each the root of
//! a disjoint subtree, so any number of cores share both searches. Nothing is kept of the
//! vertices but the equilibria, every basis is pivoted exactly in integers, and coordinates
//! are computed only for the vertices in equilibria. Labels are bit sets, which limits this
//! method to `m + n ≤ 128` strategies — far past where the number of vertices makes it
//! hopeless anyway.
//!
//! In a degenerate game the extreme equilibria may be interchangeable: if `(x, y)`, `(x, y')`,
//! `(x', y)` and `(x', y')` all are equilibria, so is every mix of `x, x'` against every mix of
//! `y, y'`. The maximal such sets (maximal bicliques of the bipartite graph of extreme
//! equilibria) are convex sets of equilibria, and the connected components of the graph are
//! the game's components of equilibria.

use crate::core::error::{Error, Result};
use crate::exact::ring::{convert, with_fallback, Overflow, Ring};
use crate::exact::tableau::Tableau;
use crate::strategic::bimatrix::{Bimatrix, Equilibrium};
use num_bigint::BigInt;
use num_traits::Zero;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};

/// A vertex of `{z ≥ 0 : M z ≤ 1}`.
#[derive(Debug, Clone)]
pub struct Vertex {
    /// Its coordinates, up to a common positive factor.
    pub point: Vec<BigInt>,
    /// Bit `i` for `z_i = 0`, bit `d + j` for constraint `j` tight.
    pub labels: u128,
}

/// Every vertex of `{z ≥ 0 : M z ≤ 1}` for a positive matrix `M` (`k` rows, `d` columns,
/// `d + k ≤ 128`), the origin first, by reverse search, with the number of feasible bases.
/// Stops with an error past `limit` bases.
pub fn polytope_vertices(mat: &[Vec<BigInt>], limit: u64) -> Result<(Vec<Vertex>, u64)> {
    let d = mat.first().map_or(0, Vec::len);
    check_size(d + mat.len())?;
    let (found, bases) = reverse_search_vertices(mat, &Budget::new(limit, u64::MAX))?;
    let vertices = found
        .iter()
        .map(|f| Vertex {
            point: vertex_point(mat, f.basis),
            labels: f.labels,
        })
        .collect();
    Ok((vertices, bases))
}

/// A vertex found by reverse search: its labels (bit `i` for `z_i = 0`, bit `d + j` for
/// constraint `j` tight) and its lexicographically least basis, from which its coordinates are
/// computed when they are needed.
#[derive(Debug, Clone, Copy)]
struct Found {
    labels: u128,
    basis: u128,
}

fn check_size(vars: usize) -> Result<()> {
    if vars > 128 {
        return Err(Error::Invalid(format!(
            "vertex enumeration handles up to 128 strategies in all, this game has {vars}: use \
             {} for one equilibrium of a large game",
            crate::core::hint::setting_value("method", "lh")
        )));
    }
    Ok(())
}

/// Every vertex of `{z ≥ 0 : M z ≤ 1}` for a positive matrix `M` (`d + k ≤ 128`), the origin
/// first, by reverse search, and the number of feasible bases. `visited` counts bases across
/// the searches running at once, for the progress display.
fn reverse_search_vertices(mat: &[Vec<BigInt>], budget: &Budget) -> Result<(Vec<Found>, u64)> {
    let mut collect = Collect {
        found: Vec::new(),
        budget,
        error: None,
    };
    let bases = reverse_search(mat, budget, &mut collect)?;
    match collect.error {
        Some(e) => Err(e),
        None => Ok((collect.found, bases)),
    }
}

/// Runs a reverse search of `{z ≥ 0 : M z ≤ 1}`, handing every vertex, the origin first, to
/// `visit`, and returns the number of feasible bases visited.
fn reverse_search<V: Visit>(mat: &[Vec<BigInt>], budget: &Budget, visit: &mut V) -> Result<u64> {
    let root = Frame::root(mat, budget)?;
    if !root.visit(visit) {
        return Ok(1);
    }
    let (_, bases) = root.run(u64::MAX, budget, visit)?;
    Ok(bases + 1)
}

/// A part of the reverse-search tree not yet explored: the children of a basis from a
/// candidate pivot on (entering column times k plus row), with everything below them. The
/// subtrees of different frames are disjoint, so frames can be explored on different cores
/// (as mplrs does).
enum Frame {
    Small(Tableau<i128>, usize),
    Big(Tableau<BigInt>, usize),
}

impl Frame {
    /// The origin's basis, all of whose children are still to explore.
    fn root(mat: &[Vec<BigInt>], budget: &Budget) -> Result<Frame> {
        let frame = match Search::<i128>::start(mat) {
            Some(mut s) => {
                let (t, c) = s.stack.pop().expect("a search starts at the root");
                Frame::Small(t, c)
            }
            None => {
                let mut s = Search::<BigInt>::start(mat).expect("BigInt holds every entry");
                let (t, c) = s.stack.pop().expect("a search starts at the root");
                Frame::Big(t, c)
            }
        };
        budget.take(match &frame {
            Frame::Small(t, _) => tableau_bytes(t),
            Frame::Big(t, _) => tableau_bytes(t),
        })?;
        Ok(frame)
    }

    /// Hands the frame's own basis to `visit` (for the root: the origin).
    fn visit<V: Visit>(&self, visit: &mut V) -> bool {
        match self {
            Frame::Small(t, _) => visit.vertex(t),
            Frame::Big(t, _) => visit.vertex(t),
        }
    }

    /// Explores the frame's subtree until it is done, `visit` stops it, or `bases` bases
    /// have been visited; returns the frames left unexplored and the bases visited. On
    /// overflow the search goes on in big integers from the basis where machine integers ran
    /// out, not from the start: the bases already visited keep their vertices.
    fn run<V: Visit>(
        self,
        bases: u64,
        budget: &Budget,
        visit: &mut V,
    ) -> Result<(Vec<Frame>, u64)> {
        let mut big = match self {
            Frame::Small(t, cursor) => {
                let mut small = Search::resume(vec![(t, cursor)], 0);
                match small.run(bases, budget, visit) {
                    Ok(r) => {
                        budget
                            .visited
                            .fetch_add(small.bases % 1024, AtomicOrdering::Relaxed);
                        r?;
                        let left = small.stack.into_iter();
                        return Ok((left.map(|(t, c)| Frame::Small(t, c)).collect(), small.bases));
                    }
                    Err(Overflow) => small.widen(),
                }
            }
            Frame::Big(t, cursor) => Search::resume(vec![(t, cursor)], 0),
        };
        let r = big
            .run(bases, budget, visit)
            .expect("BigInt arithmetic cannot overflow");
        budget
            .visited
            .fetch_add(big.bases % 1024, AtomicOrdering::Relaxed);
        r?;
        let left = big.stack.into_iter();
        Ok((left.map(|(t, c)| Frame::Big(t, c)).collect(), big.bases))
    }
}

/// What a reverse search does with the vertices it meets.
trait Visit {
    /// Takes a vertex, given by its lexicographically least basis; false stops the search.
    fn vertex<T: Ring>(&mut self, t: &Tableau<T>) -> bool;
    /// Whether the search should stop now (another one has answered).
    fn stopped(&self) -> bool {
        false
    }
}

/// Keeps every vertex, within the memory budget.
struct Collect<'a> {
    found: Vec<Found>,
    budget: &'a Budget,
    error: Option<Error>,
}

impl Visit for Collect<'_> {
    fn vertex<T: Ring>(&mut self, t: &Tableau<T>) -> bool {
        if let Err(e) = self.budget.take(std::mem::size_of::<Found>() as u64) {
            self.error = Some(e);
            return false;
        }
        self.found.push(Found {
            labels: vertex_labels(t),
            basis: basis_mask(t),
        });
        true
    }
}

/// The bounds of one enumeration, shared by every search in it: bases (the `limit`, counted in
/// `visited`) and bytes held (tableaux on the searches' paths and waiting as jobs, vertices
/// kept, pairs found), checked before each allocation.
struct Budget {
    limit: u64,
    visited: AtomicU64,
    max_memory: u64,
    memory: AtomicU64,
    /// The work budget, and the work of one pivot (the entries of a tableau).
    max_work: u64,
    pivot_work: u64,
}

impl Budget {
    fn new(limit: u64, max_memory: u64) -> Self {
        Budget {
            limit,
            visited: AtomicU64::new(0),
            max_memory,
            memory: AtomicU64::new(0),
            max_work: u64::MAX,
            pivot_work: 1,
        }
    }

    /// The error of `bases` visited, if they pass the limit of bases or the work budget.
    fn over(&self, bases: u64) -> Option<Error> {
        if bases > self.limit {
            return Some(Error::StateLimit {
                explored: bases,
                limit: self.limit,
                what: "a best-response polytope's bases".into(),
            });
        }
        let work = bases.saturating_mul(self.pivot_work);
        crate::core::budget::check_work("the vertex enumeration", work, self.max_work).err()
    }

    /// Counts `bytes` more as held, or refuses them past the memory budget.
    fn take(&self, bytes: u64) -> Result<()> {
        let held = self.memory.fetch_add(bytes, AtomicOrdering::Relaxed) + bytes;
        crate::core::budget::check_memory("the vertex enumeration", held, self.max_memory)
    }

    fn give(&self, bytes: u64) {
        self.memory.fetch_sub(bytes, AtomicOrdering::Relaxed);
    }
}

/// The bytes a tableau holds: its entries (big integers counted at a typical size) and the
/// row and basis vectors.
fn tableau_bytes<T: Ring>(t: &Tableau<T>) -> u64 {
    let entries = t.t.len() * t.t.first().map_or(0, Vec::len);
    (entries as u64) * T::ENTRY_BYTES + (t.t.len() * 24 + t.basis.len() * 8 + 64) as u64
}

/// A reverse search in progress: the path of frames from the origin's basis (each a tableau
/// and the next candidate pivot, entering column times k plus row, to try from it) and the
/// bases visited. Its depth is the length of a Bland path to the origin, not the number of
/// bases seen.
struct Search<T> {
    stack: Vec<(Tableau<T>, usize)>,
    bases: u64,
    /// Tableaux of frames already finished, whose rows the next children reuse (at most
    /// [`SPARE_TABLEAUX`]; their bytes were given back to the budget when they finished).
    spare: Vec<Tableau<T>>,
    /// The rows of least ratio of a column, reused from basis to basis.
    rows: Vec<usize>,
}

/// The finished tableaux a search keeps for reuse. A tableau is created only when none is
/// spare, so the stack and the spares together never hold more than the deepest stack the
/// search has reached (whose memory the budget allowed); the cap matters only for very deep
/// trees. A search that climbs several levels before descending again needs more than a few.
const SPARE_TABLEAUX: usize = 32;

impl<T: Ring> Search<T> {
    fn start(mat: &[Vec<BigInt>]) -> Option<Self> {
        let k = mat.len();
        let d = mat.first().map_or(0, Vec::len);
        let mut root = Tableau::new(convert::<T>(mat)?, vec![T::small(1); k]);
        // The objective row: minimise the sum of the z's, whose only optimal basis is the
        // origin's (the slacks, all equal to 1, so nondegenerate). Row k holds D times the
        // reduced costs.
        root.t
            .push((0..=d + k).map(|j| T::small(i64::from(j < d))).collect());
        Some(Search::resume(vec![(root, 0)], 1))
    }

    /// A search that goes on from the frames of `stack`, having visited `bases` bases.
    fn resume(stack: Vec<(Tableau<T>, usize)>, bases: u64) -> Self {
        Search {
            stack,
            bases,
            spare: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Runs to the end, until `visit` stops it, or until `budget` bases have been visited.
    /// On [`Overflow`] the search is left as it was before the step that overflowed, so that
    /// it can go on in wider integers.
    fn run<V: Visit>(
        &mut self,
        bases: u64,
        budget: &Budget,
        visit: &mut V,
    ) -> std::result::Result<Result<()>, Overflow> {
        while let Some((t, cursor)) = self.stack.last_mut() {
            if visit.stopped() || self.bases >= bases {
                break;
            }
            let child = next_child(t, cursor, &mut self.rows)?;
            let Some((s, r)) = child else {
                if let Some((t, _)) = self.stack.pop() {
                    budget.give(tableau_bytes(&t));
                    if self.spare.len() < SPARE_TABLEAUX {
                        self.spare.push(t);
                    }
                }
                continue;
            };
            let bytes = tableau_bytes(t);
            if let Err(e) = budget.take(bytes) {
                return Ok(Err(e));
            }
            let mut u = match self.spare.pop() {
                Some(mut u) => {
                    u.copy_from(t);
                    u
                }
                None => t.clone(),
            };
            if let Err(o) = u.pivot(r, s) {
                budget.give(bytes);
                return Err(o);
            }
            *cursor += 1;
            self.bases += 1;
            if let Some(e) = budget.over(self.bases) {
                return Ok(Err(e));
            }
            if self.bases % 1024 == 0 {
                // Searches running at once (the frames of a split search) share `visited`:
                // the limit is on their sum.
                let all = budget.visited.fetch_add(1024, AtomicOrdering::Relaxed) + 1024;
                if let Some(e) = budget.over(all) {
                    return Ok(Err(e));
                }
                if let Err(e) = crate::core::progress::tick(all) {
                    return Ok(Err(e));
                }
            }
            let go_on = !is_lexmin(&u) || visit.vertex(&u);
            self.stack.push((u, 0));
            if !go_on {
                break;
            }
        }
        Ok(Ok(()))
    }

    /// The same search in big integers.
    fn widen(self) -> Search<BigInt> {
        let stack = self
            .stack
            .into_iter()
            .map(|(t, cursor)| {
                let wide = Tableau {
                    t: t.t
                        .iter()
                        .map(|row| row.iter().map(Ring::to_big).collect())
                        .collect(),
                    d: t.d.to_big(),
                    basis: t.basis,
                };
                (wide, cursor)
            })
            .collect();
        Search::resume(stack, self.bases)
    }
}

fn basis_mask<T>(t: &Tableau<T>) -> u128 {
    t.basis.iter().fold(0u128, |s, &v| s | 1 << v)
}

/// The labels of a basis's vertex: its nonbasic variables and its basic ones at zero.
fn vertex_labels<T: Ring>(t: &Tableau<T>) -> u128 {
    let rhs = t.rhs();
    let mut labels = !basis_mask(t) & all_bits(rhs);
    for (i, &v) in t.basis.iter().enumerate() {
        if t.t[i][rhs].is_zero_r() {
            labels |= 1 << v;
        }
    }
    labels
}

/// The next child of a basis at or after `cursor` (entering column times `k` plus row), with
/// `cursor` left on it. Only columns with a positive reduced cost can enter, and only in the
/// rows of least ratio (a feasible pivot), so those rows are found once per column rather than
/// tested row by row.
fn next_child<T: Ring>(
    t: &Tableau<T>,
    cursor: &mut usize,
    rows: &mut Vec<usize>,
) -> std::result::Result<Option<(usize, usize)>, Overflow> {
    let k = t.rows();
    let rhs = t.rhs();
    let basic = basis_mask(t);
    let obj = &t.t[k];
    while *cursor < rhs * k {
        let (s, first_row) = (*cursor / k, *cursor % k);
        if basic >> s & 1 == 1 || !obj[s].is_pos() {
            *cursor = (s + 1) * k;
            continue;
        }
        t.min_ratio_rows_into(s, rows)?;
        for &r in rows.iter().filter(|&&r| r >= first_row) {
            if is_bland_parent(t, basic, s, r)? {
                *cursor = s * k + r;
                return Ok(Some((s, r)));
            }
        }
        *cursor = (s + 1) * k;
    }
    Ok(None)
}

/// Whether the feasible pivot of column `s` in at row `r` (`c_s > 0`, `r` a row of least
/// ratio) gives a basis whose Bland pivot (the smallest-index improving column, then the
/// smallest-index basic variable among the rows of least ratio) leads back here: the
/// reverse-search child test, done on this tableau without pivoting. With `D > 0` (every
/// pivot of the search is on a positive entry), for the basis after the pivot, where `u`,
/// basic in row `r`, has left:
/// - its reduced cost of `u` is `−c_s / a_rs`, negative exactly when `c_s > 0`;
/// - for a nonbasic `j < u`, `c_j − c_s a_rj / a_rs` must not be negative;
/// - in column `u`, row `r` has ratio `b_r` and a row `i` with `a_is < 0` has ratio
///   `b_r + b_i a_rs / |a_is|`, so row `r` wins unless some such row with `b_i = 0` has a
///   basic variable of smaller index than `s`.
fn is_bland_parent<T: Ring>(
    t: &Tableau<T>,
    basic: u128,
    s: usize,
    r: usize,
) -> std::result::Result<bool, Overflow> {
    let k = t.rows();
    let rhs = t.rhs();
    let obj = &t.t[k];
    let prs = &t.t[r][s];
    let u = t.basis[r];
    for j in 0..u {
        if j == s || basic >> j & 1 == 1 {
            continue;
        }
        if T::cmp_products(&obj[j], prs, &obj[s], &t.t[r][j])? == std::cmp::Ordering::Less {
            return Ok(false);
        }
    }
    Ok(!(0..k).any(|i| i != r && t.t[i][s].is_neg() && t.t[i][rhs].is_zero_r() && t.basis[i] < s))
}

/// Whether a basis is the lexicographically least of its vertex's bases: no row at zero can
/// exchange its basic variable for a nonbasic one of smaller index (a pivot that stays at the
/// same vertex). The bases of a vertex are those of a matroid, so this local test is exact.
fn is_lexmin<T: Ring>(t: &Tableau<T>) -> bool {
    let rhs = t.rhs();
    let basic = basis_mask(t);
    (0..t.rows()).all(|i| {
        !t.t[i][rhs].is_zero_r()
            || (0..t.basis[i]).all(|j| basic >> j & 1 == 1 || t.t[i][j].is_zero_r())
    })
}

/// The coordinates of the vertex with the given basis, up to a positive factor.
fn vertex_point(mat: &[Vec<BigInt>], basis: u128) -> Vec<BigInt> {
    with_fallback(
        || vertex_point_in::<i128>(mat, basis),
        || vertex_point_in::<BigInt>(mat, basis),
    )
}

fn vertex_point_in<T: Ring>(
    mat: &[Vec<BigInt>],
    basis: u128,
) -> std::result::Result<Vec<BigInt>, Overflow> {
    let k = mat.len();
    let d = mat.first().map_or(0, Vec::len);
    let m = convert::<T>(mat).ok_or(Overflow)?;
    let mut t = Tableau::new(m, vec![T::small(1); k]);
    // A row whose basic variable is not in the basis wanted has a nonzero entry in a column
    // of that basis not yet basic: otherwise that basis's columns would be dependent.
    for i in 0..k {
        if basis >> t.basis[i] & 1 == 1 {
            continue;
        }
        let basic = basis_mask(&t);
        if let Some(e) = (0..d + k)
            .find(|&e| basis >> e & 1 == 1 && basic >> e & 1 == 0 && !t.t[i][e].is_zero_r())
        {
            t.pivot(i, e)?;
        }
    }
    let negative = t.d.is_neg();
    Ok(t.values(d)
        .iter()
        .map(|v| if negative { -v.to_big() } else { v.to_big() })
        .collect())
}

/// Every vertex of `{z ≥ 0 : M z ≤ 1}` for a positive matrix `M` (`k` rows, `d` columns,
/// `d + k ≤ 128`), the origin first, by a plain search of the graph of feasible bases that
/// remembers every basis it has seen. The enumeration uses reverse search instead; this
/// simpler method is kept as the independent check the tests compare it with. Stops with an
/// error past `limit` bases.
pub fn polytope_vertices_by_graph_search(
    mat: &[Vec<BigInt>],
    limit: u64,
) -> Result<(Vec<Vertex>, u64)> {
    let k = mat.len();
    let d = mat.first().map_or(0, Vec::len);
    check_size(d + k)?;
    with_fallback(
        || graph_search::<i128>(mat, limit),
        || graph_search::<BigInt>(mat, limit),
    )
}

fn graph_search<T: Ring>(
    mat: &[Vec<BigInt>],
    limit: u64,
) -> std::result::Result<Result<(Vec<Vertex>, u64)>, Overflow> {
    let k = mat.len();
    let d = mat.first().map_or(0, Vec::len);
    let Some(m) = convert::<T>(mat) else {
        return Err(Overflow);
    };
    let start = Tableau::new(m, vec![T::small(1); k]);
    let mask = |t: &Tableau<T>| t.basis.iter().fold(0u128, |s, &v| s | 1 << v);
    let mut seen: FxHashSet<u128> = FxHashSet::default();
    let mut found: FxHashMap<u128, usize> = FxHashMap::default();
    let mut vertices = Vec::new();
    seen.insert(mask(&start));
    let mut stack = vec![start];
    let rhs = d + k;
    while let Some(t) = stack.pop() {
        if seen.len() % 1024 == 0 {
            if let Err(e) = crate::core::progress::tick(seen.len() as u64) {
                return Ok(Err(e));
            }
        }
        let basic = mask(&t);
        // Labels: nonbasic variables, and basic ones at zero (a degenerate vertex).
        let mut labels = !basic & all_bits(rhs);
        for (i, &v) in t.basis.iter().enumerate() {
            if t.t[i][rhs].is_zero_r() {
                labels |= 1 << v;
            }
        }
        if let std::collections::hash_map::Entry::Vacant(e) = found.entry(labels) {
            e.insert(vertices.len());
            vertices.push(Vertex {
                point: t.values(d).iter().map(Ring::to_big).collect(),
                labels,
            });
        }
        for e in 0..rhs {
            if basic >> e & 1 == 1 {
                continue;
            }
            for r in t.min_ratio_rows(e)? {
                let next = basic & !(1u128 << t.basis[r]) | 1 << e;
                if seen.insert(next) {
                    if seen.len() as u64 > limit {
                        return Ok(Err(Error::StateLimit {
                            explored: seen.len() as u64,
                            limit,
                            what: "a best-response polytope's bases".into(),
                        }));
                    }
                    let mut u = t.clone();
                    u.pivot(r, e)?;
                    stack.push(u);
                }
            }
        }
    }
    Ok(Ok((vertices, seen.len() as u64)))
}

/// The bit set `{0, …, k−1}`, `k ≤ 128`.
fn all_bits(k: usize) -> u128 {
    if k >= 128 {
        u128::MAX
    } else {
        (1u128 << k) - 1
    }
}

/// A connected set of extreme equilibria, and its maximal convex pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Indices into [`Enumeration::row_strategies`].
    pub rows: Vec<usize>,
    /// Indices into [`Enumeration::col_strategies`].
    pub cols: Vec<usize>,
    /// Maximal sets of interchangeable extreme equilibria: every row strategy of the first list
    /// against every column strategy of the second (and every mix of them) is an equilibrium.
    pub cliques: Vec<(Vec<usize>, Vec<usize>)>,
}

/// The result of vertex enumeration.
#[derive(Debug, Clone)]
pub struct Enumeration {
    /// Every extreme equilibrium.
    pub equilibria: Vec<Equilibrium>,
    /// For each equilibrium, the indices of its two strategies in the lists below.
    pub pairs: Vec<(usize, usize)>,
    /// The distinct row strategies of extreme equilibria, each as the index of the first
    /// equilibrium that plays it (`equilibria[row_strategies[r]].profile[0]`): indices rather
    /// than copies, which were most of the allocations of a game with many equilibria.
    pub row_strategies: Vec<usize>,
    /// The distinct column strategies, as [`Enumeration::row_strategies`] lists the rows.
    pub col_strategies: Vec<usize>,
    /// The components of equilibria.
    pub components: Vec<Component>,
    /// Vertices listed: those of the polytope whose search answered (one player's
    /// mixed strategies, matched one by one), or of both in a game where each polytope has a
    /// degenerate vertex (then listed in full and joined).
    pub vertices: u64,
    /// Bases visited in both polytopes.
    pub bases: u64,
}

/// Every extreme equilibrium and every component, by vertex enumeration.
///
/// Each vertex of one polytope is matched as it is met with the other polytope's points that
/// complete its labels, so either polytope's search alone finds every equilibrium. The two
/// often differ severalfold in size (a 20 × 20 game: 1.8 million bases against 5.5 million)
/// and which is smaller is not known in advance (Knuth's estimator, tried, was off by tenfold
/// with affordable numbers of paths), so both are searched at once and the first to finish
/// answers. Each search's tree is cut into subtrees that any core may take (as mplrs does),
/// so the two share every core. A small game (at most a few thousand bases) is searched on
/// the calling thread, one polytope only.
///
/// Stops with an error past `limit` bases or `max_memory` bytes held.
pub fn enumerate(g: &Bimatrix, limit: u64, max_memory: u64) -> Result<Enumeration> {
    enumerate_from(g, limit, max_memory, Polytopes::Both, JOB_BASES)
}

/// [`enumerate`], stopped also by the work budget: each basis visited is a pivot of a tableau
/// of (m + n) × (m + n + 1) entries.
pub fn enumerate_within(
    g: &Bimatrix,
    limit: u64,
    max_memory: u64,
    max_work: u64,
) -> Result<Enumeration> {
    search(g, limit, max_memory, max_work, Polytopes::Both, JOB_BASES)
}

/// Which polytopes [`enumerate_from`] searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polytopes {
    /// Both at once; the first to finish answers.
    Both,
    /// Only the first player's mixed strategies, each matched with the second player's.
    First,
    /// Only the second player's.
    Second,
}

/// Bases a job of a split search visits before it hands what is left of its subtree back as
/// new jobs: tens of milliseconds of work, so that the cores stay busy to the end and the
/// bookkeeping is negligible.
pub const JOB_BASES: u64 = 16_384;

/// [`enumerate`], searching the polytopes chosen, split into jobs of `job_bases` bases
/// (`u64::MAX`: each search on one thread): the answer is the same whatever the choice, so the
/// tests check each polytope alone, and small jobs, against an independent method.
pub fn enumerate_from(
    g: &Bimatrix,
    limit: u64,
    max_memory: u64,
    sides: Polytopes,
    job_bases: u64,
) -> Result<Enumeration> {
    search(g, limit, max_memory, u64::MAX, sides, job_bases)
}

/// [`enumerate_from`] within a work budget too.
// Kept as one function: the two polytopes' searches, their jobs shared over the cores, and the
// join of their vertices into equilibria share the budget and the stop flag.
fn search(
    g: &Bimatrix,
    limit: u64,
    max_memory: u64,
    max_work: u64,
    sides: Polytopes,
    job_bases: u64,
) -> Result<Enumeration> {
    let (m, n) = (g.m, g.n);
    check_size(m + n)?;
    crate::core::progress::phase("vertex enumeration: bases visited", 0);
    let (p_mat, q_mat) = (g.b_transposed(), g.a.clone());
    let mut budget = Budget::new(limit, max_memory);
    budget.max_work = max_work;
    budget.pivot_work = ((m + n) as u64) * ((m + n + 1) as u64);
    let done = AtomicBool::new(false);
    // A polytope has at most C(m + n, m) bases: below a few thousand the whole search takes
    // less time than starting a second thread (the thread pool is not even created).
    let (sides, job_bases) = match sides {
        Polytopes::Both if binomial_at_most(m + n, m, SMALL_SEARCH) => (Polytopes::First, u64::MAX),
        chosen => (chosen, job_bases),
    };
    let search = |mat, other| split_search(mat, other, &budget, job_bases, &done);
    let (pairs, vertices) =
        match sides {
            Polytopes::First => search(&p_mat, &q_mat).into_result()?,
            Polytopes::Second => flip(search(&q_mat, &p_mat).into_result()?),
            Polytopes::Both => {
                // The second search may run on another thread: it keeps this one's time limit.
                let deadline = crate::core::progress::current_deadline();
                let on = |a, b| crate::core::progress::with_deadline(deadline, || search(a, b));
                match rayon::join(|| on(&p_mat, &q_mat), || on(&q_mat, &p_mat)) {
                    (p @ RaceEnd::Answered { .. }, _) => p.into_result()?,
                    (_, q @ RaceEnd::Answered { .. }) => flip(q.into_result()?),
                    (RaceEnd::Failed(e), _) | (_, RaceEnd::Failed(e)) => return Err(e),
                    _ => return Err(Error::Invalid(
                        "internal inconsistency: both vertex searches stopped without an answer"
                            .into(),
                    )),
                }
            }
        };
    finish(
        g,
        pairs,
        vertices,
        budget.visited.load(AtomicOrdering::Relaxed),
    )
}

/// Pairs of points in equilibrium, (this polytope's, the other's).
type Pairs = Vec<(Point, Point)>;

/// Pairs found from the second polytope, as (first player's point, second's).
fn flip((pairs, vertices): (Pairs, u64)) -> (Pairs, u64) {
    let pairs = pairs.into_iter().map(|(y, x)| (x, y)).collect();
    (pairs, vertices)
}

/// How one polytope's search ended.
enum RaceEnd {
    /// It listed every vertex and matched each: these are all the equilibria, and the
    /// vertices listed.
    Answered { pairs: Pairs, vertices: u64 },
    /// It stopped because the other search answered (or failed).
    Stopped,
    /// A budget or an interruption.
    Failed(Error),
}

impl RaceEnd {
    fn into_result(self) -> Result<(Pairs, u64)> {
        match self {
            RaceEnd::Answered { pairs, vertices } => Ok((pairs, vertices)),
            RaceEnd::Failed(e) => Err(e),
            RaceEnd::Stopped => Err(Error::Invalid(
                "internal inconsistency: a stopped search has no answer".into(),
            )),
        }
    }
}

/// The state shared by the jobs of a split search.
struct Split<'a> {
    mat: &'a [Vec<BigInt>],
    other: &'a [Vec<BigInt>],
    other_small: Option<Vec<Vec<i128>>>,
    budget: &'a Budget,
    job_bases: u64,
    /// Set when either search of a race has answered or failed: every job stops.
    done: &'a AtomicBool,
    found: std::sync::Mutex<(Pairs, u64, Option<Error>)>,
    /// The calling thread's time limit, which every job keeps.
    deadline: Option<crate::core::progress::Deadline>,
}

impl Split<'_> {
    fn matcher(&self) -> Matcher<'_> {
        Matcher {
            dims: self.mat.first().map_or(0, Vec::len),
            other: self.other,
            other_small: self.other_small.as_deref(),
            pairs: Vec::new(),
            vertices: 0,
            error: None,
            done: self.done,
            budget: self.budget,
            scratch: Default::default(),
        }
    }

    /// Runs one frame's subtree for a job's worth of bases, keeps what it found, and queues
    /// what is left as new jobs.
    fn job<'s>(&'s self, scope: &rayon::Scope<'s>, frame: Frame) {
        if self.done.load(AtomicOrdering::Relaxed) {
            return;
        }
        let mut matcher = self.matcher();
        let run = crate::core::progress::with_deadline(self.deadline, || {
            frame.run(self.job_bases, self.budget, &mut matcher)
        });
        let mut found = self.found.lock().unwrap_or_else(|p| p.into_inner());
        match (run, matcher.error.take()) {
            (Err(e), _) | (Ok(_), Some(e)) => {
                // A budget or an interruption ends the whole enumeration.
                self.done.store(true, AtomicOrdering::Relaxed);
                found.2.get_or_insert(e);
            }
            (Ok((left, _)), None) => {
                found.0.append(&mut matcher.pairs);
                found.1 += matcher.vertices;
                drop(found);
                for frame in left {
                    scope.spawn(move |scope| self.job(scope, frame));
                }
            }
        }
    }
}

/// Lists the vertices of `{z ≥ 0 : M z ≤ 1}` and matches each to the other polytope's points
/// that complete its labels, until done or until `done` is set by the other search of a
/// race. The reverse-search tree is cut into jobs of `job_bases` bases, each handing the
/// frames it did not finish back as new jobs for any core (`u64::MAX`: one job, on the
/// calling thread).
fn split_search(
    mat: &[Vec<BigInt>],
    other: &[Vec<BigInt>],
    budget: &Budget,
    job_bases: u64,
    done: &AtomicBool,
) -> RaceEnd {
    let split = Split {
        mat,
        other,
        other_small: convert::<i128>(other),
        budget,
        job_bases,
        done,
        found: std::sync::Mutex::new((Vec::new(), 0, None)),
        deadline: crate::core::progress::current_deadline(),
    };
    let root = match Frame::root(mat, budget) {
        Ok(root) => root,
        Err(e) => {
            done.store(true, AtomicOrdering::Relaxed);
            return RaceEnd::Failed(e);
        }
    };
    budget.visited.fetch_add(1, AtomicOrdering::Relaxed);
    // The origin: no partner (its support is empty), but a vertex listed.
    split.found.lock().unwrap_or_else(|p| p.into_inner()).1 = 1;
    if job_bases == u64::MAX {
        let mut matcher = split.matcher();
        let run = root.run(u64::MAX, budget, &mut matcher);
        let mut found = split.found.lock().unwrap_or_else(|p| p.into_inner());
        match (run, matcher.error.take()) {
            (Err(e), _) | (Ok(_), Some(e)) => found.2 = Some(e),
            (Ok(_), None) => {
                found.0 = std::mem::take(&mut matcher.pairs);
                found.1 += matcher.vertices;
            }
        }
    } else {
        rayon::scope(|scope| split.job(scope, root));
    }
    let (pairs, vertices, error) = split.found.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some(e) = error {
        done.store(true, AtomicOrdering::Relaxed);
        return RaceEnd::Failed(e);
    }
    // Only the first search to finish claims the answer; one that finds `done` already set
    // may have had jobs stop early.
    match done.compare_exchange(false, true, AtomicOrdering::AcqRel, AtomicOrdering::Acquire) {
        Ok(_) => RaceEnd::Answered { pairs, vertices },
        Err(_) => RaceEnd::Stopped,
    }
}

/// Bases below which one polytope is searched alone, on the calling thread.
const SMALL_SEARCH: u64 = 4096;

/// Whether `C(n, k) ≤ bound`.
fn binomial_at_most(n: usize, k: usize, bound: u64) -> bool {
    let k = k.min(n - k);
    let mut c: u64 = 1;
    for i in 0..k {
        // C(n, i + 1) = C(n, i) · (n − i) / (i + 1), exact at every step.
        c = c * (n - i) as u64 / (i as u64 + 1);
        if c > bound {
            return false;
        }
    }
    true
}

/// The enumeration from the pairs of vertices `(x, y)` in equilibrium, sorted so that the
/// answer does not depend on which search answered first.
fn finish(g: &Bimatrix, pairs: Pairs, vertices: u64, bases: u64) -> Result<Enumeration> {
    let mut found = pairs
        .into_iter()
        .map(|(x, y)| {
            let e = match (&x, &y) {
                (Point::Small(a), Point::Small(b)) => g.equilibrium_machine(a, b),
                _ => None,
            };
            let e = e.unwrap_or_else(|| g.equilibrium(&x.to_big(), &y.to_big()));
            match e {
                Some(e) => Ok((e, x, y)),
                None => Err(Error::Invalid(
                    "internal inconsistency: a completely labelled vertex pair is not an \
                     equilibrium"
                        .into(),
                )),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    // Most weight on the first strategies first: pure equilibria in the order of the
    // strategies, then the mixed ones.
    found.sort_by(|(e, _, _), (f, _, _)| {
        crate::exact::cmp_qs(&f.profile[0], &e.profile[0])
            .then_with(|| crate::exact::cmp_qs(&f.profile[1], &e.profile[1]))
    });
    // Keyed by the vertices, which are the strategies' own integers (see `Point`): no
    // numbers are built for the keys.
    let mut rows: FxHashMap<&Point, usize> = FxHashMap::default();
    let mut cols: FxHashMap<&Point, usize> = FxHashMap::default();
    let mut row_strategies = Vec::new();
    let mut col_strategies = Vec::new();
    let mut index_pairs = Vec::with_capacity(found.len());
    for (k, (_, x, y)) in found.iter().enumerate() {
        let r = *rows.entry(x).or_insert_with(|| {
            row_strategies.push(k);
            row_strategies.len() - 1
        });
        let c = *cols.entry(y).or_insert_with(|| {
            col_strategies.push(k);
            col_strategies.len() - 1
        });
        index_pairs.push((r, c));
    }
    let equilibria = found.into_iter().map(|(e, _, _)| e).collect();
    let components = components(&index_pairs, row_strategies.len(), col_strategies.len());
    Ok(Enumeration {
        equilibria,
        pairs: index_pairs,
        row_strategies,
        col_strategies,
        components,
        vertices,
        bases,
    })
}

/// Matches each vertex of one polytope with the other polytope's points that complete its
/// labels. For a vertex `x` with exactly `d` labels (a nondegenerate one) those points are the
/// solutions `z` of `N[S][T] z = 1` with `z` zero outside `T`, where `S` is the support of `x`,
/// `T` its tight constraints and `N` the other polytope's matrix (its rows are this one's
/// variables), that lie in the other polytope: one point when `N[S][T]` is nonsingular.
/// Every extreme equilibrium `(x, y)` has `x` among the vertices listed, so a search that
/// meets no degenerate vertex and no singular system has found them all, with no list of
/// the other polytope's vertices.
struct Matcher<'a> {
    dims: usize,
    other: &'a [Vec<BigInt>],
    other_small: Option<&'a [Vec<i128>]>,
    pairs: Pairs,
    vertices: u64,
    error: Option<Error>,
    done: &'a AtomicBool,
    budget: &'a Budget,
    /// The support and tight constraints of the vertex at hand.
    scratch: (Vec<usize>, Vec<usize>),
}

impl Matcher<'_> {
    /// The other polytope's vertices `y` with `y_j = 0` outside `tight` and `(N y)_i = 1` for
    /// `i` in `support`, when that face may hold more than one point (this vertex is
    /// degenerate, or the square system is singular): the vertices of the smaller polytope
    /// `{z ≥ 0 : N[·][tight] z ≤ 1}` (a face of the other one, so its vertices are the other
    /// one's) with the rows of `support` tight. Rare in games with general payoffs.
    fn face_vertices(&self, support: &[usize], tight: &[usize]) -> Result<Vec<Vec<BigInt>>> {
        let sub: Vec<Vec<BigInt>> = self
            .other
            .iter()
            .map(|row| tight.iter().map(|&j| row[j].clone()).collect())
            .collect();
        let (found, _) = reverse_search_vertices(&sub, self.budget)?;
        let width = self.other.first().map_or(0, Vec::len);
        Ok(found
            .iter()
            .filter(|f| {
                support
                    .iter()
                    .all(|&i| f.labels >> (tight.len() + i) & 1 == 1)
            })
            .map(|f| {
                let z = vertex_point(&sub, f.basis);
                let mut y = vec![BigInt::zero(); width];
                for (&j, v) in tight.iter().zip(z) {
                    y[j] = v;
                }
                y
            })
            .collect())
    }
}

impl Visit for Matcher<'_> {
    fn vertex<T: Ring>(&mut self, t: &Tableau<T>) -> bool {
        self.vertices += 1;
        let labels = vertex_labels(t);
        // Buffers reused from vertex to vertex.
        let (mut support, mut tight) = std::mem::take(&mut self.scratch);
        support.clear();
        support.extend((0..self.dims).filter(|&i| labels >> i & 1 == 0));
        tight.clear();
        tight.extend((0..t.rows()).filter(|&j| labels >> (self.dims + j) & 1 == 1));
        let go_on = support.is_empty() || self.matched(t, labels, &support, &tight);
        self.scratch = (support, tight);
        go_on
    }

    fn stopped(&self) -> bool {
        self.done.load(AtomicOrdering::Relaxed)
    }
}

impl Matcher<'_> {
    /// Pairs the vertex of `t` (support `support`, tight constraints `tight`) with the
    /// other polytope's points that complete its labels; false to stop the search.
    fn matched<T: Ring>(
        &mut self,
        t: &Tableau<T>,
        labels: u128,
        support: &[usize],
        tight: &[usize],
    ) -> bool {
        let face = if labels.count_ones() as usize != self.dims {
            Face::Singular
        } else {
            match self.other_small {
                Some(small) => match solve_face(small, support, tight) {
                    Ok(f) => f,
                    Err(Overflow) => solve_face(self.other, support, tight)
                        .expect("BigInt arithmetic cannot overflow"),
                },
                None => solve_face(self.other, support, tight)
                    .expect("BigInt arithmetic cannot overflow"),
            }
        };
        let ys = match face {
            Face::Empty => return true,
            Face::Point(y) => vec![y],
            Face::Singular => match self.face_vertices(support, tight) {
                Ok(ys) => ys.iter().map(|y| Point::new(y)).collect(),
                Err(e) => {
                    self.error = Some(e);
                    return false;
                }
            },
        };
        if !ys.is_empty() {
            // The pairs are the answer, kept to the end: counted against the memory budget.
            let width = self.dims + self.other.first().map_or(0, Vec::len);
            let bytes = (ys.len() * width) as u64 * BigInt::ENTRY_BYTES;
            if let Err(e) = self.budget.take(bytes) {
                self.error = Some(e);
                return false;
            }
            let x = Point::new(&t.values(self.dims));
            self.pairs.extend(ys.into_iter().map(|y| (x.clone(), y)));
        }
        true
    }
}

/// A vertex divided by the gcd of its entries: a fraction-free vertex carries the
/// determinant as a factor, often past `i128`, while the equilibrium's own numbers are small,
/// and everything after the search (the exact check, the fractions) is cheaper on small
/// ones. Machine integers whenever every entry fits, so that one form is kept per vertex:
/// two points are equal exactly when they are the same mixed strategy (a vector of
/// nonnegative integers with gcd 1 is the only one of its ray).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Point {
    Small(Vec<i128>),
    Big(Vec<BigInt>),
}

impl Point {
    fn new<T: Ring>(v: &[T]) -> Point {
        use num_integer::Integer;
        use num_traits::One;
        if let Some(mut small) = v.iter().map(Ring::to_small).collect::<Option<Vec<_>>>() {
            // |i128::MIN| has no i128: such a vector stays big, even after division.
            if !small.contains(&i128::MIN) {
                let g = small
                    .iter()
                    .fold(0i128, |g, &t| crate::exact::gcd_i128(g, t));
                if g > 1 {
                    for t in &mut small {
                        *t /= g;
                    }
                }
                return Point::Small(small);
            }
        }
        let v: Vec<BigInt> = v.iter().map(Ring::to_big).collect();
        let g = v.iter().fold(BigInt::zero(), |g, t| g.gcd(t));
        if g.is_zero() || g.is_one() {
            return Point::Big(v);
        }
        let v: Vec<BigInt> = v.iter().map(|t| t / &g).collect();
        match v.iter().map(Ring::to_small).collect::<Option<Vec<_>>>() {
            Some(small) => Point::Small(small),
            None => Point::Big(v),
        }
    }

    fn to_big(&self) -> Vec<BigInt> {
        match self {
            Point::Small(v) => v.iter().map(Ring::to_big).collect(),
            Point::Big(v) => v.clone(),
        }
    }
}

/// The points `z ≥ 0` with `z` zero outside `cols`, `(N z)_i = 1` for `i` in `rows` and
/// `(N z)_i ≤ 1` elsewhere.
enum Face {
    Empty,
    /// The one point.
    Point(Point),
    /// `N[rows][cols]` is singular: there may be many.
    Singular,
}

/// Solves `N[rows][cols] z = 1` by fraction-free Gauss–Jordan elimination (`rows` and `cols`
/// of equal length) and tests the solution against the other constraints.
fn solve_face<T: Ring>(
    n: &[Vec<T>],
    rows: &[usize],
    cols: &[usize],
) -> std::result::Result<Face, Overflow> {
    let s = rows.len();
    if cols.len() != s {
        return Ok(Face::Singular);
    }
    // Row-major, each row `[N[i][cols] | 1]`: one allocation however large the face (this
    // runs at every vertex of the search).
    let w = s + 1;
    let mut a: Vec<T> = Vec::with_capacity(s * w);
    for &i in rows {
        a.extend(cols.iter().map(|&j| n[i][j].clone()));
        a.push(T::small(1));
    }
    let mut pivot_row: Vec<T> = Vec::with_capacity(w);
    let mut d = T::small(1);
    for c in 0..s {
        let Some(r) = (c..s).find(|&r| !a[r * w + c].is_zero_r()) else {
            return Ok(Face::Singular);
        };
        for j in 0..w {
            a.swap(c * w + j, r * w + j);
        }
        pivot_row.clear();
        pivot_row.extend_from_slice(&a[c * w..(c + 1) * w]);
        let p = pivot_row[c].clone();
        let dv = T::divisor(&d);
        for (i, row) in a.chunks_exact_mut(w).enumerate() {
            if i == c {
                continue;
            }
            let f = row[c].clone();
            // Columns left of `c` are zero but in their own pivot row, where `d` becomes `p`.
            for (x, y) in row.iter_mut().zip(&pivot_row).skip(c) {
                *x = x.pivot_by(&p, &f, y, &dv)?;
            }
            if i < c {
                row[i] = p.clone();
            }
        }
        d = p;
    }
    // Now a[c][c] = d for every c and a[c][s] = d · z_c: the point is the last column, with
    // `d`'s sign taken out.
    let negative = d.is_neg();
    let d = if negative { T::small(0).sub(&d)? } else { d };
    let mut point = vec![T::small(0); n.first().map_or(0, Vec::len)];
    for (&j, row) in cols.iter().zip(a.chunks_exact(w)) {
        let z = if negative {
            T::small(0).sub(&row[s])?
        } else {
            row[s].clone()
        };
        if z.is_neg() {
            return Ok(Face::Empty);
        }
        point[j] = z;
    }
    // The other rows' constraints; `rows` is increasing.
    let mut next = rows.iter().copied().peekable();
    for (i, row) in n.iter().enumerate() {
        if next.peek() == Some(&i) {
            next.next();
            continue;
        }
        let mut sum = T::small(0);
        for &j in cols {
            sum = sum.add(&row[j].mul(&point[j])?)?;
        }
        if sum > d {
            return Ok(Face::Empty);
        }
    }
    Ok(Face::Point(Point::new(&point)))
}

/// Connected components of the bipartite graph `pairs`, each with its maximal bicliques.
pub fn components(pairs: &[(usize, usize)], rows: usize, cols: usize) -> Vec<Component> {
    let mut parent: Vec<usize> = (0..rows + cols).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for &(r, c) in pairs {
        let (a, b) = (find(&mut parent, r), find(&mut parent, rows + c));
        parent[a] = b;
    }
    let mut by_root: FxHashMap<usize, Component> = FxHashMap::default();
    let mut order = Vec::new();
    for &(r, _) in pairs {
        let root = find(&mut parent, r);
        if let std::collections::hash_map::Entry::Vacant(e) = by_root.entry(root) {
            order.push(root);
            e.insert(Component {
                rows: Vec::new(),
                cols: Vec::new(),
                cliques: Vec::new(),
            });
        }
    }
    for r in 0..rows {
        let root = find(&mut parent, r);
        if let Some(c) = by_root.get_mut(&root) {
            c.rows.push(r);
        }
    }
    for c in 0..cols {
        let root = find(&mut parent, rows + c);
        if let Some(comp) = by_root.get_mut(&root) {
            comp.cols.push(c);
        }
    }
    let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); rows];
    for &(r, c) in pairs {
        neighbours[r].push(c);
    }
    for v in &mut neighbours {
        v.sort_unstable();
        v.dedup();
    }
    let mut out = Vec::new();
    for root in order {
        let mut comp = by_root.remove(&root).expect("recorded");
        comp.cliques = if comp.rows.len() == 1 && comp.cols.len() == 1 {
            // An isolated equilibrium, as nearly all are in a nondegenerate game: its own
            // only biclique, without the sets of the general search.
            vec![(comp.rows.clone(), comp.cols.clone())]
        } else {
            bicliques(&comp.rows, &neighbours)
        };
        out.push(comp);
    }
    out
}

/// Maximal bicliques: the column sets closed under "common neighbours of their common
/// neighbours" are exactly the intersections of row neighbourhoods, so close the family of
/// neighbourhoods under intersection and pair each set with the rows that see all of it.
fn bicliques(rows: &[usize], neighbours: &[Vec<usize>]) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut family: Vec<Vec<usize>> = Vec::new();
    let mut seen: FxHashSet<Vec<usize>> = FxHashSet::default();
    for &r in rows {
        if seen.insert(neighbours[r].clone()) {
            family.push(neighbours[r].clone());
        }
    }
    let mut i = 0;
    while i < family.len() {
        for &r in rows {
            let meet: Vec<usize> = family[i]
                .iter()
                .copied()
                .filter(|c| neighbours[r].binary_search(c).is_ok())
                .collect();
            if !meet.is_empty() && seen.insert(meet.clone()) {
                family.push(meet);
            }
        }
        i += 1;
    }
    let mut out: Vec<(Vec<usize>, Vec<usize>)> = family
        .into_iter()
        .map(|cs| {
            let rs: Vec<usize> = rows
                .iter()
                .copied()
                .filter(|&r| cs.iter().all(|c| neighbours[r].binary_search(c).is_ok()))
                .collect();
            (rs, cs)
        })
        .collect();
    out.sort();
    out
}
