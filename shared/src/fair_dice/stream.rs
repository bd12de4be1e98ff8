//! The roll stream: every roll of a match derived from the seeds and the
//! roll's place in the match, and where in the stream a record stands.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::ServerSeed;
use crate::backgammon::BgAction;

/// The scheme's name, and the first bytes of every HMAC message.
pub const SCHEME: &str = "tabula-dice-v1";

/// Bytes from this value up are rejected: 252 = 6 × 42 is the largest
/// multiple of 6 that fits in a byte, so the 252 kept values give each face
/// exactly 42 of them.
pub const REJECT_FROM: u8 = 252;

type HmacSha256 = Hmac<Sha256>;

/// The face (1..=6) an HMAC output byte gives, or `None` for a byte that is
/// rejected (252..=255).
pub const fn face_of_byte(v: u8) -> Option<u8> {
    if v < REJECT_FROM {
        Some(v % 6 + 1)
    } else {
        None
    }
}

/// Where a roll is in a match: its game and its number in that game.
///
/// Rolls are numbered from 0 in each game, and every recorded entry that
/// carries dice takes one number: each [`BgAction::OpeningRoll`] (ties
/// included: a tie is recorded, then rolled again under the next number) and
/// each [`BgAction::Roll`]. Games are numbered from 1 and a
/// [`BgAction::NextGame`] starts the next one at roll 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RollPosition {
    /// The game of the match, from 1.
    pub game: u32,
    /// The roll in that game, from 0.
    pub roll: u32,
}

impl RollPosition {
    /// The match's first roll: the opening roll of game 1.
    pub const FIRST: RollPosition = RollPosition { game: 1, roll: 0 };

    /// Where the next roll after `actions` (a Backgammon match record) is.
    ///
    /// This is all the state a server needs to deal from the stream: a roll
    /// that a takeback cut from the record, or that could not be saved, is
    /// dealt again by the next roll, in order, because the record is back
    /// where it was before that roll; and a restarted server finds its place
    /// from the saved record.
    pub fn after(actions: &[BgAction]) -> RollPosition {
        actions.iter().fold(RollPosition::FIRST, |at, a| at.step(a))
    }

    /// The position after `action` (`self` is where the next roll was before it).
    fn step(self, action: &BgAction) -> RollPosition {
        match action {
            BgAction::OpeningRoll { .. } | BgAction::Roll { .. } => RollPosition {
                game: self.game,
                roll: self.roll.saturating_add(1),
            },
            BgAction::NextGame => RollPosition {
                game: self.game.saturating_add(1),
                roll: 0,
            },
            _ => self,
        }
    }
}

/// One entry of a record that carries dice, with its place in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordedRoll {
    /// The entry's index in the record.
    pub index: usize,
    /// Its place in the stream.
    pub at: RollPosition,
    /// The dice recorded: `[white, black]` for an opening roll, the two dice
    /// in order for a roll.
    pub dice: [u8; 2],
}

/// The entries of a Backgammon match record that carry dice, in order, each
/// with its place in the stream.
pub fn recorded_rolls(actions: &[BgAction]) -> impl Iterator<Item = RecordedRoll> + '_ {
    actions
        .iter()
        .enumerate()
        .scan(RollPosition::FIRST, |at, (index, action)| {
            let here = *at;
            *at = here.step(action);
            Some(match action {
                BgAction::OpeningRoll { white, black } => Some(RecordedRoll {
                    index,
                    at: here,
                    dice: [*white, *black],
                }),
                BgAction::Roll { dice, .. } => Some(RecordedRoll {
                    index,
                    at: here,
                    dice: *dice,
                }),
                _ => None,
            })
        })
        .flatten()
}

