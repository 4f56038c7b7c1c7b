//! Every extreme equilibrium of a two-player tree by vertex enumeration of the two
//! sequence-form polyhedra (von Stengel 1996; Audet, Belhaiza and Hansen 2009): the tree
//! counterpart of enumerating the best-response polytopes of a bimatrix game, at the size of
//! the tree rather than of its normal form.
//!
//! The first player's polyhedron holds her realisation plans `x` (`E x = e`, `x ≥ 0`)
//! together with the second player's best-response values `q`, one per information set of
//! his and one for the root, with `Bᵀx ≤ Fᵀq`: each of his sequences earns no more than the
//! value of its set. A pair `(x, q)`, `(y, p)` of the two polyhedra is an equilibrium exactly
//! when it is *complementary*: every sequence is either unplayed (`x_σ = 0`) or a best
//! response (its constraint in the other polyhedron tight). The extreme equilibria are such
//! pairs of vertices.
//!
//! The equations and free variables are eliminated before the search, so that each
//! polyhedron is `{z ≥ 0 : M z ≤ b}` with `b ≥ 0`, the form the shared integer tableau takes:
//! at each of her sets the first action's probability is what the set's sequence leaves to
//! the others, and each value `q` of his is written as the payoff of one designated sequence
//! of its set (a best response to her plan of first actions) plus that sequence's slack. At
//! `z = 0` (first actions; designated responses) every constraint holds, so the slack basis
//! is feasible and no first phase is needed. Every label is then one variable of the tableau.
//!
//! The polyhedra are degenerate (sets no plan reaches, ties in payoffs), so the search runs
//! over the *lexicographically feasible* bases only: those of the polyhedron with its
//! right-hand side perturbed by `ε, ε², …`, which is nondegenerate and has a vertex near every
//! vertex of the real one, so each pivot has one leaving row and a degenerate vertex is met in
//! a few of its bases instead of all of them. They are searched depth first with one tableau,
//! stepping back by the inverse pivot (as lrs does), with a set of the bases seen; pivots are
//! exact, in `i128` until they would overflow, then in big integers.
//!
//! A vertex's plan need not be extreme among the equilibrium strategies: the values of sets
//! the other player's own plan never reaches are free to grow, and the polyhedron has
//! vertices where two of their actions tie, at plans strictly between extreme ones. A pair is
//! therefore dropped when one of its plans is a mix of other plans found with the same
//! partner, each of which pairs with every partner it does; what is left are the extreme
//! equilibria.

use crate::core::budget::Limits;
use crate::core::error::{Error, Result};
use crate::exact::ring::{convert, with_fallback, Overflow, Ring};
use crate::exact::simplex::maximize;
use crate::exact::tableau::Tableau;
use crate::exact::Q;
use crate::extensive::seqform::SequenceForm;
use crate::extensive::Tree;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Zero};
use rustc_hash::{FxHashMap, FxHashSet};

/// The extreme equilibria of a two-player tree, as realisation plans.
#[derive(Debug, Clone)]
pub struct Enumeration {
    /// Each equilibrium: the two players' realisation plans (indexed by
    /// [`SequenceForm`]'s sequences).
    pub plans: Vec<[Vec<Q>; 2]>,
    /// The vertices of each player's polyhedron.
    pub vertices: [usize; 2],
    /// Feasible bases visited in both.
    pub bases: u64,
}

