//! The settings panel, and what settings do to the page: they are saved on
//! every change, the theme and motion preference go on the root element
//! (`data-theme`, `data-motion`) where the stylesheet reads them, and the
//! language on `<html lang dir>`.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::address::server_for;
use super::screen::controls::clock_options;
use super::store::{self, Settings, Theme};
use super::words::{use_lang, Text};
use crate::client::online::address::validate_server_url;
use crate::i18n::{self, Lang};
use crate::t;

/// The language the browser prefers, among the page's (`navigator.languages`).
pub fn browser_lang() -> Lang {
    let tags: Vec<String> = web_sys::window()
        .map(|w| {
            let list = w.navigator().languages();
            let mut tags: Vec<String> = list.iter().filter_map(|v| v.as_string()).collect();
            if tags.is_empty() {
                tags.extend(w.navigator().language());
            }
            tags
        })
        .unwrap_or_default();
    Lang::from_browser(tags.iter().map(String::as_str))
}

/// The language the settings ask for: the one chosen, or else the
/// browser's.
pub fn wanted_language(settings: &Settings) -> Lang {
    settings.lang.unwrap_or_else(browser_lang)
}

/// A language whose table could not be fetched at the last try, shown in
/// the settings panel (context, set by [`language`]).
#[derive(Clone, Copy)]
pub struct LangUnavailable(pub RwSignal<Option<Lang>>);

/// The page's language: the one chosen in the settings, or else the
/// browser's, once its table is at hand. A language that is not built in
/// is fetched first ([`fetch_table`]); until it arrives the page stays in
/// the language it shows, so it never flashes English in between, and if
/// it cannot be fetched (offline before the service worker cached it) the
/// settings say so and the page stays as it was.
pub fn language(settings: RwSignal<Settings>) -> Signal<Lang> {
    let browser = browser_lang();
    let arrived = Trigger::new();
    let unavailable = RwSignal::new(None::<Lang>);
    provide_context(LangUnavailable(unavailable));
    Memo::new(move |shown: Option<&Lang>| {
        arrived.track();
        let wanted = settings.with(|s| s.lang).unwrap_or(browser);
        if i18n::has_table(wanted) {
            unavailable.set(None);
            return wanted;
        }
        wasm_bindgen_futures::spawn_local(async move {
            match fetch_table(wanted).await {
                Ok(()) => arrived.notify(),
                Err(e) => {
                    web_sys::console::warn_1(&e.clone().into());
                    unavailable.set(Some(wanted));
                }
            }
        });
        shown.copied().unwrap_or(Lang::En)
    })
    .into()
}

/// Fetches `lang`'s table (`lang/CODE.txt`, next to the page) and installs
/// it; nothing to do for a built-in language. The error says what failed.
pub async fn fetch_table(lang: Lang) -> Result<(), String> {
    use wasm_bindgen_futures::JsFuture;
    let Some(url) = lang.url() else {
        return Ok(());
    };
    let failed = |e: JsValue| {
        format!(
            "{url}: {}",
            e.as_string().unwrap_or_else(|| format!("{e:?}"))
        )
    };
    let window = web_sys::window().ok_or_else(|| format!("{url}: no window"))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(failed)?
        .dyn_into()
        .map_err(failed)?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(failed)?)
        .await
        .map_err(failed)?
        .as_string()
        .ok_or_else(|| format!("{url}: not text"))?;
    i18n::install(lang, text).map_err(|e| e.to_string())
}

/// Keeps `<html lang dir>` and the page description in the page's language.
pub fn apply_language(lang: Signal<Lang>) {
    Effect::new(move |_| {
        let lang = lang.get();
        set_root_attr("lang", lang.code());
        set_root_attr("dir", lang.dir());
        let meta = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("meta[name=description]").ok().flatten());
        if let Some(meta) = meta {
            let _ = meta.set_attribute("content", t!(lang, "page.description"));
        }
    });
}

/// Whether the system asks for a dark theme.
fn system_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

fn set_root_attr(name: &str, value: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(name, value);
    }
}

fn apply_theme(theme: Theme) {
    let dark = match theme {
        Theme::System => system_dark(),
        Theme::Light => false,
        Theme::Dark => true,
    };
    set_root_attr("data-theme", if dark { "dark" } else { "light" });
}

/// Saves the settings on change and applies theme and motion to the page,
/// following the system theme while the setting is "system".
pub fn apply_effects(settings: RwSignal<Settings>) {
    Effect::new(move |_| {
        let s = settings.get();
        store::save_settings(&s);
        apply_theme(s.theme);
        set_root_attr("data-motion", if s.animations { "on" } else { "off" });
    });
    if let Some(mq) =
        web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
    {
        let follow = Closure::<dyn FnMut()>::new(move || {
            apply_theme(settings.get_untracked().theme);
        });
        let _ = mq.add_event_listener_with_callback("change", follow.as_ref().unchecked_ref());
        // The listener lives as long as the page.
        follow.forget();
    }
}

