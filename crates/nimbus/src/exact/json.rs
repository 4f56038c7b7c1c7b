//! Exact numbers in JSON: strings such as `"-2/3"`, so that no digit is lost (JSON numbers
//! are read as doubles by most parsers). Used with `#[serde(serialize_with = ...)]`.

use crate::exact::{Shown, Q};
use serde::ser::{Serialize, SerializeSeq, Serializer};

impl Serialize for Shown<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Numbers as a JSON list, without a vector of strings.
struct Row<'a>(&'a [Q]);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        list(self.0, s)
    }
}

/// One number.
pub fn one<S: Serializer>(q: &Q, s: S) -> Result<S::Ok, S::Error> {
    Shown(q).serialize(s)
}

/// A list of numbers.
pub fn list<S: Serializer>(v: &[Q], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for q in v {
        seq.serialize_element(&Shown(q))?;
    }
    seq.end()
}

/// A list of lists of numbers.
pub fn lists<S: Serializer>(v: &[Vec<Q>], s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for row in v {
        seq.serialize_element(&Row(row))?;
    }
    seq.end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    /// Written straight into the output, every number reads as `show` writes it: small and
    /// past 64 bits, integers and fractions, negative or not.
    #[test]
    fn numbers_are_written_as_show_writes_them() {
        let big: BigInt = BigInt::from(10).pow(30u32) + 7;
        let mut values = Vec::new();
        for n in [
            BigInt::from(0),
            BigInt::from(-5),
            BigInt::from(i64::MAX),
            big.clone(),
            -&big,
        ] {
            for d in [
                BigInt::from(1),
                BigInt::from(3),
                BigInt::from(i64::MAX),
                big.clone() * 2,
            ] {
                values.push(Q::new(n.clone(), d));
            }
        }
        #[derive(serde::Serialize)]
        struct Out<'a> {
            #[serde(serialize_with = "one")]
            first: &'a Q,
            #[serde(serialize_with = "list")]
            all: &'a [Q],
            #[serde(serialize_with = "lists")]
            rows: &'a [Vec<Q>],
        }
        let rows = vec![values.clone(), values[..3].to_vec()];
        let text = serde_json::to_string(&Out {
            first: &values[3],
            all: &values,
            rows: &rows,
        })
        .unwrap();
        let shown = |v: &[Q]| v.iter().map(crate::exact::show).collect::<Vec<_>>();
        let want = serde_json::json!({
            "first": crate::exact::show(&values[3]),
            "all": shown(&values),
            "rows": [shown(&values), shown(&values[..3])],
        });
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            want
        );
    }
}
