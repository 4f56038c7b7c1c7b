//! `nimbus nash`: Nash equilibria of strategic-form games, exact.

use crate::game_input::GameInput;
use crate::{print_json, Common};
use nimbus::strategic::bimatrix::{Bimatrix, Equilibrium};
use nimbus::strategic::game::verify;
use nimbus::strategic::pure::{eliminate, pure_equilibria, Dominator, Reduction};
use nimbus::strategic::{lemke, show, show_decimal, support, two_by_two, vertex, Q};
use nimbus::Error;
use num_traits::{One, Zero};
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  nimbus nash --row \"3 0; 5 1\" --col \"3 5; 0 1\"   the prisoner's dilemma: (2, 2) only
  nimbus nash game.nfg                       every extreme equilibrium, and the components
  nimbus nash game.nfg --method support      support enumeration
  nimbus nash game.nfg --method lh           Lemke-Howson from every label (--label K: one)
  nimbus nash game.nfg --method pure         pure equilibria (any number of players)
  nimbus nash game.nfg --dominance           remove strictly dominated strategies first
  nimbus nash --row \"2 0; 0 1\" --col \"1 0; 0 2\" --plot br.svg
      a 2 x 2 game: the indifference conditions, best-reply plot in br.svg
  nimbus nash game.nfg --format gambit       NE,... lines, as Gambit prints them

Methods: auto (the default) is indifference for 2 x 2 games, vertex enumeration for other
two-player games and pure for more players. Every equilibrium printed has been checked
exactly: no player gains by deviating to any pure strategy.";

/// Find the Nash equilibria of a game, exactly.
#[derive(clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The game, a .nfg file ("-" for standard input).
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
    /// Remove strictly dominated strategies (by pure strategies and by mixtures) first.
    #[arg(long)]
    dominance: bool,
    /// With --dominance: weakly dominated strategies too (some equilibria may be lost).
    #[arg(long, requires = "dominance")]
    weak: bool,
    /// For 2 x 2 games: draw both best-reply correspondences into this SVG file.
    #[arg(long, value_name = "FILE")]
    plot: Option<String>,
    /// How to print the equilibria.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print probabilities and payoffs as decimals with this many digits (Gambit's -d);
    /// exact fractions otherwise.
    #[arg(long, value_name = "N")]
    decimals: Option<usize>,
    #[command(flatten)]
    pub(crate) common: Common,
}

/// The algorithms of `nash`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Indifference for 2 x 2 games, vertex enumeration for two players, pure for more.
    Auto,
    /// Vertex enumeration: every extreme equilibrium and the components.
    #[value(alias = "enummixed")]
    Vertex,
    /// Support enumeration.
    Support,
    /// Lemke-Howson from every label (or --label K).
    #[value(alias = "lcp", alias = "lemke-howson")]
    Lh,
    /// Pure equilibria, any number of players.
    #[value(alias = "enumpure")]
    Pure,
    /// The indifference conditions of a 2 x 2 game.
    Indifference,
}

/// The output formats of `nash`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Readable text.
    Text,
    /// Gambit's NE,... lines.
    Gambit,
}

#[derive(serde::Serialize)]
struct EqReport {
    profile: Vec<Vec<String>>,
    payoffs: Vec<String>,
}

#[derive(serde::Serialize)]
struct CliqueReport {
    rows: Vec<usize>,
    cols: Vec<usize>,
}

#[derive(serde::Serialize)]
struct ComponentReport {
    /// Indices into `equilibria` of the component's extreme equilibria.
    equilibria: Vec<usize>,
    /// Maximal convex sets: every listed row strategy against every listed column strategy
    /// (indices into `equilibria`, by the strategy they use).
    cliques: Vec<CliqueReport>,
}

#[derive(serde::Serialize)]
struct StepReport {
    player: String,
    strategy: String,
    dominated_by: Vec<(String, String)>,
    weak: bool,
}

#[derive(serde::Serialize)]
struct Report {
    players: Vec<String>,
    strategies: Vec<Vec<String>>,
    method: String,
    eliminated: Vec<StepReport>,
    equilibria: Vec<EqReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    components: Option<Vec<ComponentReport>>,
    notes: Vec<String>,
}

