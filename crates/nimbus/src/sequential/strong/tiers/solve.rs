//! The solver: reachability tier by tier from the start, then values from the last tier to the
//! first, each tier written as it is solved and skipped on a resumed run when it verifies.

use crate::core::error::{Error, Result};
use crate::sequential::strong::tiers::dense::{get, packed_len, Dense};
use crate::sequential::strong::tiers::file::{
    io_error, or_solve_again, reach_bytes, read_solved, read_tier, write_tier, Kind, Tier,
    REACH_BLOCK, VALUE_BLOCK,
};
use crate::sequential::strong::tiers::{Counts, Database, Step, Summary, Tiered, Value};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// Strongly solves `g` into the directory `dir` (created if missing), resuming from the tier
/// files already there; with `remoteness`, each position's distance to the end with best play
/// too (a byte a position, in `tier-K.rem`). Refuses at once a game whose reachability bits
/// and two largest neighbouring tiers would need more than `max_memory` bytes.
pub fn solve<G: Tiered>(g: &G, dir: &Path, remoteness: bool, max_memory: u64) -> Result<Summary> {
    let name = g.name();
    let tiers = g.tiers();
    let sizes: Vec<u64> = (0..tiers).map(|t| g.tier_size(t)).collect();
    check_budget(g, remoteness, max_memory)?;
    crate::core::input::may_read(&dir.display().to_string())?;
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;

    // Reachable positions, tier by tier: a bit a rank.
    let bits: Vec<Vec<AtomicU64>> = sizes
        .iter()
        .map(|&n| (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
        .collect();
    let mark = |t: usize, i: u64| {
        bits[t][(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
    };
    let (t0, i0) = g.start();
    mark(t0, i0);
    for t in t0..tiers {
        let succ = successors(g, t)?;
        crate::core::progress::phase(&format!("tier {t}: reachable positions"), sizes[t]);
        // Moves within the tier reach positions the pass may have gone by: again until
        // nothing new is marked.
        loop {
            let seen = if succ.contains(&t) { ones(&bits[t]) } else { 0 };
            let done = AtomicU64::new(0);
            reach_range(g, t, 0..sizes[t], &bits[t], &succ, &mark, &done)?;
            if !succ.contains(&t) || ones(&bits[t]) == seen {
                break;
            }
        }
    }

    // Values, from the last tier to the first.
    let mut counts = vec![Counts::default(); tiers];
    let mut resumed = 0;
    let mut longest: u8 = 0;
    // The solved tiers the moves of the tier being solved reach.
    let mut solved: Vec<Option<Later>> = (0..tiers).map(|_| None).collect();
    for t in (0..tiers).rev() {
        let n = sizes[t];
        let succ = successors(g, t)?;
        load_successors(g, dir, &bits, &succ, t, remoteness, max_memory, &mut solved)?;
        let dense = Dense::new(&bits[t]);
        let m = dense.len();
        let tier = Tier {
            game: &name,
            t,
            n,
            m,
        };
        let (codes, rems) = match verified(dir, &tier, &bits[t], remoteness, max_memory)? {
            Some(solved) => {
                resumed += 1;
                solved
            }
            None => {
                crate::core::progress::phase(&format!("tier {t}: values"), n);
                let codes: Vec<AtomicU8> = (0..packed_len(m)).map(|_| AtomicU8::new(0)).collect();
                let rems: Vec<AtomicU8> = (0..if remoteness { m } else { 0 })
                    .map(|_| AtomicU8::new(0))
                    .collect();
                let out = Out {
                    dense: &dense,
                    base: 0,
                    codes: &codes,
                    rems: &rems,
                };
                let laters: Vec<&Later> = solved.iter().flatten().collect();
                // Moves within the tier: passes until nothing changes; what is still
                // undecided then is a draw.
                loop {
                    let done = AtomicU64::new(0);
                    let changed = values_into(g, t, 0, n, &out, &laters, &done)?;
                    if !succ.contains(&t) || changed == 0 {
                        break;
                    }
                }
                let mut codes: Vec<u8> = codes.into_iter().map(AtomicU8::into_inner).collect();
                if succ.contains(&t) {
                    undecided_are_draws(&mut codes, m);
                }
                let rems: Vec<u8> = rems.into_iter().map(AtomicU8::into_inner).collect();
                // The values file last: a tier counts as solved once it is there.
                write_tier(dir, &tier, Kind::Reach, &reach_bytes(&bits[t], n))?;
                if remoteness {
                    write_tier(dir, &tier, Kind::Remoteness, &rems)?;
                }
                write_tier(dir, &tier, Kind::Values, &codes)?;
                (codes, rems)
            }
        };
        counts[t] = Counts::of(&codes, m);
        if let Some(&r) = rems.iter().max() {
            longest = longest.max(r);
        }
        solved[t] = Some(Later {
            tier: t,
            dense,
            codes,
            rems,
        });
    }
    let start = solved[t0]
        .as_ref()
        .and_then(|l| l.dense.index(i0).map(|d| Value::of(get(&l.codes, d))));
    summarize(
        g,
        dir,
        counts,
        resumed,
        remoteness.then_some(longest),
        start,
        max_memory,
    )
}

/// A tier's values and remoteness from its files when they verify (a resumed run), `None` when
/// it is to be solved; its reachability file rewritten unless it holds what was found again.
fn verified(
    dir: &Path,
    tier: &Tier,
    bits: &[AtomicU64],
    remoteness: bool,
    max_memory: u64,
) -> Result<Option<(Vec<u8>, Vec<u8>)>> {
    let Some((codes, rems, _)) = or_solve_again(read_solved(
        dir,
        tier.game,
        tier.t,
        tier.n,
        Some(tier.m),
        remoteness,
        max_memory,
    ))?
    else {
        return Ok(None);
    };
    keep_reach(dir, tier, bits, max_memory)?;
    Ok(Some((codes, rems)))
}

/// Rewrites a solved tier's reachability file unless it holds what was found again: queries
/// read it, and a missing or damaged one would fail them.
fn keep_reach(dir: &Path, tier: &Tier, bits: &[AtomicU64], max_memory: u64) -> Result<()> {
    let reach = reach_bytes(bits, tier.n);
    let kept = or_solve_again(read_tier(
        dir,
        tier.game,
        tier.t,
        tier.n,
        Kind::Reach,
        max_memory,
    ))?;
    if kept.is_none_or(|(bytes, count)| bytes != reach || count != tier.m) {
        write_tier(dir, tier, Kind::Reach, &reach)?;
    }
    Ok(())
}

/// The tiers the moves of tier `t` reach, checked: `t` itself or later tiers.
pub(super) fn successors<G: Tiered>(g: &G, t: usize) -> Result<Vec<usize>> {
    let succ = g.successors(t);
    match succ.iter().find(|&&k| k < t || k >= g.tiers()) {
        Some(k) => Err(Error::Invalid(format!(
            "{}: tier {t} names tier {k} among the tiers its moves reach; only itself and \
             later tiers can be",
            g.name()
        ))),
        None => Ok(succ),
    }
}

/// Reachable ranks of a tier.
pub(super) fn ones(words: &[AtomicU64]) -> u64 {
    words
        .iter()
        .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
        .sum()
}

/// Keeps in `solved` the tiers after `t` that its moves reach (reading from their files those
/// not in memory) and drops the others.
#[allow(clippy::too_many_arguments)]
pub(super) fn load_successors<'a, G: Tiered>(
    g: &G,
    dir: &Path,
    bits: &'a [Vec<AtomicU64>],
    succ: &[usize],
    t: usize,
    remoteness: bool,
    max_memory: u64,
    solved: &mut [Option<Later<'a>>],
) -> Result<()> {
    for (k, slot) in solved.iter_mut().enumerate() {
        if !succ.contains(&k) || k == t {
            *slot = None;
        } else if slot.is_none() {
            let dense = Dense::new(&bits[k]);
            let name = g.name();
            let (codes, rems, _) = read_solved(
                dir,
                &name,
                k,
                g.tier_size(k),
                Some(dense.len()),
                remoteness,
                max_memory,
            )?
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "{}: tier {k} of {name} is missing, though solved before tier {t}",
                    Kind::Values.path(dir, k).display()
                ))
            })?;
            *slot = Some(Later {
                tier: k,
                dense,
                codes,
                rems,
            });
        }
    }
    Ok(())
}

