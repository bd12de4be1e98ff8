//! [`log_filter`]: which log lines the server writes. Whatever `RUST_LOG`
//! asks for, the WebSocket library's own lines stay at `info` and above: at
//! `debug` and `trace` it logs every frame received, passwords included.

use tracing_subscriber::EnvFilter;

/// The WebSocket crates whose frame logging is never let through.
const FRAME_LOGGERS: [&str; 2] = ["tungstenite", "tokio_tungstenite"];

/// The filter from `RUST_LOG` (or `default` without it), with the
/// WebSocket library's frame logging held at `info`, so that no secret a
/// client sends (`--password`, an account's password) reaches a log.
#[must_use]
pub fn log_filter(default: &str) -> EnvFilter {
    filter_for(std::env::var("RUST_LOG").ok().as_deref(), default)
}

/// The filter `asked` for (as `RUST_LOG` says it; `default` when unset or
/// unreadable), with the frame logging held at `info`.
fn filter_for(asked: Option<&str>, default: &str) -> EnvFilter {
    let mut filter = asked
        .and_then(|spec| EnvFilter::try_new(spec).ok())
        .unwrap_or_else(|| EnvFilter::new(default));
    for target in FRAME_LOGGERS {
        if let Ok(directive) = format!("{target}=info").parse() {
            filter = filter.add_directive(directive);
        }
    }
    filter
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use tracing_subscriber::EnvFilter;
    use tracing_subscriber::fmt::MakeWriter;

    /// A log that the test can read back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;
        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }

    fn logged_with(filter: EnvFilter) -> String {
        let log = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(log.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            tracing::trace!(target: "tungstenite::protocol", "received frame hunter2");
            tracing::debug!(target: "tokio_tungstenite", "frame hunter2");
            tracing::trace!(target: "tabula_server::room", "a room line");
        });
        String::from_utf8(log.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn frames_are_not_logged_even_at_trace() {
        // As `RUST_LOG=trace` would, and as an explicit ask for the crate.
        for asked in ["trace", "tungstenite=trace,trace", "debug"] {
            let logged = logged_with(super::filter_for(Some(asked), "info"));
            assert!(!logged.contains("hunter2"), "{asked}: {logged}");
            if asked != "debug" {
                assert!(logged.contains("a room line"), "{asked}: {logged}");
            }
        }
        // Without the hold, the frame would have been logged.
        assert!(logged_with(EnvFilter::new("trace")).contains("hunter2"));
    }
}