/// Components as indices into the list of equilibria.
fn component_reports(
    pairs: &[(usize, usize)],
    comps: &[vertex::Component],
) -> Vec<ComponentReport> {
    let eq_of = |r: usize, c: usize| pairs.iter().position(|&p| p == (r, c));
    comps
        .iter()
        .map(|c| ComponentReport {
            equilibria: c
                .rows
                .iter()
                .flat_map(|&r| c.cols.iter().filter_map(move |&k| eq_of(r, k)))
                .collect(),
            cliques: c
                .cliques
                .iter()
                .map(|(rs, cs)| CliqueReport {
                    rows: rs.iter().filter_map(|&r| eq_of(r, cs[0])).collect(),
                    cols: cs.iter().filter_map(|&k| eq_of(rs[0], k)).collect(),
                })
                .collect(),
        })
        .collect()
}

/// A strategy: its name when pure, else the strategies it uses with their probabilities,
/// "(Opera: 2/3, Football: 1/3)".
fn describe(p: &[Q], names: &[String], num: &dyn Fn(&Q) -> String) -> String {
    if let Some(i) = p.iter().position(One::is_one) {
        return names[i].clone();
    }
    let used: Vec<String> = p
        .iter()
        .zip(names)
        .filter(|(x, _)| !x.is_zero())
        .map(|(x, n)| format!("{n}: {}", num(x)))
        .collect();
    format!("({})", used.join(", "))
}

