//! The online server's address: the default next to the page, a typed
//! address checked, and which one a tab uses (link, setting, deployer's
//! `<meta>`, page).

/// The default server: the same host as the page, `ws` next to the app
/// (`https://host/app/` → `wss://host/app/ws`; at the root that is the
/// server's `/ws`), so a reverse proxy under a sub-path works too.
pub fn default_server_url(protocol: &str, host: &str, pathname: &str) -> String {
    let scheme = if protocol == "https:" { "wss" } else { "ws" };
    let dir = match pathname.rfind('/') {
        Some(i) => &pathname[..=i],
        None => "/",
    };
    format!("{scheme}://{host}{dir}ws")
}

/// A server address that is not `ws://` or `wss://` with a host: the text
/// as given (in a link's `?server=` it is `link::LinkError::BadServer`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadServer(pub String);

/// A server address as typed: trimmed, and only `ws://` or `wss://` with a
/// host and no spaces.
pub fn validate_server_url(text: &str) -> Result<String, BadServer> {
    let t = text.trim();
    let rest = t
        .strip_prefix("wss://")
        .or_else(|| t.strip_prefix("ws://"))
        .ok_or_else(|| BadServer(text.into()))?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_ok = !host.is_empty()
        && !host.starts_with(':')
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._:[]".contains(&b));
    if !host_ok || t.contains(char::is_whitespace) || t.contains('#') {
        return Err(BadServer(text.into()));
    }
    Ok(t.to_string())
}

/// Which server to use: the link's `?server=` (the game lives there), else
/// the player's setting, else the deployer's `<meta name=stoneplay-server>`,
/// else the page's own host. Empty or invalid values are skipped.
pub fn choose_server(link: Option<&str>, setting: &str, meta: &str, default: &str) -> String {
    [link.unwrap_or(""), setting, meta]
        .into_iter()
        .find_map(|s| validate_server_url(s).ok())
        .unwrap_or_else(|| default.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_address() {
        assert_eq!(
            default_server_url("http:", "127.0.0.1:8080", "/"),
            "ws://127.0.0.1:8080/ws"
        );
        assert_eq!(
            default_server_url("https:", "example.org", "/games/stoneplay/index.html"),
            "wss://example.org/games/stoneplay/ws"
        );
        assert_eq!(
            validate_server_url(" wss://a.b/ws "),
            Ok("wss://a.b/ws".into())
        );
        assert_eq!(
            validate_server_url("ws://[::1]:9000/ws"),
            Ok("ws://[::1]:9000/ws".into())
        );
        for bad in [
            "",
            "http://a/ws",
            "wss://",
            "wss:///ws",
            "ws://a b/ws",
            "wss://a/ws#x",
            "ftp://x",
        ] {
            assert!(validate_server_url(bad).is_err(), "{bad}");
        }
        let d = "ws://h/ws";
        assert_eq!(choose_server(None, "", "", d), d);
        assert_eq!(choose_server(None, "", "wss://meta/ws", d), "wss://meta/ws");
        assert_eq!(
            choose_server(None, "wss://mine/ws", "wss://meta/ws", d),
            "wss://mine/ws"
        );
        assert_eq!(
            choose_server(Some("wss://link/ws"), "wss://mine/ws", "", d),
            "wss://link/ws"
        );
        assert_eq!(choose_server(Some("nonsense"), "also bad", "", d), d);
    }
}
