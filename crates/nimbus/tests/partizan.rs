//! The partizan engine against the definitions: random games compared by the recursive rule
//! on their unreduced trees, rulesets against brute-force game trees, Hackenbush against the
//! sign-expansion rule and Green Hackenbush against mex, and published values.

use nimbus::core::budget::Limits;
use nimbus::partizan::atomic::atomic_weight;
use nimbus::partizan::dyadic::Dyadic;
use nimbus::partizan::engine::value_of;
use nimbus::partizan::form::{Forms, Id, ZERO};
use nimbus::partizan::games::amazons::Amazons;
use nimbus::partizan::games::clobber::Clobber;
use nimbus::partizan::games::colouring::{Colouring, Kind};
use nimbus::partizan::games::cutcake::Cutcake;
use nimbus::partizan::games::domineering::Domineering;
use nimbus::partizan::games::hackenbush::Hackenbush;
use nimbus::partizan::games::toads::ToadsAndFrogs;
use nimbus::partizan::reduced::reduced;
use nimbus::partizan::show::show;
use nimbus::partizan::thermograph::Thermographs;
use nimbus::partizan::Ruleset;
use proptest::prelude::*;
use std::collections::HashMap;
use std::rc::Rc;

/// A game as a plain tree of options, never reduced.
#[derive(Debug)]
struct Tree {
    left: Vec<Rc<Tree>>,
    right: Vec<Rc<Tree>>,
}

type T = Rc<Tree>;

/// `a <= b` by the definition: no a^L >= b and no b^R <= a (memoised on the trees' addresses).
fn le(a: &T, b: &T, memo: &mut HashMap<(usize, usize), bool>) -> bool {
    let key = (Rc::as_ptr(a) as usize, Rc::as_ptr(b) as usize);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let v = !a.left.iter().any(|al| le(b, al, memo)) && !b.right.iter().any(|br| le(br, a, memo));
    memo.insert(key, v);
    v
}

fn equal(a: &T, b: &T) -> bool {
    let mut memo = HashMap::new();
    le(a, b, &mut memo) && le(b, a, &mut memo)
}

/// The tree of a stored form.
fn tree_of(forms: &Forms, g: Id, made: &mut HashMap<Id, T>) -> T {
    if let Some(t) = made.get(&g) {
        return t.clone();
    }
    let left = forms
        .left(g)
        .iter()
        .map(|&o| tree_of(forms, o, made))
        .collect();
    let right = forms
        .right(g)
        .iter()
        .map(|&o| tree_of(forms, o, made))
        .collect();
    let t = Rc::new(Tree { left, right });
    made.insert(g, t.clone());
    t
}

/// The canonical form of a tree, built bottom-up.
fn form_of(forms: &mut Forms, t: &T) -> Id {
    let l: Vec<Id> = t.left.iter().map(|o| form_of(forms, o)).collect();
    let r: Vec<Id> = t.right.iter().map(|o| form_of(forms, o)).collect();
    forms.canonical(&l, &r).unwrap()
}

/// The sum of two trees, by the definition.
fn tree_sum(a: &T, b: &T) -> T {
    let mut left: Vec<T> = a.left.iter().map(|x| tree_sum(x, b)).collect();
    left.extend(b.left.iter().map(|y| tree_sum(a, y)));
    let mut right: Vec<T> = a.right.iter().map(|x| tree_sum(x, b)).collect();
    right.extend(b.right.iter().map(|y| tree_sum(a, y)));
    Rc::new(Tree { left, right })
}

/// Random games born by day `days`, as trees.
fn games(days: u32) -> impl Strategy<Value = T> {
    let leaf = Just(Rc::new(Tree {
        left: vec![],
        right: vec![],
    }));
    leaf.prop_recursive(days, 64, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 0..3),
            prop::collection::vec(inner, 0..3),
        )
            .prop_map(|(left, right)| Rc::new(Tree { left, right }))
    })
}

/// Random all-small games born by day `days`: every subposition has moves for both sides or
/// for neither.
fn all_small(days: u32) -> impl Strategy<Value = T> {
    let leaf = Just(Rc::new(Tree {
        left: vec![],
        right: vec![],
    }));
    leaf.prop_recursive(days, 64, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 1..3),
            prop::collection::vec(inner, 1..3),
        )
            .prop_map(|(left, right)| Rc::new(Tree { left, right }))
    })
}

