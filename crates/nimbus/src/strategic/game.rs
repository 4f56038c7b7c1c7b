//! An n-player game in strategic form with exact payoffs.

use crate::core::error::{Error, Result};
use crate::exact::{over_common_denominator, Q};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// A game in strategic form: players, their strategies, and every player's payoff at every
/// pure profile.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalForm {
    /// The game's title.
    pub title: String,
    /// The players' names.
    pub players: Vec<String>,
    /// Each player's strategy names.
    pub strategies: Vec<Vec<String>>,
    /// `payoffs[k][i]`: player `i`'s payoff at profile number `k`, profiles numbered with the
    /// first player's strategy changing fastest (Gambit's order).
    payoffs: Vec<Vec<Q>>,
    /// The payoffs as machine integers over one common denominator (`payoffs[k][i]` is
    /// `small.0[k * players + i] / small.1`), when they fit: every exact check of a profile
    /// starts from them, and converting them per check cost more than the check.
    small: Option<(Vec<i128>, i128)>,
}

/// Largest number of pure profiles accepted: beyond it even listing the payoffs would take
/// gigabytes of exact numbers.
pub const MAX_PROFILES: u64 = 50_000_000;

/// `a · b`, or `None` on overflow: a product of two numbers that fit in 64 bits cannot
/// overflow, and is not sent through the runtime's checked 128-bit multiplication.
#[inline]
fn mul_i128(a: i128, b: i128) -> Option<i128> {
    if a as i64 as i128 == a && b as i64 as i128 == b {
        Some(a * b)
    } else {
        a.checked_mul(b)
    }
}

impl NormalForm {
    /// A game from its parts; the payoffs are listed profile by profile, first player fastest.
    pub fn new(
        title: String,
        players: Vec<String>,
        strategies: Vec<Vec<String>>,
        payoffs: Vec<Vec<Q>>,
    ) -> Result<Self> {
        if players.is_empty() || players.len() != strategies.len() {
            return Err(Error::Invalid(format!(
                "a game needs at least one player and a strategy list for each ({} players, {} \
                 strategy lists)",
                players.len(),
                strategies.len()
            )));
        }
        if let Some(i) = strategies.iter().position(Vec::is_empty) {
            return Err(Error::Invalid(format!(
                "player {} ({}) has no strategies",
                i + 1,
                players[i]
            )));
        }
        let count = profile_count(&strategies.iter().map(Vec::len).collect::<Vec<_>>())?;
        if payoffs.len() as u64 != count || payoffs.iter().any(|p| p.len() != players.len()) {
            return Err(Error::Invalid(format!(
                "the game has {count} profiles of {} payoffs each, but {} profiles were given",
                players.len(),
                payoffs.len()
            )));
        }
        let small = crate::exact::common_denominator_i128(payoffs.iter().flatten());
        Ok(NormalForm {
            title,
            players,
            strategies,
            payoffs,
            small,
        })
    }

    /// A two-player game from the row player's and the column player's payoff matrices.
    pub fn bimatrix(a: &[Vec<Q>], b: &[Vec<Q>]) -> Result<Self> {
        let (m, n) = (a.len(), a.first().map_or(0, Vec::len));
        if b.len() != m || b.iter().chain(a).any(|r| r.len() != n) || m == 0 || n == 0 {
            return Err(Error::Invalid(
                "the two payoff matrices must have the same, non-empty shape".into(),
            ));
        }
        let mut payoffs = Vec::with_capacity(m * n);
        for j in 0..n {
            for i in 0..m {
                payoffs.push(vec![a[i][j].clone(), b[i][j].clone()]);
            }
        }
        NormalForm::new(
            String::new(),
            vec!["Player 1".into(), "Player 2".into()],
            vec![
                (1..=m).map(|i| i.to_string()).collect(),
                (1..=n).map(|j| j.to_string()).collect(),
            ],
            payoffs,
        )
    }

