//! The subdivision of a profile's box: boxes explored in turn, cut in two, excluded, or kept
//! as unresolved below the smallest width; the budget's meter.

use super::*;

/// A proved solution: its box and regret bound and payoff intervals.
pub(super) type Boxed = (Vec<Iv<Q>>, Q, Vec<Iv<Q>>);
/// A proved solution's enlarged box (where it is unique) and its narrow box.
pub(super) type Root = (Vec<Iv<f64>>, Vec<Iv<f64>>);
/// What the refinement of a proved solution decided, with the regret bound and payoffs of a
/// certified one.
pub(super) type Settled = (Isolated, Option<(Q, Vec<Iv<Q>>)>);
/// The refinement of a proved solution's narrow box, run where the solution is found.
pub(super) type Settle<'a> = &'a (dyn Fn(&[Iv<f64>]) -> Settled + Sync);

/// What one support profile's system gave.
#[derive(Default)]
pub(super) struct Solved {
    pub(super) exact: Vec<Vec<Q>>,
    pub(super) certified: Vec<Boxed>,
    pub(super) unresolved: Vec<Unresolved>,
    pub(super) boxes: u64,
}

/// Counts work and watches the deadline, for every thread at once.
pub(super) struct Meter<'a> {
    pub(super) opts: &'a Options,
    pub(super) work: AtomicU64,
    pub(super) boxes: AtomicU64,
    pub(super) halted: AtomicBool,
    pub(super) stopped: Mutex<Option<String>>,
}

impl<'a> Meter<'a> {
    pub(super) fn new(opts: &'a Options) -> Self {
        Meter {
            opts,
            work: AtomicU64::new(0),
            boxes: AtomicU64::new(0),
            halted: AtomicBool::new(false),
            stopped: Mutex::new(None),
        }
    }

    pub(super) fn spend(&self, steps: u64) -> Result<bool> {
        let work = self
            .work
            .fetch_add(steps, Ordering::Relaxed)
            .saturating_add(steps);
        if self.halted.load(Ordering::Relaxed) {
            return Ok(false);
        }
        if work > self.opts.max_work {
            self.halt(format!(
                "the work budget of {} steps was spent",
                self.opts.max_work
            ));
            return Ok(false);
        }
        if self.boxes.fetch_add(1, Ordering::Relaxed) % 64 == 0 {
            progress::check()?;
            if self.opts.deadline.is_some_and(|t| Instant::now() >= t) {
                self.halt("the time limit was reached".into());
                return Ok(false);
            }
        }
        Ok(true)
    }

    pub(super) fn halt(&self, why: String) {
        if let Ok(mut s) = self.stopped.lock() {
            s.get_or_insert(why);
        }
        self.halted.store(true, Ordering::Relaxed);
    }
}

pub(super) fn widest(x: &[Iv<f64>]) -> (usize, f64) {
    x.iter()
        .enumerate()
        .map(|(i, v)| (i, v.width()))
        .fold((0, -1.0), |b, c| if c.1 > b.1 { c } else { b })
}

/// The narrowest interval of doubles around an interval of dyadics.
pub(super) fn enclose_dy(v: &Iv<Dy>) -> Iv<f64> {
    Iv::new(v.lo.down_f64(), v.hi.up_f64())
}

/// A box of doubles as dyadic intervals (exactly).
pub(super) fn as_dyadic(x: &[Iv<f64>]) -> Vec<Iv<Dy>> {
    x.iter()
        .map(|v| Iv::new(Dy::from_f64(v.lo), Dy::from_f64(v.hi)))
        .collect()
}

/// A box of dyadics as rational intervals.
pub(super) fn dyadic_to_exact(x: &[Iv<Dy>]) -> Vec<Iv<Q>> {
    x.iter()
        .map(|v| Iv::new(v.lo.exact(), v.hi.exact()))
        .collect()
}

pub(super) fn as_exact(x: &[Iv<f64>]) -> Vec<Iv<Q>> {
    x.iter()
        .map(|v| Iv::new(v.lo.exact(), v.hi.exact()))
        .collect()
}

