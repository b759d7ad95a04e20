//! Mill on the game screen.

use leptos::prelude::*;

use super::{param, UiGame};
use crate::games::mill::{point_name, Mill, MillMove, MillRules, Phase, Preset, OPTION_NAMES};
use crate::games::Game;
use crate::games::Side;
use crate::i18n::Lang;
use crate::t;
use crate::ui::board::{self, BoardProps};
use crate::ui::sound::Sound;
use crate::ui::words::Problem;

impl UiGame for Mill {
    fn title(lang: Lang) -> &'static str {
        t!(lang, "game.mill.title")
    }
    fn tagline(lang: Lang) -> &'static str {
        t!(lang, "game.mill.tagline")
    }
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