    /// How many strategies each player has.
    pub fn shape(&self) -> Vec<usize> {
        self.strategies.iter().map(Vec::len).collect()
    }

    /// How far apart in the profile numbering one step of each player's strategy is (the
    /// first player's is 1).
    pub fn strides(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.strategies.len());
        let mut s = 1;
        for st in &self.strategies {
            out.push(s);
            s *= st.len();
        }
        out
    }

    /// The number of a pure profile (first player fastest).
    pub fn index(&self, profile: &[usize]) -> usize {
        let mut k = 0;
        for (i, &s) in profile.iter().enumerate().rev() {
            k = k * self.strategies[i].len() + s;
        }
        k
    }

    /// The pure profile with number `k`.
    pub fn profile(&self, mut k: usize) -> Vec<usize> {
        self.strategies
            .iter()
            .map(|s| {
                let x = k % s.len();
                k /= s.len();
                x
            })
            .collect()
    }

    /// Moves `p` from profile number `k` to number `k + 1` (the first player's strategy
    /// changes fastest), without the allocation of [`NormalForm::profile`].
    fn advance(&self, p: &mut [usize]) {
        for (x, s) in p.iter_mut().zip(&self.strategies) {
            *x += 1;
            if *x < s.len() {
                return;
            }
            *x = 0;
        }
    }

    /// Every player's payoff at profile number `k`.
    pub fn payoffs_at(&self, k: usize) -> &[Q] {
        &self.payoffs[k]
    }

    /// Player `player`'s payoff at a pure profile.
    pub fn payoff(&self, profile: &[usize], player: usize) -> &Q {
        &self.payoffs[self.index(profile)][player]
    }

    /// Number of pure profiles.
    pub fn profiles(&self) -> usize {
        self.payoffs.len()
    }

    /// For two players, player `player`'s payoffs as a matrix, rows the first player's
    /// strategies.
    pub fn matrix(&self, player: usize) -> Vec<Vec<Q>> {
        let sh = self.shape();
        (0..sh[0])
            .map(|i| {
                (0..sh[1])
                    .map(|j| self.payoff(&[i, j], player).clone())
                    .collect()
            })
            .collect()
    }

    /// Each player's expected payoff from each of their pure strategies when the others play
    /// `profile`: `values[i][s]`.
    pub fn pure_values(&self, profile: &[Vec<Q>]) -> Vec<Vec<Q>> {
        let sums = self.pure_sums(profile);
        sums.values
            .into_iter()
            .zip(sums.den)
            .map(|(row, den)| row.into_iter().map(|v| Q::new(v, den.clone())).collect())
            .collect()
    }

    /// [`NormalForm::pure_values`] as integers over common denominators.
    fn pure_sums(&self, profile: &[Vec<Q>]) -> PureSums {
        // Sums of rationals pay a gcd at every step. Over common denominators (each player's
        // probabilities, and the payoffs) the sums are of integers, and each value costs one
        // gcd at the end. Machine integers first: most games never need more.
        if let Some(sums) = self.pure_sums_small(profile) {
            return sums;
        }
        let n = self.players.len();
        let (numer, scale): (Vec<Vec<BigInt>>, Vec<BigInt>) =
            profile.iter().map(over_common_denominator).unzip();
        let (pay, pay_scale) = over_common_denominator(self.payoffs.iter().flatten());
        let mut sums: Vec<Vec<BigInt>> = self
            .strategies
            .iter()
            .map(|s| vec![BigInt::zero(); s.len()])
            .collect();
        let mut p = vec![0; n];
        for k in 0..self.payoffs.len() {
            if k > 0 {
                self.advance(&mut p);
            }
            for i in 0..n {
                // The others' part of `p`, weighted by its probability (times the scales).
                let mut w = BigInt::from(1);
                for (j, &s) in p.iter().enumerate() {
                    if j != i {
                        w *= &numer[j][s];
                        if w.is_zero() {
                            break;
                        }
                    }
                }
                if !w.is_zero() {
                    sums[i][p[i]] += w * &pay[k * n + i];
                }
            }
        }
        let den = (0..n)
            .map(|i| {
                let mut den = pay_scale.clone();
                for (j, l) in scale.iter().enumerate() {
                    if j != i {
                        den *= l;
                    }
                }
                den
            })
            .collect();
        PureSums {
            values: sums,
            den,
            numer,
            scale,
        }
    }

    /// [`NormalForm::pure_sums`] in `i128`, or `None` when a number does not fit.
    fn pure_sums_small(&self, profile: &[Vec<Q>]) -> Option<PureSums> {
        use crate::exact::common_denominator_i128;
        let n = self.players.len();
        let (numer, scale): (Vec<Vec<i128>>, Vec<i128>) = profile
            .iter()
            .map(|p| common_denominator_i128(p.iter()))
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .unzip();
        let pay_scale = self.small.as_ref()?.1;
        let sums = self.sums_i128(&numer)?;
        let den = (0..n)
            .map(|i| {
                let mut den = BigInt::from(pay_scale);
                for (j, &l) in scale.iter().enumerate() {
                    if j != i {
                        den *= l;
                    }
                }
                den
            })
            .collect();
        let big = |v: Vec<i128>| v.into_iter().map(BigInt::from).collect::<Vec<_>>();
        Some(PureSums {
            values: sums.into_iter().map(big).collect(),
            den,
            numer: numer.into_iter().map(big).collect(),
            scale: scale.into_iter().map(BigInt::from).collect(),
        })
    }

    /// `sums[i][s]`: player `i`'s payoff from strategy `s` against the others' probabilities
    /// `numer[j][t] / scale[j]`, times the payoffs' denominator and the others' scales; `None`
    /// when the payoffs or a sum do not fit in `i128`.
    fn sums_i128(&self, numer: &[Vec<i128>]) -> Option<Vec<Vec<i128>>> {
        let n = self.players.len();
        let pay = &self.small.as_ref()?.0;
        let mut sums: Vec<Vec<i128>> = self.strategies.iter().map(|s| vec![0; s.len()]).collect();
        let fits = |v: &[i128]| v.iter().all(|&x| i64::try_from(x).is_ok());
        if n == 2 && fits(pay) && numer.iter().all(|v| fits(v)) {
            // Two players, 64-bit numbers: each product fits in 128 bits, so only the sums
            // are checked (a checked 128-bit product is a call into the runtime).
            let (m, cols) = (sums[0].len(), sums[1].len());
            for j in 0..cols {
                for i in 0..m {
                    let k = j * m + i;
                    let row = (numer[1][j] * pay[2 * k]).checked_add(sums[0][i])?;
                    sums[0][i] = row;
                    let col = (numer[0][i] * pay[2 * k + 1]).checked_add(sums[1][j])?;
                    sums[1][j] = col;
                }
            }
            return Some(sums);
        }
        let mut p = vec![0; n];
        for k in 0..self.payoffs.len() {
            if k > 0 {
                self.advance(&mut p);
            }
            for i in 0..n {
                let mut w: i128 = 1;
                for (j, &s) in p.iter().enumerate() {
                    if j != i {
                        w = mul_i128(w, numer[j][s])?;
                        // Most profiles of a pure or small-support answer weigh nothing.
                        if w == 0 {
                            break;
                        }
                    }
                }
                if w != 0 {
                    let cell = &mut sums[i][p[i]];
                    *cell = cell.checked_add(mul_i128(w, pay[k * n + i])?)?;
                }
            }
        }
        Some(sums)
    }

    /// Each player's payoff and best pure reply against `profile`, in `i128` and without a
    /// rational; `None` when a number does not fit or the profile is not one of
    /// probabilities (the general check then decides, and says what is wrong).
    fn values_small(&self, profile: &[Vec<Q>]) -> Option<Vec<SmallValues>> {
        use crate::exact::common_denominator_i128;
        let n = self.players.len();
        let pay_scale = self.small.as_ref()?.1;
        if profile.len() != n {
            return None;
        }
        let mut numer = Vec::with_capacity(n);
        let mut scale = Vec::with_capacity(n);
        for (p, s) in profile.iter().zip(&self.strategies) {
            if p.len() != s.len() {
                return None;
            }
            let (v, d) = common_denominator_i128(p.iter())?;
            let total = v.iter().try_fold(0i128, |a, &x| a.checked_add(x))?;
            if v.iter().any(|&x| x < 0) || total != d {
                return None;
            }
            numer.push(v);
            scale.push(d);
        }
        let sums = self.sums_i128(&numer)?;
        let mut values = Vec::with_capacity(n);
        for i in 0..n {
            let mut den = pay_scale;
            for (j, &l) in scale.iter().enumerate() {
                if j != i {
                    den = mul_i128(den, l)?;
                }
            }
            let v = &sums[i];
            let pay = v
                .iter()
                .zip(&numer[i])
                .try_fold(0i128, |a, (x, y)| a.checked_add(mul_i128(*x, *y)?))?;
            let pay_den = mul_i128(den, scale[i])?;
            let (strategy, &best) = v
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
            values.push(SmallValues {
                pay,
                pay_den,
                best,
                den,
                strategy,
                gain: mul_i128(best, scale[i])?.checked_sub(pay)?,
            });
        }
        Some(values)
    }

    /// The exact check of [`verify`] in `i128`, allocating only the answer's numbers; `None`
    /// as for [`NormalForm::values_small`].
    fn verify_small(&self, profile: &[Vec<Q>]) -> Option<Verification> {
        use crate::exact::ratio_i128;
        let values = self.values_small(profile)?;
        // The largest gain as a fraction; every gain is at least zero.
        let (mut gain_num, mut gain_den) = (0i128, 1i128);
        for v in &values {
            if v.gain.checked_mul(gain_den)? > gain_num.checked_mul(v.pay_den)? {
                (gain_num, gain_den) = (v.gain, v.pay_den);
            }
        }
        Some(Verification {
            payoffs: values
                .iter()
                .map(|v| ratio_i128(v.pay, v.pay_den))
                .collect(),
            best_replies: values
                .iter()
                .map(|v| (v.strategy, ratio_i128(v.best, v.den)))
                .collect(),
            is_equilibrium: gain_num == 0,
            max_gain: ratio_i128(gain_num, gain_den),
        })
    }
}

