//! Cube decisions from cubeless probabilities.
//!
//! **Money games** use Rick Janowski's cubeful equity ("Take-points in money
//! games", 1993): with `W` and `L` the average value of a win and of a loss
//! (gammons included), the live-cube equity is piecewise linear in P(win)
//! between the take point `TP = (L - 1/2) / (W + L + 1/2)` and the cash
//! point `CP = (L + 1) / (W + L + 1/2)`; the cubeful equity is
//! `x · live + (1 - x) · dead` with the cube-life parameter
//! [`CUBE_LIFE`] `x = 0.68`. A side doubles when
//! `min(double/take, double/pass) > no double` and takes when its equity
//! after taking is at least -1 (the pass).
//!
//! **Match play** uses the Kazaross XG2 match equity table ([`super::met`])
//! and the same idea carried over to match winning chances (MWC): the dead
//! cube's MWC maps each game outcome (single, gammon, backgammon, either
//! way) to the resulting score's equity; the live cube's MWC is piecewise
//! linear in P(win) through the points where the cube changes hands: the
//! opponent cashes at our take point (we pass and lose the cube's value),
//! we cash at our cash point, and in between and beyond it runs to the
//! average MWC of our wins and of our losses. The take and cash points come
//! from the table at the doubled cube. A side that already needs no more
//! than the cube's value to win the match never doubles, so its cash point
//! drops out (the post-Crawford leader, a side at 2-away with the cube on
//! 2). The result is `x · live + (1 - x) · dead` with the same cube life
//! [`CUBE_LIFE`]. Owning the cube is worth something: this is what keeps a
//! side from doubling early with a small edge, which the dead cube alone
//! got wrong.

use super::met;
use super::nn::Probs;

/// Janowski's cube-life parameter (0 = dead cube, 1 = fully live).
pub const CUBE_LIFE: f32 = 0.68;

/// Who owns the cube, from the side on roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// Centred cube.
    Centered,
    /// The side on roll owns it.
    Me,
    /// The opponent owns it.
    Opponent,
}

/// Janowski cubeful money equity per unit of cube for the side on roll
/// with probabilities `p`.
pub fn cubeful_money(p: &Probs, owner: Owner, x: f32) -> f32 {
    let w = p[0].clamp(0.0, 1.0);
    let rw = if w > 1e-7 {
        1.0 + (p[1] + p[2]) / w
    } else {
        1.0
    };
    let rl = if w < 1.0 - 1e-7 {
        1.0 + (p[3] + p[4]) / (1.0 - w)
    } else {
        1.0
    };
    let dead = 2.0 * w - 1.0 + p[1] + p[2] - p[3] - p[4];
    let tp = (rl - 0.5) / (rw + rl + 0.5);
    let cp = (rl + 1.0) / (rw + rl + 0.5);
    let live = match owner {
        Owner::Centered => {
            if w <= tp {
                -rl + (rl - 1.0) * w / tp
            } else if w < cp {
                -1.0 + 2.0 * (w - tp) / (cp - tp)
            } else {
                1.0 + (rw - 1.0) * (w - cp) / (1.0 - cp)
            }
        }
        Owner::Me => {
            if w <= cp {
                -rl + (1.0 + rl) * w / cp
            } else {
                1.0 + (rw - 1.0) * (w - cp) / (1.0 - cp)
            }
        }
        Owner::Opponent => {
            if w <= tp {
                -rl + (rl - 1.0) * w / tp
            } else {
                -1.0 + (rw + 1.0) * (w - tp) / (1.0 - tp)
            }
        }
    };
    x * live + (1.0 - x) * dead
}

/// Equities (per current cube unit, side on roll) of no double, double/take
/// and double/pass in a money game.
#[derive(Debug, Clone, Copy)]
pub struct MoneyAnalysis {
    /// No double.
    pub no_double: f32,
    /// Double, opponent takes.
    pub double_take: f32,
    /// Double, opponent passes.
    pub double_pass: f32,
}

/// Analyses a money cube decision for the side on roll. `jacoby`: gammons
/// do not count while the cube is centred.
pub fn money_analysis(p: &Probs, owner: Owner, jacoby: bool) -> MoneyAnalysis {
    let nd_p = if jacoby && owner == Owner::Centered {
        [p[0], 0.0, 0.0, 0.0, 0.0]
    } else {
        *p
    };
    MoneyAnalysis {
        no_double: cubeful_money(&nd_p, owner, CUBE_LIFE),
        double_take: 2.0 * cubeful_money(p, Owner::Opponent, CUBE_LIFE),
        double_pass: 1.0,
    }
}

/// Whether the side on roll (probabilities `p`) should double in a money game.
pub fn money_should_double(p: &Probs, owner: Owner, jacoby: bool) -> bool {
    let a = money_analysis(p, owner, jacoby);
    a.double_take.min(a.double_pass) > a.no_double
}

/// Whether to take a double; `p_doubler` are the doubler's probabilities
/// (the doubler is on roll).
pub fn money_should_take(p_doubler: &Probs) -> bool {
    2.0 * cubeful_money(p_doubler, Owner::Opponent, CUBE_LIFE) <= 1.0
}

/// A match score from the side on roll: points each side still needs.
#[derive(Debug, Clone, Copy)]
pub struct MatchState {
    /// Points the side on roll needs.
    pub me_away: i32,
    /// Points the opponent needs.
    pub opp_away: i32,
    /// Current cube value.
    pub cube: i32,
    /// Whether the Crawford game has been played already (or is this game):
    /// a side reaching 1-away later is post-Crawford.
    pub crawford_used: bool,
}

