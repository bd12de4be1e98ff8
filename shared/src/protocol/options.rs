//! What a room's creator chooses: the game and its rules, the opponent
//! (a person, an AI level or one of the host's engines), the colour, the
//! clock, privacy, takebacks and rating.

use serde::{Deserialize, Serialize};

use super::{GameKind, GameOptions, default_true, is_false};

/// The AI levels, by the names shown to players, weakest first. Each game's
/// AI makes them climb in even steps (the measured gaps are in the README).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AiLevel {
    /// For someone learning the game.
    Beginner,
    /// For a casual player.
    Casual,
    /// For a club player.
    Intermediate,
    /// For a strong club player.
    Advanced,
    /// Full strength.
    Expert,
}

impl AiLevel {
    /// Every level, weakest first.
    pub const ALL: [AiLevel; 5] = [
        AiLevel::Beginner,
        AiLevel::Casual,
        AiLevel::Intermediate,
        AiLevel::Advanced,
        AiLevel::Expert,
    ];

    /// The level's name on the wire (`"beginner"` ...).
    pub fn name(self) -> &'static str {
        match self {
            AiLevel::Beginner => "beginner",
            AiLevel::Casual => "casual",
            AiLevel::Intermediate => "intermediate",
            AiLevel::Advanced => "advanced",
            AiLevel::Expert => "expert",
        }
    }

    /// The level named `name` on the wire.
    pub fn from_name(name: &str) -> Option<AiLevel> {
        AiLevel::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// Who sits in the seat opposite the creator.
///
/// On the wire an engine is written `{"kind":"ai","level":"expert","engine":NAME}`,
/// so that a client that predates engines reads it as the Expert (which
/// stands in for a failing engine anyway) instead of failing on the whole
/// message; `{"kind":"engine","name":NAME}` is accepted too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "OpponentWire", try_from = "OpponentWire")]
pub enum Opponent {
    /// Another person, who joins from the lobby or by code.
    Human,
    /// The built-in AI at a level.
    Ai {
        /// How strong.
        level: AiLevel,
    },
    /// An external engine the host runs, by the name the `welcome` lists
    /// it under for this game; the built-in Expert stands in for it when
    /// it fails.
    Engine {
        /// One of the names in `welcome.engines` for the room's game.
        name: String,
    },
}

/// [`Opponent`] as written on the wire.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct OpponentWire {
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<AiLevel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    engine: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

impl From<Opponent> for OpponentWire {
    fn from(opponent: Opponent) -> OpponentWire {
        let (kind, level, engine) = match opponent {
            Opponent::Human => ("human", None, None),
            Opponent::Ai { level } => ("ai", Some(level), None),
            Opponent::Engine { name } => ("ai", Some(AiLevel::Expert), Some(name)),
        };
        OpponentWire {
            kind: kind.into(),
            level,
            engine,
            name: None,
        }
    }
}

impl TryFrom<OpponentWire> for Opponent {
    type Error = String;

    fn try_from(wire: OpponentWire) -> Result<Opponent, String> {
        match (wire.kind.as_str(), wire.level, wire.engine, wire.name) {
            ("human", ..) => Ok(Opponent::Human),
            ("ai", _, Some(name), _) | ("engine", _, _, Some(name)) => {
                Ok(Opponent::Engine { name })
            }
            ("ai", Some(level), None, _) => Ok(Opponent::Ai { level }),
            ("ai", None, None, _) => Err("an AI opponent needs a level".into()),
            ("engine", ..) => Err("an engine opponent needs a name".into()),
            (other, ..) => Err(format!("unknown opponent kind {other:?}")),
        }
    }
}

/// An external engine the host offers as an opponent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineInfo {
    /// The game it plays.
    pub game: GameKind,
    /// Its name, as `Opponent::Engine` names it.
    pub name: String,
}

/// The colour the creator asks for.
///
/// For Gomoku, black is the player who moves first (with swap2, the player who
/// places the first three stones). For Backgammon, the colours name the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourChoice {
    /// Black, or the first seat.
    Black,
    /// White, or the second seat.
    White,
    /// Decided by the server.
    #[default]
    Random,
}

/// A Fischer clock: a starting budget plus an increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Starting time per player, in seconds.
    pub initial_secs: u32,
    /// Seconds added after each of the player's moves.
    pub increment_secs: u32,
}

/// Everything chosen when a room is created.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoomOptions {
    /// The game and its rules.
    pub game: GameOptions,
    /// Human or AI.
    pub opponent: Opponent,
    /// The creator's colour.
    #[serde(default)]
    pub colour: ColourChoice,
    /// An optional Fischer clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Private rooms are not listed and are joined by code.
    #[serde(default)]
    pub private: bool,
    /// Whether takeback requests are allowed (default true).
    #[serde(default = "default_true")]
    pub takebacks: bool,
    /// Rated rooms (every human registered; against the built-in AI, at its
    /// published rating) update Glicko-2 ratings.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
    /// Whether the players may ask the engine for hints. Rooms against the
    /// AI always allow them; a rated room never does.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hints: bool,
}

impl RoomOptions {
    /// Whether a seated player may ask for hints in a room with these
    /// options: never when rated; against the AI, always; otherwise when
    /// the creator allowed them.
    pub fn allows_hints(&self) -> bool {
        !self.rated && (self.hints || !matches!(self.opponent, Opponent::Human))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_is_written_so_that_older_clients_read_the_expert() {
        let engine = Opponent::Engine {
            name: "Rapfi".into(),
        };
        let text = serde_json::to_string(&engine).unwrap();
        assert_eq!(text, r#"{"kind":"ai","level":"expert","engine":"Rapfi"}"#);
        assert_eq!(serde_json::from_str::<Opponent>(&text).unwrap(), engine);
        let named: Opponent = serde_json::from_str(r#"{"kind":"engine","name":"Rapfi"}"#).unwrap();
        assert_eq!(named, engine);
        // What a client from before engines makes of it: the Expert.
        #[derive(Deserialize)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        enum Before {
            Ai { level: AiLevel },
        }
        let Before::Ai { level } = serde_json::from_str(&text).unwrap();
        assert_eq!(level, AiLevel::Expert);
        for bad in [
            r#"{"kind":"ai"}"#,
            r#"{"kind":"engine"}"#,
            r#"{"kind":"robot"}"#,
        ] {
            assert!(serde_json::from_str::<Opponent>(bad).is_err(), "{bad}");
        }
    }
}
