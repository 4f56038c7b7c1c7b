//! The built-in partizan rulesets, one a file, each behind [`super::Ruleset`].
//!
//! - [`domineering`]: dominoes on a grid, Left vertical, Right horizontal;
//! - [`clobber`]: stones that capture a neighbour of the other colour, on a strip or a grid;
//! - [`toads`]: Toads and Frogs on a strip;
//! - [`cutcake`]: cakes cut by columns (Left) and by rows (Right);
//! - [`hackenbush`]: Blue–Red–Green Hackenbush on a graph, or stalks;
//! - [`colouring`]: Col and Snort, colouring the vertices of a graph;
//! - [`amazons`]: Amazons on small boards;
//! - [`grid`]: the bit boards the grid rulesets share.

pub mod amazons;
pub mod clobber;
pub mod colouring;
pub mod cutcake;
pub mod domineering;
pub mod grid;
pub mod hackenbush;
pub mod toads;
