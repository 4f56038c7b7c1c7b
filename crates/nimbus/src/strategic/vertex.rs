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
//! The two polytopes are searched at once, one per core, each basis pivoted exactly in
//! integers; each vertex is kept as its labels and its basis (32 bytes), and the pairs are
//! found by looking up the labels a vertex of `P` lacks, so the join costs one hash lookup
//! per vertex (plus a scan for the few degenerate vertices) instead of one test per pair of
//! vertices. Coordinates are computed only for the vertices in equilibria. Labels are bit
//! sets, which limits this method to `m + n ≤ 128` strategies — far past where the number of
//! vertices makes it hopeless anyway.
//!
//! In a degenerate game the extreme equilibria may be interchangeable: if `(x, y)`, `(x, y')`,
//! `(x', y)` and `(x', y')` all are equilibria, so is every mix of `x, x'` against every mix of
//! `y, y'`. The maximal such sets (maximal bicliques of the bipartite graph of extreme
//! equilibria) are convex sets of equilibria, and the connected components of the graph are
//! the game's components of equilibria.

use super::bimatrix::{Bimatrix, Equilibrium};
use super::ring::{convert, with_fallback, Overflow, Ring};
use super::tableau::Tableau;
use crate::error::{Error, Result};
use num_bigint::BigInt;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

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
    let (found, bases) = reverse_search_vertices(mat, limit, &AtomicU64::new(0))?;
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
             --method lh for one equilibrium of a large game"
        )));
    }
    Ok(())
}

/// Every vertex of `{z ≥ 0 : M z ≤ 1}` for a positive matrix `M` (`d + k ≤ 128`), the origin
/// first, by reverse search, and the number of feasible bases. `visited` counts bases across
/// the searches running at once, for the progress display.
fn reverse_search_vertices(
    mat: &[Vec<BigInt>],
    limit: u64,
    visited: &AtomicU64,
) -> Result<(Vec<Found>, u64)> {
    // On overflow the search goes on in big integers from the basis where machine integers
    // ran out, not from the start: the bases already visited keep their vertices.
    let mut big = match Search::<i128>::start(mat) {
        Some(mut small) => match small.run(limit, visited) {
            Ok(r) => return r.map(|()| (small.found, small.bases)),
            Err(Overflow) => small.widen(),
        },
        None => Search::<BigInt>::start(mat).expect("BigInt holds every entry"),
    };
    big.run(limit, visited)
        .expect("BigInt arithmetic cannot overflow")
        .map(|()| (big.found, big.bases))
}

