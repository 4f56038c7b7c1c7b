//! `nimbus quotient`: the misère quotient of a heap game.

use crate::{print_json, Common};
use nimbus::api::quotient;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus quotient 'octal 0.75' --upto 30
      8 elements: <a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b>, P-portion a, b^2
  nimbus quotient kayles --upto 20 --position '5 7 9 9 12'
      answers a position of many heaps by multiplying its heaps' elements
  nimbus quotient nim --upto 7 --json

The quotient is learnt from exact misère outcomes and then proved on every position of the
heaps up to N by a finite check, so what is printed is the quotient itself.

Rulesets: nim, subtract{SET}, allbut{SET}, kayles, dawson, dawson-chess, grundy-game,
octal CODE, hex CODE.";

/// The misère quotient of a heap game: elements, presentation, P-portion, pretending function
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The ruleset, such as kayles, "octal 0.75" or subtract{1,3,4}.
    #[arg(value_name = "RULESET", required = true)]
    ruleset: Vec<String>,
    /// The largest heap: the quotient of every position made of heaps 1..N.
    #[arg(long, value_name = "N", default_value_t = 20)]
    upto: u64,
    /// A position to answer with the quotient: heap sizes separated by spaces (repeat the
    /// option for more positions).
    #[arg(long, value_name = "HEAPS")]
    position: Vec<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

fn heaps(text: &str) -> Result<Vec<u64>, nimbus::api::Error> {
    text.split_whitespace()
        .map(|w| {
            w.parse::<u64>().map_err(|_| {
                nimbus::api::Error::Invalid(format!(
                    "--position: '{w}' is not a heap size (a whole number from 0)"
                ))
            })
        })
        .collect()
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, nimbus::api::Error> {
    let req = quotient::Request {
        upto: args.upto,
        positions: args
            .position
            .iter()
            .map(|p| heaps(p))
            .collect::<Result<_, _>>()?,
        limits: args.common.limits(),
    };
    let answer = quotient::solve(&args.ruleset.join(" "), &req)?;
    if args.common.json {
        print_json(out, &answer)?;
        return Ok(ExitCode::SUCCESS);
    }
    let gens: Vec<&str> = answer.generators.iter().map(|g| g.name.as_str()).collect();
    let rels: Vec<String> = answer
        .relations
        .iter()
        .map(|r| format!("{} = {}", r.word, r.equals))
        .collect();
    outln!(
        out,
        "misère quotient of {}, heaps 1..{}: {} elements",
        answer.game,
        answer.upto,
        answer.order
    );
    outln!(
        out,
        "presentation: <{} | {}>",
        gens.join(", "),
        rels.join(", ")
    );
    outln!(out, "elements: {}", answer.elements.join(" "));
    outln!(out, "P-portion: {}", answer.p_portion.join(" "));
    let pretending: Vec<String> = answer
        .pretending
        .iter()
        .enumerate()
        .skip(1)
        .map(|(h, e)| format!("{h}:{e}"))
        .collect();
    outln!(out, "pretending function: {}", pretending.join(" "));
    let heap_of: Vec<String> = answer
        .generators
        .iter()
        .map(|g| format!("{} = heap {}", g.name, g.heap))
        .collect();
    outln!(out, "generators: {}", heap_of.join(", "));
    outln!(
        out,
        "the same quotient from heap {} to {} (orders by heap: {})",
        answer.stable_from,
        answer.upto,
        growth(&answer.growth)
    );
    outln!(
        out,
        "proved on every position of these heaps ({} positions of sums searched to learn it)",
        answer.searched
    );
    match answer.forever {
        Some(f) => outln!(
            out,
            "proved for every heap: from heap {} on, heap n has the element of heap n - {} \
             (the pretending function is periodic for ever, and this is the quotient of all heaps)",
            f.preperiod + f.period,
            f.period
        ),
        None => outln!(
            out,
            "not proved for every heap: no period of the pretending function reaches its \
             Guy-Smith horizon by heap {}",
            answer.upto
        ),
    }
    for p in &answer.positions {
        let heaps: Vec<String> = p.heaps.iter().map(u64::to_string).collect();
        let moves: Vec<String> = p
            .winning_moves
            .iter()
            .map(|m| {
                let m: Vec<String> = m.iter().map(u64::to_string).collect();
                if m.is_empty() {
                    "(nothing)".to_string()
                } else {
                    m.join(" ")
                }
            })
            .collect();
        outln!(
            out,
            "position {}: element {}, {}{}",
            heaps.join(" "),
            p.element,
            p.outcome,
            if moves.is_empty() {
                String::new()
            } else {
                format!("; winning moves leave {}", moves.join(", "))
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Orders written once per run of equal values: `2 6 (x3) 8 (x26)`.
fn growth(orders: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < orders.len() {
        let mut j = i;
        while j < orders.len() && orders[j] == orders[i] {
            j += 1;
        }
        parts.push(if j - i > 1 {
            format!("{} (x{})", orders[i], j - i)
        } else {
            orders[i].to_string()
        });
        i = j;
    }
    parts.join(" ")
}
