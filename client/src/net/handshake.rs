//! The rules both workers follow on a new connection: what `hello` says, and
//! what each server frame before and at the welcome means for the session.

use tabula_shared::protocol::{
    ClientFrame, ClientMessage, ErrorCode, PROTOCOL_VERSION, ServerFrame, ServerMessage,
};

use super::{Target, refusal_text};

/// What the worker does with a server frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// Pass it to the UI.
    Forward,
    /// The server welcomed us (the token is kept): report `Connected`, then
    /// pass the frame to the UI.
    Welcomed,
    /// The server refused this attempt; try again after the back-off.
    Lost(String),
    /// The server refused us for good: stop and say why.
    Refused(String),
}

/// The `hello` that opens a connection, with the token we hold.
pub(crate) fn hello(target: &Target, token: Option<&str>) -> ClientFrame {
    ClientFrame {
        request_id: None,
        message: ClientMessage::Hello {
            api_token: None,
            protocol: PROTOCOL_VERSION,
            name: target.name.clone(),
            token: token.map(str::to_string),
            password: target.password.clone().filter(|p| !p.is_empty()),
            account_password: target.account_password.clone(),
        },
    }
}

/// Reads one server frame: a welcome keeps its token (and forgets the
/// account password, which the token now stands for); an error before the
/// welcome ends the attempt, for now or for good.
pub(crate) fn on_frame(
    frame: &ServerFrame,
    target: &mut Target,
    token: &mut Option<String>,
    welcomed: bool,
) -> Step {
    match &frame.message {
        ServerMessage::Welcome { token: t, .. } => {
            *token = Some(t.clone());
            target.account_password = None;
            Step::Welcomed
        }
        ServerMessage::Error { code, message, .. } if !welcomed => {
            if *code == ErrorCode::AuthFailed
                && token.is_some()
                && target.password.as_deref().unwrap_or("").is_empty()
            {
                // The server forgot our token: start afresh.
                *token = None;
                return Step::Lost(rust_i18n::t!("net.identity_expired").into_owned());
            }
            let signing_in = target.account_password.is_some();
            if matches!(code, ErrorCode::LimitReached | ErrorCode::Internal)
                || (*code == ErrorCode::RateLimited && !signing_in)
            {
                return Step::Lost(message.clone());
            }
            Step::Refused(refusal_text(*code, message, &target.name))
        }
        _ => Step::Forward,
    }
}

/// A frame as the text the socket carries.
pub(crate) fn encode(frame: &ClientFrame) -> String {
    serde_json::to_string(frame).unwrap_or_default()
}

/// An error's text, short enough for the status line.
pub(crate) fn short_error(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> Target {
        Target {
            address: "h:1".into(),
            name: "ann".into(),
            password: None,
            token: None,
            account_password: Some("secret".into()),
        }
    }

    fn frame(message: ServerMessage) -> ServerFrame {
        ServerFrame::push(message)
    }

    #[test]
    fn a_forgotten_token_starts_afresh_and_a_wrong_password_stops() {
        let mut t = target();
        let mut token = Some("old".to_string());
        t.account_password = None;
        let forgotten = frame(ServerMessage::Error {
            code: ErrorCode::AuthFailed,
            message: "unknown token".into(),
            retry_after_ms: None,
        });
        assert_eq!(
            on_frame(&forgotten, &mut t, &mut token, false),
            Step::Lost("identity expired".into())
        );
        assert_eq!(token, None);
        let wrong = frame(ServerMessage::Error {
            code: ErrorCode::SignInFailed,
            message: "no".into(),
            retry_after_ms: None,
        });
        assert!(matches!(
            on_frame(&wrong, &mut t, &mut token, false),
            Step::Refused(_)
        ));
        // After the welcome, errors are the UI's business.
        assert_eq!(on_frame(&wrong, &mut t, &mut token, true), Step::Forward);
    }
}