/// One player's side of an exact check in machine integers: the payoff `pay / pay_den`, the
/// best pure reply `strategy` worth `best / den`, and the gain from it, `gain / pay_den`.
struct SmallValues {
    pay: i128,
    pay_den: i128,
    best: i128,
    den: i128,
    strategy: usize,
    gain: i128,
}

/// Each player's pure strategies' values `values[i][s] / den[i]` (`den[i] > 0`), and the
/// profile's probabilities as `numer[i][s] / scale[i]`.
struct PureSums {
    values: Vec<Vec<BigInt>>,
    den: Vec<BigInt>,
    numer: Vec<Vec<BigInt>>,
    scale: Vec<BigInt>,
}

/// The number of pure profiles of a game of this shape, refused past [`MAX_PROFILES`].
pub fn profile_count(shape: &[usize]) -> Result<u64> {
    // Counted exactly (a 64-player game's count does not fit in 64 bits, and a saturated
    // 18446744073709551615 would be a wrong number in the message).
    let exact = shape
        .iter()
        .fold(num_bigint::BigUint::from(1u8), |c, &s| c * s);
    let count = u64::try_from(&exact).unwrap_or(u64::MAX);
    if count > MAX_PROFILES {
        let digits = exact.to_string();
        // A count of thousands of digits is said by its size.
        let exact = if digits.len() > 40 {
            format!("about 10^{}", digits.len() - 1)
        } else {
            digits
        };
        return Err(Error::Invalid(format!(
            "the game has {exact} pure profiles ({}), more than the {MAX_PROFILES} Nimbus \
             accepts: remove dominated strategies first, or split the game",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" x ")
        )));
    }
    Ok(count)
}

