//! Territory Duel on the game screen.

use leptos::prelude::*;

use super::{param, UiGame};
use crate::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules, NoMoveRule};
use crate::games::Game;
use crate::games::Side;
use crate::i18n::Lang;
use crate::ui::board::{self, BoardProps};
use crate::ui::sound::Sound;
use crate::ui::words::Problem;
use crate::{t, tn};

impl UiGame for Ataxx {
    fn title(lang: Lang) -> &'static str {
        t!(lang, "game.ataxx.title")
    }
    fn tagline(lang: Lang) -> &'static str {
        t!(lang, "game.ataxx.tagline")
    }
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
