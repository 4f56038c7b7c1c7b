//! Nim-sequences of octal games by the sparse-space method (Flammenkamp; Winning Ways ch. 4,
//! "sparse space"; the rare/common split as Beling's `ogs` states it for any set of values).
//!
//! The naive loop finds `G(n)` as the mex of `G(a) ^ G(m - a)` over every split of every
//! `m = n - k`: quadratic in `n`. In most octal games the values fall into two classes: a set
//! `C` of *common* values that contains no xor of two of its members (`C ^ C` and `C` are
//! disjoint; 0 is never common), and the *rare* rest, taken by few positions. Then a split of
//! two common heaps never has a common value, so every common option value comes from a split
//! with a rare heap, and a loop over the rare positions alone lists them all. The mex is the
//! first value that is not an option: scanning upwards, a value the rare loop marked is an
//! option; an unmarked common value is the mex; an unmarked rare value is looked for among
//! the remaining splits, whose xors are marked as the scan goes (so one heap never scans more
//! than the naive loop would). A rare mex, which needs the full scan, is rare by definition.
//!
//! In some games the split shows only when a heap's value is read with its parity (ogs's
//! RC2): with keys `2 G(n) + n % 2`, a split of `m = n - k` into two heaps has key
//! `key(a) ^ key(m - a)`, which is the option's value with the parity of `n`, flipped when `k`
//! is odd. So the split takes fall into two classes by the parity of `k`, each with its own
//! `C` of keys (no `c1 ^ c2 ^ (k % 2)` of two members in it) and its own rare heaps; a value
//! `v` is then the mex when it is no option and, in each class, `2 v + n % 2` is common.
//! 0.207 has 37 times fewer rare-loop steps that way, 0.127 half; 0.6 none fewer.
//!
//! The answer is exact whatever `C` is; a good `C` only makes it fast. `C` is built greedily
//! from the keys in order of frequency (each joins if no two members make it) and rebuilt
//! whenever the rare positions have doubled since the last build, with or without the parity,
//! whichever gives the shorter rare loops; while the rare positions are too many for the split
//! to pay, each heap is done by the full scan.

mod checkpoint;
mod class;
mod marks;
mod pipeline;
mod table;

pub(crate) use table::{grow, naive};

use crate::core::error::{Error, Result};
use crate::impartial::period::{period_test, Period};
use checkpoint::{write_le, Checkpoint, SAVE_EVERY};
use class::Class;
use marks::*;
use pipeline::*;
use table::Table;

/// A table entry: `u16` for the usual games, `u32` when a value outgrows it.
pub(crate) trait Nimber: Copy + Eq + Default + Into<u32> + Send + Sync + 'static {
    /// The largest value the type holds.
    const LIMIT: u32;
    /// `v`, which is at most [`Nimber::LIMIT`].
    fn of(v: u32) -> Self;
}

impl Nimber for u16 {
    const LIMIT: u32 = u16::MAX as u32;
    fn of(v: u32) -> Self {
        v as u16
    }
}

impl Nimber for u32 {
    const LIMIT: u32 = u32::MAX;
    fn of(v: u32) -> Self {
        v
    }
}

/// The moves an octal code allows, as lists of how many tokens each kind takes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Takes {
    /// A heap of exactly `k` may be removed whole (bit 1 of digit `k`, `k > 0`).
    pub whole: Vec<usize>,
    /// `k` tokens may be taken leaving one non-empty heap (bit 2, `k > 0`).
    pub one: Vec<usize>,
    /// `k` tokens may be taken leaving two non-empty heaps (bit 4).
    pub two: Vec<usize>,
    /// `k` tokens may be taken leaving three non-empty heaps (bit 8, hexadecimal codes).
    pub three: Vec<usize>,
    /// The two heaps a split leaves must differ in size (Grundy's game: `two = [0]`).
    pub unequal: bool,
}

impl Takes {
    /// The largest smaller part of a split of `m` (splits are `a + (m - a)`, `1 <= a <= half`).
    fn half(&self, m: usize) -> usize {
        if self.unequal {
            m.saturating_sub(1) / 2
        } else {
            m / 2
        }
    }

