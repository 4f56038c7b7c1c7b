//! Subtraction games: remove from one heap a number of tokens allowed by a set.
//!
//! - A finite set `S` (`subtract{1,3,4}`). The Bash game is `S = {1..k}`, where
//!   `G(n) = n mod (k + 1)` and `n` is P iff `(k + 1)` divides it. Every finite set gives an
//!   eventually periodic sequence, because `G(n)` depends only on the `max S` values before it;
//!   the period is found and proved that way, which answers heaps of any size.
//! - An "all but" set (`allbut{1,2}`): any positive number except those listed. Its values
//!   are computed by counting, for each value, how many smaller heaps have it: a value is
//!   missing from the options of `n` only if every heap having it is one of the excluded
//!   `n - e`, so the mex needs only the few values with small counts.

use super::heap::{check_table, describe_take, values_by_doubling, HeapMove, HeapRule, HeapValues};
use crate::core::budget::Limits;
use crate::core::error::Result;
use std::collections::BTreeSet;

/// The rule of a subtraction game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subtraction {
    /// May remove exactly one of these numbers (sorted, distinct, positive).
    Finite(Vec<u64>),
    /// May remove any positive number except these (sorted, distinct, positive).
    AllBut(Vec<u64>),
}

impl Subtraction {
    /// The Bash game: remove 1 to `k` tokens.
    pub fn bash(k: u64) -> Self {
        Subtraction::Finite((1..=k).collect())
    }

    /// If the set is `{1..k}`, the `k` of the Bash game.
    pub fn bash_k(&self) -> Option<u64> {
        match self {
            Subtraction::Finite(s)
                if !s.is_empty() && s.iter().enumerate().all(|(i, &x)| x == i as u64 + 1) =>
            {
                Some(s.len() as u64)
            }
            _ => None,
        }
    }

    fn finite_table(set: &[u64], upto: usize) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::with_capacity(upto + 1);
        let mut seen = Vec::with_capacity(set.len());
        for n in 0..=upto {
            seen.clear();
            seen.extend(
                set.iter()
                    .take_while(|&&s| s as usize <= n)
                    .map(|&s| g[n - s as usize]),
            );
            g.push(crate::impartial::mex(&mut seen));
        }
        g
    }

    fn all_but_table(excluded: &[u64], upto: usize) -> Vec<u64> {
        let e = excluded.len() as u64;
        let mut g: Vec<u64> = Vec::with_capacity(upto + 1);
        // count[v]: heaps below n with value v. Values seen so far are exactly 0..count.len()
        // (a mex is either a seen value or the least unseen one).
        let mut count: Vec<u64> = Vec::new();
        // Values that can still be missing: those held by at most |E| smaller heaps.
        let mut rare: BTreeSet<u64> = BTreeSet::new();
        for n in 0..=upto {
            let fresh = count.len() as u64;
            let mut mex = fresh;
            for &v in rare.iter().chain(std::iter::once(&fresh)) {
                if v == fresh {
                    break;
                }
                let blocked = excluded
                    .iter()
                    .filter(|&&x| x as usize <= n && g[n - x as usize] == v)
                    .count() as u64;
                if count[v as usize] == blocked {
                    mex = v;
                    break;
                }
            }
            g.push(mex);
            if mex == fresh {
                count.push(0);
                rare.insert(mex);
            }
            count[mex as usize] += 1;
            if count[mex as usize] > e {
                rare.remove(&mex);
            }
        }
        g
    }
}

impl HeapRule for Subtraction {
    fn name(&self) -> String {
        let (word, set) = match self {
            Subtraction::Finite(s) => ("subtract", s),
            Subtraction::AllBut(s) => ("allbut", s),
        };
        // Runs of four or more are written as ranges, as the grammar allows: a set of a
        // million moves is then a short name in every message, not megabytes of digits.
        let mut items: Vec<String> = Vec::new();
        let mut rest = set.iter().copied().peekable();
        while let Some(lo) = rest.next() {
            let mut hi = lo;
            while rest.peek() == Some(&(hi + 1)) {
                hi += 1;
                rest.next();
            }
            if hi - lo >= 3 {
                items.push(format!("{lo}..{hi}"));
            } else {
                items.extend((lo..=hi).map(|x| x.to_string()));
            }
        }
        format!("{word}{{{}}}", items.join(","))
    }

    fn heap_moves(&self, n: u64, out: &mut Vec<HeapMove>) {
        match self {
            Subtraction::Finite(s) => out.extend(
                s.iter()
                    .take_while(|&&x| x <= n)
                    .map(|&x| HeapMove::new(x, &[n - x])),
            ),
            Subtraction::AllBut(e) => out.extend(
                (1..=n)
                    .filter(|x| e.binary_search(x).is_err())
                    .map(|x| HeapMove::new(x, &[n - x])),
            ),
        }
    }

    fn table(&self, upto: u64, limits: Limits) -> Result<Vec<u64>> {
        let n = check_table(upto, self.move_count(upto), limits, &self.name())?;
        Ok(match self {
            Subtraction::Finite(s) => Self::finite_table(s, n),
            Subtraction::AllBut(e) => Self::all_but_table(e, n),
        })
    }

    fn values(&self, upto: u64, limits: Limits) -> Result<HeapValues> {
        if let Some(k) = self.bash_k() {
            // The Bash game's closed form: G(n) = n mod (k + 1).
            return Ok(HeapValues::Periodic {
                table: (0..=k).collect(),
                preperiod: 0,
                period: k + 1,
            });
        }
        match self {
            Subtraction::Finite(_) => values_by_doubling(self, upto, limits),
            Subtraction::AllBut(_) => Ok(HeapValues::Table(self.table(upto, limits)?)),
        }
    }

    fn describe(&self, n: u64, heap: usize, heaps: usize, m: &HeapMove) -> String {
        describe_take(n, heap, heaps, m, "token")
    }

    fn splits(&self) -> bool {
        false
    }

    fn sj_closed(&self, _n: u64) -> Option<bool> {
        // Bash: the heaps of value 0 are the multiples of k + 1; taking k leaves value 1.
        self.bash_k().map(|_| true)
    }

    fn move_count(&self, n: u64) -> u64 {
        match self {
            Subtraction::Finite(s) => s.len() as u64,
            Subtraction::AllBut(_) => n,
        }
    }

    fn proof_horizon(&self, preperiod: u64, period: u64) -> Option<u64> {
        match self {
            // s consecutive values repeating determine everything after them.
            Subtraction::Finite(s) => {
                let smax = s.last().copied().unwrap_or(0);
                preperiod.checked_add(period)?.checked_add(smax.max(1) - 1)
            }
            Subtraction::AllBut(_) => None,
        }
    }
}
