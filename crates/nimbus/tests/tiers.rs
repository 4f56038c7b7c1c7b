//! The tier solver against the byte-a-rank retrograde solver and against its own ranking:
//! every reachable Connect Four position of small boards gets the same value, and the counts
//! agree; ranks and boards are inverse; a stopped run resumes; damaged files are refused.

use nimbus::sequential::games::connect4::tiers::{Board, Connect4Tiers};
use nimbus::sequential::games::connect4::Connect4;
use nimbus::sequential::strong::retrograde::{self as solve, Solved};
use nimbus::sequential::strong::tiers::{self, Tiered, Value};
use nimbus::sequential::{Game, Indexed};

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("nimbus-tiers-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn ranks_and_boards_are_inverse_in_every_tier() {
    for (w, h) in [(4, 4), (5, 4), (3, 5)] {
        let g = Connect4Tiers::new(w, h).unwrap();
        for t in 0..g.tiers() {
            for i in 0..g.tier_size(t) {
                let b = g.board(t, i);
                assert_eq!(b.mask.count_ones() as usize, t);
                assert_eq!(b.current.count_ones() as usize, t / 2);
                assert_eq!(b.current & !b.mask, 0);
                assert_eq!(g.rank(&b), (t, i), "{w}x{h} tier {t} rank {i}");
            }
        }
    }
    // Spot checks on a board too large to walk.
    let g = Connect4Tiers::new(7, 6).unwrap();
    for t in [0, 1, 7, 21, 30, 42] {
        let n = g.tier_size(t);
        for i in [0, 1, n / 3, n / 2, n - 1].into_iter().filter(|&i| i < n) {
            assert_eq!(g.rank(&g.board(t, i)), (t, i));
        }
    }
}

