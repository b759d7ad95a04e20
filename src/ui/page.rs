//! Where the app is: the pages (home, a rules page, a game, online play,
//! the benchmark), the link of each (so Back and reload work), and the
//! [`Nav`] handle that shows a page and adds it to the browser history.
//! Kept apart from the app (`ui/mod.rs`) so the screens that navigate
//! import it without importing the app that draws them.

use leptos::prelude::*;

use super::game::{Opponent, Resume};
use super::link;
use super::store::{self, Settings};
use super::words::Problem;
use crate::client::online::link::OnlineLink;
use crate::games::GameKind;

/// A game to show: which game, the link that describes it (its rules,
/// start and moves: see [`link`]), the computer's seat, its id in the
/// saved games, and what a saved game comes back with. The link is read
/// into a record by the game's own screen, so that the page's first module
/// carries no game's rules (see [`lazy`]); a malformed one is reported from
/// there.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub kind: GameKind,
    pub query: String,
    pub opponent: Option<Opponent>,
    pub id: u32,
    pub resume: Option<Resume>,
}

/// Where the app is.
#[derive(Clone, Debug, PartialEq)]
pub enum Page {
    Home,
    Rules(GameKind),
    Play(Setup),
    Online(OnlineLink),
    Bench,
}

/// A random id for a new saved game.
pub(super) fn new_id() -> u32 {
    let mut b = [0u8; 4];
    let _ = getrandom::fill(&mut b);
    u32::from_le_bytes(b)
}

/// A new game of `kind` as the settings say (mode, level, side, Mill rules).
pub fn new_setup(kind: GameKind, settings: &Settings) -> Setup {
    let opponent = settings.vs_computer.then_some(Opponent {
        side: settings.human_side.opponent(),
        level: settings.level,
    });
    Setup {
        kind,
        query: link::fresh_query(kind, opponent, &settings.mill_rules),
        opponent,
        id: new_id(),
        resume: None,
    }
}

/// The game a link opens: `Ok(None)` when it names no game, the problem
/// when its game or opponent is malformed (the rest of it is read by the
/// game's screen). A saved game's link reopens it: same id, paused with
/// the time that was left, or finished as it ended.
fn setup_for(query: &str) -> Result<Option<Setup>, Problem> {
    let params = link::parse_query(query)?;
    let Some(slug) = link::param(&params, "game") else {
        return Ok(None);
    };
    let kind = GameKind::from_slug(slug).ok_or_else(|| Problem::UnknownGame(slug.to_string()))?;
    let opponent = link::opponent(&params)?;
    let saved = store::saved_games().into_iter().find(|g| g.query == query);
    Ok(Some(Setup {
        kind,
        query: query.to_string(),
        opponent,
        id: saved.as_ref().map_or_else(new_id, |g| g.id),
        resume: saved.map(|g| Resume {
            left_ms: g.clock_left_ms,
            outcome: g.outcome,
            online: g.online,
        }),
    }))
}

/// The page a query string asks for; an error names what is wrong in a link.
pub(super) fn page_for(query: &str) -> Result<Page, Problem> {
    let params = link::parse_query(query)?;
    if params.iter().any(|(k, _)| k == "bench") {
        return Ok(Page::Bench);
    }
    if let Some(link) = OnlineLink::from_params(&params).map_err(Problem::OnlineLink)? {
        return Ok(Page::Online(link));
    }
    if let Some((_, slug)) = params
        .iter()
        .find(|(k, _)| k == "rules" && !params.iter().any(|(k, _)| k == "game"))
    {
        return GameKind::from_slug(slug)
            .map(Page::Rules)
            .ok_or_else(|| Problem::NoRulesPage(slug.to_string()));
    }
    Ok(setup_for(query)?.map_or(Page::Home, Page::Play))
}

pub(super) fn location_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The link of a page (games keep their own link in step as they go).
fn query_of(page: &Page) -> String {
    match page {
        Page::Home => String::new(),
        Page::Rules(k) => format!("?rules={}", k.slug()),
        Page::Bench => "?bench".to_string(),
        Page::Online(link) => link.query(),
        Page::Play(s) => s.query.clone(),
    }
}

/// Shared navigation: shows `page` and adds it to the browser history.
#[derive(Clone, Copy)]
pub struct Nav(pub(super) RwSignal<Page>);

impl Nav {
    /// Goes to `page`.
    pub fn go(&self, page: Page) {
        if let Some(w) = web_sys::window() {
            let path = w.location().pathname().unwrap_or_default();
            if let Ok(h) = w.history() {
                let _ = h.push_state_with_url(
                    &wasm_bindgen::JsValue::NULL,
                    "",
                    Some(&format!("{path}{}", query_of(&page))),
                );
            }
        }
        self.0.set(page);
    }

    /// Starts a new game of `kind` as the settings say.
    pub fn new_game(&self, kind: GameKind) {
        let settings = expect_context::<RwSignal<Settings>>().get_untracked();
        self.go(Page::Play(new_setup(kind, &settings)));
    }
}

/// The page's address without its query (keeps the app's sub-path).
pub fn page_url() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Puts `query` in the address bar without a new history entry.
pub fn replace_query(query: &str) {
    let Some(w) = web_sys::window() else { return };
    if w.location().search().ok().as_deref() == Some(query) {
        return;
    }
    let path = w.location().pathname().unwrap_or_default();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}")),
        );
    }
}
