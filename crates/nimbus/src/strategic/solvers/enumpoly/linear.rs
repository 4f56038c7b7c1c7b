//! Support profiles where at most two players mix: each one's indifferences are linear in the
//! other's probabilities, and exact linear algebra solves them.

use super::*;

/// What linear algebra decides on a support profile where at most two players mix.
#[derive(Debug, PartialEq)]
pub(super) enum Linear {
    /// No equilibrium has this support profile.
    Nothing,
    /// The one equilibrium with this support profile (probabilities in the order of the
    /// supports).
    Equilibrium(Vec<Q>),
    /// Not decided here: more than two players mix, or the solutions are not isolated.
    General,
}

/// The equilibria of a support profile on which at most two players mix, by exact linear
/// algebra instead of subdivision: the others play one strategy each, so each mixing player's
/// indifferences are linear in the other mixing player's probabilities alone, and the system
/// splits into two linear systems (each with that player's probabilities summing to one).
/// On random games most of the support profiles that survive conditional dominance are of
/// this kind, and their subdivision and certification cost far more than this. A system with
/// a continuum of solutions (dependent columns, or one player mixing alone among equal
/// payoffs) is left to the general method, which reports continua.
pub(super) fn linear_support<T: Ring>(
    pay: &Payoffs,
    table: &[Vec<T>],
    support: &[Vec<usize>],
    all_bases: &[Vec<usize>],
) -> std::result::Result<Linear, Overflow> {
    let mixing: Vec<usize> = (0..support.len())
        .filter(|&i| support[i].len() > 1)
        .collect();
    if mixing.len() > 2 {
        return Ok(Linear::General);
    }
    // Each player's probabilities over its support: numerators and a positive denominator.
    let mut probs: Vec<(Vec<T>, T)> = support
        .iter()
        .map(|s| (vec![T::small(1); s.len()], T::small(1)))
        .collect();
    let mut dependent = false;
    for (w, &i) in mixing.iter().enumerate() {
        let other = mixing.get(1 - w).copied();
        // The others' support profiles: only `other`'s strategy varies, in support order.
        let bases = &all_bases[i];
        let st = pay.strides[i];
        let a0 = support[i][0];
        let diff = |a: usize, k: usize| table[i][k + a * st].sub(&table[i][k + a0 * st]);
        let Some(j) = other else {
            // Alone: its indifferences are constants, so some strategy of its support beats
            // another (no equilibrium) or all pay the same (a continuum).
            for &a in &support[i][1..] {
                if diff(a, bases[0])?.signum_i() != 0 {
                    return Ok(Linear::Nothing);
                }
            }
            return Ok(Linear::General);
        };
        let mut rows = Vec::with_capacity(support[i].len());
        for &a in &support[i][1..] {
            let mut row = bases
                .iter()
                .map(|&k| diff(a, k))
                .collect::<std::result::Result<Vec<T>, Overflow>>()?;
            row.push(T::small(0));
            rows.push(row);
        }
        rows.push(vec![T::small(1); support[j].len() + 1]);
        match crate::exact::linalg::solve(rows, support[j].len())? {
            Solution::Inconsistent => return Ok(Linear::Nothing),
            // The other player's system may still have no solution (its player has more
            // equations than the unknowns they constrain): only then is this decided.
            Solution::Dependent => dependent = true,
            Solution::Unique(x, d) => {
                if x.iter().any(|v| v.signum_i() <= 0) {
                    return Ok(Linear::Nothing);
                }
                probs[j] = (x, d);
            }
        }
    }
    if dependent {
        return Ok(Linear::General);
    }
    // No strategy outside a support pays more than the support's (the denominators are
    // positive, so numerators decide the sign).
    for (k, s) in support.iter().enumerate() {
        let bases = &all_bases[k];
        let mut weights = vec![T::small(1)];
        for (j, sj) in support.iter().enumerate() {
            if j == k {
                continue;
            }
            let mut next = Vec::with_capacity(weights.len() * sj.len());
            for p in &probs[j].0 {
                for v in &weights {
                    next.push(v.mul(p)?);
                }
            }
            weights = next;
        }
        let st = pay.strides[k];
        for b in (0..pay.shape[k]).filter(|b| !s.contains(b)) {
            let mut gain = T::small(0);
            for (&base, v) in bases.iter().zip(&weights) {
                let d = table[k][base + b * st].sub(&table[k][base + s[0] * st])?;
                gain = gain.add(&d.mul(v)?)?;
            }
            if gain.signum_i() > 0 {
                return Ok(Linear::Nothing);
            }
        }
    }
    Ok(Linear::Equilibrium(
        probs
            .iter()
            .flat_map(|(x, d)| {
                let d = d.to_big();
                x.iter().map(move |v| crate::exact::ratio(&v.to_big(), &d))
            })
            .collect(),
    ))
}

/// [`linear_support`] in machine integers, or in big ones when they overflow; `bases[i]` is
/// [`Payoffs::bases`] of player `i`.
pub(super) fn linear(pay: &Payoffs, support: &[Vec<usize>], bases: &[Vec<usize>]) -> Linear {
    if let Some(Ok(l)) = pay
        .small
        .as_ref()
        .map(|t| linear_support(pay, t, support, bases))
    {
        return l;
    }
    linear_support(pay, &pay.scaled, support, bases).unwrap_or(Linear::General)
}
