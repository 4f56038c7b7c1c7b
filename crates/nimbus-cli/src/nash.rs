//! `nimbus nash`: Nash equilibria of strategic-form games, exact.

use crate::game_input::GameInput;
use crate::{print_json, Common};
use nimbus::api::game::NormalForm;
use nimbus::api::Error;
use nimbus::api::{nash, tree};
use nimbus::api::{show_decimal, Shown, Q};
use num_traits::{One, Zero};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus nash --row \"3 0; 5 1\" --col \"3 5; 0 1\"   the prisoner's dilemma: (2, 2) only
  nimbus nash game.nfg                       every extreme equilibrium, and the components
  nimbus nash game.nfg --method support      support enumeration
  nimbus nash game.nfg --method lh           Lemke-Howson enumeration, as lcp (--label K: one path)
  nimbus nash game.nfg --method pure         pure equilibria (any number of players)
  nimbus nash game.nfg --dominance           remove strictly dominated strategies first
  nimbus nash --row \"2 0; 0 1\" --col \"1 0; 0 2\" --plot br.svg
      a 2 x 2 game: the indifference conditions, best-reply plot in br.svg
  nimbus nash game.nfg --format gambit       NE,... lines, as Gambit prints them
  nimbus nash 3p.nfg                         three or more players: every equilibrium
                                             (irrational ones as proved boxes)
  nimbus nash 3p.nfg --method logit --plot path.svg
                                             one equilibrium, at the end of the logit path
  nimbus nash 3p.nfg --method simpdiv        one equilibrium by simplicial subdivision
  nimbus nash 3p.nfg --method gnm            one equilibrium by the global Newton method
  nimbus nash game.nfg --select tracing:1/2,1/2,1/3,2/3
                                             the equilibrium the tracing procedure selects
                                             from that prior (every player's in turn)
  nimbus nash game.nfg --select risk-dominance
                                             the pure equilibrium that risk-dominates every
                                             other (two players; Harsanyi and Selten)
  nimbus nash kuhn                           a game tree (an .efg file, or kuhn): behaviour
                                             strategies at every information set
  nimbus nash game.efg --method vertex       every extreme equilibrium of a two-player tree

Methods: auto (the default) is indifference for 2 x 2 games, vertex enumeration for other
two-player games and enumpoly for more players. On a tree it is backward induction (spe) for
perfect information, the sequence-form LP (lp) for two-player zero-sum trees, vertex
enumeration of the sequence form (enum) for other two-player trees and enumpoly on the reduced
normal form for more players. Every equilibrium printed has been checked exactly: no player gains by deviating.";

/// Find the Nash equilibria of a game, exactly.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game: a .nfg or .efg file ("-" for standard input), or a built-in tree (kuhn).
    #[arg(value_name = "GAME", required_unless_present = "row", conflicts_with_all = ["row", "col"])]
    game: Option<String>,
    #[command(flatten)]
    input: GameInput,
    /// The algorithm; Gambit's names are accepted too (enummixed, lcp, enumpure).
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
    /// For --method lh: the one label to start from (1-based: rows, then columns).
    #[arg(long, value_name = "K")]
    label: Option<usize>,
    /// For --method lcp on a tree: run Lemke's algorithm with N covering vectors (the first
    /// all ones, the others random) and list the distinct equilibria they end at.
    #[arg(long, value_name = "N")]
    covering: Option<usize>,
    /// Remove strictly dominated strategies (by pure strategies and by mixtures) first.
    #[arg(long)]
    dominance: bool,
    /// With --dominance: weakly dominated strategies too (some equilibria may be lost).
    #[arg(long, requires = "dominance")]
    weak: bool,
    /// For 2 x 2 games: draw both best-reply correspondences into this SVG file; when one
    /// of two players has two strategies, the upper envelope; with --method logit, the path.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    /// Mark each equilibrium listed that is of a stricter kind, separated by commas: perfect
    /// (trembling-hand, two players; on a tree, normal-form perfect), proper (Myerson, two
    /// players, where the game's ties leave few orderings), ess (evolutionarily stable,
    /// symmetric games), sequential (two-player trees: consistent beliefs under which every
    /// move is a best reply, shown when they exist).
    #[arg(long, value_name = "LIST")]
    refine: Option<String>,
    /// Select one equilibrium: tracing (Harsanyi and Selten's linear tracing procedure from
    /// the uniform prior), tracing:PRIOR, the prior's probabilities every player's in turn
    /// (tracing:1/2,1/2,1/3,2/3), or risk-dominance (two players: the pure equilibrium that
    /// risk-dominates every other).
    #[arg(long, value_name = "tracing[:PRIOR]|risk-dominance")]
    select: Option<String>,
    /// With --method logit: print the path followed, one point a line: lambda, then every
    /// strategy's probability (as gambit-logit prints it); in --json, `logit_path`.
    #[arg(long)]
    path: bool,
    /// How to print the equilibria.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print probabilities and payoffs as decimals with this many digits (Gambit's -d);
    /// exact fractions otherwise. --json is always exact. For enumpoly, irrational
    /// equilibria are boxed to at least this many digits.
    #[arg(long, value_name = "N", value_parser = crate::decimals)]
    decimals: Option<usize>,
    /// For enumpoly: examine at most this many support profiles (what was covered is
    /// reported).
    #[arg(long, value_name = "N")]
    max_supports: Option<u64>,
    /// For enumpoly: stop after this many seconds (what was covered is reported).
    #[arg(long, value_name = "SECONDS", value_parser = crate::seconds, allow_negative_numbers = true)]
    time_limit: Option<f64>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The algorithms of `nash`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Indifference for 2 x 2 games, vertex enumeration for two players, enumpoly for more.
    Auto,
    /// Vertex enumeration: every extreme equilibrium and the components.
    #[value(alias = "enummixed")]
    Vertex,
    /// Trees: every extreme equilibrium by vertex enumeration of the sequence-form polyhedra
    /// (strategic-form games: the same as vertex).
    #[value(alias = "seqenum")]
    Enum,
    /// Support enumeration.
    Support,
    /// Lemke-Howson enumeration, as Gambit's lcp (or one path: --label K).
    #[value(alias = "lemke-howson")]
    Lh,
    /// Trees: one equilibrium by Lemke's algorithm on the sequence form (strategic-form
    /// games: the same as lh, Gambit's lcp).
    #[value(alias = "lemke")]
    Lcp,
    /// Pure equilibria, any number of players.
    #[value(alias = "enumpure")]
    Pure,
    /// Trees: pure equilibria of the agent form (each information set its own player).
    #[value(alias = "enumpure-agent")]
    Agent,
    /// The indifference conditions of a 2 x 2 game.
    Indifference,
    /// Every equilibrium of a game of any number of players: support enumeration with
    /// certified solutions (irrational ones as proved boxes).
    #[value(alias = "polynomial")]
    Enumpoly,
    /// One equilibrium, any number of players: the end of the logit quantal-response path,
    /// solved exactly on its support (--plot FILE.svg draws the path).
    Logit,
    /// One equilibrium, any number of players: simplicial subdivision on ever finer grids,
    /// its end solved exactly on its support.
    Simpdiv,
    /// One equilibrium, any number of players: Govindan and Wilson's global Newton method,
    /// its end solved exactly on its support.
    #[value(alias = "global-newton")]
    Gnm,
    /// The equilibrium Harsanyi and Selten's linear tracing procedure selects from the
    /// uniform prior (--select tracing:PRIOR for another), exactly.
    #[value(alias = "linear-tracing")]
    Tracing,
    /// Trees: the sequence-form linear program (two-player zero-sum).
    Lp,
    /// Trees (two players): a quasi-perfect equilibrium, sequentially rational at every
    /// information set (Miltersen and Sorensen's perturbed sequence form).
    #[value(alias = "qpe")]
    QuasiPerfect,
    /// Trees of perfect information: backward induction (subgame-perfect equilibria).
    #[value(alias = "backward")]
    Spe,
    /// Trees: an approximate equilibrium by 1000 iterations of CFR+, its exploitability
    /// computed exactly (nimbus cfr runs it with every option).
    Cfr,
}

