//! Connect Four on a board of any width × height with width · (height + 1) ≤ 64, as bitboards.
//!
//! The representation and the search aids follow Pascal Pons' solver (connect4.gamesolver.org):
//! each column takes height + 1 bits, the extra one always empty so that shifted lines never
//! wrap into the next column; `mask` holds every stone, `current` the stones of the side to
//! move, and `current + mask` is a unique key. Scores are Pons': 0 for a draw; a win with the
//! winner's k-th stone scores `(cells + 1) / 2 + 1 − k` (22 − k on 7 × 6), positive when the side
//! to move wins.
//!
//! [`Game::search_moves`] carries the Connect Four knowledge the generic search uses: an
//! immediate win settles the value; moves that let the opponent win at once are left out (and
//! when only such moves exist the loss is settled); a move after which the opponent cannot stop
//! a win with the next stone settles the win; the remaining moves are tried in the order of the
//! number of winning cells they create that can still be played, centre columns first on ties;
//! and the bounds say that neither side can win sooner than its stones allow, nor at all
//! without a four still open to it, and, on boards of even height, what the opponent's
//! claimeven strategy holds the side to move to (Allis 1988; Steininger's solver uses the same
//! bound, which was read for the idea).

pub mod book;
pub mod tiers;

use crate::sequential::{Game, Indexed, Notation, Player, Value};
use crate::{Error, Result};

/// A board size; built by [`Connect4::new`].
#[derive(Debug, Clone)]
pub struct Connect4 {
    width: u32,
    height: u32,
    cells: u32,
    bottom: u64,
    board: u64,
    order: Vec<u8>,
    /// Shifts of 3 · (height + 2) bits reach past 64: take the checked path.
    tall: bool,
    /// The cells of the even rows (the 2nd, 4th, … from the bottom) when the height is even
    /// and the board is not tall, else 0: the cells the second player can claim
    /// ([`Connect4::claimeven_bound`]).
    even_rows: u64,
}

/// A position.
#[derive(Debug, Clone, Copy)]
pub struct Position {
    /// Stones of the side to move.
    pub current: u64,
    /// Every stone.
    pub mask: u64,
    /// Stones played.
    pub moves: u32,
    /// Reached by a move of [`Game::search_moves`]' list, which only holds moves after which
    /// the side to move cannot win at once: its search can skip that test, as Pons' solver
    /// does. Not part of the position's identity.
    pub safe: bool,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.current == other.current && self.mask == other.mask
    }
}

impl Eq for Position {}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.current.hash(state);
        self.mask.hash(state);
    }
}

/// Positions with at least this many empty cells look up their children in the table
/// before searching them ([`Game::probe_children`]).
const ETC_EMPTY_CELLS: u32 = 12;

/// Positions with fewer stones fold their reflection into one key ([`Game::key`]).
const MIRROR_STONES: u32 = 12;

/// Weights of a move's threats in the search order: every threat that can still be played, and
/// again one just above a playable cell (it forbids the opponent that column at once). Measured
/// on a tuning sample of the test sets (lines 501 on, apart from the lines the tests and the
/// benchmark use): a quarter fewer nodes on the hard openings than counting every threat once;
/// counting threats two above a playable cell too, or other weights, did no better.
const W_ANY: u32 = 2;
const W_NEXT: u32 = 1;

/// Marks a move of the search order (see [`Position::safe`]); columns are below 32.
const SAFE: u8 = 0x80;

#[inline(always)]
fn shl(x: u64, n: u32) -> u64 {
    if n >= 64 {
        0
    } else {
        x << n
    }
}

#[inline(always)]
fn shr(x: u64, n: u32) -> u64 {
    if n >= 64 {
        0
    } else {
        x >> n
    }
}

impl Connect4 {
    /// The standard 7 × 6 board.
    pub fn standard() -> Connect4 {
        Connect4::new(7, 6).expect("7 x 6 fits")
    }

    /// A board `width` columns wide and `height` rows high.
    pub fn new(width: u32, height: u32) -> Result<Connect4> {
        if width == 0 || height == 0 || width.saturating_mul(height + 1) > 64 {
            return Err(Error::Invalid(format!(
                "a {width} x {height} board does not fit: Connect Four needs width >= 1, \
                 height >= 1 and width * (height + 1) <= 64"
            )));
        }
        let bottom = (0..width).fold(0u64, |b, c| b | 1 << (c * (height + 1)));
        let board = bottom * ((1u64 << height) - 1);
        let mut order: Vec<u8> = (0..width as u8).collect();
        // Centre first: a central stone takes part in the most lines.
        order.sort_by_key(|&c| ((2 * c as i32 + 1 - width as i32).abs(), c));
        let tall = 3 * (height + 2) >= 64;
        let even_rows = if height % 2 == 0 && !tall {
            (0..height)
                .filter(|r| r % 2 == 1)
                .fold(0, |e, r| e | bottom << r)
        } else {
            0
        };
        Ok(Connect4 {
            width,
            height,
            cells: width * height,
            bottom,
            board,
            order,
            tall,
            even_rows,
        })
    }

