//! The seed article's hand-made evaluator (Beginner) and its 1-ply
//! "probability score" (Intermediate).
//!
//! Every legal play is generated and the resulting position scored from the
//! mover's side:
//!
//! * **pip difference**: opponent's pips minus mover's pips;
//! * **blocks**: each run of consecutive made points (two or more checkers)
//!   that still has opposing checkers behind it scores `(run × cbp)^cb`;
//! * **blots**: a blot on the mover's point `i` (counted from the mover's
//!   start, `25 - i` in our numbering) costs `(25 - i) / bf`, or
//!   `(25 - i) / bfp` once every opposing checker has passed it; blots at or
//!   below the threshold `bt` cost nothing;
//! * **run or block**: when the play leaves no contact, the pip difference
//!   is weighted again by `rb` (run when ahead, keep contact when behind);
//! * **pure race**: without contact, blocks and blots are ignored and a race
//!   term brings checkers home and bears them off.
//!
//! The opponent's block and blot terms are subtracted (scored the same way
//! from its side), so hits and blocks against the mover count.
//!
//! The constants were tuned by the article's trainer (`bg-train heuristic`:
//! a changed configuration is kept when it wins more than 51% of 3,000 games
//! against the current one; here the games are played with duplicate dice).
//!
//! The **probability score** (Intermediate) replaces the score of a play by
//! minus the opponent's average best reply score over its 21 rolls. To keep
//! it fast only the best [`PROB_CANDIDATES`] plays by the static score are
//! examined.

use tabula_shared::backgammon::{Dice, Position};

use super::play::Chooser;

/// The heuristic's constants (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Params {
    /// Exponent of a block run's score.
    pub cb: f64,
    /// Multiplier of a block run's length.
    pub cbp: f64,
    /// Blot divisor while opposing checkers are behind the blot.
    pub bf: f64,
    /// Blot divisor once every opposing checker has passed the blot.
    pub bfp: f64,
    /// Blots at or below this point number (from the mover's start) are free.
    pub bt: f64,
    /// Weight of the pip difference once a play breaks contact.
    pub rb: f64,
}

/// The untrained starting point of the trainer.
pub const START: Params = Params {
    cb: 2.0,
    cbp: 1.0,
    bf: 2.0,
    bfp: 8.0,
    bt: 3.0,
    rb: 1.0,
};

/// The tuned constants used by Beginner and Intermediate, produced from
/// [`START`] by
/// `cargo run --release -p tabula-ai-tools --bin bg-train -- heuristic --seed 1 --games 3000 --iters 200`.
pub const TUNED: Params = Params {
    cb: 2.0,
    cbp: 1.0,
    bf: 3.120975349747541,
    bfp: 8.0,
    bt: 3.0,
    rb: 1.0,
};

/// How many plays (best by static score) the probability score examines.
pub const PROB_CANDIDATES: usize = 8;

/// The structure score (blocks and blots) of the mover of `pos`, and
/// whether the position has contact.
fn structure(p: &[i8; 26], o_min: usize, k: &Params) -> f64 {
    let mut score = 0.0;
    let mut run = 0u32;
    // From the mover's back (24) towards home (1).
    for i in (1..=24usize).rev() {
        let relevant = i > o_min;
        let n = p[i];
        if n >= 2 && relevant {
            run += 1;
        } else {
            if run > 0 {
                score += (f64::from(run) * k.cbp).powf(k.cb);
            }
            run = 0;
        }
        if n == 1 {
            let number = (25 - i) as f64;
            if number > k.bt {
                score -= number / if relevant { k.bf } else { k.bfp };
            }
        }
    }
    if run > 0 {
        score += (f64::from(run) * k.cbp).powf(k.cb);
    }
    score
}

/// Lowest index (in the mover's numbering) holding an opposing checker,
/// 0 for its bar; 25 if none.
fn opp_rearmost(p: &[i8; 26]) -> usize {
    (0..=24).find(|&i| p[i] < 0).unwrap_or(25)
}

/// Race structure: checkers off, checkers still outside home, wastage.
fn race_term(pos: &Position) -> f64 {
    let p = pos.pips();
    let mut outside = 0.0;
    for (i, &n) in p.iter().enumerate().take(26).skip(7) {
        if n > 0 {
            outside += f64::from(n) * (1.0 + (i as f64 - 6.0) / 6.0);
        }
    }
    let gaps = (1..=6).filter(|&i| p[i] <= 0).count() as f64;
    let stacked: f64 = (1..=6).map(|i| f64::from(p[i].max(0)).powi(2)).sum::<f64>() / 15.0;
    8.0 * f64::from(pos.x_off()) - 3.0 * outside - 0.5 * gaps - stacked
}

/// The seed heuristic's score of `after` (the result of the mover's play,
/// mover's side). Higher is better for the mover.
pub fn score(after: &Position, k: &Params) -> f64 {
    if after.x_off() >= 15 {
        return 1e9;
    }
    let (xp, op) = after.pip_count();
    let diff = f64::from(op) - f64::from(xp);
    if after.is_race() {
        return diff + diff * k.rb + race_term(after);
    }
    let p = after.pips();
    let mine = structure(p, opp_rearmost(p), k);
    let opp_view = after.switch_sides();
    let q = opp_view.pips();
    let theirs = structure(q, opp_rearmost(q), k);
    diff + mine - theirs
}

/// Index of the best candidate by the static score (first on ties).
pub fn best_static(candidates: &[Position], k: &Params) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, c) in candidates.iter().enumerate() {
        let s = score(c, k);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

/// The probability score of `after` for its mover: minus the opponent's
/// average (over its 21 rolls, weighted) best reply score.
pub fn probability_score(after: &Position, k: &Params, buf: &mut Vec<Position>) -> f64 {
    if after.x_off() >= 15 {
        return 1e9;
    }
    let opp = after.switch_sides();
    let mut total = 0.0;
    for (dice, w) in Dice::ALL_21 {
        opp.legal_positions_into(dice, false, buf);
        let best = buf
            .iter()
            .map(|r| score(r, k))
            .fold(f64::NEG_INFINITY, f64::max);
        let best = if best.is_finite() { best } else { 0.0 };
        total += f64::from(w) * best;
    }
    -total / 36.0
}

/// Index of the best candidate by the probability score over the best
/// [`PROB_CANDIDATES`] by static score.
pub fn best_probability(candidates: &[Position], k: &Params) -> usize {
    if candidates.len() <= 1 {
        return 0;
    }
    let mut ranked: Vec<(usize, f64)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (i, score(c, k)))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut buf = Vec::with_capacity(64);
    let mut best = (ranked[0].0, f64::NEG_INFINITY);
    for &(i, _) in ranked.iter().take(PROB_CANDIDATES) {
        let s = probability_score(&candidates[i], k, &mut buf);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

/// The heuristic as a [`Chooser`]: static (Beginner) or with the
/// probability score (Intermediate).
#[derive(Debug, Clone, Copy)]
pub struct HeuristicChooser {
    /// Constants.
    pub params: Params,
    /// Use the 1-ply probability score.
    pub one_ply: bool,
}

impl Chooser for HeuristicChooser {
    fn choose(&mut self, _before: &Position, _dice: Dice, candidates: &[Position]) -> usize {
        if self.one_ply {
            best_probability(candidates, &self.params)
        } else {
            best_static(candidates, &self.params)
        }
    }
}
