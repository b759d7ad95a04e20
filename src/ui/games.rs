//! What the game screen needs to know about each game beyond its rules:
//! names, how to describe moves and results, the score shown on the chips,
//! rules in links, and which board component draws it.

use leptos::prelude::*;

use super::board::{self, BoardProps};
use super::sound::Sound;
use super::words::Problem;
use crate::client::ending::{self, side_name, Ends};
use crate::client::mark::Marks;
use crate::games::any::VariantGame;
use crate::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules, NoMoveRule};
use crate::games::mill::{point_name, Mill, MillMove, MillRules, Phase, Preset, OPTION_NAMES};
use crate::games::stones::{square_name as stone_square, Stones, StonesMove, StonesRules};
pub use crate::games::GameKind;
use crate::games::{Game, Outcome, Side};
use crate::i18n::Lang;
use crate::{t, tn};

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

fn param<'a>(params: &'a [(String, String)], key: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

impl UiGame for Ataxx {
    fn why_stuck(&self, lang: Lang, _spot: u8) -> &'static str {
        t!(lang, "stuck.ataxx")
    }

    fn score(&self, side: Side) -> u32 {
        self.count(side)
    }
    fn score_label(lang: Lang) -> &'static str {
        t!(lang, "ataxx.score_label")
    }
    fn describe_move(lang: Lang, before: &Ataxx, mv: AtaxxMove) -> String {
        let who = Self::side_name(lang, before.side_to_move());
        let flipped = before.flips(mv).count_ones();
        let name = crate::games::ataxx::square_name;
        match mv {
            AtaxxMove::Pass => t!(lang, "ataxx.move.pass", side = who),
            AtaxxMove::Clone { to } if flipped == 0 => {
                t!(lang, "ataxx.move.clone", side = who, to = name(to))
            }
            AtaxxMove::Clone { to } => {
                tn!(
                    lang,
                    "ataxx.move.clone_flips",
                    flipped,
                    side = who,
                    to = name(to)
                )
            }
            AtaxxMove::Jump { from, to } if flipped == 0 => t!(
                lang,
                "ataxx.move.jump",
                side = who,
                from = name(from),
                to = name(to)
            ),
            AtaxxMove::Jump { from, to } => tn!(
                lang,
                "ataxx.move.jump_flips",
                flipped,
                side = who,
                from = name(from),
                to = name(to)
            ),
        }
    }
    fn rules_to_query(rules: &AtaxxRules) -> Vec<(String, String)> {
        match rules.no_move {
            NoMoveRule::Pass => vec![],
            NoMoveRule::Lose => vec![("nomove".into(), "lose".into())],
        }
    }
    /// The mode decides the no-move rule (the rules file: *lose* against
    /// the computer, *pass* with two players; "a link cannot choose
    /// another"), so `nomove=` may only restate it: `nomove=lose` without
    /// `vs=`, or `nomove=pass` with it, is refused with a message saying
    /// why and what to change, as any malformed link is. Refused rather
    /// than ignored so that a link never opens a game under other rules
    /// than the ones it names.
    fn rules_from_query(params: &[(String, String)]) -> Result<AtaxxRules, Problem> {
        let vs_computer = param(params, "vs").is_some();
        let no_move = match param(params, "nomove") {
            None => NoMoveRule::Pass,
            Some("pass") if vs_computer => {
                return Err(Problem::NoMoveRuleNotForMode(NoMoveRule::Pass))
            }
            Some("lose") if !vs_computer => {
                return Err(Problem::NoMoveRuleNotForMode(NoMoveRule::Lose))
            }
            Some("pass") => NoMoveRule::Pass,
            Some("lose") => NoMoveRule::Lose,
            Some(other) => return Err(Problem::UnknownNoMoveRule(other.to_string())),
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
}

impl UiGame for Stones {
    fn why_stuck(&self, lang: Lang, spot: u8) -> &'static str {
        match self.stone_at(spot) {
            Some((_, true)) => t!(lang, "stuck.stones_pinned"),
            _ => t!(lang, "stuck.stones_blocked"),
        }
    }

    fn score(&self, side: Side) -> u32 {
        Stones::score(self, side)
    }
    fn score_label(lang: Lang) -> &'static str {
        t!(lang, "stones.score_label")
    }
    fn describe_move(lang: Lang, before: &Stones, mv: StonesMove) -> String {
        let who = Self::side_name(lang, before.side_to_move());
        let (from, to) = (stone_square(mv.from), stone_square(mv.to));
        match mv.jumped {
            None => t!(lang, "stones.move.slide", side = who, from = from, to = to),
            Some(j) => {
                let over = stone_square(j);
                match before.stone_at(j) {
                    Some((owner, _)) if owner == before.side_to_move() => t!(
                        lang,
                        "stones.move.free",
                        side = who,
                        from = from,
                        to = to,
                        over = over
                    ),
                    _ => t!(
                        lang,
                        "stones.move.pin",
                        side = who,
                        from = from,
                        to = to,
                        over = over
                    ),
                }
            }
        }
    }
    fn rules_to_query(_: &StonesRules) -> Vec<(String, String)> {
        vec![]
    }
    fn rules_from_query(_: &[(String, String)]) -> Result<StonesRules, Problem> {
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
}