/// Every extreme equilibrium of the two-player tree `tree` (perfect recall needed).
pub fn enumerate(tree: &Tree, limits: &Limits) -> Result<Enumeration> {
    if tree.players.len() != 2 {
        return Err(Error::Invalid(format!(
            "sequence-form enumeration is for two-player trees; this one has {} players",
            tree.players.len()
        )));
    }
    let form = SequenceForm::new(tree)?;
    let counts = [form.players[0].count, form.players[1].count];
    let labels = counts[0] + counts[1];
    crate::core::budget::check_memory(
        "the sequence form's payoff matrices and polyhedra",
        dense_bytes(&form),
        limits.max_memory,
    )?;
    // The polyhedron of each player's plans carries the other's payoffs.
    let polys = [
        Polyhedron::new(&form, tree, 0, &form.payoff_matrix(1, 0)),
        Polyhedron::new(&form, tree, 1, &form.payoff_matrix(0, 1)),
    ];
    crate::core::progress::phase("sequence-form enumeration: bases visited", 0);
    let mut bases = 0;
    let mut found: Vec<Vec<Vertex>> = Vec::new();
    for poly in &polys {
        let (v, b) = poly.vertices(labels, limits, bases)?;
        bases += b;
        found.push(v);
    }
    // Complementary pairs: together they carry every label.
    let all = {
        let mut b = vec![0u64; labels.div_ceil(64)];
        for i in 0..labels {
            b[i / 64] |= 1 << (i % 64);
        }
        b
    };
    // The second polyhedron's vertices by label, so that each vertex of the first is
    // checked only against those carrying its rarest missing label.
    let mut with_label: Vec<Vec<usize>> = vec![Vec::new(); labels];
    for (j, v) in found[1].iter().enumerate() {
        for (l, list) in with_label.iter_mut().enumerate() {
            if v.labels[l / 64] >> (l % 64) & 1 == 1 {
                list.push(j);
            }
        }
    }
    let mut pairs: Vec<[Vec<Q>; 2]> = Vec::new();
    let mut seen: FxHashSet<[Vec<Q>; 2]> = FxHashSet::default();
    let mut plans1: FxHashMap<usize, Vec<Q>> = FxHashMap::default();
    for (i, u) in found[0].iter().enumerate() {
        let missing = (0..labels).filter(|&l| u.labels[l / 64] >> (l % 64) & 1 == 0);
        let Some(rarest) = missing.min_by_key(|&l| with_label[l].len()) else {
            continue;
        };
        let mut plan0 = None;
        for &j in &with_label[rarest] {
            let v = &found[1][j];
            let covers = u
                .labels
                .iter()
                .zip(&v.labels)
                .zip(&all)
                .all(|((a, b), c)| a | b == *c);
            if covers {
                let x = plan0.get_or_insert_with(|| polys[0].plan_of(u)).clone();
                let y = plans1
                    .entry(j)
                    .or_insert_with(|| polys[1].plan_of(v))
                    .clone();
                let pair = [x, y];
                if seen.insert(pair.clone()) {
                    pairs.push(pair);
                }
            }
        }
        if i % 256 == 0 {
            crate::core::progress::check()?;
        }
    }
    let mut plans = extreme_only(pairs)?;
    // Plans of first actions first, for an order that does not depend on hashing.
    plans.sort_by(|a, b| b.cmp(a));
    Ok(Enumeration {
        plans,
        vertices: [found[0].len(), found[1].len()],
        bases,
    })
}

/// A vertex of a sequence-form polyhedron: its labels (the sequences it leaves unplayed, of
/// its own player, and the other's sequences that are best responses, as bits over both
/// players' sequences) and its player's plan.
struct Vertex {
    labels: Vec<u64>,
    /// The tableau's `z` (numerators over `den`), from which the plan is computed when the
    /// vertex is in an equilibrium.
    z: Vec<BigInt>,
    den: BigInt,
}

/// An affine function of the tableau's variables `z`: constant and coefficients.
#[derive(Clone)]
struct Affine {
    c: Q,
    a: Vec<Q>,
}

impl Affine {
    fn zero(d: usize) -> Self {
        Affine {
            c: Q::zero(),
            a: vec![Q::zero(); d],
        }
    }

    fn add_scaled(&mut self, other: &Affine, k: &Q) {
        self.c += &other.c * k;
        for (x, y) in self.a.iter_mut().zip(&other.a) {
            if !y.is_zero() {
                *x += y * k;
            }
        }
    }
}

