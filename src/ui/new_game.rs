//! The "New game" dialog: game, mode, level, your side, Mill's rules and
//! the clock, chosen off the board (as lichess does) and started with one
//! button. Its choices become the settings for the next games.

use leptos::prelude::*;

use super::games::UiGame;
use super::page::{Nav, Page};
use super::picker::GamePicker;
use super::screen::controls::clock_options;
use super::store::Settings;
use super::words::{level_name, use_lang};
use super::{link, mill_rules};
use crate::ai::Level;
use crate::client::ending::side_name;
use crate::client::online::link::OnlineLink;
use crate::games::mill::{Mill, MillRules};
use crate::games::{GameKind, Side};
use crate::t;

/// The dialog's choices, starting from the game on screen (or the settings).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Choice {
    kind: GameKind,
    /// "local", "computer" or "online".
    mode: &'static str,
    level: Level,
    /// The side you play against the computer.
    human: Side,
    mill_rules: MillRules,
    clock_secs: u32,
}

fn choice_for(page: &Page, s: &Settings) -> Choice {
    let mut c = Choice {
        kind: GameKind::Ataxx,
        mode: if s.vs_computer { "computer" } else { "local" },
        level: s.level,
        human: s.human_side,
        mill_rules: s.mill_rules,
        clock_secs: s.clock_secs,
    };
    match page {
        Page::Play(setup) => {
            c.kind = setup.kind;
            c.mode = if setup.opponent.is_some() {
                "computer"
            } else {
                "local"
            };
            if let Some(o) = setup.opponent {
                c.level = o.level;
                c.human = o.side.opponent();
            }
            // Two players keep the rules of the Mill game on screen.
            if setup.kind == GameKind::Mill && setup.opponent.is_none() {
                if let Ok(rules) = link::parse_query(&setup.query)
                    .and_then(|params| <Mill as UiGame>::rules_from_query(&params))
                {
                    c.mill_rules = rules;
                }
            }
        }
        Page::Rules(k) => c.kind = *k,
        _ => {}
    }
    c
}

/// The dialog, shown while `open` is true. A dialog over the board stops a
/// local game's clock (the app provides that through `BoardCover`).
#[component]
pub fn NewGameDialog(open: RwSignal<bool>) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let nav = expect_context::<Nav>();
    let lang = use_lang();
    let close = move || open.set(false);
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" && open.get_untracked() {
            close();
        }
    });
    on_cleanup(move || keys.remove());

    // Rebuilt for each page, so it starts from the game on screen.
    let body = move || {
        let page = nav.0.get();
        let start = settings.with_untracked(|s| choice_for(&page, s));
        let choice = RwSignal::new(start);
        let pick = move |f: &dyn Fn(&mut Choice)| choice.update(|c| f(c));
        let computer = move || choice.with(|c| c.mode == "computer");
        let kind = move || choice.with(|c| c.kind);
        let begin = move |_| {
            let c = choice.get_untracked();
            close();
            if c.mode == "online" {
                settings.update(|s| s.online_game = c.kind);
                nav.go(Page::Online(OnlineLink::setup()));
                return;
            }
            settings.update(|s| {
                s.vs_computer = c.mode == "computer";
                s.level = c.level;
                s.human_side = c.human;
                s.clock_secs = c.clock_secs;
                if c.kind == GameKind::Mill {
                    s.mill_rules = c.mill_rules;
                }
            });
            nav.new_game(c.kind);
        };
        view! {
            <GamePicker name="new-game-kind" testid="new-kind"
                legend=Signal::derive(move || t!(lang.get(), "newgame.game"))
                chosen=Signal::derive(kind)
                on_pick=Callback::new(move |k| pick(&move |c| c.kind = k))/>
            <div class="setup-bar">
                <label>
                    {move || t!(lang.get(), "mode.label")}" "
                    <select data-testid="mode" aria-label=move || t!(lang.get(), "mode.label")
                        on:change=move |ev| {
                            let mode = match event_target_value(&ev).as_str() {
                                "computer" => "computer",
                                "online" => "online",
                                _ => "local",
                            };
                            pick(&move |c| c.mode = mode)
                        }>
                        <option value="local" selected=start.mode == "local">{move || t!(lang.get(), "mode.two_players")}</option>
                        <option value="computer" selected=start.mode == "computer">{move || t!(lang.get(), "mode.computer")}</option>
                        <option value="online">{move || t!(lang.get(), "online.mode_option")}</option>
                    </select>
                </label>
                <label hidden=move || !computer()>
                    {move || t!(lang.get(), "mode.level")}" "
                    <select data-testid="level" aria-label=move || t!(lang.get(), "mode.level_aria")
                        on:change=move |ev| {
                            if let Ok(l) = event_target_value(&ev).parse::<Level>() {
                                pick(&move |c| c.level = l)
                            }
                        }>
                        {Level::ALL.iter().map(|&l| view! {
                            <option value=l.slug() selected=l == start.level>{move || level_name(lang.get(), l)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label hidden=move || !computer()>
                    {move || t!(lang.get(), "mode.you_play")}" "
                    <select data-testid="side" aria-label=move || t!(lang.get(), "mode.side_aria")
                        on:change=move |ev| {
                            let side = if event_target_value(&ev) == "second" { Side::Second } else { Side::First };
                            pick(&move |c| c.human = side)
                        }>
                        <option value="first" selected=start.human == Side::First>
                            {move || t!(lang.get(), "mode.side_first", side = side_name(lang.get(), kind(), Side::First))}
                        </option>
                        <option value="second" selected=start.human == Side::Second>
                            {move || t!(lang.get(), "mode.side_second", side = side_name(lang.get(), kind(), Side::Second))}
                        </option>
                    </select>
                </label>
                <label hidden=move || choice.with(|c| c.mode == "online")>
                    {move || t!(lang.get(), "game.clock")}" "
                    <select data-testid="new-clock" aria-label=move || t!(lang.get(), "game.clock_aria")
                        on:change=move |ev| {
                            if let Ok(secs) = event_target_value(&ev).parse::<u32>() {
                                pick(&move |c| c.clock_secs = secs)
                            }
                        }>
                        {clock_options(lang, move || choice.with(|c| c.clock_secs))}
                    </select>
                </label>
            </div>
            <div hidden=move || kind() != GameKind::Mill>
                <mill_rules::MillRulesPicker rules=start.mill_rules
                    on_change=Callback::new(move |r| pick(&move |c| c.mill_rules = r))/>
            </div>
            <div class="card-actions">
                <button class="primary" data-testid="start-game" on:click=begin>{move || t!(lang.get(), "newgame.start")}</button>
                <button data-testid="cancel-new-game" on:click=move |_| close()>{move || t!(lang.get(), "newgame.cancel")}</button>
            </div>
        }
    };

    view! {
        <div class="dialog-backdrop" hidden=move || !open.get() on:click=move |_| close()></div>
        <div class="new-game-dialog" role="dialog" aria-modal="true" aria-labelledby="new-game-title"
            data-testid="new-game-dialog" hidden=move || !open.get()>
            <h2 id="new-game-title">{move || t!(lang.get(), "newgame.title")}</h2>
            {body}
        </div>
    }
}
