//! Equilibria as Gambit's command-line tools print them, one `NE,…` line a profile, so that
//! scripts written for Gambit's output read ours (shared by `nash` and `efg`).

use nimbus::api::Q;

/// Gambit's `NE,…` lines: each profile's numbers, player after player.
pub(crate) fn write<'a>(
    out: &mut String,
    profiles: impl Iterator<Item = &'a Vec<Vec<Q>>>,
    num: &dyn Fn(&Q) -> String,
) {
    for p in profiles {
        let nums: Vec<String> = p.iter().flatten().map(num).collect();
        outln!(out, "NE,{}", nums.join(","));
    }
}
