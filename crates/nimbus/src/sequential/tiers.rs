//! Strong solutions tier by tier, two bits a reachable position, a few files a tier.
//!
//! A *tiered* game puts every position in a tier and ranks the positions of each tier (a
//! combinatorial ranking, which may leave ranks no play reaches); its moves lead from a tier to
//! later tiers or stay in it ([`Tiered::successors`]; Connect Four: a move adds a stone, so
//! to the next tier). The solver first marks, tier by tier from the start's, the ranks reachable from
//! the start (a bit a rank). Counting those bits ranks the reachable positions of a tier
//! densely: the values are kept for them alone, in the order of rank, two bits each, and a
//! position's place among them is found from the bits and a small directory of counts (three
//! eighths of a bit a rank). Then the tiers are valued from the last to the first: a position
//! is won when some move reaches a lost one, lost when every move reaches a won one (or the
//! game has ended against the side to move), drawn otherwise. A tier with moves within itself
//! is valued by passes over it until no value or remoteness changes; its positions still
//! undecided then can avoid losing forever, and are draws.
//!
//! Each solved tier is written to `DIR/tier-K.reach` (its reachability bits), `DIR/tier-K.bin`
//! (the values) and, when remoteness is kept, `DIR/tier-K.rem` (a byte a reachable position).
//! Each file is a line naming the format, a JSON header (game, tier, ranks, reachable
//! positions, and for each block of 1 MiB its compressed size and CRC-32; for the
//! reachability file also the reachable ranks before each block) and the blocks, each
//! compressed with DEFLATE on its own. The values file is written last, and a run skips every
//! tier whose values file exists and verifies, so a stopped run resumes at the tier it was
//! in; a query decompresses the one block of reachability bits and the one block of values
//! that hold its position.
//!
//! ```
//! use nimbus::sequential::tiers::{solve, query, Connect4Tiers, Value};
//! let g = Connect4Tiers::new(4, 4).unwrap();
//! let dir = std::env::temp_dir().join(format!("nimbus-doc-tiers-{}", std::process::id()));
//! let s = solve(&g, &dir, true, u64::MAX).unwrap();
//! assert_eq!(s.longest_remoteness, Some(13));
//! assert_eq!(s.start, Value::Draw);                 // 4 x 4 Connect Four is a draw
//! assert_eq!(query(&g, &dir, "1").unwrap(), Value::Draw);
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

#[cfg(feature = "mpi")]
pub mod distributed;

use crate::{Error, Result};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// A position's value for the side to move, as stored (two bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// Not reachable from the start.
    Unreachable,
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl Value {
    fn code(self) -> u8 {
        match self {
            Value::Unreachable => 0,
            Value::Win => 1,
            Value::Loss => 2,
            Value::Draw => 3,
        }
    }

    fn of(code: u8) -> Value {
        match code & 3 {
            0 => Value::Unreachable,
            1 => Value::Win,
            2 => Value::Loss,
            _ => Value::Draw,
        }
    }
}

/// A game whose positions fall into tiers, each ranked densely, with moves only to later
/// tiers.
pub trait Tiered: Sync {
    /// A position.
    type Position;
    /// What identifies the game in a tier file ("connect4:6x4").
    fn name(&self) -> String;
    /// How many tiers there are; they are numbered from 0.
    fn tiers(&self) -> usize;
    /// The positions of tier `t`.
    fn tier_size(&self, t: usize) -> u64;
    /// The start's tier and rank.
    fn start(&self) -> (usize, u64);
    /// The position of rank `i` in tier `t`.
    fn unrank(&self, t: usize, i: u64) -> Self::Position;
    /// The value of a position where the game is over, from the rules alone (`Unreachable`
    /// for a position no play can reach, such as one where the side to move has already
    /// won); `None` while the game goes on.
    fn primitive(&self, t: usize, p: &Self::Position) -> Option<Value>;
    /// The tier and rank of the position every move of `p` reaches, in `out`.
    fn children(&self, t: usize, p: &Self::Position, out: &mut Vec<(usize, u64)>);
    /// The tier and rank of a position written in the game's notation.
    fn parse(&self, text: &str) -> Result<(usize, u64)>;

    /// The tiers the moves of tier `t` lead to: `t` itself (moves that keep the tier) or
    /// tiers after it. By default the next tier alone (Connect Four: a move adds a stone).
    fn successors(&self, t: usize) -> Vec<usize> {
        if t + 1 < self.tiers() {
            vec![t + 1]
        } else {
            Vec::new()
        }
    }

