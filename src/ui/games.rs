//! What the game screen needs to know about each game beyond its rules:
//! names, how to describe moves and results, the score shown on the chips,
//! rules in links, and which board component draws it.

use leptos::prelude::*;

use super::board::{self, BoardProps};
use super::sound::Sound;
use crate::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules, NoMoveRule};
use crate::games::mill::{point_name, Mill, MillMove, MillRules, Phase, Preset, OPTION_NAMES};
use crate::games::stones::{square_name as stone_square, Stones, StonesMove, StonesRules};
pub use crate::games::GameKind;
use crate::games::{Game, Outcome, Side};
use crate::protocol::GameSpec;

/// A game the screen can show. `Move` values must be thread-safe because
/// Leptos signals are.
pub trait UiGame:
    Game<Move: Send + Sync + 'static, Rules: Send + Sync + 'static> + Send + Sync + 'static
{
    /// Which game this is.
    const KIND: GameKind;

    /// The players' names ("X", "White").
    fn side_name(side: Side) -> &'static str;
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
    fn score_label() -> &'static str;
    /// Extra detail under a side's chip (Mill: pieces in hand and lost).
    fn chip_detail(&self, _side: Side) -> Option<String> {
        None
    }
    /// What the side to move has to do, when it is not just "move".
    fn prompt(&self) -> Option<String> {
        None
    }
    /// A move the side to move must make without choosing (a forced pass).
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }
    /// One sentence for the move list, the notice line and screen readers.
    fn describe_move(before: &Self, mv: Self::Move) -> String;
    /// The final score in words, for the result line.
    fn final_score(&self) -> String {
        format!("{}–{}", self.score(Side::First), self.score(Side::Second))
    }
    /// Rules as link parameters (empty for the default rules).
    fn rules_to_query(rules: &Self::Rules) -> Vec<(String, String)>;
    /// Rules from link parameters; an error names what is wrong.
    fn rules_from_query(params: &[(String, String)]) -> Result<Self::Rules, String>;
    /// The board component.
    fn board(props: BoardProps<Self>) -> AnyView;
    /// The moves in one token of an imported move list (Mill: `a1-a4xd7`
    /// is a slide and a removal).
    fn split_token(token: &str) -> Vec<String> {
        vec![token.to_string()]
    }
    /// The sound a move makes.
    fn sound_of(before: &Self, mv: Self::Move) -> Sound;
    /// The game and rules as the AI worker names them.
    fn spec(rules: &Self::Rules) -> GameSpec;
    /// The rules for a game against the computer (Territory Duel: a player
    /// without a move loses instead of passing).
    fn vs_computer_rules(rules: &Self::Rules) -> Self::Rules {
        rules.clone()
    }
}

/// The result line: who won, why, and the final score.
pub fn describe_outcome<G: UiGame>(pos: &G, outcome: Outcome) -> String {
    let why = outcome.reason.describe();
    let score = pos.final_score();
    match outcome.winner {
        Some(side) => format!("{} wins: {why} ({score}).", G::side_name(side)),
        None => format!("Draw: {why} ({score})."),
    }
}

fn param<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

impl UiGame for Ataxx {
    const KIND: GameKind = GameKind::Ataxx;

