//! Sequential equilibria of two-player trees: the decision against textbook cases (beliefs
//! tied by consistency, beliefs forced by a player's own moves where they never lead, an
//! incredible threat), against subgame perfection under perfect information, against
//! quasi-perfect equilibria (always sequential), and against a search over explicit trembles
//! on random trees.

use nimbus::api::Limits;
use nimbus::exact::Q;
use nimbus::extensive::seqform::SequenceForm;
use nimbus::extensive::solvers::sequential::{decide, Verdict};
use nimbus::extensive::solvers::{quasi_perfect, seqenum};
use nimbus::extensive::{Builder, Mover, Tree};
use nimbus::formats::efg;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

mod trees;
use trees::{random_tree, xorshift};

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn example(name: &str) -> Tree {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    efg::parse(&std::fs::read_to_string(&path).unwrap(), &path).unwrap()
}

/// The profile that plays, at each player's set, the action named (chance as the tree has it).
fn pure(tree: &Tree, choices: &[(&str, &str)]) -> Vec<Vec<Q>> {
    tree.infosets
        .iter()
        .map(|h| {
            if h.mover == Mover::Chance {
                return h.probs.clone();
            }
            let key = if h.name.is_empty() {
                h.number.to_string()
            } else {
                h.name.clone()
            };
            let player = match h.mover {
                Mover::Player(p) => p,
                Mover::Chance => unreachable!(),
            };
            let (_, action) = choices
                .iter()
                .find(|(set, _)| *set == format!("{player}:{key}"))
                .unwrap_or_else(|| panic!("no choice for {player}:{key}"));
            h.actions
                .iter()
                .map(|a| if a == action { Q::one() } else { Q::zero() })
                .collect()
        })
        .collect()
}

/// Each player's continuation values at every node under the profile (a backward pass of the
/// test's own).
fn values(tree: &Tree, b: &[Vec<Q>]) -> Vec<Vec<Q>> {
    let n = tree.players.len();
    let mut own: Vec<Vec<Q>> = tree
        .nodes
        .iter()
        .map(|v| match v.outcome {
            Some(o) => tree.outcomes[o].payoffs.clone(),
            None => vec![Q::zero(); n],
        })
        .collect();
    for v in (0..tree.nodes.len()).rev() {
        let Some(h) = tree.nodes[v].infoset else {
            continue;
        };
        let mut sum = own[v].clone();
        for (a, &c) in tree.nodes[v].children.iter().enumerate() {
            for p in 0..n {
                sum[p] += &b[h][a] * &own[c][p];
            }
        }
        own[v] = sum;
    }
    own
}

/// Whether the moves at set `h` are best replies under `belief` (one probability a node).
fn rational_at(tree: &Tree, b: &[Vec<Q>], val: &[Vec<Q>], h: usize, belief: &[Q]) -> bool {
    let set = &tree.infosets[h];
    let Mover::Player(p) = set.mover else {
        return true;
    };
    let worth: Vec<Q> = (0..set.actions.len())
        .map(|a| {
            set.nodes
                .iter()
                .zip(belief)
                .map(|(&v, m)| m * &val[tree.nodes[v].children[a]][p])
                .sum()
        })
        .collect();
    let best = worth.iter().max().unwrap();
    (0..worth.len()).all(|a| b[h][a].is_zero() || worth[a] == *best)
}

fn beliefs(v: Verdict) -> Vec<Vec<Q>> {
    match v {
        Verdict::Sequential { beliefs, .. } => beliefs,
        Verdict::NotSequential { infoset } => panic!("not sequential at set {infoset}"),
    }
}

fn set(tree: &Tree, name: &str) -> usize {
    tree.infosets.iter().position(|h| h.name == name).unwrap()
}

