//! Proper equilibria against a slower independent method and published examples.
//!
//! - Myerson's game (Myerson 1978; van Damme, *Stability and Perfection of Nash Equilibria*,
//!   example 2.3.2's kind): adding a third, bad strategy for each player makes the perfect
//!   equilibrium (D, R) improper, while (U, L) stays proper.
//! - Against a brute force over the same characterisation without the solver's shortcuts:
//!   every ranking of each player's strategies (not only those that split ties of the payoffs
//!   against the equilibrium), and for each, every order at which each class appears and every
//!   order at which each tie between consecutive classes breaks, decided by one joint LP over
//!   all the orders of the perturbation — where the solver takes, one order at a time, an LP
//!   that breaks as many ties as it can.
//! - Every proper equilibrium is perfect; when a game's equilibria are isolated, one of them
//!   is proper (Myerson's existence theorem); relabelling strategies and swapping the players
//!   relabel the marks.

use nimbus::api::nash::{solve, Method, Refinement, Request};
use nimbus::api::Limits;
use nimbus::exact::simplex::maximize;
use nimbus::exact::{over_common_denominator, Q};
use nimbus::strategic::game::NormalForm;
use nimbus::strategic::solvers::proper::{decide, Verdict};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};
use proptest::prelude::*;

fn q(x: i64) -> Q {
    Q::from_integer(x.into())
}

fn to_q(a: &[Vec<i64>]) -> Vec<Vec<Q>> {
    a.iter()
        .map(|r| r.iter().map(|&v| q(v)).collect())
        .collect()
}

fn cases() -> u32 {
    if std::env::var_os("NIMBUS_FULL_TESTS").is_some() {
        2000
    } else {
        200
    }
}

/// Every extreme equilibrium with its perfect and proper marks.
fn marked(a: &[Vec<i64>], b: &[Vec<i64>]) -> (nimbus::api::nash::Answer, Vec<Option<bool>>) {
    let game = NormalForm::bimatrix(&to_q(a), &to_q(b)).unwrap();
    let req = Request {
        method: Method::Vertex,
        refine: vec![Refinement::Perfect, Refinement::Proper],
        ..Request::default()
    };
    let answer = solve(&game, &req, &Limits::default()).unwrap();
    let proper = answer.proper.clone().unwrap();
    (answer, proper)
}

#[test]
fn myerson_adds_a_bad_strategy_and_d_r_is_no_longer_proper() {
    // Without the third strategies both pure equilibria are... (U, L) perfect and proper,
    // (D, R) not even perfect.
    let (answer, proper) = marked(&[vec![1, 0], vec![0, 0]], &[vec![1, 0], vec![0, 0]]);
    let pure: Vec<_> = answer
        .equilibria
        .iter()
        .map(|e| e.profile.clone())
        .collect();
    assert_eq!(pure.len(), 2, "{pure:?}");
    assert_eq!(proper, vec![Some(true), Some(false)]);
    // With them: (D, R) is perfect (Z makes R a best reply to trembles putting more weight on
    // Z than on U) but not proper (Z, being worse than U, must be infinitely less likely).
    let a = vec![vec![1, 0, -9], vec![0, 0, -7], vec![-9, -7, -7]];
    let (answer, proper) = marked(&a, &a);
    let names: Vec<(usize, usize)> = answer
        .equilibria
        .iter()
        .map(|e| {
            let pure = |p: &Vec<Q>| p.iter().position(|v| v.is_one()).unwrap();
            (pure(&e.profile[0]), pure(&e.profile[1]))
        })
        .collect();
    assert_eq!(names, vec![(0, 0), (1, 1), (2, 2)]);
    assert_eq!(answer.perfect.unwrap(), vec![true, true, false]);
    assert_eq!(proper, vec![Some(true), Some(false), Some(false)]);
}

#[test]
fn a_completely_mixed_equilibrium_is_proper() {
    // Matching pennies: the only equilibrium plays everything, so nothing is left to order.
    let (_, proper) = marked(&[vec![1, -1], vec![-1, 1]], &[vec![-1, 1], vec![1, -1]]);
    assert_eq!(proper, vec![Some(true)]);
}

/// Every ordered partition of `items`.
fn ordered_partitions(items: &[usize]) -> Vec<Vec<Vec<usize>>> {
    // Every map from the items to block numbers 0..k that uses each number.
    let n = items.len();
    let mut out = Vec::new();
    if n == 0 {
        return vec![Vec::new()];
    }
    let total = n.pow(n as u32);
    for code in 0..total {
        let mut c = code;
        let block: Vec<usize> = (0..n)
            .map(|_| {
                let b = c % n;
                c /= n;
                b
            })
            .collect();
        let k = block.iter().max().unwrap() + 1;
        if (0..k).all(|b| block.contains(&b)) {
            out.push(
                (0..k)
                    .map(|b| {
                        (0..n)
                            .filter(|&i| block[i] == b)
                            .map(|i| items[i])
                            .collect()
                    })
                    .collect(),
            );
        }
    }
    out
}

