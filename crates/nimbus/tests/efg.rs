//! Extensive-form games: Gambit's example trees read and written, and the tree solvers
//! against Gambit's published answers and against independent methods on random trees.

use nimbus::api::Limits;
use nimbus::exact::{show, Q};
use nimbus::extensive::seqform::SequenceForm;
use nimbus::extensive::solvers::{agent, backward, lemke, lp, quasi_perfect, seqenum, tracing};
use nimbus::extensive::{games, reduced, Builder, Mover, Tree};
use nimbus::formats::efg;
use nimbus::strategic::solvers::{perfect, zerosum};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

mod trees;
use trees::random_tree;

/// The checkpoint `file` of a CFR run on `tree`, fingerprinted as the API does.
fn at(
    file: &Path,
    tree: &nimbus::extensive::Tree,
) -> nimbus::extensive::solvers::cfr::CheckpointFile {
    nimbus::extensive::solvers::cfr::CheckpointFile {
        path: file.to_path_buf(),
        game: crc32fast::hash(efg::write(tree).as_bytes()),
    }
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/gambit")
}

fn efg_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            efg_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "efg") {
            out.push(p);
        }
    }
}

fn read(rel: &str) -> Tree {
    let p = data().join(rel);
    efg::parse(
        &std::fs::read_to_string(&p).unwrap(),
        &p.display().to_string(),
    )
    .unwrap()
}

fn q(s: &str) -> Q {
    nimbus::exact::parse_number(s).unwrap()
}

