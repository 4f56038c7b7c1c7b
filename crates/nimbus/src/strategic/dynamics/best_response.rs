//! Best-response dynamics, exactly: each round both players move at once, each to a best
//! reply to the other's last strategy. A player whose strategy is already a best reply keeps
//! it (so a pure equilibrium, once reached, is kept for ever); otherwise ties between best
//! replies are broken by the stated rule. With ties to the first best reply the run is
//! deterministic on finitely many profiles, so it ends in a pure equilibrium or a cycle, and
//! both are found (the first repeated profile).

use super::fictitious::Ties;
use crate::core::budget::{check_work, Limits};
use crate::core::error::Result;
use crate::exact::Q;
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::collections::HashMap;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// A pure Nash equilibrium, reached at this round and kept from then on.
    Equilibrium {
        /// The first round at it.
        round: u64,
    },
    /// A cycle: the profile at round `from` comes back `length` rounds later (ties to the
    /// first best reply only: with random ties a repeat proves nothing).
    Cycle {
        /// The cycle's first round.
        from: u64,
        /// Its length.
        length: u64,
    },
}

/// A run: the profiles from round 0 until it ended or ran out of rounds.
#[derive(Debug, Clone)]
pub struct Run {
    /// The profile at each round from 0.
    pub path: Vec<[usize; 2]>,
    /// How it ended, if it did within the rounds.
    pub ending: Option<Ending>,
}

impl Run {
    /// The profile at `round` (past the path's end, from the equilibrium or the cycle).
    pub fn at(&self, round: u64) -> [usize; 2] {
        let last = self.path.len() as u64 - 1;
        if round <= last {
            return self.path[round as usize];
        }
        match self.ending {
            Some(Ending::Cycle { from, length }) => {
                self.path[(from + (round - from) % length) as usize]
            }
            _ => self.path[last as usize],
        }
    }
}

/// The best replies in `column` (payoffs `pay(k)` for each of `count` strategies): `current`
/// when it is one, else the first or one drawn.
fn reply(
    count: usize,
    pay: impl Fn(usize) -> Q,
    current: usize,
    rng: &mut Option<XorShiftRng>,
) -> usize {
    let values: Vec<Q> = (0..count).map(pay).collect();
    let best = values.iter().max().expect("a strategy");
    if values[current] == *best {
        return current;
    }
    let tied: Vec<usize> = (0..count).filter(|&k| values[k] == *best).collect();
    match rng {
        Some(r) if tied.len() > 1 => tied[(r.next_u64() % tied.len() as u64) as usize],
        _ => tied[0],
    }
}

/// Runs best-response dynamics on `(a, b)` from the profile `start` for at most `rounds`
/// rounds.
pub fn run(
    a: &[Vec<Q>],
    b: &[Vec<Q>],
    start: [usize; 2],
    rounds: u64,
    ties: Ties,
    limits: &Limits,
) -> Result<Run> {
    let (m, n) = (a.len(), a[0].len());
    // A round compares a column of each matrix: m + n comparisons of fractions. With ties to
    // the first best reply a profile repeats within m·n + 1 rounds, and the run stops there.
    let cells = (m * n) as u64;
    let most = match ties {
        Ties::First => rounds.min(cells + 1),
        Ties::Random(_) => rounds,
    };
    check_work(
        "best-response dynamics",
        most.saturating_mul(8 * (m + n) as u64),
        limits.max_work,
    )?;
    let mut rng = match ties {
        Ties::Random(seed) => Some(XorShiftRng::seed_from_u64(seed)),
        Ties::First => None,
    };
    let mut path = vec![start];
    let mut seen: HashMap<[usize; 2], u64> = HashMap::from([(start, 0)]);
    let mut ending = None;
    crate::core::progress::phase("best-response dynamics (rounds)", rounds);
    for round in 1..=rounds {
        let [i, j] = *path.last().expect("the start");
        let next = [
            reply(m, |k| a[k][j].clone(), i, &mut rng),
            reply(n, |k| b[i][k].clone(), j, &mut rng),
        ];
        if next == [i, j] {
            ending = Some(Ending::Equilibrium { round: round - 1 });
            break;
        }
        path.push(next);
        if ties == Ties::First {
            if let Some(&from) = seen.get(&next) {
                ending = Some(Ending::Cycle {
                    from,
                    length: round - from,
                });
                path.pop();
                break;
            }
            seen.insert(next, round);
        }
        if round % 4096 == 0 {
            crate::core::progress::tick(round)?;
        }
    }
    Ok(Run { path, ending })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(rows: &[&[i64]]) -> Vec<Vec<Q>> {
        rows.iter()
            .map(|r| r.iter().map(|&v| Q::from_integer(v.into())).collect())
            .collect()
    }

    /// Matching pennies cycles through all four profiles; a coordination game settles.
    #[test]
    fn pennies_cycle_and_coordination_settles() {
        let a = m(&[&[1, -1], &[-1, 1]]);
        let b = m(&[&[-1, 1], &[1, -1]]);
        let r = run(&a, &b, [0, 0], 100, Ties::First, &Limits::default()).unwrap();
        assert_eq!(r.ending, Some(Ending::Cycle { from: 0, length: 4 }));
        assert_eq!(r.path.len(), 4);
        assert_eq!(r.at(4), [0, 0]);
        assert_eq!(r.at(101), r.path[1]);
        let c = m(&[&[2, 0], &[0, 1]]);
        let r = run(&c, &c, [1, 0], 100, Ties::First, &Limits::default()).unwrap();
        // (1, 0) → (0, 1) → (1, 0): simultaneous moves miscoordinate for ever.
        assert_eq!(r.ending, Some(Ending::Cycle { from: 0, length: 2 }));
        let r = run(&c, &c, [1, 1], 100, Ties::First, &Limits::default()).unwrap();
        assert_eq!(r.ending, Some(Ending::Equilibrium { round: 0 }));
        assert_eq!(r.at(50), [1, 1]);
    }
}
