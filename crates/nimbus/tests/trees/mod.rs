//! Random game trees for the tests of the tree solvers.

#![allow(dead_code)]

use nimbus::exact::Q;
use nimbus::extensive::{Builder, Mover, Tree};

/// A seeded xorshift generator: each call a number below its argument.
pub fn xorshift(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed | 1;
    move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    }
}

/// A small random tree: chance, imperfect information with perfect recall (a player's
/// nodes share a set only when their own last move is the same), outcomes on inner nodes.
pub fn random_tree(seed: u64, players: usize, zero_sum: bool, perfect_info: bool) -> Tree {
    let mut rng = xorshift(seed);
    let names: Vec<String> = (1..=players).map(|p| format!("P{p}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut b = Builder::new("random", &refs);
    let pay = |rng: &mut dyn FnMut(u64) -> u64| -> Vec<Q> {
        let first = rng(7) as i64 - 3;
        (0..players)
            .map(|p| {
                let x = if p == 0 {
                    first
                } else if zero_sum {
                    -first
                } else {
                    rng(7) as i64 - 3
                };
                Q::from_integer(x.into())
            })
            .collect()
    };
    type Key = (usize, Option<(usize, usize)>, usize);
    let mut sets: Vec<(Key, usize)> = Vec::new();
    // (parent, depth, each player's last own move)
    type Pending = (Option<(usize, usize)>, usize, Vec<Option<(usize, usize)>>);
    let mut stack: Vec<Pending> = vec![(None, 0, vec![None; players])];
    while let Some((parent, depth, last)) = stack.pop() {
        let r = rng(10);
        if depth >= 4 || (depth > 0 && r < 3) {
            let p = pay(&mut rng);
            b.node(parent, None, Some(p));
            continue;
        }
        let k = 2 + rng(2) as usize;
        let outcome = (rng(6) == 0).then(|| pay(&mut rng));
        let h = if r < 5 {
            let w: Vec<u64> = (0..k).map(|_| 1 + rng(3)).collect();
            let total: u64 = w.iter().sum();
            let probs = w
                .iter()
                .map(|&x| Q::new((x as i64).into(), (total as i64).into()))
                .collect();
            let acts: Vec<String> = (0..k).map(|a| format!("c{a}")).collect();
            let acts: Vec<&str> = acts.iter().map(String::as_str).collect();
            b.infoset(Mover::Chance, "", &acts, probs)
        } else {
            let p = rng(players as u64) as usize;
            let key = (p, last[p], k);
            let acts: Vec<String> = (0..k).map(|a| format!("a{a}")).collect();
            let acts: Vec<&str> = acts.iter().map(String::as_str).collect();
            match sets.iter().find(|(kk, _)| *kk == key) {
                Some(&(_, h)) if !perfect_info && rng(2) == 0 => h,
                _ => {
                    let h = b.infoset(Mover::Player(p), "", &acts, vec![]);
                    sets.push((key, h));
                    h
                }
            }
        };
        let v = b.node(parent, Some(h), outcome);
        for a in (0..k).rev() {
            let mut l = last.clone();
            if r >= 5 {
                let p = sets.iter().find(|(_, hh)| *hh == h).unwrap().0 .0;
                l[p] = Some((h, a));
            }
            stack.push((Some((v, a)), depth + 1, l));
        }
    }
    b.finish().unwrap()
}