/// Every tree in Gambit's catalog, contributed games and test games: parse, write, parse
/// gives the same tree, and the written file is what writing it again gives.
#[test]
fn every_gambit_tree_round_trips() {
    let mut files = Vec::new();
    efg_files(&data(), &mut files);
    files.sort();
    assert!(files.len() >= 170, "{} files", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        match efg::parse(&text, &f.display().to_string()) {
            Err(e) => failures.push(e.to_string()),
            Ok(t) => {
                let written = efg::write(&t);
                let again = efg::parse(&written, "written").unwrap();
                assert_eq!(again, t, "{}", f.display());
                assert_eq!(efg::write(&again), written);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Player `p`'s behaviour at their information sets, in the order the sets first appear in
/// the file (pygambit's order).
fn by_number(tree: &Tree, b: &[Vec<Q>], p: usize) -> Vec<Vec<String>> {
    tree.infosets_of(p)
        .iter()
        .map(|&h| b[h].iter().map(show).collect())
        .collect()
}

fn strings(v: &[&[&str]]) -> Vec<Vec<String>> {
    v.iter()
        .map(|r| r.iter().map(|s| s.to_string()).collect())
        .collect()
}

/// Gambit's lp_solve on the tree of Koller, Megiddo and von Stengel's 1994 paper (Gambit's
/// tests state the unique equilibrium).
#[test]
fn stoc94_tree_as_gambit_solves_it() {
    let t = read("tests/test_games/zerosum_efg_from_sequence_form_STOC94_paper.efg");
    let s = lp::solve(&t, &Limits::default()).unwrap();
    assert_eq!(
        by_number(&t, &s.behaviour, 0),
        strings(&[&["0", "1"], &["2/3", "1/3"], &["1/3", "2/3"]])
    );
    assert_eq!(
        by_number(&t, &s.behaviour, 1),
        strings(&[&["5/6", "1/6"], &["5/9", "4/9"]])
    );
}

/// Kuhn poker: −1/18, and the LP's strategies cannot be exploited (checked exactly).
#[test]
fn kuhn_poker_value() {
    let t = games::kuhn();
    assert_eq!(t.nodes.len(), 55);
    let s = lp::solve(&t, &Limits::default()).unwrap();
    assert_eq!(show(&s.value), "-1/18");
    let form = SequenceForm::new(&t).unwrap();
    assert!(form
        .gains(&t, &s.behaviour)
        .iter()
        .all(|g| *g == Q::from_integer(0.into())));
    // Written as .efg and read back, it is the same tree.
    assert_eq!(efg::parse(&efg::write(&t), "kuhn").unwrap(), t);
    // Its reduced normal form (27 x 64 strategies in Kuhn's count) has the same value.
    let r = reduced::reduce(&t, &Limits::default()).unwrap();
    assert_eq!(r.game.shape(), vec![27, 64]);
    assert_eq!(zerosum::solve(&r.game.matrix(0)).unwrap().value, s.value);
}

/// Gambit's other lp_solve answers: the profile Gambit's tests expect is an equilibrium here
/// too (no gain from deviating, computed exactly), worth what the LP says.
#[test]
fn gambit_lp_answers_are_equilibria_of_the_same_value() {
    type Profile<'a> = &'a [&'a [&'a str]];
    let cases: &[(&str, Profile, Profile)] = &[
        (
            "tests/test_games/2_player_chance.efg",
            &[&["1/3", "0", "2/3"], &["2/3", "0", "1/3"]],
            &[&["2/3", "1/3"], &["2/3", "1/3"], &["1/3", "2/3"]],
        ),
        (
            "tests/test_games/2_player_chance_nonterm_outcomes_and_missing_term_outcomes.efg",
            &[&["1/3", "0", "2/3"], &["2/3", "0", "1/3"]],
            &[&["2/3", "1/3"], &["2/3", "1/3"], &["1/3", "2/3"]],
        ),
        (
            "tests/test_games/perfect_info_with_chance.efg",
            &[&["0", "1"]],
            &[&["1", "0"], &["1", "0"]],
        ),
        (
            "tests/test_games/large_payoff_game.efg",
            &[&["1", "0"], &["1", "0"]],
            &[
                &["0", "1"],
                &[
                    "9999999999999999999/10000000000000000000",
                    "1/10000000000000000000",
                ],
            ],
        ),
    ];
    for (file, p1, p2) in cases {
        let t = read(file);
        let s = lp::solve(&t, &Limits::default()).unwrap();
        let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
        for (p, rows) in [(0, p1), (1, p2)] {
            let sets = t.infosets_of(p);
            for (&h, row) in sets.iter().zip(rows.iter()) {
                b[h] = row.iter().map(|x| q(x)).collect();
            }
        }
        let form = SequenceForm::new(&t).unwrap();
        assert!(form.gains(&t, &b).iter().all(|g| g == &q("0")), "{file}");
        assert_eq!(form.payoffs(&t, &b)[0], s.value, "{file}");
    }
}

/// The one-shot trust game (Kreps 1990), as Gambit's tests build it: the buyer does not trust
/// and the seller honours with probability at most 1/2; [0, 1] / [1/2, 1/2] is an extreme
/// equilibrium of the reduced normal form.
#[test]
fn trust_game() {
    let mut b = Builder::new("One-shot trust game", &["Buyer", "Seller"]);
    let buyer = b.infoset(Mover::Player(0), "", &["Trust", "Not trust"], vec![]);
    let seller = b.infoset(Mover::Player(1), "", &["Honor", "Abuse"], vec![]);
    let root = b.node(None, Some(buyer), None);
    let s = b.node(Some((root, 0)), Some(seller), None);
    b.node(Some((s, 0)), None, Some(vec![q("1"), q("1")]));
    b.node(Some((s, 1)), None, Some(vec![q("-1"), q("2")]));
    b.node(Some((root, 1)), None, Some(vec![q("0"), q("0")]));
    let t = b.finish().unwrap();
    let r = reduced::reduce(&t, &Limits::default()).unwrap();
    let all = nimbus::api::nash::solve(
        &r.game,
        &nimbus::api::nash::Request {
            method: nimbus::api::nash::Method::Vertex,
            ..Default::default()
        },
        &Limits::default(),
    )
    .unwrap();
    let found: Vec<Vec<Vec<String>>> = all
        .equilibria
        .iter()
        .map(|e| {
            let beh = r.behaviour(&t, &e.profile);
            vec![
                beh[buyer].iter().map(show).collect(),
                beh[seller].iter().map(show).collect(),
            ]
        })
        .collect();
    assert!(
        found.contains(&strings(&[&["0", "1"], &["1/2", "1/2"]])),
        "{found:?}"
    );
}

/// Gambit's trees without perfect recall are refused by the solvers that need it, naming the
/// information set.
#[test]
fn trees_without_perfect_recall_are_refused() {
    for f in [
        "tests/test_games/not_perfect_recall.efg",
        "tests/test_games/noPR-action-AM.efg",
    ] {
        let t = read(f);
        let e = SequenceForm::new(&t).unwrap_err().to_string();
        assert!(
            e.contains("does not have perfect recall: at information set"),
            "{e}"
        );
    }
    read("tests/test_games/perfect_recall.efg")
        .perfect_recall()
        .unwrap();
}

/// Cases of the random-tree properties: 200 with `NIMBUS_FULL_TESTS=1`, 60 otherwise, so that
/// the whole test run stays within CI's time (these trees' exact enumerations are the slowest
/// property tests of the repository).
fn tree_cases() -> u32 {
    if std::env::var_os("NIMBUS_FULL_TESTS").is_some() {
        200
    } else {
        60
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(tree_cases()))]

    /// The sequence-form LP's value is the value of the reduced normal form's matrix game
    /// (solved by the matrix-game LP), and expected payoffs of pure profiles agree between
    /// the tree and its reduced normal form.
    #[test]
    fn sequence_form_lp_equals_reduced_normal_form(seed in any::<u64>()) {
        let t = random_tree(seed, 2, true, false);
        let limits = Limits::default();
        let s = lp::solve(&t, &limits).unwrap();
        let r = reduced::reduce(&t, &limits).unwrap();
        let v = zerosum::solve(&r.game.matrix(0)).unwrap().value;
        prop_assert_eq!(&s.value, &v);
        let form = SequenceForm::new(&t).unwrap();
        for k in 0..r.game.profiles().min(50) {
            let prof = r.game.profile(k);
            let mixed: Vec<Vec<Q>> = prof
                .iter()
                .zip(r.game.shape())
                .map(|(&s, n)| (0..n).map(|i| Q::from_integer(i64::from(i == s).into())).collect())
                .collect();
            let b = r.behaviour(&t, &mixed);
            prop_assert_eq!(form.payoffs(&t, &b), r.game.payoffs_at(k).to_vec());
        }
    }

    /// Every extreme equilibrium of the reduced normal form of a general-sum tree, mapped to
    /// behaviour strategies, is an equilibrium of the tree (no player gains, exactly).
    #[test]
    fn reduced_normal_form_equilibria_are_tree_equilibria(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, false);
        let limits = Limits::default();
        let r = reduced::reduce(&t, &limits).unwrap();
        // Vertex enumeration is exponential: degenerate games of 40 x 48 strategies (which
        // random trees with small payoffs give) take minutes.
        // Few profiles can still mean many strategies (one player with one, the other with
        // 133): vertex enumeration takes at most 128 in all.
        prop_assume!(r.game.profiles() <= 150 && r.game.shape().iter().sum::<usize>() <= 128);
        let all = nimbus::api::nash::solve(
            &r.game,
            &nimbus::api::nash::Request { method: nimbus::api::nash::Method::Vertex, ..Default::default() },
            &limits,
        ).unwrap();
        prop_assert!(!all.equilibria.is_empty());
        let form = SequenceForm::new(&t).unwrap();
        for e in &all.equilibria {
            let b = r.behaviour(&t, &e.profile);
            prop_assert!(form.gains(&t, &b).iter().all(|g| g == &q("0")));
            prop_assert_eq!(form.payoffs(&t, &b), e.payoffs.clone());
        }
    }

    /// Each player's gain, computed for all players at once from shared plans, against the
    /// player's own best response less its payoff, on random trees of 1 to 4 players and
    /// random behaviour profiles.
    #[test]
    fn gains_agree_with_each_players_best_response(seed in any::<u64>(), players in 1usize..5) {
        let t = random_tree(seed, players, false, false);
        let form = SequenceForm::new(&t).unwrap();
        let b = random_behaviour(&t, seed.rotate_left(17), 0);
        let pay = form.payoffs(&t, &b);
        let gains = form.gains(&t, &b);
        for p in 0..players {
            let (best, _) = form.best_response(&t, p, &b);
            prop_assert_eq!(&gains[p], &(best - &pay[p]));
        }
    }

    /// The tracing procedure on the sequence form, from the centroid prior or a random
    /// completely mixed one, ends at an equilibrium that is perfect in the reduced normal form
    /// (von Stengel, van den Elzen and Talman's theorem), decided by the perfection LP on the
    /// reduced game.
    #[test]
    fn tracing_on_trees_is_normal_form_perfect(seed in any::<u64>(), centroid in any::<bool>()) {
        let t = random_tree(seed, 2, false, false);
        let limits = Limits::default();
        // The reduced normal form is built and solved by LPs here: small ones only.
        prop_assume!(small_reduced_form(&t));
        // A random prior with every action at least 1 in 5 of its set's weight.
        let prior = if centroid {
            tracing::centroid(&t)
        } else {
            random_behaviour(&t, seed, 1)
        };
        let end = tracing::trace(&t, &prior, &limits).unwrap();
        let form = SequenceForm::new(&t).unwrap();
        let b = form.profile_of(&t, [&end.plans[0], &end.plans[1]]);
        prop_assert!(form.gains(&t, &b).iter().all(|g| *g == Q::from_integer(0.into())));
        let r = reduced::reduce(&t, &limits).unwrap();
        let a = r.game.matrix(0);
        let bt = transposed(&r.game.matrix(1));
        let x = mixed_of(&r, &t, 0, &end.plans[0]);
        let y = mixed_of(&r, &t, 1, &end.plans[1]);
        prop_assert!(perfect::best_reply_to_completely_mixed(&a, &x, &limits).unwrap());
        prop_assert!(perfect::best_reply_to_completely_mixed(&bt, &y, &limits).unwrap());
    }

    /// Vertex enumeration of the sequence-form polyhedra against vertex enumeration of the
    /// reduced normal form, on random general-sum trees.
    #[test]
    fn sequence_form_enumeration_equals_reduced_normal_form(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, false);
        let r = reduced::reduce(&t, &Limits::default()).unwrap();
        // Few profiles can still mean many strategies (one player with one, the other with
        // 133): vertex enumeration takes at most 128 in all.
        prop_assume!(r.game.profiles() <= 150 && r.game.shape().iter().sum::<usize>() <= 128);
        compare_enumerations(&t, &r);
    }

    /// Subgame-perfect equilibria of imperfect-information trees, found by folding subgames:
    /// each profile is an equilibrium of every subgame (each cut out as a tree of its own and
    /// checked by exact best responses), the whole tree included.
    #[test]
    fn subgame_perfect_equilibria_by_folding(seed in any::<u64>(), players in 2usize..4) {
        let t = random_tree(seed, players, seed % 3 == 0, false);
        prop_assume!(!t.perfect_information());
        let limits = Limits::default();
        let answer = match nimbus::api::tree::solve(
            &t,
            &nimbus::api::tree::Request { method: nimbus::api::tree::Method::Spe, ..Default::default() },
            &limits,
        ) {
            Ok(a) => a,
            // Sequence-form enumeration past its limits on an unlucky tree: not this test's
            // concern.
            Err(nimbus::Error::StateLimit { .. }) => return Ok(()),
            Err(e) => panic!("{e}"),
        };
        if players == 2 {
            prop_assert!(!answer.equilibria.is_empty());
        }
        let order: Vec<usize> = (0..players).flat_map(|p| t.infosets_of(p)).collect();
        for e in &answer.equilibria {
            let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
            for (&h, probs) in order.iter().zip(&e.behaviour) {
                b[h] = probs.clone();
            }
            for r in t.subgame_roots() {
                let (sub, old_of) = t.truncated(r, &[]).unwrap();
                let sb: Vec<Vec<Q>> = old_of.iter().map(|&h| b[h].clone()).collect();
                let form = SequenceForm::new(&sub).unwrap();
                prop_assert!(
                    form.gains(&sub, &sb).iter().all(|g| g == &q("0")),
                    "not an equilibrium of the subgame at node {}", r
                );
            }
        }
    }

    /// The subgame roots against their definition, checked node by node: a non-terminal node
    /// whose subtree holds every node of each player's set that meets it.
    #[test]
    fn subgame_roots_match_their_definition(seed in any::<u64>(), players in 1usize..4) {
        let t = random_tree(seed, players, false, seed % 4 == 0);
        let mut slow = Vec::new();
        for v in 0..t.nodes.len() {
            if t.nodes[v].infoset.is_none() {
                continue;
            }
            let mut inside = vec![false; t.nodes.len()];
            let mut stack = vec![v];
            while let Some(u) = stack.pop() {
                inside[u] = true;
                stack.extend(&t.nodes[u].children);
            }
            let whole = t.infosets.iter().all(|h| {
                h.mover == Mover::Chance
                    || !h.nodes.iter().any(|&u| inside[u])
                    || h.nodes.iter().all(|&u| inside[u])
            });
            if whole {
                slow.push(v);
            }
        }
        prop_assert_eq!(t.subgame_roots(), slow);
    }

    /// Pure agent-form equilibria: no single set's action can be changed to its player's
    /// gain (checked here with the sequence form's exact payoffs), and every pure equilibrium
    /// of the reduced normal form is one of them.
    #[test]
    fn agent_form_pure_equilibria(seed in any::<u64>(), players in 2usize..4) {
        let t = random_tree(seed, players, false, false);
        let limits = Limits { max_work: 2_000_000, ..Limits::default() };
        let Ok(found) = agent::pure_equilibria(&t, &limits) else {
            return Ok(());
        };
        let form = SequenceForm::new(&t).unwrap();
        for b in &found {
            let base = form.payoffs(&t, b);
            for (h, set) in t.infosets.iter().enumerate() {
                let Mover::Player(p) = set.mover else { continue };
                for a in 0..set.actions.len() {
                    let mut other = b.clone();
                    other[h] = (0..set.actions.len())
                        .map(|x| Q::from_integer(i64::from(x == a).into()))
                        .collect();
                    prop_assert!(form.payoffs(&t, &other)[p] <= base[p]);
                }
            }
        }
        let r = reduced::reduce(&t, &Limits::default()).unwrap();
        let pure = nimbus::api::nash::solve(
            &r.game,
            &nimbus::api::nash::Request { method: nimbus::api::nash::Method::Pure, ..Default::default() },
            &Limits::default(),
        ).unwrap();
        for e in &pure.equilibria {
            let b = r.behaviour(&t, &e.profile);
            // Sets the player's own strategy avoids get the first action in both.
            prop_assert!(found.contains(&b), "a pure Nash equilibrium missing");
        }
    }

    /// A quasi-perfect equilibrium is sequential, so on a tree of perfect information with
    /// generic payoffs it is the one subgame-perfect equilibrium, at every information set,
    /// reached or not: what backward induction finds. (The normal-form perfect equilibrium
    /// the tracing procedure finds need not be: it may play anything where it is never
    /// reached.)
    #[test]
    fn quasi_perfect_is_backward_induction_under_perfect_information(seed in any::<u64>()) {
        let mut t = random_tree(seed, 2, false, true);
        // Payoffs made generic: each outcome's scaled up and given its own small offset.
        for (o, out) in t.outcomes.iter_mut().enumerate() {
            for (p, x) in out.payoffs.iter_mut().enumerate() {
                let offset = (o as u64 * 37 + p as u64 * 101 + seed % 997) % 1000;
                *x = &*x * Q::from_integer(1009.into()) + Q::from_integer((offset as i64).into());
            }
        }
        let limits = Limits::default();
        let bi = backward::solve(&t, &limits).unwrap();
        prop_assume!(bi.count == 1);
        let qp = quasi_perfect::solve(&t, &limits).unwrap();
        let spe = &bi.classes[0].2;
        for (h, set) in t.infosets.iter().enumerate() {
            if let Mover::Player(_) = set.mover {
                prop_assert_eq!(&qp.behaviour[h], &spe[h], "information set {}", h);
            }
        }
    }

    /// On random trees of imperfect information the quasi-perfect behaviour is an equilibrium
    /// (no player gains by a best response), every set's a distribution.
    #[test]
    fn quasi_perfect_is_an_equilibrium(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, false);
        let limits = Limits::default();
        let qp = quasi_perfect::solve(&t, &limits).unwrap();
        for b in &qp.behaviour {
            prop_assert_eq!(b.iter().sum::<Q>(), Q::from_integer(1.into()));
        }
        let form = SequenceForm::new(&t).unwrap();
        prop_assert!(form.gains(&t, &qp.behaviour).iter().all(|g| *g == Q::from_integer(0.into())));
    }

    /// Backward induction on perfect-information trees: every listed profile is an
    /// equilibrium; with two players and zero sum there is one payoff, the LP's value.
    #[test]
    fn backward_induction(seed in any::<u64>(), players in 2usize..4) {
        let zero = players == 2 && seed % 2 == 0;
        let t = random_tree(seed, players, zero, true);
        let limits = Limits::default();
        let bi = backward::solve(&t, &limits).unwrap();
        let form = SequenceForm::new(&t).unwrap();
        let total: u128 = bi.classes.iter().map(|c| c.1).sum();
        prop_assert_eq!(total, bi.count);
        for (pay, count, b) in &bi.classes {
            prop_assert!(*count > 0);
            prop_assert!(form.gains(&t, b).iter().all(|g| g == &q("0")));
            prop_assert_eq!(&form.payoffs(&t, b), pay);
            // Subgame perfection: at every node, in the subtree values, the mover's choice is
            // worth to them the best of the node's children.
            let values = t.node_values(b);
            prop_assert_eq!(&values[0], pay);
            for (v, node) in t.nodes.iter().enumerate() {
                let Some(h) = node.infoset else { continue };
                if let Mover::Player(p) = t.infosets[h].mover {
                    let best = node.children.iter().map(|&c| &values[c][p]).max().unwrap();
                    prop_assert_eq!(&values[v][p], best);
                }
            }
        }
        if zero {
            prop_assert_eq!(bi.classes.len(), 1);
            prop_assert_eq!(&bi.classes[0].0[0], &lp::solve(&t, &limits).unwrap().value);
        }
    }
}