/// Marks the first `m` values still unknown (code 0: moves within the tier that no pass
/// decided) as draws.
pub(super) fn undecided_are_draws(codes: &mut [u8], m: u64) {
    for d in 0..m {
        let (byte, shift) = ((d / 4) as usize, 2 * (d % 4));
        if codes[byte] >> shift & 3 == 0 {
            codes[byte] |= Value::Draw.code() << shift;
        }
    }
}

/// The summary of a solved database whose tiers' counts are known; the start's value is read
/// from its tier file when not given.
pub(super) fn summarize<G: Tiered>(
    g: &G,
    dir: &Path,
    counts: Vec<Counts>,
    resumed: usize,
    longest: Option<u8>,
    start: Option<Value>,
    max_memory: u64,
) -> Result<Summary> {
    let tiers = g.tiers();
    let bytes_on_disk = (0..tiers)
        .flat_map(|t| [Kind::Reach, Kind::Values, Kind::Remoteness].map(|k| k.path(dir, t)))
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum::<u64>();
    let start = match start {
        Some(v) => v,
        None => {
            let (t0, i0) = g.start();
            Database::open(g, dir, max_memory).value(t0, i0)?
        }
    };
    let mut total = Counts::default();
    for c in &counts {
        total.add(c);
    }
    Ok(Summary {
        game: g.name(),
        start,
        total,
        tiers: counts,
        ranks: (0..tiers).map(|t| g.tier_size(t)).sum(),
        bytes_on_disk,
        resumed,
        longest_remoteness: longest.map(u32::from),
    })
}

