//! A class of split takes (by the parity of the take, when keys carry it): its common keys,
//! which no xor of two members reaches, and its rare heaps.

use super::*;

/// Split takes that share a common set `C`: all of them, or, when the keys carry the heap's
/// parity, those that take an even or an odd number of tokens (`d` = 0 or 1). A split of
/// `m = n - k` into `a + c` has `key(a) ^ key(c) = key(option) ^ d`, where the option's key
/// is its value with the parity of `n`; so `C` must hold no `c1 ^ c2 ^ d` of two of its
/// members, and then a split of two common heaps never has a value whose key is common.
pub(super) struct Class<V> {
    pub(super) d: u32,
    /// Indices of the class's takes in [`Takes::two`].
    pub(super) takes: Vec<usize>,
    /// Whether each key is common.
    pub(super) common: Vec<bool>,
    /// The common keys.
    pub(super) common_list: Vec<u32>,
    /// The heaps `n >= 1` whose key is rare, in increasing order.
    pub(super) rare: Vec<u32>,
    /// Their values, `G(rare[i])`, side by side so that the rare loop reads them in order.
    pub(super) rare_values: Vec<V>,
}

impl<V: Nimber> Class<V> {
    /// The classes of the split takes, empty, with room for keys below `space`.
    pub(super) fn of(takes: &Takes, parity: bool, space: usize) -> Vec<Self> {
        let mut classes = Vec::new();
        for d in 0..=u32::from(parity) {
            let of_class: Vec<usize> = (0..takes.two.len())
                .filter(|&i| !parity || takes.two[i] as u32 & 1 == d)
                .collect();
            if !of_class.is_empty() {
                classes.push(Class {
                    d,
                    takes: of_class,
                    common: vec![false; space],
                    common_list: Vec::new(),
                    rare: Vec::new(),
                    rare_values: Vec::new(),
                });
            }
        }
        classes
    }

    /// The rare heaps `rare[from..to]` and their values.
    pub(super) fn rare_from(&self, from: usize, to: usize) -> (&[u32], &[V]) {
        (&self.rare[from..to], &self.rare_values[from..to])
    }

    /// Whether `x` may join `C`: `x` is not `d` (a split into two heaps of one key has
    /// the key `d`), and no two common keys make it.
    pub(super) fn can_join(&self, x: u32) -> bool {
        x != self.d
            && self
                .common_list
                .iter()
                .all(|&c| !self.common[(c ^ x ^ self.d) as usize])
    }

    pub(super) fn widen<W: Nimber>(from: Class<W>) -> Self {
        Class {
            d: from.d,
            takes: from.takes,
            common: from.common,
            common_list: from.common_list,
            rare: from.rare,
            rare_values: from.rare_values.iter().map(|&v| V::of(v.into())).collect(),
        }
    }
}