/// Sequence-form enumeration against vertex enumeration of the reduced normal form, compared
/// as realisation plans: each equilibrium it finds is unexploitable and is (the plan of) an
/// extreme equilibrium of the reduced normal form, and every extreme equilibrium of the reduced
/// normal form is a mix of those it finds. (The reduced form's list can be longer: mixed
/// strategies that differ can have the same plan, and a mix of extreme strategies can be
/// realisation-equivalent to an extreme one of another.)
/// A random behaviour profile: each action of a player's set weighted `least` plus 0..=3
/// (xorshift from `seed`); a set whose weights are all zero plays its first action. Chance's
/// sets as the tree has them.
fn random_behaviour(t: &Tree, seed: u64, least: u64) -> Vec<Vec<Q>> {
    let mut state = seed | 1;
    t.infosets
        .iter()
        .map(|h| {
            if h.mover == Mover::Chance {
                return h.probs.clone();
            }
            let w: Vec<u64> = h
                .actions
                .iter()
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    least + state % 4
                })
                .collect();
            let total: u64 = w.iter().sum();
            w.iter()
                .enumerate()
                .map(|(a, &x)| match total {
                    0 => Q::from_integer(i64::from(a == 0).into()),
                    _ => Q::new((x as i64).into(), (total as i64).into()),
                })
                .collect()
        })
        .collect()
}