/// What [`verify`] finds about a mixed profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    /// Each player's expected payoff.
    pub payoffs: Vec<Q>,
    /// Each player's best pure deviation: the strategy and its payoff.
    pub best_replies: Vec<(usize, Q)>,
    /// Whether no player gains by deviating to any pure strategy (by more than the
    /// tolerance, when one is given).
    pub is_equilibrium: bool,
    /// The most any player gains by deviating (0 when nobody gains).
    pub max_gain: Q,
}

/// Checks a mixed profile exactly: every probability vector must be non-negative and sum to
/// one; then each player's payoff and best pure deviation.
pub fn verify(game: &NormalForm, profile: &[Vec<Q>]) -> Result<Verification> {
    verify_within(game, profile, &Q::zero())
}

/// Each player's expected payoff at `profile`: [`verify`]'s payoffs, computed in machine
/// integers when they hold them (a solver's answer is confirmed by [`confirms`] later, so
/// building the whole verification here was done twice).
pub fn expected_payoffs(game: &NormalForm, profile: &[Vec<Q>]) -> Result<Vec<Q>> {
    if let Some(values) = game.values_small(profile) {
        return Ok(values
            .iter()
            .map(|v| crate::exact::ratio_i128(v.pay, v.pay_den))
            .collect());
    }
    Ok(verify(game, profile)?.payoffs)
}