    /// Visits, in order of rank, the positions of tier `t` with ranks in `from..to` for which
    /// `wanted` holds, handing each to `each` with its [`Step`]. The default unranks every
    /// one; a game that steps from a rank to the next more cheaply overrides it.
    fn visit(
        &self,
        t: usize,
        from: u64,
        to: u64,
        wanted: &dyn Fn(u64) -> bool,
        each: &mut dyn FnMut(u64, Step<'_>) -> Result<()>,
    ) -> Result<()> {
        let mut out = Vec::new();
        for i in from..to {
            if !wanted(i) {
                continue;
            }
            let p = self.unrank(t, i);
            match self.primitive(t, &p) {
                Some(v) => each(i, Step::Over(v))?,
                None => {
                    out.clear();
                    self.children(t, &p, &mut out);
                    each(i, Step::Moves(&out))?;
                }
            }
        }
        Ok(())
    }
}

/// What [`Tiered::visit`] says of a position.
#[derive(Debug)]
pub enum Step<'a> {
    /// The game is over there (or the position cannot be reached): its value.
    Over(Value),
    /// The tier and rank each move reaches.
    Moves(&'a [(usize, u64)]),
}

/// Two bits a position.
fn packed_len(n: u64) -> usize {
    n.div_ceil(4) as usize
}

fn get(codes: &[u8], i: u64) -> u8 {
    (codes[(i / 4) as usize] >> (2 * (i % 4))) & 3
}

/// Words of reachability bits a count of the directory covers.
const SPAN: usize = 8;

/// The reachable positions of a tier ranked densely: position `i` (a rank of the tier) is the
/// `index(i)`-th reachable one. The directory counts the reachable ranks before every 512th
/// (a `u64` each) and, within those spans, before every 64th (a `u16` each): three eighths of
/// a bit a rank, so that a dense index takes one popcount.
struct Dense<'a> {
    words: &'a [AtomicU64],
    before: Vec<u64>,
    within: Vec<u16>,
}

impl<'a> Dense<'a> {
    fn new(words: &'a [AtomicU64]) -> Dense<'a> {
        let mut before = Vec::with_capacity(words.len() / SPAN + 1);
        let mut within = Vec::with_capacity(words.len());
        let mut count = 0;
        for chunk in words.chunks(SPAN) {
            before.push(count);
            let mut here = 0u16;
            for w in chunk {
                within.push(here);
                here += w.load(Ordering::Relaxed).count_ones() as u16;
            }
            count += u64::from(here);
        }
        before.push(count);
        Dense {
            words,
            before,
            within,
        }
    }

    /// Reachable positions in all.
    fn len(&self) -> u64 {
        *self.before.last().unwrap_or(&0)
    }

    fn word(&self, w: usize) -> u64 {
        self.words[w].load(Ordering::Relaxed)
    }

    /// The dense index of rank `i`, or `None` when it is not reachable.
    fn index(&self, i: u64) -> Option<u64> {
        let w = (i / 64) as usize;
        let bit = 1u64 << (i % 64);
        let word = self.word(w);
        if word & bit == 0 {
            return None;
        }
        Some(
            self.before[w / SPAN]
                + u64::from(self.within[w])
                + u64::from((word & (bit - 1)).count_ones()),
        )
    }

    /// The rank of the `k`-th reachable position (from 0), or the tier's size in ranks when
    /// there are not that many.
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    fn select(&self, k: u64, n: u64) -> u64 {
        if k >= self.len() {
            return n;
        }
        // The last span with fewer than k + 1 reachable positions before it.
        let span = self.before.partition_point(|&c| c <= k) - 1;
        let mut left = k - self.before[span];
        for w in span * SPAN..self.words.len() {
            let mut word = self.word(w);
            let ones = u64::from(word.count_ones());
            if left < ones {
                for _ in 0..left {
                    word &= word - 1;
                }
                return w as u64 * 64 + u64::from(word.trailing_zeros());
            }
            left -= ones;
        }
        n
    }
}

/// Counts of one tier or of the whole game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Positions reachable from the start.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Lost.
    pub losses: u64,
    /// Drawn.
    pub draws: u64,
}

impl Counts {
    fn of(codes: &[u8], n: u64) -> Counts {
        let mut c = Counts::default();
        for i in 0..n {
            match Value::of(get(codes, i)) {
                Value::Unreachable => {}
                Value::Win => c.wins += 1,
                Value::Loss => c.losses += 1,
                Value::Draw => c.draws += 1,
            }
        }
        c.positions = c.wins + c.losses + c.draws;
        c
    }

    fn add(&mut self, o: &Counts) {
        self.positions += o.positions;
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }
}

/// A solved database's summary.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The game.
    pub game: String,
    /// The start's value.
    pub start: Value,
    /// Over every tier.
    pub total: Counts,
    /// Tier by tier, from the first.
    pub tiers: Vec<Counts>,
    /// Ranks in all tiers (reachable or not).
    pub ranks: u64,
    /// Bytes of the tier files on disk.
    pub bytes_on_disk: u64,
    /// Tiers found solved on disk (a resumed run).
    pub resumed: usize,
    /// With remoteness kept: the longest distance to the end with best play, in plies.
    pub longest_remoteness: Option<u32>,
}

const MAGIC: &str = "NIMBUS-TIER 2";

/// Ranks a job of the reachability pass covers.
const REACH_BLOCK: u64 = 1 << 16;
/// Ranks a job of the value pass covers.
const VALUE_BLOCK: u64 = 1 << 14;

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Header {
    game: String,
    tier: usize,
    /// Ranks in the tier.
    positions: u64,
    /// Positions of the tier reachable from the start.
    reachable: u64,
    /// Bytes in each block (the last may hold fewer).
    block_bytes: usize,
    /// Each block's compressed size, in order.
    sizes: Vec<u64>,
    /// Each block's CRC-32 (of its bytes uncompressed).
    crc32: Vec<u32>,
    /// In a reachability file: the reachable ranks before each block.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    before: Vec<u64>,
}

/// Bytes a block holds: a query decompresses one block of each file it reads, not the tier.
const BLOCK_BYTES: usize = 1 << 20;

