//! The file formats Nimbus reads and writes, each on its own:
//!
//! - [`gambit`]: the lexer shared by Gambit's text formats;
//! - [`nfg`]: Gambit's `.nfg` (normal form), both the payoff and the outcome forms;
//! - [`efg`]: Gambit's `.efg` (game trees);
//! - [`matrix`]: plain payoff matrices (`"3 0; 5 1"`, a text or CSV file).
//! - [`stochastic`]: two-player zero-sum stochastic games (states, cells, transitions).
//!
//! A reader builds a family's model (a [`crate::strategic::game::NormalForm`], a
//! [`crate::extensive::Tree`]), so this room sits above the families and none of them imports
//! it; the pictures' SVG, which the families write, is in [`crate::core::svg`].

pub mod efg;
pub mod gambit;
pub mod matrix;
pub mod nfg;
pub mod stochastic;
