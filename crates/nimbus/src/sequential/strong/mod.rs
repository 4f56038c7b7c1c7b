//! Strong solutions, every position reachable from the start: retrograde analysis a byte a
//! rank ([`retrograde`]), and tier by tier, two bits a position, on disk ([`tiers`]).

pub mod retrograde;
pub mod tiers;