/// The dice of one match, derived from the server seed and the two players'
/// seeds.
///
/// Roll `(game, roll)` is read from the bytes of HMAC-SHA256 blocks, with the
/// server seed's 32 bytes as the key and as message (all integers big-endian):
///
/// ```text
/// "tabula-dice-v1"                          14 ASCII bytes
/// u32 length of White's seed, its bytes
/// u32 length of Black's seed, its bytes
/// u32 game (from 1), u32 roll (from 0), u32 block (from 0)
/// ```
///
/// The bytes of block 0, then of block 1 and so on, are read in order; a
/// byte `v` below 252 gives the die `v % 6 + 1`, a byte from 252 up is
/// skipped. The first two dice read are the roll: White's then Black's die
/// for an opening roll, the two dice in order for a roll. (Block 1 is needed
/// only when fewer than two of block 0's 32 bytes are kept: about once in
/// 10^54 rolls.)
#[derive(Clone)]
pub struct DiceStream {
    /// The HMAC keyed with the server seed, with the scheme name and both
    /// player seeds already absorbed: each roll clones it and adds the rest.
    prefix: HmacSha256,
}

impl DiceStream {
    /// The stream of the match with these seeds (`player_seeds` is
    /// `[white, black]`; see [`check_player_seed`](super::check_player_seed)
    /// for what a server accepts, though any string works here).
    pub fn new(seed: &ServerSeed, player_seeds: [&str; 2]) -> DiceStream {
        let mut prefix = <HmacSha256 as KeyInit>::new_from_slice(seed.as_bytes())
            .expect("HMAC takes keys of any length");
        prefix.update(SCHEME.as_bytes());
        for s in player_seeds {
            // A player seed is at most a few dozen bytes; a longer one is
            // still encoded unambiguously up to 4 GiB.
            let len = u32::try_from(s.len()).unwrap_or(u32::MAX);
            prefix.update(&len.to_be_bytes());
            prefix.update(s.as_bytes());
        }
        DiceStream { prefix }
    }

    /// HMAC block `block` of the roll at `at`.
    fn block(&self, at: RollPosition, block: u32) -> [u8; 32] {
        let mut mac = self.prefix.clone();
        mac.update(&at.game.to_be_bytes());
        mac.update(&at.roll.to_be_bytes());
        mac.update(&block.to_be_bytes());
        mac.finalize().into_bytes().into()
    }

    /// The roll at `at`: `[white, black]` for an opening roll, the two dice
    /// in order for a roll.
    pub fn roll(&self, at: RollPosition) -> [u8; 2] {
        let mut dice = [0u8; 2];
        let mut n = 0;
        let mut block = 0u32;
        loop {
            for v in self.block(at, block) {
                if let Some(face) = face_of_byte(v) {
                    dice[n] = face;
                    n += 1;
                    if n == 2 {
                        return dice;
                    }
                }
            }
            block = block.wrapping_add(1);
        }
    }

    /// The dice of the next roll after `actions` (a Backgammon match record),
    /// for a [`BgAction::OpeningRoll`] (`[white, black]`) or a
    /// [`BgAction::Roll`] alike.
    pub fn next_roll(&self, actions: &[BgAction]) -> [u8; 2] {
        self.roll(RollPosition::after(actions))
    }

    /// The rolls of game `game` (from 1), in order from its roll 0.
    pub fn game(&self, game: u32) -> GameRolls<'_> {
        GameRolls {
            stream: self,
            at: Some(RollPosition { game, roll: 0 }),
        }
    }
}

impl std::fmt::Debug for DiceStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DiceStream(..)")
    }
}

/// The rolls of one game in order (see [`DiceStream::game`]); each item is
/// the two dice of a roll.
#[derive(Debug, Clone)]
pub struct GameRolls<'a> {
    stream: &'a DiceStream,
    /// The next roll; `None` past the last number.
    at: Option<RollPosition>,
}

impl GameRolls<'_> {
    /// Where the next roll is (`None` past the last roll number).
    pub fn next_at(&self) -> Option<RollPosition> {
        self.at
    }
}

