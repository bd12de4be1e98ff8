//! [`EngineSpec`]: an external engine as the host names it at start-up,
//! `GAME:NAME=COMMAND [ARGS...]`.

use std::str::FromStr;

use tabula_shared::protocol::{EngineInfo, GameKind};

/// Longest engine name, in characters.
const NAME_MAX: usize = 32;

/// An external engine: the game it plays, the name players choose it by,
/// and how to start it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Gomoku engines speak the Gomocup protocol; Backgammon engines the
    /// line protocol of `bg-engine`.
    pub game: GameKind,
    /// Shown to players, and named in `create_room`.
    pub name: String,
    /// The program to run (a path, or a name looked up on `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Why `--engine` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Not `GAME:NAME=COMMAND`.
    #[error("expected GAME:NAME=COMMAND [ARGS...], e.g. gomoku:Rapfi=/path/to/pbrain-rapfi")]
    Shape,
    /// The game is neither `gomoku` nor `backgammon`.
    #[error("unknown game {0:?}: gomoku or backgammon")]
    Game(String),
    /// The name is empty, too long, or has characters other than letters,
    /// digits, spaces, `-`, `_` and `.`.
    #[error("an engine's name is 1 to 32 letters, digits, spaces, '-', '_' or '.'")]
    Name,
    /// Nothing after `=`.
    #[error("no command after '='")]
    Command,
}

impl EngineSpec {
    /// Checks that the program exists: a path with a `/` names a file, a
    /// bare name is looked up on `PATH`. The server refuses to start
    /// otherwise, so that a typo is seen at once rather than as failures
    /// in every room.
    ///
    /// # Errors
    /// A sentence naming the engine and the program not found.
    pub fn check_program(&self) -> Result<(), String> {
        let program = std::path::Path::new(&self.program);
        let found =
            if self.program.contains(std::path::MAIN_SEPARATOR) || self.program.contains('/') {
                program.is_file()
            } else {
                std::env::var_os("PATH").is_some_and(|path| {
                    std::env::split_paths(&path).any(|dir| dir.join(program).is_file())
                })
            };
        if found {
            Ok(())
        } else {
            Err(format!(
                "engine {:?}: no program {:?} (a path, or a name on PATH)",
                self.name, self.program
            ))
        }
    }

    /// The engine as the `welcome` lists it.
    pub fn info(&self) -> EngineInfo {
        EngineInfo {
            game: self.game,
            name: self.name.clone(),
        }
    }
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    /// Reads `GAME:NAME=COMMAND [ARGS...]`; the command and its arguments
    /// are split at white space (no quoting).
    fn from_str(s: &str) -> Result<EngineSpec, SpecError> {
        let (game, rest) = s.split_once(':').ok_or(SpecError::Shape)?;
        let (name, command) = rest.split_once('=').ok_or(SpecError::Shape)?;
        let game = match game.trim().to_ascii_lowercase().as_str() {
            "gomoku" => GameKind::Gomoku,
            "backgammon" => GameKind::Backgammon,
            other => return Err(SpecError::Game(other.to_string())),
        };
        let name = name.trim();
        let name_ok = (1..=NAME_MAX).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'));
        if !name_ok {
            return Err(SpecError::Name);
        }
        let mut words = command.split_whitespace().map(String::from);
        let program = words.next().ok_or(SpecError::Command)?;
        Ok(EngineSpec {
            game,
            name: name.to_string(),
            program,
            args: words.collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_is_read_from_game_name_and_command_line() {
        let spec: EngineSpec = "gomoku:Rapfi=/opt/rapfi/pbrain-rapfi"
            .parse()
            .expect("spec");
        assert_eq!(spec.game, GameKind::Gomoku);
        assert_eq!(spec.name, "Rapfi");
        assert_eq!(spec.program, "/opt/rapfi/pbrain-rapfi");
        assert!(spec.args.is_empty());
        let spec: EngineSpec = "Backgammon:Tabula 2=bg-engine --level beginner"
            .parse()
            .expect("spec");
        assert_eq!(spec.game, GameKind::Backgammon);
        assert_eq!(spec.name, "Tabula 2");
        assert_eq!(spec.program, "bg-engine");
        assert_eq!(spec.args, ["--level", "beginner"]);
    }

    #[test]
    fn a_program_that_is_not_there_is_found_out() {
        let spec = |program: &str| EngineSpec {
            game: GameKind::Gomoku,
            name: "X".into(),
            program: program.into(),
            args: Vec::new(),
        };
        assert_eq!(spec("/bin/sh").check_program(), Ok(()));
        assert_eq!(spec("sh").check_program(), Ok(()));
        let missing = spec("/no/such/pbrain")
            .check_program()
            .expect_err("missing");
        assert!(missing.contains("/no/such/pbrain"), "{missing}");
        assert!(spec("no-such-pbrain-anywhere").check_program().is_err());
    }

    #[test]
    fn a_bad_engine_argument_says_what_is_wrong() {
        assert_eq!("Rapfi=/x".parse::<EngineSpec>(), Err(SpecError::Shape));
        assert_eq!("gomoku:Rapfi".parse::<EngineSpec>(), Err(SpecError::Shape));
        assert_eq!(
            "chess:Fish=/x".parse::<EngineSpec>(),
            Err(SpecError::Game("chess".into()))
        );
        assert_eq!("gomoku:=/x".parse::<EngineSpec>(), Err(SpecError::Name));
        assert_eq!("gomoku:a<b>=/x".parse::<EngineSpec>(), Err(SpecError::Name));
        assert_eq!(
            "gomoku:Rapfi=  ".parse::<EngineSpec>(),
            Err(SpecError::Command)
        );
    }
}
