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

use crate::core::error::{Error, Result};
use crate::impartial::period::{period_test, Period};

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

/// Split takes that share a common set `C`: all of them, or, when the keys carry the heap's
/// parity, those that take an even or an odd number of tokens (`d` = 0 or 1). A split of
/// `m = n - k` into `a + c` has `key(a) ^ key(c) = key(option) ^ d`, where the option's key
/// is its value with the parity of `n`; so `C` must hold no `c1 ^ c2 ^ d` of two of its
/// members, and then a split of two common heaps never has a value whose key is common.
struct Class<V> {
    d: u32,
    /// Indices of the class's takes in [`Takes::two`].
    takes: Vec<usize>,
    /// Whether each key is common.
    common: Vec<bool>,
    /// The common keys.
    common_list: Vec<u32>,
    /// The heaps `n >= 1` whose key is rare, in increasing order.
    rare: Vec<u32>,
    /// Their values, `G(rare[i])`, side by side so that the rare loop reads them in order.
    rare_values: Vec<V>,
}

impl<V: Nimber> Class<V> {
    /// The classes of the split takes, empty, with room for keys below `space`.
    fn of(takes: &Takes, parity: bool, space: usize) -> Vec<Self> {
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
    fn rare_from(&self, from: usize, to: usize) -> (&[u32], &[V]) {
        (&self.rare[from..to], &self.rare_values[from..to])
    }

    /// Whether `x` may join `C`: `x` is not `d` (a split into two heaps of one key has
    /// the key `d`), and no two common keys make it.
    fn can_join(&self, x: u32) -> bool {
        x != self.d
            && self
                .common_list
                .iter()
                .all(|&c| !self.common[(c ^ x ^ self.d) as usize])
    }

    fn widen<W: Nimber>(from: Class<W>) -> Self {
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

/// Below this many heaps to go a table grows without the helper thread (low enough that the
/// tests against the naive loop, to a few thousand, run through it).
const PARALLEL_FROM: usize = 256;

/// The rare-loop steps a heap below which the helper thread costs more than it saves.
const HELPER_FROM: usize = 1024;

/// Heaps in a batch of the helper's: one exchange between the threads a batch.
const BATCH: usize = 64;

/// How many batches the helper is asked for ahead of the one the main thread starts.
const AHEAD: usize = 3;

/// The heaps the helper is to prepare next, and what it needs to know for them.
struct Job<V> {
    /// The values that follow those it knows, with the classes (bit `c` for class `c`) in
    /// which each is rare (when `rare` is `None`).
    values: Vec<(V, u8)>,
    /// After the classes were rebuilt: them, and the build's number.
    rare: Option<(Vec<HelperClass<V>>, u64)>,
    /// A power of two above every xor of two values.
    space: usize,
    /// The first heap of the batch.
    start: usize,
    /// A batch's answer to reuse the memory of.
    done: Option<Done>,
}

/// The helper's marks for a batch of heaps.
struct Done {
    start: usize,
    /// How many values the helper knew.
    known: usize,
    /// The rare heaps the helper did, for each class: those below this one.
    rare_cut: [u32; 2],
    /// How many splits with both parts below `known` the helper scanned, for each split
    /// take, after the splits with a part at or above `known`.
    scanned: usize,
    /// The build of `C` the rare heaps were of.
    generation: u64,
    /// Words of the bit set of one heap.
    words: usize,
    /// For each heap of the batch, the option values it marked, as a bit set; or nothing
    /// for a heap whose rare heaps were too many for the rare loop to pay.
    bits: Vec<u64>,
    done: [bool; BATCH],
    /// Pairs examined.
    work: u64,
}

impl Done {
    /// Heap `n`'s marks, if the helper made them.
    fn heap(&self, n: usize) -> Option<Pre<'_>> {
        let i = n
            .checked_sub(self.start)
            .filter(|&i| i < BATCH && self.done[i])?;
        Some(Pre {
            bits: &self.bits[i * self.words..(i + 1) * self.words],
            known: self.known,
            rare_cut: self.rare_cut,
            scanned: self.scanned,
        })
    }
}

/// The helper's marks for one heap: for each split take, the option values of the splits
/// with a rare heap below its class's `rare_cut` whose parts are both below `known`, and of
/// the `scanned` splits that follow those with a part at or above `known` (see
/// [`Pre::scan`]).
#[derive(Clone, Copy)]
struct Pre<'a> {
    bits: &'a [u64],
    known: usize,
    rare_cut: [u32; 2],
    scanned: usize,
}

impl Pre<'_> {
    /// For the splits `a + (m - a)` (`a <= half`): the first `a` whose part `m - a` is below
    /// `known`, and the first `a` past the helper's scan.
    fn scan(known: usize, scanned: usize, m: usize, half: usize) -> (usize, usize) {
        let low = m.saturating_sub(known).min(half) + 1;
        (low, (low + scanned).min(half + 1))
    }