/// The settings panel.
#[component]
pub fn SettingsPanel(on_close: Callback<()>) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let lang = use_lang();
    let toggle = move |label: fn(Lang) -> &'static str,
                       id: &'static str,
                       get: fn(&Settings) -> bool,
                       set: fn(&mut Settings, bool)| {
        view! {
            <label class="opt" for=id>
                <span>{move || label(lang.get())}</span>
                <input type="checkbox" id=id data-testid=id
                    prop:checked=move || settings.with(get)
                    on:change=move |ev| settings.update(|s| set(s, event_target_checked(&ev)))/>
            </label>
        }
    };
    view! {
        <div class="settings-panel" role="dialog" aria-label=move || t!(lang.get(), "nav.settings") data-testid="settings-panel"
             on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Escape" { on_close.run(()) }>
            <h2>{move || t!(lang.get(), "nav.settings")}</h2>
            // Every language in its own name, all in view: whoever cannot
            // read the current one still finds theirs.
            <fieldset class="langs" data-testid="set-lang">
                <legend>{move || t!(lang.get(), "settings.language")}</legend>
                {Lang::ALL.iter().map(|&l| view! {
                    <label class="lang-choice" lang=l.code()>
                        <input type="radio" name="lang" value=l.code() data-testid=format!("set-lang-{}", l.code())
                            prop:checked=move || lang.get() == l
                            on:change=move |_| settings.update(|s| s.lang = Some(l))/>
                        <span>{l.name()}</span>
                    </label>
                }).collect_view()}
                {move || use_context::<LangUnavailable>().and_then(|u| u.0.get()).map(|missing| view! {
                    <p class="muted error" role="status" data-testid="lang-unavailable">
                        {move || t!(lang.get(), "settings.lang_unavailable", lang = missing.name())}
                    </p>
                })}
            </fieldset>
            <label class="opt" for="set-clock">
                <span>{move || t!(lang.get(), "settings.clock")}</span>
                <select id="set-clock" data-testid="set-clock"
                    on:change=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<u32>() {
                            settings.update(|s| s.clock_secs = v)
                        }
                    }>
                    {clock_options(lang, move || settings.with(|s| s.clock_secs))}
                </select>
            </label>
            <label class="opt" for="set-theme">
                <span>{move || t!(lang.get(), "settings.theme")}</span>
                <select id="set-theme" data-testid="set-theme"
                    on:change=move |ev| {
                        let t = match event_target_value(&ev).as_str() {
                            "light" => Theme::Light,
                            "dark" => Theme::Dark,
                            _ => Theme::System,
                        };
                        settings.update(|s| s.theme = t);
                    }>
                    <option value="system" selected=move || settings.with(|s| s.theme == Theme::System)>{move || t!(lang.get(), "settings.theme_system")}</option>
                    <option value="light" selected=move || settings.with(|s| s.theme == Theme::Light)>{move || t!(lang.get(), "settings.theme_light")}</option>
                    <option value="dark" selected=move || settings.with(|s| s.theme == Theme::Dark)>{move || t!(lang.get(), "settings.theme_dark")}</option>
                </select>
            </label>
            {toggle(|l| t!(l, "settings.sounds"), "set-sounds", |s| s.sounds, |s, v| s.sounds = v)}
            {toggle(|l| t!(l, "settings.animations"), "set-animations", |s| s.animations, |s, v| s.animations = v)}
            {toggle(|l| t!(l, "settings.hints"), "set-hints", |s| s.hints, |s, v| s.hints = v)}
            {toggle(|l| t!(l, "settings.flip"), "set-flip", |s| s.flip_board, |s, v| s.flip_board = v)}
            <OnlineServerSetting/>
            <p class="muted">{move || t!(lang.get(), "settings.note")}</p>
            // A footer that stays in view while the panel scrolls: Done is
            // reachable on a 360×740 phone without scrolling (issue 36).
            <div class="settings-footer">
                <button class="primary" data-testid="close-settings" on:click=move |_| on_close.run(())>{move || t!(lang.get(), "settings.done")}</button>
            </div>
        </div>
    }
}

/// The online server's address: empty for the default, else a checked
/// `ws://` or `wss://` URL (a bad one is refused and shown as such).
#[component]
fn OnlineServerSetting() -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let lang = use_lang();
    // Whether the last entry was saved, and how to word it.
    let message = RwSignal::new(None::<(bool, Text)>);
    let default = server_for(None, "");
    let save = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        if text.trim().is_empty() {
            settings.update(|s| s.online_server.clear());
            message.set(None);
            return;
        }
        match validate_server_url(&text) {
            Ok(url) => {
                settings.update(|s| s.online_server = url);
                message.set(Some((
                    true,
                    Text::new(|lang| t!(lang, "online.settings.server_saved").to_string()),
                )));
            }
            Err(_) => message.set(Some((
                false,
                Text::new(move |lang| t!(lang, "online.settings.server_bad", text = text)),
            ))),
        }
    };
    view! {
        <label class="opt column" for="set-server">
            <span>{move || t!(lang.get(), "online.settings.server")}</span>
            <input type="url" id="set-server" data-testid="set-server" inputmode="url" spellcheck="false"
                placeholder=move || t!(lang.get(), "online.settings.server_default", url = default)
                prop:value=move || settings.with(|s| s.online_server.clone())
                on:change=save/>
        </label>
        <p class="muted" class:error=move || message.with(|m| m.as_ref().is_some_and(|(ok, _)| !ok))
            role="status" data-testid="server-message">
            {move || {
                let lang = lang.get();
                message.with(|m| m.as_ref().map_or_else(|| t!(lang, "online.settings.server_help").to_string(), |(_, m)| m.get(lang)))
            }}
        </p>
    }
}
