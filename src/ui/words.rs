//! The page's wording: the language signal, texts kept as "how to word it"
//! so they follow a language switch, the names of the games layer's values
//! (games, levels, presets, endings) and the problems a player can meet
//! (a bad link, a bad import), each mapped to keys of the language tables.

use std::sync::Arc;

use leptos::prelude::*;

use crate::ai::Level;
use crate::client::online::link::LinkError;
use crate::games::ataxx::NoMoveRule;
use crate::games::mill::Preset;
use crate::games::{GameError, Illegal, MoveListError, PositionError, PositionKind};
use crate::i18n::{fill, lookup, text, Lang};
use crate::{key, t};

/// The page's language, from context (English where there is none, e.g. a
/// component mounted on its own in a browser test).
pub fn use_lang() -> Signal<Lang> {
    use_context::<Signal<Lang>>().unwrap_or_else(|| Signal::derive(|| Lang::En))
}

/// A text worded when shown, in whatever language is current then: a
/// notice keeps its meaning, not its English words.
#[derive(Clone)]
pub struct Text(Arc<dyn Fn(Lang) -> String + Send + Sync>);

impl Text {
    /// A text made by `word` in the language of the moment.
    pub fn new(word: impl Fn(Lang) -> String + Send + Sync + 'static) -> Self {
        Text(Arc::new(word))
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> String {
        (self.0)(lang)
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Text({:?})", self.get(Lang::En))
    }
}

/// A computer level's name.
pub fn level_name(lang: Lang, level: Level) -> &'static str {
    text(
        lang,
        match level {
            Level::Beginner => key!("level.beginner"),
            Level::Casual => key!("level.casual"),
            Level::Intermediate => key!("level.intermediate"),
            Level::Strong => key!("level.strong"),
            Level::Master => key!("level.master"),
        },
    )
}

/// A Mill preset's name.
pub fn preset_name(lang: Lang, preset: Preset) -> &'static str {
    text(
        lang,
        match preset {
            Preset::NineMensMorris => key!("preset.nine"),
            Preset::TwelveMensMorris => key!("preset.twelve"),
            Preset::Morabaraba => key!("preset.morabaraba"),
            Preset::LaskerMorris => key!("preset.lasker"),
            Preset::RussianMill => key!("preset.russian"),
            Preset::ChengSanQi => key!("preset.cheng_san_qi"),
            Preset::DaSanQi => key!("preset.da_san_qi"),
        },
    )
}

/// What went wrong with something a player brought in: a link, an
/// imported text, a saved game. The technical detail (the token that
/// failed) is kept as typed; the words come from the language tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A part of the link is not valid percent-encoding.
    Encoding(String),
    UnknownGame(String),
    NoRulesPage(String),
    UnknownLevel(String),
    UnknownSide(String),
    /// Territory Duel's `nomove=` value.
    UnknownNoMoveRule(String),
    /// A `nomove=` rule the link's mode does not play: `Lose` without
    /// `vs=` (two players pass), `Pass` with it (the computer's games use
    /// the lose rule).
    NoMoveRuleNotForMode(NoMoveRule),
    /// A Mill preset name that does not exist.
    UnknownMillRules(String),
    /// A Mill option whose value is unreadable or not allowed.
    MillOption {
        option: String,
        value: String,
    },
    /// Mill options that do not make a playable game together.
    MillRules,
    /// A start position that could not be read, and why (when the
    /// position text itself was at fault).
    BadPosition(String, Option<PositionError>),
    /// Move `number` (from 1), written `text`, could not be played.
    Move {
        number: usize,
        text: String,
        error: GameError,
    },
    /// An import header line that could not be read.
    Header(String),
    /// An import of another game than the one on screen.
    WrongGame(String),
    /// A saved game whose link names no game.
    SavedNoGame,
    /// A broken online link (`?online=`, `?watch=`, `&key=`, `&server=`).
    OnlineLink(LinkError),
}

impl From<MoveListError> for Problem {
    fn from(e: MoveListError) -> Self {
        Problem::Move {
            number: e.number,
            text: e.text,
            error: e.error,
        }
    }
}

