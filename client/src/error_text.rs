//! What the player reads when the server refuses something: each typed
//! [`ErrorCode`] mapped to a sentence in the interface's language; and
//! what is wrong with a pasted or set-up position ([`SetupError`]).
//!
//! The server writes its `message` in English and often names the detail
//! ("the point is occupied"); the English interface shows it as it is, the
//! other languages show the code's translated meaning.

use rust_i18n::t;
use tabula_shared::backgammon::Side;
use tabula_shared::protocol::ErrorCode;
use tabula_shared::study::SetupError;

/// The translation key of a code's sentence.
pub fn error_key(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::BadJson => "error.bad_json",
        ErrorCode::UnknownType => "error.unknown_type",
        ErrorCode::BadRequest => "error.bad_request",
        ErrorCode::HelloRequired => "error.hello_required",
        ErrorCode::UnsupportedVersion => "error.unsupported_version",
        ErrorCode::InvalidName => "error.invalid_name",
        ErrorCode::NameTaken => "error.name_taken",
        ErrorCode::SignInFailed => "error.sign_in_failed",
        ErrorCode::NotRegistered => "error.not_registered",
        ErrorCode::AlreadyRegistered => "error.already_registered",
        ErrorCode::WeakPassword => "error.weak_password",
        ErrorCode::UnknownGame => "error.unknown_game",
        ErrorCode::AuthFailed => "error.auth_failed",
        ErrorCode::NotYourTurn => "error.not_your_turn",
        ErrorCode::IllegalMove => "error.illegal_move",
        ErrorCode::RoomFull => "error.room_full",
        ErrorCode::NotFound => "error.not_found",
        ErrorCode::Forbidden => "error.forbidden",
        ErrorCode::NotInRoom => "error.not_in_room",
        ErrorCode::RateLimited => "error.rate_limited",
        ErrorCode::LimitReached => "error.limit_reached",
        ErrorCode::Busy => "error.busy",
        ErrorCode::HintsOff => "error.hints_off",
        ErrorCode::Internal => "error.internal",
        ErrorCode::TournamentFull => "error.tournament_full",
        ErrorCode::TournamentStarted => "error.tournament_started",
        ErrorCode::BadPosition => "error.bad_position",
    }
}

/// The sentence for a refusal with `code`; `message` is the server's own
/// words (shown as they are in English).
pub fn error_text(code: ErrorCode, message: &str) -> String {
    t!(error_key(code), message = message).into_owned()
}

/// What is wrong with a position, in the interface's language. The
/// English interface shows the reader's own words; the others translate
/// the sentence around the detail (a reason such as "13 characters" is
/// left as the reader wrote it).
pub fn setup_error_text(e: &SetupError) -> String {
    setup_error_in(e, &rust_i18n::locale())
}

