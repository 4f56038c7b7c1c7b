//! The values of every single-region Domineering position of up to `MAX_CELLS` cells (every
//! fixed polyomino, 10 by default), as Uiterwijk and Barton's endgame databases hold them to
//! 15 cells ("New results for Domineering from combinatorial game theory endgame databases",
//! Theoretical Computer Science 2015): size by size, each value computed by the partizan
//! engine with the smaller regions' values remembered, and what the paper looks at — distinct
//! values, the largest temperature and how many positions reach 2, the largest nimber and the
//! most ups (or downs) among the values. Run by `bench/domineering_regions.sh`; not a criterion bench
//! (one pass, timed).

use nimbus::api::Limits;
use nimbus::partizan::dyadic::Dyadic;
use nimbus::partizan::engine::{value_with, Memo};
use nimbus::partizan::form::{Forms, Id};
use nimbus::partizan::games::domineering::{Board, Domineering};
use nimbus::partizan::polyominoes::fixed;
use nimbus::partizan::show::show;
use nimbus::partizan::thermograph::Thermographs;
use nimbus::partizan::Ruleset;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// The process's peak resident memory in MiB (Linux), or 0.
fn peak_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|k| k.parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}

/// The multitude of ups (negative: downs) when `text` is a number, then ups, then perhaps a
/// star (`^^`, `1/2v3*`), else `None`.
fn ups(text: &str) -> Option<i64> {
    let rest = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == '/' || c == '-');
    let rest = rest.strip_suffix('*').unwrap_or(rest);
    let (sign, body) = if let Some(b) = rest.strip_prefix('^') {
        (1, b)
    } else if let Some(b) = rest.strip_prefix('v') {
        (-1, b)
    } else {
        return None;
    };
    match body {
        "" => Some(sign),
        "^" | "v" => Some(2 * sign),
        digits => digits.parse::<i64>().ok().map(|k| k * sign),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let max: usize = std::env::var("MAX_CELLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    // A database of this size is the point: the budgets are raised to the machine's.
    let limits = Limits {
        max_work: u64::MAX,
        max_states: u64::MAX,
        ..Limits::default()
    };
    let mut forms = Forms::new(limits);
    let mut memo: Memo<Board> = Memo::default();
    let mut thermographs = Thermographs::default();
    let mut all: HashSet<Id> = HashSet::new();
    let two = Dyadic::new(2, 0)?;
    let start = Instant::now();
    let mut examples: Vec<String> = Vec::new();
    println!(
        "| cells | regions | distinct values | new values | values so far | largest temperature | \
         regions at temperature 2 | largest nimber | most ups or downs | seconds | forms | peak MiB |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for n in 1..=max {
        let t = Instant::now();
        let mut count: HashMap<Id, u64> = HashMap::new();
        // The first region met with each value, to show.
        let mut first: HashMap<Id, Board> = HashMap::new();
        let mut failure = None;
        let mut regions = 0u64;
        fixed(n, |shape, free| {
            if failure.is_some() {
                return;
            }
            regions += 1;
            match value_with(&Domineering, &Board { shape, free }, &mut forms, &mut memo) {
                Ok(v) => {
                    *count.entry(v).or_insert(0) += 1;
                    first.entry(v).or_insert(Board { shape, free });
                }
                Err(e) => failure = Some(e),
            }
        })?;
        if let Some(e) = failure {
            return Err(e.into());
        }
        let seconds = t.elapsed().as_secs_f64();
        let new = count.keys().filter(|v| !all.contains(v)).count();
        all.extend(count.keys().copied());
        let (mut hottest, mut at_two, mut nimber, mut most_ups) =
            (None::<Dyadic>, 0u64, 0u64, 0i64);
        let mut values: Vec<Id> = count.keys().copied().collect();
        values.sort_unstable();
        for &v in &values {
            let k = count[&v];
            let temperature = thermographs.of(&mut forms, v)?.temperature;
            if hottest.is_none_or(|h| temperature > h) {
                hottest = Some(temperature);
            }
            if temperature == two {
                at_two += k;
            }
            let text = show(&mut forms, v)?;
            if let Some(m) = text.strip_prefix('*') {
                nimber = nimber.max(if m.is_empty() {
                    1
                } else {
                    m.parse().unwrap_or(0)
                });
            }
            if let Some(u) = ups(&text) {
                most_ups = most_ups.max(u.abs());
            }
            // The rare ones, with a region that has them.
            let nimber_k = text.strip_prefix('*').and_then(|m| m.parse::<u64>().ok());
            if temperature >= two
                || nimber_k.is_some_and(|k| k >= 2)
                || ups(&text).is_some_and(|u| u.abs() >= 3)
            {
                examples.push(format!(
                    "{n} cells, {k} regions: {text} (temperature {temperature}), e.g. {}",
                    Domineering.show(&first[&v]).replace('\n', "|")
                ));
            }
        }
        let hottest = hottest.map_or("-".to_string(), |h| h.to_string());
        println!(
            "| {n} | {regions} | {} | {new} | {} | {hottest} | {at_two} | {} | {} | {seconds:.2} | {} | {} |",
            count.len(),
            all.len(),
            if nimber == 0 { "-".into() } else { format!("*{nimber}") },
            if most_ups == 0 { "-".into() } else { most_ups.to_string() },
            forms.len(),
            peak_mib(),
        );
    }
    println!(
        "\n{max} cells in {:.1} s in all",
        start.elapsed().as_secs_f64()
    );
    println!("\nValues of temperature 2, nimbers from *2, three ups or more:");
    for e in &examples {
        println!("- {e}");
    }
    Ok(())
}
