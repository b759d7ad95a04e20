//! The game in the page's link: `?game=mill&rules=lasker&moves=d6.f4.xd7`.
//!
//! Reloading or sharing the link opens the same game, variant and position:
//! the link carries the game, its rules (only what differs from the
//! default), a start position when it is not the usual one (`pos=`), and
//! the moves played, separated by dots; against the computer also its level
//! and your side (`vs=master&you=second`). A malformed link is refused whole
//! with a message naming the problem; the app then starts a new game.

use super::game::Opponent;
use super::games::{GameKind, UiGame};
use super::words::Problem;
use crate::ai::Level;
use crate::games::any::AnyRecord;
use crate::games::ataxx::Ataxx;
use crate::games::mill::Mill;
use crate::games::stones::Stones;
use crate::games::{Record, Side};

/// A new game of `kind` under its default rules (adapted for a game
/// against the computer when `vs_computer`).
pub fn new_game(kind: GameKind, vs_computer: bool) -> AnyRecord {
    fn fresh<G: UiGame>(vs_computer: bool) -> AnyRecord {
        let rules = G::Rules::default();
        let rules = if vs_computer {
            G::vs_computer_rules(&rules)
        } else {
            rules
        };
        Record::new(G::start(&rules)).into()
    }
    match kind {
        GameKind::Ataxx => fresh::<Ataxx>(vs_computer),
        GameKind::Stones => fresh::<Stones>(vs_computer),
        GameKind::Mill => fresh::<Mill>(vs_computer),
    }
}

fn decode(s: &str) -> Result<String, Problem> {
    js_sys::decode_uri_component(&s.replace('+', " "))
        .map(String::from)
        .map_err(|_| Problem::Encoding(s.to_string()))
}

fn encode(s: &str) -> String {
    String::from(js_sys::encode_uri_component(s))
}

/// Splits a query string (with or without the leading `?`) into pairs.
pub fn parse_query(query: &str) -> Result<Vec<(String, String)>, Problem> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            Ok((decode(k)?, decode(v)?))
        })
        .collect()
}

fn param<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn load<G: UiGame>(params: &[(String, String)]) -> Result<Record<G>, Problem> {
    let rules = G::rules_from_query(params)?;
    // A game against the computer always uses the single-player rules.
    let rules = if param(params, "vs").is_some() {
        G::vs_computer_rules(&rules)
    } else {
        rules
    };
    let start = match param(params, "pos") {
        Some(text) => {
            G::from_text(text, &rules).map_err(|_| Problem::BadPosition(text.to_string()))?
        }
        None => G::start(&rules),
    };
    let moves = param(params, "moves").unwrap_or("");
    Ok(Record::from_moves(
        start,
        moves.split('.').filter(|m| !m.is_empty()),
    )?)
}

/// The computer opponent a link names, if any.
fn opponent(params: &[(String, String)]) -> Result<Option<Opponent>, Problem> {
    let Some(level) = param(params, "vs") else {
        return Ok(None);
    };
    let level: Level = level
        .parse()
        .map_err(|_| Problem::UnknownLevel(level.to_string()))?;
    let human = match param(params, "you") {
        None | Some("first") => Side::First,
        Some("second") => Side::Second,
        Some(other) => return Err(Problem::UnknownSide(other.to_string())),
    };
    Ok(Some(Opponent {
        side: human.opponent(),
        level,
    }))
}

/// The game and opponent a query string describes: `Ok(None)` when it
/// names no game, the problem when it is malformed.
pub fn load_setup(query: &str) -> Result<Option<(AnyRecord, Option<Opponent>)>, Problem> {
    let params = parse_query(query)?;
    let Some(loaded) = load_query(query)? else {
        return Ok(None);
    };
    Ok(Some((loaded, opponent(&params)?)))
}

/// The game a query string describes: `Ok(None)` when it names no game,
/// the problem when it is malformed.
pub fn load_query(query: &str) -> Result<Option<AnyRecord>, Problem> {
    let params = parse_query(query)?;
    let Some(slug) = param(&params, "game") else {
        return Ok(None);
    };
    let kind = GameKind::from_slug(slug).ok_or_else(|| Problem::UnknownGame(slug.to_string()))?;
    Ok(Some(match kind {
        GameKind::Ataxx => load::<Ataxx>(&params)?.into(),
        GameKind::Stones => load::<Stones>(&params)?.into(),
        GameKind::Mill => load::<Mill>(&params)?.into(),
    }))
}

/// The query string that reopens `record` (two players).
pub fn query_for<G: UiGame>(record: &Record<G>) -> String {
    query_with::<G>(record, None)
}

/// The query string that reopens `record` against `opponent`.
pub fn query_with<G: UiGame>(record: &Record<G>, opponent: Option<Opponent>) -> String {
    let mut parts = vec![format!("game={}", G::KIND.slug())];
    if let Some(o) = opponent {
        parts.push(format!("vs={}", o.level.slug()));
        if o.side == Side::First {
            parts.push("you=second".to_string());
        }
    }
    for (k, v) in G::rules_to_query(record.position().rules()) {
        parts.push(format!("{}={}", encode(&k), encode(&v)));
    }
    let start = record.start();
    if *start != G::start(start.rules()) {
        parts.push(format!("pos={}", encode(&start.to_text())));
    }
    if !record.moves().is_empty() {
        let moves: Vec<String> = record.moves().iter().map(|m| m.to_string()).collect();
        parts.push(format!("moves={}", encode(&moves.join("."))));
    }
    format!("?{}", parts.join("&"))
}

/// Puts `record` in the address bar without adding a history entry.
pub fn reflect<G: UiGame>(record: &Record<G>, opponent: Option<Opponent>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = query_with(record, opponent);
    if window.location().search().ok().as_deref() == Some(query.as_str()) {
        return;
    }
    if let Ok(history) = window.history() {
        let path = window.location().pathname().unwrap_or_default();
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("{path}{query}")),
        );
    }
}
