//! Stochastic games against slower independent methods: each matrix game solved by support
//! enumeration (not the LP), values by plain floating-point value iteration, a strategy's
//! guarantee by trying every pure stationary reply (not policy iteration); and against the
//! Big Match's published discounted value.

use nimbus::api::stochastic::{parse_method, solve, Request};
use nimbus::api::Limits;
use nimbus::exact::{parse_number, show, to_f64, Q};
use nimbus::formats::stochastic::parse;
use nimbus::strategic::stochastic::game::{Cell, State, StochasticGame};
use nimbus::strategic::stochastic::{self as sto, Method, Options};
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

/// Solves `M x = b` exactly by Gaussian elimination on fractions; `None` when singular.
fn gauss(mut m: Vec<Vec<Q>>) -> Option<Vec<Q>> {
    let n = m.len();
    for c in 0..n {
        let p = (c..n).find(|&r| !m[r][c].is_zero())?;
        m.swap(c, p);
        let pivot = m[c][c].clone();
        for x in m[c].iter_mut() {
            *x /= &pivot;
        }
        for r in 0..n {
            if r != c && !m[r][c].is_zero() {
                let f = m[r][c].clone();
                let row_c = m[c].clone();
                for (x, y) in m[r].iter_mut().zip(&row_c) {
                    *x -= &f * y;
                }
            }
        }
    }
    Some(m.into_iter().map(|r| r[n].clone()).collect())
}

/// All subsets of `0..n` of size `k`.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    (0u32..1 << n)
        .filter(|s| s.count_ones() as usize == k)
        .map(|s| (0..n).filter(|i| s >> i & 1 == 1).collect())
        .collect()
}

/// The value of a matrix game by support enumeration (Shapley and Snow: some square
/// submatrix carries optimal strategies of both players with equalised payoffs).
fn matrix_value(a: &[Vec<Q>]) -> Q {
    let (m, n) = (a.len(), a[0].len());
    for k in 1..=m.min(n) {
        for rs in subsets(m, k) {
            for cs in subsets(n, k) {
                // A mixture on one side's support equalising the other side's strategies at v:
                // k + 1 unknowns (the row player's over rs, the column player's over cs).
                let equalise =
                    |mine: &[usize], theirs: &[usize], entry: &dyn Fn(usize, usize) -> Q| {
                        let mut sys: Vec<Vec<Q>> = theirs
                            .iter()
                            .map(|&t| {
                                let mut row: Vec<Q> = mine.iter().map(|&m| entry(m, t)).collect();
                                row.push(-Q::one());
                                row.push(Q::zero());
                                row
                            })
                            .collect();
                        let mut sum = vec![Q::one(); k];
                        sum.extend([Q::zero(), Q::one()]);
                        sys.push(sum);
                        gauss(sys)
                    };
                let Some(xs) = equalise(&rs, &cs, &|i, j| a[i][j].clone()) else {
                    continue;
                };
                let Some(ys) = equalise(&cs, &rs, &|j, i| a[i][j].clone()) else {
                    continue;
                };
                let v = xs[k].clone();
                if ys[k] != v || xs[..k].iter().chain(&ys[..k]).any(Signed::is_negative) {
                    continue;
                }
                let row_ok =
                    (0..n).all(|j| rs.iter().zip(&xs).map(|(&i, x)| x * &a[i][j]).sum::<Q>() >= v);
                let col_ok =
                    (0..m).all(|i| cs.iter().zip(&ys).map(|(&j, y)| y * &a[i][j]).sum::<Q>() <= v);
                if row_ok && col_ok {
                    return v;
                }
            }
        }
    }
    unreachable!("every matrix game has a value")
}

/// The value of a matrix game of floats by support enumeration.
fn matrix_value_f64(a: &[Vec<f64>]) -> f64 {
    let exact: Vec<Vec<Q>> = a
        .iter()
        .map(|r| r.iter().map(|&x| Q::from_float(x).unwrap()).collect())
        .collect();
    to_f64(&matrix_value(&exact))
}