impl UiGame for Mill {
    fn why_stuck(&self, lang: Lang, _spot: u8) -> &'static str {
        t!(lang, "stuck.mill")
    }

    fn score(&self, side: Side) -> u32 {
        u32::from(self.on_board(side))
    }
    fn score_label(lang: Lang) -> &'static str {
        t!(lang, "mill.score_label")
    }
    fn chip_detail(&self, lang: Lang, side: Side) -> Option<String> {
        Some(t!(
            lang,
            "mill.chip_detail",
            hand = self.in_hand(side),
            lost = self.removed(side)
        ))
    }
    fn prompt(&self, lang: Lang) -> Option<String> {
        if self.outcome().is_some() {
            return None;
        }
        let side = self.side_to_move();
        let who = Self::side_name(lang, side);
        let them = Self::side_name(lang, side.opponent());
        Some(if self.must_remove() > 0 {
            t!(lang, "mill.prompt.remove", side = who, them = them)
        } else if self.phase() == Phase::Placing && self.in_hand(side) > 0 {
            t!(
                lang,
                "mill.prompt.place",
                side = who,
                n = self.in_hand(side)
            )
        } else if self.can_fly(side) {
            t!(lang, "mill.prompt.fly", side = who)
        } else {
            t!(lang, "mill.prompt.slide", side = who)
        })
    }
    fn describe_move(lang: Lang, before: &Mill, mv: MillMove) -> String {
        let who = Self::side_name(lang, before.side_to_move());
        let mut after = *before;
        after.play_unchecked(mv);
        let mill = after.must_remove() > 0 && after.side_to_move() == before.side_to_move();
        match mv {
            MillMove::Place(p) => {
                let to = point_name(p);
                if mill {
                    t!(lang, "mill.move.place_mill", side = who, to = to)
                } else {
                    t!(lang, "mill.move.place", side = who, to = to)
                }
            }
            MillMove::Slide { from, to } => {
                let (from, to) = (point_name(from), point_name(to));
                let flies =
                    before.can_fly(before.side_to_move()) && before.phase() == Phase::Moving;
                match (flies, mill) {
                    (true, true) => {
                        t!(lang, "mill.move.fly_mill", side = who, from = from, to = to)
                    }
                    (true, false) => t!(lang, "mill.move.fly", side = who, from = from, to = to),
                    (false, true) => {
                        t!(
                            lang,
                            "mill.move.slide_mill",
                            side = who,
                            from = from,
                            to = to
                        )
                    }
                    (false, false) => t!(lang, "mill.move.slide", side = who, from = from, to = to),
                }
            }
            MillMove::Remove(p) => t!(lang, "mill.move.remove", side = who, at = point_name(p)),
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
    fn rules_from_query(params: &[(String, String)]) -> Result<MillRules, Problem> {
        let preset = match param(params, "rules") {
            None => Preset::NineMensMorris,
            Some(slug) => Preset::from_slug(slug)
                .ok_or_else(|| Problem::UnknownMillRules(slug.to_string()))?,
        };
        let mut rules = preset.rules();
        for (key, value) in params {
            if OPTION_NAMES.contains(&key.as_str()) {
                rules
                    .set_option(key, value)
                    .map_err(|_| Problem::MillOption {
                        option: key.clone(),
                        value: value.clone(),
                    })?;
            }
        }
        rules.validate().map_err(|_| Problem::MillRules)?;
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
}