    /// The key of the position reflected left to right: the columns' groups of h + 1 bits
    /// in reverse order.
    #[inline(always)]
    fn mirror(&self, key: u64) -> u64 {
        let step = self.height + 1;
        let group = (1u64 << step) - 1;
        let mut m = 0;
        for c in 0..self.width {
            m |= ((key >> (c * step)) & group) << ((self.width - 1 - c) * step);
        }
        m
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    #[inline(always)]
    fn column_mask(&self, c: u32) -> u64 {
        ((1u64 << self.height) - 1) << (c * (self.height + 1))
    }

    #[inline(always)]
    fn top(&self, c: u32) -> u64 {
        1u64 << (self.height - 1 + c * (self.height + 1))
    }

    /// Whether a stone can go into column `c` (0-based).
    pub fn can_play(&self, p: &Position, c: u32) -> bool {
        c < self.width && p.mask & self.top(c) == 0
    }

    /// Whether the stones in `s` contain four in a row.
    #[inline(always)]
    pub(crate) fn aligned(&self, s: u64) -> bool {
        if self.tall {
            return self.aligned_checked(s);
        }
        let h = self.height;
        let mut m = s & (s >> 1);
        let mut any = m & (m >> 2);
        for d in [h, h + 1, h + 2] {
            m = s & (s >> d);
            any |= m & (m >> (2 * d));
        }
        any != 0
    }

    #[cold]
    fn aligned_checked(&self, s: u64) -> bool {
        let h = self.height;
        [1, h, h + 1, h + 2].into_iter().any(|d| {
            let m = s & shr(s, d);
            m & shr(m, 2 * d) != 0
        })
    }

    /// The empty cells that would complete four in a row for the stones `s`.
    #[inline(always)]
    fn winning_cells(&self, s: u64, mask: u64) -> u64 {
        if self.tall {
            return self.winning_cells_checked(s, mask);
        }
        let h = self.height;
        let mut r = (s << 1) & (s << 2) & (s << 3);
        for d in [h, h + 1, h + 2] {
            let p = (s << d) & (s << (2 * d));
            r |= p & (s << (3 * d));
            r |= p & (s >> d);
            let p = (s >> d) & (s >> (2 * d));
            r |= p & (s << d);
            r |= p & (s >> (3 * d));
        }
        r & (self.board ^ mask)
    }

    /// The same for boards so tall that three diagonal steps shift by 64 bits or more.
    #[cold]
    fn winning_cells_checked(&self, s: u64, mask: u64) -> u64 {
        let h = self.height;
        let mut r = (s << 1) & (s << 2) & (s << 3);
        for d in [h, h + 1, h + 2] {
            let p = shl(s, d) & shl(s, 2 * d);
            r |= p & shl(s, 3 * d);
            r |= p & shr(s, d);
            let p = shr(s, d) & shr(s, 2 * d);
            r |= p & shl(s, d);
            r |= p & shr(s, 3 * d);
        }
        r & (self.board ^ mask)
    }

    /// For each four in a row of the stones `s`, a cell on the row of its highest cell (not
    /// for tall boards): only the rows are read.
    #[inline(always)]
    fn tops_of_fours(&self, s: u64) -> u64 {
        let h = self.height;
        let four = |d: u32| {
            let m = s & (s >> d);
            m & (m >> (2 * d))
        };
        // A four is found at its first cell, the lowest in bit order: three rows below its top
        // vertically and on the rising diagonal (moved up three rows in its own column), the
        // top itself on the falling one (each step a column right and a row down), and on its
        // own row horizontally.
        (four(1) << 3) | four(h + 1) | (four(h + 2) << 3) | four(h)
    }

    /// An upper bound on the score of `p` for the side to move, when an even number of stones
    /// has been played on a board of even height: the opponent can answer every move in a
    /// column whose next cell is on an odd row (counted from 1 at the bottom) directly above
    /// it, and a move on an even row's playable cell with another such cell (their number is
    /// even), and so takes every empty even-row cell that is not playable now (Allis'
    /// claimeven). If the side to move has no four left outside those cells, it cannot win:
    /// a draw at best, or a loss by the time the lowest-topped four of the opponent's can be
    /// completed, when it has one (the cells above a four's top in its column may stay
    /// empty, no others). `None` when the rule says nothing.
    #[inline(always)]
    fn claimeven_bound(&self, p: &Position, playable: u64) -> Option<Value> {
        if self.even_rows == 0 || p.moves % 2 == 1 {
            return None;
        }
        let empty = self.board & !p.mask;
        let theirs = (p.current ^ p.mask) | (self.even_rows & empty & !playable);
        if self.aligned(self.board & !theirs) {
            return None;
        }
        let tops = self.tops_of_fours(theirs) & self.board;
        if tops == 0 {
            return Some(0);
        }
        // The lowest row holding a four's top.
        let row = (0..self.height).find(|&r| tops & (self.bottom << r) != 0)?;
        // The opponent completes it by move `last` (1-based), one of the even moves.
        let last = (self.cells - (self.height - 1 - row)) & !1;
        Some(-self.win_score(last / 2))
    }

    #[inline(always)]
    fn playable(&self, p: &Position) -> u64 {
        (p.mask + self.bottom) & self.board
    }

    /// The score of a win with the winner's `k`-th stone.
    #[inline(always)]
    fn win_score(&self, k: u32) -> Value {
        (self.cells.div_ceil(2) + 1) as Value - k as Value
    }

    /// The column (0-based) of a single-bit move.
    #[inline(always)]
    fn column_of(&self, bit: u64) -> u8 {
        (bit.trailing_zeros() / (self.height + 1)) as u8
    }

    /// Plays a stone in column `c`, which must not be full.
    #[inline(always)]
    pub fn drop_stone(&self, p: &Position, c: u32) -> Position {
        let bit = (p.mask + (1u64 << (c * (self.height + 1)))) & self.column_mask(c);
        Position {
            current: p.current ^ p.mask,
            mask: p.mask | bit,
            moves: p.moves + 1,
            safe: false,
        }
    }

    /// Plies from `p` to the end of the game when its score is `v` and both play well.
    pub fn plies_to_end(&self, p: &Position, v: Value) -> u32 {
        if v == 0 {
            return self.cells - p.moves;
        }
        let k = (self.cells.div_ceil(2) as Value + 1 - v.abs()) as u32;
        // The winner's k-th stone is ply 2k − 1 for the first player, 2k for the second.
        let first_wins = (v > 0) == (p.moves % 2 == 0);
        let end = if first_wins { 2 * k - 1 } else { 2 * k };
        end - p.moves
    }

    /// The exact score of `p` in Pons' scoring, by null-window bisection of the interval the
    /// empty cells allow (Pons' driver; measured to need fewer nodes on his test sets than
    /// bisecting the tighter interval [`Game::search_moves`] gives at the root). `None` when
    /// the searcher's deadline stopped it first.
    pub fn score(
        &self,
        searcher: &mut crate::sequential::search::alphabeta::Searcher<'_, Connect4>,
        p: &Position,
    ) -> Option<Value> {
        let (lo, hi) = crate::sequential::search::mtdf::root_bounds(self, p);
        if lo == hi {
            return Some(lo);
        }
        let left = (self.cells - p.moves) as Value;
        crate::sequential::search::mtdf::bisect(searcher, p, -left / 2, (left + 1) / 2, None)
            .map(|f| f.value)
    }
}

impl Game for Connect4 {
    type Position = Position;
    type Move = u8;