/// [`setup_error_text`] in `locale`.
fn setup_error_in(e: &SetupError, locale: &str) -> String {
    let message = e.to_string();
    let message = message.as_str();
    let side = |s: Side| match s {
        Side::White => t!("study.white", locale = locale),
        Side::Black => t!("study.black", locale = locale),
    };
    match e {
        SetupError::Unrecognised => t!(
            "setup_error.unrecognised",
            locale = locale,
            message = message
        ),
        SetupError::PositionId { id, reason } => {
            t!(
                "setup_error.position_id",
                locale = locale,
                message = message,
                id = id,
                reason = reason
            )
        }
        SetupError::MatchId { id, reason } => {
            t!(
                "setup_error.match_id",
                locale = locale,
                message = message,
                id = id,
                reason = reason
            )
        }
        SetupError::Xgid {
            field,
            name,
            reason,
        } => t!(
            "setup_error.xgid",
            locale = locale,
            message = message,
            field = field,
            name = name,
            reason = reason
        ),
        SetupError::CheckerCount { side: s, count } => t!(
            "setup_error.checker_count",
            locale = locale,
            message = message,
            side = side(*s),
            count = count
        ),
        SetupError::Board(reason) => t!(
            "setup_error.board",
            locale = locale,
            message = message,
            reason = reason
        ),
        SetupError::Cube(reason) => t!(
            "setup_error.cube",
            locale = locale,
            message = message,
            reason = reason
        ),
        SetupError::Dice(reason) => t!(
            "setup_error.dice",
            locale = locale,
            message = message,
            reason = reason
        ),
        SetupError::Score(reason) => t!(
            "setup_error.score",
            locale = locale,
            message = message,
            reason = reason
        ),
        SetupError::GameOver(reason) => {
            t!(
                "setup_error.game_over",
                locale = locale,
                message = message,
                reason = reason
            )
        }
        SetupError::Size(size) => t!(
            "setup_error.size",
            locale = locale,
            message = message,
            size = size
        ),
        SetupError::Point { text, reason } => t!(
            "setup_error.point",
            locale = locale,
            message = message,
            text = text,
            reason = reason
        ),
        SetupError::Occupied(p) => t!(
            "setup_error.occupied",
            locale = locale,
            message = message,
            point = p
        ),
        SetupError::Record { format, reason } => t!(
            "setup_error.record",
            locale = locale,
            message = message,
            format = format,
            reason = reason
        ),
    }
    .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code has a sentence of its own in Chinese, and the English
    /// one is the server's message.
    #[test]
    fn every_code_has_a_chinese_sentence() {
        let codes = [
            ErrorCode::BadJson,
            ErrorCode::UnknownType,
            ErrorCode::BadRequest,
            ErrorCode::HelloRequired,
            ErrorCode::UnsupportedVersion,
            ErrorCode::InvalidName,
            ErrorCode::NameTaken,
            ErrorCode::SignInFailed,
            ErrorCode::NotRegistered,
            ErrorCode::AlreadyRegistered,
            ErrorCode::WeakPassword,
            ErrorCode::UnknownGame,
            ErrorCode::AuthFailed,
            ErrorCode::NotYourTurn,
            ErrorCode::IllegalMove,
            ErrorCode::RoomFull,
            ErrorCode::NotFound,
            ErrorCode::Forbidden,
            ErrorCode::NotInRoom,
            ErrorCode::RateLimited,
            ErrorCode::LimitReached,
            ErrorCode::Internal,
            ErrorCode::Busy,
            ErrorCode::HintsOff,
            ErrorCode::TournamentFull,
            ErrorCode::TournamentStarted,
            ErrorCode::BadPosition,
        ];
        let mut seen = std::collections::BTreeSet::new();
        for code in codes {
            let key = error_key(code);
            assert!(seen.insert(key), "{key} twice");
            let zh = t!(key, locale = "zh-CN", message = "the room is full");
            assert!(!zh.contains("error."), "{code:?} has no Chinese: {zh}");
            assert!(!zh.contains("the room is full"), "{code:?}: {zh}");
            let en = t!(key, locale = "en", message = "the room is full");
            assert_eq!(en, "the room is full", "{code:?}");
        }
    }

    /// A reader's error reads in Chinese around its detail, and in
    /// English as the reader wrote it.
    #[test]
    fn a_position_error_has_a_chinese_sentence() {
        let errors = [
            SetupError::Unrecognised,
            SetupError::CheckerCount {
                side: Side::Black,
                count: 16,
            },
            SetupError::Size(30),
            SetupError::Occupied(tabula_shared::gomoku::Point::new(7, 7)),
            SetupError::Xgid {
                field: 2,
                name: "cube".into(),
                reason: "not a number".into(),
            },
        ];
        for e in errors {
            let zh = setup_error_in(&e, "zh-CN");
            assert!(!zh.contains("setup_error."), "{e:?}: {zh}");
            assert_ne!(zh, e.to_string());
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
            assert_eq!(setup_error_in(&e, "en"), e.to_string());
        }
        let zh = setup_error_in(
            &SetupError::CheckerCount {
                side: Side::Black,
                count: 16,
            },
            "zh-CN",
        );
        assert!(zh.contains("16"), "{zh}");
    }
}
