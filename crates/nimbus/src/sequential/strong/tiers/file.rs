//! The tier files: `tier-K.reach`, `tier-K.bin` and `tier-K.rem`, each a line naming the
//! format and its version with the CRC-32 of the next line, a JSON header, and blocks
//! compressed on their own, each with its CRC-32 in the header: every byte of the file is
//! covered by a checksum, and its length by the header's block sizes. Written and read back
//! verified.

use crate::core::error::{Error, Result};
use crate::sequential::strong::tiers::dense::packed_len;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The format's name and version; the first line adds the header line's CRC-32 after it.
pub(super) const MAGIC: &str = "NIMBUS-TIER 3";

/// Ranks a job of the reachability pass covers.
pub(super) const REACH_BLOCK: u64 = 1 << 16;
/// Ranks a job of the value pass covers.
pub(super) const VALUE_BLOCK: u64 = 1 << 14;

#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub(super) struct Header {
    pub(super) game: String,
    pub(super) tier: usize,
    /// Ranks in the tier.
    pub(super) positions: u64,
    /// Positions of the tier reachable from the start.
    pub(super) reachable: u64,
    /// Bytes in each block (the last may hold fewer).
    pub(super) block_bytes: usize,
    /// Each block's compressed size, in order.
    pub(super) sizes: Vec<u64>,
    /// Each block's CRC-32 (of its bytes uncompressed).
    pub(super) crc32: Vec<u32>,
    /// In a reachability file: the reachable ranks before each block.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) before: Vec<u64>,
}

/// Bytes a block holds: a query decompresses one block of each file it reads, not the tier.
pub(super) const BLOCK_BYTES: usize = 1 << 20;

/// The files of a tier: which of its ranks are reachable (a bit a rank), their values (two
/// bits a reachable position, in the order of rank) and, when asked for, their remoteness (a
/// byte a reachable position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Kind {
    Reach,
    Values,
    Remoteness,
}

impl Kind {
    pub(super) fn path(self, dir: &Path, t: usize) -> PathBuf {
        match self {
            Kind::Reach => dir.join(format!("tier-{t}.reach")),
            Kind::Values => dir.join(format!("tier-{t}.bin")),
            Kind::Remoteness => dir.join(format!("tier-{t}.rem")),
        }
    }

    /// Bytes the file of a tier of `n` ranks, `m` of them reachable, holds.
    pub(super) fn len(self, n: u64, m: u64) -> usize {
        match self {
            Kind::Reach => n.div_ceil(8) as usize,
            Kind::Values => packed_len(m),
            Kind::Remoteness => m as usize,
        }
    }
}

pub(super) fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.display().to_string(),
        source,
    }
}

/// A block of bytes compressed on its own, with the CRC-32 of the bytes.
pub(super) fn compress_block(block: &[u8]) -> std::io::Result<(Vec<u8>, u32)> {
    let mut z = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(block)?;
    Ok((z.finish()?, crc32fast::hash(block)))
}

/// What a tier file says of its tier.
pub(super) struct Tier<'a> {
    pub(super) game: &'a str,
    pub(super) t: usize,
    pub(super) n: u64,
    pub(super) m: u64,
}

