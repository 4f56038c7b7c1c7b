//! Game trees on the command line: reading a tree (an .efg file or a built-in name), printing
//! the equilibria of `nimbus nash` on a tree, and `nimbus efg` (what a tree is made of, and
//! conversions).

use crate::{print_json, read_input, Common};
use nimbus::api::game::{self, Tree};
use nimbus::api::tree;
use nimbus::api::Error;
use nimbus::api::{show, Q};
use num_traits::{One, Zero};
use std::process::ExitCode;

/// A game argument: a tree, or the text of a strategic-form file.
pub enum Loaded {
    /// A built-in tree or an .efg file.
    Tree(Box<Tree>),
    /// Any other file, read.
    Text(String),
}

/// Reads `spec`: a built-in tree's name (when no file has that name), else a file.
pub fn load(spec: &str, limits: &nimbus::api::Limits) -> Result<Loaded, Error> {
    if !std::path::Path::new(spec).exists() {
        if let Some(t) = game::builtin_tree(spec) {
            return Ok(Loaded::Tree(Box::new(t)));
        }
    }
    let text = read_input(spec)?;
    if game::is_tree(&text) {
        return Ok(Loaded::Tree(Box::new(game::tree_within(
            &text, spec, limits,
        )?)));
    }
    Ok(Loaded::Text(text))
}

/// Reads `spec`, which must be a tree.
pub fn load_tree(spec: &str, limits: &nimbus::api::Limits) -> Result<Tree, Error> {
    match load(spec, limits)? {
        Loaded::Tree(t) => Ok(*t),
        Loaded::Text(_) => Err(game::not_a_tree(spec)),
    }
}

/// How an information set is named in text: its label, else its number.
fn set_label(info: &tree::InfosetInfo) -> String {
    if info.name.is_empty() {
        format!("set {}", info.number)
    } else {
        format!("\"{}\"", info.name)
    }
}