impl Iterator for GameRolls<'_> {
    type Item = [u8; 2];

    fn next(&mut self) -> Option<[u8; 2]> {
        let at = self.at?;
        self.at = at
            .roll
            .checked_add(1)
            .map(|roll| RollPosition { roll, ..at });
        Some(self.stream.roll(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backgammon::Side;

    #[test]
    fn every_face_has_42_byte_values_and_4_are_rejected() {
        let mut per_face = [0u32; 6];
        let mut rejected = 0;
        for v in 0..=255u8 {
            match face_of_byte(v) {
                Some(face) => per_face[usize::from(face - 1)] += 1,
                None => rejected += 1,
            }
        }
        assert_eq!(per_face, [42; 6]);
        assert_eq!(rejected, 4);
        assert_eq!(face_of_byte(251), Some(6));
        assert_eq!(face_of_byte(252), None);
    }

    #[test]
    fn positions_follow_the_record() {
        let roll = |side| BgAction::Roll { side, dice: [3, 1] };
        let actions = vec![
            BgAction::OpeningRoll { white: 4, black: 4 },
            BgAction::OpeningRoll { white: 3, black: 1 },
            BgAction::Play {
                side: Side::White,
                play: "8/5 6/5".parse().unwrap(),
            },
            roll(Side::Black),
            BgAction::Double { side: Side::White },
            BgAction::Drop { side: Side::Black },
            BgAction::NextGame,
            BgAction::OpeningRoll { white: 2, black: 1 },
        ];
        assert_eq!(RollPosition::after(&[]), RollPosition::FIRST);
        assert_eq!(
            RollPosition::after(&actions[..4]),
            RollPosition { game: 1, roll: 3 }
        );
        assert_eq!(
            RollPosition::after(&actions[..7]),
            RollPosition { game: 2, roll: 0 }
        );
        assert_eq!(
            RollPosition::after(&actions),
            RollPosition { game: 2, roll: 1 }
        );
        let rolls: Vec<_> = recorded_rolls(&actions)
            .map(|r| (r.index, r.at.game, r.at.roll, r.dice))
            .collect();
        assert_eq!(
            rolls,
            vec![
                (0, 1, 0, [4, 4]),
                (1, 1, 1, [3, 1]),
                (3, 1, 2, [3, 1]),
                (7, 2, 0, [2, 1]),
            ]
        );
    }

    /// Computed with the Python procedure in docs/DICE.md.
    #[test]
    fn known_rolls() {
        let seed = ServerSeed::from_bytes(std::array::from_fn(|i| i as u8));
        let stream = DiceStream::new(&seed, ["alice-seed", ""]);
        let first: Vec<[u8; 2]> = stream.game(1).take(6).collect();
        assert_eq!(first, KNOWN_GAME_1);
        assert_eq!(
            stream.roll(RollPosition { game: 2, roll: 3 }),
            KNOWN_GAME_2_ROLL_3
        );
    }

    const KNOWN_GAME_1: [[u8; 2]; 6] = [[3, 6], [2, 4], [6, 1], [4, 3], [1, 2], [5, 3]];
    const KNOWN_GAME_2_ROLL_3: [u8; 2] = [3, 1];

    #[test]
    fn player_seeds_and_positions_change_the_rolls() {
        let seed = ServerSeed::from_bytes([9; 32]);
        let take = |s: &DiceStream, g| s.game(g).take(40).collect::<Vec<_>>();
        let base = DiceStream::new(&seed, ["a", "b"]);
        assert_ne!(take(&base, 1), take(&DiceStream::new(&seed, ["a", "c"]), 1));
        // The lengths keep ("ab", "") apart from ("a", "b").
        assert_ne!(take(&base, 1), take(&DiceStream::new(&seed, ["ab", ""]), 1));
        assert_ne!(take(&base, 1), take(&base, 2));
        let other = ServerSeed::from_bytes([8; 32]);
        assert_ne!(
            take(&base, 1),
            take(&DiceStream::new(&other, ["a", "b"]), 1)
        );
        let at = RollPosition { game: 3, roll: 17 };
        let mut rolls = base.game(3);
        rolls.nth(16);
        assert_eq!(rolls.next_at(), Some(at));
        assert_eq!(rolls.next(), Some(base.roll(at)));
        assert_eq!(rolls.next_at(), Some(RollPosition { roll: 18, ..at }));
    }
}
