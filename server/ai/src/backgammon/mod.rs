//! The Backgammon AI: five levels, two networks.
//!
//! * **Expert** ([`expert`]): a neural network ([`nn`]) trained on the
//!   look-ahead of the first network, four rounds (`bg-train distill
//!   --adam`: labels from a network's 1-ply, fitted by the next), 0-ply
//!   plus a 1-ply look-ahead over the best few plays and a 2-ply one over
//!   the best of those when the budget allows (the server's 1 s does), a
//!   one-sided bear-off database ([`bearoff`]) in home-board races, and
//!   cube decisions from its probabilities before the roll (averaged over
//!   the 21 rolls of its best 0-ply play; [`cube`]: Janowski cubeful
//!   equity for money, the Kazaross XG2 match equity table [`met`] for
//!   matches). Plays are chosen by cubeless money equity, also in match
//!   play.
//! * **Advanced**: the Expert's network at 0-ply, no look-ahead.
//! * **Intermediate**: the first network, trained by TD(λ) self-play
//!   (`bg-train td`), at 0-ply.
//! * **Casual**, **Beginner**: the first network at 0-ply with evaluation
//!   noise ([`noise`]) of growing size, as gnubg's weaker players: they err
//!   where plays are close, so their mistakes are a person's mistakes, not
//!   random moves. Their cube decisions are the Intermediate's with the
//!   same noise on the equity they compare.
//!
//! The levels' error rates, judged by gnubg, are in docs/AI.md
//! (`bg-ladder`).
//!
//! The seed article's heuristic ([`heuristic`], the Beginner of the first
//! version) and pubeval ([`pubeval`]) stay as arena opponents and as the
//! fallback when the network's weights fail their check.
//!
//! The weights are compiled in (this crate's `data/bg-expert-v3.bin` for
//! the Expert and the Advanced, `data/bg-expert-v1.bin` for the levels below, through
//! `include_bytes!`) and checked (magic, version, shape, checksum) at
//! first use. The tests check that the embedded files load, and the server
//! checks both before serving: a server whose weights fail the check refuses
//! to start with a clear error rather than play a weaker AI under a
//! level's name.
//! Binaries can load another file with [`nn::Network::load`], which
//! reports a missing or corrupt file as an error.
//!
//! The bear-off database is built in memory by a background thread started
//! at the first decision that uses a network.
//!
//! Nothing here panics on any position reachable through the rules' API.

pub mod bearoff;
pub mod blockade;
pub mod cube;
pub mod expert;
pub mod exposure;
pub mod harvest;
pub mod heuristic;
pub mod hints;
pub mod met;
pub mod nn;
pub mod noise;
pub mod play;
pub mod pubeval;
pub mod review;
pub mod rollout;
pub mod study;

use std::sync::OnceLock;
use std::time::Duration;

use tabula_shared::backgammon::{BgMatch, Dice, GamePhase, Play, Position, Side};

use crate::Level;

/// A Backgammon AI decision.
pub enum Decision {
    /// Roll the dice.
    Roll,
    /// Offer a double.
    Double,
    /// Take.
    Take,
    /// Drop.
    Drop,
    /// Play the roll.
    Play(Play),
}

/// The committed Expert weights: the network trained on look-ahead labels
/// (`bg-train distill --adam`, 228 inputs, 256 hidden units, four rounds).
pub static EXPERT_WEIGHTS: &[u8] = include_bytes!("../../data/bg-expert-v3.bin");

/// The committed weights of the three levels below the Advanced: the first
/// network, trained by TD(λ) self-play (206 inputs, 80 hidden units). The
/// noise of the two lowest was calibrated on it against gnubg's judgement
/// (docs/AI.md).
pub static LADDER_WEIGHTS: &[u8] = include_bytes!("../../data/bg-expert-v1.bin");

/// The embedded Expert network (also the Advanced's), checked at first use.
/// It also judges resignations, gives hints and reviews games.
pub fn expert_network() -> Result<&'static nn::Network, &'static nn::WeightsError> {
    static NET: CheckedNetwork = OnceLock::new();
    checked(&NET, EXPERT_WEIGHTS)
}

/// The embedded network of the three levels below the Advanced, checked at
/// first use.
pub fn ladder_network() -> Result<&'static nn::Network, &'static nn::WeightsError> {
    static NET: CheckedNetwork = OnceLock::new();
    checked(&NET, LADDER_WEIGHTS)
}

type CheckedNetwork = OnceLock<Result<nn::Network, nn::WeightsError>>;