    fn has(&self, x: usize) -> bool {
        self.bits
            .get(x / 64)
            .is_some_and(|w| w >> (x % 64) & 1 != 0)
    }
}

/// A class of split takes as the helper knows it.
struct HelperClass<V> {
    /// Indices of the takes in [`Takes::two`].
    takes: Vec<usize>,
    /// The rare heaps, and their values.
    rare: Vec<u32>,
    rare_values: Vec<V>,
}

/// The second thread of [`Sparse::extend_with_helper`], with its own copy of the values and
/// the rare heaps.
struct Helper<V> {
    takes: Takes,
    values: Vec<V>,
    classes: Vec<HelperClass<V>>,
    generation: u64,
}

impl<V: Nimber> Helper<V> {
    /// Answers `jobs` on `done`; `waited` is set when the main thread had to wait for an
    /// answer.
    fn run(
        mut self,
        jobs: std::sync::mpsc::Receiver<Job<V>>,
        done: std::sync::mpsc::Sender<Done>,
        waited: &std::sync::atomic::AtomicBool,
    ) {
        // A byte a value, cleared for each heap: it turns into the answer's bit set eight
        // values to a multiplication.
        let mut stamp: Vec<u8> = Vec::new();
        // How much of each heap's work to take on, so that this thread is about as busy as
        // the main one: the rare loop over the first `share` 64ths of each class's rare
        // heaps, and when that is all of them, a scan of `scan` splits past those the main
        // thread must do.
        const WHOLE: usize = 64;
        let mut share = 0usize;
        let mut scan = 0usize;
        // Jobs come batches ahead of need: waiting for one asleep costs nothing.
        while let Ok(job) = jobs.recv() {
            if waited.swap(false, std::sync::atomic::Ordering::Relaxed) {
                if scan > 0 {
                    scan -= scan / 8 + 1;
                } else {
                    share -= share.div_ceil(8);
                }
            } else if share == WHOLE {
                scan = (scan + 8 + scan / 64).min(1 << 16);
            } else {
                share += 1;
            }
            for (value, rare) in job.values {
                let n = self.values.len();
                self.values.push(value);
                if job.rare.is_none() && n > 0 {
                    for (c, class) in self.classes.iter_mut().enumerate() {
                        if rare >> c & 1 != 0 {
                            class.rare.push(n as u32);
                            class.rare_values.push(value);
                        }
                    }
                }
            }
            if let Some((classes, generation)) = job.rare {
                self.classes = classes;
                self.generation = generation;
            }
            if stamp.len() < job.space {
                stamp.resize(job.space, 0);
            }
            let known = self.values.len();
            let words = stamp.len() / 64;
            let mut answer = job.done.unwrap_or(Done {
                start: 0,
                known: 0,
                rare_cut: [0; 2],
                scanned: 0,
                generation: 0,
                words: 0,
                bits: Vec::new(),
                done: [false; BATCH],
                work: 0,
            });
            answer.start = job.start;
            answer.known = known;
            // (Read after the job's rare heaps are in.)
            for (c, class) in self.classes.iter().enumerate() {
                answer.rare_cut[c] = if share == WHOLE {
                    u32::MAX
                } else {
                    class.rare[class.rare.len() * share / WHOLE..]
                        .first()
                        .copied()
                        .unwrap_or(u32::MAX)
                };
            }
            answer.scanned = if share == WHOLE { scan } else { 0 };
            answer.generation = self.generation;
            answer.words = words;
            answer.work = 0;
            answer.bits.clear();
            answer.bits.resize(words * BATCH, 0);
            for i in 0..BATCH {
                let h = job.start + i;
                // As `next_value` decides, on the rare heaps known.
                answer.done[i] = self.classes.iter().all(|c| c.rare.len() * 4 <= h);
                if !answer.done[i] {
                    continue;
                }
                stamp.fill(0);
                for (c, class) in self.classes.iter().enumerate() {
                    for &t in &class.takes {
                        let k = self.takes.two[t];
                        if k + 2 > h {
                            continue;
                        }
                        let m = h - k;
                        // Both parts below `known`: `m - known < r < known`.
                        let rare = &class.rare;
                        let from = rare.partition_point(|&r| (r as usize) + known <= m);
                        let limit = m.min(known).min(answer.rare_cut[c] as usize);
                        let to = rare.partition_point(|&r| (r as usize) < limit);
                        if from < to {
                            mark_rare(
                                &self.values,
                                m,
                                (&rare[from..to], &class.rare_values[from..to]),
                                self.takes.unequal,
                                &mut stamp,
                                1,
                            );
                            answer.work += (to - from) as u64;
                        }
                        let half = self.takes.half(m);
                        let (low, high) = Pre::scan(known, answer.scanned, m, half);
                        mark_splits(&self.values, m, low, high, &mut stamp, 1);
                        answer.work += (high - low) as u64;
                    }
                }
                let bits = &mut answer.bits[i * words..(i + 1) * words];
                for (word, chunk) in bits.iter_mut().zip(stamp.chunks_exact(64)) {
                    *word = bits_of_bytes(chunk);
                }
            }
            if done.send(answer).is_err() {
                return;
            }
        }
    }
}