/// Whether `profile` is an equilibrium with exactly these `payoffs`: [`verify`]'s answer
/// without building it, for a caller that only confirms what a solver found (every number of
/// an answer is a pair of big integers, and most of this check's time went into them).
pub fn confirms(game: &NormalForm, profile: &[Vec<Q>], payoffs: &[Q]) -> Result<bool> {
    use num_traits::ToPrimitive;
    if let Some(values) = game.values_small(profile) {
        let same = |v: &SmallValues, q: &Q| -> Option<bool> {
            let (n, d) = (q.numer().to_i128()?, q.denom().to_i128()?);
            Some(mul_i128(n, v.pay_den)? == mul_i128(v.pay, d)?)
        };
        if payoffs.len() == values.len() {
            let checked = values
                .iter()
                .zip(payoffs)
                .try_fold(true, |all, (v, q)| Some(all & same(v, q)?));
            if let Some(checked) = checked {
                return Ok(values.iter().all(|v| v.gain == 0) && checked);
            }
        }
    }
    let v = verify(game, profile)?;
    Ok(v.is_equilibrium && v.payoffs == payoffs)
}

/// [`verify`] for profiles written with rounded decimals: each player's probabilities may sum
/// to within `tolerance` of one (they are then scaled to sum to one), and the profile is an
/// equilibrium when no player gains more than `tolerance` by deviating. A zero tolerance is
/// the exact check.
pub fn verify_within(game: &NormalForm, profile: &[Vec<Q>], tolerance: &Q) -> Result<Verification> {
    if tolerance.is_zero() {
        if let Some(v) = game.verify_small(profile) {
            return Ok(v);
        }
    }
    verify_big(game, profile, tolerance)
}

