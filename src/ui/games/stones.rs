//! Stones! on the game screen.

use leptos::prelude::*;

use super::UiGame;
use crate::games::stones::{square_name as stone_square, Stones, StonesMove, StonesRules};
use crate::games::Game;
use crate::games::Side;
use crate::i18n::Lang;
use crate::t;
use crate::ui::board::{self, BoardProps};
use crate::ui::sound::Sound;
use crate::ui::words::Problem;

impl UiGame for Stones {
    fn title(lang: Lang) -> &'static str {
        t!(lang, "game.stones.title")
    }
    fn tagline(lang: Lang) -> &'static str {
        t!(lang, "game.stones.tagline")
    }
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
