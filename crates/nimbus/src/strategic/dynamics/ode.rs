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

/// The solution of `y' = f(y)`, `y(0) = y0`, at each of `times` (increasing, from 0), and the
/// number of steps taken (accepted and rejected). Every step is counted against `max_steps`.
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
    for &target in times {
        while t < target {
            steps += 1;
            if steps > max_steps {
                check_work("the integration of the dynamics", steps, max_steps)?;
            }
            // Land on each time asked for exactly.
            let step = h.min(target - t);
            f(&y, &mut k[0]);
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
            if worst <= 1.0 || step < 1e-12 {
                t = if step == target - t { target } else { t + step };
                std::mem::swap(&mut y, &mut next);
            }
            // The usual controller: the error scales as h^5.
            let factor = if worst == 0.0 {
                5.0
            } else {
                (0.9 * worst.powf(-0.2)).clamp(0.2, 5.0)
            };
            h = (step * factor).max(1e-12);
        }
        out.push(y.clone());
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