/// The output formats of `nash`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Readable text.
    Text,
    /// Gambit's NE,... lines.
    Gambit,
}

/// Writes a mixed strategy into `out` as its strategy's name when pure, else as the list of
/// the strategies it uses with their probabilities (`(A: 1/2, B: 1/2)`).
fn describe(out: &mut String, p: &[Q], names: &[String], decimals: Option<usize>) {
    if let Some(i) = p.iter().position(One::is_one) {
        out.push_str(&names[i]);
        return;
    }
    out.push('(');
    let used = p.iter().zip(names).filter(|(x, _)| !x.is_zero());
    for (k, (x, n)) in used.enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        out.push_str(n);
        out.push_str(": ");
        put_number(out, x, decimals);
    }
    out.push(')');
}

/// Writes a number exactly, or with `decimals` digits, into `out` without a string of its
/// own: the equilibria of a large enumeration are thousands of numbers.
fn put_number(out: &mut String, q: &Q, decimals: Option<usize>) {
    use std::fmt::Write as _;
    match decimals {
        Some(d) => out.push_str(&show_decimal(q, d)),
        None => {
            let _ = write!(out, "{}", Shown(q));
        }
    }
}

impl Method {
    /// The method's name, which the API reads: the flag's words mean what the API's do.
    fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .map_or_else(|| "auto".to_string(), |v| v.get_name().to_string())
    }
}

