//! What the client remembers between runs (saved by eframe's persistence):
//! the connect form, display preferences, lobby filters and the last
//! create-room choices. Runtime state lives in [`crate::app`].

use serde::{Deserialize, Serialize};
use tabula_shared::backgammon::MatchConfig;
use tabula_shared::gomoku::{GomokuConfig, Opening, Rule};
use tabula_shared::protocol::{
    AiLevel, ColourChoice, GameKind, GameOptions, Opponent, RoomOptions, TimeControl,
};

/// The key under which eframe stores the settings.
pub const STORAGE_KEY: &str = "tabula-settings";

/// The address of a server on this computer.
pub const DEFAULT_ADDRESS: &str = "127.0.0.1:7878";

/// Persisted settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Display name.
    pub name: String,
    /// Server `host:port`.
    pub address: String,
    /// Server password (empty when none).
    pub password: String,
    /// Show move numbers on Gomoku stones.
    pub show_numbers: bool,
    /// Lobby filter: only this game.
    pub filter_game: Option<GameKind>,
    /// Lobby filter: only rooms with a free seat.
    pub waiting_only: bool,
    /// The last choices of the create dialog.
    pub create: CreateForm,
    /// Resume tokens by server address, so a restarted client gets its
    /// identity and seats back.
    pub tokens: std::collections::BTreeMap<String, String>,
    /// Light, dark, or as the system says.
    pub theme: Theme,
    /// The language of the interface.
    pub language: Language,
    /// Backgammon: a complete play waits for Confirm (else it is sent as
    /// soon as it is complete).
    pub confirm_moves: bool,
    /// Backgammon: roll by itself when no double is possible.
    pub auto_roll: bool,
    /// How fast the opponent's checkers move: 0.5 (slow) to 3 (fast).
    pub animation_speed: f32,
    /// Backgammon, as in gnubg: a click on a checker moves it by the larger
    /// die at once (a right click, by the smaller). Off: a click selects the
    /// checker and a second click on a target moves it. A right click moves
    /// by the smaller die either way; a drag goes anywhere either way. On by
    /// default on the desktop, off in a browser.
    pub die_clicks: bool,
    /// Backgammon: when the roll allows only one play, make it (and send
    /// it when plays need no confirmation). A roll with no play passes by
    /// the rules whatever this says.
    pub auto_forced: bool,
    /// The colours of the Gomoku board.
    pub gomoku_style: GomokuStyle,
    /// The colours of the Backgammon board.
    pub bg_style: BgStyle,
    /// Play the sounds (moves, hits, your turn, low time, game end).
    pub sound: bool,
    /// We hosted (Play on this computer) when the client last closed: it
    /// hosts again at launch.
    pub hosting: bool,
    /// The room open when the client last closed, by server address: the
    /// next welcome returns to it, when we still have a seat there.
    pub open_rooms: std::collections::BTreeMap<String, String>,
}

/// The colours of the Gomoku board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GomokuStyle {
    /// Light wood, as a real goban.
    #[default]
    Wood,
    /// Plain paper: pale grey, thin black lines.
    Plain,
    /// A dark board with light lines, easy on the eyes at night.
    Dark,
}

/// The colours of the Backgammon board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BgStyle {
    /// Green felt, red and cream points, a wooden frame.
    #[default]
    Classic,
    /// Blue felt, navy and sand points, a grey frame.
    Ocean,
}

/// The colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// As the system says.
    #[default]
    System,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// egui's preference for it.
    pub fn preference(self) -> egui::ThemePreference {
        match self {
            Theme::System => egui::ThemePreference::System,
            Theme::Light => egui::ThemePreference::Light,
            Theme::Dark => egui::ThemePreference::Dark,
        }
    }
}

/// The language of the interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    /// The system's language when it is one we have, else English.
    #[default]
    System,
    /// English.
    English,
    /// Simplified Chinese.
    Chinese,
}

impl Language {
    /// The locale code of the translations to use; `system` is the
    /// system's locale (as `sys_locale` gives it), if known.
    pub fn locale(self, system: Option<&str>) -> &'static str {
        match self {
            Language::English => "en",
            Language::Chinese => "zh-CN",
            Language::System => match system {
                Some(s) if s.to_ascii_lowercase().starts_with("zh") => "zh-CN",
                _ => "en",
            },
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            name: String::new(),
            address: DEFAULT_ADDRESS.into(),
            password: String::new(),
            show_numbers: false,
            filter_game: None,
            waiting_only: false,
            create: CreateForm::default(),
            tokens: std::collections::BTreeMap::new(),
            theme: Theme::System,
            language: Language::System,
            confirm_moves: true,
            auto_roll: false,
            animation_speed: 1.0,
            // A browser is often a touch screen, with no right click: a tap
            // selects there unless the player asks for die clicks.
            die_clicks: !cfg!(target_arch = "wasm32"),
            auto_forced: false,
            gomoku_style: GomokuStyle::Wood,
            bg_style: BgStyle::Classic,
            sound: true,
            hosting: false,
            open_rooms: std::collections::BTreeMap::new(),
        }
    }
}