/// Marks (with `mark`) every position a move reaches from the reachable positions of tier `t`
/// whose ranks are in `ranks`, in parallel; a move to a tier not in `succ` is an error.
/// `done` counts the ranks covered, for progress.
pub(super) fn reach_range<G: Tiered>(
    g: &G,
    t: usize,
    ranks: std::ops::Range<u64>,
    reach: &[AtomicU64],
    succ: &[usize],
    mark: &(dyn Fn(usize, u64) + Sync),
    done: &AtomicU64,
) -> Result<()> {
    let (from, to) = (ranks.start, ranks.end);
    let jobs = (to - from).div_ceil(REACH_BLOCK);
    (0..jobs).into_par_iter().try_for_each(|b| -> Result<()> {
        let lo = from + b * REACH_BLOCK;
        let hi = (lo + REACH_BLOCK).min(to);
        let wanted = |i: u64| reach[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1;
        g.visit(t, lo, hi, &wanted, &mut |_, step| {
            if let Step::Moves(children) = step {
                for &(ct, ci) in children {
                    if !succ.contains(&ct) {
                        return Err(Error::Invalid(format!(
                            "a move of tier {t} reaches tier {ct}, which is not among the tiers \
                             its moves reach"
                        )));
                    }
                    mark(ct, ci);
                }
            }
            Ok(())
        })?;
        crate::core::progress::tick(done.fetch_add(hi - lo, Ordering::Relaxed) + hi - lo)
    })
}

/// Where the value pass writes: the values (four a byte) and remoteness (when not empty) of
/// the reachable positions from dense index `base` on.
pub(super) struct Out<'a, 'b> {
    pub(super) dense: &'a Dense<'b>,
    pub(super) base: u64,
    pub(super) codes: &'a [AtomicU8],
    pub(super) rems: &'a [AtomicU8],
}

/// Values the reachable positions of tier `t` with ranks in `from..to`, in parallel, into
/// `out`, from the tiers in `laters` and, for moves within the tier, from the values `out`
/// holds so far; returns how many values or remoteness changed. `done` counts the ranks
/// covered, for progress.
pub(super) fn values_into<G: Tiered>(
    g: &G,
    t: usize,
    from: u64,
    to: u64,
    out: &Out,
    laters: &[&Later],
    done: &AtomicU64,
) -> Result<u64> {
    let jobs = (to - from).div_ceil(VALUE_BLOCK);
    let changed = AtomicU64::new(0);
    (0..jobs).into_par_iter().try_for_each(|b| -> Result<()> {
        let lo = from + b * VALUE_BLOCK;
        let hi = (lo + VALUE_BLOCK).min(to);
        let reach = out.dense.words;
        let wanted = |i: u64| reach[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1;
        let tick =
            || crate::core::progress::tick(done.fetch_add(hi - lo, Ordering::Relaxed) + hi - lo);
        // The dense index of the first reachable rank from `lo`; the others follow in order.
        let mut d = match (lo..hi).find(|&i| wanted(i)) {
            Some(i) => out.dense.index(i).unwrap_or(0) - out.base,
            None => return tick(),
        };
        let mut here = 0;
        g.visit(t, lo, hi, &wanted, &mut |_, step| {
            let decided = match step {
                Step::Over(v) => Some((v, 0)),
                Step::Moves(children) => value_of(children, laters, out, t)?,
            };
            if let Some((v, r)) = decided {
                // A value, once decided, stays; only a remoteness can still shrink.
                let (byte, shift) = (&out.codes[(d / 4) as usize], 2 * (d % 4));
                if byte.load(Ordering::Relaxed) >> shift & 3 == 0 {
                    byte.fetch_or(v.code() << shift, Ordering::Relaxed);
                    here += 1;
                }
                if let Some(slot) = out.rems.get(d as usize) {
                    if slot.swap(r, Ordering::Relaxed) != r {
                        here += 1;
                    }
                }
            }
            d += 1;
            Ok(())
        })?;
        changed.fetch_add(here, Ordering::Relaxed);
        tick()
    })?;
    Ok(changed.into_inner())
}

/// Refuses a game whose reachability bits and two largest neighbouring tiers would need more
/// than `max_memory` bytes.
pub(super) fn check_budget<G: Tiered>(g: &G, remoteness: bool, max_memory: u64) -> Result<()> {
    let sizes: Vec<u64> = (0..g.tiers()).map(|t| g.tier_size(t)).collect();
    let ranks: u64 = sizes.iter().sum();
    // Before the reachable positions are counted, a tier's ranks bound them.
    let per = |n: u64| packed_len(n) as u64 + if remoteness { n } else { 0 };
    let widest_pair = sizes
        .windows(2)
        .map(|w| per(w[0]) + per(w[1]))
        .max()
        .unwrap_or(packed_len(sizes[0]) as u64);
    crate::core::budget::check_memory(
        &format!("the tier solution of {} ({ranks} ranks)", g.name()),
        ranks / 8 + ranks / 16 + widest_pair + 64 * sizes.len() as u64,
        max_memory,
    )
}

/// A solved tier: its number, its reachable positions, their values and remoteness (empty
/// when not kept).
pub(super) struct Later<'a> {
    pub(super) tier: usize,
    pub(super) dense: Dense<'a>,
    pub(super) codes: Vec<u8>,
    pub(super) rems: Vec<u8>,
}

/// The value of a position from its children's: those in later tiers from `laters`, those in
/// tier `t` itself from `current` as valued so far; and its remoteness when the values keep it
/// (0 otherwise): a win by the quickest losing child, a loss by the slowest winning one.
/// `None` while a child in the tier is undecided and no child is lost.
pub(super) fn value_of(
    children: &[(usize, u64)],
    laters: &[&Later],
    current: &Out,
    t: usize,
) -> Result<Option<(Value, u8)>> {
    let mut draw = false;
    let mut open = false;
    let mut win: Option<u8> = None;
    let mut loss: u8 = 0;
    let unreachable = || {
        Error::Invalid(format!(
            "internal inconsistency: a move of tier {t} reaches a position marked unreachable"
        ))
    };
    for &(ct, ci) in children {
        let (code, r) = if ct == t {
            let d = current.dense.index(ci).ok_or_else(unreachable)?;
            let Some(d) = d
                .checked_sub(current.base)
                .filter(|&d| d < 4 * current.codes.len() as u64)
            else {
                return Err(Error::Invalid(format!(
                    "moves within tier {t} need the whole tier in one process"
                )));
            };
            let code = current.codes[(d / 4) as usize].load(Ordering::Relaxed) >> (2 * (d % 4)) & 3;
            let r = current
                .rems
                .get(d as usize)
                .map_or(0, |x| x.load(Ordering::Relaxed));
            (code, r)
        } else {
            let Some(l) = laters.iter().find(|l| l.tier == ct) else {
                return Err(Error::Invalid(format!(
                    "internal inconsistency: a move of tier {t} reaches tier {ct}, which is not \
                     solved"
                )));
            };
            let d = l.dense.index(ci).ok_or_else(unreachable)?;
            (
                get(&l.codes, d),
                l.rems.get(d as usize).copied().unwrap_or(0),
            )
        };
        match Value::of(code) {
            Value::Loss => win = Some(win.map_or(r, |w| w.min(r))),
            Value::Draw => draw = true,
            Value::Win => loss = loss.max(r),
            // Undecided yet: a position of this tier still being valued.
            Value::Unreachable if ct == t => open = true,
            Value::Unreachable => {
                return Err(Error::Invalid(format!(
                    "internal inconsistency: a move of tier {t} reaches a position not valued"
                )))
            }
        }
    }
    Ok(match win {
        Some(r) => Some((Value::Win, r.saturating_add(1))),
        None if open => None,
        None if draw => Some((Value::Draw, 0)),
        None => Some((Value::Loss, loss.saturating_add(1))),
    })
}