/// Every ranking of a player's strategies: the support, then any ordered partition of the
/// rest.
fn rankings(strategy: &[Q]) -> Vec<Vec<Vec<usize>>> {
    let support: Vec<usize> = (0..strategy.len())
        .filter(|&i| strategy[i].is_positive())
        .collect();
    let rest: Vec<usize> = (0..strategy.len())
        .filter(|&i| !strategy[i].is_positive())
        .collect();
    ordered_partitions(&rest)
        .into_iter()
        .map(|p| {
            let mut r = vec![support.clone()];
            r.extend(p);
            r
        })
        .collect()
}

fn dot(d: &[Q], v: &[Q]) -> Q {
    d.iter().zip(v).map(|(a, b)| a * b).sum()
}

/// All increasing sequences of `len` numbers from `1..=top`.
fn increasing(len: usize, top: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        out = out
            .into_iter()
            .flat_map(|s: Vec<usize>| {
                let from = s.last().map_or(1, |l| l + 1);
                (from..=top).map(move |x| {
                    let mut t = s.clone();
                    t.push(x);
                    t
                })
            })
            .collect();
    }
    out
}

/// Whether some perturbation of `other`, its strategies appearing in the order `theirs`,
/// keeps the payoffs `own` in the order `mine`: every assignment of orders, one joint LP
/// each.
fn sustained_brute(
    own: &[Vec<Q>],
    mine: &[Vec<usize>],
    other: &[Q],
    theirs: &[Vec<usize>],
) -> bool {
    let n = other.len();
    let diff =
        |s: usize, t: usize| -> Vec<Q> { own[s].iter().zip(&own[t]).map(|(u, v)| u - v).collect() };
    let equal: Vec<Vec<Q>> = mine
        .iter()
        .flat_map(|c| c[1..].iter().map(move |&s| (s, c[0])))
        .map(|(s, t)| diff(s, t))
        .collect();
    let bounds: Vec<Vec<Q>> = mine.windows(2).map(|w| diff(w[0][0], w[1][0])).collect();
    if equal.iter().any(|e| !dot(e, other).is_zero()) {
        return false;
    }
    // Enough orders for any class to appear and any tie to break at an order of its own.
    let top = (theirs.len() - 1) + bounds.len();
    let never = top + 1;
    let mut class_of = vec![0; n];
    for (c, class) in theirs.iter().enumerate() {
        for &t in class {
            class_of[t] = c;
        }
    }
    for appear in increasing(theirs.len() - 1, top) {
        let order_of = |t: usize| {
            if class_of[t] == 0 {
                0
            } else {
                appear[class_of[t] - 1]
            }
        };
        let choices = bounds.len() as u32;
        for code in 0..(never + 1).pow(choices) {
            let mut c = code;
            let broken: Vec<usize> = (0..bounds.len())
                .map(|_| {
                    let r = c % (never + 1);
                    c /= never + 1;
                    r
                })
                .collect();
            // Order 0 is the equilibrium strategy itself.
            let zero_ok = bounds.iter().zip(&broken).all(|(d, &r)| {
                let v = dot(d, other);
                if r == 0 {
                    v.is_positive()
                } else {
                    v.is_zero()
                }
            });
            if zero_ok && joint_lp(&equal, &bounds, &broken, top, n, &order_of) {
                return true;
            }
        }
    }
    false
}

/// One LP over the coefficients of orders 1..=top (variables v⁺, v⁻ per order and strategy,
/// then s): maximise s ≤ 1 with every appearing strategy and every breaking tie at least s.
fn joint_lp(
    equal: &[Vec<Q>],
    bounds: &[Vec<Q>],
    broken: &[usize],
    top: usize,
    n: usize,
    order_of: &dyn Fn(usize) -> usize,
) -> bool {
    let cols = 2 * top * n + 1;
    let s = cols - 1;
    let var = |k: usize, t: usize| 2 * ((k - 1) * n + t);
    let mut rows: Vec<(Vec<Q>, bool)> = Vec::new();
    let lin = |d: &[Q], k: usize| {
        let mut r = vec![Q::zero(); cols];
        for t in 0..n {
            r[var(k, t)] = d[t].clone();
            r[var(k, t) + 1] = -d[t].clone();
        }
        r
    };
    let neg = |r: &[Q]| r.iter().map(|x| -x).collect::<Vec<Q>>();
    let mut strict = false;
    for k in 1..=top {
        for t in 0..n {
            let o = order_of(t);
            let mut pos = vec![Q::zero(); cols];
            pos[var(k, t)] = Q::one();
            let mut negv = vec![Q::zero(); cols];
            negv[var(k, t) + 1] = Q::one();
            if o > k {
                rows.push((pos, false));
                rows.push((negv, false));
            } else if o == k {
                // v ≥ s: s − v⁺ + v⁻ ≤ 0.
                let mut r = vec![Q::zero(); cols];
                r[s] = Q::one();
                r[var(k, t)] = -Q::one();
                r[var(k, t) + 1] = Q::one();
                rows.push((r, false));
                strict = true;
            }
        }
        for e in equal {
            let r = lin(e, k);
            rows.push((neg(&r), false));
            rows.push((r, false));
        }
        for (d, &r_b) in bounds.iter().zip(broken) {
            let r = lin(d, k);
            if k < r_b {
                rows.push((neg(&r), false));
                rows.push((r, false));
            } else if k == r_b {
                let mut row = neg(&r);
                row[s] = Q::one();
                rows.push((row, false));
                strict = true;
            }
        }
    }
    if !strict {
        // Nothing has to be positive: the zero perturbation does, if its equalities hold —
        // they do, being homogeneous.
        return true;
    }
    let mut cap = vec![Q::zero(); cols];
    cap[s] = Q::one();
    rows.push((cap, true));
    let a: Vec<Vec<BigInt>> = rows
        .iter()
        .map(|(r, _)| over_common_denominator(r.iter()).0)
        .collect();
    let b: Vec<BigInt> = rows
        .iter()
        .map(|&(_, c)| if c { BigInt::one() } else { BigInt::zero() })
        .collect();
    let mut c = vec![BigInt::zero(); cols];
    c[s] = BigInt::one();
    maximize(&a, &b, &c).unwrap().value.is_positive()
}