/// One player's polyhedron as `{z ≥ 0 : M z ≤ b}`.
struct Polyhedron {
    m: Vec<Vec<BigInt>>,
    b: Vec<BigInt>,
    /// The global label of each tableau variable: the `z`s, then the rows' slacks.
    label: Vec<usize>,
    /// The player's plan as a function of `z`.
    plan: Vec<Affine>,
}

impl Polyhedron {
    /// Player `me`'s polyhedron; `pay[σ][τ]` is the other player's payoff between `me`'s
    /// sequence `σ` and his `τ`.
    fn new(form: &SequenceForm, tree: &Tree, me: usize, pay: &[Vec<Q>]) -> Self {
        let other = 1 - me;
        let (sm, so) = (&form.players[me], &form.players[other]);
        let offset = |p: usize| if p == 0 { 0 } else { form.players[0].count };
        let actions = |h: usize| tree.infosets[h].actions.len();
        // The z's: her non-first actions' sequences, then one slack per set of his and the
        // root's.
        let mut var_of = vec![usize::MAX; sm.count];
        let mut label = Vec::new();
        for (k, &h) in sm.infosets.iter().enumerate() {
            for a in 1..actions(h) {
                var_of[sm.first[k] + a] = label.len();
                label.push(offset(me) + sm.first[k] + a);
            }
        }
        let du = label.len();
        let ko = so.infosets.len();
        let d = du + ko + 1;
        let mut plan = vec![Affine::zero(d); sm.count];
        plan[0].c = Q::one();
        for (k, &h) in sm.infosets.iter().enumerate() {
            let f = sm.first[k];
            let mut first = plan[sm.parent[k]].clone();
            for a in 1..actions(h) {
                plan[f + a].a[var_of[f + a]] = Q::one();
                first.a[var_of[f + a]] -= Q::one();
            }
            plan[f] = first;
        }
        // His payoff from each of his sequences, as a function of her plan.
        let mut gain = vec![Affine::zero(d); so.count];
        for (s, row) in pay.iter().enumerate() {
            for (t, w) in row.iter().enumerate() {
                if !w.is_zero() {
                    gain[t].add_scaled(&plan[s], w);
                }
            }
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); so.count];
        for k in 0..ko {
            children[so.parent[k]].push(k);
        }
        // His best responses to her first actions: the designated sequences.
        let mut best = vec![Q::zero(); ko];
        let mut designated = vec![0; ko];
        for k in (0..ko).rev() {
            let value = |a: usize| {
                let t = so.first[k] + a;
                children[t]
                    .iter()
                    .fold(gain[t].c.clone(), |acc, &c| acc + &best[c])
            };
            let mut top = value(0);
            for a in 1..actions(so.infosets[k]) {
                let v = value(a);
                if v > top {
                    top = v;
                    designated[k] = a;
                }
            }
            best[k] = top;
        }
        // q_k = gain of the designated sequence + its children's values + its slack.
        let one = Q::one();
        let mut q = vec![Affine::zero(d); ko];
        let value_of = |t: usize, q: &[Affine]| {
            let mut v = gain[t].clone();
            for &c in &children[t] {
                v.add_scaled(&q[c], &one);
            }
            v
        };
        for k in (0..ko).rev() {
            let mut v = value_of(so.first[k] + designated[k], &q);
            v.a[du + k] = Q::one();
            q[k] = v;
        }
        for (f, a) in so.first.iter().zip(&designated) {
            label.push(offset(other) + f + a);
        }
        label.push(offset(other));
        // The rows, each an affine e(z) ≥ 0: her first actions, then his other sequences.
        let mut rows: Vec<(Affine, usize)> = Vec::new();
        for &f in &sm.first {
            rows.push((plan[f].clone(), offset(me) + f));
        }
        for k in 0..ko {
            for a in 0..actions(so.infosets[k]) {
                if a == designated[k] {
                    continue;
                }
                let t = so.first[k] + a;
                let mut e = q[k].clone();
                e.add_scaled(&value_of(t, &q), &-Q::one());
                rows.push((e, offset(other) + t));
            }
        }
        // The root's value is free apart from its slack, so it adds no row.
        let (mut m, mut b) = (Vec::new(), Vec::new());
        for (e, l) in rows {
            debug_assert!(e.c >= Q::zero(), "the start is a best response");
            let scale =
                e.a.iter()
                    .fold(e.c.denom().clone(), |s, x| s.lcm(x.denom()));
            let int = |x: &Q| (x * Q::from_integer(scale.clone())).to_integer();
            m.push(e.a.iter().map(|x| -int(x)).collect());
            b.push(int(&e.c));
            label.push(l);
        }
        Polyhedron { m, b, label, plan }
    }

    /// Every vertex, and the bases visited; `before` bases were visited by earlier searches
    /// (for the progress display and the limit).
    fn vertices(&self, labels: usize, limits: &Limits, before: u64) -> Result<(Vec<Vertex>, u64)> {
        // Rows times columns of the tableau: the steps of one pivot.
        let pivot = (self.b.len() as u64).saturating_mul(self.label.len() as u64 + 1);
        crate::core::budget::check_work(
            "a pivot of sequence-form enumeration",
            pivot,
            limits.max_work,
        )?;
        with_fallback(
            || self.search::<i128>(labels, limits, before),
            || self.search::<BigInt>(labels, limits, before),
        )
    }

    fn search<T: Ring>(
        &self,
        labels: usize,
        limits: &Limits,
        before: u64,
    ) -> std::result::Result<Result<(Vec<Vertex>, u64)>, Overflow> {
        if self.b.is_empty() {
            // No constraints but z ≥ 0: the origin is the one vertex.
            let mut bits = vec![0u64; labels.div_ceil(64)];
            for &l in &self.label {
                bits[l / 64] |= 1 << (l % 64);
            }
            let vertex = Vertex {
                labels: bits,
                z: vec![BigInt::zero(); self.label.len()],
                den: BigInt::one(),
            };
            return Ok(Ok((vec![vertex], 1)));
        }
        let b: Vec<T> = match convert::<T>(std::slice::from_ref(&self.b)) {
            Some(mut v) => v.pop().unwrap_or_default(),
            None => return Err(Overflow),
        };
        let Some(m) = convert::<T>(&self.m) else {
            return Err(Overflow);
        };
        let d = self
            .m
            .first()
            .map_or(self.label.len() - self.b.len(), Vec::len);
        let mut t = Tableau::new(m, b);
        let vars = t.rhs();
        let key_words = vars.div_ceil(64);
        let key = |t: &Tableau<T>| {
            let mut w = vec![0u64; key_words];
            for &v in &t.basis {
                w[v / 64] |= 1 << (v % 64);
            }
            w
        };
        let per_basis = 8 * key_words as u64 + 64;
        // A vertex keeps its labels and its coordinates as big integers.
        let per_vertex = 8 * labels.div_ceil(64) as u64 * 2 + 48 * d as u64 + 128;
        let per_pivot = (t.t.len() as u64).saturating_mul(vars as u64 + 1).max(1);
        let mut seen: FxHashSet<Vec<u64>> = FxHashSet::default();
        let mut vertices: FxHashMap<Vec<u64>, Vertex> = FxHashMap::default();
        seen.insert(key(&t));
        self.visit(&t, d, labels, &mut vertices);
        // Frames: the next entering column to try and the pivot that undoes the step down to
        // this basis.
        let mut stack: Vec<(usize, Option<(usize, usize)>)> = vec![(0, None)];
        let ties: Vec<usize> = (d..vars).collect();
        while let Some(frame) = stack.last_mut() {
            let mut next = None;
            while frame.0 < vars {
                let e = frame.0;
                frame.0 += 1;
                if t.basis.contains(&e) {
                    continue;
                }
                let Some(r) = t.lex_min_ratio_row(e, &ties)? else {
                    continue;
                };
                let mut nk = key(&t);
                let u = t.basis[r];
                nk[u / 64] &= !(1 << (u % 64));
                nk[e / 64] |= 1 << (e % 64);
                if !seen.contains(&nk) {
                    next = Some((r, e, nk));
                    break;
                }
            }
            match next {
                Some((r, e, nk)) => {
                    let u = t.basis[r];
                    t.pivot(r, e)?;
                    seen.insert(nk);
                    let n = seen.len() as u64;
                    if n > limits.max_states {
                        return Ok(Err(Error::StateLimit {
                            explored: n,
                            limit: limits.max_states,
                            what: "a sequence-form polyhedron's bases".into(),
                        }));
                    }
                    // Each pivot costs the tableau's entries: the work budget counts them, every
                    // pivot when pivots are dear, every 1024 when they are cheap.
                    if n % 1024 == 0 || per_pivot > 1 << 16 {
                        let held = n * per_basis + vertices.len() as u64 * per_vertex;
                        let work = (before + n).saturating_mul(per_pivot);
                        if let Err(e) = within_budgets(before + n, held, work, limits) {
                            return Ok(Err(e));
                        }
                    }
                    self.visit(&t, d, labels, &mut vertices);
                    stack.push((0, Some((e, u))));
                }
                None => {
                    if let Some((_, Some((e, u)))) = stack.pop() {
                        let r = t
                            .basis
                            .iter()
                            .position(|&v| v == e)
                            .expect("the entered variable is basic");
                        t.pivot(r, u)?;
                    }
                }
            }
        }
        Ok(Ok((vertices.into_values().collect(), seen.len() as u64)))
    }

    /// Records the vertex of the tableau's basis if it is new.
    fn visit<T: Ring>(
        &self,
        t: &Tableau<T>,
        d: usize,
        labels: usize,
        vertices: &mut FxHashMap<Vec<u64>, Vertex>,
    ) {
        let rhs = t.rhs();
        let mut bits = vec![0u64; labels.div_ceil(64)];
        let mut basic = vec![false; rhs];
        for (i, &v) in t.basis.iter().enumerate() {
            basic[v] = true;
            if t.t[i][rhs].is_zero_r() {
                let l = self.label[v];
                bits[l / 64] |= 1 << (l % 64);
            }
        }
        for (v, &is_basic) in basic.iter().enumerate() {
            if !is_basic {
                let l = self.label[v];
                bits[l / 64] |= 1 << (l % 64);
            }
        }
        if vertices.contains_key(&bits) {
            return;
        }
        let z = t.values(d).iter().map(Ring::to_big).collect();
        let den = t.d.to_big();
        vertices.insert(
            bits.clone(),
            Vertex {
                labels: bits,
                z,
                den,
            },
        );
    }

    /// The plan of a vertex.
    fn plan_of(&self, v: &Vertex) -> Vec<Q> {
        let z: Vec<Q> =
            v.z.iter()
                .map(|x| Q::new(x.clone(), v.den.clone()))
                .collect();
        self.plan
            .iter()
            .map(|e| {
                e.a.iter()
                    .zip(&z)
                    .filter(|(a, _)| !a.is_zero())
                    .fold(e.c.clone(), |s, (a, x)| s + a * x)
            })
            .collect()
    }
}

