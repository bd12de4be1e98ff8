//! [`Session`]: who we are on which server: the connection state, the
//! identity the server welcomed us as, and the server we host ourselves.

#[cfg(all(not(target_arch = "wasm32"), feature = "embedded"))]
use crate::embedded::{self, EmbeddedServer};
use tabula_shared::protocol::EngineInfo;

use crate::net::ConnState;
#[cfg(all(not(target_arch = "wasm32"), feature = "embedded"))]
use crate::settings::DEFAULT_ADDRESS;
use crate::settings::Settings;

/// The connection and the identity it carries.
pub(super) struct Session {
    /// The connection as the network worker reports it.
    pub(super) conn: ConnState,
    /// The server has welcomed us on the current connection.
    pub(super) welcomed: bool,
    /// The name the server knows us by.
    pub(super) my_name: String,
    /// Our player id, to find ourselves in game records.
    pub(super) my_id: String,
    /// Signed in to (or just registered) an account.
    pub(super) registered: bool,
    /// The server's external engines, offered as opponents (from `welcome`).
    pub(super) engines: Vec<EngineInfo>,
    /// A new resume token not yet written to disk (see `logic`).
    pub(super) identity_unsaved: bool,
    /// The server started inside this app by "Play on this computer".
    #[cfg(all(not(target_arch = "wasm32"), feature = "embedded"))]
    embedded: Option<EmbeddedServer>,
    /// Where friends can join the server on this computer, as text (set
    /// as such by tests); [`Session::host_note`] prefers `hosting`.
    pub(super) host_note: Option<String>,
    /// What we host, put into words in the language shown at each frame.
    hosting: Option<Hosting>,
    /// The `host:port` friends can reach when we host (the LAN address).
    pub(super) lan_address: Option<String>,
}

impl Session {
    /// Not connected.
    pub(super) fn new() -> Session {
        Session {
            conn: ConnState::Disconnected,
            welcomed: false,
            my_name: String::new(),
            my_id: String::new(),
            registered: false,
            engines: Vec::new(),
            identity_unsaved: false,
            #[cfg(all(not(target_arch = "wasm32"), feature = "embedded"))]
            embedded: None,
            host_note: None,
            hosting: None,
            lan_address: None,
        }
    }

    /// Where friends join the server on this computer, in the language
    /// shown now.
    pub(super) fn host_note(&self) -> Option<String> {
        let Some(hosting) = &self.hosting else {
            return self.host_note.clone();
        };
        Some(
            match hosting {
                Hosting::Found { friends: Some(a) } => {
                    rust_i18n::t!("host.already_friends", address = a)
                }
                Hosting::Found { friends: None } => rust_i18n::t!("host.already"),
                Hosting::Started { lan: Some(lan), .. } => {
                    rust_i18n::t!("host.hosting", address = format!("http://{lan}/"))
                }
                Hosting::Started { lan: None, local } => {
                    rust_i18n::t!("host.hosting_local", address = local)
                }
            }
            .into_owned(),
        )
    }

    /// Whether we are connected or trying to be.
    pub(super) fn online(&self) -> bool {
        self.welcomed || !matches!(self.conn, ConnState::Disconnected | ConnState::Refused(_))
    }

    /// The address to give friends: the LAN address of the server we host,
    /// else the one we connected to.
    pub(super) fn share_address(&self, settings: &Settings) -> String {
        self.lan_address
            .clone()
            .unwrap_or_else(|| settings.address.trim().to_string())
    }

    /// Points the settings' address at a server on this computer: the one
    /// already running there, or a new one started inside this app.
    ///
    /// # Errors
    /// A readable reason when no server could be started.
    #[cfg(all(not(target_arch = "wasm32"), feature = "embedded"))]
    pub(super) fn host(&mut self, settings: &mut Settings) -> Result<(), String> {
        if self.embedded.is_some() {
            return Ok(());
        }
        if embedded::server_answers(DEFAULT_ADDRESS) {
            settings.address = DEFAULT_ADDRESS.into();
            self.lan_address =
                embedded::lan_ip().map(|ip| format!("{ip}:{}", embedded::DEFAULT_PORT));
            self.hosting = Some(Hosting::Found {
                friends: embedded::lan_ip().map(|ip| format!("{ip}:{}", embedded::DEFAULT_PORT)),
            });
            return Ok(());
        }
        let server = EmbeddedServer::start(embedded::data_dir())
            .map_err(|e| rust_i18n::t!("host.failed", error = e).into_owned())?;
        settings.address = server.local_address();
        self.lan_address = server.lan_address.clone();
        self.hosting = Some(Hosting::Started {
            lan: server.lan_address.clone(),
            local: server.local_address(),
        });
        self.embedded = Some(server);
        Ok(())
    }

    /// A client built without the embedded server cannot host.
    ///
    /// # Errors
    /// Always: it connects to a server started on its own.
    #[cfg(all(not(target_arch = "wasm32"), not(feature = "embedded")))]
    pub(super) fn host(&mut self, _settings: &mut Settings) -> Result<(), String> {
        Err(rust_i18n::t!("host.not_built").into_owned())
    }

    /// A page in a browser cannot run a server.
    ///
    /// # Errors
    /// Always: the browser client joins the server that served it.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn host(&mut self, _settings: &mut Settings) -> Result<(), String> {
        Err(rust_i18n::t!("host.browser").into_owned())
    }
}

/// The server on this computer that we play on.
#[cfg_attr(
    not(all(not(target_arch = "wasm32"), feature = "embedded")),
    allow(dead_code)
)]
enum Hosting {
    /// One was already running there; `friends` is where they join it.
    Found { friends: Option<String> },
    /// We started it: its address on the network, and on this computer.
    Started { lan: Option<String>, local: String },
}
