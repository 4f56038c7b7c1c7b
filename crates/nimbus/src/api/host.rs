//! What a host of the library (a front-end) controls around a question: Ctrl-C, a time limit
//! for one request, whether the request may read files, the progress it shows, and how the
//! files it reads are decoded. The solvers consult these; a front-end sets them.

pub use crate::core::input::{decode, read_text, without_files};
pub use crate::core::progress::{
    clear_interrupt, interrupt, interrupted, snapshot, with_time_limit,
};