/// Properness by brute force.
fn proper_brute(a: &[Vec<Q>], b: &[Vec<Q>], x: &[Q], y: &[Q]) -> bool {
    let bt: Vec<Vec<Q>> = (0..y.len())
        .map(|j| b.iter().map(|r| r[j].clone()).collect())
        .collect();
    let (rx, ry) = (rankings(x), rankings(y));
    ry.iter().any(|fc| {
        rx.iter()
            .any(|fr| sustained_brute(a, fr, y, fc) && sustained_brute(&bt, fc, x, fr))
    })
}

fn transpose(m: &[Vec<i64>]) -> Vec<Vec<i64>> {
    (0..m[0].len())
        .map(|j| m.iter().map(|r| r[j]).collect())
        .collect()
}

type Pair = (Vec<Vec<i64>>, Vec<Vec<i64>>);

fn small_game(most: usize, entries: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = Pair> {
    (2..=most, 2..=most).prop_flat_map(move |(m, n)| {
        let mat = prop::collection::vec(prop::collection::vec(entries.clone(), n), m);
        (mat.clone(), mat)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// The solver's verdict on each extreme equilibrium equals the brute force's, on small
    /// games with many ties (payoffs 0, 1, 2).
    #[test]
    fn agrees_with_brute_force((a, b) in small_game(3, 0..=2)) {
        let (qa, qb) = (to_q(&a), to_q(&b));
        let (answer, proper) = marked(&a, &b);
        for (e, mark) in answer.equilibria.iter().zip(&proper) {
            let brute = proper_brute(&qa, &qb, &e.profile[0], &e.profile[1]);
            prop_assert_eq!(*mark, Some(brute), "{:?} {:?} at {:?}", a, b, e.profile);
            // And the witness the solver gives is one the brute force accepts.
            if let Verdict::Proper(w) =
                decide(&qa, &qb, &e.profile[0], &e.profile[1], &Limits::default(), &mut 0).unwrap()
            {
                let bt: Vec<Vec<Q>> = (0..qb[0].len())
                    .map(|j| qb.iter().map(|r| r[j].clone()).collect())
                    .collect();
                prop_assert!(sustained_brute(&qa, &w.classes[0], &e.profile[1], &w.classes[1]));
                prop_assert!(sustained_brute(&bt, &w.classes[1], &e.profile[0], &w.classes[0]));
            }
        }
    }

    /// Proper equilibria are perfect; where the equilibria are isolated one of them is
    /// proper; relabelling and swapping the players relabel the marks.
    #[test]
    fn theorems_and_relabelling((a, b) in small_game(4, -2..=2), turn in 0usize..4) {
        let (answer, proper) = marked(&a, &b);
        let perfect = answer.perfect.clone().unwrap();
        for (p, q) in proper.iter().zip(&perfect) {
            prop_assert!(p.is_some());
            if *p == Some(true) {
                prop_assert!(q);
            }
        }
        let isolated = answer
            .components
            .as_ref()
            .is_none_or(|cs| cs.iter().all(|c| c.equilibria.len() == 1));
        if isolated {
            prop_assert!(proper.contains(&Some(true)), "{:?} {:?}", a, b);
        }
        // Rotate the rows by `turn` and swap the players: the same equilibria, marked alike.
        let m = a.len();
        let rot = |x: &Vec<Vec<i64>>| -> Vec<Vec<i64>> {
            (0..m).map(|i| x[(i + turn) % m].clone()).collect()
        };
        let (a2, b2) = (transpose(&rot(&b)), transpose(&rot(&a)));
        let (answer2, proper2) = marked(&a2, &b2);
        for (e, mark) in answer.equilibria.iter().zip(&proper) {
            let x2: Vec<Q> = (0..m).map(|i| e.profile[0][(i + turn) % m].clone()).collect();
            let k = answer2
                .equilibria
                .iter()
                .position(|f| f.profile[1] == x2 && f.profile[0] == e.profile[1])
                .expect("the relabelled equilibrium");
            prop_assert_eq!(proper2[k], *mark);
        }
    }
}
