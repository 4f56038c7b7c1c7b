//! The file formats Nimbus reads and writes, each on its own, and the picture format:
//!
//! - [`gambit`]: the lexer shared by Gambit's text formats;
//! - [`nfg`]: Gambit's `.nfg` (normal form), both the payoff and the outcome forms;
//! - [`efg`]: Gambit's `.efg` (game trees);
//! - [`matrix`]: plain payoff matrices (`"3 0; 5 1"`, a text or CSV file);
//! - [`svg`]: the one SVG preamble and the one text escape that every picture uses.

pub mod efg;
pub mod gambit;
pub mod matrix;
pub mod nfg;
pub mod svg;
