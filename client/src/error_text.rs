//! What the player reads when the server refuses something: each typed
//! [`ErrorCode`] mapped to a sentence in the interface's language.
//!
//! The server writes its `message` in English and often names the detail
//! ("the point is occupied"); the English interface shows it as it is, the
//! other languages show the code's translated meaning.

use rust_i18n::t;
use tabula_shared::protocol::ErrorCode;

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
}
