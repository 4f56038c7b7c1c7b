//! The substring game against a brute force that knows nothing of suffix automata:
//! the game played on the strings themselves, with the set of S's substrings as the rules.

use nimbus::core::budget::Limits;
use nimbus::impartial::games::substring::{
    analyze_substrings, parse_position, words_of, Sub, SubstringGame, SubstringOptions,
};
use nimbus::impartial::Outcome;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap, HashSet};

fn substrings(s: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for i in 0..=s.len() {
        for j in i..=s.len() {
            out.insert(s[i..j].to_string());
        }
    }
    out
}

/// Win/loss and remoteness of a tuple of strings, normal or misère, by recursion.
struct Brute {
    subs: HashSet<String>,
    misere: bool,
    memo: HashMap<Vec<String>, (bool, u64)>,
}

impl Brute {
    fn options(&self, p: &[String]) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for i in 0..p.len() {
            for c in 'a'..='z' {
                let t = format!("{}{c}", p[i]);
                if self.subs.contains(&t) {
                    let mut q = p.to_vec();
                    q[i] = t;
                    out.push(q);
                }
            }
        }
        out
    }

    fn solve(&mut self, p: &[String]) -> (bool, u64) {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let opts = self.options(p);
        let v = if opts.is_empty() {
            (self.misere, 0)
        } else {
            let vals: Vec<(bool, u64)> = opts.iter().map(|q| self.solve(q)).collect();
            match vals.iter().filter(|v| !v.0).map(|v| v.1).min() {
                Some(r) => (true, r + 1),
                None => (false, vals.iter().map(|v| v.1).max().unwrap() + 1),
            }
        };
        self.memo.insert(p.to_vec(), v);
        v
    }
}

/// Grundy values of single strings by the definition.
fn brute_grundy(subs: &HashSet<String>, t: &str, memo: &mut HashMap<String, u64>) -> u64 {
    if let Some(&g) = memo.get(t) {
        return g;
    }
    let mut seen = BTreeSet::new();
    for c in 'a'..='z' {
        let u = format!("{t}{c}");
        if subs.contains(&u) {
            seen.insert(brute_grundy(subs, &u, memo));
        }
    }
    let g = (0..).find(|g| !seen.contains(g)).unwrap();
    memo.insert(t.to_string(), g);
    g
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c']), 0..11)
        .prop_map(|v| v.into_iter().collect())
}

fn opts(misere: bool) -> SubstringOptions {
    SubstringOptions {
        misere,
        limits: Limits::default(),
        max_moves: usize::MAX,
        max_strings: usize::MAX,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_substring_has_its_defined_value(s in text()) {
        let game = SubstringGame::new(&s, "S").unwrap();
        let subs = substrings(&s);
        let mut memo = HashMap::new();
        let mut brute = Brute { subs: subs.clone(), misere: false, memo: HashMap::new() };
        for t in &subs {
            let pos = game.locate(t).expect("a substring is found");
            prop_assert_eq!(game.text_of(pos), t.as_str());
            prop_assert_eq!(game.grundy_of(pos), brute_grundy(&subs, t, &mut memo), "{}", t);
            prop_assert_eq!(game.remoteness_of(pos), brute.solve(std::slice::from_ref(t)).1, "{}", t);
            for c in ['a', 'b', 'c', 'd'] {
                let u = format!("{t}{c}");
                prop_assert_eq!(game.locate(&u).is_some(), subs.contains(&u), "{}", u);
            }
        }
        // The automaton of a string of length n has at most 2n - 1 states (n >= 2).
        prop_assert!(game.automaton().len() <= (2 * s.len()).max(2));
    }

    #[test]
    fn sums_agree_with_brute_force_in_both_plays(
        s in text(),
        picks in prop::collection::vec((0usize..100, 0usize..100), 1..4),
        misere in any::<bool>(),
    ) {
        let game = SubstringGame::new(&s, "S").unwrap();
        let n = s.len();
        let strings: Vec<String> = picks
            .iter()
            .map(|&(a, b)| {
                let i = a % (n + 1);
                let j = i + b % (n + 1 - i);
                s[i..j].to_string()
            })
            .collect();
        let pos: Vec<Sub> = strings.iter().map(|t| game.locate(t).unwrap()).collect();
        let a = analyze_substrings(&game, &pos, &opts(misere)).unwrap();
        let mut brute = Brute { subs: substrings(&s), misere, memo: HashMap::new() };
        let (wins, remoteness) = brute.solve(&strings);
        prop_assert_eq!(a.outcome == Outcome::N, wins, "decided by {}", a.rule);
        if let Some(r) = a.remoteness {
            prop_assert_eq!(r, remoteness);
        }
        let expected: BTreeSet<(usize, String)> = (0..strings.len())
            .flat_map(|i| {
                let strings = strings.clone();
                ('a'..='c').map(move |c| (i, strings.clone(), c))
            })
            .filter_map(|(i, mut q, c)| {
                q[i].push(c);
                (brute.subs.contains(&q[i]) && !brute.solve(&q).0).then(|| (i + 1, q[i].clone()))
            })
            .collect();
        let got: BTreeSet<(usize, String)> =
            a.winning_moves.iter().map(|m| (m.string, m.to.clone())).collect();
        prop_assert_eq!(got, expected);
        prop_assert_eq!(a.winning_moves_total, a.winning_moves.len());
    }
}

#[test]
fn the_exact_search_decides_where_the_sj_rule_fails() {
    // Find an S where some string breaks the SJ precondition, and check that the exact search
    // (not the rule) answered, and answered right.
    let mut found = 0;
    for bits in 0u32..4096 {
        let len = 4 + (bits % 9) as usize;
        let s: String = (0..len)
            .map(|i| if (bits >> i) & 1 == 1 { 'a' } else { 'b' })
            .collect();
        let game = SubstringGame::new(&s, "S").unwrap();
        let root = game.locate("").unwrap();
        if game.sj_holds(root) || found >= 60 {
            continue;
        }
        found += 1;
        let a = analyze_substrings(&game, &[root, root], &opts(true)).unwrap();
        assert_eq!(a.rule, "exact misère search", "{s}");
        let mut brute = Brute {
            subs: substrings(&s),
            misere: true,
            memo: HashMap::new(),
        };
        let truth = brute.solve(&[String::new(), String::new()]);
        assert_eq!(a.outcome == Outcome::N, truth.0, "{s}");
        assert_eq!(a.remoteness, Some(truth.1), "{s}");
    }
    assert!(
        found >= 60,
        "only {found} strings break the SJ precondition"
    );
}

#[test]
fn bad_input_names_the_place() {
    let words = |t: &str| words_of(t, "game.txt");
    let err = |t: &str| parse_position(&words(t)).expect_err("an error").to_string();
    assert!(err("abcab\n2\nab\nabd\n")
        .contains("game.txt, line 4, column 1: 'abd' is not a substring of S"));
    assert!(err("abXab ab").contains("game.txt, line 1, column 3: 'X' is not a letter a-z"));
    assert!(err("abcab ab b-").contains("line 1, column 11: '-' in 'b-' is not a letter a-z"));
    assert!(err("abcab 3 ab b").contains("the count says 3 strings, but 2 follow it"));
    assert!(err("abcab").contains("no strings given"));
    assert!(err("").contains("no string S given"));
    let (game, strings) = parse_position(&words("aab 2 '' a")).unwrap();
    assert_eq!(game.text_of(strings[0]), "");
    assert_eq!(game.text_of(strings[1]), "a");
}