/// Plain value iteration in floats, long enough for the contraction to reach rounding.
fn float_values(g: &StochasticGame) -> Vec<f64> {
    let beta = to_f64(&g.continuation());
    let rounds = (40.0 / (1.0 - beta)).ceil() as usize;
    let mut v = vec![0.0; g.states.len()];
    for _ in 0..rounds {
        v = (0..g.states.len())
            .map(|s| {
                let st = &g.states[s];
                let a: Vec<Vec<f64>> = (0..st.rows.len())
                    .map(|i| {
                        (0..st.columns.len())
                            .map(|j| {
                                let c = st.cell(i, j);
                                to_f64(&c.payoff)
                                    + to_f64(&g.discount)
                                        * c.next.iter().map(|(t, p)| to_f64(p) * v[*t]).sum::<f64>()
                            })
                            .collect()
                    })
                    .collect();
                matrix_value_f64(&a)
            })
            .collect();
    }
    v
}

/// What the row player's stationary strategy guarantees: the least, over every pure
/// stationary reply of the column player, of the values of the play, each a linear system.
fn brute_guarantee(g: &StochasticGame, x: &[Vec<Q>]) -> Vec<Q> {
    let n = g.states.len();
    let sizes: Vec<usize> = g.states.iter().map(|s| s.columns.len()).collect();
    let total: usize = sizes.iter().product();
    let mut best: Option<Vec<Q>> = None;
    for mut code in 0..total {
        let reply: Vec<usize> = sizes
            .iter()
            .map(|&k| {
                let j = code % k;
                code /= k;
                j
            })
            .collect();
        let sys: Vec<Vec<Q>> = (0..n)
            .map(|s| {
                let st = &g.states[s];
                let mut row = vec![Q::zero(); n + 1];
                row[s] += Q::one();
                for (i, p) in x[s].iter().enumerate() {
                    let c = st.cell(i, reply[s]);
                    row[n] += p * &c.payoff;
                    for (t, pr) in &c.next {
                        row[*t] -= p * pr * &g.discount;
                    }
                }
                row
            })
            .collect();
        let w = gauss(sys).expect("play ends");
        // The best reply minimises every state's value at once (it is a Markov decision
        // problem's optimum), so the least in each state is the guarantee.
        best = Some(match best {
            None => w,
            Some(b) => b.into_iter().zip(w).map(|(p, q)| p.min(q)).collect(),
        });
    }
    best.unwrap()
}

/// A random game: up to three states of up to 3 × 3 actions, payoffs in −5..5, each cell
/// going on with up to 6/8 spread over random states, discounted by 1, 9/10 or 1/2.
fn arb_game() -> impl Strategy<Value = StochasticGame> {
    (
        1usize..=3,
        prop::collection::vec(any::<u64>(), 1..=3),
        0usize..3,
    )
        .prop_map(|(n, seeds, d)| {
            let mut rng = seeds[0];
            let mut next = || {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            };
            let states = (0..n)
                .map(|s| {
                    let (m, k) = (1 + next() as usize % 3, 1 + next() as usize % 3);
                    let cells = (0..m * k)
                        .map(|_| {
                            let payoff = q(next() as i64 % 6, 1);
                            let eighths = next() % 7;
                            let mut parts = vec![0i64; n];
                            for _ in 0..eighths {
                                parts[next() as usize % n] += 1;
                            }
                            let next_states = parts
                                .iter()
                                .enumerate()
                                .filter(|(_, &e)| e > 0)
                                .map(|(t, &e)| (t, q(e, 8)))
                                .collect();
                            Cell {
                                payoff,
                                next: next_states,
                            }
                        })
                        .collect();
                    State {
                        name: format!("s{s}"),
                        rows: (1..=m).map(|i| i.to_string()).collect(),
                        columns: (1..=k).map(|i| i.to_string()).collect(),
                        cells,
                    }
                })
                .collect();
            let discount = [q(1, 1), q(9, 10), q(1, 2)][d].clone();
            StochasticGame { discount, states }
        })
}