/// examples/consistency.efg: Bob's two sets hold an L node and an R node each, so trembles
/// give them the same beliefs. (Out; a, x) needs L at least 2/3 likely at the first and at
/// most 1/2 at the second: best replies under some beliefs at each set, but not under any
/// consistent ones.
#[test]
fn consistency_ties_the_beliefs_of_two_sets() {
    let t = example("consistency.efg");
    let limits = Limits::default();
    let (first, second) = (set(&t, "first"), set(&t, "second"));
    let profile = |a: &str, x: &str| pure(&t, &[("0:1", "Out"), ("1:first", a), ("1:second", x)]);
    let ax = profile("a", "x");
    // Each set alone has beliefs that justify its move: a weak perfect Bayesian equilibrium.
    let val = values(&t, &ax);
    assert!(rational_at(&t, &ax, &val, first, &[q(1, 1), q(0, 1)]));
    assert!(rational_at(&t, &ax, &val, second, &[q(0, 1), q(1, 1)]));
    assert!(matches!(
        decide(&t, &ax, &limits).unwrap(),
        Verdict::NotSequential { .. }
    ));
    // The other three pure profiles are sequential, each with one belief in its interval.
    for (a, x, low, high) in [
        ("a", "y", q(3, 5), q(1, 1)),
        ("b", "x", q(0, 1), q(1, 2)),
        ("b", "y", q(1, 2), q(3, 5)),
    ] {
        let b = profile(a, x);
        let mu = beliefs(decide(&t, &b, &limits).unwrap());
        assert_eq!(mu[first], mu[second], "{a} {x}");
        let l = &mu[first][0];
        assert!(*l >= low && *l <= high, "{a} {x}: {l}");
        let val = values(&t, &b);
        for h in [first, second] {
            assert!(rational_at(&t, &b, &val, h, &mu[h]));
        }
    }
}

/// A tree where Ann's own move at a set she never reaches fixes Bob's beliefs: after In, Ann
/// picks L or R, then Bob, not seeing which, picks u (good after L) or d (good after R).
fn forced() -> Tree {
    let mut b = Builder::new("forced", &["Ann", "Bob"]);
    let start = b.infoset(Mover::Player(0), "start", &["Out", "In"], vec![]);
    let side = b.infoset(Mover::Player(0), "side", &["L", "R"], vec![]);
    let guess = b.infoset(Mover::Player(1), "guess", &["u", "d"], vec![]);
    let pay = |x: i64, y: i64| Some(vec![q(x, 1), q(y, 1)]);
    let root = b.node(None, Some(start), None);
    b.node(Some((root, 0)), None, pay(3, 0));
    let s = b.node(Some((root, 1)), Some(side), None);
    for (a, (u, d)) in [(1, 0), (0, 1)].into_iter().enumerate() {
        let g = b.node(Some((s, a)), Some(guess), None);
        b.node(Some((g, 0)), None, pay(0, u));
        b.node(Some((g, 1)), None, pay(0, d));
    }
    b.finish().unwrap()
}

#[test]
fn own_moves_where_they_never_lead_fix_the_beliefs() {
    let t = forced();
    let limits = Limits::default();
    let with = |side: Vec<Q>, guess: &str| {
        let mut b = pure(
            &t,
            &[("0:start", "Out"), ("0:side", "L"), ("1:guess", guess)],
        );
        b[set(&t, "side")] = side;
        b
    };
    let l = vec![q(1, 1), q(0, 1)];
    let r = vec![q(0, 1), q(1, 1)];
    let half = vec![q(1, 2), q(1, 2)];
    let guess = set(&t, "guess");
    // Ann would play L: Bob must believe L, where d is worse.
    assert_eq!(
        decide(&t, &with(l.clone(), "d"), &limits).unwrap(),
        Verdict::NotSequential { infoset: guess }
    );
    assert_eq!(
        beliefs(decide(&t, &with(l, "u"), &limits).unwrap())[guess],
        vec![q(1, 1), q(0, 1)]
    );
    assert_eq!(
        beliefs(decide(&t, &with(r, "d"), &limits).unwrap())[guess],
        vec![q(0, 1), q(1, 1)]
    );
    for g in ["u", "d"] {
        assert_eq!(
            beliefs(decide(&t, &with(half.clone(), g), &limits).unwrap())[guess],
            half
        );
    }
}

/// The entry game: (Out, Fight) is a Nash equilibrium on an incredible threat.
#[test]
fn an_incredible_threat_is_not_sequential() {
    let t = example("entry.efg");
    let limits = Limits::default();
    let out_fight = pure(&t, &[("0:1", "Out"), ("1:1", "Fight")]);
    assert!(matches!(
        decide(&t, &out_fight, &limits).unwrap(),
        Verdict::NotSequential { .. }
    ));
    let in_acc = pure(&t, &[("0:1", "In"), ("1:1", "Accommodate")]);
    assert!(matches!(
        decide(&t, &in_acc, &limits).unwrap(),
        Verdict::Sequential { .. }
    ));
}