/// An error of the method or selection asked for, said to be the selection's when there is
/// one.
fn select_error(args: &Args, e: Error) -> Error {
    match args.select {
        Some(_) => Error::Invalid(format!("--select: {}", crate::words::message(&e))),
        None => e,
    }
}

fn number_format(decimals: Option<usize>) -> impl Fn(&Q) -> String {
    move |q: &Q| {
        let mut text = String::new();
        put_number(&mut text, q, decimals);
        text
    }
}

/// `nimbus nash` on a tree.
fn run_tree(args: &Args, t: &nimbus::api::game::Tree, out: &mut String) -> Result<ExitCode, Error> {
    if args.dominance || args.plot.is_some() || args.label.is_some() {
        return Err(Error::Invalid(
            "--dominance, --plot and --label apply to strategic-form games, not trees".into(),
        ));
    }
    let refine = match &args.refine {
        Some(list) => nash::Refinement::parse_list(list)
            .map_err(|e| Error::Invalid(format!("--refine: {}", crate::words::message(&e))))?,
        None => Vec::new(),
    };
    if args.method == Method::Cfr && args.select.is_none() {
        let a = tree::cfr(t, &tree::CfrRequest::default(), &args.common.limits())?;
        return crate::efg::print_cfr(out, &a, args.common.json);
    }
    let (method, prior) = tree::choose(&args.method.name(), args.select.as_deref())
        .map_err(|e| select_error(args, e))?;
    let req = tree::Request {
        method,
        covering: args.covering.unwrap_or(1),
        time_limit: args.time_limit,
        max_supports: args.max_supports,
        prior,
        refine,
    };
    let answer = tree::solve(t, &req, &args.common.limits())?;
    let num = number_format(args.decimals);
    crate::efg::print_nash(
        out,
        t,
        &answer,
        args.format == Format::Gambit,
        args.common.json,
        &num,
    )?;
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    let file = match args.game.as_deref() {
        Some(spec) => match crate::efg::load(spec, &args.common.limits())? {
            crate::efg::Loaded::Tree(t) => return run_tree(&args, &t, out),
            crate::efg::Loaded::Text(text) => Some((spec, text)),
        },
        None => None,
    };
    if args.covering.is_some() {
        return Err(Error::Invalid(
            "--covering applies to --method lcp on game trees".into(),
        ));
    }
    let (game, notes) = args.input.load_text(file)?;
    let (method, prior) = nash::choose(&args.method.name(), args.select.as_deref())
        .map_err(|e| select_error(&args, e))?;
    let req = nash::Request {
        method,
        prior,
        label: args.label,
        dominance: match (args.dominance, args.weak) {
            (false, _) => nash::Dominance::None,
            (true, false) => nash::Dominance::Strict,
            (true, true) => nash::Dominance::Weak,
        },
        plot: args.plot.is_some(),
        path: args.path,
        max_supports: args.max_supports,
        time_limit: args.time_limit,
        digits: args.decimals.map(|d| (d as u32).max(16)),
        refine: match &args.refine {
            Some(list) => nash::Refinement::parse_list(list)
                .map_err(|e| Error::Invalid(format!("--refine: {}", crate::words::message(&e))))?,
            None => Vec::new(),
        },
    };
    let mut answer = nash::solve(&game, &req, &args.common.limits())?;
    answer.notes = answer.notes.iter().map(|n| crate::words::note(n)).collect();
    answer.notes.splice(0..0, notes);
    crate::write_plot(args.plot.as_ref(), answer.plot.as_ref(), &mut answer.notes)?;
    let num = number_format(args.decimals);
    if !args.common.json {
        for point in answer.logit_path.iter().flatten() {
            let probs: Vec<String> = point.profile.iter().flatten().map(f64::to_string).collect();
            outln!(out, "{},{}", point.lambda, probs.join(","));
        }
    }
    match (args.format, args.common.json) {
        (Format::Gambit, _) => {
            crate::gambit_lines::write(out, answer.equilibria.iter().map(|e| &e.profile), &num);
            // Irrational equilibria: decimals (the box's centre), as Gambit prints floats.
            let digits = args.decimals.unwrap_or(10);
            for c in answer.enumeration.iter().flat_map(|e| &e.certified) {
                let nums: Vec<String> = c
                    .lower
                    .iter()
                    .flatten()
                    .zip(c.upper.iter().flatten())
                    .map(|(l, h)| show_decimal(&((l + h) / Q::from_integer(2.into())), digits))
                    .collect();
                outln!(out, "NE,{}", nums.join(","));
            }
        }
        (Format::Text, true) => print_json(out, &answer)?,
        (Format::Text, false) => print_text(out, &game, &answer, args.decimals),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(out: &mut String, game: &NormalForm, a: &nash::Answer, decimals: Option<usize>) {
    let shape: Vec<String> = game.shape().iter().map(usize::to_string).collect();
    let title = if game.title.is_empty() {
        String::new()
    } else {
        format!("\"{}\", ", game.title)
    };
    outln!(
        out,
        "game:        {title}{} players, {}",
        game.players.len(),
        shape.join(" x ")
    );
    for st in &a.eliminated {
        let names = &game.strategies[st.player];
        let by: Vec<String> = st
            .dominated_by
            .iter()
            .map(|(t, p)| match p.as_str() {
                "1" => names[*t].clone(),
                _ => format!("{p} {}", names[*t]),
            })
            .collect();
        outln!(
            out,
            "eliminated:  {}'s {} ({} dominated by {})",
            game.players[st.player],
            names[st.strategy],
            if st.weak { "weakly" } else { "strictly" },
            by.join(" + ")
        );
    }
    outln!(out, "method:      {}", a.described);
    if let Some(t) = &a.tracing {
        out.push_str("prior:       ");
        for (i, p) in t.prior.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            out.push_str(&game.players[i]);
            out.push_str(": ");
            describe(out, p, &game.strategies[i], decimals);
        }
        let starts: Vec<&str> = t
            .start
            .iter()
            .enumerate()
            .map(|(i, &s)| game.strategies[i][s].as_str())
            .collect();
        outln!(
            out,
            "\nstart:       {} (the best replies to the prior), {} step{} to the end",
            starts.join(", "),
            t.steps,
            if t.steps == 1 { "" } else { "s" }
        );
    }
    outln!(out, "equilibria:  {}", a.equilibria.len());
    for (k, e) in a.equilibria.iter().enumerate() {
        {
            use std::fmt::Write as _;
            let _ = write!(out, "  {:>3}. ", k + 1);
        }
        for (i, p) in e.profile.iter().enumerate() {
            if i > 0 {
                out.push_str("; ");
            }
            out.push_str(&game.players[i]);
            out.push_str(": ");
            describe(out, p, &game.strategies[i], decimals);
        }
        out.push_str("   payoffs ");
        for (i, v) in e.payoffs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            put_number(out, v, decimals);
        }
        if let Some(perfect) = &a.perfect {
            out.push_str(if perfect[k] {
                "   perfect"
            } else {
                "   not perfect"
            });
        }
        if let Some(proper) = &a.proper {
            out.push_str(match proper[k] {
                Some(true) => "   proper",
                Some(false) => "   not proper",
                None => "   proper?",
            });
        }
        if let Some(ess) = &a.ess {
            out.push_str(if ess[k] { "   ESS" } else { "   not ESS" });
        }
        out.push('\n');
    }
    if let Some(cs) = &a.components {
        print_components(out, cs);
    }
    if let Some(e) = &a.enumeration {
        print_enumeration(out, game, a, e);
    }
    for n in &a.notes {
        outln!(out, "note: {n}");
    }
}