pub fn run(args: Args, out: &mut String) -> Result<ExitCode, Error> {
    let (game, mut notes) = args.input.load(args.game.as_deref())?;
    let num = |q: &Q| match args.decimals {
        Some(d) => show_decimal(q, d),
        None => show(q),
    };
    let reduction = if args.dominance {
        eliminate(&game, true, args.weak)?
    } else {
        Reduction::none(&game)
    };
    if args.weak && !reduction.steps.is_empty() {
        notes.push(
            "weak dominance was used: equilibria of the original game that use a removed \
             strategy are not listed"
                .into(),
        );
    }
    let g = &reduction.game;
    let shape = g.shape();
    let method = match args.method {
        Method::Auto if shape == [2, 2] => "indifference",
        Method::Auto if shape.len() == 2 => "vertex",
        Method::Auto => "pure",
        Method::Vertex => "vertex",
        Method::Support => "support",
        Method::Lh => "lh",
        Method::Pure => "pure",
        Method::Indifference => "indifference",
    };
    if args.plot.is_some() && method != "indifference" {
        return Err(Error::Invalid(format!(
            "--plot draws 2 x 2 games (by the indifference method); this game is {}{}",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" x "),
            if reduction.steps.is_empty() {
                ""
            } else {
                " after elimination"
            }
        )));
    }
    if method != "lh" && args.label.is_some() {
        return Err(Error::Invalid("--label is for --method lh".into()));
    }
    let mut components = None;
    let described;
    let equilibria: Vec<Equilibrium> = match method {
        "pure" => {
            described = "pure-strategy equilibria (every pure profile checked)";
            if shape.len() > 2 {
                notes.push(
                    "only pure equilibria are computed for games of three or more players: \
                     every finite game has an equilibrium, but its mixed equilibria are not \
                     computed yet"
                        .into(),
                );
            }
            pure_equilibria(g)
                .iter()
                .map(|p| Equilibrium::pure(g, p))
                .collect()
        }
        "indifference" => {
            let s = two_by_two::solve(g)?;
            described = "the indifference conditions of a 2 x 2 game";
            if let Some(path) = &args.plot {
                std::fs::write(path, two_by_two::plot(g, &s)).map_err(|source| Error::Io {
                    path: path.clone(),
                    source,
                })?;
                notes.push(format!("best-reply plot written to {path}"));
            }
            for pc in s.pieces.iter().filter(|pc| !pc.is_point()) {
                notes.push(format!(
                    "a continuum of equilibria: p in [{}, {}], q in [{}, {}] (p, q: the \
                     probabilities of the first row and the first column); its ends are listed",
                    show(&pc.p.0),
                    show(&pc.p.1),
                    show(&pc.q.0),
                    show(&pc.q.1)
                ));
            }
            s.equilibria
        }
        "vertex" => {
            let bm = Bimatrix::new(g)?;
            let e = vertex::enumerate(&bm, args.common.max_states)?;
            described = "vertex enumeration: every extreme equilibrium";
            components = Some(component_reports(&e.pairs, &e.components));
            e.equilibria
        }
        "support" => {
            let bm = Bimatrix::new(g)?;
            let s = support::enumerate_within(&bm, args.common.max_work)?;
            described = "support enumeration";
            if s.degenerate {
                notes.push(
                    "the game is degenerate (a strategy with more best replies than its \
                     support): the extreme equilibria are listed, and the components show \
                     which of them mix"
                        .into(),
                );
            }
            components = Some(component_reports(&s.pairs, &s.components));
            s.equilibria
        }
        _ => {
            let bm = Bimatrix::new(g)?;
            if let Some(k) = args.label {
                if k == 0 || k > bm.m + bm.n {
                    return Err(Error::Invalid(format!(
                        "--label {k}: labels run from 1 to {} (rows, then columns)",
                        bm.m + bm.n
                    )));
                }
                described = "Lemke-Howson from one label";
                vec![lemke::lemke_howson(&bm, k - 1)?.equilibrium]
            } else {
                described = "Lemke-Howson from every label";
                lemke::from_every_label(&bm)?
                    .into_iter()
                    .map(|r| r.equilibrium)
                    .collect()
            }
        }
    };
    let equilibria: Vec<Equilibrium> = equilibria
        .iter()
        .map(|e| reduction.lift(e, &game.shape()))
        .collect();
    // The promise: nothing is printed that was not checked against the game as given.
    for e in &equilibria {
        let v = verify(&game, &e.profile)?;
        if !v.is_equilibrium || v.payoffs != e.payoffs {
            return Err(Error::Invalid(
                "internal inconsistency: a computed profile failed the equilibrium check".into(),
            ));
        }
    }
    let name = |i: usize, s: usize| game.strategies[i][s].clone();
    let steps: Vec<StepReport> = reduction
        .steps
        .iter()
        .map(|st| StepReport {
            player: game.players[st.player].clone(),
            strategy: name(st.player, st.strategy),
            dominated_by: match &st.by {
                Dominator::Pure(t) => vec![(name(st.player, *t), "1".into())],
                Dominator::Mixed(mix) => mix
                    .iter()
                    .map(|(t, p)| (name(st.player, *t), show(p)))
                    .collect(),
            },
            weak: st.weak,
        })
        .collect();
    if args.format == Format::Gambit {
        for e in &equilibria {
            let nums: Vec<String> = e.profile.iter().flatten().map(num).collect();
            outln!(out, "NE,{}", nums.join(","));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.common.json {
        return print_json(
            out,
            &Report {
                players: game.players.clone(),
                strategies: game.strategies.clone(),
                method: method.to_string(),
                eliminated: steps,
                equilibria: equilibria
                    .iter()
                    .map(|e| EqReport {
                        profile: e
                            .profile
                            .iter()
                            .map(|p| p.iter().map(num).collect())
                            .collect(),
                        payoffs: e.payoffs.iter().map(num).collect(),
                    })
                    .collect(),
                components,
                notes,
            },
        )
        .map(|()| ExitCode::SUCCESS);
    }
    outln!(
        out,
        "game:        {}{} players, {}",
        if game.title.is_empty() {
            String::new()
        } else {
            format!("\"{}\", ", game.title)
        },
        game.players.len(),
        game.shape()
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(" x ")
    );
    for st in &steps {
        let by: Vec<String> = st
            .dominated_by
            .iter()
            .map(|(n, p)| {
                if p == "1" {
                    n.clone()
                } else {
                    format!("{p} {n}")
                }
            })
            .collect();
        outln!(
            out,
            "eliminated:  {}'s {} ({} dominated by {})",
            st.player,
            st.strategy,
            if st.weak { "weakly" } else { "strictly" },
            by.join(" + ")
        );
    }
    outln!(out, "method:      {described}");
    outln!(out, "equilibria:  {}", equilibria.len());
    for (k, e) in equilibria.iter().enumerate() {
        let parts: Vec<String> = e
            .profile
            .iter()
            .enumerate()
            .map(|(i, p)| {
                format!(
                    "{}: {}",
                    game.players[i],
                    describe(p, &game.strategies[i], &num)
                )
            })
            .collect();
        outln!(
            out,
            "  {:>3}. {}   payoffs {}",
            k + 1,
            parts.join("; "),
            e.payoffs.iter().map(num).collect::<Vec<_>>().join(", ")
        );
    }
    if let Some(cs) = &components {
        if cs.iter().any(|c| c.equilibria.len() > 1) {
            outln!(
                out,
                "components:  {} (connected sets of equilibria)",
                cs.len()
            );
            for (k, c) in cs.iter().enumerate() {
                let list = |v: &[usize]| {
                    v.iter()
                        .map(|i| (i + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
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
                        "       convex: the row strategies of {} against the column strategies \
                         of {}, and all their mixtures",
                        list(&q.rows),
                        list(&q.cols)
                    );
                }
            }
        }
    }
    for n in &notes {
        outln!(out, "note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}
