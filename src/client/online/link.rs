//! Online links: what `?online=…`, `?watch=…` and `?key=…` ask for
//! ([`route_of`], [`OnlineLink`]: the online page a link opens), the
//! invite, spectator and room links the page hands out, and the room
//! codes as the server writes them.

use super::address::{validate_server_url, BadServer};

/// What an online link asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `?online`: the setup screen (create a game, quick match).
    Setup,
    /// `?online=ROOM&key=KEY`: a friend's invite (sit down in the free seat).
    Join { room: String, key: String },
    /// `?online=ROOM`: your own game in this room (the seat token is kept
    /// on this device); without one you watch.
    Room { room: String },
    /// `?watch=ROOM`: watch, read-only.
    Watch { room: String },
    /// `?player=NAME` or `?player=ID`: a player's page (issue 37): ratings,
    /// their history, their games, and the leaderboards.
    Player { who: String },
}

/// Why an online link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// The room code is not one the server makes (wrong length or letters).
    BadRoom(String),
    /// The join key is malformed.
    BadKey(String),
    /// `?server=` is not a `ws://` or `wss://` address.
    BadServer(String),
    /// Both `online` and `watch`, or another contradiction.
    Ambiguous,
    /// `?player=` names nobody (empty, or longer than any name or id).
    BadPlayer(String),
}

/// The longest `?player=` value read (a name is at most 20 characters
/// after normalisation, an id 16; a little room for the typed form).
pub const MAX_PLAYER_CHARS: usize = 64;

impl From<BadServer> for LinkError {
    fn from(BadServer(text): BadServer) -> Self {
        LinkError::BadServer(text)
    }
}

/// The letters of room codes, join keys and seat tokens (lowercase base32).
const CODE_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz234567";

/// A code from a link, normalised as the server does (trimmed, lowercase),
/// or `None` when it cannot be one (length 8 to 64, base32 letters).
pub fn normalize_code(code: &str) -> Option<String> {
    let code = code.trim().to_ascii_lowercase();
    let ok = (8..=64).contains(&code.len()) && code.bytes().all(|b| CODE_ALPHABET.contains(&b));
    ok.then_some(code)
}

fn param<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// The online route of a link's (decoded) parameters: `Ok(None)` when the
/// link is not about online play.
pub fn route_of(params: &[(String, String)]) -> Result<Option<Route>, LinkError> {
    let online = param(params, "online");
    let watch = param(params, "watch");
    if let Some(server) = param(params, "server") {
        validate_server_url(server)?;
    }
    if let Some(who) = param(params, "player") {
        if online.is_some() || watch.is_some() {
            return Err(LinkError::Ambiguous);
        }
        let trimmed = who.trim();
        if trimmed.is_empty() || trimmed.chars().count() > MAX_PLAYER_CHARS {
            return Err(LinkError::BadPlayer(who.into()));
        }
        return Ok(Some(Route::Player {
            who: trimmed.to_string(),
        }));
    }
    let room = |text: &str| normalize_code(text).ok_or_else(|| LinkError::BadRoom(text.into()));
    Ok(Some(match (online, watch) {
        (Some(_), Some(_)) => return Err(LinkError::Ambiguous),
        (None, None) => return Ok(None),
        (None, Some(w)) => Route::Watch { room: room(w)? },
        (Some(""), None) => Route::Setup,
        (Some(o), None) => match param(params, "key") {
            None => Route::Room { room: room(o)? },
            Some(k) => Route::Join {
                room: room(o)?,
                key: normalize_code(k).ok_or_else(|| LinkError::BadKey(k.into()))?,
            },
        },
    }))
}

/// Percent-encodes a query value (everything but unreserved characters).
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn with_server(mut query: String, server: Option<&str>) -> String {
    if let Some(s) = server {
        query.push_str("&server=");
        query.push_str(&encode_component(s));
    }
    query
}

/// The query of a friend's invite; `server` is added when the game is not
/// on the page's own server (a static host), so the friend finds it.
pub fn invite_query(room: &str, key: &str, server: Option<&str>) -> String {
    with_server(format!("?online={room}&key={key}"), server)
}

/// The query of a spectator link.
pub fn watch_query(room: &str, server: Option<&str>) -> String {
    with_server(format!("?watch={room}"), server)
}

/// The query of a player's page.
pub fn player_query(who: &str, server: Option<&str>) -> String {
    with_server(format!("?player={}", encode_component(who)), server)
}

/// The query of your own game's page (reload reopens it).
pub fn room_query(room: &str, server: Option<&str>) -> String {
    with_server(format!("?online={room}"), server)
}

/// A full link: the page's address without its query or fragment, plus
/// `query` (so the app's sub-path is kept).
pub fn link_on(page_url: &str, query: &str) -> String {
    let base = page_url.split(['?', '#']).next().unwrap_or(page_url);
    format!("{base}{query}")
}

/// An online page: what it is for, and the server named by its link.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineLink {
    pub route: Route,
    /// `?server=` (already validated).
    pub server: Option<String>,
}

impl OnlineLink {
    /// The setup screen.
    pub fn setup() -> Self {
        OnlineLink {
            route: Route::Setup,
            server: None,
        }
    }

    /// The online page a link's parameters ask for: `Ok(None)` when the
    /// link is not about online play; the problem when it is broken.
    pub fn from_params(params: &[(String, String)]) -> Result<Option<Self>, LinkError> {
        let route = route_of(params)?;
        let server = params
            .iter()
            .find(|(k, _)| k == "server")
            .map(|(_, v)| v.trim().to_string());
        Ok(route.map(|route| OnlineLink { route, server }))
    }