/// The pairs whose plans are not mixes of others (see the module's notes): a plan is dropped
/// when it is a convex combination of other plans found with the same partner, each of which
/// has every partner it has.
fn extreme_only(pairs: Vec<[Vec<Q>; 2]>) -> Result<Vec<[Vec<Q>; 2]>> {
    let mut drop = vec![false; pairs.len()];
    for side in 0..2 {
        // partners[plan] = the other side's plans it pairs with.
        let mut partners: FxHashMap<&Vec<Q>, FxHashSet<&Vec<Q>>> = FxHashMap::default();
        for p in &pairs {
            partners.entry(&p[side]).or_default().insert(&p[1 - side]);
        }
        for (i, p) in pairs.iter().enumerate() {
            let mine = &partners[&p[side]];
            let others: Vec<&Vec<Q>> = pairs
                .iter()
                .filter(|o| o[1 - side] == p[1 - side] && o[side] != p[side])
                .map(|o| &o[side])
                .filter(|o| mine.is_subset(&partners[*o]))
                .collect();
            if others.len() >= 2 && in_hull(&p[side], &others)? {
                drop[i] = true;
            }
        }
    }
    Ok(pairs
        .into_iter()
        .zip(drop)
        .filter(|(_, d)| !d)
        .map(|(p, _)| p)
        .collect())
}