/// The create-room dialog's fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CreateForm {
    /// Which game.
    pub game: GameKind,
    /// Gomoku board size.
    pub size: u8,
    /// Gomoku rule set.
    pub rule: Rule,
    /// Gomoku opening.
    pub opening: Opening,
    /// Backgammon match length (0 = money game).
    pub length: u32,
    /// Backgammon: use the cube.
    pub cube: bool,
    /// Backgammon: Jacoby rule (money games).
    pub jacoby: bool,
    /// Backgammon: Crawford rule.
    pub crawford: bool,
    /// Play the AI instead of a person.
    pub vs_ai: bool,
    /// AI level.
    pub level: AiLevel,
    /// One of the server's external engines instead of a built-in level
    /// (cleared by the create dialog when the server does not offer it).
    pub engine: Option<String>,
    /// Requested colour in Gomoku.
    pub colour: ColourChoice,
    /// Requested colour in Backgammon: a choice of its own, since the
    /// colour that moves first differs (Black in Gomoku, White here).
    pub bg_colour: ColourChoice,
    /// Use a clock.
    pub timed: bool,
    /// Minutes per player.
    pub minutes: u32,
    /// Seconds added per move.
    pub increment: u32,
    /// Unlisted room, joined by code.
    pub private: bool,
    /// A rated room (every human in it registered; against the AI, without takebacks).
    pub rated: bool,
    /// Let the players of an unrated room against a person ask the engine
    /// for hints (rooms against the AI always allow them).
    pub hints: bool,
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            game: GameKind::Gomoku,
            size: 15,
            rule: Rule::Freestyle,
            opening: Opening::None,
            length: 5,
            cube: true,
            jacoby: false,
            crawford: true,
            vs_ai: true,
            level: AiLevel::Intermediate,
            engine: None,
            colour: ColourChoice::Black,
            bg_colour: ColourChoice::White,
            timed: false,
            minutes: 10,
            increment: 5,
            private: false,
            rated: false,
            hints: false,
        }
    }
}

impl CreateForm {
    /// The room options these fields describe.
    pub fn options(&self) -> RoomOptions {
        let game = match self.game {
            GameKind::Gomoku => GameOptions::Gomoku(GomokuConfig {
                size: self.size,
                rule: self.rule,
                opening: self.opening,
            }),
            GameKind::Backgammon => GameOptions::Backgammon(MatchConfig {
                length: self.length,
                cube: self.cube && self.length != 1,
                jacoby: self.jacoby && self.length == 0,
                crawford: self.crawford && self.length > 1,
                ..MatchConfig::default()
            }),
        };
        RoomOptions {
            game,
            opponent: match (&self.engine, self.vs_ai) {
                (_, false) => Opponent::Human,
                (Some(name), true) => Opponent::Engine { name: name.clone() },
                (None, true) => Opponent::Ai { level: self.level },
            },
            colour: match self.game {
                GameKind::Gomoku => self.colour,
                GameKind::Backgammon => self.bg_colour,
            },
            time_control: self.timed.then_some(TimeControl {
                initial_secs: self.minutes.max(1) * 60,
                increment_secs: self.increment,
            }),
            private: self.private,
            // The AI grants every takeback, so a rated game against it has
            // none; an external engine's games are not rated.
            takebacks: !(self.rated && self.vs_ai && self.engine.is_none()),
            rated: self.rated && !(self.vs_ai && self.engine.is_some()),
            hints: self.hints && !self.vs_ai && !self.rated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_tolerate_missing_fields() {
        let s = Settings {
            name: "Ada".into(),
            ..Settings::default()
        };
        let text = serde_json::to_string(&s).expect("encode");
        assert_eq!(serde_json::from_str::<Settings>(&text).expect("decode"), s);
        let old: Settings = serde_json::from_str(r#"{"name":"Bo"}"#).expect("decode");
        assert_eq!(old.address, DEFAULT_ADDRESS);
    }

    #[test]
    fn the_language_follows_the_system_unless_chosen() {
        assert_eq!(Language::System.locale(Some("zh-CN")), "zh-CN");
        assert_eq!(Language::System.locale(Some("zh_TW.UTF-8")), "zh-CN");
        assert_eq!(Language::System.locale(Some("de-DE")), "en");
        assert_eq!(Language::System.locale(None), "en");
        assert_eq!(Language::English.locale(Some("zh-CN")), "en");
        assert_eq!(Language::Chinese.locale(None), "zh-CN");
        let old: Settings = serde_json::from_str(r#"{"name":"Bo"}"#).expect("decode");
        assert!(old.confirm_moves && !old.auto_roll);
        assert!(old.die_clicks && old.sound);
        assert_eq!(
            (old.gomoku_style, old.bg_style),
            (GomokuStyle::Wood, BgStyle::Classic)
        );
        assert_eq!((old.theme, old.language), (Theme::System, Language::System));
    }

    #[test]
    fn form_builds_options() {
        let mut f = CreateForm {
            game: GameKind::Backgammon,
            timed: true,
            minutes: 3,
            increment: 2,
            ..CreateForm::default()
        };
        let o = f.options();
        assert!(matches!(o.game, GameOptions::Backgammon(c) if c.length == 5 && c.cube));
        assert_eq!(o.time_control.map(|t| t.initial_secs), Some(180));
        f.rated = true;
        let against_the_ai = f.options();
        assert!(against_the_ai.rated, "rated against the AI's fixed rating");
        assert!(
            !against_the_ai.takebacks,
            "the AI would grant every takeback"
        );
        f.engine = Some("Rapfi".into());
        assert_eq!(
            f.options().opponent,
            Opponent::Engine {
                name: "Rapfi".into()
            }
        );
        assert!(
            !f.options().rated,
            "an external engine's games are not rated"
        );
        f.engine = None;
        f.vs_ai = false;
        assert_eq!(f.options().opponent, Opponent::Human);
        assert!(f.options().rated);
        assert!(f.options().takebacks);
        f.hints = true;
        assert!(!f.options().hints, "a rated room has no hints");
        f.rated = false;
        assert!(f.options().hints && f.options().allows_hints());
        f.vs_ai = true;
        assert!(!f.options().hints, "against the AI hints need no option");
        assert!(f.options().allows_hints());
    }
}
