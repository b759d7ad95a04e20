//! The Share button: copies the page's link (which always holds the game)
//! to the clipboard, or shows it when the clipboard cannot be used.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::words::Text;
use crate::t;

/// Copies `location.href` and reports the result in `notice`.
pub fn copy_location(notice: RwSignal<Option<Text>>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(href) = window.location().href() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&href);
    leptos::task::spawn_local(async move {
        match JsFuture::from(promise).await {
            Ok(_) => notice.set(Some(Text::new(|l| t!(l, "notice.link_copied").to_string()))),
            Err(_) => notice.set(Some(Text::new(move |l| {
                t!(l, "notice.copy_link", link = href)
            }))),
        }
    });
}