    fn start(&self) -> Position {
        Position {
            current: 0,
            mask: 0,
            moves: 0,
            safe: false,
        }
    }

    fn moves(&self, p: &Position, out: &mut Vec<u8>) {
        if self.outcome(p).is_some() {
            return;
        }
        for &c in &self.order {
            if p.mask & self.top(c as u32) == 0 {
                out.push(c);
            }
        }
    }

    #[inline]
    fn play(&self, p: &Position, m: u8) -> Position {
        let mut q = self.drop_stone(p, u32::from(m & !SAFE));
        q.safe = m & SAFE != 0;
        q
    }

    #[inline]
    fn outcome(&self, p: &Position) -> Option<Value> {
        // A safe position's last move was not a win: a position with a winning move lists
        // only that move, unmarked.
        if !p.safe && self.aligned(p.current ^ p.mask) {
            // The previous mover just completed four with its last stone.
            Some(-self.win_score(p.moves - p.moves / 2))
        } else if p.moves == self.cells {
            Some(0)
        } else {
            None
        }
    }

    fn to_move(&self, p: &Position) -> Player {
        if p.moves % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn evaluate(&self, p: &Position) -> Value {
        let mine = self.winning_cells(p.current, p.mask).count_ones() as Value;
        let theirs = self.winning_cells(p.current ^ p.mask, p.mask).count_ones() as Value;
        mine - theirs
    }

    /// Pons' key `current + mask` (each column's stones and height in its own h + 1 bits),
    /// or, early in the game, its mirror image when that is smaller: a position and its
    /// reflection have the same value, so they share one entry of the table. Reflections
    /// meet only near the symmetric start; later the reflection costs more than it finds.
    /// (Keys of positions with different numbers of stones never meet, so the switch is safe.)
    #[inline]
    fn key(&self, p: &Position) -> Option<u64> {
        let key = p.current + p.mask;
        Some(if p.moves < MIRROR_STONES {
            key.min(self.mirror(key))
        } else {
            key
        })
    }

    /// Far from the end of the game a cut-off found in the table saves a large subtree.
    #[inline]
    fn probe_children(&self, p: &Position) -> bool {
        self.cells - p.moves >= ETC_EMPTY_CELLS
    }

    // Kept as one function: the hot entry of Connect Four's search, whose one pass over the
    // moves settles, bounds and orders them together on the same bitboards.
    #[inline]
    fn search_moves(&self, p: &Position, out: &mut Vec<u8>) -> (Value, Value) {
        let mine = p.moves / 2;
        let theirs = p.moves - mine;
        let left = self.cells - p.moves;
        let playable = self.playable(p);
        let wins = if p.safe {
            0
        } else {
            self.winning_cells(p.current, p.mask) & playable
        };
        if wins != 0 {
            let v = self.win_score(mine + 1);
            out.push(self.column_of(wins & wins.wrapping_neg()));
            return (v, v);
        }
        let threats = self.winning_cells(p.current ^ p.mask, p.mask);
        let opponent = threats;
        let forced = playable & threats;
        let mut safe = playable;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                let v = -self.win_score(theirs + 1);
                return (v, v);
            }
            safe = forced;
        }
        // Never play under a cell where the opponent would complete four.
        safe &= !(threats >> 1);
        if safe == 0 {
            let v = -self.win_score(theirs + 1);
            return (v, v);
        }
        let mut hi = if left >= 3 {
            self.win_score(mine + 2)
        } else {
            0
        };
        let mut lo = if left >= 4 {
            -self.win_score(theirs + 2)
        } else {
            0
        };
        // Neither side wins without a four still open to it.
        let empty = self.board & !p.mask;
        if !self.aligned(p.current | empty) {
            hi = hi.min(0);
        }
        if !self.aligned((p.current ^ p.mask) | empty) {
            lo = lo.max(0);
        }
        if let Some(b) = self.claimeven_bound(p, playable) {
            hi = hi.min(b);
        }
        debug_assert!(lo <= hi, "the static bounds contradict each other");
        if lo >= hi {
            return (lo, lo);
        }
        // Order by the number of winning cells each move creates; an insertion sort of at most
        // `width` moves. The key packs the count above the column's place in the centre-first
        // order, so that the centre comes first among equals.
        let mut keys = [0u32; 32];
        let mut n = 0;
        let child_even = self.even_rows != 0 && p.moves % 2 == 1;
        for (place, &c) in self.order.iter().enumerate() {
            let bit = safe & self.column_mask(c as u32);
            if bit != 0 {
                let mask = p.mask | bit;
                let threats = self.winning_cells(p.current | bit, mask);
                // The opponent cannot win at once after this move (such moves are not in
                // `safe`), so two winning cells it could play, or one with another of ours
                // right above it, or none but one above every cell it could play, win with
                // our next stone whatever it does.
                let playable = (mask + self.bottom) & self.board;
                let next = threats & playable;
                let wins_next = if next == 0 {
                    playable & !(threats >> 1) == 0
                } else {
                    next & (next - 1) != 0 || next & (threats >> 1) != 0
                };
                if left >= 3 && wins_next {
                    let v = self.win_score(mine + 2);
                    out.push(c | SAFE);
                    return (v, v);
                }
                // What the rules say about the child bounds this node from below: the
                // opponent cannot win there without a four still open to it, nor, when it
                // moves with an even number of stones played, beyond the claimeven bound.
                if lo < 0 && !self.aligned((p.current ^ p.mask) | (empty & !bit)) {
                    lo = 0;
                }
                if child_even {
                    let child = Position {
                        current: p.current ^ p.mask,
                        mask,
                        moves: p.moves + 1,
                        safe: true,
                    };
                    if let Some(b) = self.claimeven_bound(&child, playable) {
                        lo = lo.max(-b);
                    }
                }
                // A threat directly above one of the opponent's can never be played.
                let threats = threats & !(opponent << 1);
                let above = playable << 1;
                let count = W_ANY * threats.count_ones() + W_NEXT * (threats & above).count_ones();
                let key = count << 16 | (0xff - place as u32) << 8 | c as u32;
                let mut j = n;
                while j > 0 && keys[j - 1] < key {
                    keys[j] = keys[j - 1];
                    j -= 1;
                }
                keys[j] = key;
                n += 1;
            }
        }
        out.extend(keys[..n].iter().map(|&k| k as u8 | SAFE));
        // No move wins with our next stone: the earliest win is with the one after.
        if left >= 5 {
            hi = hi.min(self.win_score(mine + 3));
        }
        (lo, hi.max(lo))
    }
}