    fn side_name(side: Side) -> &'static str {
        board::ataxx::side_name(side)
    }
    fn score(&self, side: Side) -> u32 {
        self.count(side)
    }
    fn score_label() -> &'static str {
        "pieces"
    }
    fn forced_move(&self) -> Option<AtaxxMove> {
        (self.outcome().is_none() && self.legal_moves() == [AtaxxMove::Pass])
            .then_some(AtaxxMove::Pass)
    }
    fn describe_move(before: &Ataxx, mv: AtaxxMove) -> String {
        let who = Self::side_name(before.side_to_move());
        let flipped = match before.flips(mv).count_ones() {
            0 => String::new(),
            1 => ", flips 1 piece".to_string(),
            n => format!(", flips {n} pieces"),
        };
        let name = crate::games::ataxx::square_name;
        match mv {
            AtaxxMove::Pass => format!("{who} has no legal move and passes"),
            AtaxxMove::Clone { to } => format!("{who} clones to {}{flipped}", name(to)),
            AtaxxMove::Jump { from, to } => {
                format!("{who} jumps from {} to {}{flipped}", name(from), name(to))
            }
        }
    }
    fn rules_to_query(rules: &AtaxxRules) -> Vec<(String, String)> {
        match rules.no_move {
            NoMoveRule::Pass => vec![],
            NoMoveRule::Lose => vec![("nomove".into(), "lose".into())],
        }
    }
    fn rules_from_query(params: &[(String, String)]) -> Result<AtaxxRules, String> {
        let no_move = match param(params, "nomove") {
            None | Some("pass") => NoMoveRule::Pass,
            Some("lose") => NoMoveRule::Lose,
            Some(other) => return Err(format!("unknown no-move rule '{other}' (pass or lose)")),
        };
        Ok(AtaxxRules { no_move })
    }
    fn board(props: BoardProps<Self>) -> AnyView {
        view! { <board::ataxx::AtaxxBoard props=props/> }.into_any()
    }
    fn sound_of(before: &Ataxx, mv: AtaxxMove) -> Sound {
        if before.flips(mv) != 0 {
            Sound::Capture
        } else {
            Sound::Move
        }
    }
    fn spec(rules: &AtaxxRules) -> GameSpec {
        GameSpec::Ataxx(*rules)
    }
    fn vs_computer_rules(rules: &AtaxxRules) -> AtaxxRules {
        let mut rules = *rules;
        rules.no_move = NoMoveRule::Lose;
        rules
    }
}

impl UiGame for Stones {
    const KIND: GameKind = GameKind::Stones;

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "White",
            Side::Second => "Black",
        }
    }
    fn score(&self, side: Side) -> u32 {
        Stones::score(self, side)
    }
    fn score_label() -> &'static str {
        "home"
    }
    fn describe_move(before: &Stones, mv: StonesMove) -> String {
        let who = Self::side_name(before.side_to_move());
        let (from, to) = (stone_square(mv.from), stone_square(mv.to));
        match mv.jumped {
            None => format!("{who} slides {from} to {to}"),
            Some(j) => {
                let effect = match before.stone_at(j) {
                    Some((owner, _)) if owner == before.side_to_move() => "frees",
                    _ => "pins",
                };
                format!(
                    "{who} moves {from} to {to}, jumps and {effect} the stone on {}",
                    stone_square(j)
                )
            }
        }
    }
    fn rules_to_query(_: &StonesRules) -> Vec<(String, String)> {
        vec![]
    }
    fn rules_from_query(_: &[(String, String)]) -> Result<StonesRules, String> {
        Ok(StonesRules)
    }
    fn board(props: BoardProps<Self>) -> AnyView {
        view! { <board::stones::StonesBoard props=props/> }.into_any()
    }
    fn sound_of(_: &Stones, mv: StonesMove) -> Sound {
        if mv.jumped.is_some() {
            Sound::Capture
        } else {
            Sound::Move
        }
    }
    fn spec(rules: &StonesRules) -> GameSpec {
        GameSpec::Stones(*rules)
    }
}

