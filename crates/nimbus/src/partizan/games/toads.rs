//! Toads and Frogs on a strip: Left's toads `T` move right, Right's frogs `F` move left, each
//! one step onto an empty square `.` or jumping one of the other's creatures onto the empty
//! square beyond; who cannot move loses.

use crate::partizan::Ruleset;

/// The most squares of a strip.
pub const MOST_SQUARES: usize = 128;

/// The ruleset.
#[derive(Debug, Clone, Copy, Default)]
pub struct ToadsAndFrogs;

/// A strip: its squares, `T`, `F` or `.`.
pub type Strip = Box<[u8]>;

impl ToadsAndFrogs {
    /// Reads a strip.
    pub fn parse(text: &str) -> std::result::Result<Strip, String> {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        if text.len() > MOST_SQUARES {
            return Err(format!(
                "a strip of {} squares: at most {MOST_SQUARES}",
                text.len()
            ));
        }
        text.chars()
            .map(|c| match c {
                'T' | 't' => Ok(b'T'),
                'F' | 'f' => Ok(b'F'),
                '.' | '_' => Ok(b'.'),
                _ => Err(format!("'{c}' is not a square: use T, F and .")),
            })
            .collect()
    }

    /// The moves of `me` (`T` to the right, `F` to the left).
    fn moves(s: &[u8], me: u8) -> Vec<Strip> {
        let other = if me == b'T' { b'F' } else { b'T' };
        let n = s.len() as isize;
        let dir: isize = if me == b'T' { 1 } else { -1 };
        let mut out = Vec::new();
        for i in 0..n {
            if s[i as usize] != me {
                continue;
            }
            let (a, b) = (i + dir, i + 2 * dir);
            let to = if (0..n).contains(&a) && s[a as usize] == b'.' {
                a
            } else if (0..n).contains(&b) && s[a as usize] == other && s[b as usize] == b'.' {
                b
            } else {
                continue;
            };
            let mut next = s.to_vec();
            next[i as usize] = b'.';
            next[to as usize] = me;
            out.push(next.into_boxed_slice());
        }
        out
    }
}

impl Ruleset for ToadsAndFrogs {
    type Position = Strip;

    fn left_moves(&self, s: &Strip) -> Vec<Strip> {
        ToadsAndFrogs::moves(s, b'T')
    }

    fn right_moves(&self, s: &Strip) -> Vec<Strip> {
        ToadsAndFrogs::moves(s, b'F')
    }

    fn regions(&self, s: &Strip) -> Vec<Strip> {
        // `TTFF` is a wall nothing crosses or moves into: the strip falls apart there. Frogs
        // at the left end and toads at the right end never move and block nothing.
        let mut out = Vec::new();
        let mut start = 0;
        let mut i = 0;
        while i + 4 <= s.len() {
            if &s[i..i + 4] == b"TTFF" {
                out.push(&s[start..i + 2]);
                start = i + 2;
                i += 2;
            } else {
                i += 1;
            }
        }
        out.push(&s[start..]);
        out.into_iter()
            .filter_map(|part| {
                let a = part.iter().position(|&c| c != b'F')?;
                let b = part.iter().rposition(|&c| c != b'T')?;
                if a > b {
                    return None;
                }
                let core = &part[a..=b];
                // A core without an empty square has no move for anyone: it is zero.
                core.contains(&b'.')
                    .then(|| core.to_vec().into_boxed_slice())
            })
            .collect()
    }

    fn show(&self, s: &Strip) -> String {
        String::from_utf8_lossy(s).into_owned()
    }
}
