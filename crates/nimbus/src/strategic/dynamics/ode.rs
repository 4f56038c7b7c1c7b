//! Ordinary differential equations `y' = f(y)`, integrated by the Dormand–Prince pair (the
//! fifth-order method with an embedded fourth-order one, as MATLAB's `ode45` and SciPy's
//! `RK45`), each step's size chosen from the difference of the two so that the local error
//! stays within the tolerance. Written here rather than taken from a crate: the ODE crates
//! bring a linear-algebra library for what is a table of seven stages.

use crate::core::budget::check_work;
use crate::core::error::Result;

/// The stages' weights (the equation is autonomous, so the stages' times are not needed).
const A: [[f64; 6]; 7] = [
    [0.0; 6],
    [0.2, 0.0, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0, 0.0],
    [44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0, 0.0, 0.0, 0.0],
    [
        19372.0 / 6561.0,
        -25360.0 / 2187.0,
        64448.0 / 6561.0,
        -212.0 / 729.0,
        0.0,
        0.0,
    ],
    [
        9017.0 / 3168.0,
        -355.0 / 33.0,
        46732.0 / 5247.0,
        49.0 / 176.0,
        -5103.0 / 18656.0,
        0.0,
    ],
    [
        35.0 / 384.0,
        0.0,
        500.0 / 1113.0,
        125.0 / 192.0,
        -2187.0 / 6784.0,
        11.0 / 84.0,
    ],
];
/// The fifth-order weights (the last row of `A`, the stage at the step's end reused).
const B5: [f64; 7] = [
    35.0 / 384.0,
    0.0,
    500.0 / 1113.0,
    125.0 / 192.0,
    -2187.0 / 6784.0,
    11.0 / 84.0,
    0.0,
];
/// The embedded fourth-order weights.
const B4: [f64; 7] = [
    5179.0 / 57600.0,
    0.0,
    7571.0 / 16695.0,
    393.0 / 640.0,
    -92097.0 / 339200.0,
    187.0 / 2100.0,
    1.0 / 40.0,
];

/// The tolerances: a step is kept when every component's error estimate is within
/// `absolute + relative · |y|`.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// Absolute tolerance.
    pub absolute: f64,
    /// Relative tolerance.
    pub relative: f64,
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance {
            absolute: 1e-10,
            relative: 1e-8,
        }
    }
}

/// The quartic dense output of the pair (Shampine 1986, with Dormand and Prince's optimal
/// sixth stage; the matrix SciPy's `RK45` uses): within an accepted step from `y` of size
/// `h`, `y(t + θh) = y + h Σ_s k_s Σ_j P[s][j] θ^{j+1}`. At `θ = 1` each row sums to the
/// fifth-order weight ([`B5`]), so the interpolant meets the step's end.
const P: [[f64; 4]; 7] = [
    [
        1.0,
        -8048581381.0 / 2820520608.0,
        8663915743.0 / 2820520608.0,
        -12715105075.0 / 11282082432.0,
    ],
    [0.0, 0.0, 0.0, 0.0],
    [
        0.0,
        131558114200.0 / 32700410799.0,
        -68118460800.0 / 10900136933.0,
        87487479700.0 / 32700410799.0,
    ],
    [
        0.0,
        -1754552775.0 / 470086768.0,
        14199869525.0 / 1410260304.0,
        -10690763975.0 / 1880347072.0,
    ],
    [
        0.0,
        127303824393.0 / 49829197408.0,
        -318862633887.0 / 49829197408.0,
        701980252875.0 / 199316789632.0,
    ],
    [
        0.0,
        -282668133.0 / 205662961.0,
        2019193451.0 / 616988883.0,
        -1453857185.0 / 822651844.0,
    ],
    [
        0.0,
        40617522.0 / 29380423.0,
        -110615467.0 / 29380423.0,
        69997945.0 / 29380423.0,
    ],
];

/// The last accepted step: where it started, its size, and its stages.
struct Step {
    t: f64,
    h: f64,
    y: Vec<f64>,
    k: Vec<Vec<f64>>,
}