    /// The takes of the digits `d0, d1, …` of an octal code.
    pub fn of_digits(digits: &[u8]) -> Self {
        let mut t = Takes::default();
        for (k, &d) in digits.iter().enumerate() {
            if d & 1 != 0 && k > 0 {
                t.whole.push(k);
            }
            if d & 2 != 0 && k > 0 {
                t.one.push(k);
            }
            if d & 4 != 0 {
                t.two.push(k);
            }
            if d & 8 != 0 {
                t.three.push(k);
            }
        }
        t
    }
}

/// Why the table stopped growing.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A value does not fit the entry type: go on with a wider one.
    Overflow,
    /// A budget ran out or the user interrupted.
    Failed(Error),
}

/// The nim-sequence of an octal game, grown one heap at a time.
pub(crate) struct Sparse<V> {
    takes: Takes,
    /// `G(0..len)`.
    values: Vec<V>,
    /// How many heaps have each value.
    count: Vec<u64>,
    /// How many heaps have each key with the heap's parity, `2 G(n) + n % 2`.
    count_parity: Vec<u64>,
    /// Whether the classes' keys are `2 G(n) + n % 2` (ogs's RC2) rather than `G(n)`.
    parity: bool,
    /// The split takes in classes, each with its common set.
    classes: Vec<Class<V>>,
    /// The rare heaps of all classes when the classes were last built.
    rare_at_build: usize,
    /// How many times the classes have been built: the helper's marks were made for one.
    generation: u64,
    /// `stamp[x] == tag`: `x` is an option value of the heap being computed. Its length is a
    /// power of two above every xor of two values.
    stamp: Vec<u32>,
    tag: u32,
    /// For each split take, the next `a` of the scan of the current heap.
    cursor: Vec<usize>,
    /// With three-heap moves: for each `s`, the values of the splits of a heap of `s` into
    /// two, `{G(b) ^ G(s - b)}`, as a bit set (words of 64 values; each as long as the value
    /// space was when it was made, which held every such xor then).
    pair_values: Vec<Vec<u64>>,
    /// Pairs examined so far.
    work: u64,
}

impl<V: Nimber> Sparse<V> {
    /// An empty table for the moves `takes`.
    pub fn new(takes: Takes) -> Self {
        let splits = takes.two.len();
        let classes = Class::of(&takes, false, 128);
        Sparse {
            takes,
            values: Vec::new(),
            count: vec![0; 64],
            count_parity: vec![0; 128],
            parity: false,
            classes,
            rare_at_build: 0,
            generation: 0,
            stamp: vec![0; 64],
            tag: 0,
            cursor: vec![0; splits],
            pair_values: Vec::new(),
            work: 0,
        }
    }

    /// The table of a narrower entry type, to go on with this one.
    pub fn widen<W: Nimber>(from: Sparse<W>) -> Self {
        Sparse {
            values: from.values.iter().map(|&v| V::of(v.into())).collect(),
            takes: from.takes,
            count: from.count,
            count_parity: from.count_parity,
            parity: from.parity,
            classes: from.classes.into_iter().map(Class::widen).collect(),
            rare_at_build: from.rare_at_build,
            generation: from.generation,
            stamp: from.stamp,
            tag: from.tag,
            cursor: from.cursor,
            pair_values: from.pair_values,
            work: from.work,
        }
    }

    /// `G(0..len)`.
    pub fn values(&self) -> &[V] {
        &self.values
    }

    /// Grows the table to `G(0..=upto)`, checking the work budget `max_work` and for
    /// interruption every few thousand heaps; returns early (false) at one of those checks
    /// past `pause` (a checkpoint is due).
    pub fn extend_to(
        &mut self,
        upto: usize,
        max_work: u64,
        what: &str,
        pause: Option<std::time::Instant>,
    ) -> Result<bool, Stop> {
        self.values
            .reserve((upto + 1).saturating_sub(self.values.len()));
        // The helper pays when the rare loops are long and not when the rare heaps are so
        // many that every split is scanned (that is for this thread alone).
        let n = self.values.len();
        let rare_loops: usize = self
            .classes
            .iter()
            .map(|c| c.takes.len() * c.rare.len())
            .sum();
        if self.takes.three.is_empty()
            && rare_loops >= HELPER_FROM
            && self.classes.iter().all(|c| c.rare.len() * 4 <= n)
            && upto >= n + PARALLEL_FROM
            && rayon::current_num_threads() >= 2
        {
            return self.extend_with_helper(upto, max_work, what, pause);
        }
        while self.values.len() <= upto {
            let n = self.values.len();
            if n % 4096 == 0 && !self.checks(n, max_work, what, pause)? {
                return Ok(false);
            }
            let g = self.next_value(n, None);
            if g > V::LIMIT {
                return Err(Stop::Overflow);
            }
            self.push(n, g);
        }
        Ok(true)
    }

