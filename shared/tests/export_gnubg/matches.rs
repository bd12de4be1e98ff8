//! Building matches: [`BgMatch`] records played with seeded dice by simple
//! deterministic players, following a [`Plan`] for each game.

use tabula_shared::backgammon::{BgMatch, GamePhase, MatchConfig, Play, ResignKind, Side};
use tabula_shared::game::apply_bg;
use tabula_shared::protocol::{BgAction, GameRecord};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn die(&mut self) -> u8 {
        (self.next() % 6) as u8 + 1
    }
}

/// What happens in one game besides checker play.
#[derive(Debug, Clone, Copy)]
pub enum Plan {
    /// No cube action.
    Plain,
    /// From turn `at`, the side on roll doubles (once) and it is taken.
    DoubleTake { at: u32 },
    /// Double at `at`, taken; redouble at `again`, taken.
    Redouble { at: u32, again: u32 },
    /// From turn `at`, the side on roll doubles and it is dropped.
    DoubleDrop { at: u32 },
    /// At turn `at`, the side on roll resigns `kind`.
    Resign { at: u32, kind: ResignKind },
    /// From turn `at`, the side on roll doubles and the other side resigns
    /// instead of answering.
    DoubleResign { at: u32 },
}

pub struct Builder {
    m: BgMatch,
    actions: Vec<BgAction>,
    rng: Rng,
}

impl Builder {
    pub fn new(config: MatchConfig, seed: u64) -> Builder {
        Builder {
            m: BgMatch::new(config).unwrap(),
            actions: Vec::new(),
            rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        }
    }

    fn act(&mut self, a: BgAction) {
        apply_bg(&mut self.m, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        self.actions.push(a);
    }

    /// In odd games White, in even games Black, hits when it can and bears
    /// off as fast as it can; the other side plays a random legal play.
    fn choose(&mut self, side: Side) -> Play {
        let plays = self.m.legal_plays();
        assert!(!plays.is_empty());
        let greedy = if self.m.game_number() % 2 == 1 {
            Side::White
        } else {
            Side::Black
        };
        if side != greedy {
            let i = (self.rng.next() % plays.len() as u64) as usize;
            return plays[i].clone();
        }
        let pos = self.m.position_for(side);
        let score = |p: &Play| {
            let after = pos.apply(p).unwrap();
            i32::from(after.o_bar()) * 10 + i32::from(after.x_off()) * 3
                - after.pip_count().0 as i32
        };
        plays.iter().max_by_key(|p| score(p)).unwrap().clone()
    }

    fn over(&self) -> bool {
        matches!(
            self.m.phase(),
            GamePhase::GameOver { .. } | GamePhase::MatchOver { .. }
        )
    }

    fn play_game(&mut self, plan: Plan) {
        // The opening roll; the first tie is kept in the record.
        loop {
            let (w, b) = (self.rng.die(), self.rng.die());
            self.act(BgAction::OpeningRoll { white: w, black: b });
            if w != b {
                break;
            }
        }
        let mut turn = 1u32;
        let mut doubled = 0;
        loop {
            if self.over() {
                return;
            }
            match *self.m.phase() {
                GamePhase::Moving { side, .. } => {
                    let play = self.choose(side);
                    self.act(BgAction::Play { side, play });
                    turn += 1;
                }
                GamePhase::AwaitingRoll { side } => {
                    // What the plan wants now: resign, or double and then
                    // take (true) or drop (false).
                    let wants_double = match plan {
                        Plan::Resign { at, kind } if turn >= at => {
                            self.act(BgAction::Resign { side, value: kind });
                            return;
                        }
                        Plan::DoubleTake { at } => (turn >= at && doubled == 0).then_some(true),
                        Plan::Redouble { at, again } => ((turn >= at && doubled == 0)
                            || (turn >= again && doubled == 1))
                            .then_some(true),
                        Plan::DoubleDrop { at } | Plan::DoubleResign { at } => {
                            (turn >= at).then_some(false)
                        }
                        _ => None,
                    };
                    if let Some(take) = wants_double
                        && self.m.can_double(side)
                    {
                        self.act(BgAction::Double { side });
                        let other = side.opponent();
                        if take {
                            self.act(BgAction::Take { side: other });
                            doubled += 1;
                        } else if let Plan::DoubleResign { .. } = plan {
                            self.act(BgAction::Resign {
                                side: other,
                                value: ResignKind::Single,
                            });
                            return;
                        } else {
                            self.act(BgAction::Drop { side: other });
                            return;
                        }
                    }
                    let dice = [self.rng.die(), self.rng.die()];
                    self.act(BgAction::Roll { side, dice });
                    if matches!(*self.m.phase(), GamePhase::AwaitingRoll { .. }) {
                        turn += 1;
                    }
                }
                ref other => panic!("unexpected phase {other:?}"),
            }
            assert!(turn < 2000, "game does not end");
        }
    }

    /// Plays games following `plans` (cyclically) until the match is over
    /// or `max_games` games were played.
    pub fn play_match(mut self, plans: &[Plan], max_games: usize) -> GameRecord {
        for g in 0..max_games {
            if g > 0 {
                if matches!(self.m.phase(), GamePhase::MatchOver { .. }) {
                    break;
                }
                self.act(BgAction::NextGame);
            }
            self.play_game(plans[g % plans.len()]);
        }
        GameRecord::Backgammon {
            config: *self.m.config(),
            actions: self.actions,
            dice: None,
        }
    }
}

pub fn config(length: u32, crawford: bool, jacoby: bool) -> MatchConfig {
    MatchConfig {
        length,
        cube: true,
        jacoby,
        crawford,
        doubles_twice: false,
    }
}
