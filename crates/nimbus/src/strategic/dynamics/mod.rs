//! How play evolves when players learn: fictitious play (exact), and the replicator equation
//! (one or two populations) integrated with error control. Each rule records the players'
//! strategies along the way; [`plot`] draws them.

pub mod fictitious;
pub mod ode;
pub mod plot;
pub mod replicator;
pub mod rest_points;
pub mod simplex;