fn opts(method: Method) -> Options {
    Options {
        method,
        tolerance: q(1, 1_000_000_000),
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("NIMBUS_FULL").map_or(40, |_| 400)))]

    /// Both methods bracket the floats' value within the tolerance, agree with each other,
    /// and an exact answer is a fixed point of the operator by support enumeration.
    #[test]
    fn both_methods_bracket_the_value(g in arb_game()) {
        let float = float_values(&g);
        let mut answers = Vec::new();
        for method in [Method::PolicyIteration, Method::ValueIteration] {
            let s = sto::solve(&g, &opts(method)).unwrap();
            for (k, (lo, hi)) in s.lower.iter().zip(&s.upper).enumerate() {
                prop_assert!(lo <= hi);
                prop_assert!(s.exact || hi - lo <= q(1, 1_000_000_000));
                prop_assert!(to_f64(lo) <= float[k] + 1e-9, "{method:?} {k}");
                prop_assert!(to_f64(hi) >= float[k] - 1e-9, "{method:?} {k}");
            }
            if s.exact {
                for k in 0..g.states.len() {
                    prop_assert_eq!(&matrix_value(&g.stage(k, &s.lower)), &s.lower[k]);
                }
            }
            answers.push(s);
        }
        for k in 0..g.states.len() {
            prop_assert!(answers[0].lower[k] <= answers[1].upper[k]);
            prop_assert!(answers[1].lower[k] <= answers[0].upper[k]);
        }
    }

    /// The row player's guarantee is what the best of every pure stationary reply leaves
    /// it, and it bounds the value from below; the column player's, mirrored, from above.
    #[test]
    fn guarantees_are_what_every_reply_leaves(g in arb_game()) {
        let s = sto::solve(&g, &opts(Method::PolicyIteration)).unwrap();
        prop_assert_eq!(brute_guarantee(&g, &s.row_strategy), s.row_guarantee.clone());
        // The column player's guarantee in the game with the roles swapped: the payoffs
        // negated and the matrices transposed.
        let swapped = StochasticGame {
            discount: g.discount.clone(),
            states: g.states.iter().map(|st| State {
                name: st.name.clone(),
                rows: st.columns.clone(),
                columns: st.rows.clone(),
                cells: (0..st.columns.len() * st.rows.len()).map(|k| {
                    let (j, i) = (k / st.rows.len(), k % st.rows.len());
                    let c = st.cell(i, j);
                    Cell { payoff: -c.payoff.clone(), next: c.next.clone() }
                }).collect(),
            }).collect(),
        };
        let neg: Vec<Q> = brute_guarantee(&swapped, &s.column_strategy).into_iter().map(|x| -x).collect();
        prop_assert_eq!(neg, s.column_guarantee.clone());
        for k in 0..g.states.len() {
            prop_assert!(s.row_guarantee[k] <= s.lower[k] && s.upper[k] <= s.column_guarantee[k]);
        }
    }
}