/// The files of a tier: which of its ranks are reachable (a bit a rank), their values (two
/// bits a reachable position, in the order of rank) and, when asked for, their remoteness (a
/// byte a reachable position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Reach,
    Values,
    Remoteness,
}

impl Kind {
    fn path(self, dir: &Path, t: usize) -> PathBuf {
        match self {
            Kind::Reach => dir.join(format!("tier-{t}.reach")),
            Kind::Values => dir.join(format!("tier-{t}.bin")),
            Kind::Remoteness => dir.join(format!("tier-{t}.rem")),
        }
    }

    /// Bytes the file of a tier of `n` ranks, `m` of them reachable, holds.
    fn len(self, n: u64, m: u64) -> usize {
        match self {
            Kind::Reach => n.div_ceil(8) as usize,
            Kind::Values => packed_len(m),
            Kind::Remoteness => m as usize,
        }
    }
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

/// A block of bytes compressed on its own, with the CRC-32 of the bytes.
fn compress_block(block: &[u8]) -> std::io::Result<(Vec<u8>, u32)> {
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(block)?;
    Ok((z.finish()?, crc32fast::hash(block)))
}

/// What a tier file says of its tier.
struct Tier<'a> {
    game: &'a str,
    t: usize,
    n: u64,
    m: u64,
}

/// Writes a tier file from its bytes, compressed block by block (in parallel), beside the file
/// and renamed, so that a stop mid-write leaves no file that looks whole.
fn write_tier(dir: &Path, tier: &Tier, kind: Kind, bytes: &[u8]) -> Result<()> {
    let path = kind.path(dir, tier.t);
    let blocks: Vec<(Vec<u8>, u32)> = bytes
        .par_chunks(BLOCK_BYTES)
        .map(compress_block)
        .collect::<std::io::Result<_>>()
        .map_err(io_error(&path))?;
    let before = if kind == Kind::Reach {
        ones_before(bytes, BLOCK_BYTES)
    } else {
        Vec::new()
    };
    write_blocks(dir, tier, kind, &blocks, before)
}

/// Writes a tier file from its compressed blocks, in order, beside the file and renames.
fn write_blocks(
    dir: &Path,
    tier: &Tier,
    kind: Kind,
    blocks: &[(Vec<u8>, u32)],
    before: Vec<u64>,
) -> Result<()> {
    let path = kind.path(dir, tier.t);
    crate::core::input::may_read(&path.display().to_string())?;
    let mut part = path.clone().into_os_string();
    part.push(".part");
    let part = PathBuf::from(part);
    let header = Header {
        game: tier.game.to_string(),
        tier: tier.t,
        positions: tier.n,
        reachable: tier.m,
        block_bytes: BLOCK_BYTES,
        sizes: blocks.iter().map(|(b, _)| b.len() as u64).collect(),
        crc32: blocks.iter().map(|&(_, c)| c).collect(),
        before,
    };
    let file = std::fs::File::create(&part).map_err(io_error(&part))?;
    let mut out = std::io::BufWriter::new(file);
    writeln!(out, "{MAGIC}").map_err(io_error(&part))?;
    serde_json::to_writer(&mut out, &header).map_err(|e| Error::Invalid(e.to_string()))?;
    out.write_all(b"\n").map_err(io_error(&part))?;
    for (b, _) in blocks {
        out.write_all(b).map_err(io_error(&part))?;
    }
    let file = out
        .into_inner()
        .map_err(|e| io_error(&part)(e.into_error()))?;
    file.sync_all().map_err(io_error(&part))?;
    drop(file);
    std::fs::rename(&part, &path).map_err(io_error(&path))
}

/// A tier's reachability bits as the bytes of its file (rank `i` is bit `i % 8` of byte
/// `i / 8`).
fn reach_bytes(words: &[AtomicU64], n: u64) -> Vec<u8> {
    let mut bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
        .collect();
    bytes.truncate(n.div_ceil(8) as usize);
    bytes
}

/// An open tier file: its header checked, positioned at its first block.
struct TierFile {
    path: PathBuf,
    reader: std::io::BufReader<std::fs::File>,
    header: Header,
    /// Where the first block starts.
    data: u64,
    /// Bytes in all.
    len: usize,
}

impl TierFile {
    /// The file of tier `t`, or `None` when there is none; an error when its header is
    /// damaged or names another game or tier.
    fn open(dir: &Path, game: &str, t: usize, n: u64, kind: Kind) -> Result<Option<TierFile>> {
        let path = kind.path(dir, t);
        crate::core::input::may_read(&path.display().to_string())?;
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error(&path)(e)),
        };
        let mut reader = std::io::BufReader::new(file);
        let mut line = String::new();
        std::io::BufRead::read_line(&mut reader, &mut line).map_err(io_error(&path))?;
        let mut data = line.len() as u64;
        if line.trim_end() != MAGIC {
            return Err(damaged(&path, "not a Nimbus tier file of this version"));
        }
        line.clear();
        // The header is one line of JSON; a few bytes a block.
        std::io::BufRead::read_line(&mut Read::take(&mut reader, 1 << 26), &mut line)
            .map_err(io_error(&path))?;
        data += line.len() as u64;
        let header: Header =
            serde_json::from_str(&line).map_err(|_| damaged(&path, "a damaged header"))?;
        if header.game != game || header.tier != t || header.positions != n {
            return Err(damaged(
                &path,
                &format!(
                    "it holds tier {} of {} ({} positions), not tier {t} of {game}",
                    header.tier, header.game, header.positions
                ),
            ));
        }
        let len = kind.len(n, header.reachable);
        let blocks = len.div_ceil(BLOCK_BYTES);
        if header.block_bytes != BLOCK_BYTES
            || header.reachable > n
            || header.sizes.len() != blocks
            || header.crc32.len() != blocks
            || (kind == Kind::Reach && header.before.len() != blocks)
        {
            return Err(damaged(&path, "a damaged header"));
        }
        Ok(Some(TierFile {
            path,
            reader,
            header,
            data,
            len,
        }))
    }

    /// The bytes of block `b`, checked against its checksum.
    fn block(&mut self, b: usize) -> Result<Vec<u8>> {
        let offset = self.data + self.header.sizes[..b].iter().sum::<u64>();
        std::io::Seek::seek(&mut self.reader, std::io::SeekFrom::Start(offset))
            .map_err(io_error(&self.path))?;
        let want = (self.len - b * BLOCK_BYTES).min(BLOCK_BYTES);
        let packed = (&mut self.reader).take(self.header.sizes[b]);
        inflate(packed, want, self.header.crc32[b])
            .ok_or_else(|| damaged(&self.path, "its values do not match their checksum"))
    }
}

