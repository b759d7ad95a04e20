//! What the game screen needs to know about each game beyond its rules:
//! names, how to describe moves and results, the score shown on the chips,
//! rules in links, and which board component draws it: the [`UiGame`]
//! trait here, one file per game of the list (`ataxx.rs`, `stones.rs`,
//! `mill.rs`) with its implementation.

mod ataxx;
mod mill;
mod stones;

use leptos::prelude::*;

use super::board::BoardProps;
use super::sound::Sound;
use super::words::Problem;
use crate::client::ending::{self, side_name, Ends};
use crate::client::mark::Marks;
use crate::games::any::VariantGame;
pub use crate::games::GameKind;
use crate::games::{Game, Outcome, Side};
use crate::i18n::Lang;

/// A game the screen can show. `Move` values must be thread-safe because
/// Leptos signals are.
pub trait UiGame:
    Game<Move: Send + Sync + 'static, Rules: Send + Sync + 'static>
    + VariantGame
    + Marks
    + Ends
    + Send
    + Sync
    + 'static
{
    /// The game's name ("Territory Duel"), in `lang`.
    fn title(lang: Lang) -> &'static str;
    /// One line saying what the game is about, in `lang`.
    fn tagline(lang: Lang) -> &'static str;
    /// The players' names ("X", "White"): [`side_name`], written once for
    /// every game.
    fn side_name(lang: Lang, side: Side) -> &'static str {
        side_name(lang, Self::KIND, side)
    }
    /// CSS class suffix of a side's pieces.
    fn side_class(side: Side) -> &'static str {
        match side {
            Side::First => "first",
            Side::Second => "second",
        }
    }
    /// The number on a side's score chip.
    fn score(&self, side: Side) -> u32;
    /// What that number counts ("pieces", "home").
    fn score_label(lang: Lang) -> &'static str;
    /// Extra detail under a side's chip (Mill: pieces in hand and lost).
    fn chip_detail(&self, _lang: Lang, _side: Side) -> Option<String> {
        None
    }
    /// What the side to move has to do, when it is not just "move".
    fn prompt(&self, _lang: Lang) -> Option<String> {
        None
    }
    /// One sentence for the notice line and screen readers.
    fn describe_move(lang: Lang, before: &Self, mv: Self::Move) -> String;
    /// Rules as link parameters (empty for the default rules).
    fn rules_to_query(rules: &Self::Rules) -> Vec<(String, String)>;
    /// Rules from link parameters; an error names what is wrong.
    fn rules_from_query(params: &[(String, String)]) -> Result<Self::Rules, Problem>;
    /// The board component.
    fn board(props: BoardProps<Self>) -> AnyView;
    /// The moves in one token of an imported move list (Mill: `a1-a4xd7`
    /// is a slide and a removal).
    fn split_token(token: &str) -> Vec<String> {
        vec![token.to_string()]
    }
    /// The sound a move makes.
    fn sound_of(before: &Self, mv: Self::Move) -> Sound;
    /// Why the piece of the side to move on `spot` cannot move, for a
    /// player who pressed it ("This stone is pinned").
    fn why_stuck(&self, lang: Lang, spot: u8) -> &'static str;
}

/// The result line: what ended the game and who did it, who won and,
/// when the count decided it, the score ("O resigned — X wins.").
pub fn describe_outcome<G: UiGame>(lang: Lang, pos: &G, outcome: Outcome) -> String {
    ending::describe(lang, &pos.ending(outcome))
}

pub(super) fn param<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// A game's name, in `lang`.
pub fn game_title(lang: Lang, kind: GameKind) -> &'static str {
    crate::with_game!(kind, G => G::title(lang))
}

/// A game's one-line description, in `lang`.
pub fn game_tagline(lang: Lang, kind: GameKind) -> &'static str {
    crate::with_game!(kind, G => G::tagline(lang))
}