/// Writes a tier file from its bytes, compressed block by block (in parallel), beside the file
/// and renamed, so that a stop mid-write leaves no file that looks whole.
pub(super) fn write_tier(dir: &Path, tier: &Tier, kind: Kind, bytes: &[u8]) -> Result<()> {
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
pub(super) fn write_blocks(
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
    let mut line = serde_json::to_vec(&header).map_err(|e| Error::Invalid(e.to_string()))?;
    line.push(b'\n');
    let file = std::fs::File::create(&part).map_err(io_error(&part))?;
    let mut out = std::io::BufWriter::new(file);
    writeln!(out, "{MAGIC} {:08x}", crc32fast::hash(&line)).map_err(io_error(&part))?;
    out.write_all(&line).map_err(io_error(&part))?;
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
pub(super) fn reach_bytes(words: &[AtomicU64], n: u64) -> Vec<u8> {
    let mut bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
        .collect();
    bytes.truncate(n.div_ceil(8) as usize);
    bytes
}

/// An open tier file: its header checked, positioned at its first block.
pub(super) struct TierFile {
    pub(super) path: PathBuf,
    pub(super) reader: std::io::BufReader<std::fs::File>,
    pub(super) header: Header,
    /// Where the first block starts.
    pub(super) data: u64,
    /// Bytes in all.
    pub(super) len: usize,
}

impl TierFile {
    /// The file of tier `t`, or `None` when there is none; an error when its header is
    /// damaged or names another game or tier.
    pub(super) fn open(
        dir: &Path,
        game: &str,
        t: usize,
        n: u64,
        kind: Kind,
    ) -> Result<Option<TierFile>> {
        let path = kind.path(dir, t);
        crate::core::input::may_read(&path.display().to_string())?;
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error(&path)(e)),
        };
        let meta = file.metadata().map_err(io_error(&path))?;
        if !meta.is_file() {
            return Err(damaged(&path, "not a regular file"));
        }
        let mut reader = std::io::BufReader::new(file);
        // The first line is the magic and a checksum: a few dozen bytes, read no further.
        let mut first = Vec::new();
        std::io::BufRead::read_until(&mut Read::take(&mut reader, 64), b'\n', &mut first)
            .map_err(io_error(&path))?;
        let first = String::from_utf8_lossy(&first);
        let Some((magic, crc)) = first.trim_end().rsplit_once(' ') else {
            return Err(damaged(&path, "not a Nimbus tier file of this version"));
        };
        if magic != MAGIC || !first.ends_with('\n') {
            return Err(damaged(&path, "not a Nimbus tier file of this version"));
        }
        let crc = u32::from_str_radix(crc, 16).map_err(|_| damaged(&path, "a damaged header"))?;
        // The header is one line of JSON, a few dozen bytes a block.
        let most = kind.len(n, n).div_ceil(BLOCK_BYTES) as u64 * 64 + 4096;
        let mut line = Vec::new();
        std::io::BufRead::read_until(&mut Read::take(&mut reader, most), b'\n', &mut line)
            .map_err(io_error(&path))?;
        if crc32fast::hash(&line) != crc {
            return Err(damaged(&path, "its header does not match its checksum"));
        }
        let data = (first.len() + line.len()) as u64;
        let header: Header =
            serde_json::from_slice(&line).map_err(|_| damaged(&path, "a damaged header"))?;
        if header.game != game || header.tier != t || header.positions != n {
            return Err(damaged(
                &path,
                &format!(
                    "it holds tier {} of {} ({} positions), not tier {t} of {game} ({n} \
                     positions); use another directory for {game}",
                    header.tier, header.game, header.positions
                ),
            ));
        }
        if header.reachable > n {
            return Err(damaged(&path, "a damaged header"));
        }
        let len = kind.len(n, header.reachable);
        let blocks = len.div_ceil(BLOCK_BYTES);
        let packed = header
            .sizes
            .iter()
            .try_fold(data, |sum, &size| sum.checked_add(size));
        if header.block_bytes != BLOCK_BYTES
            || header.sizes.len() != blocks
            || header.crc32.len() != blocks
            || packed != Some(meta.len())
            || (kind == Kind::Reach
                && (header.before.len() != blocks || !counts_fit(&header.before, header.reachable)))
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
    pub(super) fn block(&mut self, b: usize) -> Result<Vec<u8>> {
        let offset = self.data + self.header.sizes[..b].iter().sum::<u64>();
        std::io::Seek::seek(&mut self.reader, std::io::SeekFrom::Start(offset))
            .map_err(io_error(&self.path))?;
        let want = (self.len - b * BLOCK_BYTES).min(BLOCK_BYTES);
        let packed = (&mut self.reader).take(self.header.sizes[b]);
        inflate(packed, want, self.header.crc32[b])
            .ok_or_else(|| damaged(&self.path, "its values do not match their checksum"))
    }
}

/// Whether the reachable ranks before each block of a reachability file can be right: from 0,
/// never falling, at most a block's bits apart, at most the tier's reachable positions.
fn counts_fit(before: &[u64], reachable: u64) -> bool {
    before.first().is_none_or(|&b| b == 0)
        && before
            .windows(2)
            .all(|w| w[0] <= w[1] && w[1] - w[0] <= 8 * BLOCK_BYTES as u64)
        && before.last().is_none_or(|&b| b <= reachable)
}

/// A block decompressed, when it inflates to `want` bytes whose CRC-32 is `crc`.
pub(super) fn inflate(packed: impl Read, want: usize, crc: u32) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(want);
    flate2::read::DeflateDecoder::new(packed)
        .take(want as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() == want && crc32fast::hash(&bytes) == crc).then_some(bytes)
}

/// The set bits of `bytes` before each chunk of `chunk` bytes.
pub(super) fn ones_before(bytes: &[u8], chunk: usize) -> Vec<u64> {
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

/// What a tier file read on a resumed run comes to: a damaged file (or one of another game) is
/// as good as none, and its tier is solved again; other errors (a budget, a disk that cannot
/// be read) stop the run.
pub(super) fn or_solve_again<T>(read: Result<Option<T>>) -> Result<Option<T>> {
    match read {
        // Another game's database is not overwritten: the user may want it.
        Err(Error::Invalid(m)) if !m.contains(ANOTHER_GAME) => Ok(None),
        other => other,
    }
}

/// How the error of a file of another game or tier begins, after the path.
const ANOTHER_GAME: &str = ": it holds tier ";

pub(super) fn damaged(path: &Path, why: &str) -> Error {
    Error::Invalid(format!(
        "{}: {why} (delete it to solve the tier again)",
        path.display()
    ))
}

/// A tier file's bytes and the reachable positions its header counts, or `None` when there is
/// no file; an error when the file is damaged or belongs to another game.
pub(super) fn read_tier(
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
pub(super) type Solved = (Vec<u8>, Vec<u8>, u64);

pub(super) fn read_solved(
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
