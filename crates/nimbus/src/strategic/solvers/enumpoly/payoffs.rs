//! The game's payoffs in the form the systems are built from, and the system of a support
//! profile.

use super::*;

/// The game's payoffs as each player's integers (scaled by a positive common denominator,
/// which changes no comparison and no solution of an indifference).
pub(super) struct Payoffs {
    pub(super) shape: Vec<usize>,
    pub(super) strides: Vec<usize>,
    pub(super) scaled: Vec<Vec<BigInt>>,
    /// `scaled` in machine integers, when every entry fits in 64 bits.
    pub(super) small: Option<Vec<Vec<i128>>>,
}

impl Payoffs {
    pub(super) fn new(game: &NormalForm) -> Self {
        let shape = game.shape();
        let strides = game.strides();
        let scaled: Vec<Vec<BigInt>> = (0..shape.len())
            .map(|i| {
                crate::exact::over_common_denominator(
                    (0..game.profiles()).map(|k| &game.payoffs_at(k)[i]),
                )
                .0
            })
            .collect();
        let small = scaled
            .iter()
            .map(|col| {
                col.iter()
                    .map(|v| v.to_i64().map(i128::from))
                    .collect::<Option<Vec<i128>>>()
            })
            .collect();
        Payoffs {
            shape,
            strides,
            scaled,
            small,
        }
    }

    /// The profile numbers of every profile of the others' supports with player `i` at its
    /// strategy 0, the first other player fastest.
    pub(super) fn bases(&self, i: usize, support: &[Vec<usize>]) -> Vec<usize> {
        let total = support
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, s)| s.len())
            .product();
        // One allocation: each player's strategies after its first append copies of the list
        // so far (the newest player's strategy slowest, as the tensors want), and its first
        // is added in place last.
        let mut out = Vec::with_capacity(total);
        out.push(0usize);
        for (j, s) in support.iter().enumerate() {
            if j == i {
                continue;
            }
            let (len, st) = (out.len(), self.strides[j]);
            for &t in &s[1..] {
                for b in 0..len {
                    out.push(out[b] + t * st);
                }
            }
            for b in &mut out[..len] {
                *b += s[0] * st;
            }
        }
        out
    }

    /// A strategy that beats `a` against every profile of the others' supports, if any.
    pub(super) fn conditionally_dominated(&self, i: usize, a: usize, bases: &[usize]) -> bool {
        let pay = &self.scaled[i];
        let st = self.strides[i];
        (0..self.shape[i])
            .any(|b| b != a && bases.iter().all(|&k| pay[k + b * st] > pay[k + a * st]))
    }
}

/// The system of the support profile `support`, and its coefficients (scaled payoffs).
pub(super) fn system(pay: &Payoffs, support: &[Vec<usize>]) -> (System, Coefs<Q>) {
    let n = support.len();
    let mut off = Vec::with_capacity(n);
    let mut d = 0;
    for s in support {
        off.push(d);
        d += s.len();
    }
    let mut polys = Vec::new();
    let mut eq = Vec::new();
    let mut ineq_polys = Vec::new();
    let mut ineq = Vec::new();
    for i in 0..n {
        let others: Vec<usize> = (0..n).filter(|&j| j != i).collect();
        let dims: Vec<usize> = others.iter().map(|&j| support[j].len()).collect();
        let bases = pay.bases(i, support);
        let st = pay.strides[i];
        let p = &pay.scaled[i];
        let a0 = support[i][0];
        let diff = |b: usize| -> Vec<BigInt> {
            bases
                .iter()
                .map(|&k| &p[k + b * st] - &p[k + a0 * st])
                .collect()
        };
        for &a in &support[i][1..] {
            polys.push(Poly {
                others: others.clone(),
                dims: dims.clone(),
            });
            eq.push(on_simplex(diff(a), &dims));
        }
        for b in (0..pay.shape[i]).filter(|b| !support[i].contains(b)) {
            ineq_polys.push(Poly {
                others: others.clone(),
                dims: dims.clone(),
            });
            ineq.push(on_simplex(diff(b), &dims));
        }
    }
    let free: Vec<usize> = (0..d).filter(|t| !off.contains(t)).collect();
    // The unknowns of the others, in the order of `corner_mid_rad`'s bits, at each vertex.
    let vertex_map: Vec<Vec<u16>> = if free.len() > VERTEX_UNKNOWNS {
        Vec::new()
    } else {
        (0..n)
            .map(|i| {
                let bits: Vec<usize> = (0..n)
                    .filter(|&j| j != i)
                    .flat_map(|j| (1..support[j].len()).map(move |t| (j, t)))
                    .map(|(j, t)| free.iter().position(|&f| f == off[j] + t).unwrap_or(0))
                    .collect();
                (0..1usize << free.len())
                    .map(|v| {
                        bits.iter()
                            .enumerate()
                            .map(|(b, &g)| ((v >> g & 1) << b) as u16)
                            .sum()
                    })
                    .collect()
            })
            .collect()
    };
    let corner_of = {
        let mut groups = Vec::new();
        let mut first = 0;
        for (i, s) in support.iter().enumerate() {
            let count = s.len() - 1;
            if count > 0 && free.len() <= VERTEX_UNKNOWNS {
                groups.push((first, count, i));
            }
            first += count;
        }
        groups
    };
    (
        System {
            corner_of,
            vertex_map,
            support: support.to_vec(),
            free,
            col: {
                let mut col = vec![None; d];
                for (k, t) in (0..d).filter(|t| !off.contains(t)).enumerate() {
                    col[t] = Some(k);
                }
                col
            },
            off,
            d,
            polys,
            ineq_polys,
        },
        Coefs { eq, ineq },
    )
}