/// The irrational equilibria, the unresolved regions and the coverage of an enumeration.
fn print_enumeration(out: &mut String, game: &NormalForm, a: &nash::Answer, e: &nash::Enumeration) {
    let two = Q::from_integer(2.into());
    let mid = |l: &Q, h: &Q| strip_zeros(&show_decimal(&((l + h) / &two), 12));
    let width = |c: &nash::Certified| {
        c.lower
            .iter()
            .flatten()
            .zip(c.upper.iter().flatten())
            .map(|(l, h)| h - l)
            .max()
            .unwrap_or_else(Q::zero)
    };
    if !e.certified.is_empty() {
        outln!(
            out,
            "irrational:  {} (each in a box proved to hold exactly one equilibrium)",
            e.certified.len()
        );
    }
    for (k, c) in e.certified.iter().enumerate() {
        let parts: Vec<String> = c
            .lower
            .iter()
            .zip(&c.upper)
            .enumerate()
            .map(|(i, (lo, hi))| {
                let p: Vec<String> = lo.iter().zip(hi).map(|(l, h)| mid(l, h)).collect();
                let used: Vec<String> = p
                    .iter()
                    .zip(&game.strategies[i])
                    .zip(
                        &c.support[i].iter().fold(vec![false; p.len()], |mut v, &s| {
                            v[s] = true;
                            v
                        }),
                    )
                    .filter(|(_, &on)| on)
                    .map(|((x, n), _)| format!("{n}: {x}"))
                    .collect();
                format!("{}: ({})", game.players[i], used.join(", "))
            })
            .collect();
        let payoffs: Vec<String> = c
            .payoffs_lower
            .iter()
            .zip(&c.payoffs_upper)
            .map(|(l, h)| mid(l, h))
            .collect();
        outln!(
            out,
            "  {:>3}. {}   payoffs {}",
            a.equilibria.len() + k + 1,
            parts.join("; "),
            payoffs.join(", ")
        );
        outln!(
            out,
            "       box width {}, regret at most {}",
            show_decimal_sci(&width(c)),
            show_decimal_sci(&c.regret_bound)
        );
    }
    for u in &e.unresolved {
        let sup: Vec<String> = u
            .support
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let names: Vec<&str> = s.iter().map(|&t| game.strategies[i][t].as_str()).collect();
                names.join(" ")
            })
            .collect();
        outln!(
            out,
            "unresolved:  support {{{}}}: {}",
            sup.join("} x {"),
            u.reason
        );
        if let Some(k) = u.equilibrium {
            outln!(out, "             it holds equilibrium {}", k + 1);
        }
    }
    if a.method != nash::Method::Enumpoly {
        // Logit and simplicial subdivision solve the one support their path ends on.
        return;
    }
    outln!(
        out,
        "supports:    {} of {} examined ({} skipped by conditional dominance){}",
        e.examined,
        e.supports,
        e.pruned,
        if e.complete { "" } else { ": incomplete" }
    );
}