fn checked(
    cell: &'static CheckedNetwork,
    weights: &[u8],
) -> Result<&'static nn::Network, &'static nn::WeightsError> {
    cell.get_or_init(|| nn::Network::from_bytes(weights))
        .as_ref()
}

/// The player of `level`: the Expert's network for the Advanced and the
/// Expert, the ladder's for the three levels below. `None` (logged once per
/// network) when its weights fail their check.
fn player(level: Level) -> Option<expert::Expert<'static>> {
    let expert = matches!(level, Level::Advanced | Level::Expert);
    let (net, who) = if expert {
        (expert_network(), "the Advanced and the Expert")
    } else {
        (ladder_network(), "the levels below the Advanced")
    };
    match net {
        Ok(net) => {
            prefetch_bearoff();
            Some(expert::Expert::new(net))
        }
        Err(e) => {
            static LOGGED: [OnceLock<()>; 2] = [OnceLock::new(), OnceLock::new()];
            LOGGED[usize::from(expert)].get_or_init(|| {
                tracing::error!(
                    "backgammon weights of {who} rejected ({e}); the heuristic plays instead"
                );
            });
            None
        }
    }
}

/// Builds the bear-off database in the background at the first decision
/// that uses a network, so that it is (normally) ready before the first
/// race; a race reached earlier waits for it.
fn prefetch_bearoff() {
    static PREFETCH: std::sync::Once = std::sync::Once::new();
    PREFETCH.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("bg-bearoff".into())
            .spawn(|| {
                let _ = bearoff::BearoffDb::global();
            });
    });
}

/// The evaluation noise of `level` (none from the Intermediate up).
///
/// Chosen with `bg-ladder` so that the levels' error rates, judged by gnubg,
/// climb in even steps, each about half the one below (docs/AI.md): the
/// Beginner and the Casual are the ladder's network with noise, the
/// Intermediate is that network at 0-ply, the Advanced the Expert's network
/// at 0-ply, and the Expert looks ahead.
pub fn level_noise(level: Level) -> noise::Noise {
    let sd = match level {
        Level::Beginner => 0.10,
        Level::Casual => 0.035,
        Level::Intermediate | Level::Advanced | Level::Expert => 0.0,
    };
    noise::Noise { sd }
}

/// Index of the play `level` picks among `candidates` (the distinct legal
/// results of `dice` from `pos`, mover's side) for the decision seeded with
/// `seed`. `None` if there are none.
pub fn choose_index(
    level: Level,
    pos: &Position,
    dice: Dice,
    candidates: &[Position],
    budget: Duration,
    seed: u64,
) -> Option<usize> {
    if candidates.is_empty() {
        return None;
    }
    let _ = (pos, dice);
    let i = match (level, player(level)) {
        (_, None) => heuristic::best_probability(candidates, &heuristic::TUNED),
        (Level::Expert, Some(x)) => x.best(candidates, budget),
        (_, Some(x)) => x.best_0ply_noisy(candidates, level_noise(level), seed),
    };
    Some(i.min(candidates.len() - 1))
}

/// The position `level` plays to from `pos` with `dice` (mover's side, not
/// switched). `None` for invalid dice or a finished game.
pub fn best_position(
    level: Level,
    pos: &Position,
    dice: Dice,
    budget: Duration,
    seed: u64,
) -> Option<Position> {
    let cands = pos.legal_positions(dice);
    choose_index(level, pos, dice, &cands, budget, seed).map(|i| cands[i])
}

/// The AI's decision for `side` (None when `side` has nothing to do).
/// Reproducible for a given seed (the levels with noise draw it from the
/// seed; callers vary the seed from one decision to the next).
pub fn choose(
    level: Level,
    m: &BgMatch,
    side: Side,
    budget: Duration,
    seed: u64,
) -> Option<Decision> {
    match *m.phase() {
        GamePhase::AwaitingRoll { side: s } if s == side => {
            if m.can_double(side) && wants_double(level, m, side, seed) {
                Some(Decision::Double)
            } else {
                Some(Decision::Roll)
            }
        }
        GamePhase::CubeOffered { by } if by != side => {
            if wants_take(level, m, side, seed) {
                Some(Decision::Take)
            } else {
                Some(Decision::Drop)
            }
        }
        GamePhase::Moving { side: s, dice } if s == side => {
            let pos = m.position_for(side);
            let plays = pos.legal_plays_with(dice, m.config().doubles_twice);
            let cands: Vec<Position> = plays.iter().map(|(_, p)| *p).collect();
            let i = choose_index(level, &pos, dice, &cands, budget, seed)?;
            plays.into_iter().nth(i).map(|(p, _)| Decision::Play(p))
        }
        _ => None,
    }
}

