//! The solvers of game trees, one a file: each takes a [`super::Tree`] (most through its
//! sequence form, [`super::seqform`], or its reduced normal form, [`super::reduced`]).

pub mod agent;
pub mod backward;
pub mod cfr;
pub mod lemke;
pub mod lp;
pub mod quasi_perfect;
pub mod seqenum;
pub mod sequential;
pub mod tracing;
