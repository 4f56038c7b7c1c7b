//! Boards of at most 128 cells as bit masks: cropping, connected regions and the symmetries
//! that fold equal regions together, shared by the grid rulesets.

/// The most cells a board may have.
pub const MOST_CELLS: usize = 128;

/// A rectangle of `rows` × `cols` cells; cell (r, c) is bit `r * cols + c` of each mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    /// Rows.
    pub rows: u8,
    /// Columns.
    pub cols: u8,
}

impl Shape {
    /// The bit of cell (r, c).
    pub fn bit(self, r: usize, c: usize) -> u128 {
        1u128 << (r * self.cols as usize + c)
    }

    /// Every cell.
    pub fn all(self) -> u128 {
        let n = self.rows as usize * self.cols as usize;
        if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    }

    /// The cells not in the last column (whose right neighbour is on the board).
    pub fn not_last_col(self) -> u128 {
        let mut m = 0;
        for r in 0..self.rows as usize {
            for c in 0..(self.cols as usize).saturating_sub(1) {
                m |= self.bit(r, c);
            }
        }
        m
    }

    /// The cells 4-connected to `seed` within `cells`.
    pub fn flood(self, cells: u128, seed: u128) -> u128 {
        let cols = self.cols as u32;
        let left_ok = self.not_last_col(); // a cell that may step right
        let right_ok = left_ok << 1; // a cell that may step left
        let mut region = seed & cells;
        loop {
            let grown = region
                | ((region & left_ok) << 1)
                | ((region & right_ok) >> 1)
                | region.checked_shl(cols).unwrap_or(0)
                | region.checked_shr(cols).unwrap_or(0);
            let grown = grown & cells;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The connected parts of `cells`, each as a mask on this shape.
    pub fn parts(self, cells: u128) -> Vec<u128> {
        let mut rest = cells;
        let mut out = Vec::new();
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let part = self.flood(rest, seed);
            rest &= !part;
            out.push(part);
        }
        out
    }

    /// The mask of one row's cells, `cols` bits.
    fn row_mask(self) -> u128 {
        if self.cols as u32 >= 128 {
            u128::MAX
        } else {
            (1u128 << self.cols) - 1
        }
    }

    /// Row `r` of `m`, as the low `cols` bits.
    fn row(self, m: u128, r: usize) -> u128 {
        m.checked_shr((r * self.cols as usize) as u32).unwrap_or(0) & self.row_mask()
    }

    /// The smallest rectangle holding `cells`, and each of `masks` moved into it.
    pub fn crop<const K: usize>(self, cells: u128, masks: [u128; K]) -> (Shape, [u128; K]) {
        // Row by row: which rows are used, and the union of the used columns.
        let mut used_cols = 0u128;
        let (mut r0, mut r1) = (usize::MAX, 0);
        for r in 0..self.rows as usize {
            let row = self.row(cells, r);
            if row != 0 {
                used_cols |= row;
                r0 = r0.min(r);
                r1 = r;
            }
        }
        if used_cols == 0 {
            return (Shape { rows: 0, cols: 0 }, [0; K]);
        }
        let c0 = used_cols.trailing_zeros() as usize;
        let c1 = 127 - used_cols.leading_zeros() as usize;
        let shape = Shape {
            rows: (r1 - r0 + 1) as u8,
            cols: (c1 - c0 + 1) as u8,
        };
        let width = shape.row_mask();
        let out = masks.map(|m| {
            let mut o = 0;
            for r in r0..=r1 {
                o |= ((self.row(m, r) >> c0) & width) << ((r - r0) * shape.cols as usize);
            }
            o
        });
        (shape, out)
    }

    /// `masks` mirrored: `flip_rows` top to bottom, `flip_cols` left to right, `transpose`
    /// rows for columns (applied last), with the shape they end in.
    pub fn map<const K: usize>(
        self,
        masks: [u128; K],
        flip_rows: bool,
        flip_cols: bool,
        transpose: bool,
    ) -> (Shape, [u128; K]) {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        if !transpose {
            // Row by row: a mirrored row is its bits reversed.
            let out = masks.map(|m| {
                let mut o = 0;
                for r in 0..rows {
                    let mut row = self.row(m, r);
                    if flip_cols {
                        row = row.reverse_bits() >> (128 - cols);
                    }
                    let to = if flip_rows { rows - 1 - r } else { r };
                    o |= row << (to * cols);
                }
                o
            });
            return (self, out);
        }
        let shape = Shape {
            rows: self.cols,
            cols: self.rows,
        };
        let out = masks.map(|m| {
            let mut o = 0;
            let mut rest = m;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (mut r, mut c) = (i / cols, i % cols);
                if flip_rows {
                    r = rows - 1 - r;
                }
                if flip_cols {
                    c = cols - 1 - c;
                }
                o |= shape.bit(c, r);
            }
            o
        });
        (shape, out)
    }