fn cases() -> u32 {
    if std::env::var_os("NIMBUS_FULL_TESTS").is_some() {
        2000
    } else {
        200
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The canonical form is equal to the game by the definition, and two games are equal
    /// exactly when their canonical forms are the same form.
    #[test]
    fn canonical_forms_are_equal_and_unique(a in games(4), b in games(4)) {
        let mut forms = Forms::default();
        let (ga, gb) = (form_of(&mut forms, &a), form_of(&mut forms, &b));
        let mut made = HashMap::new();
        let (ta, tb) = (tree_of(&forms, ga, &mut made), tree_of(&forms, gb, &mut made));
        prop_assert!(equal(&a, &ta));
        prop_assert!(equal(&b, &tb));
        prop_assert_eq!(equal(&a, &b), ga == gb);
        // The comparison agrees with the definition.
        let mut memo = HashMap::new();
        prop_assert_eq!(forms.le(ga, gb).unwrap(), le(&a, &b, &mut memo));
        prop_assert_eq!(forms.le(gb, ga).unwrap(), le(&b, &a, &mut memo));
    }

    /// A value as it is written reads back as the same value, whatever its shape.
    #[test]
    fn values_read_back_as_they_are_written(a in games(4), b in games(3)) {
        let mut forms = Forms::default();
        let (ga, gb) = (form_of(&mut forms, &a), form_of(&mut forms, &b));
        for g in [ga, gb, forms.add(ga, gb).unwrap()] {
            let text = show(&mut forms, g).unwrap();
            let back = nimbus::catalog::partizan::value_word(&text, &mut forms);
            prop_assert_eq!(back, Ok(g), "{}", text);
        }
    }

    /// The reduced canonical form: a value and its reduced form differ by an infinitesimal
    /// (stops both 0), adding infinitesimals to the value does not change it, it is its own
    /// reduced form, and it is born no later than the value.
    #[test]
    fn reduced_forms_ignore_infinitesimals(a in games(3), e in 0..INFINITESIMALS.len(), f in 0..INFINITESIMALS.len()) {
        let mut forms = Forms::default();
        let g = form_of(&mut forms, &a);
        let r = reduced(&mut forms, g).unwrap();
        let d = forms.sub(g, r).unwrap();
        prop_assert_eq!(forms.stops(d), (Dyadic::ZERO, Dyadic::ZERO));
        prop_assert_eq!(reduced(&mut forms, r).unwrap(), r);
        prop_assert!(forms.birthday(r) <= forms.birthday(g));
        let mut moved = g;
        for i in [e, f] {
            let eps = nimbus::catalog::partizan::value_word(INFINITESIMALS[i], &mut forms).unwrap();
            prop_assert_eq!(forms.stops(eps), (Dyadic::ZERO, Dyadic::ZERO));
            moved = forms.add(moved, eps).unwrap();
        }
        prop_assert_eq!(reduced(&mut forms, moved).unwrap(), r);
    }

    /// Sums are the definition's, commutative and associative; a game minus itself is zero.
    #[test]
    fn sums_follow_the_definition(a in games(3), b in games(3), c in games(2)) {
        let mut forms = Forms::default();
        let (ga, gb, gc) = (form_of(&mut forms, &a), form_of(&mut forms, &b), form_of(&mut forms, &c));
        let ab = forms.add(ga, gb).unwrap();
        prop_assert_eq!(ab, forms.add(gb, ga).unwrap());
        let ab_c = forms.add(ab, gc).unwrap();
        let bc = forms.add(gb, gc).unwrap();
        prop_assert_eq!(ab_c, forms.add(ga, bc).unwrap());
        let mut made = HashMap::new();
        let t = tree_of(&forms, ab, &mut made);
        prop_assert!(equal(&t, &tree_sum(&a, &b)));
        prop_assert_eq!(forms.sub(ga, ga).unwrap(), ZERO);
        let n = forms.neg(ga).unwrap();
        prop_assert_eq!(forms.neg(n).unwrap(), ga);
    }

    /// Thermographs agree with the stops (the walls at temperature 0, for a game at least
    /// that hot), means add up, and a sum is no hotter than its hotter part.
    #[test]
    fn thermographs_agree_with_stops_and_add_up(a in games(3), b in games(3)) {
        let mut forms = Forms::default();
        let (ga, gb) = (form_of(&mut forms, &a), form_of(&mut forms, &b));
        let s = forms.add(ga, gb).unwrap();
        let mut th = Thermographs::default();
        let (ta, tb, ts) = (th.of(&mut forms, ga).unwrap(), th.of(&mut forms, gb).unwrap(), th.of(&mut forms, s).unwrap());
        for (g, t) in [(ga, &ta), (gb, &tb), (s, &ts)] {
            if t.temperature >= Dyadic::ZERO {
                let at0 = |w: &[nimbus::partizan::thermograph::Piece]| {
                    let p = w.iter().rev().find(|p| p.t <= Dyadic::ZERO).unwrap();
                    let mut v = p.v;
                    let d = Dyadic::ZERO.minus(p.t).unwrap();
                    for _ in 0..p.slope.unsigned_abs() {
                        v = if p.slope > 0 { v.plus(d).unwrap() } else { v.minus(d).unwrap() };
                    }
                    v
                };
                prop_assert_eq!((at0(&t.left), at0(&t.right)), forms.stops(g));
            }
        }
        prop_assert_eq!(ts.mean, ta.mean.plus(tb.mean).unwrap());
        prop_assert!(ts.temperature <= ta.temperature.max(tb.temperature).max(Dyadic::ZERO));
    }

    /// A Blue-Red stalk is the number its sign expansion says: ±1 for each edge up to the
    /// first change of colour, then ±1/2, ±1/4, ….
    #[test]
    fn atomic_weights_add_up_and_obey_the_two_ahead_rule(a in all_small(3), b in all_small(3)) {
        let mut forms = Forms::default();
        let (ga, gb) = (form_of(&mut forms, &a), form_of(&mut forms, &b));
        let weight = |forms: &mut Forms, g| atomic_weight(forms, g).unwrap().expect("all-small");
        let (wa, wb) = (weight(&mut forms, ga), weight(&mut forms, gb));
        // Additive, and odd: canonical forms are interned, so equal values have equal ids.
        let sum = forms.add(ga, gb).unwrap();
        let both = forms.add(wa, wb).unwrap();
        prop_assert_eq!(weight(&mut forms, sum), both);
        let neg = forms.neg(ga).unwrap();
        let neg_weight = forms.neg(wa).unwrap();
        prop_assert_eq!(weight(&mut forms, neg), neg_weight);
        // Two ahead: a weight of at least 2 wins for Left whoever starts, checked on the
        // unreduced tree by the definition.
        let two = forms.number_form(Dyadic::int(2)).unwrap();
        let zero = Rc::new(Tree { left: vec![], right: vec![] });
        let mut memo = HashMap::new();
        if forms.le(two, wa).unwrap() {
            prop_assert!(le(&zero, &a, &mut memo) && !le(&a, &zero, &mut memo));
        }
        let minus_two = forms.neg(two).unwrap();
        if forms.le(wa, minus_two).unwrap() {
            prop_assert!(le(&a, &zero, &mut memo) && !le(&zero, &a, &mut memo));
        }
    }

    #[test]
    fn impartial_rulesets_are_the_nimbers_of_their_grundy_values(
        kind in 0usize..13, a in 0u64..9, b in 0u64..7
    ) {
        let expr = match kind {
            0 => format!("nim {a} {b}"),
            1 => format!("subtract{{1,3,4}} {a} {b}"),
            2 => format!("allbut{{2}} {a}"),
            3 => format!("kayles {a} {b}"),
            4 => format!("dawson {a}"),
            5 => format!("dawson-chess {a}"),
            6 => format!("grundy-game {a} {b}"),
            7 => format!("octal 0.137 {a}"),
            8 => format!("hex 0.f7 {a}"),
            9 => format!("wythoff {} {}", a % 5, b % 5),
            10 => format!("fibonacci {a}"),
            11 => format!("script:../../examples/take134.rhai {a} + nim {b}"),
            _ => "graph ../../examples/dag.txt @a @b".to_string(),
        };
        // The Grundy values of the impartial engines (closed forms where they have them)...
        let components = nimbus::catalog::impartial::parse(&expr, "test").unwrap();
        let g = components
            .iter()
            .fold(0, |x, c| x ^ c.grundy(Limits::default()).unwrap());
        // ... against the canonical forms the partizan engine builds from the moves alone.
        let mut forms = Forms::default();
        let sum = format!("sg '{expr}'");
        let terms = nimbus::catalog::partizan::parse(&sum, "test", &mut forms).unwrap();
        let mut total = ZERO;
        for t in &terms {
            let v = t.value(&mut forms).unwrap();
            total = forms.add(total, v).unwrap();
        }
        let star = match g {
            0 => "0".to_string(),
            1 => "*".to_string(),
            _ => format!("*{g}"),
        };
        prop_assert_eq!(show(&mut forms, total).unwrap(), star, "{}", expr);
    }

    #[test]
    fn stalks_follow_the_sign_expansion(stalk in "[BR]{1,16}") {
        let (rules, start) = Hackenbush::parse_stalks(&stalk).unwrap();
        let mut forms = Forms::default();
        let g = value_of(&rules, &start, &mut forms).unwrap();
        let c: Vec<char> = stalk.chars().collect();
        let sign = |ch: char| if ch == 'B' { 1 } else { -1 };
        let mut value = Dyadic::ZERO;
        let mut i = 0;
        while i < c.len() && c[i] == c[0] {
            value = value.plus(Dyadic::int(sign(c[i]))).unwrap();
            i += 1;
        }
        let mut exp = 1;
        while i < c.len() {
            value = value.plus(Dyadic::new(sign(c[i]), exp).unwrap()).unwrap();
            exp += 1;
            i += 1;
        }
        prop_assert_eq!(forms.number(g), Some(value));
    }

    /// Green Hackenbush on a random graph is the nimber of its Grundy value, found by mex
    /// over the positions directly.
    #[test]
    fn green_hackenbush_is_the_mex_nimber(edges in prop::collection::vec((0usize..5, 0usize..5), 1..8)) {
        let text: String = edges.iter().map(|(u, v)| format!("{} {} G\n", name(*u), name(*v))).collect();
        let (rules, start) = Hackenbush::parse_graph(&text).unwrap();
        let mut forms = Forms::default();
        let g = value_of(&rules, &start, &mut forms).unwrap();
        let mut memo = HashMap::new();
        let n = grundy(&rules, start, &mut memo);
        let text = show(&mut forms, g).unwrap();
        let want = match n { 0 => "0".to_string(), 1 => "*".to_string(), n => format!("*{n}") };
        prop_assert_eq!(text, want);
    }

    /// Every ruleset's values equal, by the definition, the unreduced trees of its positions
    /// (regions, folding and sums checked at once).
    #[test]
    fn rulesets_match_their_game_trees(cells in prop::collection::vec(0u8..3, 6), rows in 1u8..3) {
        let cols = 6 / rows as usize;
        let board = |free: &dyn Fn(u8) -> char| (0..rows as usize)
            .map(|r| (0..cols).map(|c| free(cells[r * cols + c])).collect::<String>())
            .collect::<Vec<_>>()
            .join("|");
        let dom = board(&|c| if c == 0 { '#' } else { '.' });
        check(&Domineering, &Domineering::parse(&dom).unwrap())?;
        let clob = board(&|c| ['.', 'x', 'o'][c as usize]);
        check(&Clobber, &Clobber::parse(&clob).unwrap())?;
        let strip: String = cells.iter().map(|&c| ['.', 'T', 'F'][c as usize]).collect();
        check(&ToadsAndFrogs, &ToadsAndFrogs::parse(&strip).unwrap())?;
        let cakes = format!("{}x{}", cells[0] + 1, cells[1] + cells[2] + 1);
        check(&Cutcake, &Cutcake::parse(&cakes).unwrap())?;
        // Amazons on a 2 x 3 board: burnt cells, one amazon each at most a few.
        let amazons = board(&|c| ['#', '.', '.'][c as usize]);
        let mut a = Amazons::parse(&amazons).unwrap();
        let free: Vec<u32> = (0..6).filter(|&i| a.cells[2] >> i & 1 == 1).collect();
        if free.len() >= 2 {
            for (k, &i) in free.iter().take(2).enumerate() {
                a.cells[2] &= !(1u128 << i);
                a.cells[k] |= 1u128 << i;
            }
            check(&Amazons, &a)?;
        }
    }

    /// Col and Snort against a plain reading of their rules (vertices coloured one by one,
    /// each move checked against the neighbours' colours), and Col against Conway's theorem
    /// that every Col value is a number or a number plus `*`.
    #[test]
    fn col_and_snort_follow_their_rules(
        edges in prop::collection::vec((0usize..6, 0usize..6), 0..9),
        tinted in prop::collection::vec(0u8..4, 6),
    ) {
        let names = ["a", "b", "c", "d", "e", "f"];
        let tint = |v: usize| match tinted[v] {
            1 => "/B",
            2 => "/R",
            _ => "",
        };
        let mut lines: Vec<String> = (0..6).map(|v| format!("{}{}", names[v], tint(v))).collect();
        let edges: Vec<(usize, usize)> = edges.into_iter().filter(|(u, v)| u != v).collect();
        lines.extend(edges.iter().map(|&(u, v)| format!("{} {}", names[u], names[v])));
        let text = lines.join("; ");
        for kind in [Kind::Col, Kind::Snort] {
            let (rules, start) = Colouring::parse(kind, &text).unwrap();
            let mut forms = Forms::default();
            let g = value_of(&rules, &start, &mut forms).unwrap();
            // The plain reading: a tint is a coloured neighbour that is not there any more,
            // so the start's tints become neighbours of their colour of their own.
            let mut plain = Plain { kind, adjacent: vec![vec![]; 12], made: HashMap::new() };
            let mut colours = vec![0u8; 12];
            for &(u, v) in &edges {
                plain.adjacent[u].push(v);
                plain.adjacent[v].push(u);
            }
            for v in 0..6 {
                if tinted[v] == 1 || tinted[v] == 2 {
                    plain.adjacent[v].push(6 + v);
                    plain.adjacent[6 + v].push(v);
                    colours[6 + v] = tinted[v];
                } else {
                    // Not needed: out of play (a colour that bars nobody).
                    colours[6 + v] = 3;
                }
            }
            let h = plain.value(&colours, &mut forms);
            prop_assert_eq!(g, h, "{:?} {}", kind, text);
            if kind == Kind::Col {
                let star = forms.canonical(&[ZERO], &[ZERO]).unwrap();
                let less_star = forms.add(g, star).unwrap();
                prop_assert!(
                    forms.number(g).is_some() || forms.number(less_star).is_some(),
                    "{} = {}", text, show(&mut forms, g).unwrap()
                );
            }
        }
    }
}

/// Col or Snort played by the rules as stated: colours 0 (none), 1 (blue), 2 (red), 3 (a
/// vertex out of play).
struct Plain {
    kind: Kind,
    adjacent: Vec<Vec<usize>>,
    made: HashMap<Vec<u8>, Id>,
}

impl Plain {
    fn value(&mut self, colours: &[u8], forms: &mut Forms) -> Id {
        if let Some(&g) = self.made.get(colours) {
            return g;
        }
        let mut sides = [Vec::new(), Vec::new()];
        for (side, mine) in [(0, 1u8), (1, 2u8)] {
            let barred = if self.kind == Kind::Col {
                mine
            } else {
                3 - mine
            };
            for v in 0..colours.len() {
                if colours[v] == 0 && !self.adjacent[v].iter().any(|&w| colours[w] == barred) {
                    let mut next = colours.to_vec();
                    next[v] = mine;
                    let o = self.value(&next, forms);
                    sides[side].push(o);
                }
            }
        }
        let g = forms.canonical(&sides[0], &sides[1]).unwrap();
        self.made.insert(colours.to_vec(), g);
        g
    }
}

fn name(v: usize) -> String {
    if v == 0 {
        "g".into()
    } else {
        format!("v{v}")
    }
}

fn grundy(rules: &Hackenbush, p: u128, memo: &mut HashMap<u128, u32>) -> u32 {
    if let Some(&v) = memo.get(&p) {
        return v;
    }
    let opts: Vec<u32> = rules
        .left_moves(&p)
        .into_iter()
        .map(|q| grundy(rules, q, memo))
        .collect();
    let v = (0..).find(|n| !opts.contains(n)).unwrap();
    memo.insert(p, v);
    v
}

/// The unreduced tree of a ruleset's position, ignoring its regions.
fn brute<R: Ruleset>(rules: &R, p: &R::Position, made: &mut HashMap<R::Position, T>) -> T {
    if let Some(t) = made.get(p) {
        return t.clone();
    }
    let left = rules
        .left_moves(p)
        .iter()
        .map(|q| brute(rules, q, made))
        .collect();
    let right = rules
        .right_moves(p)
        .iter()
        .map(|q| brute(rules, q, made))
        .collect();
    let t = Rc::new(Tree { left, right });
    made.insert(p.clone(), t.clone());
    t
}

fn check<R: Ruleset>(rules: &R, p: &R::Position) -> Result<(), TestCaseError> {
    let mut forms = Forms::default();
    let g = value_of(rules, p, &mut forms).unwrap();
    let mut made = HashMap::new();
    let t = tree_of(&forms, g, &mut made);
    prop_assert!(
        equal(&t, &brute(rules, p, &mut HashMap::new())),
        "{}",
        rules.show(p)
    );
    Ok(())
}

fn value<R: Ruleset>(rules: &R, p: &R::Position) -> String {
    let mut forms = Forms::default();
    let g = value_of(rules, p, &mut forms).unwrap();
    show(&mut forms, g).unwrap()
}

/// Published values. Domineering (Left vertical): the 2 × 2 and 3 × 3 squares are ±1 (Winning
/// Ways, ch. 2); the other boards are the test data of cgt-tools (t4ccer/cgt-tools,
/// cgt/short/partizan/games/domineering.rs), whose values agree with CGSuite's.
#[test]
fn domineering_values_are_the_published_ones() {
    let d = |b: &str| value(&Domineering, &Domineering::parse(b).unwrap());
    assert_eq!(d(".|."), "1");
    assert_eq!(d(".."), "-1");
    assert_eq!(d("...."), "-2");
    assert_eq!(d("..|.."), "±1");
    assert_eq!(d("..#|..#|##."), "±1");
    assert_eq!(d(".#|.."), "*");
    assert_eq!(d(".##|.##|..."), "0");
    assert_eq!(d("..#|..#|..."), "{1/2|-2}");
    assert_eq!(d("...|...|..."), "±1");
    assert_eq!(d(".#.#|.#.."), "1*");
    // cgt-tools writes {1*|-1*}: the symmetric form ±(1*).
    assert_eq!(d("#...|....|....|...."), "±(1*)");
    let mut forms = Forms::default();
    let b = Domineering::parse("#...|....|....|....").unwrap();
    let g = value_of(&Domineering, &b, &mut forms).unwrap();
    let t = Thermographs::default().of(&mut forms, g).unwrap();
    assert_eq!(t.temperature, Dyadic::int(1));
}

/// Toads and Frogs: the test data of cgt-tools (cgt/short/partizan/games/toads_and_frogs.rs);
/// `{0|^}` is ⇑*, as CGSuite writes it.
#[test]
fn toads_and_frogs_values_are_the_published_ones() {
    let t = |s: &str| value(&ToadsAndFrogs, &ToadsAndFrogs::parse(s).unwrap());
    for (s, v) in [
        ("TFTF.TF", "0"),
        ("TFTFTF.", "0"),
        ("TFTFT.F", "*"),
        ("TF.TTFF", "0"),
        ("TFT.TFF", "^"),
        (".TTFTFF", "0"),
        ("T.TFTFF", "^^*"),
    ] {
        assert_eq!(t(s), v, "{s}");
    }
}

/// Small Col and Snort values by hand, and a Snort caterpillar against cgt-tools (its own test
/// of its Snort: C(3, 2, 3), a path of three vertices with 2 leaves on the middle one and 3 on
/// each end).
#[test]
fn col_and_snort_values_agree_with_known_ones() {
    let of = |kind, text: &str| {
        let (rules, start) = Colouring::parse(kind, text).unwrap();
        value(&rules, &start)
    };
    assert_eq!(of(Kind::Col, "a b"), "0");
    assert_eq!(of(Kind::Snort, "a b"), "±1");
    assert_eq!(of(Kind::Col, "a; b/B"), "-1*");
    assert_eq!(of(Kind::Snort, "a; b/B"), "1*");
    let caterpillar = "c s; c t; c x1; c x2; s a1; s a2; s a3; t b1; t b2; t b3";
    let sum = format!("snort '{caterpillar}' - {{5,{{{{8|6*}}|0}}|-5,{{0|{{-6*|-8}}}}}}");
    assert_eq!(sum_value(&sum), "0");
}

/// A ruleset written in Rhai (examples/cutcake.rhai) against the built-in one, and a script's
/// mistakes as errors that name the script.
#[test]
fn a_rhai_ruleset_is_valued_like_the_built_in_one() {
    let value_of_text = |text: &str| {
        let mut forms = Forms::default();
        let terms = nimbus::catalog::partizan::parse(text, "test", &mut forms)?;
        let v = terms[0].value(&mut forms)?;
        Ok::<_, nimbus::Error>(show(&mut forms, v).unwrap())
    };
    let dir = std::env::temp_dir().join(format!("nimbus-partizan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The example splits positions into cakes (fn regions); the same script without that
    // split values whole positions, more slowly, and must agree.
    let example = std::fs::read_to_string("../../examples/cutcake.rhai").unwrap();
    assert!(example.contains("fn regions(p)"));
    let whole = dir.join("whole.rhai");
    std::fs::write(&whole, example.replace("fn regions(p)", "fn unused(p)")).unwrap();
    for r in 1..=4 {
        for c in 1..=5 {
            let built_in = value_of_text(&format!("cutcake {r}x{c}")).unwrap();
            let script = value_of_text(&format!("script:../../examples/cutcake.rhai {r} {c}"));
            assert_eq!(script.unwrap(), built_in, "{r} x {c}");
            if r * c <= 12 {
                let script = value_of_text(&format!("script:{} {r} {c}", whole.display()));
                assert_eq!(script.unwrap(), built_in, "{r} x {c}, unsplit");
            }
        }
    }
    // A game that can come back to a position has no value as a short game: said at once.
    let looping = dir.join("loop.rhai");
    std::fs::write(
        &looping,
        "fn start(a) { 0 }\nfn left_moves(p) { if p < 3 { [p + 1] } else { [0] } }\n\
         fn right_moves(p) { [] }\n",
    )
    .unwrap();
    let err = value_of_text(&format!("script:{}", looping.display())).unwrap_err();
    assert!(
        err.to_string().contains("can be reached again from itself"),
        "{err}"
    );
    let bad = dir.join("bad.rhai");
    std::fs::write(
        &bad,
        "fn start(a) { 0 }\nfn left_moves(p) { [p + 1] }\n\
         fn right_moves(p) { if p > 3 { x } else { [] } }\n",
    )
    .unwrap();
    let err = value_of_text(&format!("script:{}", bad.display())).unwrap_err();
    assert!(err.to_string().contains("right_moves(4)"), "{err}");
    std::fs::write(&bad, "fn start(a) { 0 }\nfn moves(p) { [] }\n").unwrap();
    let err = value_of_text(&format!("script:{}", bad.display())).unwrap_err();
    assert!(err.to_string().contains("left_moves is missing"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Amazons on 3 x 4 against cgt-tools (its own test of its Amazons, x Left and o Right).
#[test]
fn amazons_agrees_with_cgt_tools() {
    let theirs = "{{6|{3|1, {3|0, {1/2|0}}}}, {6|{4*|-3, {3, {3|0, {1/2|0}}|-4}}}|-3, {0, \
        {0|-2}, {1|-3}|-5}, {0, {0, *|0, {0, {1/2, {1|0}|v}|v}}|-5}, {{2, {2|0}|0, {0, {2|0, \
        {2|0}}|0}}, {2, {3|0}|0, {0, {0, ^*|0}|-1}}, {{2|0}, {2|{1|1/4}, {2|0}}|v*, {1/2|{{0|\
        -1}, {*|-1}|-1}}, {{0, ^*|0}|-1}}, {{3|0}, {3|1, {2|0}}, {3, {3|1}|1, {1|0, *}}|-1/16, \
        {0|-1}, {*|-1}}|-5, {v, v*, {0, {0, ^*|0}|-1}|-5}, {{1/2|{-1/4, {0|-1}, {*|-1}|-1}}, \
        {{1|1/4}|{-1/4|-1}}, {{1|{1|0}, {1|*}}|-1/2}|-5}}}";
    let theirs: String = theirs.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(
        sum_value(&format!("amazons 'x..#|....|.#.o' - {theirs}")),
        "0"
    );
}

/// The value of an expression of `nimbus cgt`, written out.
/// Infinitesimals of every kind: nimbers, ups, tinies and minies, and all-small switches.
const INFINITESIMALS: [&str; 10] = [
    "0",
    "*",
    "*3",
    "^",
    "vv*",
    "^3*2",
    "{0||0|-1}",
    "{1|0||0}",
    "{0,*|0}",
    "{0||0|-3/2}",
];

/// CGSuite's reduced canonical forms (its tests of `reducedCanonicalForm`).
#[test]
fn reduced_forms_are_cgsuites() {
    for (value, expected) in [
        ("*8", "0"),
        ("9/8*", "9/8"),
        ("6^*", "6"),
        ("73/16 + v9*8", "73/16"),
        ("{0||0|v*}", "0"),
        ("{^3|vv}", "0"),
        ("{0|||0||-1|-3}", "0"),
        ("{5||3|1|||0||||0}", "0"),
        ("{1|^^^||^}", "0"),
        ("{3||2*|1*}", "{3||2|1}"),
        (
            "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}",
            "{3/2|1/2||{-1/2|-1||-5/2},{0|-3}}",
        ),
    ] {
        let mut forms = Forms::default();
        let total = sum_form(value, &mut forms);
        let r = reduced(&mut forms, total).unwrap();
        assert_eq!(show(&mut forms, r).unwrap(), expected, "{value}");
    }
}

/// The value of an expression's sum, in `forms`.
fn sum_form(text: &str, forms: &mut Forms) -> Id {
    let terms = nimbus::catalog::partizan::parse(text, "test", forms).unwrap();
    let mut total = ZERO;
    for t in &terms {
        let v = t.value(forms).unwrap();
        total = forms.add(total, v).unwrap();
    }
    total
}

fn sum_value(text: &str) -> String {
    let mut forms = Forms::default();
    let total = sum_form(text, &mut forms);
    show(&mut forms, total).unwrap()
}

/// A game graph with a cycle has no value as a short game.
#[test]
fn a_loopy_impartial_game_is_refused_as_a_partizan_summand() {
    let mut forms = Forms::default();
    let terms = nimbus::catalog::partizan::parse(
        "sg 'graph ../../examples/cycle.txt @1'",
        "test",
        &mut forms,
    )
    .unwrap();
    let err = terms[0].value(&mut forms).unwrap_err().to_string();
    assert!(err.contains("loopy"), "{err}");
}

/// A Hackenbush stalk of 1000 edges: the engine keeps its own stacks.
#[test]
fn a_long_stalk_needs_no_deep_stack() {
    let stalk = format!("B{}", "R".repeat(59));
    let (rules, start) = Hackenbush::parse_stalks(&stalk).unwrap();
    let mut forms = Forms::default();
    let g = value_of(&rules, &start, &mut forms).unwrap();
    assert_eq!(forms.number(g), Some(Dyadic::new(1, 59).unwrap()));
    let (rules, start) = Hackenbush::parse_stalks(&"B".repeat(128)).unwrap();
    let g = value_of(&rules, &start, &mut forms).unwrap();
    assert_eq!(forms.number(g), Some(Dyadic::int(128)));
}

mod picture;

/// The thermograph is tested as a picture: rasterised, the walls' colour lies along both walls
/// and up the mast, and not between the walls below the temperature.
#[test]
fn thermographs_are_drawn_where_the_walls_are() {
    use nimbus::partizan::draw::{point, thermograph_svg, value_at};
    for board in ["..|..", "..#|..#|...", "#...|....|....|....", "...|..."] {
        let mut forms = Forms::default();
        let g = value_of(
            &Domineering,
            &Domineering::parse(board).unwrap(),
            &mut forms,
        )
        .unwrap();
        let t = Thermographs::default().of(&mut forms, g).unwrap();
        let pix = picture::render(&thermograph_svg(&t, board));
        let wall_near = |x: f64, y: f64| {
            (-2..=2).any(|dx: i32| {
                (-2..=2).any(|dy: i32| {
                    pix.pixel(
                        (x.round() as i32 + dx) as u32,
                        (y.round() as i32 + dy) as u32,
                    )
                    .is_some_and(|c| c.blue() > 150 && c.red() < 100)
                })
            })
        };
        let f = |d: Dyadic| d.numerator() as f64 / (1u64 << d.exponent()) as f64;
        let top = f(t.temperature).max(0.0) + 1.0;
        for k in 0..=20 {
            let s = -1.0 + (top + 1.0) * k as f64 / 20.0;
            for w in [&t.left, &t.right] {
                let (x, y) = point(&t, value_at(w, s), s);
                assert!(wall_near(x, y), "{board}: no wall at t = {s}");
            }
            // Between the walls, away from both, below the temperature: white.
            let (l, r) = (value_at(&t.left, s), value_at(&t.right, s));
            // (Not on the frame's edge at t = -1, nor on the axis at t = 0.)
            if s < f(t.temperature) - 0.3 && s > -0.9 && s.abs() > 0.1 {
                let (xl, y) = point(&t, l, s);
                let (xr, _) = point(&t, r, s);
                if xr - xl > 12.0 {
                    let mid = pix.pixel(((xl + xr) / 2.0) as u32, y as u32).unwrap();
                    assert!(
                        mid.red() > 200 && mid.green() > 200,
                        "{board}: ink between the walls at t = {s}"
                    );
                }
            }
        }
    }
}

/// The values of Domineering rectangles (symmetric forms with several options, nested bars)
/// read back as they are written.
#[test]
fn rectangles_read_back_as_they_are_written() {
    let mut forms = Forms::default();
    for r in 1..=4 {
        for c in 1..=5 {
            let b = Domineering::parse(&format!("{r}x{c}")).unwrap();
            let g = value_of(&Domineering, &b, &mut forms).unwrap();
            let text = show(&mut forms, g).unwrap();
            let back = nimbus::catalog::partizan::value_word(&text, &mut forms);
            assert_eq!(back, Ok(g), "{r}x{c}: {text}");
        }
    }
}

/// Ups, downs and the nimbers beside them are named as CGSuite names them however many there
/// are (up to 32 of each; beyond, the form is written out and reads back).
#[test]
fn ups_and_downs_are_named_however_many() {
    for text in ["v9", "73/16v9*8", "^12*9", "^32*32", "-5/2v32"] {
        assert_eq!(sum_value(text), text);
    }
    let mut forms = Forms::default();
    let far = sum_form("^33", &mut forms);
    let shown = show(&mut forms, far).unwrap();
    assert!(shown.starts_with('{'), "{shown}");
    assert_eq!(
        nimbus::catalog::partizan::value_word(&shown, &mut forms),
        Ok(far)
    );
}

/// Who wins, moving first, the sum of a Domineering board and small games each `0`, `*` or
/// `↓` (`↓ = {*|0}`): a plain search of the sum's positions, no values involved.
fn first_player_wins(
    board: nimbus::partizan::games::domineering::Board,
    small: [u8; 4],
    left: bool,
    memo: &mut HashMap<(nimbus::partizan::games::domineering::Board, [u8; 4], bool), bool>,
) -> bool {
    const ZERO_: u8 = 0;
    const STAR: u8 = 1;
    const DOWN: u8 = 2;
    let mut key = small;
    key.sort_unstable();
    if let Some(&w) = memo.get(&(board, key, left)) {
        return w;
    }
    let boards = if left {
        Domineering.left_moves(&board)
    } else {
        Domineering.right_moves(&board)
    };
    let mut wins = boards
        .into_iter()
        .any(|b| !first_player_wins(b, key, !left, memo));
    for i in 0..4 {
        let next = match (key[i], left) {
            (STAR, _) => Some(ZERO_),
            (DOWN, true) => Some(STAR),
            (DOWN, false) => Some(ZERO_),
            _ => None,
        };
        if let Some(n) = next {
            let mut after = key;
            after[i] = n;
            wins = wins || !first_player_wins(board, after, !left, memo);
        }
    }
    memo.insert((board, key, left), wins);
    wins
}

/// A 15-cell region the engine values at ↑3* (three ups and a star; Uiterwijk and Barton
/// report no ups or downs of a multitude above 2 among their regions up to 15 cells, so
/// this one is checked without the engine): the region plus 3·↓ plus * is a second-player
/// win, so the region equals 3·↑ + *; and the region plus 2·↓ plus * is not, so it is not
/// 2·↑ + *.
#[test]
fn a_fifteen_cell_region_is_three_ups_and_a_star() {
    let board = Domineering::parse("#.#|#..|..#|#.#|#..|..#|#.#|...|.##").unwrap();
    assert_eq!(board.free.count_ones(), 15);
    let mut forms = Forms::default();
    let v = value_of(&Domineering, &board, &mut forms).unwrap();
    assert_eq!(show(&mut forms, v).unwrap(), "^3*");
    let mut memo = HashMap::new();
    // 3·↓ + *: states ↓, ↓, ↓, *.
    for left in [true, false] {
        assert!(!first_player_wins(board, [2, 2, 2, 1], left, &mut memo));
    }
    let beaten = [true, false]
        .iter()
        .any(|&left| first_player_wins(board, [2, 2, 0, 1], left, &mut memo));
    assert!(beaten);
}
