//! All extreme equilibria of a two-player game by vertex enumeration of the best-response
//! polytopes, and the Nash components they form (the method of lrsnash and Gambit's
//! enummixed; Avis, Rosenberg, Savani and von Stengel, "Enumeration of Nash equilibria for
//! two-player games", Economic Theory 2010).
//!
//! A mixed equilibrium, rescaled, is a pair of vertices `x ∈ P`, `y ∈ Q` other than the origin
//! that together carry every label. The vertices of each polytope are found by a search of its
//! graph of feasible bases (connected, so a walk from the slack basis meets them all; a
//! degenerate vertex has several bases, each visited once), each basis pivoted exactly in
//! integers. Labels are bit sets, which limits this method to `m + n ≤ 128` strategies —
//! far past where the number of vertices makes it hopeless anyway.
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

/// A vertex of `{z ≥ 0 : M z ≤ 1}`.
#[derive(Debug, Clone)]
pub struct Vertex {
    /// Its coordinates, up to a common positive factor.
    pub point: Vec<BigInt>,
    /// Bit `i` for `z_i = 0`, bit `d + j` for constraint `j` tight.
    pub labels: u128,
}

/// Every vertex of `{z ≥ 0 : M z ≤ 1}` for a positive matrix `M` (`k` rows, `d` columns,
/// `d + k ≤ 128`), the origin first. Stops with an error past `limit` bases.
pub fn polytope_vertices(mat: &[Vec<BigInt>], limit: u64) -> Result<(Vec<Vertex>, u64)> {
    let k = mat.len();
    let d = mat.first().map_or(0, Vec::len);
    if d + k > 128 {
        return Err(Error::Invalid(format!(
            "vertex enumeration handles up to 128 strategies in all, this game has {}: use \
             --method lh for one equilibrium of a large game",
            d + k
        )));
    }
    with_fallback(
        || search::<i128>(mat, limit),
        || search::<BigInt>(mat, limit),
    )
}

fn search<T: Ring>(
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
    crate::progress::phase("vertex enumeration: bases visited", 0);
    let (pv, pb) = polytope_vertices(&g.b_transposed(), limit)?;
    let (qv, qb) = polytope_vertices(&g.a, limit)?;
    // Q's local labels: its variables are the columns (game labels m..), its constraints rows.
    let q_labels = |l: u128| -> u128 {
        let vars = l & ((1u128 << n) - 1);
        let cons = l >> n;
        vars << m | cons
    };
    let full = all_bits(m + n);
    let qs: Vec<(usize, u128)> = qv
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, v)| (i, q_labels(v.labels)))
        .collect();
    let mut pairs = Vec::new();
    let mut equilibria = Vec::new();
    let mut rows: FxHashMap<usize, usize> = FxHashMap::default();
    let mut cols: FxHashMap<usize, usize> = FxHashMap::default();
    let mut row_strategies = Vec::new();
    let mut col_strategies = Vec::new();
    for (pi, p) in pv.iter().enumerate().skip(1) {
        for &(qi, ql) in &qs {
            if p.labels | ql != full {
                continue;
            }
            let eq = g
                .equilibrium(&p.point, &qv[qi].point)
                .ok_or_else(|| Error::Invalid("internal inconsistency: a completely labelled vertex pair is not an equilibrium".into()))?;
            let r = *rows.entry(pi).or_insert_with(|| {
                row_strategies.push(eq.profile[0].clone());
                row_strategies.len() - 1
            });
            let c = *cols.entry(qi).or_insert_with(|| {
                col_strategies.push(eq.profile[1].clone());
                col_strategies.len() - 1
            });
            pairs.push((r, c));
            equilibria.push(eq);
        }
    }
    let components = components(&pairs, row_strategies.len(), col_strategies.len());
    Ok(Enumeration {
        equilibria,
        pairs,
        row_strategies,
        col_strategies,
        components,
        vertices: (pv.len(), qv.len()),
        bases: pb + qb,
    })
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
