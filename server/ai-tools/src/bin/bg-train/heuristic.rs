//! The seed article's hill-climbing trainer for the Beginner heuristic's
//! constants ([`tabula_ai::backgammon::heuristic::Params`]).

use tabula_ai::backgammon::heuristic::{HeuristicChooser, Params, START};
use tabula_ai::backgammon::play::duplicate_match;
use tabula_ai::rng::{Rng, mix_seed};

/// The article's trainer: `iters` trials, each perturbing one constant of
/// the current configuration; the change is kept when the new configuration
/// wins more than 51% of `games` games (duplicate dice) against the current
/// one. Progress goes to `log`. Returns the final constants.
pub fn train(seed: u64, games: u64, iters: u64, log: &mut dyn FnMut(&str)) -> Params {
    let mut rng = Rng::new(seed);
    let mut cur = START;
    for it in 0..iters {
        let mut cand = cur;
        let f = 0.6 + 0.8 * rng.unit();
        match rng.below(6) {
            0 => cand.cb = (cand.cb * f).clamp(0.5, 4.0),
            1 => cand.cbp = (cand.cbp * f).clamp(0.05, 20.0),
            2 => cand.bf = (cand.bf * f).clamp(0.05, 100.0),
            3 => cand.bfp = (cand.bfp * f).clamp(0.05, 1000.0),
            4 => cand.bt = (cand.bt + if rng.below(2) == 0 { -1.0 } else { 1.0 }).clamp(0.0, 24.0),
            _ => cand.rb = (cand.rb * f).clamp(0.0, 20.0),
        }
        let mut a = HeuristicChooser {
            params: cand,
            one_ply: false,
        };
        let mut b = HeuristicChooser {
            params: cur,
            one_ply: false,
        };
        let s = duplicate_match(&mut a, &mut b, games.div_ceil(2), mix_seed(seed, it));
        let keep = s.win_rate > 0.51;
        log(&format!(
            "trial {it}: {cand:?} wins {:.1}% ({:+.3} ppg) -> {}",
            100.0 * s.win_rate,
            s.ppg,
            if keep { "kept" } else { "rejected" }
        ));
        if keep {
            cur = cand;
        }
    }
    cur
}