impl Indexed for Connect4 {
    fn size(&self) -> u64 {
        match 1u64.checked_shl(self.height + 1) {
            Some(r) => (r - 1).checked_pow(self.width).unwrap_or(u64::MAX),
            None => u64::MAX,
        }
    }

    fn rank(&self, p: &Position) -> u64 {
        let radix = 1u64
            .checked_shl(self.height + 1)
            .map_or(u64::MAX, |r| r - 1);
        (0..self.width).rev().fold(0u64, |acc, c| {
            let shift = c * (self.height + 1);
            let k = ((p.mask >> shift) & ((1 << self.height) - 1)).count_ones();
            let stones = (p.current >> shift) & ((1 << k) - 1);
            acc.wrapping_mul(radix).wrapping_add((1 << k) - 1 + stones)
        })
    }

    fn unrank(&self, mut i: u64) -> Position {
        let radix = 1u64
            .checked_shl(self.height + 1)
            .map_or(u64::MAX, |r| r - 1);
        let (mut current, mut mask) = (0u64, 0u64);
        for c in 0..self.width {
            let code = i % radix;
            i /= radix;
            let k = 63 - (code + 1).leading_zeros();
            let shift = c * (self.height + 1);
            mask |= ((1u64 << k) - 1) << shift;
            current |= (code + 1 - (1 << k)) << shift;
        }
        Position {
            current,
            mask,
            moves: mask.count_ones(),
            safe: false,
        }
    }
}

