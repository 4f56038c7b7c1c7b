//! Reading text the way users' files come: UTF-8 with or without a byte-order mark, or
//! Latin-1 as older tools (Gambit's among them) wrote it.
//!
//! ```
//! use nimbus::input::decode;
//! assert_eq!(decode(b"\xEF\xBB\xBFnim 3".to_vec()), "nim 3");
//! assert_eq!(decode(b"Jos\xE9".to_vec()), "José");
//! ```

use crate::error::{Error, Result};

/// The text of `bytes`: UTF-8 (a leading byte-order mark dropped), or, when the bytes are not
/// UTF-8, Latin-1, in which every byte is a character.
pub fn decode(bytes: Vec<u8>) -> String {
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

/// The text of the file at `path` (see [`decode`]); `path` names it in errors. Devices are
/// refused: `/dev/zero` would be read for ever (pipes, as from `<(…)`, are read to their end).
pub fn read_text(path: &str) -> Result<String> {
    let io = |source| Error::Io {
        path: path.to_string(),
        source,
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = std::fs::metadata(path).map_err(io)?.file_type();
        if kind.is_char_device() || kind.is_block_device() {
            return Err(Error::Invalid(format!(
                "{path} is a device, not a file to read"
            )));
        }
    }
    std::fs::read(path).map(decode).map_err(io)
}
