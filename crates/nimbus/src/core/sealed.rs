//! Files Nimbus writes and reads back whole (saved solutions, CFR checkpoints): their bytes,
//! then a trailer that covers every byte before it, so that a damaged, truncated or lengthened
//! file is refused instead of answering wrongly.
//!
//! The trailer is 16 bytes: the CRC-32 of the body and of the length that follows, the body's
//! length (8 bytes, little-endian) and `SEAL`. CRC-32 finds every burst of damage up to 32 bits
//! and all but one in 2^32 of the others: the files guard against disks and editors, not
//! against someone forging one. The body carries its own format name and version; a file of
//! another version fails here or on its version, never with wrong numbers.
//!
//! ```
//! use nimbus::core::sealed::{seal, unseal};
//!
//! let mut file = b"NIMBUSDB body".to_vec();
//! seal(&mut file);
//! assert_eq!(unseal(&file, "saved.db").unwrap(), b"NIMBUSDB body");
//! file[3] ^= 1;
//! assert!(unseal(&file, "saved.db").is_err());
//! ```

use super::error::{Error, Result};
use std::path::Path;

const TAG: &[u8; 4] = b"SEAL";
/// Bytes the trailer adds.
pub const TRAILER: usize = 16;

fn checksum(body: &[u8], len: [u8; 8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(body);
    h.update(&len);
    h.finalize()
}

/// Appends the trailer to the whole file's bytes.
pub fn seal(bytes: &mut Vec<u8>) {
    let len = (bytes.len() as u64).to_le_bytes();
    let crc = checksum(bytes, len);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes.extend_from_slice(&len);
    bytes.extend_from_slice(TAG);
}

/// The body of a sealed file's bytes, or an error naming `path` when any byte is not what was
/// written.
pub fn unseal<'a>(bytes: &'a [u8], path: &str) -> Result<&'a [u8]> {
    let damaged = |why: &str| {
        Error::Invalid(format!(
            "{path}: {why}: the file is damaged or was written by another version of Nimbus \
             (delete it and make it again)"
        ))
    };
    let Some(at) = bytes.len().checked_sub(TRAILER) else {
        return Err(damaged("too short for its checksum"));
    };
    let (body, trailer) = bytes.split_at(at);
    if &trailer[12..] != TAG {
        return Err(damaged("it does not end with its checksum"));
    }
    let len: [u8; 8] = trailer[4..12].try_into().expect("8 bytes");
    if u64::from_le_bytes(len) != body.len() as u64 {
        return Err(damaged("its length is not the length written"));
    }
    let crc = u32::from_le_bytes(trailer[..4].try_into().expect("4 bytes"));
    if checksum(body, len) != crc {
        return Err(damaged("its checksum does not match its bytes"));
    }
    Ok(body)
}

/// Writes a sealed file beside `path` and renames it into place, so that a stop mid-write
/// leaves the previous file (or none), never a partial one.
pub fn write(path: &Path, mut bytes: Vec<u8>) -> Result<()> {
    seal(&mut bytes);
    let io = |p: &Path| {
        let p = p.display().to_string();
        move |source| Error::Io {
            path: p.clone(),
            source,
        }
    };
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = std::path::PathBuf::from(part);
    {
        use std::io::Write;
        let mut file = std::fs::File::create(&part).map_err(io(&part))?;
        file.write_all(&bytes).map_err(io(&part))?;
        file.sync_all().map_err(io(&part))?;
    }
    std::fs::rename(&part, path).map_err(io(path))
}

/// The body of the sealed file at `path`, `None` when there is none; refused past
/// `max_memory` bytes before it is read, and when it does not verify.
pub fn read(path: &Path, max_memory: u64) -> Result<Option<Vec<u8>>> {
    let name = path.display().to_string();
    let io = |source| Error::Io {
        path: name.clone(),
        source,
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(Error::Invalid(format!("{name}: not a regular file")));
    }
    super::budget::check_memory(&name, meta.len(), max_memory)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    use std::io::Read;
    // A file that grows while it is read is read only as far as its length said.
    file.take(meta.len()).read_to_end(&mut bytes).map_err(io)?;
    let body = unseal(&bytes, &name)?.len();
    bytes.truncate(body);
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every change of one byte, every truncation and every added byte is refused.
        #[test]
        fn any_damage_is_refused(body in proptest::collection::vec(any::<u8>(), 0..200),
                                 at in any::<prop::sample::Index>(), flip in 1u8..=255,
                                 cut in any::<prop::sample::Index>()) {
            let mut file = body.clone();
            seal(&mut file);
            prop_assert_eq!(unseal(&file, "f").unwrap(), &body[..]);
            let mut changed = file.clone();
            changed[at.index(file.len())] ^= flip;
            prop_assert!(unseal(&changed, "f").is_err());
            let short = &file[..cut.index(file.len())];
            prop_assert!(unseal(short, "f").is_err());
            let mut long = file.clone();
            long.push(0);
            prop_assert!(unseal(&long, "f").is_err());
        }
    }
}