    /// The least of `masks`' images under the symmetries allowed (`turns`: the transposing
    /// ones too), so that symmetric regions are remembered once.
    pub fn fold<const K: usize>(self, masks: [u128; K], turns: bool) -> (Shape, [u128; K]) {
        if K == 1 && !turns {
            return self.fold_rows(masks);
        }
        let mut best = (self, masks);
        for t in 1..if turns { 8 } else { 4 } {
            let image = self.map(masks, t & 1 != 0, t & 2 != 0, t & 4 != 0);
            if image < best {
                best = image;
            }
        }
        best
    }

    /// [`Shape::fold`] of one mask without turns, from its rows read once.
    fn fold_rows<const K: usize>(self, masks: [u128; K]) -> (Shape, [u128; K]) {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let m = masks[0];
        let join = |mirror: bool, flip: bool| {
            let mut o = 0u128;
            for r in 0..rows {
                let mut row = self.row(m, if flip { rows - 1 - r } else { r });
                if mirror {
                    row = row.reverse_bits() >> (128 - cols);
                }
                o |= row << (r * cols);
            }
            o
        };
        let best = [
            masks[0],
            join(true, false),
            join(false, true),
            join(true, true),
        ]
        .into_iter()
        .min()
        .unwrap_or(masks[0]);
        let mut out = masks;
        out[0] = best;
        (self, out)
    }
}

/// Reads a board written row by row, rows separated by `|` (or new lines), each cell a
/// character; `cell` maps a character to its index among the masks (`None`: not a cell
/// character), index `K` meaning an empty cell. Or `RxC` for `fill` on every cell.
pub fn parse<const K: usize>(
    text: &str,
    cell: impl Fn(char) -> Option<usize>,
    fill: Option<usize>,
) -> std::result::Result<(Shape, [u128; K]), String> {
    let text = text.trim();
    if let (Some(k), Some((r, c))) = (fill, text.split_once(['x', 'X'])) {
        if let (Ok(r), Ok(c)) = (r.trim().parse::<usize>(), c.trim().parse::<usize>()) {
            if r * c > MOST_CELLS || r == 0 || c == 0 {
                return Err(format!(
                    "a {r} x {c} board: give 1 to {MOST_CELLS} cells in all"
                ));
            }
            let shape = Shape {
                rows: r as u8,
                cols: c as u8,
            };
            let mut masks = [0; K];
            if k < K {
                masks[k] = shape.all();
            }
            return Ok((shape, masks));
        }
    }
    let rows: Vec<&str> = text
        .split(['|', '\n', '/'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    let cols = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if rows.is_empty() || cols == 0 {
        return Err("an empty board".into());
    }
    if rows.len() * cols > MOST_CELLS {
        return Err(format!(
            "a board of {} x {cols} cells: at most {MOST_CELLS} cells",
            rows.len()
        ));
    }
    let shape = Shape {
        rows: rows.len() as u8,
        cols: cols as u8,
    };
    let mut masks = [0; K];
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            match cell(ch) {
                Some(k) if k < K => masks[k] |= shape.bit(r, c),
                Some(_) => {}
                None => return Err(format!("row {}: '{ch}' is not a cell", r + 1)),
            }
        }
    }
    Ok((shape, masks))
}

/// Writes a board row by row, rows separated by `|`; `cell` gives each cell's character.
pub fn show(shape: Shape, cell: impl Fn(u128) -> char) -> String {
    let mut rows = Vec::new();
    for r in 0..shape.rows as usize {
        rows.push(
            (0..shape.cols as usize)
                .map(|c| cell(shape.bit(r, c)))
                .collect::<String>(),
        );
    }
    rows.join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_crops_and_folds() {
        let (shape, [free]) = parse::<1>(
            "..#|#.#|##.",
            |c| match c {
                '.' => Some(0),
                '#' => Some(1),
                _ => None,
            },
            None,
        )
        .unwrap();
        let parts = shape.parts(free);
        assert_eq!(parts.len(), 2);
        let (s, [m]) = shape.crop(parts[0], [parts[0]]);
        assert_eq!((s.rows, s.cols, m.count_ones()), (2, 2, 3));
        // An L and its mirror images fold to one region.
        let (a, ma) = s.fold([m], false);
        let (mirrored, mm) = s.map([m], false, true, false);
        assert_eq!(mirrored.fold(mm, false), (a, ma));
    }
}
