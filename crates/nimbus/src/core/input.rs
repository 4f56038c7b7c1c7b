//! Reading text the way users' files come: UTF-8 with or without a byte-order mark, or
//! Latin-1 as older tools (Gambit's among them) wrote it.
//!
//! ```
//! use nimbus::core::input::decode;
//! assert_eq!(decode(b"\xEF\xBB\xBFnim 3".to_vec()), "nim 3");
//! assert_eq!(decode(b"Jos\xE9".to_vec()), "José");
//! ```

use crate::core::error::{Error, Result};
use std::cell::Cell;

thread_local! {
    static NO_FILES: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` on this thread with every file read or write refused (a game expression naming a
/// graph file or a script, a saved solution): what a server runs a request under, so that a
/// request cannot read the server's files.
///
/// ```
/// use nimbus::core::input::{read_text, without_files};
/// let e = without_files(|| read_text("Cargo.toml")).unwrap_err();
/// assert!(e.to_string().contains("reads no files"));
/// ```
pub fn without_files<T>(work: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            NO_FILES.with(|f| f.set(self.0));
        }
    }
    let _restore = Restore(NO_FILES.with(|f| f.replace(true)));
    work()
}

/// [`Error::Invalid`] naming `path` when this thread runs [`without_files`]: every read and
/// write of a file the library makes asks this first.
pub fn may_read(path: &str) -> Result<()> {
    if NO_FILES.with(Cell::get) {
        return Err(Error::Invalid(format!(
            "{path}: this server reads no files (games that name a file or a script are \
             answered by the `nimbus` command)"
        )));
    }
    Ok(())
}

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
    may_read(path)?;
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