/// The library's mixture of reduced strategies for `plan`, checked to play exactly that plan
/// (its strategies' sequences, weighted, add up to it) before it is used.
fn mixed_of(r: &reduced::Reduced, t: &Tree, p: usize, plan: &[Q]) -> Vec<Q> {
    let mixed = r.mixed_of_plan(t, p, plan);
    let mut again = vec![Q::from_integer(0.into()); plan.len()];
    for (w, seqs) in mixed.iter().zip(&r.strategies[p]) {
        for &q in seqs {
            again[q] += w;
        }
    }
    assert_eq!(again, plan, "the mixture plays another plan");
    mixed
}

/// Whether both players of a two-player tree have at most 64 reduced strategies.
fn small_reduced_form(t: &Tree) -> bool {
    let form = SequenceForm::new(t).unwrap();
    (0..2).all(|p| reduced::count_strategies(&form, t, p) <= 64)
}

/// A matrix transposed (the second player's payoffs with their strategies as rows).
fn transposed(m: &[Vec<Q>]) -> Vec<Vec<Q>> {
    (0..m[0].len())
        .map(|j| m.iter().map(|row| row[j].clone()).collect())
        .collect()
}

fn compare_enumerations(t: &Tree, r: &reduced::Reduced) {
    let limits = Limits::default();
    let form = SequenceForm::new(t).unwrap();
    let plans_of = |b: &[Vec<Q>]| -> Vec<Q> {
        let mut v = form.plan(t, 0, b);
        v.extend(form.plan(t, 1, b));
        v
    };
    let all = nimbus::api::nash::solve(
        &r.game,
        &nimbus::api::nash::Request {
            method: nimbus::api::nash::Method::Vertex,
            ..Default::default()
        },
        &limits,
    )
    .unwrap();
    let images: Vec<Vec<Q>> = all
        .equilibria
        .iter()
        .map(|e| plans_of(&r.behaviour(t, &e.profile)))
        .collect();
    let sf = seqenum::enumerate(t, &limits).unwrap();
    assert!(!sf.plans.is_empty());
    let mut found = Vec::new();
    for [x, y] in &sf.plans {
        let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
        form.behaviour_of(t, 0, x, &mut b);
        form.behaviour_of(t, 1, y, &mut b);
        assert!(form.gains(t, &b).iter().all(|g| g == &q("0")));
        let joint = plans_of(&b);
        assert!(
            images.contains(&joint),
            "not an extreme equilibrium of the reduced form"
        );
        found.push(joint);
    }
    let refs: Vec<&Vec<Q>> = found.iter().collect();
    for image in &images {
        assert!(
            seqenum::in_hull(image, &refs).unwrap(),
            "an equilibrium outside the hull"
        );
    }
    // Lemke's algorithm on the sequence form ends at one of them.
    let l = lemke::solve(t, &limits).unwrap();
    let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
    form.behaviour_of(t, 0, &l.plans[0], &mut b);
    form.behaviour_of(t, 1, &l.plans[1], &mut b);
    assert!(form.gains(t, &b).iter().all(|g| g == &q("0")));
    assert!(
        found.contains(&plans_of(&b)),
        "Lemke's end is not an extreme equilibrium"
    );
    // So do the paths of other covering vectors.
    for k in 1..4 {
        let l = lemke::solve_covering(t, k, &limits, 0).unwrap();
        let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
        form.behaviour_of(t, 0, &l.plans[0], &mut b);
        form.behaviour_of(t, 1, &l.plans[1], &mut b);
        assert!(found.contains(&plans_of(&b)), "covering vector {k}");
    }
}