/// A block decompressed, when it inflates to `want` bytes whose CRC-32 is `crc`.
fn inflate(packed: impl Read, want: usize, crc: u32) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(want);
    flate2::read::DeflateDecoder::new(packed)
        .take(want as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() == want && crc32fast::hash(&bytes) == crc).then_some(bytes)
}

/// The set bits of `bytes` before each chunk of `chunk` bytes.
fn ones_before(bytes: &[u8], chunk: usize) -> Vec<u64> {
    let mut count = 0;
    bytes
        .chunks(chunk)
        .map(|c| {
            let here = count;
            count += c.iter().map(|b| u64::from(b.count_ones())).sum::<u64>();
            here
        })
        .collect()
}

fn damaged(path: &Path, why: &str) -> Error {
    Error::Invalid(format!(
        "{}: {why} (delete it to solve the tier again)",
        path.display()
    ))
}

/// A tier file's bytes and the reachable positions its header counts, or `None` when there is
/// no file; an error when the file is damaged or belongs to another game.
fn read_tier(
    dir: &Path,
    game: &str,
    t: usize,
    n: u64,
    kind: Kind,
    max_memory: u64,
) -> Result<Option<(Vec<u8>, u64)>> {
    let Some(mut file) = TierFile::open(dir, game, t, n, kind)? else {
        return Ok(None);
    };
    crate::core::budget::check_memory(&format!("tier {t} of {game}"), file.len as u64, max_memory)?;
    let mut bytes = Vec::with_capacity(file.len);
    for b in 0..file.header.sizes.len() {
        bytes.extend(file.block(b)?);
    }
    Ok(Some((bytes, file.header.reachable)))
}

/// A solved tier's values and remoteness (empty when not kept), when its files are there and
/// hold `m` reachable positions (`None` for "any", when the caller cannot count them).
type Solved = (Vec<u8>, Vec<u8>, u64);

fn read_solved(
    dir: &Path,
    game: &str,
    t: usize,
    n: u64,
    m: Option<u64>,
    remoteness: bool,
    max_memory: u64,
) -> Result<Option<Solved>> {
    let Some((codes, reachable)) = read_tier(dir, game, t, n, Kind::Values, max_memory)? else {
        return Ok(None);
    };
    if m.is_some_and(|m| m != reachable) {
        return Err(damaged(
            &Kind::Values.path(dir, t),
            "it counts other reachable positions than the solver",
        ));
    }
    let rems = if remoteness {
        match read_tier(dir, game, t, n, Kind::Remoteness, max_memory)? {
            Some((rems, _)) => rems,
            None => return Ok(None),
        }
    } else {
        Vec::new()
    };
    Ok(Some((codes, rems, reachable)))
}