/// What the subdivision of some boxes of one support profile found.
#[derive(Default)]
pub(super) struct Explored {
    pub(super) boxes: u64,
    /// Proved solutions: the enlarged box where each is unique, and its narrow box.
    pub(super) roots: Vec<Root>,
    /// Each root's refinement, when it was run where the root was found.
    pub(super) settled: Vec<Option<Settled>>,
    pub(super) loose: Vec<Vec<Iv<f64>>>,
    /// Exact equilibria met where the equations are singular: in a continuum of equilibria,
    /// the simple rationals of a box's middle are the points worth reporting.
    pub(super) singular: Vec<Vec<Q>>,
    pub(super) gave_up: bool,
    /// The boxes not examined (when `gave_up`, or when split off).
    pub(super) rest: Vec<Vec<Iv<f64>>>,
}

/// The subdivision of `stack`'s boxes; with `split = Some((wait, dive))`, it stops once `wait`
/// boxes wait and it has examined at least `dive`, and returns the waiting ones in `rest` to
/// be explored apart. `None` when the meter stopped it.
#[allow(clippy::too_many_arguments)]
// Kept as one function: the hot loop over one piece's boxes: the vertex narrowing's buffers are
// kept from box to box, and each test it applies is a method of the system.
pub(super) fn explore(
    sys: &System,
    cq: &Coefs<Q>,
    ci: &Coefs<Iv<f64>>,
    cf: &Coefs<f64>,
    meter: &Meter,
    cost: u64,
    mut stack: Vec<Vec<Iv<f64>>>,
    split: Option<(usize, u64)>,
    settle: Option<Settle>,
) -> Result<Option<Explored>> {
    let mut found = Explored::default();
    let Explored {
        roots,
        settled,
        loose,
        singular,
        boxes,
        ..
    } = &mut found;
    let mut attempts = 0;
    // The vertex narrowing's sums, kept from box to box (fifteen buffers on a 2^5 game).
    let mut groups: Vec<Sums> = Vec::new();
    while let Some(mut x) = stack.pop() {
        if split.is_some_and(|(wait, dive)| stack.len() + 1 >= wait && *boxes >= dive) {
            stack.push(x);
            break;
        }
        if !meter.spend(cost)? {
            return Ok(None);
        }
        *boxes += 1;
        if !sys.tighten(&mut x) || x.iter().any(|v| v.hi < 0.0) {
            continue;
        }
        let corners = sys.corner_tables(ci, &x);
        // The box the corner values are of (narrowing below only shrinks `x` inside it).
        let pre = corners.as_ref().map(|_| x.clone());
        let (eq, ineq) = sys.ranges(ci, &x, corners.as_deref());
        if eq.iter().any(|v| v.sign() != Order::Equal)
            || ineq.iter().any(|v| v.sign() == Order::Greater)
        {
            continue;
        }
        let m: Vec<f64> = x.iter().map(Iv::mid).collect();
        let jm = sys.jacobian(cf, &m);
        let y = inverse(&jm);
        if y.is_none() && singular.len() < 4 && attempts < 16 {
            attempts += 1;
            let middle: Vec<Iv<Q>> = as_exact(&x)
                .into_iter()
                .map(|v| {
                    let third = (&v.hi - &v.lo) / Q::from_integer(3.into());
                    Iv::new(&v.lo + &third, &v.hi - &third)
                })
                .collect();
            if let Some(q) = exact_point(sys, cq, &middle) {
                if exact_is_equilibrium(sys, cq, &q) && !singular.contains(&q) {
                    singular.push(q);
                }
            }
        }
        if let Some(y) = y {
            // The test runs on an enlarged box, so that a solution on the boundary between two
            // boxes (a rational one on the grid of cuts) is still inside one of them.
            let mut big = x.clone();
            for &f in &sys.free {
                let pad = x[f].width() * 0.1 + 1e-12;
                big[f] = Iv::new(x[f].lo - pad, x[f].hi + pad);
            }
            // Wide boxes almost never pass, and the test costs as much as a contraction: on the
            // benchmark games it proves nothing on boxes wider than a twentieth that the
            // narrowing would not soon shrink (from a fifth: 3% more instructions on 2^5 #0,
            // the same boxes within two).
            let k = (widest(&x).1 < 0.05).then(|| sys.krawczyk(ci, &big, &m, &y));
            if let Some(k) = k.filter(|k| k.iter().zip(&sys.free).all(|(a, &f)| a.inside(&big[f])))
            {
                let mut narrow = big.clone();
                let mut image = k;
                for _ in 0..40 {
                    let before = widest(&narrow).1;
                    for (&f, v) in sys.free.iter().zip(&image) {
                        // The image holds the solution, and so does the box.
                        narrow[f] = narrow[f].meet(v).unwrap_or_else(|| v.clone());
                    }
                    if widest(&narrow).1 > 0.7 * before {
                        break;
                    }
                    let mm: Vec<f64> = narrow.iter().map(Iv::mid).collect();
                    let Some(yy) = inverse(&sys.jacobian(cf, &mm)) else {
                        break;
                    };
                    image = sys.krawczyk(ci, &narrow, &mm, &yy);
                }
                sys.firsts(&mut narrow);
                if sys.add_root(roots, (big, narrow)) {
                    settled.push(settle.map(|f| f(&roots[roots.len() - 1].1)));
                }
                continue;
            }
            let before = widest(&x).1;
            // The vertex tests narrow at least as well as the interval Gauss–Seidel step (which
            // pays for an interval Jacobian), where there are few enough unknowns for them.
            let narrowed = match (&corners, &pre) {
                (Some(c), Some(pre)) => sys.vertex_narrow(c, &y, pre, &mut x, &mut groups),
                _ => sys.gauss_seidel(ci, &mut x, &m, &y),
            };
            if !narrowed || !sys.tighten(&mut x) {
                continue;
            }
            if widest(&x).1 < 0.7 * before {
                stack.push(x);
                continue;
            }
        }
        if let (Some(c), Some(pre)) = (&corners, &pre) {
            if sys.hull_excludes(ci, c, pre) {
                continue;
            }
        }
        // The first probability of each player follows from the others: cut the others.
        let (axis, w) = sys
            .free
            .iter()
            .map(|&t| (t, x[t].width()))
            .fold((0, -1.0), |b, c| if c.1 > b.1 { c } else { b });
        if w < MIN_WIDTH {
            loose.push(x);
            if loose.len() >= MAX_UNRESOLVED {
                found.gave_up = true;
                break;
            }
            continue;
        }
        // Cut off the middle, so that simple rationals (1/2, 1/3) are rarely on a cut.
        let cut = x[axis].lo + w * 0.4617;
        let mut left = x.clone();
        left[axis].hi = cut;
        x[axis].lo = cut;
        stack.push(left);
        stack.push(x);
    }
    found.rest = stack;
    Ok(Some(found))
}

