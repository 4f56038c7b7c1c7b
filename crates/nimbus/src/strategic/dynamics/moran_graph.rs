//! The Moran process on a graph (Lieberman, Hauert and Nowak 2005, with game payoffs as in
//! Ohtsuki et al. 2006): individuals sit on the nodes of a connected graph; each one's fitness
//! is its total payoff against its neighbours; each generation one individual is chosen to
//! reproduce with probability proportional to fitness (uniformly when every fitness is zero),
//! and its offspring replaces a neighbour chosen uniformly. With mutation probability `μ`, the
//! offspring is instead another strategy of those present at the start, uniformly. Fixation
//! probabilities on graphs have no closed form in general: the process is simulated.

use super::chance::{pick, uniform};
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

/// One individual's fitness: its payoffs against its neighbours.
fn fitness(a: &[Vec<f64>], graph: &[Vec<usize>], kinds: &[usize], i: usize) -> f64 {
    graph[i].iter().map(|&j| a[kinds[i]][kinds[j]]).sum()
}

/// One run from the strategies `kinds` of the nodes of `graph` (adjacency lists of a connected
/// graph): the counts of each strategy after each generation handed to `record`, until one
/// strategy is left (without mutation) or `generations` have passed. Returns the strategy that
/// took over, if one did, and the generations run.
pub fn simulate(
    a: &[Vec<f64>],
    graph: &[Vec<usize>],
    kinds: &[usize],
    mutation: f64,
    generations: u64,
    rng: &mut XorShiftRng,
    mut record: impl FnMut(u64, &[u64]),
) -> (Option<usize>, u64) {
    let k = a.len();
    let n = kinds.len();
    let mut kinds = kinds.to_vec();
    let mut counts = vec![0u64; k];
    for &s in &kinds {
        counts[s] += 1;
    }
    let original: Vec<usize> = (0..k).filter(|&s| counts[s] > 0).collect();
    let mut fit: Vec<f64> = (0..n).map(|i| fitness(a, graph, &kinds, i)).collect();
    let alone = |c: &[u64]| c.iter().filter(|&&v| v > 0).count() == 1;
    for g in 1..=generations {
        if mutation == 0.0 && alone(&counts) {
            return (counts.iter().position(|&v| v > 0), g - 1);
        }
        let total: f64 = fit.iter().sum();
        let parent = if total > 0.0 {
            pick(&fit, uniform(rng) * total)
        } else {
            (rng.next_u64() % n as u64) as usize
        };
        let near = &graph[parent];
        let dies = near[(rng.next_u64() % near.len() as u64) as usize];
        let child = if mutation > 0.0 && original.len() > 1 && uniform(rng) < mutation {
            let others: Vec<usize> = original
                .iter()
                .copied()
                .filter(|&s| s != kinds[parent])
                .collect();
            others[(rng.next_u64() % others.len() as u64) as usize]
        } else {
            kinds[parent]
        };
        if child != kinds[dies] {
            counts[kinds[dies]] -= 1;
            counts[child] += 1;
            kinds[dies] = child;
            // Only the replaced individual's and its neighbours' fitnesses change.
            fit[dies] = fitness(a, graph, &kinds, dies);
            for &j in &graph[dies] {
                fit[j] = fitness(a, graph, &kinds, j);
            }
        }
        record(g, &counts);
    }
    let fixed = (mutation == 0.0 && alone(&counts))
        .then(|| counts.iter().position(|&v| v > 0))
        .flatten();
    (fixed, generations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::SeedableRng;

    /// On a cycle, neutral drift fixes a single mutant with probability 1/N (isothermal
    /// graphs keep the well-mixed value, Lieberman et al.'s theorem).
    #[test]
    fn a_cycle_is_isothermal() {
        let n = 8;
        let graph: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + n - 1) % n, (i + 1) % n]).collect();
        let a = vec![vec![1.0, 1.0], vec![1.0, 1.0]];
        let mut kinds = vec![0; n];
        kinds[3] = 1;
        let mut rng = XorShiftRng::seed_from_u64(9);
        let runs = 8000;
        let hits = (0..runs)
            .filter(|_| {
                simulate(&a, &graph, &kinds, 0.0, 1 << 30, &mut rng, |_, _| {}).0 == Some(1)
            })
            .count();
        let p = hits as f64 / f64::from(runs);
        let sd = (0.125f64 * 0.875 / f64::from(runs)).sqrt();
        assert!((p - 0.125).abs() < 4.0 * sd, "{p}");
    }
}
