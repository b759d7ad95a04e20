//! The Mill rules picker: a preset, then any single option changed.

use leptos::prelude::*;

use super::words::{preset_name, use_lang};
use crate::games::mill::{MillRules, Preset};
use crate::i18n::text;
use crate::{key, t};

/// How an option is edited (choices: the value and the key of its label).
enum Kind {
    Bool,
    Number(u32, u32),
    Choice(&'static [(&'static str, &'static str)]),
}

/// Every option with the key of its label and its editor, in the rules
/// file's order.
const OPTIONS: [(&str, &str, Kind); 15] = [
    ("pieces", key!("mill.opt.pieces"), Kind::Number(9, 12)),
    (
        "diagonal_lines",
        key!("mill.opt.diagonal_lines"),
        Kind::Bool,
    ),
    ("may_fly", key!("mill.opt.may_fly"), Kind::Bool),
    ("fly_at", key!("mill.opt.fly_at"), Kind::Number(3, 4)),
    (
        "lose_below",
        key!("mill.opt.lose_below"),
        Kind::Number(3, 4),
    ),
    (
        "remove_from_mills",
        key!("mill.opt.remove_from_mills"),
        Kind::Choice(&[
            (
                "only-if-all-in-mills",
                key!("mill.opt.remove_from_mills.only_if_all"),
            ),
            ("always", key!("mill.opt.remove_from_mills.always")),
        ]),
    ),
    (
        "mill_in_placing",
        key!("mill.opt.mill_in_placing"),
        Kind::Choice(&[
            ("remove-now", key!("mill.opt.mill_in_placing.remove_now")),
            (
                "mark-and-delay",
                key!("mill.opt.mill_in_placing.mark_and_delay"),
            ),
        ]),
    ),
    (
        "move_in_placing",
        key!("mill.opt.move_in_placing"),
        Kind::Bool,
    ),
    (
        "remove_multiple",
        key!("mill.opt.remove_multiple"),
        Kind::Bool,
    ),
    ("one_time_mill", key!("mill.opt.one_time_mill"), Kind::Bool),
    (
        "board_full",
        key!("mill.opt.board_full"),
        Kind::Choice(&[
            (
                "first-player-loses",
                key!("mill.opt.board_full.first_player_loses"),
            ),
            ("draw", key!("mill.opt.board_full.draw")),
        ]),
    ),
    (
        "stalemate",
        key!("mill.opt.stalemate"),
        Kind::Choice(&[
            ("blocked-side-loses", key!("mill.opt.stalemate.loses")),
            ("turn-passes", key!("mill.opt.stalemate.passes")),
        ]),
    ),
    (
        "n_move_rule",
        key!("mill.opt.n_move_rule"),
        Kind::Number(0, 200),
    ),
    (
        "threefold_repetition",
        key!("mill.opt.threefold_repetition"),
        Kind::Bool,
    ),
    (
        "defender_first",
        key!("mill.opt.defender_first"),
        Kind::Bool,
    ),
];

/// The preset whose rules equal `rules`, if any.
fn matching_preset(rules: &MillRules) -> Option<Preset> {
    Preset::ALL.into_iter().find(|p| p.rules() == *rules)
}

/// Preset and options; `on_change` gets every valid new rule set.
#[component]
pub fn MillRulesPicker(rules: MillRules, on_change: Callback<MillRules>) -> impl IntoView {
    let lang = use_lang();
    let current = RwSignal::new(rules);
    // The option (the key of its label) and the value that was refused.
    let error = RwSignal::new(None::<(&'static str, String)>);
    let choose_preset = move |ev: leptos::ev::Event| {
        if let Some(p) = Preset::from_slug(&event_target_value(&ev)) {
            current.set(p.rules());
            error.set(None);
            on_change.run(p.rules());
        }
    };
    let set = move |name: &'static str, label: &'static str, value: String| {
        let mut r = current.get_untracked();
        match r.set_option(name, &value) {
            Ok(()) => {
                current.set(r);
                error.set(None);
                on_change.run(r);
            }
            Err(_) => error.set(Some((label, value))),
        }
    };
    let editors = OPTIONS
        .iter()
        .map(|(name, label, kind)| {
            let (name, label) = (*name, *label);
            let value = move || current.with(|r| r.get_option(name).unwrap_or_default());
            let id = format!("mill-opt-{name}");
            let editor = match kind {
                Kind::Bool => view! {
                    <input type="checkbox" id=id.clone()
                        prop:checked=move || value() == "true"
                        on:change=move |ev| set(name, label, event_target_checked(&ev).to_string())/>
                }
                .into_any(),
                Kind::Number(min, max) => view! {
                    <input type="number" id=id.clone() min=min.to_string() max=max.to_string()
                        prop:value=value
                        on:change=move |ev| set(name, label, event_target_value(&ev))/>
                }
                .into_any(),
                Kind::Choice(choices) => view! {
                    <select id=id.clone() on:change=move |ev| set(name, label, event_target_value(&ev))>
                        {choices
                            .iter()
                            .map(|&(v, l)| view! { <option value=v selected=move || value() == v>{move || text(lang.get(), l)}</option> })
                            .collect_view()}
                    </select>
                }
                .into_any(),
            };
            view! {
                <label class="opt" for=id>
                    <span>{move || text(lang.get(), label)}</span>
                    {editor}
                </label>
            }
        })
        .collect_view();
    view! {
        <div class="mill-rules">
            <label class="preset">
                {move || t!(lang.get(), "mill.rules")}" "
                <select on:change=choose_preset data-testid="mill-preset" aria-label=move || t!(lang.get(), "mill.rules_aria")>
                    {Preset::ALL
                        .iter()
                        .map(|p| {
                            let p = *p;
                            view! {
                                <option value=p.slug() selected=move || current.with(matching_preset) == Some(p)>
                                    {move || preset_name(lang.get(), p)}
                                </option>
                            }
                        })
                        .collect_view()}
                    <option value="" disabled=true selected=move || current.with(matching_preset).is_none()>{move || t!(lang.get(), "mill.custom")}</option>
                </select>
            </label>
            <details class="options">
                <summary>{move || t!(lang.get(), "mill.options")}</summary>
                {editors}
                <p class="error" role="alert">{move || error.get().map(|(label, value)| {
                    let lang = lang.get();
                    t!(lang, "mill.bad_option", option = text(lang, label), value = value)
                })}</p>
            </details>
        </div>
    }
}