/// Whether `side` accepts the opponent's resignation of `value` points (a
/// single game, a gammon or a backgammon, before the cube).
///
/// With the Expert network (every level judges resignations with it): yes
/// when `value` is at least the cubeless equity `side` expects by playing on,
/// in points, from a 0-ply evaluation. Without it: yes only when `value`
/// covers the most the game can still bring (a backgammon while the resigner
/// has a checker on the bar or in `side`'s home board, else a gammon until
/// the resigner has borne one off). Money-play reasoning in matches too: the
/// match score does not change the decision.
pub fn accepts_resignation(m: &BgMatch, side: Side, value: u32) -> bool {
    let config = m.config();
    if config.length == 0 && config.jacoby && m.cube().value <= 1 {
        // The Jacoby rule: the game can only be worth a single now.
        return true;
    }
    let resigner = side.opponent();
    // Seen by the resigner: "x" is the resigner, "o" is `side`.
    let pos = m.position_for(resigner);
    let most = if pos.x_off() > 0 {
        1
    } else if pos.x_bar() > 0 || (19..=24).any(|p| pos.checker(p) > 0) {
        3
    } else {
        2
    };
    if value >= most {
        return true;
    }
    let Ok(net) = expert_network() else {
        return false;
    };
    let judge = expert::Expert {
        net,
        use_bearoff: false,
    };
    // The evaluation is for the side on roll: the resigner's equity when it is
    // the resigner's turn, `side`'s otherwise.
    let on_roll = match *m.phase() {
        GamePhase::AwaitingRoll { side: s }
        | GamePhase::Moving { side: s, .. }
        | GamePhase::CubeOffered { by: s } => s,
        _ => resigner,
    };
    let expected = if on_roll == side {
        nn::equity(&judge.probs_on_roll(&m.position_for(side)))
    } else {
        -nn::equity(&judge.probs_on_roll(&pos))
    };
    value as f32 >= expected
}

fn owner_for(m: &BgMatch, side: Side) -> cube::Owner {
    match m.cube().owner {
        None => cube::Owner::Centered,
        Some(s) if s == side => cube::Owner::Me,
        Some(_) => cube::Owner::Opponent,
    }
}

/// The match score as seen by `side`, `None` for money play.
fn match_state(m: &BgMatch, side: Side) -> Option<cube::MatchState> {
    let len = m.config().length;
    if len == 0 {
        return None;
    }
    let sc = m.score();
    let me_away = len.saturating_sub(sc[side.index()]) as i32;
    let opp_away = len.saturating_sub(sc[side.opponent().index()]) as i32;
    Some(cube::MatchState {
        me_away,
        opp_away,
        cube: i32::from(m.cube().value.max(1)),
        crawford_used: m.is_crawford_game() || me_away == 1 || opp_away == 1,
    })
}

/// The chances `level` believes in for the side on roll of `pos`: the
/// Expert's, with the level's noise on the equity carried by the wins (an
/// equity shift of `n` is a shift of `n / 2` in winning chances).
fn believed(level: Level, p: nn::Probs, pos: &Position, seed: u64) -> nn::Probs {
    let shift = level_noise(level).on(seed, pos) / 2.0;
    let mut q = p;
    q[0] = (q[0] + shift).clamp(0.0, 1.0);
    nn::sanitize(&q)
}

fn wants_double(level: Level, m: &BgMatch, side: Side, seed: u64) -> bool {
    let pos = m.position_for(side);
    let Some(x) = player(level) else {
        if !pos.is_race() {
            return false;
        }
        let (me, opp) = pos.pip_count();
        return cube::race_rule(me, opp, m.cube().owner == Some(side)).0;
    };
    let p = believed(level, x.probs_before_roll(&pos), &pos, seed);
    match match_state(m, side) {
        None => cube::money_should_double(&p, owner_for(m, side), m.config().jacoby),
        Some(ms) => ms.should_double(&p, owner_for(m, side)),
    }
}

fn wants_take(level: Level, m: &BgMatch, side: Side, seed: u64) -> bool {
    let doubler = side.opponent();
    let pos = m.position_for(doubler);
    let Some(x) = player(level) else {
        if !pos.is_race() {
            return true;
        }
        let (dp, tp) = pos.pip_count();
        return cube::race_rule(dp, tp, false).1;
    };
    let p = believed(level, x.probs_before_roll(&pos), &pos, seed);
    match match_state(m, doubler) {
        None => cube::money_should_take(&p),
        Some(ms) => ms.should_take(&p),
    }
}