/// A decimal without trailing zeros.
fn strip_zeros(s: &str) -> String {
    let mut t = s.to_string();
    if t.contains('.') {
        while t.ends_with('0') {
            t.pop();
        }
        if t.ends_with('.') {
            t.pop();
        }
    }
    t
}

/// A small nonnegative number as `3e-17` (one significant digit, rounded up), or `0`.
fn show_decimal_sci(q: &Q) -> String {
    use num_traits::ToPrimitive;
    if q.is_zero() {
        return "0".into();
    }
    let x = q.to_f64().unwrap_or(f64::MAX);
    let e = x.log10().floor() as i32;
    let m = (x / 10f64.powi(e)).ceil();
    format!("{m}e{e}")
}

fn print_components(out: &mut String, cs: &[nash::Component]) {
    if !cs.iter().any(|c| c.equilibria.len() > 1) {
        return;
    }
    let list = |v: &[usize]| {
        v.iter()
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    outln!(
        out,
        "components:  {} (connected sets of equilibria)",
        cs.len()
    );
    for (k, c) in cs.iter().enumerate() {
        outln!(
            out,
            "  {:>3}. extreme equilibria {}",
            k + 1,
            list(&c.equilibria)
        );
        for q in c
            .cliques
            .iter()
            .filter(|q| q.rows.len() > 1 || q.cols.len() > 1)
        {
            outln!(
                out,
                "       convex: the row strategies of {} against the column strategies of {}, \
                 and all their mixtures",
                list(&q.rows),
                list(&q.cols)
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// Every word `--method` takes, alias or not, means what the API (and so Python and the
    /// web page) reads it as: the same method, or the same refusal.
    #[test]
    fn method_words_mean_what_the_api_says() {
        for m in Method::value_variants() {
            let v = m.to_possible_value().unwrap();
            let canonical = m.name();
            for word in v.get_name_and_aliases() {
                let same = |a: Result<String, Error>, b: Result<String, Error>| match (a, b) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{word}"),
                    (Err(_), Err(_)) => {}
                    (a, b) => panic!("{word}: {a:?} but {canonical}: {b:?}"),
                };
                same(
                    nash::Method::parse(word).map(|m| format!("{m:?}")),
                    nash::Method::parse(&canonical).map(|m| format!("{m:?}")),
                );
                same(
                    tree::Method::parse(word).map(|m| format!("{m:?}")),
                    tree::Method::parse(&canonical).map(|m| format!("{m:?}")),
                );
            }
        }
    }
}
