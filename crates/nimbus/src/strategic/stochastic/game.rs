//! A two-player zero-sum stochastic game (Shapley 1953): states, each a matrix game whose
//! cells also say where play goes next.

use crate::core::error::{Error, Result};
use crate::exact::{show, Q};
use num_traits::{One, Signed, Zero};

/// One cell of a state's matrix: what the row player receives now, and the chance of each
/// next state (the rest of the probability is the game's end).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The row player's payoff this stage (the column player pays it).
    pub payoff: Q,
    /// `(state, probability)`: where play goes next; the probabilities add up to at most 1.
    pub next: Vec<(usize, Q)>,
}

/// One state: a matrix game with transitions.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The state's name.
    pub name: String,
    /// The row player's actions.
    pub rows: Vec<String>,
    /// The column player's actions.
    pub columns: Vec<String>,
    /// The cells, row by row (`rows.len() × columns.len()`).
    pub cells: Vec<Cell>,
}

impl State {
    /// The cell of row `i` and column `j`.
    pub fn cell(&self, i: usize, j: usize) -> &Cell {
        &self.cells[i * self.columns.len() + j]
    }
}

/// A stochastic game: the total payoff is `Σ_t discount^t · payoff_t`, summed while play lasts.
#[derive(Debug, Clone, PartialEq)]
pub struct StochasticGame {
    /// Each stage's payoff counts `discount` times the one before (1: no discounting, and then
    /// every cell must end the game with a positive probability, as in Shapley's paper).
    pub discount: Q,
    /// The states; play may start in any of them.
    pub states: Vec<State>,
}

impl StochasticGame {
    /// The game's contraction factor: the largest chance, over the cells, that play goes on,
    /// times the discount. Below 1, the total payoff converges and the value is the unique
    /// fixed point of Shapley's operator.
    pub fn continuation(&self) -> Q {
        self.states
            .iter()
            .flat_map(|s| &s.cells)
            .map(|c| c.next.iter().map(|(_, p)| p).sum::<Q>() * &self.discount)
            .max()
            .unwrap_or_else(Q::zero)
    }

    /// Checks what the solvers rely on: states with actions and every cell, probabilities in
    /// [0, 1] adding up to at most 1, next states that exist, a discount in (0, 1], and play
    /// that ends (a contraction factor below 1), naming the first state and cell at fault.
    pub fn check(&self) -> Result<()> {
        if self.states.is_empty() {
            return Err(Error::Invalid("the stochastic game has no states".into()));
        }
        if !self.discount.is_positive() || self.discount > Q::one() {
            return Err(Error::Invalid(format!(
                "the discount {} is not in (0, 1]: each stage's payoff counts the discount \
                 times the one before",
                show(&self.discount)
            )));
        }
        for s in &self.states {
            let (m, n) = (s.rows.len(), s.columns.len());
            if m == 0 || n == 0 || s.cells.len() != m * n {
                return Err(Error::Invalid(format!(
                    "state {}: {m} rows, {n} columns and {} cells: each state needs at least \
                     one action for each player and every cell",
                    s.name,
                    s.cells.len()
                )));
            }
            for (k, c) in s.cells.iter().enumerate() {
                let at = || {
                    format!(
                        "state {}, cell {} {}",
                        s.name,
                        s.rows[k / n],
                        s.columns[k % n]
                    )
                };
                let mut total = Q::zero();
                for (t, p) in &c.next {
                    if *t >= self.states.len() {
                        return Err(Error::Invalid(format!("{}: no state {}", at(), t + 1)));
                    }
                    if p.is_negative() || *p > Q::one() {
                        return Err(Error::Invalid(format!(
                            "{}: the probability {} is not in [0, 1]",
                            at(),
                            show(p)
                        )));
                    }
                    total += p;
                }
                if total > Q::one() {
                    return Err(Error::Invalid(format!(
                        "{}: the probabilities add up to {}, more than 1",
                        at(),
                        show(&total)
                    )));
                }
                if total * &self.discount == Q::one() {
                    return Err(Error::Invalid(format!(
                        "{}: play goes on for certain and is not discounted, so the total \
                         payoff need not converge: give a discount below 1, or a chance that \
                         the game ends",
                        at()
                    )));
                }
            }
        }
        Ok(())
    }

    /// The stage game of state `s` given the values `v` of the states: entry `(i, j)` is the
    /// cell's payoff plus the discounted expected value of where play goes (Shapley's matrix).
    pub fn stage(&self, s: usize, v: &[Q]) -> Vec<Vec<Q>> {
        let st = &self.states[s];
        (0..st.rows.len())
            .map(|i| {
                (0..st.columns.len())
                    .map(|j| {
                        let c = st.cell(i, j);
                        let future: Q = c.next.iter().map(|(t, p)| p * &v[*t]).sum();
                        &c.payoff + future * &self.discount
                    })
                    .collect()
            })
            .collect()
    }

    /// The cells of every state (a measure of the work one stage of the solvers takes).
    pub fn cells(&self) -> u64 {
        self.states.iter().map(|s| s.cells.len() as u64).sum()
    }

    /// A bound on every state's value: `max|payoff| / (1 − β)` for the contraction factor β
    /// (the total of a play that goes on with at most β a stage).
    pub fn value_bound(&self) -> Q {
        let largest = self
            .states
            .iter()
            .flat_map(|s| &s.cells)
            .map(|c| c.payoff.abs())
            .max()
            .unwrap_or_else(Q::zero);
        largest / (Q::one() - self.continuation())
    }
}
