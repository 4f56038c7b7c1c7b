//! "Choosing Carrot" (Codeforces 794E): players 1 (who maximises) and 2 (who
//! minimises) alternately take a number from either end of a sequence until one number is left;
//! before the game player 1 makes k extra moves. For every k = 0, …, n − 1: the number left.
//!
//! The k extra moves choose which window of length n − k the game is played on, so the answer
//! for k is the best window's game value. Three ways to get it, tested against each other:
//! - [`answers`]: O(n). On a window of even length the value is the larger of the two middle
//!   numbers; on an odd length ≥ 3 it is `max(min(a[c−1], a[c]), min(a[c], a[c+1]))` around the
//!   middle c (after one maximising step there are no strict local maxima, and then two steps
//!   just trim both ends — the seed's argument). Windows of one length share their middles'
//!   range, which widens by one on each side as the length drops by two.
//! - [`answers_dp`]: the Θ(n²) dynamic program f(l, r, i) of the seed.
//! - [`Carrot`] as a [`Game`], for the generic solvers on small arrays.

use crate::sequential::{Game, Player, Value};

/// The number left at the end for every k = 0, …, n − 1, in O(n). Empty input, empty answer.
pub fn answers(a: &[Value]) -> Vec<Value> {
    let n = a.len();
    if n == 0 {
        return Vec::new();
    }
    let mut out = vec![Value::MIN; n];
    out[n - 1] = *a.iter().max().expect("nonempty");
    // Even lengths m = 2j: middles c with the pair (c, c+1), c in [j − 1, n − 1 − j].
    let mut best = Value::MIN;
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    for j in (1..=n / 2).rev() {
        let (l, h) = (j - 1, n - 1 - j);
        // The middles' range only widens: visit the new ones.
        let (left, right) = if lo > hi {
            (l..h + 1, 0..0)
        } else {
            (l..lo, hi + 1..h + 1)
        };
        for c in left.chain(right) {
            best = best.max(a[c].max(a[c + 1]));
        }
        lo = lo.min(l);
        hi = hi.max(h);
        out[n - 2 * j] = best;
    }
    // Odd lengths m = 2j + 1 ≥ 3: middles c in [j, n − 1 − j].
    let mut best = Value::MIN;
    let (mut lo, mut hi) = (usize::MAX, 0usize);
    for j in (1..=(n - 1) / 2).rev() {
        let (l, h) = (j, n - 1 - j);
        // The middles' range only widens: visit the new ones.
        let (left, right) = if lo > hi {
            (l..h + 1, 0..0)
        } else {
            (l..lo, hi + 1..h + 1)
        };
        for c in left.chain(right) {
            best = best.max(a[c - 1].min(a[c]).max(a[c].min(a[c + 1])));
        }
        lo = lo.min(l);
        hi = hi.max(h);
        out[n - 1 - 2 * j] = best;
    }
    out
}

/// The same answers by the Θ(n²) dynamic program over all windows (Θ(n) memory).
pub fn answers_dp(a: &[Value]) -> Vec<Value> {
    let n = a.len();
    let mut out = vec![Value::MIN; n];
    // f1[l]: value of the window of the current length starting at l, player 1 to move; f2
    // the same with player 2 to move.
    let mut f1: Vec<Value> = a.to_vec();
    let mut f2: Vec<Value> = a.to_vec();
    if n > 0 {
        out[n - 1] = *a.iter().max().expect("nonempty");
    }
    for len in 2..=n {
        let g1: Vec<Value> = (0..=n - len).map(|l| f2[l + 1].max(f2[l])).collect();
        let g2: Vec<Value> = (0..=n - len).map(|l| f1[l + 1].min(f1[l])).collect();
        out[n - len] = *g1.iter().max().expect("a window");
        f1 = g1;
        f2 = g2;
    }
    out
}

/// The game on a sequence, without the extra moves (play starts on a window).
#[derive(Debug, Clone)]
pub struct Carrot {
    a: Vec<Value>,
}

/// A position: the window `l..=r` still in play, and whether player 1 is to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Window {
    /// First index in play.
    pub l: usize,
    /// Last index in play.
    pub r: usize,
    /// Whether the maximising player is to move.
    pub first: bool,
}

/// Take from the left end or from the right end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// The first number.
    Left,
    /// The last number.
    Right,
}

impl Carrot {
    /// The game on `a` (not empty).
    pub fn new(a: Vec<Value>) -> Carrot {
        assert!(!a.is_empty(), "a sequence to play on");
        Carrot { a }
    }

    /// The position where play starts on `a[l..=r]` with the maximiser to move.
    pub fn window(&self, l: usize, r: usize) -> Window {
        Window { l, r, first: true }
    }
}

impl Game for Carrot {
    type Position = Window;
    type Move = End;

    fn start(&self) -> Window {
        self.window(0, self.a.len() - 1)
    }

    fn moves(&self, p: &Window, out: &mut Vec<End>) {
        if p.l < p.r {
            out.extend([End::Left, End::Right]);
        }
    }

    fn play(&self, p: &Window, m: End) -> Window {
        let (l, r) = match m {
            End::Left => (p.l + 1, p.r),
            End::Right => (p.l, p.r - 1),
        };
        Window {
            l,
            r,
            first: !p.first,
        }
    }

    fn outcome(&self, p: &Window) -> Option<Value> {
        (p.l == p.r).then(|| if p.first { self.a[p.l] } else { -self.a[p.l] })
    }

    fn to_move(&self, p: &Window) -> Player {
        if p.first {
            Player::First
        } else {
            Player::Second
        }
    }

    fn key(&self, p: &Window) -> Option<u64> {
        Some((p.l as u64) << 33 | (p.r as u64) << 1 | p.first as u64)
    }
}
