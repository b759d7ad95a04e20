//! The online server's address as this page finds it: its own host (`ws`
//! next to the app), the deployer's `<meta name="stoneplay-server">`, and
//! the choice among a link's server, the player's setting and those two
//! (the rules of the choice are `client::online::address`, tested
//! natively), and whether a link must name it. Used by the online screens
//! and the settings panel.

use crate::client::online::address::{choose_server, default_server_url};

/// The page's own server: same host, `ws` next to the app.
pub fn page_server() -> String {
    let loc = web_sys::window().map(|w| w.location());
    let get = |f: fn(&web_sys::Location) -> Result<String, wasm_bindgen::JsValue>| {
        loc.as_ref().and_then(|l| f(l).ok()).unwrap_or_default()
    };
    default_server_url(
        &get(web_sys::Location::protocol),
        &get(web_sys::Location::host),
        &get(web_sys::Location::pathname),
    )
}

/// The deployer's server, from `<meta name="stoneplay-server" content="…">`.
pub fn meta_server() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("meta[name=stoneplay-server]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .unwrap_or_default()
}

/// The server to use: the link's, the setting, the meta tag, or the page's host.
pub fn server_for(link: Option<&str>, setting: &str) -> String {
    choose_server(link, setting, &meta_server(), &page_server())
}

/// `server` for links: `None` when it is the page's own (links stay short).
pub fn server_param(server: &str) -> Option<String> {
    (server != page_server()).then(|| server.to_string())
}
