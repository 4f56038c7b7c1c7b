//! Fibonacci Nim (Whinihan 1963): one heap; the first move may take any number but not the
//! whole heap; afterwards each move takes between 1 and twice what the previous move took.
//!
//! A position is the heap and the most the player to move may take. Every `n >= 1` is a sum of
//! non-consecutive Fibonacci numbers in exactly one way (Zeckendorf); write `z(n)` for the
//! smallest term. The player to move at `(n, limit)` wins iff `z(n) <= limit` — taking `z(n)`
//! leaves a heap whose smallest term exceeds twice `z(n)`. So the start `(n, n - 1)` is P
//! exactly when `n` is a Fibonacci number. Every winning move `x` leaves `n - x` with
//! `z(n - x) > 2x` (or takes the whole heap); they are enumerated from the Zeckendorf form
//! without scanning every `x`, so heaps up to `u64::MAX` are answered at once.

use crate::core::budget::Limits;
use crate::core::error::Result;
use crate::impartial::component::{Listed, Ruleset};
use crate::impartial::{Impartial, Outcome};

/// Fibonacci Nim. A position is `(heap, limit)`, the limit never above the heap.
#[derive(Debug, Clone, Copy, Default)]
pub struct FibonacciNim;

/// The distinct Fibonacci numbers 1, 2, 3, 5, 8, … that fit in a `u64`.
pub fn fibonacci_numbers() -> Vec<u64> {
    let mut f = vec![1u64, 2];
    while let Some(next) = f[f.len() - 2].checked_add(f[f.len() - 1]) {
        f.push(next);
    }
    f
}

/// The smallest term of the Zeckendorf representation of `n >= 1`.
pub fn smallest_term(n: u64) -> u64 {
    let fib = fibonacci_numbers();
    let mut rest = n;
    let mut last = n;
    for &f in fib.iter().rev() {
        if f <= rest {
            rest -= f;
            last = f;
        }
    }
    last
}

/// The largest sum of non-consecutive terms `fib[i]`, `i >= j`, that is at most `y` (greedy).
fn largest_sum_from(fib: &[u64], j: usize, mut y: u64) -> u64 {
    let mut acc = 0;
    for &f in fib[j.min(fib.len())..].iter().rev() {
        if f <= y {
            acc += f;
            y -= f;
        }
    }
    acc
}

impl FibonacciNim {
    /// The start of a game on `n` tokens: the first move may not take them all.
    pub fn start(n: u64) -> (u64, u64) {
        (n, n.saturating_sub(1))
    }

    /// Whether the player to move wins at `(n, limit)`.
    pub fn is_n(&self, (n, limit): (u64, u64)) -> bool {
        n > 0 && smallest_term(n) <= limit
    }

    /// Every `x` that wins from `(n, limit)`, increasing.
    pub fn winning_takes(&self, (n, limit): (u64, u64)) -> Vec<u64> {
        let mut out = Vec::new();
        if n == 0 {
            return out;
        }
        if n <= limit {
            out.push(n);
        }
        let fib = fibonacci_numbers();
        // The remainder m = n - x must have smallest term F = fib[k] > 2x, so m lies within
        // F/2 below n and is F plus a sum of terms of index >= k + 2. Walk those sums
        // downwards from n - 1 until the window is left.
        for (k, &f) in fib.iter().enumerate() {
            if f >= n {
                break;
            }
            let mut below = n - 1;
            while below >= f {
                let m = f + largest_sum_from(&fib, k + 2, below - f);
                let x = n - m;
                if 2 * (x as u128) >= f as u128 {
                    break;
                }
                if x <= limit {
                    out.push(x);
                }
                if m == f {
                    break;
                }
                below = m - 1;
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn after(&self, (n, _): (u64, u64), x: u64) -> (u64, u64) {
        (n - x, x.saturating_mul(2).min(n - x))
    }
}

impl Impartial for FibonacciNim {
    type Position = (u64, u64);
    fn moves(&self, &(n, limit): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        out.extend((1..=limit.min(n)).map(|x| self.after((n, limit), x)));
    }
    fn show(&self, p: &(u64, u64)) -> String {
        self.expression(p)
    }
}

impl Ruleset for FibonacciNim {
    fn name(&self) -> String {
        "fibonacci".into()
    }
    fn expression(&self, &(n, limit): &(u64, u64)) -> String {
        if (n, limit) == Self::start(n) {
            format!("fibonacci {n}")
        } else {
            format!("fibonacci {n} {limit}")
        }
    }
    fn describe(&self, &(n, _): &(u64, u64), &(m, next): &(u64, u64)) -> String {
        let x = n - m;
        if m == 0 {
            format!("take all {x}")
        } else {
            format!("take {x}, leaving {m} (the opponent may then take up to {next})")
        }
    }
    fn closed_grundy(&self, p: &(u64, u64), _limits: Limits) -> Result<Option<u64>> {
        Ok((!self.is_n(*p)).then_some(0))
    }
    fn closed_moves_to_value(
        &self,
        p: &(u64, u64),
        target: u64,
        _limits: Limits,
        max: usize,
    ) -> Result<Option<Listed<(u64, u64)>>> {
        Ok((target == 0)
            .then(|| Listed::from_all(self.closed_winning_moves(p).unwrap_or_default(), max)))
    }
    fn closed_outcome(&self, p: &(u64, u64)) -> Option<Outcome> {
        Some(if self.is_n(*p) {
            Outcome::N
        } else {
            Outcome::P
        })
    }
    fn closed_winning_moves(&self, p: &(u64, u64)) -> Option<Vec<(u64, u64)>> {
        Some(
            self.winning_takes(*p)
                .into_iter()
                .map(|x| self.after(*p, x))
                .collect(),
        )
    }
    fn normalize(&self, &(n, limit): &(u64, u64)) -> (u64, u64) {
        (n, limit.min(n))
    }
    fn size_hint(&self, &(n, _): &(u64, u64)) -> u64 {
        n.saturating_add(1).saturating_mul(n.saturating_add(1))
    }
    fn search_cost(&self, &(n, limit): &(u64, u64)) -> u64 {
        self.size_hint(&(n, limit))
            .saturating_mul(limit.min(n).saturating_add(1))
    }
}
