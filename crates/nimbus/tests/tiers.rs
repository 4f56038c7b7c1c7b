//! The tier solver against the byte-a-rank retrograde solver and against its own ranking:
//! every reachable Connect Four position of small boards gets the same value, and the counts
//! agree; ranks and boards are inverse; a stopped run resumes; damaged files are refused.

use nimbus::sequential::games::connect4::Connect4;
use nimbus::sequential::solve::{self, Solved};
use nimbus::sequential::tiers::{self, Board, Connect4Tiers, Tiered, Value};
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
    let e = tiers::solve(&t, &dir, false, u64::MAX)
        .unwrap_err()
        .to_string();
    assert!(e.contains("tier-9.bin") && e.contains("delete it"), "{e}");
    // Another board's files.
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