/// Every two-player tree of Gambit's whose reduced normal form has at most 256 profiles
/// (beyond, its degenerate games take the reduced-form enumeration minutes): sequence-form
/// enumeration against the reduced normal form's.
#[test]
fn sequence_form_enumeration_on_gambit_trees() {
    let mut files = Vec::new();
    efg_files(&data(), &mut files);
    let mut compared = 0;
    for f in &files {
        let t = efg::parse(
            &std::fs::read_to_string(f).unwrap(),
            &f.display().to_string(),
        )
        .unwrap();
        if t.players.len() != 2 || t.perfect_recall().is_err() {
            continue;
        }
        let Ok(r) = reduced::reduce(&t, &Limits::default()) else {
            continue;
        };
        if r.game.profiles() > 256 {
            continue;
        }
        compare_enumerations(&t, &r);
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} trees compared");
}

/// Leduc hold'em: the published sizes (337 sequences per player, 144 information sets each
/// when suits are not told apart) and value (about -0.0856 to the first player), exactly by the
/// sequence-form LP, with its strategies unexploitable.
#[test]
fn leduc_holdem() {
    let t = games::leduc();
    let form = SequenceForm::new(&t).unwrap();
    assert_eq!(form.players[0].count, 337);
    assert_eq!(form.players[1].count, 337);
    assert_eq!(t.infosets_of(0).len(), 144);
    let s = lp::solve(&t, &Limits::default()).unwrap();
    assert_eq!(nimbus::exact::show_decimal(&s.value, 4), "-0.0856");
    assert!(form.gains(&t, &s.behaviour).iter().all(|g| g == &q("0")));
    // Every parent's children are in action order (the builder's promise).
    for (v, node) in t.nodes.iter().enumerate() {
        if let Some((p, a)) = node.parent {
            assert_eq!(t.nodes[p].children[a], v);
        }
    }
    assert_eq!(efg::parse(&efg::write(&t), "leduc").unwrap(), t);
}