/// Whether the realisation plan `x` is a convex combination of the plans `points`. Plans are
/// nonnegative with `x_∅ = 1`, so it is enough that some `λ ≥ 0` has `Σ λ_i p_i ≤ x` with
/// every row tight, which an LP in the exact simplex's form (`b = x ≥ 0`) decides: the
/// largest weighted sum of the rows reaches the weighted sum of `x` exactly then.
pub fn in_hull(x: &[Q], points: &[&Vec<Q>]) -> Result<bool> {
    let scales: Vec<BigInt> = (0..x.len())
        .map(|i| {
            points
                .iter()
                .fold(x[i].denom().clone(), |s, p| s.lcm(p[i].denom()))
        })
        .collect();
    let int = |q: &Q, s: &BigInt| (q * Q::from_integer(s.clone())).to_integer();
    let a: Vec<Vec<BigInt>> = (0..x.len())
        .map(|i| points.iter().map(|p| int(&p[i], &scales[i])).collect())
        .collect();
    let b: Vec<BigInt> = (0..x.len()).map(|i| int(&x[i], &scales[i])).collect();
    let c: Vec<BigInt> = (0..points.len())
        .map(|j| a.iter().map(|row| &row[j]).sum())
        .collect();
    let target: BigInt = b.iter().sum();
    let lp = maximize(&a, &b, &c)?;
    Ok(lp.value == Q::from_integer(target))
}

