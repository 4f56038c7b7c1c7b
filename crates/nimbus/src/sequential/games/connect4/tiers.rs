//! Connect Four in tiers, for the tier solver ([`crate::sequential::strong::tiers`]): tier k holds the
//! positions with k stones, ranked by the columns' heights and by which stones are the side to
//! move's, with the walk from a rank to the ranks its moves reach.

use crate::core::error::Result;
use crate::sequential::strong::tiers::{Step, Tiered, Value};

/// Connect Four on a `width` × `height` board in tiers: tier k holds the positions with k
/// stones, ranked by the columns' heights (a bounded composition of k) and then by which of
/// the k stones belong to the side to move (a subset of size ⌊k/2⌋, by the combinatorial
/// number system).
#[derive(Debug, Clone)]
pub struct Connect4Tiers {
    game: super::Connect4,
    width: u32,
    height: u32,
    /// `fills[c][s]`: the height vectors of columns c.. that hold s stones.
    fills: Vec<Vec<u64>>,
    /// Binomial coefficients up to the number of cells.
    binom: Vec<Vec<u64>>,
    /// `below[c][s][h]`: the height vectors that come before height h in column c, when
    /// columns c.. hold s stones (the sum of `fills[c + 1][s - v]` for v < h).
    below: Vec<Vec<Vec<u64>>>,
    /// The bits of one column's cells.
    column: u64,
}

/// See [`Connect4Tiers::geometry`].
struct Geometry {
    cells: [u8; 64],
    mask: u64,
    /// For each column with room: the index the new stone takes, and the child's heights-rank.
    open: Vec<(u32, u64)>,
}

/// The next subset of the same size in colex order (Gosper's hack); `c` must not be 0.
fn next_subset(c: u64) -> u64 {
    let low = c & c.wrapping_neg();
    let ripple = c + low;
    ripple | (((c ^ ripple) >> 2) / low)
}

/// A position of [`Connect4Tiers`], as bitboards (the layout of [`super`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The stones of the side to move.
    pub current: u64,
    /// Every stone.
    pub mask: u64,
}