impl UiGame for Mill {
    const KIND: GameKind = GameKind::Mill;

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "White",
            Side::Second => "Black",
        }
    }
    fn score(&self, side: Side) -> u32 {
        u32::from(self.on_board(side))
    }
    fn score_label() -> &'static str {
        "on board"
    }
    fn chip_detail(&self, side: Side) -> Option<String> {
        Some(format!(
            "{} in hand · {} lost",
            self.in_hand(side),
            self.removed(side)
        ))
    }
    fn final_score(&self) -> String {
        let left = |s| self.on_board(s) + self.in_hand(s);
        format!("{}–{} pieces left", left(Side::First), left(Side::Second))
    }
    fn prompt(&self) -> Option<String> {
        if self.outcome().is_some() {
            return None;
        }
        let side = self.side_to_move();
        let who = Self::side_name(side);
        let them = Self::side_name(side.opponent());
        Some(if self.must_remove() > 0 {
            format!("{who} closed a mill: remove a {them} piece")
        } else if self.phase() == Phase::Placing && self.in_hand(side) > 0 {
            format!("{who}: place a piece ({} in hand)", self.in_hand(side))
        } else if self.can_fly(side) {
            format!("{who}: move a piece anywhere (flying)")
        } else {
            format!("{who}: slide a piece along a line")
        })
    }
    fn describe_move(before: &Mill, mv: MillMove) -> String {
        let who = Self::side_name(before.side_to_move());
        let mut after = *before;
        after.play_unchecked(mv);
        let mill = if after.must_remove() > 0 && after.side_to_move() == before.side_to_move() {
            " and closes a mill"
        } else {
            ""
        };
        match mv {
            MillMove::Place(p) => format!("{who} places on {}{mill}", point_name(p)),
            MillMove::Slide { from, to } => {
                let verb =
                    if before.can_fly(before.side_to_move()) && before.phase() == Phase::Moving {
                        "flies"
                    } else {
                        "moves"
                    };
                format!(
                    "{who} {verb} {} to {}{mill}",
                    point_name(from),
                    point_name(to)
                )
            }
            MillMove::Remove(p) => format!("{who} removes the piece on {}", point_name(p)),
        }
    }
    fn rules_to_query(rules: &MillRules) -> Vec<(String, String)> {
        // The closest preset by name, then every option that differs from it.
        let preset = Preset::ALL
            .into_iter()
            .min_by_key(|p| {
                let base = p.rules();
                OPTION_NAMES
                    .iter()
                    .filter(|n| base.get_option(n) != rules.get_option(n))
                    .count()
            })
            .unwrap_or(Preset::NineMensMorris);
        let base = preset.rules();
        let mut out = Vec::new();
        if preset != Preset::NineMensMorris {
            out.push(("rules".to_string(), preset.slug().to_string()));
        }
        for name in OPTION_NAMES {
            let value = rules.get_option(name);
            if value != base.get_option(name) {
                out.push((name.to_string(), value.unwrap_or_default()));
            }
        }
        out
    }
    fn rules_from_query(params: &[(String, String)]) -> Result<MillRules, String> {
        let preset = match param(params, "rules") {
            None => Preset::NineMensMorris,
            Some(slug) => Preset::from_slug(slug).ok_or_else(|| {
                let known: Vec<&str> = Preset::ALL.iter().map(|p| p.slug()).collect();
                format!("unknown Mill rules '{slug}' (one of {})", known.join(", "))
            })?,
        };
        let mut rules = preset.rules();
        for (key, value) in params {
            if OPTION_NAMES.contains(&key.as_str()) {
                rules.set_option(key, value).map_err(|e| e.to_string())?;
            }
        }
        rules.validate().map_err(|e| e.to_string())?;
        Ok(rules)
    }
    fn board(props: BoardProps<Self>) -> AnyView {
        view! { <board::mill::MillBoard props=props/> }.into_any()
    }
    fn split_token(token: &str) -> Vec<String> {
        // "a1-a4xd7" → "a1-a4", "xd7"; "d6xd7" → "d6", "xd7"; "xd7" stays.
        let mut out = Vec::new();
        for (i, part) in token.split('x').enumerate() {
            match (i, part.is_empty()) {
                (0, true) => {}
                (0, false) => out.push(part.to_string()),
                _ => out.push(format!("x{part}")),
            }
        }
        out
    }
    fn sound_of(before: &Mill, mv: MillMove) -> Sound {
        if matches!(mv, MillMove::Remove(_)) {
            return Sound::Capture;
        }
        let mut after = *before;
        after.play_unchecked(mv);
        if after.must_remove() > 0 && after.side_to_move() == before.side_to_move() {
            Sound::Mill
        } else {
            Sound::Move
        }
    }
    fn spec(rules: &MillRules) -> GameSpec {
        GameSpec::Mill(*rules)
    }
}