#[test]
fn values_match_the_retrograde_solver_on_small_boards() {
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        let g = Connect4::new(w, h).unwrap();
        let strong = solve::solve(&g, "c4", u64::MAX, u64::MAX, &|_| {}).unwrap();
        let t = Connect4Tiers::new(w, h).unwrap();
        let dir = temp(&format!("{w}x{h}"));
        let s = tiers::solve(&t, &dir, true, u64::MAX).unwrap();
        assert_eq!(s.total.positions, strong.summary().positions, "{w}x{h}");
        assert_eq!(s.longest_remoteness, Some(strong.summary().longest));
        assert_eq!(s.total.wins, strong.summary().wins);
        assert_eq!(s.total.losses, strong.summary().losses);
        assert_eq!(s.total.draws, strong.summary().draws);
        // Every rank of the retrograde solver's space that it solved, one by one.
        let mut db = tiers::Database::open(&t, &dir, u64::MAX);
        let mut checked = 0;
        for r in 0..g.size() {
            let p = g.unrank(r);
            let Some(v) = strong.get(&g, &p) else {
                continue;
            };
            let (tier, i) = t.rank(&Board {
                current: p.current,
                mask: p.mask,
            });
            let codes_v = db.value(tier, i).unwrap();
            let (want, far) = match v {
                Solved::Win(r) => (Value::Win, r),
                Solved::Loss(r) => (Value::Loss, r),
                Solved::Draw => (Value::Draw, 0),
            };
            assert_eq!(codes_v, want, "{w}x{h} {p:?}");
            assert_eq!(db.remoteness(tier, i).unwrap(), Some(far), "{w}x{h} {p:?}");
            checked += 1;
        }
        assert_eq!(checked, s.total.positions);
        // Every other rank of every tier reads as unreachable.
        let valued: u64 = (0..t.tiers())
            .map(|k| {
                (0..t.tier_size(k))
                    .filter(|&i| db.value(k, i).unwrap() != Value::Unreachable)
                    .count() as u64
            })
            .sum();
        assert_eq!(valued, s.total.positions, "{w}x{h}");
        let start = strong.get(&g, &g.start()).unwrap();
        assert_eq!(
            s.start,
            match start {
                Solved::Win(_) => Value::Win,
                Solved::Loss(_) => Value::Loss,
                Solved::Draw => Value::Draw,
            }
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_stopped_run_resumes_and_damaged_files_are_refused() {
    let t = Connect4Tiers::new(4, 4).unwrap();
    let dir = temp("resume");
    let first = tiers::solve(&t, &dir, false, u64::MAX).unwrap();
    assert_eq!(first.resumed, 0);
    // As if stopped while tier 5 and those before it were still to do.
    for k in 0..=5 {
        std::fs::remove_file(dir.join(format!("tier-{k}.bin"))).unwrap();
    }
    let again = tiers::solve(&t, &dir, false, u64::MAX).unwrap();
    assert_eq!(again.resumed, t.tiers() - 6);
    assert_eq!(again.total, first.total);
    assert_eq!(again.start, first.start);
    // A flipped byte in a tier's values.
    let path = dir.join("tier-9.bin");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
    // The resumed run solves that tier again, and the file verifies once more.
    let repaired = tiers::solve(&t, &dir, false, u64::MAX).unwrap();
    assert_eq!(repaired.resumed, t.tiers() - 1);
    assert_eq!(repaired.total, first.total);
    assert_eq!(
        tiers::solve(&t, &dir, false, u64::MAX).unwrap().resumed,
        t.tiers()
    );
    // Another board's files are refused, not overwritten.
    let other = Connect4Tiers::new(5, 4).unwrap();
    std::fs::remove_file(&path).unwrap();
    let e = tiers::solve(&other, &dir, false, u64::MAX)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not tier"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Connect Four in tiers without its fast `visit`: the trait's default, which unranks each
/// position, as the reference for the override.
struct Plain<'a>(&'a Connect4Tiers);

impl Tiered for Plain<'_> {
    type Position = Board;
    fn name(&self) -> String {
        self.0.name()
    }
    fn tiers(&self) -> usize {
        self.0.tiers()
    }
    fn tier_size(&self, t: usize) -> u64 {
        self.0.tier_size(t)
    }
    fn start(&self) -> (usize, u64) {
        self.0.start()
    }
    fn unrank(&self, t: usize, i: u64) -> Board {
        self.0.unrank(t, i)
    }
    fn primitive(&self, t: usize, p: &Board) -> Option<Value> {
        self.0.primitive(t, p)
    }
    fn children(&self, t: usize, p: &Board, out: &mut Vec<(usize, u64)>) {
        self.0.children(t, p, out)
    }
    fn parse(&self, text: &str) -> nimbus::Result<(usize, u64)> {
        self.0.parse(text)
    }
}

fn steps<G: Tiered>(g: &G, t: usize, from: u64, to: u64, every: u64) -> Vec<(u64, String)> {
    let mut seen = Vec::new();
    g.visit(t, from, to, &|i| i % every != 1, &mut |i, step| {
        seen.push((i, format!("{step:?}")));
        Ok(())
    })
    .unwrap();
    seen
}

#[test]
fn the_fast_walk_equals_unranking_every_position() {
    let g = Connect4Tiers::new(4, 5).unwrap();
    for t in 0..g.tiers() {
        let n = g.tier_size(t);
        assert_eq!(
            steps(&g, t, 0, n, 3),
            steps(&Plain(&g), t, 0, n, 3),
            "tier {t}"
        );
    }
    // Ranges that start and end inside a set of heights, on a larger board.
    let g = Connect4Tiers::new(6, 5).unwrap();
    for t in [3, 8, 15, 22, 29] {
        let n = g.tier_size(t);
        for from in [0, n / 7, n / 2 + 5, n.saturating_sub(3000)] {
            let to = (from + 2500).min(n);
            assert_eq!(steps(&g, t, from, to, 5), steps(&Plain(&g), t, from, to, 5));
        }
    }
}

/// A random game in tiers whose moves stay in their tier or jump one or two tiers ahead, with
/// cycles (so draws) and dead ends (lost for the side to move) and drawn ends.
struct Toy {
    sizes: Vec<u64>,
    /// For each tier and rank: `None` for a drawn end, else the moves (none: lost).
    moves: Vec<Vec<Option<Moves>>>,
}

/// The tier and rank each move of a position reaches.
type Moves = Vec<(usize, u64)>;

impl Toy {
    fn new(seed: u64) -> Toy {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let tiers = 3 + next(4) as usize;
        let sizes: Vec<u64> = (0..tiers).map(|_| 1 + next(12)).collect();
        let moves = (0..tiers)
            .map(|t| {
                (0..sizes[t])
                    .map(|_| match next(10) {
                        0 => None,
                        1 => Some(Vec::new()),
                        _ => Some(
                            (0..1 + next(3))
                                .map(|_| {
                                    let ct = (t + next(3) as usize).min(tiers - 1);
                                    (ct, next(sizes[ct]))
                                })
                                .collect(),
                        ),
                    })
                    .collect()
            })
            .collect();
        Toy { sizes, moves }
    }

    /// Values and remoteness of the positions reachable from the start, by retrograde analysis
    /// on the explicit graph: ends first, then in order of remoteness (a breadth-first queue),
    /// a position won at its first lost child, lost at its last won one; the rest are draws.
    fn reference(&self) -> std::collections::HashMap<(usize, u64), (Value, u32)> {
        use std::collections::{HashMap, VecDeque};
        let mut reach = vec![(0usize, 0u64)];
        let mut seen: HashMap<(usize, u64), usize> = HashMap::from([((0, 0), 0)]);
        let mut k = 0;
        while k < reach.len() {
            let (t, i) = reach[k];
            for &c in self.moves[t][i as usize].iter().flatten() {
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(c) {
                    e.insert(reach.len());
                    reach.push(c);
                }
            }
            k += 1;
        }
        let mut parents = vec![Vec::new(); reach.len()];
        let mut left = vec![0usize; reach.len()];
        let mut result: Vec<Option<(Value, u32)>> = vec![None; reach.len()];
        let mut queue = VecDeque::new();
        for (k, &(t, i)) in reach.iter().enumerate() {
            match &self.moves[t][i as usize] {
                None => result[k] = Some((Value::Draw, 0)),
                Some(m) if m.is_empty() => {
                    result[k] = Some((Value::Loss, 0));
                    queue.push_back(k);
                }
                Some(m) => {
                    left[k] = m.len();
                    for c in m {
                        parents[seen[c]].push(k);
                    }
                }
            }
        }
        while let Some(k) = queue.pop_front() {
            let (v, r) = result[k].unwrap();
            for &p in &parents[k] {
                if result[p].is_some() {
                    continue;
                }
                if v == Value::Loss {
                    result[p] = Some((Value::Win, r + 1));
                    queue.push_back(p);
                } else {
                    left[p] -= 1;
                    if left[p] == 0 {
                        result[p] = Some((Value::Loss, r + 1));
                        queue.push_back(p);
                    }
                }
            }
        }
        reach
            .iter()
            .enumerate()
            .map(|(k, &p)| (p, result[k].unwrap_or((Value::Draw, 0))))
            .collect()
    }
}

impl Tiered for Toy {
    type Position = (usize, u64);
    fn name(&self) -> String {
        format!("toy:{:?}", self.sizes)
    }
    fn tiers(&self) -> usize {
        self.sizes.len()
    }
    fn tier_size(&self, t: usize) -> u64 {
        self.sizes[t]
    }
    fn start(&self) -> (usize, u64) {
        (0, 0)
    }
    fn unrank(&self, t: usize, i: u64) -> (usize, u64) {
        (t, i)
    }
    fn primitive(&self, _: usize, &(t, i): &(usize, u64)) -> Option<Value> {
        match &self.moves[t][i as usize] {
            None => Some(Value::Draw),
            Some(m) if m.is_empty() => Some(Value::Loss),
            Some(_) => None,
        }
    }
    fn children(&self, _: usize, &(t, i): &(usize, u64), out: &mut Vec<(usize, u64)>) {
        out.extend(self.moves[t][i as usize].iter().flatten());
    }
    fn parse(&self, _: &str) -> nimbus::Result<(usize, u64)> {
        Err(nimbus::Error::Invalid("no notation".into()))
    }
    fn successors(&self, t: usize) -> Vec<usize> {
        (t..(t + 3).min(self.tiers())).collect()
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Moves within a tier and across several: every position's value and remoteness equal a
    /// plain retrograde analysis of the explicit graph.
    #[test]
    fn moves_within_and_across_tiers_match_retrograde_analysis(seed in 0u64..1 << 40) {
        let g = Toy::new(seed);
        let want = g.reference();
        let dir = temp(&format!("toy-{seed}"));
        let s = tiers::solve(&g, &dir, true, u64::MAX).unwrap();
        let mut db = tiers::Database::open(&g, &dir, u64::MAX);
        for t in 0..g.tiers() {
            for i in 0..g.tier_size(t) {
                let got = db.value(t, i).unwrap();
                match want.get(&(t, i)) {
                    Some(&(v, r)) => {
                        proptest::prop_assert_eq!(got, v, "{:?}", (t, i));
                        let far = db.remoteness(t, i).unwrap().unwrap();
                        proptest::prop_assert_eq!(far, r, "{:?}", (t, i));
                    }
                    None => proptest::prop_assert_eq!(got, Value::Unreachable),
                }
            }
        }
        proptest::prop_assert_eq!(s.total.positions, want.len() as u64);
        proptest::prop_assert_eq!(s.start, want[&(0, 0)].0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
