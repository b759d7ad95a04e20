//! The game in the page's link: `?game=mill&rules=lasker&moves=d6.f4.xd7`.
//!
//! Reloading or sharing the link opens the same game, variant and position:
//! the link carries the game, its rules (only what differs from the
//! default), a start position when it is not the usual one (`pos=`), and
//! the moves played, separated by dots; against the computer also its level
//! and your side (`vs=master&you=second`). A malformed link is refused whole
//! with a message naming the problem, over the home screen. The app reads
//! only the game and the opponent ([`param`], [`opponent`]); the game's own
//! part reads the rest ([`load`]), so a new game is a link too
//! ([`fresh_query`]).

use super::game::Opponent;
use super::games::{GameKind, UiGame};
use super::words::{position_why, Problem};
use crate::ai::Level;
use crate::client::moves::record_from_moves;
use crate::games::any::AnyRecord;
use crate::games::mill::{Mill, MillRules};
use crate::games::{Mode, Record, Side};

/// The link of a new game of `kind`: against `opponent` if any, under
/// the default rules except Mill's, which are `mill_rules` (a game against
/// the computer then plays them adapted, as every link does). The game's
/// screen parses it like any other link, so the page's first module needs
/// no game's rules to start one.
pub fn fresh_query(kind: GameKind, opponent: Option<Opponent>, mill_rules: &MillRules) -> String {
    let mut parts = vec![format!("game={}", kind.slug())];
    push_opponent(&mut parts, opponent);
    if kind == GameKind::Mill {
        push_rules(&mut parts, Mill::rules_to_query(mill_rules));
    }
    format!("?{}", parts.join("&"))
}

fn push_opponent(parts: &mut Vec<String>, opponent: Option<Opponent>) {
    if let Some(o) = opponent {
        parts.push(format!("vs={}", o.level.slug()));
        if o.side == Side::First {
            parts.push("you=second".to_string());
        }
    }
}

fn push_rules(parts: &mut Vec<String>, rules: Vec<(String, String)>) {
    for (k, v) in rules {
        parts.push(format!("{}={}", encode(&k), encode(&v)));
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

/// The value of `key` in parsed link parameters.
pub fn param<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// The game of type `G` that parsed link parameters describe.
pub fn load<G: UiGame>(params: &[(String, String)]) -> Result<Record<G>, Problem> {
    let rules = G::rules_from_query(params)?;
    // A game against the computer always uses its preset for that mode
    // (games::Mode, Game::rules_for).
    let rules = if param(params, "vs").is_some() {
        G::rules_for(Mode::Computer, &rules)
    } else {
        rules
    };
    let start = match param(params, "pos") {
        Some(text) => G::from_text(text, &rules)
            .map_err(|e| Problem::BadPosition(text.to_string(), position_why(e)))?,
        None => G::start(&rules),
    };
    let moves = param(params, "moves").unwrap_or("");
    Ok(record_from_moves(
        start,
        moves.split('.').filter(|m| !m.is_empty()),
    )?)
}

/// The computer opponent a link names, if any.
pub fn opponent(params: &[(String, String)]) -> Result<Option<Opponent>, Problem> {
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

/// The game a query string describes: `Ok(None)` when it names no game,
/// the problem when it is malformed.
pub fn load_query(query: &str) -> Result<Option<AnyRecord>, Problem> {
    let params = parse_query(query)?;
    let Some(slug) = param(&params, "game") else {
        return Ok(None);
    };
    let kind = GameKind::from_slug(slug).ok_or_else(|| Problem::UnknownGame(slug.to_string()))?;
    Ok(Some(
        crate::with_game!(kind, G => load::<G>(&params)?.into()),
    ))
}

/// The query string that reopens `record` (two players).
pub fn query_for<G: UiGame>(record: &Record<G>) -> String {
    query_with::<G>(record, None)
}

/// The query string that reopens `record` against `opponent`.
pub fn query_with<G: UiGame>(record: &Record<G>, opponent: Option<Opponent>) -> String {
    let mut parts = vec![format!("game={}", G::KIND.slug())];
    push_opponent(&mut parts, opponent);
    push_rules(&mut parts, G::rules_to_query(record.position().rules()));
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
