//! How play evolves when players learn. Discrete rules: fictitious play and best-response
//! dynamics (exact), stochastic fictitious play, regret matching (exact regrets, seeded draws),
//! the Moran process (exact fixation probabilities, or simulation). Continuous: the
//! replicator equation (one or two populations, with or without mutation) and the logit
//! dynamics, integrated with error control. Each rule records the players' strategies along
//! the way; [`plot`], [`simplex`] and [`square`] draw them.

pub mod best_response;
pub mod chance;
pub mod draw;
pub mod fictitious;
pub mod field;
pub mod moran;
pub mod moran_graph;
pub mod ode;
pub mod plot;
pub mod regret;
pub mod rest_points;
pub mod simplex;
pub mod square;
pub mod square_rest;
pub mod stochastic;