impl MatchState {
    /// Match winning chances of the side on roll once it has won `me_pts`
    /// and its opponent `opp_pts` more points.
    pub fn mwc_after(&self, me_pts: i32, opp_pts: i32) -> f32 {
        let me = self.me_away - me_pts;
        let opp = self.opp_away - opp_pts;
        // Reaching 1-away for the first time makes the next game the Crawford
        // game (pre-Crawford table); later 1-away scores are post-Crawford.
        let post = self.crawford_used && (me == 1 || opp == 1);
        met::mwc(me, opp, post)
    }

    /// The average MWC of the side on roll's wins and of its losses with
    /// the cube at `cube` (gammons and backgammons weighted in); the single
    /// game's value when a side has no chance of it.
    fn win_and_loss_values(&self, p: &Probs, cube: i32) -> (f32, f32) {
        let w = p[0].clamp(0.0, 1.0);
        let gw = p[1].clamp(0.0, w);
        let bw = p[2].clamp(0.0, gw);
        let l = 1.0 - w;
        let gl = p[3].clamp(0.0, l);
        let bl = p[4].clamp(0.0, gl);
        let win = if w > 1e-6 {
            ((w - gw) * self.mwc_after(cube, 0)
                + (gw - bw) * self.mwc_after(2 * cube, 0)
                + bw * self.mwc_after(3 * cube, 0))
                / w
        } else {
            self.mwc_after(cube, 0)
        };
        let loss = if l > 1e-6 {
            ((l - gl) * self.mwc_after(0, cube)
                + (gl - bl) * self.mwc_after(0, 2 * cube)
                + bl * self.mwc_after(0, 3 * cube))
                / l
        } else {
            self.mwc_after(0, cube)
        };
        (win, loss)
    }

    /// Cubeful MWC of the side on roll with the cube at `cube`, owned by
    /// `owner` (see the module docs).
    pub fn cubeful_mwc(&self, p: &Probs, cube: i32, owner: Owner) -> f32 {
        let w = p[0].clamp(0.0, 1.0);
        let (win, loss) = self.win_and_loss_values(p, cube);
        let dead = w * win + (1.0 - w) * loss;
        // Where the cube changes hands, on the dead cube at twice the value.
        let (win2, loss2) = self.win_and_loss_values(p, 2 * cube);
        let spread = win2 - loss2;
        if spread <= 1e-6 {
            return dead;
        }
        let pass_mine = self.mwc_after(0, cube);
        let pass_theirs = self.mwc_after(cube, 0);
        // Our take point: taking at 2 * cube is worth passing.
        let take_point = ((pass_mine - loss2) / spread).clamp(0.0, 1.0);
        // Our cash point: their taking is worth their passing.
        let cash_point = ((pass_theirs - loss2) / spread).clamp(0.0, 1.0);
        let they_cash = owner != Owner::Me && self.opp_away > cube && take_point > 0.0;
        let we_cash = owner != Owner::Opponent && self.me_away > cube && cash_point < 1.0;
        let mut points: Vec<(f32, f32)> = vec![(0.0, loss)];
        if they_cash {
            points.push((take_point, pass_mine));
        }
        if we_cash && (!they_cash || cash_point > take_point) {
            points.push((cash_point, pass_theirs));
        }
        points.push((1.0, win));
        let live = points.windows(2).find(|s| w <= s[1].0).map_or(win, |s| {
            let (x0, y0) = s[0];
            let (x1, y1) = s[1];
            if x1 - x0 <= 1e-6 {
                y1
            } else {
                y0 + (y1 - y0) * (w - x0) / (x1 - x0)
            }
        });
        CUBE_LIFE * live + (1.0 - CUBE_LIFE) * dead
    }

    /// MWC of the side on roll for no double, double/take and double/pass,
    /// with the cube at [`MatchState::cube`] owned by `owner`.
    pub fn analysis(&self, p: &Probs, owner: Owner) -> [f32; 3] {
        [
            self.cubeful_mwc(p, self.cube, owner),
            self.cubeful_mwc(p, 2 * self.cube, Owner::Opponent),
            self.mwc_after(self.cube, 0),
        ]
    }

    /// Whether the side on roll, owning the cube or with it centred
    /// (`owner`), should double.
    pub fn should_double(&self, p: &Probs, owner: Owner) -> bool {
        let [no_double, take, pass] = self.analysis(p, owner);
        take.min(pass) > no_double
    }

    /// Whether the opponent of the side on roll (the doubler) should take;
    /// the taker then owns the cube.
    pub fn should_take(&self, p_doubler: &Probs) -> bool {
        let take = 1.0 - self.cubeful_mwc(p_doubler, 2 * self.cube, Owner::Opponent);
        let pass = 1.0 - self.mwc_after(self.cube, 0);
        take >= pass
    }
}

/// The classic race rule used by the lower levels (8-9-12 of the leader's
/// pip count): `(double, take)` advice for a pure race, from the pip counts
/// of the side on roll and of its opponent.
pub fn race_rule(my_pips: u32, opp_pips: u32, owned: bool) -> (bool, bool) {
    let lead = f64::from(opp_pips) - f64::from(my_pips);
    let pct = lead / f64::from(my_pips.max(1));
    let double = pct >= if owned { 0.09 } else { 0.08 };
    let take = pct <= 0.12;
    (double, take)
}
