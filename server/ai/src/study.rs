//! The analysis board's entry point: the engine's view of any checked
//! position ([`crate::backgammon::study`], [`crate::gomoku::study`]), as
//! the server calls it on its blocking pool.

use tabula_shared::protocol::StudyAnswer;
use tabula_shared::study::{SetupError, StudyPosition};

/// Why the board has no answer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StudyError {
    /// The rules refuse the position.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The Backgammon Expert's weights failed their check.
    #[error("the Backgammon Expert is not available")]
    NoEngine,
}

/// The answer for `position`: Backgammon at `depth` plies (at most
/// [`tabula_shared::protocol::MAX_STUDY_DEPTH`]), Gomoku with
/// `gomoku_nodes` a search. Reproducible: the same position gives the same
/// answer.
///
/// # Errors
/// See [`StudyError`].
pub fn study(
    position: &StudyPosition,
    depth: u8,
    gomoku_nodes: u64,
) -> Result<StudyAnswer, StudyError> {
    match position {
        StudyPosition::Backgammon(setup) => {
            let m = setup.to_match()?;
            crate::backgammon::study::study(&m, depth)
                .map(StudyAnswer::Backgammon)
                .ok_or(StudyError::NoEngine)
        }
        StudyPosition::Gomoku(setup) => {
            setup.board()?;
            Ok(StudyAnswer::Gomoku(crate::gomoku::study::study(
                setup,
                gomoku_nodes,
            )))
        }
    }
}