/// CFR+ and discounted CFR: the exploitability of the average strategy (computed exactly)
/// falls below 10^-3 on Kuhn poker and Leduc hold'em, and its value approaches the LP's.
#[test]
fn cfr_converges_on_kuhn_and_leduc() {
    use nimbus::extensive::solvers::cfr::{run, Options, Variant};
    for (tree, iterations) in [(games::kuhn(), 3000), (games::leduc(), 3000)] {
        let value = lp::solve(&tree, &Limits::default()).unwrap().value;
        for variant in [Variant::Plus, Variant::Discounted] {
            let r = run(
                &tree,
                &Options {
                    variant,
                    iterations,
                    target: Some(1e-3),
                    reports: 12,
                    ..Default::default()
                },
                &Limits::default(),
            )
            .unwrap();
            let e = nimbus::exact::show_decimal(&r.exploitability, 6);
            assert!(
                r.curve.last().unwrap().1 <= 1e-3,
                "{} {variant:?}: {e} after {}",
                tree.title,
                r.iterations
            );
            let form = SequenceForm::new(&tree).unwrap();
            let gains: Q = form.gains(&tree, &r.average).iter().sum();
            assert_eq!(gains, r.exploitability);
            // A profile whose exploitability is e is worth within e of the value.
            let d = &r.payoffs[0] - &value;
            let gap = if d < q("0") { -d } else { d };
            assert!(
                gap <= r.exploitability,
                "{}: payoff off by {}",
                tree.title,
                show(&gap)
            );
        }
    }
}