/// [`verify_within`] in rationals and big integers, for any profile and tolerance.
fn verify_big(game: &NormalForm, profile: &[Vec<Q>], tolerance: &Q) -> Result<Verification> {
    if profile.len() != game.players.len() {
        return Err(Error::Invalid(format!(
            "the profile has {} strategies' worth of players, the game {} players",
            profile.len(),
            game.players.len()
        )));
    }
    let mut sums = Vec::with_capacity(profile.len());
    for (i, (p, s)) in profile.iter().zip(&game.strategies).enumerate() {
        if p.len() != s.len() {
            return Err(Error::Invalid(format!(
                "player {} has {} strategies, but the profile gives {} probabilities",
                i + 1,
                s.len(),
                p.len()
            )));
        }
        let (numer, den) = over_common_denominator(p);
        let sum = crate::exact::ratio(&numer.iter().sum(), &den);
        if p.iter().any(Signed::is_negative)
            || sum.is_zero()
            || (&sum - Q::one()).abs() > *tolerance
        {
            let hint =
                if tolerance.is_zero() && (&sum - Q::one()).abs() < Q::new(1.into(), 100.into()) {
                    format!(
                        " (they sum to a rounded value: {} accepts that)",
                        crate::core::hint::setting("tolerance")
                    )
                } else {
                    String::new()
                };
            return Err(Error::Invalid(format!(
                "player {}'s probabilities must be non-negative and sum to 1; they sum to {}{hint}",
                i + 1,
                crate::exact::show_brief(&sum)
            )));
        }
        sums.push(sum);
    }
    let scaled: Vec<Vec<Q>> = profile
        .iter()
        .zip(&sums)
        .map(|(p, sum)| {
            if sum.is_one() {
                p.clone()
            } else {
                p.iter().map(|x| x / sum).collect()
            }
        })
        .collect();
    let profile = &scaled[..];
    // In integers over common denominators: a rational per payoff, best reply and gain
    // rather than one per sum and product (the gcds were most of the time).
    let sums = game.pure_sums(profile);
    let mut payoffs = Vec::new();
    let mut best_replies = Vec::new();
    let mut max_gain = Q::zero();
    for i in 0..profile.len() {
        let v = &sums.values[i];
        let pay: BigInt = v.iter().zip(&sums.numer[i]).map(|(a, b)| a * b).sum();
        let pay_den = &sums.den[i] * &sums.scale[i];
        let (s, best) = v
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
            .expect("every player has a strategy");
        let gain = crate::exact::ratio(&(best * &sums.scale[i] - &pay), &pay_den);
        if crate::exact::cmp_q(&gain, &max_gain).is_gt() {
            max_gain = gain;
        }
        best_replies.push((s, crate::exact::ratio(best, &sums.den[i])));
        payoffs.push(crate::exact::ratio(&pay, &pay_den));
    }
    Ok(Verification {
        payoffs,
        best_replies,
        is_equilibrium: max_gain <= *tolerance,
        max_gain,
    })
}

/// Reads a mixed profile written as Gambit writes one: every player's probabilities in turn,
/// separated by commas (`"1/2,1/2,1/3,2/3"`); `source` names it in errors.
pub fn parse_profile(game: &NormalForm, text: &str, source: &str) -> Result<Vec<Vec<Q>>> {
    let text = text.trim().strip_prefix("NE,").unwrap_or(text.trim());
    let mut nums = Vec::new();
    let mut col = 0usize;
    for piece in text.split(',') {
        let word = piece.trim();
        let lead = piece.len() - piece.trim_start().len();
        let span = crate::core::error::Span {
            source: source.to_string(),
            line: 1,
            column: col + lead + 1,
        };
        nums.push(crate::exact::parse_q(word).ok_or_else(|| {
            Error::parse(
                span,
                format!("'{word}' is not a probability (write 1/3 or 0.25)"),
            )
        })?);
        col += piece.chars().count() + 1;
    }
    let shape = game.shape();
    let want: usize = shape.iter().sum();
    if nums.len() != want {
        return Err(Error::Invalid(format!(
            "{source}: the game's players have {} strategies ({want} in all), but {} \
             probabilities were given",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" + "),
            nums.len()
        )));
    }
    let mut out = Vec::new();
    let mut it = nums.into_iter();
    for &k in &shape {
        out.push(it.by_ref().take(k).collect());
    }
    Ok(out)
}
