//! The Share button: copies the page's link (which always holds the game)
//! to the clipboard, or shows it when the clipboard cannot be used.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// Copies `location.href` and reports the result in `notice`.
pub fn copy_location(notice: RwSignal<String>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&href);
    leptos::task::spawn_local(async move {
        match JsFuture::from(promise).await {
            Ok(_) => notice.set("Link copied: it opens this game, rules and position.".to_string()),
            Err(_) => notice.set(format!("Copy this link to share the game: {href}")),
        }
    });
}
