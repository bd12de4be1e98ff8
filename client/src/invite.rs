//! Invite links: `http://HOST:PORT/#/room/ID`, with `?code=CODE` for a
//! private room. Opening one in a browser goes straight to that room (the
//! free seat, or a spectator's place); the desktop client shows and copies
//! the link of the room it is in.

/// The room an invite link names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    /// The room.
    pub room_id: String,
    /// The private room's join code, when the link carries one.
    pub code: Option<String>,
}

impl Invite {
    /// Reads the fragment of a link (`#/room/ID` or `#/room/ID?code=CODE`,
    /// with or without the `#`); anything else names no room.
    pub fn parse(fragment: &str) -> Option<Invite> {
        // `#/room/ID`, or a whole link around it.
        let fragment = fragment.rsplit_once('#').map_or(fragment, |(_, f)| f);
        let fragment = fragment.trim().trim_start_matches('#');
        let rest = fragment.strip_prefix("/room/")?;
        let (id, query) = match rest.split_once('?') {
            Some((id, query)) => (id, Some(query)),
            None => (rest, None),
        };
        let id = id.trim_end_matches('/');
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return None;
        }
        let code = query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|pair| pair.strip_prefix("code="))
            .filter(|c| !c.is_empty() && c.chars().all(|c| c.is_ascii_alphanumeric()))
            .map(str::to_string);
        Some(Invite {
            room_id: id.to_string(),
            code,
        })
    }

    /// Splits what a player typed or pasted as the server's address: an
    /// invite link (`http://HOST:PORT/#/room/ID`) is the server, `HOST:PORT`
    /// or its origin, and the room it names; anything else is the address
    /// as it is, with no room.
    pub fn split_address(typed: &str) -> (String, Option<Invite>) {
        let typed = typed.trim();
        match typed.split_once('#') {
            Some((server, fragment)) => {
                let server = server.trim_end_matches('/');
                let server = server.strip_prefix("http://").unwrap_or(server);
                (server.to_string(), Invite::parse(fragment))
            }
            None => (typed.to_string(), None),
        }
    }

    /// The link to this room on the server at `address` (`host:port`, or a
    /// full `http(s)://` origin).
    pub fn link(&self, address: &str) -> String {
        let address = address.trim().trim_end_matches('/');
        let origin = if address.starts_with("http://") || address.starts_with("https://") {
            address.to_string()
        } else {
            let host = address
                .strip_prefix("ws://")
                .or_else(|| address.strip_prefix("wss://"))
                .unwrap_or(address);
            format!("http://{host}")
        };
        match &self.code {
            Some(code) => format!("{origin}/#/room/{}?code={code}", self.room_id),
            None => format!("{origin}/#/room/{}", self.room_id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_round_trips_through_its_fragment() {
        let public = Invite {
            room_id: "3f2a-77".into(),
            code: None,
        };
        let link = public.link("192.168.1.20:7878");
        assert_eq!(link, "http://192.168.1.20:7878/#/room/3f2a-77");
        assert_eq!(Invite::parse(link.split_once('#').unwrap().1), Some(public));
        let private = Invite {
            room_id: "abc".into(),
            code: Some("K7Q2".into()),
        };
        let link = private.link("https://games.example.org/");
        assert_eq!(link, "https://games.example.org/#/room/abc?code=K7Q2");
        assert_eq!(Invite::parse("#/room/abc?code=K7Q2"), Some(private));
    }

    #[test]
    fn other_fragments_name_no_room() {
        for bad in ["", "#", "#/lobby", "#/room/", "#/room/a b", "#/room/<x>"] {
            assert_eq!(Invite::parse(bad), None, "{bad}");
        }
        assert_eq!(
            Invite::parse("#/room/abc?code=<script>").map(|i| i.code),
            Some(None)
        );
    }

    /// An invite link pasted where the server's address goes is the server
    /// and a room: connecting goes to the room, and the address is the
    /// server's alone (so the room's own link is not doubled).
    #[test]
    fn a_pasted_link_is_a_server_and_a_room() {
        let (server, invite) =
            Invite::split_address(" http://192.168.1.20:7878/#/room/r-603792c5c2 ");
        assert_eq!(server, "192.168.1.20:7878");
        assert_eq!(invite.map(|i| i.room_id), Some("r-603792c5c2".into()));
        let (server, invite) = Invite::split_address("192.168.1.20:7878");
        assert_eq!((server.as_str(), invite), ("192.168.1.20:7878", None));
        let (server, invite) =
            Invite::split_address("https://games.example.org/#/room/abc?code=K7Q2");
        assert_eq!(server, "https://games.example.org");
        assert_eq!(invite.and_then(|i| i.code), Some("K7Q2".into()));
        // A link doubled by an older client names the last room.
        assert_eq!(
            Invite::parse("#/room/r-603792c5c2/#/room/r-4c1254d0e9").map(|i| i.room_id),
            Some("r-4c1254d0e9".into())
        );
    }
}
