//! The table grown to a length or to a proved period, in the narrowest entry type that holds
//! its values, and the naive quadratic loop it is checked against.

use super::*;

/// `G(0..=upto)` of the octal game with moves `takes` by the naive loop over every split: the
/// independent method the tests hold the sparse one to.
pub(crate) fn naive(takes: &Takes, upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(upto + 1);
    let mut seen: Vec<bool> = Vec::new();
    for n in 0..=upto {
        let mut options = Vec::new();
        for &k in &takes.whole {
            if k == n {
                options.push(0);
            }
        }
        for &k in &takes.one {
            if k < n {
                options.push(g[n - k]);
            }
        }
        for &k in &takes.two {
            if k + 2 <= n {
                let m = n - k;
                options.extend((1..=takes.half(m)).map(|a| g[a] ^ g[m - a]));
            }
        }
        for &k in &takes.three {
            if k + 3 <= n {
                let m = n - k;
                for a in 1..=m / 3 {
                    options.extend((a..=(m - a) / 2).map(|b| g[a] ^ g[b] ^ g[m - a - b]));
                }
            }
        }
        seen.clear();
        seen.resize(options.len() + 1, false);
        for &o in &options {
            if (o as usize) < seen.len() {
                seen[o as usize] = true;
            }
        }
        g.push(seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32);
    }
    g
}

/// The table in the narrowest entry type that holds its values.
pub(super) enum Table {
    Small(Sparse<u16>),
    Wide(Sparse<u32>),
}

impl Table {
    /// The table of `values`, in the narrowest entry type that holds them.
    pub(super) fn resume(takes: &Takes, values: &[u32]) -> Self {
        if values.iter().all(|&v| v <= u16::LIMIT) {
            Table::Small(Sparse::resume(takes.clone(), values))
        } else {
            Table::Wide(Sparse::resume(takes.clone(), values))
        }
    }

    /// Grows the table to `G(0..=upto)`; false when it paused (see [`Sparse::extend_to`]).
    pub(super) fn extend_to(
        &mut self,
        upto: usize,
        max_work: u64,
        what: &str,
        pause: Option<std::time::Instant>,
    ) -> Result<bool> {
        loop {
            let stop = match self {
                Table::Small(t) => t.extend_to(upto, max_work, what, pause),
                Table::Wide(t) => t.extend_to(upto, max_work, what, pause),
            };
            match stop {
                Ok(done) => return Ok(done),
                Err(Stop::Failed(e)) => return Err(e),
                Err(Stop::Overflow) => {
                    match std::mem::replace(self, Table::Small(Sparse::new(Takes::default()))) {
                        Table::Small(t) => *self = Table::Wide(Sparse::widen(t)),
                        Table::Wide(_) => {
                            return Err(Error::Overflow(format!("a value of {what} past 2^32")))
                        }
                    }
                }
            }
        }
    }

    pub(super) fn proved(
        &self,
        horizon: &dyn Fn(u64, u64) -> Option<u64>,
        z: &mut Vec<u32>,
    ) -> (Option<Period>, Option<u64>) {
        match self {
            Table::Small(t) => period_test(t.values(), horizon, z),
            Table::Wide(t) => period_test(t.values(), horizon, z),
        }
    }

    /// The values the option marks cover now (a power of two above every xor of two).
    pub(super) fn value_space(&self) -> usize {
        match self {
            Table::Small(t) => t.stamp.len(),
            Table::Wide(t) => t.stamp.len(),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Table::Small(t) => t.values.len(),
            Table::Wide(t) => t.values.len(),
        }
    }