/// The enumeration's progress, and its memory (bases and vertices held) and work (pivots
/// times the tableau's entries) checked against the budgets.
fn within_budgets(bases: u64, held: u64, work: u64, limits: &Limits) -> Result<()> {
    crate::core::progress::tick(bases)?;
    crate::core::budget::check_memory(
        "the bases and vertices seen by sequence-form enumeration",
        held,
        limits.max_memory,
    )?;
    crate::core::budget::check_work(
        "the pivots of sequence-form enumeration",
        work,
        limits.max_work,
    )
}

/// Bytes the dense matrices of the enumeration take before it starts: the two payoff
/// matrices (a rational a pair of sequences), and for each player the plans, the gains and
/// the tableau (a rational, then a 128-bit integer, an entry), each about as wide as the
/// player's sequences and the other's information sets.
fn dense_bytes(form: &SequenceForm) -> u64 {
    let q = std::mem::size_of::<Q>() as u64 + 16;
    let c = [form.players[0].count as u64, form.players[1].count as u64];
    let k = [
        form.players[0].infosets.len() as u64,
        form.players[1].infosets.len() as u64,
    ];
    let mut bytes = 2u64
        .saturating_mul(c[0])
        .saturating_mul(c[1])
        .saturating_mul(q);
    for p in 0..2 {
        let d = c[p].saturating_add(k[1 - p]).saturating_add(1);
        let rows = c[0].saturating_add(c[1]).saturating_add(d);
        let tableau = (c[1 - p] + 1).saturating_mul(d.saturating_add(c[1 - p]) + 2);
        bytes = bytes
            .saturating_add(rows.saturating_mul(d).saturating_mul(q))
            .saturating_add(tableau.saturating_mul(q + 16));
    }
    bytes
}