/// Strongly solves `g` into the directory `dir` (created if missing), resuming from the tier
/// files already there; with `remoteness`, each position's distance to the end with best play
/// too (a byte a position, in `tier-K.rem`). Refuses at once a game whose reachability bits
/// and two largest neighbouring tiers would need more than `max_memory` bytes.
pub fn solve<G: Tiered>(g: &G, dir: &Path, remoteness: bool, max_memory: u64) -> Result<Summary> {
    let name = g.name();
    let tiers = g.tiers();
    let sizes: Vec<u64> = (0..tiers).map(|t| g.tier_size(t)).collect();
    check_budget(g, remoteness, max_memory)?;
    crate::core::input::may_read(&dir.display().to_string())?;
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;

    // Reachable positions, tier by tier: a bit a rank.
    let bits: Vec<Vec<AtomicU64>> = sizes
        .iter()
        .map(|&n| (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect())
        .collect();
    let mark = |t: usize, i: u64| {
        bits[t][(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
    };
    let (t0, i0) = g.start();
    mark(t0, i0);
    for t in t0..tiers {
        let succ = successors(g, t)?;
        crate::core::progress::phase(&format!("tier {t}: reachable positions"), sizes[t]);
        // Moves within the tier reach positions the pass may have gone by: again until
        // nothing new is marked.
        loop {
            let seen = if succ.contains(&t) { ones(&bits[t]) } else { 0 };
            let done = AtomicU64::new(0);
            reach_range(g, t, 0..sizes[t], &bits[t], &succ, &mark, &done)?;
            if !succ.contains(&t) || ones(&bits[t]) == seen {
                break;
            }
        }
    }

    // Values, from the last tier to the first.
    let mut counts = vec![Counts::default(); tiers];
    let mut resumed = 0;
    let mut longest: u8 = 0;
    // The solved tiers the moves of the tier being solved reach.
    let mut solved: Vec<Option<Later>> = (0..tiers).map(|_| None).collect();
    for t in (0..tiers).rev() {
        let n = sizes[t];
        let succ = successors(g, t)?;
        load_successors(g, dir, &bits, &succ, t, remoteness, max_memory, &mut solved)?;
        let dense = Dense::new(&bits[t]);
        let m = dense.len();
        let tier = Tier {
            game: &name,
            t,
            n,
            m,
        };
        let (codes, rems) = match read_solved(dir, &name, t, n, Some(m), remoteness, max_memory)? {
            Some((codes, rems, _)) => {
                resumed += 1;
                (codes, rems)
            }
            None => {
                crate::core::progress::phase(&format!("tier {t}: values"), n);
                let codes: Vec<AtomicU8> = (0..packed_len(m)).map(|_| AtomicU8::new(0)).collect();
                let rems: Vec<AtomicU8> = (0..if remoteness { m } else { 0 })
                    .map(|_| AtomicU8::new(0))
                    .collect();
                let out = Out {
                    dense: &dense,
                    base: 0,
                    codes: &codes,
                    rems: &rems,
                };
                let laters: Vec<&Later> = solved.iter().flatten().collect();
                // Moves within the tier: passes until nothing changes; what is still
                // undecided then is a draw.
                loop {
                    let done = AtomicU64::new(0);
                    let changed = values_into(g, t, 0, n, &out, &laters, &done)?;
                    if !succ.contains(&t) || changed == 0 {
                        break;
                    }
                }
                let mut codes: Vec<u8> = codes.into_iter().map(AtomicU8::into_inner).collect();
                if succ.contains(&t) {
                    undecided_are_draws(&mut codes, m);
                }
                let rems: Vec<u8> = rems.into_iter().map(AtomicU8::into_inner).collect();
                // The values file last: a tier counts as solved once it is there.
                write_tier(dir, &tier, Kind::Reach, &reach_bytes(&bits[t], n))?;
                if remoteness {
                    write_tier(dir, &tier, Kind::Remoteness, &rems)?;
                }
                write_tier(dir, &tier, Kind::Values, &codes)?;
                (codes, rems)
            }
        };
        counts[t] = Counts::of(&codes, m);
        if let Some(&r) = rems.iter().max() {
            longest = longest.max(r);
        }
        solved[t] = Some(Later {
            tier: t,
            dense,
            codes,
            rems,
        });
    }
    let start = solved[t0]
        .as_ref()
        .and_then(|l| l.dense.index(i0).map(|d| Value::of(get(&l.codes, d))));
    summarize(
        g,
        dir,
        counts,
        resumed,
        remoteness.then_some(longest),
        start,
        max_memory,
    )
}

/// The tiers the moves of tier `t` reach, checked: `t` itself or later tiers.
fn successors<G: Tiered>(g: &G, t: usize) -> Result<Vec<usize>> {
    let succ = g.successors(t);
    match succ.iter().find(|&&k| k < t || k >= g.tiers()) {
        Some(k) => Err(Error::Invalid(format!(
            "{}: tier {t} names tier {k} among the tiers its moves reach; only itself and \
             later tiers can be",
            g.name()
        ))),
        None => Ok(succ),
    }
}

/// Reachable ranks of a tier.
fn ones(words: &[AtomicU64]) -> u64 {
    words
        .iter()
        .map(|w| u64::from(w.load(Ordering::Relaxed).count_ones()))
        .sum()
}

/// Keeps in `solved` the tiers after `t` that its moves reach (reading from their files those
/// not in memory) and drops the others.
#[allow(clippy::too_many_arguments)]
fn load_successors<'a, G: Tiered>(
    g: &G,
    dir: &Path,
    bits: &'a [Vec<AtomicU64>],
    succ: &[usize],
    t: usize,
    remoteness: bool,
    max_memory: u64,
    solved: &mut [Option<Later<'a>>],
) -> Result<()> {
    for (k, slot) in solved.iter_mut().enumerate() {
        if !succ.contains(&k) || k == t {
            *slot = None;
        } else if slot.is_none() {
            let dense = Dense::new(&bits[k]);
            let name = g.name();
            let (codes, rems, _) = read_solved(
                dir,
                &name,
                k,
                g.tier_size(k),
                Some(dense.len()),
                remoteness,
                max_memory,
            )?
            .ok_or_else(|| {
                Error::Invalid(format!(
                    "{}: tier {k} of {name} is missing, though solved before tier {t}",
                    Kind::Values.path(dir, k).display()
                ))
            })?;
            *slot = Some(Later {
                tier: k,
                dense,
                codes,
                rems,
            });
        }
    }
    Ok(())
}

/// Marks the first `m` values still unknown (code 0: moves within the tier that no pass
/// decided) as draws.
fn undecided_are_draws(codes: &mut [u8], m: u64) {
    for d in 0..m {
        let (byte, shift) = ((d / 4) as usize, 2 * (d % 4));
        if codes[byte] >> shift & 3 == 0 {
            codes[byte] |= Value::Draw.code() << shift;
        }
    }
}

/// The summary of a solved database whose tiers' counts are known; the start's value is read
/// from its tier file when not given.
fn summarize<G: Tiered>(
    g: &G,
    dir: &Path,
    counts: Vec<Counts>,
    resumed: usize,
    longest: Option<u8>,
    start: Option<Value>,
    max_memory: u64,
) -> Result<Summary> {
    let tiers = g.tiers();
    let bytes_on_disk = (0..tiers)
        .flat_map(|t| [Kind::Reach, Kind::Values, Kind::Remoteness].map(|k| k.path(dir, t)))
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum::<u64>();
    let start = match start {
        Some(v) => v,
        None => {
            let (t0, i0) = g.start();
            Database::open(g, dir, max_memory).value(t0, i0)?
        }
    };
    let mut total = Counts::default();
    for c in &counts {
        total.add(c);
    }
    Ok(Summary {
        game: g.name(),
        start,
        total,
        tiers: counts,
        ranks: (0..tiers).map(|t| g.tier_size(t)).sum(),
        bytes_on_disk,
        resumed,
        longest_remoteness: longest.map(u32::from),
    })
}

/// Marks (with `mark`) every position a move reaches from the reachable positions of tier `t`
/// whose ranks are in `ranks`, in parallel; a move to a tier not in `succ` is an error.
/// `done` counts the ranks covered, for progress.
fn reach_range<G: Tiered>(
    g: &G,
    t: usize,
    ranks: std::ops::Range<u64>,
    reach: &[AtomicU64],
    succ: &[usize],
    mark: &(dyn Fn(usize, u64) + Sync),
    done: &AtomicU64,
) -> Result<()> {
    let (from, to) = (ranks.start, ranks.end);
    let jobs = (to - from).div_ceil(REACH_BLOCK);
    (0..jobs).into_par_iter().try_for_each(|b| -> Result<()> {
        let lo = from + b * REACH_BLOCK;
        let hi = (lo + REACH_BLOCK).min(to);
        let wanted = |i: u64| reach[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1;
        g.visit(t, lo, hi, &wanted, &mut |_, step| {
            if let Step::Moves(children) = step {
                for &(ct, ci) in children {
                    if !succ.contains(&ct) {
                        return Err(Error::Invalid(format!(
                            "a move of tier {t} reaches tier {ct}, which is not among the tiers \
                             its moves reach"
                        )));
                    }
                    mark(ct, ci);
                }
            }
            Ok(())
        })?;
        crate::core::progress::tick(done.fetch_add(hi - lo, Ordering::Relaxed) + hi - lo)
    })
}

/// Where the value pass writes: the values (four a byte) and remoteness (when not empty) of
/// the reachable positions from dense index `base` on.
struct Out<'a, 'b> {
    dense: &'a Dense<'b>,
    base: u64,
    codes: &'a [AtomicU8],
    rems: &'a [AtomicU8],
}

/// Values the reachable positions of tier `t` with ranks in `from..to`, in parallel, into
/// `out`, from the tiers in `laters` and, for moves within the tier, from the values `out`
/// holds so far; returns how many values or remoteness changed. `done` counts the ranks
/// covered, for progress.
fn values_into<G: Tiered>(
    g: &G,
    t: usize,
    from: u64,
    to: u64,
    out: &Out,
    laters: &[&Later],
    done: &AtomicU64,
) -> Result<u64> {
    let jobs = (to - from).div_ceil(VALUE_BLOCK);
    let changed = AtomicU64::new(0);
    (0..jobs).into_par_iter().try_for_each(|b| -> Result<()> {
        let lo = from + b * VALUE_BLOCK;
        let hi = (lo + VALUE_BLOCK).min(to);
        let reach = out.dense.words;
        let wanted = |i: u64| reach[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1;
        let tick =
            || crate::core::progress::tick(done.fetch_add(hi - lo, Ordering::Relaxed) + hi - lo);
        // The dense index of the first reachable rank from `lo`; the others follow in order.
        let mut d = match (lo..hi).find(|&i| wanted(i)) {
            Some(i) => out.dense.index(i).unwrap_or(0) - out.base,
            None => return tick(),
        };
        let mut here = 0;
        g.visit(t, lo, hi, &wanted, &mut |_, step| {
            let decided = match step {
                Step::Over(v) => Some((v, 0)),
                Step::Moves(children) => value_of(children, laters, out, t)?,
            };
            if let Some((v, r)) = decided {
                // A value, once decided, stays; only a remoteness can still shrink.
                let (byte, shift) = (&out.codes[(d / 4) as usize], 2 * (d % 4));
                if byte.load(Ordering::Relaxed) >> shift & 3 == 0 {
                    byte.fetch_or(v.code() << shift, Ordering::Relaxed);
                    here += 1;
                }
                if let Some(slot) = out.rems.get(d as usize) {
                    if slot.swap(r, Ordering::Relaxed) != r {
                        here += 1;
                    }
                }
            }
            d += 1;
            Ok(())
        })?;
        changed.fetch_add(here, Ordering::Relaxed);
        tick()
    })?;
    Ok(changed.into_inner())
}

/// Refuses a game whose reachability bits and two largest neighbouring tiers would need more
/// than `max_memory` bytes.
fn check_budget<G: Tiered>(g: &G, remoteness: bool, max_memory: u64) -> Result<()> {
    let sizes: Vec<u64> = (0..g.tiers()).map(|t| g.tier_size(t)).collect();
    let ranks: u64 = sizes.iter().sum();
    // Before the reachable positions are counted, a tier's ranks bound them.
    let per = |n: u64| packed_len(n) as u64 + if remoteness { n } else { 0 };
    let widest_pair = sizes
        .windows(2)
        .map(|w| per(w[0]) + per(w[1]))
        .max()
        .unwrap_or(packed_len(sizes[0]) as u64);
    crate::core::budget::check_memory(
        &format!("the tier solution of {} ({ranks} ranks)", g.name()),
        ranks / 8 + ranks / 16 + widest_pair + 64 * sizes.len() as u64,
        max_memory,
    )
}

/// A solved tier: its number, its reachable positions, their values and remoteness (empty
/// when not kept).
struct Later<'a> {
    tier: usize,
    dense: Dense<'a>,
    codes: Vec<u8>,
    rems: Vec<u8>,
}

/// The value of a position from its children's: those in later tiers from `laters`, those in
/// tier `t` itself from `current` as valued so far; and its remoteness when the values keep it
/// (0 otherwise): a win by the quickest losing child, a loss by the slowest winning one.
/// `None` while a child in the tier is undecided and no child is lost.
fn value_of(
    children: &[(usize, u64)],
    laters: &[&Later],
    current: &Out,
    t: usize,
) -> Result<Option<(Value, u8)>> {
    let mut draw = false;
    let mut open = false;
    let mut win: Option<u8> = None;
    let mut loss: u8 = 0;
    let unreachable = || {
        Error::Invalid(format!(
            "internal inconsistency: a move of tier {t} reaches a position marked unreachable"
        ))
    };
    for &(ct, ci) in children {
        let (code, r) = if ct == t {
            let d = current.dense.index(ci).ok_or_else(unreachable)?;
            let Some(d) = d
                .checked_sub(current.base)
                .filter(|&d| d < 4 * current.codes.len() as u64)
            else {
                return Err(Error::Invalid(format!(
                    "moves within tier {t} need the whole tier in one process"
                )));
            };
            let code = current.codes[(d / 4) as usize].load(Ordering::Relaxed) >> (2 * (d % 4)) & 3;
            let r = current
                .rems
                .get(d as usize)
                .map_or(0, |x| x.load(Ordering::Relaxed));
            (code, r)
        } else {
            let Some(l) = laters.iter().find(|l| l.tier == ct) else {
                return Err(Error::Invalid(format!(
                    "internal inconsistency: a move of tier {t} reaches tier {ct}, which is not \
                     solved"
                )));
            };
            let d = l.dense.index(ci).ok_or_else(unreachable)?;
            (
                get(&l.codes, d),
                l.rems.get(d as usize).copied().unwrap_or(0),
            )
        };
        match Value::of(code) {
            Value::Loss => win = Some(win.map_or(r, |w| w.min(r))),
            Value::Draw => draw = true,
            Value::Win => loss = loss.max(r),
            // Undecided yet: a position of this tier still being valued.
            Value::Unreachable if ct == t => open = true,
            Value::Unreachable => {
                return Err(Error::Invalid(format!(
                    "internal inconsistency: a move of tier {t} reaches a position not valued"
                )))
            }
        }
    }
    Ok(match win {
        Some(r) => Some((Value::Win, r.saturating_add(1))),
        None if open => None,
        None if draw => Some((Value::Draw, 0)),
        None => Some((Value::Loss, loss.saturating_add(1))),
    })
}

/// A solved database on disk, read a block at a time as queries need them.
pub struct Database<'g, G: Tiered> {
    game: &'g G,
    dir: PathBuf,
    max_memory: u64,
    blocks: std::collections::HashMap<(Kind, usize, usize), Vec<u8>>,
    /// Each tier's reachable ranks before each block of its reachability file.
    before: std::collections::HashMap<usize, Vec<u64>>,
    /// For each reachability block read, its reachable ranks before every 64th byte.
    marks: std::collections::HashMap<(usize, usize), Vec<u64>>,
    held: u64,
}

impl<'g, G: Tiered> Database<'g, G> {
    /// The database of `game` in `dir`; nothing is read until a query needs it.
    pub fn open(game: &'g G, dir: &Path, max_memory: u64) -> Self {
        Database {
            game,
            dir: dir.to_path_buf(),
            max_memory,
            blocks: Default::default(),
            before: Default::default(),
            marks: Default::default(),
            held: 0,
        }
    }

    /// The value of rank `i` of tier `t` (`Unreachable` for a position no play reaches).
    pub fn value(&mut self, t: usize, i: u64) -> Result<Value> {
        let Some(d) = self.dense(t, i)? else {
            return Ok(Value::Unreachable);
        };
        let code = self.byte(Kind::Values, t, d / 4)?.unwrap_or(0);
        Ok(Value::of(code >> (2 * (d % 4)) & 3))
    }

    /// The remoteness of rank `i` of tier `t` (plies to the end with best play), or `None`
    /// when the database keeps none or the position is not reachable.
    pub fn remoteness(&mut self, t: usize, i: u64) -> Result<Option<u32>> {
        let Some(d) = self.dense(t, i)? else {
            return Ok(None);
        };
        Ok(self.byte(Kind::Remoteness, t, d)?.map(u32::from))
    }

    /// The index of rank `i` of tier `t` among the tier's reachable positions, from its
    /// reachability file; `None` when it is not reachable.
    fn dense(&mut self, t: usize, i: u64) -> Result<Option<u64>> {
        let name = self.game.name();
        if t >= self.game.tiers() || i >= self.game.tier_size(t) {
            return Err(Error::Invalid(format!(
                "{name} has no rank {i} in tier {t}"
            )));
        }
        let byte = (i / 8) as usize;
        let Some(bits) = self.byte(Kind::Reach, t, byte as u64)? else {
            return Ok(None);
        };
        if bits >> (i % 8) & 1 == 0 {
            return Ok(None);
        }
        let b = byte / BLOCK_BYTES;
        let block = &self.blocks[&(Kind::Reach, t, b)];
        // Reachable ranks before every 64th byte of the block, counted once a block.
        let marks = self
            .marks
            .entry((t, b))
            .or_insert_with(|| ones_before(block, 64));
        let at = byte - b * BLOCK_BYTES;
        let within: u64 = marks[at / 64]
            + block[at / 64 * 64..at]
                .iter()
                .map(|x| u64::from(x.count_ones()))
                .sum::<u64>()
            + u64::from((bits & ((1u8 << (i % 8)) - 1)).count_ones());
        Ok(Some(self.before[&t][b] + within))
    }

    /// Byte `k` of tier `t`'s `kind` of file; `None` when a remoteness file is missing.
    fn byte(&mut self, kind: Kind, t: usize, k: u64) -> Result<Option<u8>> {
        let name = self.game.name();
        let n = self.game.tier_size(t);
        let b = k as usize / BLOCK_BYTES;
        if !self.blocks.contains_key(&(kind, t, b)) {
            let Some(mut file) = TierFile::open(&self.dir, &name, t, n, kind)? else {
                if kind == Kind::Remoteness {
                    return Ok(None);
                }
                return Err(Error::Invalid(format!(
                    "{}: tier {t} of {name} is not solved yet (solve it with {} {})",
                    kind.path(&self.dir, t).display(),
                    crate::core::hint::setting("all"),
                    crate::core::hint::setting_value("db", &self.dir.display().to_string())
                )));
            };
            if kind == Kind::Reach {
                self.before.insert(t, file.header.before.clone());
            }
            // Blocks read stay for later queries, within the memory budget.
            if self.held + BLOCK_BYTES as u64 > self.max_memory {
                self.blocks.clear();
                self.marks.clear();
                self.held = 0;
            }
            let values = file.block(b)?;
            self.held += values.len() as u64;
            self.blocks.insert((kind, t, b), values);
        }
        match self.blocks[&(kind, t, b)].get(k as usize - b * BLOCK_BYTES) {
            Some(&byte) => Ok(Some(byte)),
            None => Err(damaged(
                &kind.path(&self.dir, t),
                "it holds fewer positions than its tier",
            )),
        }
    }

    /// The value of the position written as `text` in the game's notation.
    pub fn query(&mut self, text: &str) -> Result<Value> {
        let (t, i) = self.game.parse(text)?;
        self.value(t, i)
    }
}

/// The value of the position written as `text` (the game's notation), from the one tier file
/// that holds it.
pub fn query<G: Tiered>(g: &G, dir: &Path, text: &str) -> Result<Value> {
    Database::open(g, dir, crate::core::budget::default_max_memory()).query(text)
}

/// Connect Four on a `width` × `height` board in tiers: tier k holds the positions with k
/// stones, ranked by the columns' heights (a bounded composition of k) and then by which of
/// the k stones belong to the side to move (a subset of size ⌊k/2⌋, by the combinatorial
/// number system).
#[derive(Debug, Clone)]
pub struct Connect4Tiers {
    game: super::games::connect4::Connect4,
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

/// A position of [`Connect4Tiers`], as bitboards (the layout of [`super::games::connect4`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The stones of the side to move.
    pub current: u64,
    /// Every stone.
    pub mask: u64,
}

impl Connect4Tiers {
    /// The board `width` × `height` (as [`super::games::connect4::Connect4::new`] takes it).
    pub fn new(width: u32, height: u32) -> Result<Connect4Tiers> {
        let game = super::games::connect4::Connect4::new(width, height)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The dense index and its inverse against counting bit by bit.
        #[test]
        fn dense_index_and_select_count_the_reachable_ranks(
            words in proptest::collection::vec(any::<u64>(), 0..40),
            sparse in any::<bool>(),
        ) {
            let words: Vec<AtomicU64> = words
                .iter()
                .enumerate()
                .map(|(k, &w)| AtomicU64::new(if sparse && k % 3 != 0 { 0 } else { w }))
                .collect();
            let n = words.len() as u64 * 64;
            let dense = Dense::new(&words);
            let mut count = 0;
            for i in 0..n {
                let set = words[(i / 64) as usize].load(Ordering::Relaxed) >> (i % 64) & 1 == 1;
                if set {
                    prop_assert_eq!(dense.index(i), Some(count));
                    prop_assert_eq!(dense.select(count, n), i);
                    count += 1;
                } else {
                    prop_assert_eq!(dense.index(i), None);
                }
            }
            prop_assert_eq!(dense.len(), count);
            prop_assert_eq!(dense.select(count, n), n);
        }
    }
}