/// A random profile of a tree: at each player's set a pure action or an even mixture of two.
fn random_profile(tree: &Tree, seed: u64) -> Vec<Vec<Q>> {
    let mut rng = xorshift(seed);
    tree.infosets
        .iter()
        .map(|h| {
            if h.mover == Mover::Chance {
                return h.probs.clone();
            }
            let k = h.actions.len() as u64;
            let a = rng(k) as usize;
            let mut p = vec![Q::zero(); h.actions.len()];
            if rng(3) == 0 {
                let b = (a + 1 + rng(k - 1) as usize) % h.actions.len();
                p[a] = q(1, 2);
                p[b] = q(1, 2);
            } else {
                p[a] = Q::one();
            }
            p
        })
        .collect()
}

/// The beliefs at set `h` in the limit of trembles that take each action `(g, a)` for which
/// `tremble` gives `(r, c)` about `c·εʳ` often (every player's, the believer's own included),
/// the others as the profile does: each node's leading term, order and coefficient, taken
/// along its path, the nodes of the lowest order sharing the belief. `None` when chance never
/// leads to the set.
fn limit_beliefs(
    tree: &Tree,
    b: &[Vec<Q>],
    tremble: &dyn Fn(usize, usize) -> Option<(usize, Q)>,
    h: usize,
) -> Option<Vec<Q>> {
    let lead: Vec<(usize, Q)> = tree.infosets[h]
        .nodes
        .iter()
        .map(|&v| {
            let (mut order, mut coef) = (0, Q::one());
            let mut at = v;
            while let Some((p, a)) = tree.nodes[at].parent {
                let g = tree.nodes[p].infoset.unwrap();
                match (tree.infosets[g].mover, tremble(g, a)) {
                    (Mover::Chance, _) => coef *= &tree.infosets[g].probs[a],
                    (Mover::Player(_), Some((r, c))) if b[g][a].is_zero() => {
                        order += r;
                        coef *= c;
                    }
                    (Mover::Player(_), _) => coef *= &b[g][a],
                }
                at = p;
            }
            (order, coef)
        })
        .collect();
    let low = lead
        .iter()
        .filter(|(_, c)| c.is_positive())
        .map(|(o, _)| *o)
        .min()?;
    let w: Vec<Q> = lead
        .iter()
        .map(|(o, c)| if *o == low { c.clone() } else { Q::zero() })
        .collect();
    let sum: Q = w.iter().sum();
    Some(w.iter().map(|x| x / &sum).collect())
}

/// Checks a sequential verdict independently: its trembles, followed along every path, give
/// its beliefs (so they are consistent), and its beliefs make every move a best reply.
fn check_witness(tree: &Tree, b: &[Vec<Q>], verdict: &Verdict) -> Result<(), TestCaseError> {
    let Verdict::Sequential { beliefs, trembles } = verdict else {
        return Ok(());
    };
    let val = values(tree, b);
    let tremble = |g: usize, a: usize| trembles[g][a].clone();
    for (h, set) in tree.infosets.iter().enumerate() {
        if set.mover == Mover::Chance {
            continue;
        }
        if let Some(limit) = limit_beliefs(tree, b, &tremble, h) {
            prop_assert_eq!(&limit, &beliefs[h], "set {}", h);
        }
        prop_assert!(rational_at(tree, b, &val, h, &beliefs[h]), "set {}", h);
    }
    Ok(())
}

/// The trembles tried by [`tremble_search`]: orders 1 and 2, weights 1, 2 and 3.
const ORDERS: [u32; 2] = [1, 2];
const WEIGHTS: [i64; 3] = [1, 2, 3];