/// A random game of one state: up to 3 × 3 actions, payoffs in −5..5, each cell going on
/// with up to 7/8, discounted by 1, 9/10 or 1/2.
fn arb_one_state() -> impl Strategy<Value = StochasticGame> {
    (any::<u64>(), 0usize..3).prop_map(|(seed, d)| {
        let mut rng = seed | 1;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (m, k) = (1 + next() as usize % 3, 1 + next() as usize % 3);
        let cells = (0..m * k)
            .map(|_| {
                let payoff = q((next() % 11) as i64 - 5, 1);
                let eighths = (next() % 8) as i64;
                Cell {
                    payoff,
                    next: if eighths > 0 {
                        vec![(0, q(eighths, 8))]
                    } else {
                        Vec::new()
                    },
                }
            })
            .collect();
        let state = State {
            name: "s".into(),
            rows: (1..=m).map(|i| i.to_string()).collect(),
            columns: (1..=k).map(|i| i.to_string()).collect(),
            cells,
        };
        let discount = [q(1, 1), q(9, 10), q(1, 2)][d].clone();
        StochasticGame {
            discount,
            states: vec![state],
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("NIMBUS_FULL").map_or(60, |_| 600)))]

    /// Every irrational value of a one-state game comes with its polynomial, and the root is
    /// the value: checked without the kernels, by the sign of `val M(v) − v` (positive below
    /// the value, negative above: Shapley's operator is a contraction) computed by support
    /// enumeration at the ends of the root's interval, narrowed twenty times by the
    /// polynomial's sign.
    #[test]
    fn an_irrational_value_is_the_root_given(g in arb_one_state()) {
        let s = sto::solve(&g, &opts(Method::PolicyIteration)).unwrap();
        if s.exact {
            prop_assert!(s.algebraic.is_empty());
            return Ok(());
        }
        let a = s.algebraic[0].clone().expect("every one-state value has a kernel");
        prop_assert!(s.lower[0] <= a.lower && a.upper <= s.upper[0]);
        let p = |v: &Q| {
            a.polynomial
                .iter()
                .rev()
                .fold(Q::zero(), |acc, c| acc * v + Q::from_integer(c.clone()))
        };
        let excess = |v: &Q| matrix_value(&g.stage(0, std::slice::from_ref(v))) - v;
        let (mut lo, mut hi) = (a.lower.clone(), a.upper.clone());
        let low_sign = p(&lo).signum();
        prop_assert!(!low_sign.is_zero());
        for _ in 0..20 {
            prop_assert!(excess(&lo) > Q::zero(), "the value is above {}", show(&lo));
            prop_assert!(excess(&hi) <= Q::zero(), "the value is at most {}", show(&hi));
            let mid = (&lo + &hi) / q(2, 1);
            if p(&mid).signum() == low_sign {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let float = float_values(&g)[0];
        prop_assert!(to_f64(&a.lower) <= float + 1e-9 && float - 1e-9 <= to_f64(&a.upper));
    }
}

/// The Big Match discounted by δ: value 1/2 a stage (Blackwell and Ferguson), 1/(2(1 − δ))
/// in all, the row player stopping with probability (1 − δ)/(2 − δ), exactly.
#[test]
fn the_big_match_is_worth_half_a_stage() {
    for d in ["1/2", "2/3", "9/10", "99/100"] {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/big-match.ssg"
        ))
        .unwrap()
        .replace("discount 1/2", &format!("discount {d}"));
        let delta = parse_number(d).unwrap();
        for method in ["policy", "value"] {
            let req = Request {
                method: parse_method(method).unwrap(),
                ..Request::default()
            };
            let a = solve(&text, "big-match", &req, &Limits::default()).unwrap();
            assert!(a.exact, "{d} {method}");
            let one = Q::one();
            let value = &one / (Q::from_integer(2.into()) * (&one - &delta));
            assert_eq!(
                a.states[0].value.as_deref(),
                Some(show(&value).as_str()),
                "{d} {method}"
            );
            let stop = (&one - &delta) / (Q::from_integer(2.into()) - &delta);
            assert_eq!(a.states[0].row_strategy[1], show(&stop), "{d} {method}");
            assert_eq!(a.states[0].column_strategy, ["1/2", "1/2"]);
        }
    }
}