/// Every solution of one support profile's system that is an equilibrium: in closed form
/// where three players mix two strategies each, or two mix two and one three, by subdivision
/// otherwise.
pub(super) fn solve_support(
    pay: &Payoffs,
    support: &[Vec<usize>],
    dens: &[BigInt],
    meter: &Meter,
    digits: u32,
) -> Result<Option<Solved>> {
    if let Some(solved) = closed::solve(pay, support, dens, digits) {
        return Ok(Some(solved));
    }
    subdivide(pay, support, dens, meter, digits)
}

/// [`solve_support`] by subdivision.
// Kept as one function: its rounds share one queue of waiting boxes, the meter and the proved
// solutions; what a round does to a box is `explore`, and the certification is the closures above
// the rounds.
pub(super) fn subdivide(
    pay: &Payoffs,
    support: &[Vec<usize>],
    dens: &[BigInt],
    meter: &Meter,
    digits: u32,
) -> Result<Option<Solved>> {
    let (sys, cq) = system(pay, support);
    let cf: Coefs<f64> = Coefs::of(&cq);
    let ci: Coefs<Iv<f64>> = Coefs::of(&cq);
    let size: usize = sys
        .polys
        .iter()
        .map(|p| p.dims.iter().product::<usize>())
        .sum::<usize>()
        + sys.ineq_polys.len();
    // A box costs its narrowing (the coefficients times the unknowns) and the separations
    // and exact checks around it: about 16 steps a coefficient and unknown at the 15 ns a step
    // the default work budget assumes (measured on Myerson's 9 x 3 x 3 game and an all-zero
    // 6 x 6 support, bench/RESULTS.md).
    let cost = (16 * (size + 1) * (sys.free.len() + 1)) as u64;
    let mut out = Solved::default();
    let start: Vec<Iv<f64>> = support
        .iter()
        .flat_map(|s| {
            let one = s.len() == 1;
            s.iter().map(move |_| {
                if one {
                    Iv::new(1.0, 1.0)
                } else {
                    Iv::new(-MARGIN, 1.0 + MARGIN)
                }
            })
        })
        .collect();
    // A large profile's boxes are split among the cores once there are enough of them to share
    // (the last profiles of a game are its largest, and ran on one core while the other
    // waited; from five unknowns: the full profile of a 2^5 game, a few hundred boxes, took 15%
    // less time shared). The rounds below depend only on the number of threads, and the proved
    // solutions are sorted at the end, so the answer does not depend on it.
    let threads = rayon::current_num_threads();
    let split = (threads > 1 && sys.free.len() >= 5).then_some((4 * threads, 0));
    // Dyadic coefficients only where a solution is to be refined (most profiles have none).
    let cd: std::sync::OnceLock<Coefs<Dy>> = std::sync::OnceLock::new();
    // Most proved solutions are not equilibria (a probability below zero, a better strategy
    // outside the support); the doubles already say so for those. Each certificate takes
    // about a tenth of a millisecond in exact arithmetic.
    let candidate = |narrow: &[Iv<f64>]| {
        !(narrow.iter().any(|v| v.hi < 0.0)
            || sys
                .inequalities(&ci, narrow)
                .iter()
                .any(|v| v.sign() == Order::Greater))
    };
    let settle = |narrow: &[Iv<f64>]| -> Settled {
        if !candidate(narrow) {
            return (Isolated::NotEquilibrium, None);
        }
        let cd = cd.get_or_init(|| Coefs::of(&cq));
        match refine(&sys, &cq, cd, &ci, &cf, as_dyadic(narrow), digits, true) {
            Isolated::Certified(b) => {
                let (regret, payoffs) = regret_bound(pay, &sys, &b, dens, digits);
                (Isolated::Certified(b), Some((regret, payoffs)))
            }
            other => (other, None),
        }
    };
    // A shared profile's solutions are refined by the piece that finds them, on whichever
    // core runs it: refined after the search, the last few ran on one core while the others
    // waited (three on a 2^5 game's full profile, a seventh of its time).
    let in_pieces = split.map(|_| &settle as Settle);
    let Some(first) = explore(
        &sys,
        &cq,
        &ci,
        &cf,
        meter,
        cost,
        vec![start],
        split,
        in_pieces,
    )?
    else {
        return Ok(None);
    };
    let deadline = crate::core::progress::current_deadline();
    let mut all = first;
    // The boxes left over are explored on every core, and a piece that still has a stack after
    // diving `DIVE` boxes deep first hands it back for the next round, so that one large piece
    // does not leave a core idle. (Without the dive, the rounds would go breadth first: in a
    // continuum of solutions, which only boxes at the narrowest width reveal, the waiting
    // boxes multiplied by thousands before the first was found.)
    let pieces_split = split.map(|(wait, _)| (wait, DIVE));
    let mut waiting = if split.is_some() && !all.gave_up {
        std::mem::take(&mut all.rest)
    } else {
        Vec::new()
    };
    // A round takes the newest waiting boxes (depth first, as one core would), a few per
    // core, so that a round's work is bounded; its pieces are merged in order, and once the
    // unresolved boxes reach the limit the pieces after that one count as unexplored. The
    // rounds depend only on the number of cores, never on timing.
    let per_round = 4 * threads;
    while !waiting.is_empty() && !all.gave_up {
        let round = waiting.split_off(waiting.len().saturating_sub(per_round));
        let pieces: Vec<Result<Option<Explored>>> = round
            .par_iter()
            .map(|b| {
                crate::core::progress::with_deadline(deadline, || {
                    explore(
                        &sys,
                        &cq,
                        &ci,
                        &cf,
                        meter,
                        cost,
                        vec![b.clone()],
                        pieces_split,
                        in_pieces,
                    )
                })
            })
            .collect();
        let mut next = Vec::new();
        for (piece, b) in pieces.into_iter().zip(round) {
            let Some(piece) = piece? else {
                return Ok(None);
            };
            if all.gave_up {
                all.rest.push(b);
                continue;
            }
            all.boxes += piece.boxes;
            for (root, settled) in piece.roots.into_iter().zip(piece.settled) {
                if sys.add_root(&mut all.roots, root) {
                    all.settled.push(settled);
                }
            }
            all.loose.extend(piece.loose);
            for q in piece.singular {
                if !all.singular.contains(&q) {
                    all.singular.push(q);
                }
            }
            all.gave_up |= piece.gave_up || all.loose.len() >= MAX_UNRESOLVED;
            if piece.gave_up {
                all.rest.extend(piece.rest);
            } else {
                next.extend(piece.rest);
            }
        }
        waiting.append(&mut next);
    }
    all.rest.append(&mut waiting);
    out.boxes = all.boxes;
    let Explored {
        roots,
        settled,
        mut loose,
        singular,
        gave_up,
        rest: stack,
        ..
    } = all;
    // The order the boxes were met in depends on the cores; the answer does not.
    let mut roots: Vec<(Root, Option<Settled>)> = roots.into_iter().zip(settled).collect();
    roots.sort_by(|a, b| {
        (a.0)
            .1
            .iter()
            .map(|v| v.lo)
            .partial_cmp((b.0).1.iter().map(|v| v.lo))
            .unwrap_or(Order::Equal)
    });
    // Several left to refine are shared among the cores (in order, so the answer does not
    // depend on them).
    let open = roots
        .iter()
        .filter(|((_, narrow), done)| done.is_none() && candidate(narrow))
        .count();
    let settled: Vec<Settled> = if threads > 1 && open > 1 {
        crate::core::progress::with_deadline(deadline, || {
            roots
                .into_par_iter()
                .map(|((_, narrow), done)| done.unwrap_or_else(|| settle(&narrow)))
                .collect()
        })
    } else {
        roots
            .into_iter()
            .map(|((_, narrow), done)| done.unwrap_or_else(|| settle(&narrow)))
            .collect()
    };
    for (isolated, bound) in settled {
        match isolated {
            Isolated::Exact(q) => out.exact.push(q),
            Isolated::Certified(b) => {
                let (regret, payoffs) =
                    bound.unwrap_or_else(|| regret_bound(pay, &sys, &b, dens, digits));
                out.certified.push((b, regret, payoffs));
            }
            Isolated::NotEquilibrium => {}
            Isolated::Undecided(b) => {
                let (lower, upper) = spread_box(pay, support, &b);
                out.unresolved.push(Unresolved {
                    support: support.to_vec(),
                    lower,
                    upper,
                    point: None,
                    reason: "an isolated solution whose positivity, or whose comparison with \
                             a strategy outside the support, the intervals could not decide"
                        .into(),
                })
            }
        }
    }
    if !loose.is_empty() || gave_up {
        loose.extend(stack);
        let hull: Vec<Iv<f64>> = (0..sys.d)
            .map(|t| {
                let lo = loose.iter().map(|b| b[t].lo).fold(f64::INFINITY, f64::min);
                let hi = loose
                    .iter()
                    .map(|b| b[t].hi)
                    .fold(f64::NEG_INFINITY, f64::max);
                Iv::new(lo, hi)
            })
            .collect();
        let point = singular.first().cloned().or_else(|| {
            loose.iter().find_map(|b| {
                let q = exact_point(&sys, &cq, &as_exact(b))?;
                exact_is_equilibrium(&sys, &cq, &q).then_some(q)
            })
        });
        if let Some(q) = &point {
            out.exact.push(q.clone());
        }
        let (lower, upper) = spread_box(pay, support, &as_exact(&hull));
        out.unresolved.push(Unresolved {
            support: support.to_vec(),
            lower,
            upper,
            point: point.map(|q| full(pay, support, &q)),
            reason: if gave_up {
                format!(
                    "solutions that are not isolated (a continuum of equilibria, or a \
                     singular solution): {MAX_UNRESOLVED} boxes narrower than {MIN_WIDTH:e} \
                     could not be separated"
                )
            } else {
                format!(
                    "{} boxes narrower than {MIN_WIDTH:e} neither hold a proved solution nor \
                     can be discarded (a singular solution, or a continuum)",
                    loose.len()
                )
            },
        });
    }
    Ok(Some(out))
}