/// Whether explicit trembles of `trembler` (each action the profile never plays taken
/// `c·ε^r` often, `r` and `c` from a small grid) give the other player beliefs under which
/// every move of theirs is a best reply: the limit beliefs computed node by node from the
/// trembles' leading terms along each path. A `true` here is a consistent, sequentially
/// rational half of an assessment; a `false` only says the grid holds none. `None` when the
/// grid would be too large.
fn tremble_search(tree: &Tree, b: &[Vec<Q>], trembler: usize) -> Option<bool> {
    let believer = 1 - trembler;
    let zeros: Vec<(usize, usize)> = tree
        .infosets
        .iter()
        .enumerate()
        .filter(|(_, h)| h.mover == Mover::Player(trembler))
        .flat_map(|(g, h)| {
            (0..h.actions.len())
                .filter(move |&a| b[g][a].is_zero())
                .map(move |a| (g, a))
        })
        // Only the trembles on a path to one of the believer's nodes matter.
        .filter(|&(g, a)| {
            tree.nodes.iter().enumerate().any(|(v, node)| {
                node.infoset
                    .is_some_and(|h| tree.infosets[h].mover == Mover::Player(believer))
                    && {
                        let mut at = v;
                        let mut on = false;
                        while let Some((p, x)) = tree.nodes[at].parent {
                            on |= tree.nodes[p].infoset == Some(g) && x == a;
                            at = p;
                        }
                        on
                    }
            })
        })
        .collect();
    let options = ORDERS.len() * WEIGHTS.len();
    if zeros.len() > 5 {
        return None;
    }
    let val = values(tree, b);
    let sets: Vec<usize> = (0..tree.infosets.len())
        .filter(|&h| tree.infosets[h].mover == Mover::Player(believer))
        .collect();
    let total = options.pow(zeros.len() as u32);
    'grid: for code in 0..total {
        let mut c = code;
        let mut pick = Vec::with_capacity(zeros.len());
        for _ in &zeros {
            pick.push((
                ORDERS[c % options / WEIGHTS.len()],
                WEIGHTS[c % WEIGHTS.len()],
            ));
            c /= options;
        }
        // The believer's own trembles (and the trembler's off every path to the believer)
        // weigh alike on all nodes of a set: any will do.
        let tremble = |g: usize, a: usize| {
            Some(match zeros.iter().position(|&x| x == (g, a)) {
                Some(z) => (pick[z].0 as usize, q(pick[z].1, 1)),
                None => (1, Q::one()),
            })
        };
        for &h in &sets {
            let belief = limit_beliefs(tree, b, &tremble, h)?;
            if !rational_at(tree, b, &val, h, &belief) {
                continue 'grid;
            }
        }
        return Some(true);
    }
    Some(false)
}

fn cases() -> u32 {
    if std::env::var_os("NIMBUS_FULL_TESTS").is_some() {
        300
    } else {
        60
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// Under perfect information beliefs are trivial: a profile is sequential exactly when
    /// every move it makes, at every node, is a best reply to what follows (subgame
    /// perfection).
    #[test]
    fn under_perfect_information_sequential_is_subgame_perfect(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, true);
        let b = random_profile(&t, seed.rotate_left(17));
        let val = values(&t, &b);
        let perfect = (0..t.infosets.len())
            .all(|h| rational_at(&t, &b, &val, h, &[Q::one()]));
        let verdict = decide(&t, &b, &Limits::default()).unwrap();
        prop_assert_eq!(matches!(verdict, Verdict::Sequential { .. }), perfect);
        check_witness(&t, &b, &verdict)?;
    }

    /// The quasi-perfect equilibrium is sequential, and its beliefs justify every move.
    #[test]
    fn quasi_perfect_equilibria_are_sequential(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, false);
        let limits = Limits::default();
        let qp = quasi_perfect::solve(&t, &limits).unwrap();
        let verdict = decide(&t, &qp.behaviour, &limits).unwrap();
        prop_assert!(matches!(verdict, Verdict::Sequential { .. }), "{:?}", verdict);
        check_witness(&t, &qp.behaviour, &verdict)?;
    }

    /// On random trees, the extreme equilibria (their moves where their own player never
    /// leads as the enumeration fills them in, and then changed at random): whenever explicit
    /// trembles from a grid justify a profile, the decision finds it sequential; whenever the
    /// decision finds a profile sequential, its beliefs justify every move.
    #[test]
    fn the_decision_agrees_with_explicit_trembles(seed in any::<u64>()) {
        let t = random_tree(seed, 2, false, false);
        let limits = Limits::default();
        let form = SequenceForm::new(&t).unwrap();
        // Trees whose enumeration is long are left out: the decision is what is tested.
        let small = Limits { max_work: 10_000_000, ..Limits::default() };
        let e = seqenum::enumerate(&t, &small);
        prop_assume!(e.is_ok());
        let e = e.unwrap();
        let mut profiles: Vec<Vec<Vec<Q>>> = e
            .plans
            .iter()
            .take(4)
            .map(|[x, y]| form.profile_of(&t, [x, y]))
            .collect();
        // The same plans with other moves where a player's own moves never lead.
        let changed: Vec<Vec<Vec<Q>>> = profiles
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let r = random_profile(&t, seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9));
                let mut out = p.clone();
                for (player, s) in form.players.iter().enumerate() {
                    let plan = form.plan(&t, player, p);
                    for (i, &h) in s.infosets.iter().enumerate() {
                        if plan[s.parent[i]].is_zero() {
                            out[h] = r[h].clone();
                        }
                    }
                }
                out
            })
            .filter(|c| !profiles.contains(c))
            .collect();
        profiles.extend(changed);
        for b in &profiles {
            let verdict = decide(&t, b, &limits).unwrap();
            let search: Option<Vec<bool>> = (0..2).map(|p| tremble_search(&t, b, p)).collect();
            match (&verdict, search) {
                (Verdict::Sequential { .. }, _) => check_witness(&t, b, &verdict)?,
                (Verdict::NotSequential { .. }, Some(found)) => {
                    prop_assert!(!found.iter().all(|x| *x), "trembles justify {:?}", b);
                }
                (Verdict::NotSequential { .. }, None) => {}
            }
        }
    }
}

