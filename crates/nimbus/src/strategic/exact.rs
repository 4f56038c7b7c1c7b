//! Exact numbers in JSON: strings such as `"-2/3"`, so that no digit is lost (JSON numbers
//! are read as doubles by most parsers). Used with `#[serde(serialize_with = ...)]`.

use super::{show, Q};
use serde::ser::{SerializeSeq, Serializer};

/// One number.
pub fn one<S: Serializer>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&show(q))
}

/// A list of numbers.
pub fn list<S: Serializer>(v: &[Q], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for q in v {
        seq.serialize_element(&show(q))?;
    }
    seq.end()
}

/// A list of lists of numbers.
pub fn lists<S: Serializer>(v: &[Vec<Q>], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for row in v {
        seq.serialize_element(&row.iter().map(show).collect::<Vec<_>>())?;
    }
    seq.end()
}
