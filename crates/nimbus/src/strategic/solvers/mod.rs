//! The solvers of strategic-form games, one a file (a folder for the n-player enumeration):
//! each takes a [`super::game::NormalForm`] (or its two-player [`super::bimatrix::Bimatrix`]) and
//! returns equilibria that [`super::game::verify`] can check exactly.

pub mod correlated;
pub mod correlated_picture;
pub mod correlated_vertices;
pub mod enumpoly;
pub mod envelope;
pub mod ess;
pub mod gnm;
pub mod lemke;
pub mod logit;
pub mod perfect;
pub mod proper;
pub mod pure;
pub mod risk_dominance;
pub mod simpdiv;
pub mod support;
pub mod tracing;
pub mod two_by_two;
pub mod vertex;
pub mod zerosum;