/// A reverse search in progress: the path of frames from the origin's basis (each a tableau
/// and the next candidate pivot, entering column times k plus row, to try from it), the
/// vertices found and the bases visited. Its depth is the length of a Bland path to the
/// origin, not the number of bases seen.
struct Search<T> {
    stack: Vec<(Tableau<T>, usize)>,
    found: Vec<Found>,
    bases: u64,
}

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
        let found = vec![Found {
            labels: vertex_labels(&root),
            basis: basis_mask(&root),
        }];
        Some(Search {
            stack: vec![(root, 0)],
            found,
            bases: 1,
        })
    }

    /// Runs to the end. On [`Overflow`] the search is left as it was before the step that
    /// overflowed, so that it can go on in wider integers.
    fn run(
        &mut self,
        limit: u64,
        visited: &AtomicU64,
    ) -> std::result::Result<Result<()>, Overflow> {
        while let Some((t, cursor)) = self.stack.last_mut() {
            let child = next_child(t, cursor)?;
            let Some((s, r)) = child else {
                self.stack.pop();
                continue;
            };
            let mut u = t.clone();
            u.pivot(r, s)?;
            *cursor += 1;
            self.bases += 1;
            if self.bases > limit {
                return Ok(Err(Error::StateLimit {
                    explored: self.bases,
                    limit,
                    what: "a best-response polytope's bases".into(),
                }));
            }
            if self.bases % 1024 == 0 {
                let all = visited.fetch_add(1024, AtomicOrdering::Relaxed) + 1024;
                if let Err(e) = crate::progress::tick(all) {
                    return Ok(Err(e));
                }
            }
            if is_lexmin(&u) {
                self.found.push(Found {
                    labels: vertex_labels(&u),
                    basis: basis_mask(&u),
                });
            }
            self.stack.push((u, 0));
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
        Search {
            stack,
            found: self.found,
            bases: self.bases,
        }
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
) -> std::result::Result<Option<(usize, usize)>, Overflow> {
    let k = t.rows();
    let rhs = t.rhs();
    let basic = basis_mask(t);
    let obj = &t.t[k];
    let mut rows = Vec::new();
    while *cursor < rhs * k {
        let (s, first_row) = (*cursor / k, *cursor % k);
        if basic >> s & 1 == 1 || !obj[s].is_pos() {
            *cursor = (s + 1) * k;
            continue;
        }
        least_ratio_rows(t, s, &mut rows)?;
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

/// The rows, in increasing order, of least ratio `b_i / a_is` among those with `a_is > 0`.
fn least_ratio_rows<T: Ring>(
    t: &Tableau<T>,
    s: usize,
    rows: &mut Vec<usize>,
) -> std::result::Result<(), Overflow> {
    let rhs = t.rhs();
    rows.clear();
    for i in 0..t.rows() {
        if !t.t[i][s].is_pos() {
            continue;
        }
        match rows.first() {
            None => rows.push(i),
            Some(&r) => match t.cmp_ratio(i, r, s, rhs)? {
                std::cmp::Ordering::Less => {
                    rows.clear();
                    rows.push(i);
                }
                std::cmp::Ordering::Equal => rows.push(i),
                std::cmp::Ordering::Greater => {}
            },
        }
    }
    Ok(())
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
            if let Err(e) = crate::progress::tick(seen.len() as u64) {
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
    /// The distinct row strategies of extreme equilibria.
    pub row_strategies: Vec<Vec<super::Q>>,
    /// The distinct column strategies of extreme equilibria.
    pub col_strategies: Vec<Vec<super::Q>>,
    /// The components of equilibria.
    pub components: Vec<Component>,
    /// Vertices of `P` and of `Q`, the origins included.
    pub vertices: (usize, usize),
    /// Bases visited in both polytopes.
    pub bases: u64,
}

/// Every extreme equilibrium and every component, by vertex enumeration.
pub fn enumerate(g: &Bimatrix, limit: u64) -> Result<Enumeration> {
    let (m, n) = (g.m, g.n);
    check_size(m + n)?;
    crate::progress::phase("vertex enumeration: bases visited", 0);
    let (p_mat, q_mat) = (g.b_transposed(), g.a.clone());
    let visited = AtomicU64::new(0);
    let (pv, qv) = rayon::join(
        || reverse_search_vertices(&p_mat, limit, &visited),
        || reverse_search_vertices(&q_mat, limit, &visited),
    );
    let ((pv, pb), (qv, qb)) = (pv?, qv?);
    let pairs = complementary_pairs(&pv, &qv, m, n);
    let mut equilibria = Vec::new();
    let mut index_pairs = Vec::new();
    let mut rows: FxHashMap<usize, usize> = FxHashMap::default();
    let mut cols: FxHashMap<usize, usize> = FxHashMap::default();
    let mut row_strategies = Vec::new();
    let mut col_strategies = Vec::new();
    let mut p_points: FxHashMap<usize, Vec<BigInt>> = FxHashMap::default();
    let mut q_points: FxHashMap<usize, Vec<BigInt>> = FxHashMap::default();
    for (pi, qi) in pairs {
        let x = p_points
            .entry(pi)
            .or_insert_with(|| vertex_point(&p_mat, pv[pi].basis));
        let y = q_points
            .entry(qi)
            .or_insert_with(|| vertex_point(&q_mat, qv[qi].basis));
        let eq = g.equilibrium(x, y).ok_or_else(|| {
            Error::Invalid(
                "internal inconsistency: a completely labelled vertex pair is not an equilibrium"
                    .into(),
            )
        })?;
        let r = *rows.entry(pi).or_insert_with(|| {
            row_strategies.push(eq.profile[0].clone());
            row_strategies.len() - 1
        });
        let c = *cols.entry(qi).or_insert_with(|| {
            col_strategies.push(eq.profile[1].clone());
            col_strategies.len() - 1
        });
        index_pairs.push((r, c));
        equilibria.push(eq);
    }
    let components = components(&index_pairs, row_strategies.len(), col_strategies.len());
    Ok(Enumeration {
        equilibria,
        pairs: index_pairs,
        row_strategies,
        col_strategies,
        components,
        vertices: (pv.len(), qv.len()),
        bases: pb + qb,
    })
}

/// The pairs `(i, j)` of vertices `P[i]`, `Q[j]` other than the origins whose labels together
/// are all `m + n`, in order of `i`, then `j`. A vertex of `P` with exactly `m` labels (the
/// usual case) needs a vertex of `Q` with every label it lacks: a vertex of `Q` with exactly
/// `n` labels must have precisely those, found by one lookup; the vertices of `Q` with more
/// (degenerate ones) are tested one by one, as are all of `Q` for a degenerate vertex of `P`.
fn complementary_pairs(pv: &[Found], qv: &[Found], m: usize, n: usize) -> Vec<(usize, usize)> {
    // Q's local labels: its variables are the columns (game labels m..), its constraints rows.
    let q_labels = |l: u128| -> u128 {
        let vars = l & all_bits(n);
        let cons = l >> n;
        vars << m | cons
    };
    let full = all_bits(m + n);
    let qs: Vec<u128> = qv.iter().map(|v| q_labels(v.labels)).collect();
    let mut exact: FxHashMap<u128, Vec<usize>> = FxHashMap::default();
    let mut degenerate = Vec::new();
    for (j, &l) in qs.iter().enumerate().skip(1) {
        if l.count_ones() as usize == n {
            exact.entry(l).or_default().push(j);
        } else {
            degenerate.push(j);
        }
    }
    let mut pairs = Vec::new();
    let mut hits = Vec::new();
    for (i, p) in pv.iter().enumerate().skip(1) {
        hits.clear();
        if p.labels.count_ones() as usize == m {
            if let Some(js) = exact.get(&(full & !p.labels)) {
                hits.extend_from_slice(js);
            }
            hits.extend(degenerate.iter().filter(|&&j| p.labels | qs[j] == full));
            hits.sort_unstable();
        } else {
            hits.extend((1..qs.len()).filter(|&j| p.labels | qs[j] == full));
        }
        pairs.extend(hits.iter().map(|&j| (i, j)));
    }
    pairs
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
        comp.cliques = bicliques(&comp.rows, &neighbours);
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