    /// The query string of this page.
    pub fn query(&self) -> String {
        let server = self.server.as_deref();
        match &self.route {
            Route::Setup => {
                let mut q = "?online".to_string();
                if let Some(s) = server {
                    q.push_str("&server=");
                    q.push_str(&encode_component(s));
                }
                q
            }
            Route::Join { room, key } => invite_query(room, key, server),
            Route::Room { room } => room_query(room, server),
            Route::Watch { room } => watch_query(room, server),
            Route::Player { who } => player_query(who, server),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(q: &str) -> Vec<(String, String)> {
        q.trim_start_matches('?')
            .split('&')
            .filter(|kv| !kv.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                (k.to_string(), v.to_string())
            })
            .collect()
    }

    const ROOM: &str = "abcdefghijklmnop";
    const KEY: &str = "qrstuvwxyz234567";

    #[test]
    fn links_round_trip() {
        let q = invite_query(ROOM, KEY, None);
        assert_eq!(q, "?online=abcdefghijklmnop&key=qrstuvwxyz234567");
        assert_eq!(
            route_of(&params(&q)),
            Ok(Some(Route::Join {
                room: ROOM.into(),
                key: KEY.into()
            }))
        );
        assert_eq!(
            route_of(&params(&watch_query(ROOM, None))),
            Ok(Some(Route::Watch { room: ROOM.into() }))
        );
        assert_eq!(
            route_of(&params(&room_query(ROOM, None))),
            Ok(Some(Route::Room { room: ROOM.into() }))
        );
        assert_eq!(route_of(&params("?online")), Ok(Some(Route::Setup)));
        assert_eq!(route_of(&params("?game=ataxx")), Ok(None));
        // Codes are read as the server writes them.
        assert_eq!(
            route_of(&params("?watch=ABCDEFGHIJKLMNOP")),
            Ok(Some(Route::Watch { room: ROOM.into() }))
        );
    }

    #[test]
    fn links_carry_a_server_other_than_the_page() {
        let q = invite_query(ROOM, KEY, Some("wss://play.example.org/ws"));
        assert!(
            q.ends_with("&server=wss%3A%2F%2Fplay.example.org%2Fws"),
            "{q}"
        );
        // Decoded, the link is valid.
        let mut p = params(&invite_query(ROOM, KEY, None));
        p.push(("server".into(), "wss://play.example.org/ws".into()));
        assert!(matches!(route_of(&p), Ok(Some(Route::Join { .. }))));
        p.push(("server".into(), "http://x".into()));
        // The first server wins; a bad first one is refused.
        let bad = vec![
            ("watch".to_string(), ROOM.to_string()),
            ("server".to_string(), "https://x/ws".to_string()),
        ];
        assert!(matches!(route_of(&bad), Err(LinkError::BadServer(_))));
    }

    #[test]
    fn malformed_links_are_refused() {
        assert!(matches!(
            route_of(&params("?online=abc")),
            Err(LinkError::BadRoom(_))
        ));
        assert!(matches!(
            route_of(&params("?watch=")),
            Err(LinkError::BadRoom(_))
        ));
        assert!(matches!(
            route_of(&params("?online=abcdefghijklmnop&key=no!")),
            Err(LinkError::BadKey(_))
        ));
        assert!(matches!(
            route_of(&params("?online=abcdefghijklmnop&key=")),
            Err(LinkError::BadKey(_))
        ));
        assert!(matches!(
            route_of(&params("?online=0000000000000000")),
            Err(LinkError::BadRoom(_))
        ));
        assert_eq!(
            route_of(&params(&format!("?online={ROOM}&watch={ROOM}"))),
            Err(LinkError::Ambiguous)
        );
    }

    #[test]
    fn full_links_keep_the_sub_path() {
        assert_eq!(
            link_on(
                "https://host.example/games/stoneplay/?online=x#top",
                "?watch=abc"
            ),
            "https://host.example/games/stoneplay/?watch=abc"
        );
        assert_eq!(
            link_on("http://127.0.0.1:8080/", &invite_query(ROOM, KEY, None)),
            "http://127.0.0.1:8080/?online=abcdefghijklmnop&key=qrstuvwxyz234567"
        );
    }

    /// Issue 37: `?player=` opens a player's page by name (any script,
    /// spaces) or id, and writes itself back the same way.
    #[test]
    fn player_links_name_a_player() {
        let p = vec![("player".to_string(), " Ana Lee ".to_string())];
        let link = OnlineLink::from_params(&p).unwrap().unwrap();
        assert_eq!(
            link.route,
            Route::Player {
                who: "Ana Lee".into()
            }
        );
        assert_eq!(link.query(), "?player=Ana%20Lee");
        let p = vec![("player".to_string(), "Ана".to_string())];
        assert_eq!(
            route_of(&p),
            Ok(Some(Route::Player {
                who: "Ана".into()
            }))
        );
        for bad in ["", "   ", &"x".repeat(65)] {
            let p = vec![("player".to_string(), bad.to_string())];
            assert_eq!(route_of(&p), Err(LinkError::BadPlayer(bad.into())));
        }
        assert_eq!(
            route_of(&params(&format!("?player=ana&watch={ROOM}"))),
            Err(LinkError::Ambiguous)
        );
    }
}