impl Problem {
    /// The problem in words, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            Problem::Encoding(s) => t!(lang, "problem.encoding", text = s),
            Problem::UnknownGame(s) => t!(lang, "problem.unknown_game", name = s),
            Problem::NoRulesPage(s) => t!(lang, "problem.no_rules_page", name = s),
            Problem::UnknownLevel(s) => t!(lang, "problem.unknown_level", name = s),
            Problem::UnknownSide(s) => t!(lang, "problem.unknown_side", name = s),
            Problem::UnknownNoMoveRule(s) => t!(lang, "problem.unknown_no_move", name = s),
            Problem::NoMoveRuleNotForMode(NoMoveRule::Lose) => {
                t!(lang, "problem.no_move_lose_two_players").to_string()
            }
            Problem::NoMoveRuleNotForMode(NoMoveRule::Pass) => {
                t!(lang, "problem.no_move_pass_vs_computer").to_string()
            }
            Problem::UnknownMillRules(s) => {
                let known: Vec<&str> = Preset::ALL.iter().map(|p| p.slug()).collect();
                t!(
                    lang,
                    "problem.unknown_mill_rules",
                    name = s,
                    known = known.join(", ")
                )
            }
            Problem::MillOption { option, value } => {
                t!(lang, "problem.mill_option", option = option, value = value)
            }
            Problem::MillRules => t!(lang, "problem.mill_rules").to_string(),
            Problem::BadPosition(s, None) => t!(lang, "problem.bad_position", text = s),
            Problem::BadPosition(s, Some(why)) => t!(
                lang,
                "problem.bad_position_why",
                text = s,
                why = position_error(lang, why)
            ),
            Problem::Move {
                number,
                text: mv,
                error,
            } => match error {
                GameError::IllegalMove(why) => t!(
                    lang,
                    "problem.move_illegal_why",
                    n = number,
                    move = mv,
                    why = illegal(lang, why)
                ),
                GameError::GameOver => {
                    t!(lang, "problem.move_after_end", n = number, move = mv)
                }
                _ => t!(lang, "problem.move_unreadable", n = number, move = mv),
            },
            Problem::Header(line) => t!(lang, "problem.header", line = line),
            Problem::WrongGame(game) => t!(lang, "problem.wrong_game", game = game),
            Problem::SavedNoGame => t!(lang, "problem.saved_no_game").to_string(),
            Problem::OnlineLink(e) => link_error(lang, e),
        }
    }
}

/// A broken online link in words (shown inside `link.error`).
fn link_error(lang: Lang, e: &LinkError) -> String {
    match e {
        LinkError::BadRoom(r) => t!(lang, "online.link.bad_room", room = r),
        LinkError::BadKey(k) => t!(lang, "online.link.bad_key", key = k),
        LinkError::BadServer(s) => t!(lang, "online.link.bad_server", server = s),
        LinkError::Ambiguous => t!(lang, "online.link.ambiguous").to_string(),
        LinkError::BadPlayer(s) => t!(lang, "online.link.bad_player", who = s),
    }
}

/// Why a move is illegal, in `lang`, with its squares filled in: the
/// text of its key `illegal.GAME.NAME` (tests/i18n.rs checks every
/// reason of every game has one in all five tables), English as a last
/// resort.
pub fn illegal(lang: Lang, why: &Illegal) -> String {
    let places = why.places();
    let args: Vec<(&str, &dyn std::fmt::Display)> = places
        .iter()
        .map(|(name, place)| (*name, place as &dyn std::fmt::Display))
        .collect();
    match lookup(lang, &why.key()) {
        Some(template) => fill(template, &args),
        None => why.to_string(),
    }
}

/// What is wrong with a position text, in `lang`: its kind's words, with
/// the character, square or value found filled in.
pub fn position_error(lang: Lang, why: &PositionError) -> String {
    let template = lookup(lang, why.kind.key()).unwrap_or("{detail}");
    let detail = why.detail.as_str();
    match &why.kind {
        PositionKind::Fields { found } => fill(template, &[("found", found), ("detail", &detail)]),
        PositionKind::Char { found } => fill(template, &[("found", found), ("detail", &detail)]),
        PositionKind::Square { found }
        | PositionKind::Side { found }
        | PositionKind::Number { found }
        | PositionKind::Value { found } => fill(template, &[("found", found), ("detail", &detail)]),
        PositionKind::Twice { at } => fill(template, &[("at", at), ("detail", &detail)]),
        _ => fill(template, &[("detail", &detail)]),
    }
}

/// The position error inside `e`, if the position text was at fault.
pub fn position_why(e: GameError) -> Option<PositionError> {
    match e {
        GameError::BadPosition(why) => Some(why),
        _ => None,
    }
}
