//! Values written as CGSuite writes them: numbers (`3/4`), nimbers (`*2`), ups and downs with
//! a nimber and a number beside them (`^`, `v*`, `1/2^^*3`), switches (`±1`, `{1/2|-2}`),
//! symmetric forms (`±(1*)`, `±(0,{2|0})`), and
//! any other form with its options, bars doubled for nesting (`{1|0||-1}`).

use super::dyadic::Dyadic;
use super::form::{Forms, Id, ZERO};
use crate::core::error::Result;
use rustc_hash::FxHashMap;

/// The ups and the nimber beside them recognised at first; more (up to [`MOST_REACH`]) when a
/// later-born infinitesimal is named: `n·^ + *m` is born no earlier than day `max(n, m)`.
const FIRST_REACH: u32 = 8;
/// The most ups and the largest nimber ever recognised beside them.
const MOST_REACH: u32 = 32;

/// Text longer than this is cut (a form's text can grow far faster than its number of
/// subpositions).
pub const MOST_TEXT: usize = 20_000;

/// `n·^ + *m` by its form's id: `(n, m)`.
type Uptimals = FxHashMap<Id, (i64, u32)>;

/// A familiar name: text, or ± before Left's options.
enum Named {
    Text(String),
    Symmetric(Vec<Id>),
}
use Named::{Symmetric, Text};

/// What a form is called, once recognised.
#[derive(Default)]
struct Namer {
    /// `n·^ + *m` by its id, for |n| and m up to the reach (the first number); made the
    /// first time an infinitesimal is named, and again further when one born later is.
    uptimals: Option<(u32, Uptimals)>,
    /// The nimbers recognised (and the forms found not to be nimbers).
    nimbers: FxHashMap<Id, Option<u32>>,
}

impl Namer {
    /// The table of `n·^ + *m` reaching far enough for a form born on day `born`.
    fn uptimals(&mut self, forms: &mut Forms, born: u32) -> Result<&Uptimals> {
        let reach = born.clamp(FIRST_REACH, MOST_REACH);
        if self.uptimals.as_ref().is_none_or(|(r, _)| *r < reach) {
            let mut stars = vec![ZERO];
            while stars.len() <= reach as usize {
                let next = forms.canonical(&stars, &stars)?;
                stars.push(next);
            }
            let up = forms.canonical(&[ZERO], &[stars[1]])?;
            let down = forms.neg(up)?;
            let mut table = FxHashMap::default();
            for (step, sign) in [(up, 1i64), (down, -1)] {
                let mut multiple = ZERO;
                for n in 0..=i64::from(reach) {
                    for (m, &s) in stars.iter().enumerate() {
                        let g = forms.add(multiple, s)?;
                        table.entry(g).or_insert((sign * n, m as u32));
                    }
                    multiple = forms.add(multiple, step)?;
                }
            }
            self.uptimals = Some((reach, table));
        }
        Ok(self.uptimals.as_ref().map(|(_, t)| t).expect("made above"))
    }

    /// The nimber `g` is, if it is one: `*n` is `{*0, …, *(n-1) | *0, …, *(n-1)}`, decided
    /// over the forms below it in id order (each option's id is below its game's), without
    /// building any nimber.
    fn nimber(&mut self, forms: &Forms, g: Id) -> Option<u32> {
        // The forms to decide: those reached through forms whose two sides are equal.
        let mut todo = vec![g];
        let mut i = 0;
        while i < todo.len() {
            let x = todo[i];
            i += 1;
            if self.nimbers.contains_key(&x) || forms.left(x) != forms.right(x) {
                continue;
            }
            todo.extend(forms.left(x).iter().copied());
        }
        todo.sort_unstable();
        todo.dedup();
        for x in todo {
            if self.nimbers.contains_key(&x) {
                continue;
            }
            let value = if x == ZERO {
                Some(0)
            } else if forms.left(x) != forms.right(x) {
                None
            } else {
                let mut seen: Vec<u32> = Vec::with_capacity(forms.left(x).len());
                let mut all = true;
                for o in forms.left(x) {
                    match self.nimbers.get(o).copied().flatten() {
                        Some(n) => seen.push(n),
                        None => all = false,
                    }
                }
                seen.sort_unstable();
                let n = seen.len() as u32;
                (all && seen.iter().copied().eq(0..n)).then_some(n)
            };
            self.nimbers.insert(x, value);
        }
        self.nimbers.get(&g).copied().flatten()
    }