/// CFR with each pass shared among cores (the tree cut into subtrees, each with its own
/// regret sums, added after in a fixed order) gives the same numbers on one core and on two;
/// and, split or not, it converges alike. (Split and unsplit runs differ in rounding, and
/// CFR+'s floor at zero makes rounding matter: a regret of 1e-17 instead of 0 changes the
/// next strategy.)
#[test]
fn parallel_cfr_is_deterministic() {
    use nimbus::extensive::solvers::cfr::{run, Options};
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&k| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .unwrap()
        })
        .collect();
    for tree in [
        games::kuhn(),
        games::leduc(),
        random_tree(7, 3, false, false),
    ] {
        let options = |parallel_from| Options {
            iterations: 300,
            reports: 3,
            parallel_from,
            ..Default::default()
        };
        let runs: Vec<_> = pools
            .iter()
            .map(|p| p.install(|| run(&tree, &options(0), &Limits::default()).unwrap()))
            .collect();
        assert_eq!(runs[0].curve, runs[1].curve, "{}", tree.title);
        assert_eq!(runs[0].average, runs[1].average);
        if tree.players.len() == 2 {
            let unsplit = run(&tree, &options(usize::MAX), &Limits::default()).unwrap();
            let (a, b) = (
                runs[0].curve.last().unwrap().1,
                unsplit.curve.last().unwrap().1,
            );
            assert!(
                a <= 2.0 * b && b <= 2.0 * a,
                "{}: {a} against {b}",
                tree.title
            );
        }
    }
}