impl Connect4Tiers {
    /// The board `width` × `height` (as [`super::Connect4::new`] takes it).
    pub fn new(width: u32, height: u32) -> Result<Connect4Tiers> {
        let game = super::Connect4::new(width, height)?;
        let cells = (width * height) as usize;
        let mut binom = vec![vec![0u64; cells + 2]; cells + 2];
        for n in 0..=cells + 1 {
            binom[n][0] = 1;
            for k in 1..=n {
                binom[n][k] = binom[n - 1][k - 1].saturating_add(binom[n - 1][k]);
            }
        }
        let w = width as usize;
        let mut fills = vec![vec![0u64; cells + 1]; w + 1];
        fills[w][0] = 1;
        for c in (0..w).rev() {
            for s in 0..=cells {
                fills[c][s] = (0..=height as usize)
                    .filter(|&v| v <= s)
                    .map(|v| fills[c + 1][s - v])
                    .fold(0u64, u64::saturating_add);
            }
        }
        let below = (0..w)
            .map(|c| {
                (0..=cells)
                    .map(|s| {
                        let mut acc = 0u64;
                        (0..=height as usize)
                            .map(|h| {
                                let here = acc;
                                if h <= s {
                                    acc = acc.saturating_add(fills[c + 1][s - h]);
                                }
                                here
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Ok(Connect4Tiers {
            game,
            width,
            height,
            fills,
            binom,
            below,
            column: (1u64 << height) - 1,
        })
    }

    fn cells(&self) -> usize {
        (self.width * self.height) as usize
    }

    fn colourings(&self, k: usize) -> u64 {
        self.binom[k][k / 2]
    }

    fn shift(&self, c: u32) -> u32 {
        c * (self.height + 1)
    }

    /// The rank in its tier of the position `b` with `k` stones.
    pub fn rank(&self, b: &Board) -> (usize, u64) {
        let k = b.mask.count_ones() as usize;
        let mut hr = 0u64;
        let mut left = k;
        for c in 0..self.width as usize {
            let h = ((b.mask >> self.shift(c as u32)) & self.column).count_ones() as usize;
            hr += self.below[c][left][h];
            left -= h;
        }
        // Each stone of the side to move at cell index x (stones below it, in column order)
        // as the j-th such stone adds C(x, j).
        let mut crank = 0u64;
        let mut cur = b.current;
        let mut j = 0;
        while cur != 0 {
            let bit = cur & cur.wrapping_neg();
            cur ^= bit;
            j += 1;
            let x = (b.mask & (bit - 1)).count_ones() as usize;
            crank += self.binom[x][j];
        }
        (k, hr * self.colourings(k) + crank)
    }

    /// The column heights of heights-rank `hr` in tier `k`.
    fn heights_of(&self, k: usize, mut hr: u64) -> [u8; 64] {
        let mut heights = [0u8; 64];
        let mut left = k;
        for (c, height) in heights.iter_mut().enumerate().take(self.width as usize) {
            let mut h = 0;
            for v in 0..=(self.height as usize).min(left) {
                let ways = self.fills[c + 1][left - v];
                if hr < ways {
                    h = v;
                    break;
                }
                hr -= ways;
            }
            *height = h as u8;
            left -= h;
        }
        heights
    }

    /// What stays fixed while only the colours of the stones change: where each stone index
    /// lies on the board, every stone, and for each column where a stone dropped there would
    /// go (its index) and the heights-rank of the child.
    fn geometry(&self, k: usize, heights: &[u8; 64]) -> Geometry {
        let mut g = Geometry {
            cells: [0; 64],
            mask: 0,
            open: Vec::with_capacity(self.width as usize),
        };
        let mut n = 0;
        for c in 0..self.width {
            for r in 0..u32::from(heights[c as usize]) {
                g.cells[n] = (self.shift(c) + r) as u8;
                n += 1;
            }
            g.mask |= ((1u64 << heights[c as usize]) - 1) << self.shift(c);
        }
        let mut before = 0usize;
        for c in 0..self.width as usize {
            let h = heights[c] as usize;
            before += h;
            if h < self.height as usize {
                let mut child = *heights;
                child[c] += 1;
                let mut hr = 0u64;
                let mut left = k + 1;
                for (col, &ch) in child.iter().enumerate().take(self.width as usize) {
                    hr += self.below[col][left][ch as usize];
                    left -= ch as usize;
                }
                g.open.push((before as u32, hr));
            }
        }
        g
    }

    /// The board of rank `i` in tier `k`.
    pub fn board(&self, k: usize, i: u64) -> Board {
        let per = self.colourings(k);
        let (mut hr, mut cr) = (i / per, i % per);
        let mut mask = 0u64;
        let mut left = k;
        let mut cells = [0u8; 64];
        let mut n = 0;
        for c in 0..self.width {
            let mut h = 0;
            for v in 0..=(self.height as usize).min(left) {
                let ways = self.fills[c as usize + 1][left - v];
                if hr < ways {
                    h = v;
                    break;
                }
                hr -= ways;
            }
            left -= h;
            for r in 0..h as u32 {
                cells[n] = (self.shift(c) + r) as u8;
                n += 1;
            }
            mask |= ((1u64 << h) - 1) << self.shift(c);
        }
        // The combinatorial number system, largest index first: the j-th stone of the side
        // to move is the largest cell c below the previous one with C(c, j) <= what is left.
        let mut current = 0u64;
        let mut top = k;
        for j in (1..=k / 2).rev() {
            let mut c = top - 1;
            while self.binom[c][j] > cr {
                c -= 1;
            }
            cr -= self.binom[c][j];
            current |= 1 << cells[c];
            top = c;
        }
        Board { current, mask }
    }
}

impl Tiered for Connect4Tiers {
    type Position = Board;

    fn name(&self) -> String {
        format!("connect4:{}x{}", self.width, self.height)
    }

    fn tiers(&self) -> usize {
        (self.width * self.height) as usize + 1
    }

    fn tier_size(&self, t: usize) -> u64 {
        self.fills[0][t].saturating_mul(self.colourings(t))
    }

    fn start(&self) -> (usize, u64) {
        (0, 0)
    }

    fn unrank(&self, t: usize, i: u64) -> Board {
        self.board(t, i)
    }

    fn primitive(&self, t: usize, b: &Board) -> Option<Value> {
        if self.game.aligned(b.current) {
            Some(Value::Unreachable)
        } else if self.game.aligned(b.current ^ b.mask) {
            Some(Value::Loss)
        } else if t == (self.width * self.height) as usize {
            Some(Value::Draw)
        } else {
            None
        }
    }

    fn children(&self, _t: usize, b: &Board, out: &mut Vec<(usize, u64)>) {
        for c in 0..self.width {
            let top = 1u64 << (self.shift(c) + self.height - 1);
            if b.mask & top != 0 {
                continue;
            }
            let bit =
                (b.mask + (1u64 << self.shift(c))) & (((1u64 << self.height) - 1) << self.shift(c));
            let child = Board {
                current: b.current ^ b.mask,
                mask: b.mask | bit,
            };
            out.push(self.rank(&child));
        }
    }

    /// Steps through the colourings of one set of column heights in colex order (the order
    /// of their ranks), so that a rank's board costs a walk over its own stones, and each
    /// child's rank follows from prefix sums over the other side's stones.
    fn visit(
        &self,
        t: usize,
        from: u64,
        to: u64,
        wanted: &dyn Fn(u64) -> bool,
        each: &mut dyn FnMut(u64, Step<'_>) -> Result<()>,
    ) -> Result<()> {
        if from >= to {
            return Ok(());
        }
        let k = t;
        let m = k / 2;
        let per = self.colourings(k);
        let per_child = if k < self.cells() {
            self.colourings(k + 1)
        } else {
            0
        };
        let full = if k == 0 { 0 } else { u64::MAX >> (64 - k) };
        let (mut hr, cr) = (from / per, from % per);
        let mut geo = self.geometry(k, &self.heights_of(k, hr));
        // The colouring of rank cr: its subset of stone indices.
        let mut comb = {
            let b = self.board(k, from);
            let mut c = 0u64;
            for x in 0..k {
                if b.current >> geo.cells[x] & 1 == 1 {
                    c |= 1 << x;
                }
            }
            c
        };
        let mut cr = cr;
        let mut out: Vec<(usize, u64)> = Vec::with_capacity(self.width as usize);
        let mut pre = [0u64; 33];
        let mut post = [0u64; 33];
        let mut idx = [0u32; 32];
        let mut i = from;
        loop {
            if wanted(i) {
                let mut current = 0u64;
                let mut bits = comb;
                while bits != 0 {
                    current |= 1 << geo.cells[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                let other = current ^ geo.mask;
                if self.game.aligned(current) {
                    each(i, Step::Over(Value::Unreachable))?;
                } else if self.game.aligned(other) {
                    each(i, Step::Over(Value::Loss))?;
                } else if k == self.cells() {
                    each(i, Step::Over(Value::Draw))?;
                } else {
                    // The other side's stones by index: the child's stones of the side to
                    // move, each shifted up by one when at or above the new stone.
                    let mut r = 0;
                    let mut bits = !comb & full;
                    while bits != 0 {
                        idx[r] = bits.trailing_zeros();
                        bits &= bits - 1;
                        r += 1;
                    }
                    pre[0] = 0;
                    for j in 0..r {
                        pre[j + 1] = pre[j] + self.binom[idx[j] as usize][j + 1];
                    }
                    post[r] = 0;
                    for j in (0..r).rev() {
                        post[j] = post[j + 1] + self.binom[idx[j] as usize + 1][j + 1];
                    }
                    out.clear();
                    for &(pos, chr) in &geo.open {
                        let below = idx[..r].iter().take_while(|&&x| x < pos).count();
                        out.push((k + 1, chr * per_child + pre[below] + post[below]));
                    }
                    each(i, Step::Moves(&out))?;
                }
            }
            i += 1;
            if i >= to {
                return Ok(());
            }
            cr += 1;
            if cr == per {
                cr = 0;
                hr += 1;
                geo = self.geometry(k, &self.heights_of(k, hr));
                comb = if m == 0 { 0 } else { u64::MAX >> (64 - m) };
            } else {
                comb = next_subset(comb);
            }
        }
    }

    fn parse(&self, text: &str) -> Result<(usize, u64)> {
        use super::Notation;
        let p = self.game.parse_position(text)?;
        Ok(self.rank(&Board {
            current: p.current,
            mask: p.mask,
        }))
    }
}
