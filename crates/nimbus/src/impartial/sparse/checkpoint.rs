//! The checkpoint of a long run: the values reached, written every minute and at a stop,
//! read back verified to go on from.

use super::*;

/// `values` as little-endian bytes, a chunk at a time; the width of one.
pub(super) fn write_le<V: Nimber>(
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
pub(super) const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// A nim-sequence's values on disk: a line naming the format, a line of JSON saying the
/// game's moves, how many values and their width, and the CRC-32 of the values, then the
/// values as little-endian integers of that width.
pub(super) struct Checkpoint;

/// The first line of a checkpoint file.
pub(super) const MAGIC: &str = "nimbus nim-sequence checkpoint 1";

#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Header {
    pub(super) moves: String,
    pub(super) values: u64,
    pub(super) width: usize,
    pub(super) crc32: u32,
}

/// The moves, as a checkpoint names them: a checkpoint of another game is refused.
pub(super) fn moves_key(takes: &Takes) -> String {
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
    pub(super) fn load(
        path: &std::path::Path,
        takes: &Takes,
        what: &str,
        max_memory: u64,
    ) -> Result<Option<Vec<u32>>> {
        // Before reading: at 2 or more bytes a value the file holds at most len/2 values, and
        // loading them costs the file, the values as u32 and the run's 24 bytes a value.
        crate::core::input::may_read(&path.display().to_string())?;
        if let Ok(meta) = std::fs::metadata(path) {
            // A FIFO or a device in its place would block the read or never end.
            if !meta.is_file() {
                return Err(Error::Invalid(format!(
                    "{}: not a regular file",
                    path.display()
                )));
            }
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
    pub(super) fn save(path: &std::path::Path, takes: &Takes, t: &Table) -> Result<()> {
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