    /// The values as little-endian bytes of their entry type, and that type's width.
    /// Hands the values to `write` as little-endian bytes of their entry type, a chunk at a
    /// time (a table of hundreds of millions of values is not copied whole), and returns that
    /// type's width.
    pub(super) fn write_bytes(
        &self,
        write: impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<usize> {
        match self {
            Table::Small(t) => write_le(&t.values, write),
            Table::Wide(t) => write_le(&t.values, write),
        }
    }

    pub(super) fn into_values(self) -> Vec<u32> {
        match self {
            Table::Small(t) => t.values.into_iter().map(u32::from).collect(),
            Table::Wide(t) => t.values,
        }
    }
}

/// `G(0..=upto)` by the sparse method, as `u32`s (`u16` entries while the values fit), within
/// the work and memory budgets, with the period the rule's test (`horizon`, as
/// [`proved_period`](crate::impartial::period::proved_period) takes it) proves, if any. The table is tested for a proved period each
/// time it has grown by half, or sooner, where a period it ends in would be proved (see
/// [`period_test`]). Once one is proved: with `prove`, the table stops there
/// (it reaches the test's horizon); without, the rest of the table is that period repeated,
/// which is then a theorem rather than a computation. With `prove` and no period proved up
/// to `upto`, the state limit is the error.
///
/// With a `checkpoint` file the run starts from the values it holds (when it exists), and
/// writes the values reached to it every minute and when it stops on a budget or an
/// interruption, so that a run of hours survives a stop.
pub(crate) fn grow(
    takes: &Takes,
    upto: usize,
    prove: bool,
    limits: &crate::core::budget::Limits,
    what: &str,
    horizon: &dyn Fn(u64, u64) -> Option<u64>,
    checkpoint: Option<&std::path::Path>,
) -> Result<(Vec<u32>, Option<Period>)> {
    // An error then says where the run's values are, to go on from.
    let what = &match checkpoint {
        Some(path) => format!("{what}, with its values saved in {}", path.display()),
        None => what.to_string(),
    };
    let mut t = match checkpoint
        .map(|path| Checkpoint::load(path, takes, what, limits.max_memory))
        .transpose()?
    {
        Some(Some(values)) => {
            crate::core::budget::check_memory(what, values.len() as u64 * 24, limits.max_memory)?;
            Table::resume(takes, &values)
        }
        _ => Table::Small(Sparse::new(takes.clone())),
    };
    // Without a periodicity test there is nothing to check along the way.
    let first = if horizon(0, 1).is_some() { 1024 } else { upto };
    let mut check = first.max(t.len());
    let save = |t: &Table| checkpoint.map_or(Ok(()), |path| Checkpoint::save(path, takes, t));
    let mut z = Vec::new();
    loop {
        let mut target = check.min(upto);
        // All told: the values returned (8 bytes each at most), the table's own entries (2
        // or 4 bytes) and the helper thread's copy of them, the rare heaps (at most 4 bytes
        // each) and the period test's array (4 bytes).
        // With three-heap moves, a bit set of the value space for every heap as well.
        let per_heap = 24
            + if takes.three.is_empty() {
                0
            } else {
                t.value_space() / 8
            };
        let bytes = |target: usize| {
            (target as u128 + 1)
                .saturating_mul(per_heap as u128)
                .min(u64::MAX as u128) as u64
        };
        // A step that would pass the memory budget goes as far as it allows, and the budget
        // is the error only when the table cannot grow at all: a period may be proved short
        // of the step.
        let room = (limits.max_memory / per_heap as u64).saturating_sub(1);
        if bytes(target) > limits.max_memory && room > t.len() as u64 {
            target = room as usize;
        }
        crate::core::budget::check_memory(what, bytes(target), limits.max_memory)?;
        loop {
            let pause = checkpoint.map(|_| std::time::Instant::now() + SAVE_EVERY);
            // The work budget counts this run's work, not that of the runs before a resume.
            match t.extend_to(target, limits.max_work, what, pause) {
                Ok(true) => break,
                Ok(false) => save(&t)?,
                Err(e) => {
                    save(&t)?;
                    return Err(e);
                }
            }
        }
        let (period, needs) = t.proved(horizon, &mut z);
        if let Some(p) = period {
            save(&t)?;
            let mut values = t.into_values();
            if !prove {
                let period = p.period as usize;
                values.reserve(upto + 1 - values.len());
                for n in values.len()..=upto {
                    values.push(values[n - period]);
                }
            }
            return Ok((values, period));
        }
        if target == upto {
            save(&t)?;
            if prove {
                return Err(Error::StateLimit {
                    explored: target as u64 + 1,
                    limit: limits.max_states,
                    what: format!("{what} (no period proved)"),
                });
            }
            return Ok((t.into_values(), None));
        }
        // The next test at half as many heaps again, or sooner where a period the table ends
        // in would be proved (a run that proves its period stops where it can), but not
        // under an eighth more: each test reads the whole table.
        let next = (check + check / 2).max(check + 1024);
        let soonest = (check + check / 8).max(check + 1024);
        check = needs
            .and_then(|h| usize::try_from(h).ok())
            .map_or(next, |h| h.clamp(soonest, next));
    }
}