/// The labels of a set's nodes, long paths shortened to their first and last actions: Ann picks L or R,
/// then moves 20 times more (each set of hers has one node), then Bob guesses which.
#[test]
fn node_labels_show_the_last_actions_of_long_paths() {
    use nimbus::api::{nash::Refinement, tree};
    let mut b = Builder::new("long", &["Ann", "Bob"]);
    let start = b.infoset(Mover::Player(0), "start", &["L", "R"], vec![]);
    let guess = b.infoset(Mover::Player(1), "guess", &["l", "r"], vec![]);
    let root = b.node(None, Some(start), None);
    for side in 0..2 {
        let mut at = (root, side);
        for k in 0..20 {
            let name = format!("s{side}-{k}");
            let h = b.infoset(Mover::Player(0), &name, &[&format!("m{k}")], vec![]);
            let v = b.node(Some(at), Some(h), None);
            at = (v, 0);
        }
        let g = b.node(Some(at), Some(guess), None);
        for a in 0..2 {
            let win = i64::from(a == side);
            b.node(Some((g, a)), None, Some(vec![q(0, 1), q(win, 1)]));
        }
    }
    let t = b.finish().unwrap();
    let req = tree::Request {
        method: tree::Method::QuasiPerfect,
        refine: vec![Refinement::Sequential],
        ..Default::default()
    };
    let a = tree::solve(&t, &req, &Limits::default()).unwrap();
    let info = a.infosets.iter().find(|i| i.name == "guess").unwrap();
    let labels = info.node_labels.as_ref().unwrap();
    assert_eq!(labels[0], "L m0 m1 m2 m3 m4 … m14 m15 m16 m17 m18 m19");
    assert_eq!(labels[1], "R m0 m1 m2 m3 m4 … m14 m15 m16 m17 m18 m19");
    // Without the refinement, no labels.
    let plain = tree::solve(&t, &tree::Request::default(), &Limits::default()).unwrap();
    assert!(plain.infosets.iter().all(|i| i.node_labels.is_none()));
}

/// Where the enumeration fills in a move its player never reaches (Ann's side after Out) and
/// the profile fails there, the answer says another choice might not; where nothing was
/// filled in (examples/consistency.efg), it does not.
#[test]
fn the_note_on_filled_moves_comes_when_they_are_there() {
    use nimbus::api::{nash::Refinement, tree};
    let req = tree::Request {
        method: tree::Method::Enum,
        refine: vec![Refinement::Sequential],
        ..Default::default()
    };
    let filled = "another choice there may be sequential";
    let a = tree::solve(&forced(), &req, &Limits::default()).unwrap();
    let marks = a.sequential.clone().unwrap();
    assert!(marks.contains(&false), "{marks:?}");
    assert!(a.notes.iter().any(|n| n.contains(filled)), "{:?}", a.notes);
    let b = tree::solve(&example("consistency.efg"), &req, &Limits::default()).unwrap();
    assert_eq!(b.sequential, Some(vec![false, true, true]));
    assert!(!b.notes.iter().any(|n| n.contains(filled)), "{:?}", b.notes);
}