/// A one-state game whose value solves v² + 6v − 12 = 0: v = √21 − 3, irrational, so the
/// answer is an interval around it of the width asked for.
#[test]
fn an_irrational_value_is_bracketed() {
    let text = "state s\n 1 1: 3 -> s 1/2\n 1 2: 0\n 2 1: 1\n 2 2: 2\n";
    let root = 21f64.sqrt() - 3.0;
    for method in ["policy", "value"] {
        let req = Request {
            method: parse_method(method).unwrap(),
            tolerance: q(1, 1_000_000_000_000),
        };
        let a = solve(text, "t", &req, &Limits::default()).unwrap();
        assert!(!a.exact);
        let (lo, hi) = (
            parse_number(&a.states[0].lower).unwrap(),
            parse_number(&a.states[0].upper).unwrap(),
        );
        assert!(&hi - &lo <= q(1, 1_000_000_000_000));
        assert!(to_f64(&lo) <= root + 1e-15 && root - 1e-15 <= to_f64(&hi));
        // Exactly: lo and hi sit on either side of the root of v² + 6v − 12.
        let f = |v: &Q| v * v + Q::from_integer(6.into()) * v - Q::from_integer(12.into());
        assert!(f(&lo) <= Q::zero() && f(&hi) >= Q::zero());
        assert!(a.notes.iter().any(|n| n.contains("proven bounds")));
        // And exactly, as the root of that polynomial.
        let x = a.states[0].algebraic.as_ref().expect("one state: exact");
        assert_eq!(x.polynomial, "v^2 + 6v - 12");
        assert_eq!(x.coefficients, ["-12", "6", "1"]);
        assert_eq!(x.closed_form.as_deref(), Some("-3 + sqrt(21)"));
        assert_eq!((x.rows.len(), x.columns.len()), (2, 2));
    }
}

#[test]
fn the_file_is_checked_where_it_goes_wrong() {
    let bad = |text: &str| {
        parse(text, "g.ssg")
            .and_then(|g| g.check().map(|_| g))
            .unwrap_err()
            .to_string()
    };
    assert!(bad("").contains("no states"));
    assert!(
        bad("state a\n 1 1: 0 -> b\n").contains("g.ssg, line 2, column 12: no state is called b"),
        "{}",
        bad("state a\n 1 1: 0 -> b\n")
    );
    assert!(bad("state a\n rows x y\n x 1: 0\n").contains("no cell for row y"));
    assert!(bad("state a\n 1 1: 0 -> a 1/2, a 2/3\n").contains("more than 1"));
    assert!(bad("state a\n 1 1: 0\n 1 1: 1\n").contains("given twice"));
    assert!(bad("state a\n 1 1: 0 -> a\n").contains("give a discount below 1"));
    assert!(bad("discount 0\nstate a\n 1 1: 0\n").contains("not in (0, 1]"));
    assert!(
        bad("state a\n 1 1: x\n").contains("g.ssg, line 2, column 7: 'x' is not a number"),
        "{}",
        bad("state a\n 1 1: x\n")
    );
    assert!(bad("state a\n rows x\n z 1: 0\n").contains("no row z (the rows are x)"));
    assert!(bad("fish\n").contains("'fish' is not"));
}

#[test]
fn the_work_budget_is_checked() {
    let g = parse(
        "discount 99/100\nstate a\n 1 1: 1 -> a\n 1 2: 0 -> a\n 2 1: 0 -> a\n 2 2: 1 -> a\n",
        "t",
    )
    .unwrap();
    let o = Options {
        max_work: 10,
        ..opts(Method::ValueIteration)
    };
    assert_eq!(sto::solve(&g, &o).unwrap_err().kind(), "work_limit");
}

/// The README's example of the format reads and solves (and its play ends).
#[test]
fn the_readme_example_reads() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let section = readme.split("## Stochastic game files").nth(1).unwrap();
    let text = section
        .split("```text")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let g = parse(text, "README").unwrap();
    assert_eq!(g.states.len(), 2);
    assert_eq!(g.states[0].rows, ["stay", "leave"]);
    assert_eq!(g.states[0].cell(0, 1).next, [(1, q(1, 2)), (0, q(1, 4))]);
    assert!(g.states[0].cell(1, 0).next.is_empty());
    let s = sto::solve(&g, &Options::default()).unwrap();
    assert!(s.exact);
}