/// A CFR run stopped and resumed from its checkpoint ends where an unbroken run ends, to the
/// last bit; a checkpoint of another tree is refused.
#[test]
fn cfr_resumes_from_a_checkpoint() {
    use nimbus::extensive::solvers::cfr::{run, Options, Variant};
    let dir = std::env::temp_dir().join(format!("nimbus-cfr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for variant in [Variant::Plus, Variant::Discounted] {
        let file = dir.join(format!("{variant:?}.json"));
        let options =
            |iterations, checkpoint: Option<nimbus::extensive::solvers::cfr::CheckpointFile>| {
                Options {
                    variant,
                    iterations,
                    reports: 4,
                    checkpoint,
                    ..Default::default()
                }
            };
        let tree = games::leduc();
        let whole = run(&tree, &options(300, None), &Limits::default()).unwrap();
        run(
            &tree,
            &options(120, Some(at(&file, &tree))),
            &Limits::default(),
        )
        .unwrap();
        let resumed = run(
            &tree,
            &options(300, Some(at(&file, &tree))),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(resumed.iterations, 300);
        assert_eq!(resumed.average, whole.average);
        assert_eq!(resumed.exploitability, whole.exploitability);
        let kuhn = games::kuhn();
        let other = run(
            &kuhn,
            &options(10, Some(at(&file, &kuhn))),
            &Limits::default(),
        );
        assert!(other.unwrap_err().to_string().contains("another tree"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// External-sampling MCCFR: on Kuhn poker and Leduc hold'em the exploitability falls (about
/// as one over the square root of the iterations, as the sampling's theory says), the same
/// seed gives the same run, and a run resumed from a checkpoint samples as an unbroken one.
#[test]
fn external_sampling_converges_and_repeats() {
    use nimbus::extensive::solvers::cfr::{run, Options};
    let dir = std::env::temp_dir().join(format!("nimbus-mccfr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (tree, iterations, bound) in [
        (games::kuhn(), 200_000, 0.02),
        (games::leduc(), 300_000, 0.15),
    ] {
        let options =
            |iterations,
             seed,
             checkpoint: Option<nimbus::extensive::solvers::cfr::CheckpointFile>| {
                Options {
                    iterations,
                    reports: 3,
                    sampling: true,
                    seed,
                    checkpoint,
                    ..Default::default()
                }
            };
        let a = run(&tree, &options(iterations, 7, None), &Limits::default()).unwrap();
        let e = a.curve.last().unwrap().1;
        assert!(e < bound, "{}: {e}", tree.title);
        assert!(a.curve[0].1 > 4.0 * e, "{}: {:?}", tree.title, a.curve);
        let b = run(&tree, &options(iterations, 7, None), &Limits::default()).unwrap();
        assert_eq!(a.average, b.average);
        let file = dir.join("state.json");
        run(
            &tree,
            &options(iterations / 3, 7, Some(at(&file, &tree))),
            &Limits::default(),
        )
        .unwrap();
        let c = run(
            &tree,
            &options(iterations, 7, Some(at(&file, &tree))),
            &Limits::default(),
        )
        .unwrap();
        std::fs::remove_file(&file).unwrap();
        assert_eq!(a.average, c.average);
        let d = run(&tree, &options(iterations, 8, None), &Limits::default()).unwrap();
        assert_ne!(a.average, d.average);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

proptest! {
    // Random trees are degenerate (ties everywhere), so their reduced forms have continua of
    // equilibria, each explored to the width limit: a few cases, small forms.
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Three-player trees: every equilibrium of the reduced normal form (enumpoly, the
    /// default), each an equilibrium of the tree (checked by exact best responses), and every
    /// pure equilibrium of the reduced form among them.
    #[test]
    fn three_player_trees_get_every_equilibrium(seed in any::<u64>()) {
        let t = random_tree(seed, 3, false, false);
        prop_assume!(!t.perfect_information());
        let r = reduced::reduce(&t, &Limits::default()).unwrap();
        prop_assume!(r.game.profiles() <= 32);
        let limits = Limits::default();
        let answer = nimbus::api::tree::solve(&t, &Default::default(), &limits).unwrap();
        prop_assert_eq!(answer.method, nimbus::api::tree::Method::Enumpoly);
        let order: Vec<usize> = (0..3).flat_map(|p| t.infosets_of(p)).collect();
        let form = SequenceForm::new(&t).unwrap();
        let mut found = Vec::new();
        for e in &answer.equilibria {
            let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
            for (&h, probs) in order.iter().zip(&e.behaviour) {
                b[h] = probs.clone();
            }
            prop_assert!(form.gains(&t, &b).iter().all(|g| g == &q("0")));
            found.push(b);
        }
        let pure = nimbus::api::nash::solve(
            &r.game,
            &nimbus::api::nash::Request { method: nimbus::api::nash::Method::Pure, ..Default::default() },
            &limits,
        ).unwrap();
        for e in &pure.equilibria {
            let b = r.behaviour(&t, &e.profile);
            prop_assert!(found.contains(&b), "a pure equilibrium of the reduced form is missing");
        }
    }
}

/// Degenerate three-player trees whose reduced forms have continua of equilibria. The
/// enumeration shares a large support's boxes among the cores; a continuum shows only in
/// boxes at the narrowest width, so the pieces must dive before they hand boxes back, and a
/// round must take only a few of the waiting boxes, or the waiting boxes multiply breadth
/// first (these games took a minute and 600 MB, and 140 s and 9 million boxes, on two cores;
/// a second and four on one). The boxes examined on two cores stay near those on one, and
/// the equilibria and unresolved regions found are as many.
#[test]
fn a_continuum_is_not_explored_breadth_first_on_two_cores() {
    use nimbus::strategic::solvers::enumpoly::{enumerate, Options};
    for seed in [4898737113616661774, 1364764438490253978] {
        let t = random_tree(seed, 3, false, false);
        let r = reduced::reduce(&t, &Limits::default()).unwrap();
        let boxes = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let report = pool.install(|| enumerate(&r.game, &Options::default()).unwrap());
            (report.boxes, report.exact.len(), report.unresolved.len())
        };
        let (one, two) = (boxes(1), boxes(2));
        assert!(
            one.2 > 0,
            "the game should have unresolved continua: {one:?}"
        );
        assert!(two.0 <= 3 * one.0, "{one:?} on one thread, {two:?} on two");
        assert_eq!((one.1, one.2), (two.1, two.2));
    }
}

proptest! {
    // A third of the random-tree cases: each enumerates the equilibria, reduces the tree and
    // solves two LPs an equilibrium.
    #![proptest_config(ProptestConfig::with_cases(tree_cases() / 3))]

    /// The API's normal-form perfection marks on a tree's extreme equilibria against the
    /// perfection LP on this file's own decomposition of each plan into reduced strategies;
    /// and the tracing procedure's end, from the centroid, always marked perfect.
    #[test]
    fn perfect_marks_on_trees(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, false);
        let limits = Limits::default();
        // The reduced normal form is built and solved by LPs here: small ones only.
        prop_assume!(small_reduced_form(&t));
        let ask = |method| nimbus::api::tree::Request {
            method,
            refine: vec![nimbus::api::nash::Refinement::Perfect],
            ..Default::default()
        };
        // Trees with hundreds of extreme equilibria (four LPs each here) are left out.
        let plain = nimbus::api::tree::Request {
            method: nimbus::api::tree::Method::Enum,
            ..Default::default()
        };
        let count = nimbus::api::tree::solve(&t, &plain, &limits).unwrap().equilibria.len();
        prop_assume!(count <= 100);
        let e = nimbus::api::tree::solve(&t, &ask(nimbus::api::tree::Method::Enum), &limits).unwrap();
        let marks = e.perfect.clone().unwrap();
        prop_assert_eq!(marks.len(), e.equilibria.len());
        let form = SequenceForm::new(&t).unwrap();
        let r = reduced::reduce(&t, &limits).unwrap();
        let a = r.game.matrix(0);
        let bt = transposed(&r.game.matrix(1));
        let sets: Vec<usize> = (0..2).flat_map(|p| t.infosets_of(p)).collect();
        for (eq, &mark) in e.equilibria.iter().zip(&marks) {
            let mut b: Vec<Vec<Q>> = t.infosets.iter().map(|h| h.probs.clone()).collect();
            for (k, &h) in sets.iter().enumerate() {
                b[h] = eq.behaviour[k].clone();
            }
            let x = mixed_of(&r, &t, 0, &form.plan(&t, 0, &b));
            let y = mixed_of(&r, &t, 1, &form.plan(&t, 1, &b));
            let direct = perfect::best_reply_to_completely_mixed(&a, &x, &limits).unwrap()
                && perfect::best_reply_to_completely_mixed(&bt, &y, &limits).unwrap();
            prop_assert_eq!(mark, direct);
        }
        let traced =
            nimbus::api::tree::solve(&t, &ask(nimbus::api::tree::Method::Tracing), &limits).unwrap();
        prop_assert_eq!(traced.perfect, Some(vec![true]));
    }
}