/// The next message on `from`, `None` when its sender is gone. It spins a while first: the
/// other thread usually answers within microseconds, sooner than a sleeping thread wakes.
fn wait<T>(from: &std::sync::mpsc::Receiver<T>) -> Option<T> {
    match poll(from, 1 << 14) {
        Ok(x) => Some(x),
        Err(std::sync::mpsc::TryRecvError::Disconnected) => None,
        Err(std::sync::mpsc::TryRecvError::Empty) => from.recv().ok(),
    }
}

/// The next message on `from` if one comes within `spins` tries.
fn poll<T>(
    from: &std::sync::mpsc::Receiver<T>,
    spins: u32,
) -> Result<T, std::sync::mpsc::TryRecvError> {
    let mut last = std::sync::mpsc::TryRecvError::Empty;
    for _ in 0..spins {
        match from.try_recv() {
            Ok(x) => return Ok(x),
            Err(std::sync::mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
            Err(e) => {
                last = e;
                break;
            }
        }
    }
    Err(last)
}

/// The bit set of 64 bytes, each 0 or 1: bit `j` is byte `j`.
fn bits_of_bytes(bytes: &[u8]) -> u64 {
    bytes.chunks_exact(8).enumerate().fold(0, |w, (i, eight)| {
        let x = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        // Byte `j` (0 or 1) times the bit `56 - 7 i` of the multiplier lands on bit `56 + j`
        // for `i = j`; the other products fall on distinct bits below 56 or past 63, so
        // nothing carries into the top byte, which is the eight bits in order.
        w | (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i)
    })
}

/// Marks in `stamp` the values `G(a) ^ G(m - a)` of the splits of `m` with `a` in `from..to`.
// Out of line: inside the caller the loop's registers were spilled to the stack.
#[inline(never)]
fn mark_splits<V: Nimber, S: Copy>(
    g: &[V],
    m: usize,
    from: usize,
    to: usize,
    stamp: &mut [S],
    tag: S,
) {
    // Every xor of two values is below the array's length, a power of two.
    let mask = stamp.len() - 1;
    if from >= to {
        return;
    }
    // `G(a)` for `a` in `from..to`, and `G(m - a)` backwards from the end of `high`.
    let low = &g[from..to];
    let high = &g[m + 1 - to..=m - from];
    for (&x, &y) in low.iter().zip(high.iter().rev()) {
        stamp[(x.into() ^ y.into()) as usize & mask] = tag;
    }
}

/// Marks the splits of `m[0]` with `a` in `from[0]..to[0]` and those of `m[1]` with `a` in
/// `from[1]..to[1]`, where the ranges overlap in one pass.
fn mark_pair<V: Nimber>(
    g: &[V],
    m: [usize; 2],
    from: [usize; 2],
    to: [usize; 2],
    stamp: &mut [u32],
    tag: u32,
) {
    let (lo, hi) = (from[0].max(from[1]), to[0].min(to[1]));
    if lo >= hi {
        mark_splits(g, m[0], from[0], to[0], stamp, tag);
        mark_splits(g, m[1], from[1], to[1], stamp, tag);
        return;
    }
    mark_splits2(g, m, lo, hi, stamp, tag);
    for t in 0..2 {
        mark_splits(g, m[t], from[t], lo, stamp, tag);
        mark_splits(g, m[t], hi, to[t], stamp, tag);
    }
}

/// [`mark_splits`] for two takes at once, the splits of `m[0]` and of `m[1]` with `a` in
/// `from..to` (at most half of either): `G(a)` is read once for both.
#[inline(never)]
fn mark_splits2<V: Nimber>(
    g: &[V],
    m: [usize; 2],
    from: usize,
    to: usize,
    stamp: &mut [u32],
    tag: u32,
) {
    let mask = stamp.len() - 1;
    if from >= to {
        return;
    }
    let low = &g[from..to];
    let high0 = &g[m[0] + 1 - to..=m[0] - from];
    let high1 = &g[m[1] + 1 - to..=m[1] - from];
    for ((&x, &y0), &y1) in low.iter().zip(high0.iter().rev()).zip(high1.iter().rev()) {
        let x = x.into();
        stamp[(x ^ y0.into()) as usize & mask] = tag;
        stamp[(x ^ y1.into()) as usize & mask] = tag;
    }
}

/// Marks in `stamp` the values `G(r) ^ G(m - r)` of the splits of `m` with a rare heap `r`
/// (the rare heaps below `m`, and their values); with `unequal`, not the split into halves.
#[inline(never)]
fn mark_rare<V: Nimber, S: Copy>(
    g: &[V],
    m: usize,
    (rare, values): (&[u32], &[V]),
    unequal: bool,
    stamp: &mut [S],
    tag: S,
) {
    let mask = stamp.len() - 1;
    if unequal {
        for (&r, &v) in rare.iter().zip(values) {
            if 2 * r as usize != m {
                stamp[(v.into() ^ g[m - r as usize].into()) as usize & mask] = tag;
            }
        }
    } else {
        for (&r, &v) in rare.iter().zip(values) {
            stamp[(v.into() ^ g[m - r as usize].into()) as usize & mask] = tag;
        }
    }
}

/// [`mark_rare`] for two takes at once (splits of `m[0]` and of `m[1]`, every rare heap below
/// both), without `unequal`: each rare heap and its value are read once for both.
#[inline(never)]
fn mark_rare2<V: Nimber>(
    g: &[V],
    m: [usize; 2],
    (rare, values): (&[u32], &[V]),
    stamp: &mut [u32],
    tag: u32,
) {
    let mask = stamp.len() - 1;
    for (&r, &v) in rare.iter().zip(values) {
        let v = v.into();
        stamp[(v ^ g[m[0] - r as usize].into()) as usize & mask] = tag;
        stamp[(v ^ g[m[1] - r as usize].into()) as usize & mask] = tag;
    }
}

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
enum Table {
    Small(Sparse<u16>),
    Wide(Sparse<u32>),
}

impl Table {
    /// The table of `values`, in the narrowest entry type that holds them.
    fn resume(takes: &Takes, values: &[u32]) -> Self {
        if values.iter().all(|&v| v <= u16::LIMIT) {
            Table::Small(Sparse::resume(takes.clone(), values))
        } else {
            Table::Wide(Sparse::resume(takes.clone(), values))
        }
    }

    /// Grows the table to `G(0..=upto)`; false when it paused (see [`Sparse::extend_to`]).
    fn extend_to(
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

    fn proved(
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
    fn value_space(&self) -> usize {
        match self {
            Table::Small(t) => t.stamp.len(),
            Table::Wide(t) => t.stamp.len(),
        }
    }

    fn len(&self) -> usize {
        match self {
            Table::Small(t) => t.values.len(),
            Table::Wide(t) => t.values.len(),
        }
    }

    /// The values as little-endian bytes of their entry type, and that type's width.
    /// Hands the values to `write` as little-endian bytes of their entry type, a chunk at a
    /// time (a table of hundreds of millions of values is not copied whole), and returns that
    /// type's width.
    fn write_bytes(
        &self,
        write: impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> std::io::Result<usize> {
        match self {
            Table::Small(t) => write_le(&t.values, write),
            Table::Wide(t) => write_le(&t.values, write),
        }
    }

    fn into_values(self) -> Vec<u32> {
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

/// `values` as little-endian bytes, a chunk at a time; the width of one.
fn write_le<V: Nimber>(
    values: &[V],
    mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<usize> {
    const CHUNK: usize = 1 << 16;
    let width = std::mem::size_of::<V>();
    let mut buf = Vec::with_capacity(width * CHUNK);
    for c in values.chunks(CHUNK) {
        buf.clear();
        for &v in c {
            buf.extend_from_slice(&v.into().to_le_bytes()[..width]);
        }
        write(&buf)?;
    }
    Ok(width)
}

/// How often a run with a checkpoint file writes it.
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// A nim-sequence's values on disk: a line naming the format, a line of JSON saying the
/// game's moves, how many values and their width, and the CRC-32 of the values, then the
/// values as little-endian integers of that width.
struct Checkpoint;

/// The first line of a checkpoint file.
const MAGIC: &str = "nimbus nim-sequence checkpoint 1";

#[derive(serde::Serialize, serde::Deserialize)]
struct Header {
    moves: String,
    values: u64,
    width: usize,
    crc32: u32,
}

/// The moves, as a checkpoint names them: a checkpoint of another game is refused.
fn moves_key(takes: &Takes) -> String {
    format!(
        "whole {:?} one {:?} two {:?}{}{}",
        takes.whole,
        takes.one,
        takes.two,
        if takes.three.is_empty() {
            String::new()
        } else {
            format!(" three {:?}", takes.three)
        },
        if takes.unequal { " unequal" } else { "" }
    )
}

impl Checkpoint {
    /// The values in `path`, `None` when there is no such file.
    fn load(
        path: &std::path::Path,
        takes: &Takes,
        what: &str,
        max_memory: u64,
    ) -> Result<Option<Vec<u32>>> {
        // Before reading: at 2 or more bytes a value the file holds at most len/2 values, and
        // loading them costs the file, the values as u32 and the run's 24 bytes a value.
        crate::core::input::may_read(&path.display().to_string())?;
        if let Ok(meta) = std::fs::metadata(path) {
            let len = meta.len();
            crate::core::budget::check_memory(what, len.saturating_mul(15), max_memory)?;
        }
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(Error::Io {
                    path: path.display().to_string(),
                    source,
                })
            }
        };
        let bad = |why: &str| {
            Error::Invalid(format!(
                "{}: not a usable nim-sequence checkpoint ({why}); remove it to start afresh",
                path.display()
            ))
        };
        let mut lines = bytes.splitn(3, |&b| b == b'\n');
        if lines.next() != Some(MAGIC.as_bytes()) {
            return Err(bad("it does not start with the checkpoint line"));
        }
        let header: Header = lines
            .next()
            .and_then(|h| serde_json::from_slice(h).ok())
            .ok_or_else(|| bad("its header is not readable"))?;
        if header.moves != moves_key(takes) {
            return Err(bad(&format!("it is of another game: {}", header.moves)));
        }
        let data = lines.next().unwrap_or_default();
        if !matches!(header.width, 2 | 4)
            || data.len() as u64 != header.values * header.width as u64
        {
            return Err(bad("its length does not match its header"));
        }
        if crc32fast::hash(data) != header.crc32 {
            return Err(bad("its checksum does not match: the file is damaged"));
        }
        Ok(Some(
            data.chunks_exact(header.width)
                .map(|c| match c {
                    [a, b] => u32::from(u16::from_le_bytes([*a, *b])),
                    [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
                    _ => unreachable!("width is 2 or 4"),
                })
                .collect(),
        ))
    }

    /// Writes beside the file and renames, so that a stop mid-write leaves the last one.
    fn save(path: &std::path::Path, takes: &Takes, t: &Table) -> Result<()> {
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        use std::io::Write;
        // Two passes over the values, the checksum first (it is in the header), so that no
        // copy of the table is made.
        let mut crc = crc32fast::Hasher::new();
        let width = t
            .write_bytes(|b| {
                crc.update(b);
                Ok(())
            })
            .map_err(io)?;
        let header = Header {
            moves: moves_key(takes),
            values: t.len() as u64,
            width,
            crc32: crc.finalize(),
        };
        crate::core::input::may_read(&path.display().to_string())?;
        let mut part = path.as_os_str().to_owned();
        part.push(".part");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&part).map_err(io)?);
        writeln!(out, "{MAGIC}").map_err(io)?;
        serde_json::to_writer(&mut out, &header).map_err(|e| Error::Invalid(e.to_string()))?;
        out.write_all(b"\n").map_err(io)?;
        t.write_bytes(|b| out.write_all(b)).map_err(io)?;
        out.into_inner()
            .map_err(|e| io(e.into_error()))?
            .sync_all()
            .map_err(io)?;
        std::fs::rename(&part, path).map_err(io)
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