    /// The familiar name of `g`, if it has one.
    fn name(&mut self, forms: &mut Forms, g: Id) -> Result<Option<Named>> {
        if let Some(x) = forms.number(g) {
            return Ok(Some(Text(x.to_string())));
        }
        if let Some(m) = self.nimber(forms, g) {
            return Ok(Some(Text(star(m))));
        }
        let (ls, rs) = forms.stops(g);
        if ls == rs {
            // Infinitesimally close to a number: look for x + n·^ + *m.
            let x = forms.number_form(ls)?;
            let rest = forms.sub(g, x)?;
            if let Some(&(n, m)) = self.uptimals(forms, forms.birthday(rest))?.get(&rest) {
                let number = if ls == Dyadic::ZERO {
                    String::new()
                } else {
                    ls.to_string()
                };
                let stars = if m == 0 { String::new() } else { star(m) };
                return Ok(Some(Text(format!("{number}{}{stars}", ups(n)))));
            }
        }
        // A symmetric form {A | -A}: ±A (±1, ±{2|0}, ±(1,{2|0})).
        let left = forms.left(g).to_vec();
        if !left.is_empty() && left.len() == forms.right(g).len() {
            let mut negatives = Vec::with_capacity(left.len());
            for &o in &left {
                negatives.push(forms.neg(o)?);
            }
            negatives.sort_unstable();
            if negatives == forms.right(g) {
                return Ok(Some(Symmetric(left)));
            }
        }
        Ok(None)
    }
}

fn star(m: u32) -> String {
    match m {
        0 => "0".into(),
        1 => "*".into(),
        m => format!("*{m}"),
    }
}

fn ups(n: i64) -> String {
    let (one, k) = if n > 0 { ("^", n) } else { ("v", -n) };
    match k {
        0 => String::new(),
        1 => one.into(),
        2 => one.repeat(2),
        k => format!("{one}{k}"),
    }
}

/// Text and nesting depth of a form (0: a name, no bars).
type Written = (String, usize);

/// `g` as CGSuite writes it.
pub fn show(forms: &mut Forms, g: Id) -> Result<String> {
    show_all(forms, &[g]).map(|mut v| v.remove(0))
}

/// Each of `gs` as CGSuite writes it (sharing the work of recognising names).
pub fn show_all(forms: &mut Forms, gs: &[Id]) -> Result<Vec<String>> {
    let mut namer = Namer::default();
    let mut written: FxHashMap<Id, Written> = FxHashMap::default();
    let mut out = Vec::with_capacity(gs.len());
    for &g in gs {
        // Post-order by an explicit stack: options before their game.
        let mut stack = vec![(g, false)];
        while let Some((x, expanded)) = stack.pop() {
            if written.contains_key(&x) {
                continue;
            }
            if !expanded {
                match namer.name(forms, x)? {
                    Some(Text(name)) => {
                        written.insert(x, (name, 0));
                        continue;
                    }
                    Some(Symmetric(opts)) => {
                        let missing: Vec<Id> = opts
                            .iter()
                            .copied()
                            .filter(|o| !written.contains_key(o))
                            .collect();
                        if missing.is_empty() {
                            let mut texts: Vec<&str> =
                                opts.iter().map(|o| written[o].0.as_str()).collect();
                            texts.sort_unstable();
                            // ±x for a number; ±(…) otherwise, so that ±(1*) is not
                            // read as ±1 + *.
                            let text = match texts.as_slice() {
                                [one] if forms.number(opts[0]).is_some() => format!("±{one}"),
                                many => format!("±({})", many.join(",")),
                            };
                            written.insert(x, (text, 0));
                        } else {
                            stack.push((x, false));
                            stack.extend(missing.into_iter().map(|o| (o, false)));
                        }
                        continue;
                    }
                    None => {}
                }
                stack.push((x, true));
                for &o in forms.left(x).iter().chain(forms.right(x)) {
                    if !written.contains_key(&o) {
                        stack.push((o, false));
                    }
                }
                continue;
            }
            let side = |opts: &[Id], written: &FxHashMap<Id, Written>| -> (String, usize) {
                let alone = opts.len() == 1;
                let mut depth = 0;
                let mut parts: Vec<String> = opts
                    .iter()
                    .map(|o| {
                        let (text, d) = &written[o];
                        if *d == 0 {
                            text.clone()
                        } else if alone {
                            depth = depth.max(*d);
                            text[1..text.len() - 1].to_string()
                        } else {
                            text.clone()
                        }
                    })
                    .collect();
                // Written in an order of their own, not the order the forms were stored in,
                // so that a value is written the same way by every run.
                parts.sort_unstable();
                (parts.join(","), depth)
            };
            let (l, dl) = side(forms.left(x), &written);
            let (r, dr) = side(forms.right(x), &written);
            let depth = dl.max(dr) + 1;
            let mut text = format!("{{{l}{}{r}}}", "|".repeat(depth));
            if text.len() > MOST_TEXT {
                text = format!("{{… {} characters}}", text.len());
            }
            written.insert(x, (text, depth));
        }
        out.push(written[&g].0.clone());
    }
    Ok(out)
}
