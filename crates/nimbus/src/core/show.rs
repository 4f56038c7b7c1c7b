//! Sizes and counts written for people, in messages and progress lines.

/// `bytes` for people: "15.1 GB", "640 kB".
pub fn show_bytes(bytes: u64) -> String {
    if bytes == u64::MAX {
        return "18 EB+".into();
    }
    const UNITS: [&str; 7] = ["bytes", "kB", "MB", "GB", "TB", "PB", "EB"];
    let mut x = bytes as f64;
    let mut unit = 0;
    while x >= 1000.0 && unit + 1 < UNITS.len() {
        x /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{x:.1} {}", UNITS[unit])
    }
}

/// A count for people: saturated counts (the bound overflowed) say so instead of printing
/// `u64::MAX`.
pub fn show_count(n: u64) -> String {
    if n == u64::MAX {
        "1.8·10^19+".into()
    } else {
        n.to_string()
    }
}