impl Notation for Connect4 {
    /// Columns numbered from 1, as digits (`4453`) when the board has at most 9 columns, or
    /// as numbers separated by spaces. A move that completes four ends the game; a later
    /// move is an error.
    fn parse_position(&self, text: &str) -> Result<Position> {
        let tokens = if self.width <= 9 {
            super::char_tokens(text)
        } else {
            super::word_tokens(text)
        };
        super::play_tokens(self, tokens)
    }

    fn parse_move(&self, p: &Position, text: &str) -> Result<u8> {
        let t = text.trim();
        let c = match t.parse::<u32>() {
            Ok(c) if c >= 1 && c <= self.width => c - 1,
            _ => {
                return Err(Error::Invalid(format!(
                    "`{t}` is not a column: columns are 1-{}",
                    self.width
                )))
            }
        };
        if self.outcome(p).is_some() {
            return Err(Error::Invalid(format!(
                "the game is over before this move ({t}): the move before it ended the game"
            )));
        }
        if !self.can_play(p, c) {
            return Err(Error::Invalid(format!("column {t} is full")));
        }
        Ok(c as u8)
    }

    fn show_move(&self, m: u8) -> String {
        ((m & !SAFE) + 1).to_string()
    }

    fn explain(&self, p: &Position, v: Value) -> String {
        let plies = self.plies_to_end(p, v);
        match v.signum() {
            1 => format!("win in {} (score {v})", super::plies(plies)),
            -1 => format!("loss in {} (score {v})", super::plies(plies)),
            _ => "draw (score 0)".into(),
        }
    }

    fn show_position(&self, p: &Position) -> String {
        let first = if p.moves % 2 == 0 {
            p.current
        } else {
            p.current ^ p.mask
        };
        let mut s = String::new();
        for row in (0..self.height).rev() {
            for c in 0..self.width {
                let bit = 1u64 << (row + c * (self.height + 1));
                s.push(if p.mask & bit == 0 {
                    '.'
                } else if first & bit != 0 {
                    'X'
                } else {
                    'O'
                });
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        for c in 1..=self.width {
            s.push_str(&format!("{} ", c % 10));
        }
        s.pop();
        s.push('\n');
        s
    }
}
