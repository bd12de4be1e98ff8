//! Tournaments on the wire: what a host sets up, the entrants, the
//! pairings with their rooms, and the standings everyone sees.

use serde::{Deserialize, Serialize};

use super::{AiLevel, GameOptions, PlayerInfo, RoomId, TimeControl};
use crate::gomoku::Point;
use crate::tournament::standings::Standing;

/// A tournament's id.
pub type TournamentId = String;

/// How entrants are paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TournamentFormat {
    /// A fixed number of rounds, paired by score (FIDE Dutch system).
    Swiss { rounds: u32 },
    /// Everyone meets everyone, once or (`double`) twice with colours swapped.
    RoundRobin {
        #[serde(default)]
        double: bool,
    },
    /// Seeded by rating; the loser of each pairing is out.
    Knockout,
    /// For `minutes`, a player is paired again as soon as their game ends.
    Arena { minutes: u32 },
}

/// Everything a host chooses when creating a tournament.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentSpec {
    /// Shown in the list: 1 to 48 characters.
    pub name: String,
    pub format: TournamentFormat,
    /// The game and its rules, the same for every game.
    pub game: GameOptions,
    /// Every game has a clock: an absent player loses on time.
    pub time_control: TimeControl,
    #[serde(default)]
    pub rated: bool,
    /// Not listed; joined with the code the host is given.
    #[serde(default)]
    pub private: bool,
    /// At most this many entrants: 2 to 10,000 in an arena or a Swiss, to
    /// 256 in a round robin or a knockout.
    pub max_entrants: u32,
    /// How long a paired player has to come to their game before it is
    /// scored as lost (seconds, 10 to 600; default 60).
    #[serde(default = "default_forfeit_secs")]
    pub forfeit_secs: u32,
    /// When it starts by itself (Unix ms), as lichess's events do; the host
    /// may still start it earlier. `None`: when the host starts it. One
    /// with fewer than two entrants at that time ends unplayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<i64>,
    /// A Gomoku round robin's fixed openings, as the Gomocup plays them:
    /// each pairing plays every opening twice, once with each colour. An
    /// opening is its stones in order, black first (at most 20 openings of
    /// at most 20 stones; freestyle or standard rules, no Swap2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub openings: Vec<Vec<Point>>,
}

fn default_forfeit_secs() -> u32 {
    60
}

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entrants until the host starts it.
    Open,
    Running,
    /// The host paused it: games in play go on, no new round is paired.
    Paused,
    Finished,
}

/// Someone in the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Pairing number, from 1 (by rating when the event starts).
    pub no: u32,
    pub player: PlayerInfo,
    pub rating: i32,
    /// Withdrawn (by themselves, the host, or after a second absence):
    /// never paired again.
    #[serde(default)]
    pub withdrawn: bool,
    /// Games lost by not coming.
    #[serde(default)]
    pub absences: u32,
}

/// Whom a host adds: one of the built-in AI levels or a host's engine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntrantRequest {
    Ai(AiLevel),
    Engine(String),
}

/// One game of a round (or a bye).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentGame {
    pub round: u32,
    /// Pairing number of the first seat.
    pub first: u32,
    /// Pairing number of the second seat; `None` is a bye for `first`.
    pub second: Option<u32>,
    /// The game's room, to watch or to play in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_id: Option<RoomId>,
    /// The first seat's half points once it ended: 2, 1 or 0 (a bye: 2 in a Swiss or knockout, 0 in a round robin, where it is a rest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_score: Option<u32>,
    /// The second seat's half points (both 0 when neither came).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_score: Option<u32>,
    /// Scored without play: someone did not come.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forfeit: bool,
    /// The finished game, for `get_game` (its record, its export).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
    /// The opening it starts from (an index into the spec's `openings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<u32>,
}

/// The whole tournament as its page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentView {
    pub id: TournamentId,
    pub spec: TournamentSpec,
    pub host: PlayerInfo,
    pub status: TournamentStatus,
    /// The round in play (0 before the start).
    pub round: u32,
    pub entrants: Vec<Entrant>,
    /// Every game so far, round by round.
    pub games: Vec<TournamentGame>,
    /// Best first: score, then Buchholz, Sonneborn-Berger, pairing number
    /// (an arena: points).
    pub standings: Vec<Standing>,
    /// Counts the changes told: each `tournament` message has the next.
    pub seq: u64,
    /// Unix ms of the start and of the end (an arena ends at its time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<i64>,
}

/// A line of the tournament list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub format: TournamentFormat,
    pub game: GameOptions,
    pub time_control: TimeControl,
    pub status: TournamentStatus,
    pub entrants: u32,
    pub max_entrants: u32,
    pub round: u32,
    pub host: String,
}

/// What the host may do to a tournament once it exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum HostAction {
    /// Pairs round 1 and starts.
    Start,
    /// No new round is paired until `resume`.
    Pause,
    Resume,
    /// Ends it now: games in play still count when they end.
    End,
    /// Withdraws an entrant.
    Remove {
        no: u32,
    },
    /// Adds an AI level or an engine as an entrant (before the start).
    Add {
        entrant: EntrantRequest,
    },
}