impl Step {
    /// The dense output at `at` (inside the step).
    fn at(&self, at: f64) -> Vec<f64> {
        let theta = if self.h > 0.0 {
            ((at - self.t) / self.h).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let powers = [theta, theta * theta, theta.powi(3), theta.powi(4)];
        let mut weights = [0.0f64; 7];
        for (w, row) in weights.iter_mut().zip(&P) {
            *w = row.iter().zip(&powers).map(|(p, q)| p * q).sum();
        }
        (0..self.y.len())
            .map(|i| self.y[i] + self.h * (0..7).map(|s| weights[s] * self.k[s][i]).sum::<f64>())
            .collect()
    }
}

/// The solution of `y' = f(y)`, `y(0) = y0`, at each of `times` (non-decreasing, from 0), and
/// the number of steps taken (accepted and rejected). Steps are sized by the error control
/// alone; the records between them come from the dense output, so many records cost no
/// extra steps. Every step is counted against `max_steps`.
pub fn integrate(
    mut f: impl FnMut(&[f64], &mut [f64]),
    y0: &[f64],
    times: &[f64],
    tolerance: Tolerance,
    max_steps: u64,
) -> Result<(Vec<Vec<f64>>, u64)> {
    let n = y0.len();
    let mut y = y0.to_vec();
    let mut t = 0.0;
    let mut out = Vec::with_capacity(times.len());
    let mut k = vec![vec![0.0; n]; 7];
    let mut stage = vec![0.0; n];
    let mut next = vec![0.0; n];
    let mut h: f64 = 1e-3;
    let mut steps = 0u64;
    // The last accepted step, its buffers reused from step to step (no allocation a step).
    let mut last = Step {
        t: 0.0,
        h: 0.0,
        y: vec![0.0; n],
        k: vec![vec![0.0; n]; 7],
    };
    let mut stepped = false;
    // The field at `y` is the first stage: evaluated once here, then carried over — after an
    // accepted step it is the step's last stage, evaluated at its end (the pair's "first same
    // as last": the last stage's point is the fifth-order solution, bit for bit), and after a
    // rejected one `y` has not moved.
    f(&y, &mut k[0]);
    let end = times.last().copied().unwrap_or(0.0);
    for &target in times {
        while t < target {
            steps += 1;
            if steps > max_steps {
                check_work("the integration of the dynamics", steps, max_steps)?;
            }
            // Never past the run's end (as SciPy's `t_bound`): the field need not be defined,
            // nor the solution finite, beyond it.
            let step = h.min(end - t);
            for s in 1..7 {
                for i in 0..n {
                    stage[i] = y[i] + step * (0..s).map(|r| A[s][r] * k[r][i]).sum::<f64>();
                }
                f(&stage, &mut k[s]);
            }
            let mut worst: f64 = 0.0;
            for i in 0..n {
                let five: f64 = (0..7).map(|s| B5[s] * k[s][i]).sum();
                let four: f64 = (0..7).map(|s| B4[s] * k[s][i]).sum();
                next[i] = y[i] + step * five;
                let scale = tolerance.absolute + tolerance.relative * y[i].abs().max(next[i].abs());
                worst = worst.max((step * (five - four)).abs() / scale);
            }
            // A step that overflowed is never kept, however small.
            let finite = worst.is_finite();
            if finite && (worst <= 1.0 || step < 1e-12) {
                // The step's start and stages go to `last`; `y` moves to its end, and the
                // stages' old buffers come back for the next step, whose first stage is this
                // one's last.
                std::mem::swap(&mut last.y, &mut y);
                y.copy_from_slice(&next);
                std::mem::swap(&mut last.k, &mut k);
                k[0].copy_from_slice(&last.k[6]);
                last.t = t;
                last.h = step;
                stepped = true;
                t = if step == end - t { end } else { t + step };
            }
            // The usual controller: the error scales as h^5.
            let factor = if !finite {
                0.2
            } else if worst == 0.0 {
                5.0
            } else {
                (0.9 * worst.powf(-0.2)).clamp(0.2, 5.0)
            };
            h = (step * factor).max(1e-12);
        }
        out.push(if stepped && target < t {
            last.at(target)
        } else {
            y.clone()
        });
    }
    Ok((out, steps))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// y' = y from 1: e^t; y'' = −y as a system: cos and sin, to the tolerance.
    #[test]
    fn exponential_and_rotation() {
        let (ys, _) = integrate(
            |y, d| d[0] = y[0],
            &[1.0],
            &[0.5, 1.0, 3.0],
            Tolerance::default(),
            100_000,
        )
        .unwrap();
        for (y, t) in ys.iter().zip([0.5f64, 1.0, 3.0]) {
            assert!(
                (y[0] - t.exp()).abs() < 1e-7 * t.exp(),
                "{} {}",
                y[0],
                t.exp()
            );
        }
        let (ys, _) = integrate(
            |y, d| {
                d[0] = y[1];
                d[1] = -y[0];
            },
            &[1.0, 0.0],
            &[10.0],
            Tolerance::default(),
            100_000,
        )
        .unwrap();
        assert!((ys[0][0] - 10f64.cos()).abs() < 1e-6);
        assert!((ys[0][1] + 10f64.sin()).abs() < 1e-6);
    }

    /// The dense output meets the step's end (each row of `P` sums to the fifth-order weight),
    /// and records between steps are as accurate as the steps: many records of `y' = y` within
    /// 1e-7 relative, with no more steps than two records take.
    #[test]
    fn dense_output_is_continuous_and_accurate() {
        for (row, b) in P.iter().zip(B5) {
            assert!((row.iter().sum::<f64>() - b).abs() < 1e-12);
        }
        let many: Vec<f64> = (0..=1000).map(|i| f64::from(i) * 0.003).collect();
        let (ys, steps) = integrate(
            |y, d| d[0] = y[0],
            &[1.0],
            &many,
            Tolerance::default(),
            100_000,
        )
        .unwrap();
        for (y, t) in ys.iter().zip(&many) {
            assert!((y[0] - t.exp()).abs() < 1e-7 * t.exp(), "{t}: {}", y[0]);
        }
        let (_, few) = integrate(
            |y, d| d[0] = y[0],
            &[1.0],
            &[0.0, 3.0],
            Tolerance::default(),
            100_000,
        )
        .unwrap();
        assert_eq!(steps, few);
    }

    #[test]
    fn too_many_steps_is_a_budget_error() {
        let e = integrate(
            |y, d| d[0] = y[0],
            &[1.0],
            &[50.0],
            Tolerance::default(),
            10,
        )
        .unwrap_err();
        assert!(e.to_string().contains("integration"), "{e}");
    }
}