    /// The checks made every few thousand heaps: false when a checkpoint is due.
    fn checks(
        &self,
        n: usize,
        max_work: u64,
        what: &str,
        pause: Option<std::time::Instant>,
    ) -> Result<bool, Stop> {
        if pause.is_some_and(|p| std::time::Instant::now() >= p) {
            return Ok(false);
        }
        crate::core::progress::tick(n as u64).map_err(Stop::Failed)?;
        if self.work > max_work {
            let what = format!("{what} (stopped at heap {n})");
            return Err(Stop::Failed(
                crate::core::budget::check_work(&what, self.work, max_work).unwrap_err(),
            ));
        }
        Ok(true)
    }

    /// [`Sparse::extend_to`] with a second thread, the helper, that works on the heaps a few
    /// batches ([`BATCH`] heaps, [`AHEAD`]) ahead while this thread finds values. The helper knows
    /// `G(0..known)` only: for heap `n` it marks the splits `r + (m - r)` with a rare `r`
    /// whose parts are both below `known`, and this thread marks the splits whose larger part
    /// is not (the first `m - known`, which its scan would look at first anyway). The helper
    /// takes on as much as keeps the two threads equally busy: part of the rare loop (this
    /// thread does the rest), or all of it and the start of the scan. When `C` was rebuilt
    /// after the helper's marks were made, they may miss a rare heap, and this thread does
    /// that heap alone.
    fn extend_with_helper(
        &mut self,
        upto: usize,
        max_work: u64,
        what: &str,
        pause: Option<std::time::Instant>,
    ) -> Result<bool, Stop> {
        let first = self.values.len();
        let helper = Helper {
            takes: self.takes.clone(),
            values: self.values.clone(),
            classes: self.helper_classes(),
            generation: self.generation,
        };
        let waited = &std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            let (to_helper, jobs) = std::sync::mpsc::channel::<Job<V>>();
            let (to_main, done) = std::sync::mpsc::channel::<Done>();
            scope.spawn(move || helper.run(jobs, to_main, waited));
            // The helper works [`AHEAD`] batches ahead. A send fails only when the helper has
            // gone, which it does only when this thread has; a receive then gets nothing, and
            // this thread does without marks.
            for b in 0..AHEAD {
                let _ = to_helper.send(Job {
                    values: Vec::new(),
                    rare: None,
                    space: self.stamp.len(),
                    start: first + b * BATCH,
                    done: None,
                });
            }
            let mut end = first;
            let mut pre: Option<Done> = None;
            let mut fresh = Vec::with_capacity(BATCH);
            let mut generation = self.generation;
            while self.values.len() <= upto {
                let n = self.values.len();
                // Returning drops the sender, which ends the helper.
                if n % 4096 == 0 && !self.checks(n, max_work, what, pause)? {
                    return Ok(false);
                }
                if n == end {
                    let old = pre.take();
                    // A wait of a microsecond or so is the helper's answer on its way, not a
                    // helper with too much to do.
                    pre = match poll(&done, 256) {
                        Ok(d) => Some(d),
                        Err(_) => {
                            waited.store(true, std::sync::atomic::Ordering::Relaxed);
                            wait(&done)
                        }
                    };
                    debug_assert!(pre.as_ref().is_none_or(|d| d.start == n));
                    if let Some(d) = &pre {
                        self.work += d.work;
                    }
                    end = n + BATCH;
                    // The batch before last is done with: its table goes back to be reused.
                    if let Some(old) = old {
                        let _ = to_helper.send(Job {
                            values: std::mem::take(&mut fresh),
                            rare: (self.generation != generation)
                                .then(|| (self.helper_classes(), self.generation)),
                            space: self.stamp.len(),
                            start: n + (AHEAD - 1) * BATCH,
                            done: Some(old),
                        });
                        generation = self.generation;
                    }
                }
                let usable = pre
                    .as_ref()
                    .filter(|d| d.generation == self.generation)
                    .and_then(|d| d.heap(n));
                let g = self.next_value(n, usable);
                if g > V::LIMIT {
                    return Err(Stop::Overflow);
                }
                let rare = self.push(n, g);
                fresh.push((V::of(g), rare));
            }
            Ok(true)
        })
    }

    /// The table of `values` (as a run that computed them would have left it: the same
    /// common set, rebuilt at the same points), to go on from.
    fn resume(takes: Takes, values: &[u32]) -> Self {
        let mut t = Sparse::new(takes);
        t.values.reserve(values.len());
        for (n, &g) in values.iter().enumerate() {
            t.push(n, g);
        }
        t
    }

    /// `G(n)`, given `G(0..n)`; `pre` are the helper's marks of the rare loop of heap `n`,
    /// made for the present `C`.
    // Kept as one function: the engine's hot loop, one heap's value: the scan's position, the marks
    // and the classes' state stay in locals the compiler keeps in registers; the rare loops it
    // calls are functions of their own (marks.rs).
    fn next_value(&mut self, n: usize, pre: Option<Pre<'_>>) -> u32 {
        self.tag = self.tag.wrapping_add(1);
        if self.tag == 0 {
            self.stamp.fill(0);
            self.tag = 1;
        }
        let tag = self.tag;
        let g = &self.values;
        let stamp = &mut self.stamp;
        for &k in &self.takes.whole {
            if k == n {
                stamp[0] = tag;
            }
        }
        for &k in &self.takes.one {
            if k < n {
                stamp[g[n - k].into() as usize] = tag;
            }
        }
        if !self.takes.three.is_empty() {
            // A split into three heaps a <= b <= c has value G(a) ^ x for x a value of the
            // split of b + c into two; every option is marked, so the rare/common reasoning
            // below, which concerns the two-heap splits, is unchanged.
            let fresh = n.saturating_sub(1);
            while self.pair_values.len() <= fresh {
                let s = self.pair_values.len();
                let mut set = vec![0u64; stamp.len() / 64];
                for b in 1..s {
                    let x = (g[b].into() ^ g[s - b].into()) as usize;
                    set[x / 64] |= 1 << (x % 64);
                }
                self.work += s as u64;
                self.pair_values.push(set);
            }
            for &k in &self.takes.three {
                if k + 3 > n {
                    continue;
                }
                let m = n - k;
                for (a, &ga) in g.iter().enumerate().take(m / 3 + 1).skip(1) {
                    let ga = ga.into() as usize;
                    for (w, &word) in self.pair_values[m - a].iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            let x = w * 64 + bits.trailing_zeros() as usize;
                            stamp[x ^ ga] = tag;
                            bits &= bits - 1;
                        }
                    }
                    self.work += self.pair_values[m - a].len() as u64;
                }
            }
        }
        // The rare loop costs a pass over the rare heaps per split take: when they are a
        // sizeable part of all heaps the plain scan is as cheap.
        let mut dense = [false; 2];
        // Classes whose every split is marked: dense ones, and those with no split of `n`.
        let mut all_marked = [false; 2];
        for (c, class) in self.classes.iter().enumerate() {
            // Every heap below `n` is in, and no other.
            let in_play = class.rare.len();
            dense[c] = in_play * 4 > n;
            all_marked[c] = dense[c] || class.takes.iter().all(|&i| self.takes.two[i] + 2 > n);
            // A take's marks wait here for the next take's, so that the two run as one pass
            // over the rare heaps and over the splits the helper did not know: `(m, low,
            // below)`, the first `low - 1` splits to mark and the rare heaps `from..below`.
            let mut waiting: Option<(usize, usize, usize)> = None;
            // The rare heaps the helper has done (the same for every take of the class).
            let from = pre.map_or(0, |p| class.rare.partition_point(|&r| r < p.rare_cut[c]));
            for &i in &class.takes {
                let k = self.takes.two[i];
                self.cursor[i] = 1;
                if k + 2 > n {
                    continue;
                }
                let m = n - k;
                let half = self.takes.half(m);
                // The rare heaps below `m`: all but the last few (at most `k`).
                let below = in_play
                    - class.rare[in_play.saturating_sub(k)..]
                        .iter()
                        .filter(|&&r| r as usize >= m)
                        .count();
                if dense[c] {
                    mark_splits(g, m, 1, half + 1, stamp, tag);
                    self.work += half as u64;
                    self.cursor[i] = half + 1;
                    continue;
                }
                let mut low = 1;
                if let Some(p) = pre {
                    // The helper had the splits with a rare part below `p.rare_cut` and both
                    // parts below `p.known`; those with a part at or above `p.known` are the
                    // first of the scan, and the helper scanned on from them.
                    let high;
                    (low, high) = Pre::scan(p.known, p.scanned, m, half);
                    self.cursor[i] = high;
                }
                self.work += (low - 1 + below.saturating_sub(from)) as u64;
                let Some((m0, low0, below0)) = waiting.take() else {
                    waiting = Some((m, low, below));
                    continue;
                };
                if low0.max(low) > 1 {
                    mark_pair(g, [m0, m], [1, 1], [low0, low], stamp, tag);
                }
                let both = below.min(below0).max(from);
                if !self.takes.unequal {
                    mark_rare2(g, [m0, m], class.rare_from(from, both), stamp, tag);
                }
                let start = if self.takes.unequal { from } else { both };
                for (m, below) in [(m0, below0), (m, below)] {
                    if start < below {
                        let rare = class.rare_from(start, below);
                        mark_rare(g, m, rare, self.takes.unequal, stamp, tag);
                    }
                }
            }
            if let Some((m, low, below)) = waiting {
                mark_splits(g, m, 1, low, stamp, tag);
                if from < below {
                    let rare = class.rare_from(from, below);
                    mark_rare(g, m, rare, self.takes.unequal, stamp, tag);
                }
            }
        }
        let mut v = 0usize;
        loop {
            if v == self.stamp.len() {
                // Every value below the array's length is an option: the mex is past them.
                return v as u32;
            }
            if self.stamp[v] == tag || pre.is_some_and(|p| p.has(v)) {
                v += 1;
                continue;
            }
            // `v` is the mex when no split can have it: in each class, every split with a
            // rare part is marked, and either all of its splits are, or `v` is common (two
            // common parts never make a common value).
            let key = self.key(n, v as u32) as usize;
            let settled = self
                .classes
                .iter()
                .enumerate()
                .all(|(c, class)| all_marked[c] || class.common[key]);
            if settled || !self.scan_for(n, v as u32) {
                return v as u32;
            }
            v += 1;
        }
    }

    /// Scans the splits of heap `n` not yet scanned, marking their xors, until one has value
    /// `v`: whether one does. The split takes are scanned side by side, a stretch of each in
    /// turn, since `v` may be easy to reach with one take and impossible with another.
    fn scan_for(&mut self, n: usize, v: u32) -> bool {
        // Marking past the first split of value `v` only records more options, so a stretch
        // is scanned whole and tested once: a loop without a branch in it.
        // Far into a scan a stretch is longer, an eighth of the way come: a call costs
        // about as much as marking a few dozen splits, and a scan that has gone far tends
        // to go farther.
        let stretch = |start: usize| (start / 8).clamp(64, 512);
        let g = &self.values;
        let stamp = &mut self.stamp[..];
        let tag = self.tag;
        let two = &self.takes.two;
        loop {
            let mut more = false;
            let mut i = 0;
            while i < two.len() {
                let k = two[i];
                if k + 2 > n {
                    i += 1;
                    continue;
                }
                let m = n - k;
                let half = self.takes.half(m);
                let start = self.cursor[i];
                // Two takes are scanned in one pass (where their scans overlap).
                if i + 1 < two.len() && two[i + 1] + 2 <= n {
                    let m1 = n - two[i + 1];
                    let half1 = self.takes.half(m1);
                    let start1 = self.cursor[i + 1];
                    let end = (start + stretch(start)).min(half + 1);
                    let end1 = (start1 + stretch(start1)).min(half1 + 1);
                    // (A cursor is at most `half + 1`, so neither end is before its start.)
                    if start < end || start1 < end1 {
                        mark_pair(g, [m, m1], [start, start1], [end, end1], stamp, tag);
                        self.cursor[i] = end;
                        self.cursor[i + 1] = end1;
                        self.work += (end - start + end1 - start1) as u64;
                        if stamp[v as usize] == tag {
                            return true;
                        }
                    }
                    more |= end <= half || end1 <= half1;
                    i += 2;
                    continue;
                }
                let end = (start + stretch(start)).min(half + 1);
                if start < end {
                    mark_splits(g, m, start, end, stamp, tag);
                    self.cursor[i] = end;
                    self.work += (end - start) as u64;
                    if stamp[v as usize] == tag {
                        return true;
                    }
                }
                more |= end <= half;
                i += 1;
            }
            if !more {
                return false;
            }
        }
    }

    /// The key by which the classes sort heap `n` of value `g`.
    fn key(&self, n: usize, g: u32) -> u32 {
        if self.parity {
            g << 1 | (n as u32 & 1)
        } else {
            g
        }
    }

    /// The classes as the helper needs them.
    fn helper_classes(&self) -> Vec<HelperClass<V>> {
        self.classes
            .iter()
            .map(|c| HelperClass {
                takes: c.takes.clone(),
                rare: c.rare.clone(),
                rare_values: c.rare_values.clone(),
            })
            .collect()
    }

    /// Appends `G(n) = g`: counts it, classifies a key seen for the first time, records a
    /// rare heap, and rebuilds the classes when the rare heaps have doubled. Returns the
    /// classes (bit `c` for class `c`) in which heap `n` was found rare.
    fn push(&mut self, n: usize, g: u32) -> u8 {
        self.values.push(V::of(g));
        let gu = g as usize;
        // The arrays by value stay a power of two above every xor of two values, those by
        // key twice as long.
        let need = ((gu + 1).next_power_of_two() * 2).max(64);
        if need > self.stamp.len() {
            self.stamp.resize(need, 0);
            self.count.resize(need, 0);
            self.count_parity.resize(2 * need, 0);
            for class in &mut self.classes {
                class.common.resize(2 * need, false);
            }
        }
        self.count[gu] += 1;
        let with_parity = (gu << 1) | (n & 1);
        self.count_parity[with_parity] += 1;
        let (key, first) = if self.parity {
            (with_parity as u32, self.count_parity[with_parity] == 1)
        } else {
            (g, self.count[gu] == 1)
        };
        let mut rare = 0u8;
        for (c, class) in self.classes.iter_mut().enumerate() {
            if first && class.can_join(key) {
                class.common[key as usize] = true;
                class.common_list.push(key);
            }
            if !class.common[key as usize] && n > 0 {
                class.rare.push(n as u32);
                class.rare_values.push(V::of(g));
                rare |= 1 << c;
            }
        }
        if self.rare_heaps() > 2 * self.rare_at_build.max(32) {
            self.rebuild();
        }
        rare
    }

    /// The rare heaps of all classes.
    fn rare_heaps(&self) -> usize {
        self.classes.iter().map(|c| c.rare.len()).sum()
    }

    /// Builds the classes afresh, with or without the heaps' parity in the keys, whichever
    /// makes the rare loops shorter: the takes of a class times its rare heaps, summed.
    fn rebuild(&mut self) {
        let space = self.count_parity.len();
        let mut best: Option<(u64, bool, Vec<Class<V>>)> = None;
        for parity in [false, true] {
            let count = if parity {
                &self.count_parity
            } else {
                &self.count
            };
            let mut by_count: Vec<u32> = (0..count.len() as u32)
                .filter(|&x| count[x as usize] > 0)
                .collect();
            by_count.sort_by_key(|&x| (std::cmp::Reverse(count[x as usize]), x));
            let mut classes = Class::of(&self.takes, parity, space);
            let mut cost = 0;
            for class in &mut classes {
                for &x in &by_count {
                    if class.can_join(x) {
                        class.common[x as usize] = true;
                        class.common_list.push(x);
                    }
                }
                let rare: u64 = by_count
                    .iter()
                    .filter(|&&x| !class.common[x as usize])
                    .map(|&x| count[x as usize])
                    .sum();
                cost += rare * class.takes.len() as u64;
            }
            if best.as_ref().is_none_or(|(c, _, _)| cost < *c) {
                best = Some((cost, parity, classes));
            }
        }
        let Some((_, parity, mut classes)) = best else {
            return;
        };
        self.parity = parity;
        for (n, &v) in self.values.iter().enumerate().skip(1) {
            let key = self.key(n, v.into()) as usize;
            for class in &mut classes {
                if !class.common[key] {
                    class.rare.push(n as u32);
                    class.rare_values.push(v);
                }
            }
        }
        self.classes = classes;
        self.rare_at_build = self.rare_heaps();
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of the octal code with digits `digits` to `upto`, and whether it chose keys
    /// with the heaps' parity.
    fn table(digits: &[u8], upto: usize) -> (Vec<u32>, bool) {
        let mut t = Sparse::<u16>::new(Takes::of_digits(digits));
        assert!(t.extend_to(upto, u64::MAX, "test", None).unwrap());
        (t.values().iter().map(|&v| u32::from(v)).collect(), t.parity)
    }

    /// 0.207 (splits taking an odd number) and 4.364 (splits taking an even and an odd
    /// number, two classes): the heaps' parity in the keys leaves far fewer rare heaps, the
    /// table chooses it, and the values are the naive loop's.
    #[test]
    fn keys_with_parity_are_chosen_where_they_pay_and_agree_with_the_naive_loop() {
        for digits in [&[0, 2, 0, 7][..], &[4, 3, 6, 4]] {
            let (values, parity) = table(digits, 6000);
            assert!(parity, "{digits:?}");
            assert_eq!(values, naive(&Takes::of_digits(digits), 6000), "{digits:?}");
        }
    }

    /// The helper thread changes nothing: run in a pool of one thread (no helper) and of two,
    /// the tables are the same, to past several rebuilds of the classes.
    #[test]
    fn one_thread_and_two_agree() {
        let in_pool = |threads, digits: &[u8]| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| table(digits, 30_000))
        };
        for digits in [&[0, 6][..], &[4, 0, 0, 7], &[0, 2, 0, 4], &[4, 3, 6, 4]] {
            assert_eq!(in_pool(1, digits), in_pool(2, digits), "{digits:?}");
        }
    }

    /// 0.6 keeps plain values: the parity gains nothing there.
    #[test]
    fn keys_without_parity_where_it_gains_nothing() {
        let (values, parity) = table(&[0, 6], 6000);
        assert!(!parity);
        assert_eq!(values, naive(&Takes::of_digits(&[0, 6]), 6000));
    }

    /// The period test names the table that would prove the period the table ends in (the
    /// test's horizon, plus one), and a table that long proves it.
    #[test]
    fn the_period_test_says_how_long_a_table_would_prove_a_period() {
        let mut seed = 12345u64;
        let mut values: Vec<u32> = (0..300)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as u32 % 50
            })
            .collect();
        values.extend((0..700).map(|i| 100 + i % 7));
        let horizon = |pre: u64, p: u64| Some(2 * (pre + p) + 1);
        let z = &mut Vec::new();
        // 2 (300 + 7) + 1 = 615: not proved by 500 values, proved by 616 and not by 615.
        assert_eq!(period_test(&values[..500], horizon, z), (None, Some(616)));
        assert_eq!(period_test(&values[..615], horizon, z), (None, Some(616)));
        let period = Period {
            preperiod: 300,
            period: 7,
        };
        assert_eq!(
            period_test(&values[..616], horizon, z),
            (Some(period), None)
        );
        assert_eq!(period_test(&values, horizon, z), (Some(period), None));
    }

    /// A proof that fits the memory budget is found though the table's next step would not
    /// fit: 0.156 (preperiod 3479, period 349) proved with room for the test's horizon and no
    /// more, which the old steps of a quarter overshot.
    #[test]
    fn a_proof_is_found_within_a_budget_that_just_holds_it() {
        let takes = Takes::of_digits(&[0, 1, 5, 6]);
        // Guy–Smith for octal games: 2 (preperiod + period) + the largest take - 1.
        let horizon = |pre: u64, p: u64| Some(2 * (pre + p) + 3 - 1);
        let h = horizon(3479, 349).unwrap();
        let limits = crate::core::budget::Limits {
            max_memory: (h + 2) * 24,
            ..Default::default()
        };
        let (values, period) =
            grow(&takes, 1 << 20, true, &limits, "test", &horizon, None).unwrap();
        assert_eq!(
            period,
            Some(Period {
                preperiod: 3479,
                period: 349
            })
        );
        assert!(values.len() as u64 <= h + 2);
        assert_eq!(values, naive(&takes, values.len() - 1));
    }

    /// Bytes of 0 and 1 turn into the bits they stand for, in order.
    #[test]
    fn bytes_become_bits() {
        let mut seed = 99u64;
        for _ in 0..1000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let bytes: Vec<u8> = (0..64).map(|j| (seed >> (j % 61) & 1) as u8).collect();
            let want = (0..64).fold(0u64, |w, j| w | u64::from(bytes[j]) << j);
            assert_eq!(bits_of_bytes(&bytes), want);
        }
        assert_eq!(bits_of_bytes(&[1; 64]), u64::MAX);
        assert_eq!(bits_of_bytes(&[0; 64]), 0);
    }
}