/// A behaviour at one set: the action when pure, else the actions with probabilities.
fn behaviour_text(p: &[Q], actions: &[String], num: &dyn Fn(&Q) -> String) -> String {
    if let Some(a) = p.iter().position(One::is_one) {
        return actions[a].clone();
    }
    p.iter()
        .zip(actions)
        .filter(|(x, _)| !x.is_zero())
        .map(|(x, a)| format!("{a} {}", num(x)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Prints the equilibria of a tree as `nimbus nash` does.
pub fn print_nash(
    out: &mut String,
    t: &Tree,
    a: &tree::Answer,
    gambit: bool,
    json: bool,
    num: &dyn Fn(&Q) -> String,
) -> Result<(), Error> {
    if gambit {
        crate::gambit_lines::write(out, a.equilibria.iter().map(|e| &e.behaviour), num);
        return Ok(());
    }
    if json {
        return print_json(out, a);
    }
    let title = if t.title.is_empty() {
        String::new()
    } else {
        format!("\"{}\", ", t.title)
    };
    outln!(
        out,
        "game:        {title}{} players, a tree of {} nodes and {} information sets",
        t.players.len(),
        t.nodes.len(),
        a.infosets.len()
    );
    outln!(out, "method:      {}", a.described);
    if let Some(shape) = &a.reduced_shape {
        let s: Vec<String> = shape.iter().map(usize::to_string).collect();
        outln!(out, "reduced:     {} strategies", s.join(" x "));
    }
    if let Some(v) = &a.value {
        outln!(out, "value:       {} (to {})", num(v), t.players[0]);
    }
    if let Some(c) = &a.spe_count {
        outln!(out, "spe count:   {c}");
    }
    outln!(out, "equilibria:  {}", a.equilibria.len());
    for (k, e) in a.equilibria.iter().enumerate() {
        let payoffs: Vec<String> = e.payoffs.iter().map(num).collect();
        let count = e
            .count
            .as_ref()
            .filter(|c| c.as_str() != "1")
            .map(|c| format!(" ({c} equilibria with these payoffs; one shown)"))
            .unwrap_or_default();
        let mut mark = match &a.perfect {
            Some(marks) if marks[k] => "   perfect",
            Some(_) => "   not perfect",
            None => "",
        }
        .to_string();
        mark.push_str(match &a.sequential {
            Some(marks) if marks[k] => "   sequential",
            Some(_) => "   not sequential",
            None => "",
        });
        outln!(
            out,
            "  {:>3}. payoffs {}{count}{mark}",
            k + 1,
            payoffs.join(", ")
        );
        for (p, name) in t.players.iter().enumerate() {
            let parts: Vec<String> = a
                .infosets
                .iter()
                .zip(&e.behaviour)
                .filter(|(i, _)| i.player == p)
                .map(|(i, b)| format!("{}: {}", set_label(i), behaviour_text(b, &i.actions, num)))
                .collect();
            if !parts.is_empty() {
                outln!(out, "       {name}  {}", parts.join("; "));
            }
        }
        if let Some(beliefs) = &e.beliefs {
            print_beliefs(out, t, a, beliefs, num);
        }
    }
    for n in &a.notes {
        outln!(out, "note: {n}");
    }
    Ok(())
}

/// The beliefs of a sequential equilibrium at the sets of more than one node, a line for
/// each player.
fn print_beliefs(
    out: &mut String,
    t: &Tree,
    a: &tree::Answer,
    beliefs: &[Vec<Q>],
    num: &dyn Fn(&Q) -> String,
) {
    for (p, name) in t.players.iter().enumerate() {
        let parts: Vec<String> = a
            .infosets
            .iter()
            .zip(beliefs)
            .filter(|(i, _)| i.player == p && i.nodes > 1)
            .map(|(i, b)| {
                let at: Vec<String> = i
                    .node_labels
                    .iter()
                    .flatten()
                    .zip(b)
                    .map(|(l, q)| format!("{} {}", if l.is_empty() { "-" } else { l }, num(q)))
                    .collect();
                format!("{}: {}", set_label(i), at.join(", "))
            })
            .collect();
        if !parts.is_empty() {
            outln!(out, "       {name} believes  {}", parts.join("; "));
        }
    }
}

const EXAMPLES: &str = "\
Examples:
  nimbus efg kuhn                       players, information sets, sequences, subgames
  nimbus efg game.efg --to nfg          the reduced normal form, as a .nfg file
  nimbus efg kuhn --to efg > kuhn.efg   a built-in tree written as an .efg file
  nimbus efg game.efg --svg t.svg --nash auto   the tree drawn, an equilibrium on it
  nimbus nash game.efg                  the tree's equilibria (see nimbus help nash)

Built-in trees: kuhn (Kuhn poker: three cards, ante 1, one bet of 1).";

/// Inspect or convert a game tree (an .efg file or a built-in tree).
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The tree: an .efg file ("-" for standard input) or a built-in name (kuhn).
    #[arg(value_name = "TREE")]
    tree: String,
    /// Write the tree in this format to standard output instead of describing it: efg, or
    /// nfg (its reduced normal form).
    #[arg(long, value_name = "FORMAT", value_parser = ["efg", "nfg"])]
    to: Option<String>,
    /// Draw the tree into this SVG file (nodes, actions, information sets as dashed links,
    /// payoffs under the leaves).
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
    /// With --svg: draw the first equilibrium this method finds on the tree (its
    /// probabilities on the edges, played edges thick); auto is nimbus nash's default.
    #[arg(long, value_name = "METHOD", requires = "svg")]
    nash: Option<String>,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    let t = load_tree(&args.tree, &args.common.limits())?;
    if let Some(to) = &args.to {
        let format = if to == "nfg" {
            tree::Format::Nfg
        } else {
            tree::Format::Efg
        };
        out.push_str(&tree::convert(&t, format, &args.common.limits())?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.svg {
        let method = args.nash.as_deref().map(tree::Method::parse).transpose()?;
        let svg = tree::draw(&t, method, &args.common.limits())?;
        std::fs::write(path, svg).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        outln!(out, "wrote {}", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let info = tree::describe(&t)?;
    if args.common.json {
        print_json(out, &info)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !info.title.is_empty() {
        outln!(out, "title:       {}", info.title);
    }
    outln!(
        out,
        "tree:        {} nodes, {} terminal, {} chance information sets",
        info.nodes,
        info.leaves,
        info.chance_infosets
    );
    for p in &info.players {
        let mut line = format!("{} information sets", p.infosets);
        if let (Some(s), Some(r)) = (p.sequences, &p.reduced_strategies) {
            line.push_str(&format!(", {s} sequences, {r} reduced strategies"));
        }
        outln!(out, "player:      {}: {line}", p.name);
    }
    outln!(
        out,
        "information: {}",
        if info.perfect_information {
            "perfect"
        } else {
            "imperfect"
        }
    );
    match &info.no_perfect_recall {
        None => outln!(out, "recall:      perfect"),
        Some(why) => outln!(out, "recall:      imperfect ({why})"),
    }
    if let Some(c) = &info.constant_sum {
        outln!(out, "sum:         constant, {}", show(c));
    }
    outln!(
        out,
        "subgames:    {} (rooted at nodes {})",
        info.subgame_roots.len(),
        info.subgame_roots
            .iter()
            .map(|v| (v + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for i in &info.infosets {
        outln!(
            out,
            "  {} {}: {} ({} node{})",
            info.players[i.player].name,
            set_label(i),
            i.actions.join(", "),
            i.nodes,
            if i.nodes == 1 { "" } else { "s" }
        );
    }
    Ok(ExitCode::SUCCESS)
}

const CFR_EXAMPLES: &str = "\
Examples:
  nimbus cfr kuhn --iterations 10000         CFR+ on Kuhn poker
  nimbus cfr leduc --target 0.001            until the exploitability is at most 0.001
  nimbus cfr game.efg --variant dcfr         discounted CFR (alpha 3/2, beta 0, gamma 2)

The exploitability (the players' gains from best responses, added) of the average strategy
is computed exactly at each report; the strategy itself is floating point.";

/// Approximate equilibria of large trees by counterfactual regret minimisation.
#[derive(clap::Args)]
#[command(after_help = CFR_EXAMPLES)]
pub struct CfrArgs {
    /// The tree: an .efg file ("-" for standard input) or a built-in name (kuhn, leduc).
    #[arg(value_name = "TREE")]
    tree: String,
    /// Most iterations.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    iterations: u64,
    /// Stop once the exploitability is at most this (checked at the reports).
    #[arg(long, value_name = "X", alias = "target-exploitability", value_parser = crate::non_negative, allow_negative_numbers = true)]
    target: Option<f64>,
    /// cfr+ (CFR+) or dcfr (discounted CFR).
    #[arg(long, value_name = "VARIANT", default_value = "cfr+", value_parser = ["cfr+", "dcfr"])]
    variant: String,
    /// How many exact exploitability reports, spread in log scale.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = crate::reports)]
    reports: usize,
    /// Keep the run's state in FILE: a run resumes from it when it exists (--iterations
    /// counts from the first run's start), and it is written at every report, every minute,
    /// at the end and on Ctrl-C.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// Sample instead of walking the whole tree: external (external-sampling Monte Carlo
    /// CFR: one sampled action at chance's and the other players' nodes).
    #[arg(long, value_name = "KIND", value_parser = ["external"])]
    sampling: Option<String>,
    /// The seed of --sampling.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "sampling")]
    seed: u64,
    #[command(flatten)]
    pub(crate) common: Common,
}

pub fn run_cfr(args: CfrArgs, out: &mut String) -> Result<ExitCode, Error> {
    let t = load_tree(&args.tree, &args.common.limits())?;
    let req = tree::CfrRequest {
        variant: if args.variant == "dcfr" {
            nimbus::api::tree::Variant::Discounted
        } else {
            nimbus::api::tree::Variant::Plus
        },
        iterations: args.iterations,
        target: args.target,
        reports: args.reports,
        checkpoint: args.checkpoint.clone(),
        sampling: args.sampling.as_ref().map(|_| args.seed),
    };
    let a = tree::cfr(&t, &req, &args.common.limits())?;
    print_cfr(out, &a, args.common.json)
}

/// Prints a CFR run as `nimbus cfr` does.
pub fn print_cfr(out: &mut String, a: &tree::CfrAnswer, json: bool) -> Result<ExitCode, Error> {
    if json {
        print_json(out, a)?;
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        out,
        "game:           \"{}\", {} players, {} information sets",
        a.title,
        a.players.len(),
        a.infosets.len()
    );
    outln!(
        out,
        "method:         {}{} ({} iterations, {:.0} a second)",
        a.variant,
        if a.sampling.is_some() {
            ", external sampling"
        } else {
            ""
        },
        a.iterations,
        a.iterations_per_second
    );
    outln!(out, "exploitability: {} (exact)", a.exploitability);
    let pay: Vec<String> = a.payoffs.iter().map(|x| format!("{x:.6}")).collect();
    outln!(out, "payoffs:        {}", pay.join(", "));
    for (i, e) in &a.curve {
        outln!(out, "  after {i:>9} iterations: exploitability {e:.6e}");
    }
    Ok(ExitCode::SUCCESS)
}
