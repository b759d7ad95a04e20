//! The Mill rules picker: a preset, then any single option changed.

use leptos::prelude::*;

use crate::games::mill::{MillRules, Preset};

/// How an option is edited.
enum Kind {
    Bool,
    Number(u32, u32),
    Choice(&'static [(&'static str, &'static str)]),
}

/// Every option with its label and editor, in the rules file's order.
const OPTIONS: [(&str, &str, Kind); 15] = [
    ("pieces", "Pieces per side", Kind::Number(9, 12)),
    ("diagonal_lines", "Diagonal lines", Kind::Bool),
    ("may_fly", "Flying allowed", Kind::Bool),
    ("fly_at", "Fly with this many pieces", Kind::Number(3, 4)),
    ("lose_below", "Lose with fewer than", Kind::Number(3, 4)),
    (
        "remove_from_mills",
        "Remove from a mill",
        Kind::Choice(&[
            ("only-if-all-in-mills", "only if all are in mills"),
            ("always", "always allowed"),
        ]),
    ),
    (
        "mill_in_placing",
        "Mill while placing",
        Kind::Choice(&[
            ("remove-now", "remove at once"),
            ("mark-and-delay", "mark and delay"),
        ]),
    ),
    (
        "move_in_placing",
        "May move while placing (Lasker)",
        Kind::Bool,
    ),
    ("remove_multiple", "Two mills remove two", Kind::Bool),
    ("one_time_mill", "A mill counts once", Kind::Bool),
    (
        "board_full",
        "Board full while placing",
        Kind::Choice(&[
            ("first-player-loses", "first player loses"),
            ("draw", "draw"),
        ]),
    ),
    (
        "stalemate",
        "Blocked player",
        Kind::Choice(&[("blocked-side-loses", "loses"), ("turn-passes", "passes")]),
    ),
    (
        "n_move_rule",
        "Draw after moves without removal (0 = off)",
        Kind::Number(0, 200),
    ),
    (
        "threefold_repetition",
        "Threefold repetition draws",
        Kind::Bool,
    ),
    ("defender_first", "Second player starts moving", Kind::Bool),
];

/// The preset whose rules equal `rules`, if any.
fn matching_preset(rules: &MillRules) -> Option<Preset> {
    Preset::ALL.into_iter().find(|p| p.rules() == *rules)
}

/// Preset and options; `on_change` gets every valid new rule set.
#[component]
pub fn MillRulesPicker(rules: MillRules, on_change: Callback<MillRules>) -> impl IntoView {
    let current = RwSignal::new(rules);
    let error = RwSignal::new(None::<String>);
    let choose_preset = move |ev: leptos::ev::Event| {
        if let Some(p) = Preset::from_slug(&event_target_value(&ev)) {
            current.set(p.rules());
            error.set(None);
            on_change.run(p.rules());
        }
    };
    let set = move |name: &'static str, value: String| {
        let mut r = current.get_untracked();
        match r.set_option(name, &value) {
            Ok(()) => {
                current.set(r);
                error.set(None);
                on_change.run(r);
            }
            Err(e) => error.set(Some(e.to_string())),
        }
    };
    let editors = OPTIONS
        .iter()
        .map(|(name, label, kind)| {
            let name = *name;
            let value = move || current.with(|r| r.get_option(name).unwrap_or_default());
            let id = format!("mill-opt-{name}");
            let editor = match kind {
                Kind::Bool => view! {
                    <input type="checkbox" id=id.clone()
                        prop:checked=move || value() == "true"
                        on:change=move |ev| set(name, event_target_checked(&ev).to_string())/>
                }
                .into_any(),
                Kind::Number(min, max) => view! {
                    <input type="number" id=id.clone() min=min.to_string() max=max.to_string()
                        prop:value=value
                        on:change=move |ev| set(name, event_target_value(&ev))/>
                }
                .into_any(),
                Kind::Choice(choices) => view! {
                    <select id=id.clone() on:change=move |ev| set(name, event_target_value(&ev))>
                        {choices
                            .iter()
                            .map(|(v, l)| view! { <option value=*v selected=move || value() == *v>{*l}</option> })
                            .collect_view()}
                    </select>
                }
                .into_any(),
            };
            view! {
                <label class="opt" for=id>
                    <span>{*label}</span>
                    {editor}
                </label>
            }
        })
        .collect_view();
    view! {
        <div class="mill-rules">
            <label class="preset">
                "Rules "
                <select on:change=choose_preset data-testid="mill-preset" aria-label="Mill rules">
                    {Preset::ALL
                        .iter()
                        .map(|p| {
                            let p = *p;
                            view! {
                                <option value=p.slug() selected=move || current.with(matching_preset) == Some(p)>
                                    {p.name()}
                                </option>
                            }
                        })
                        .collect_view()}
                    <option value="" disabled=true selected=move || current.with(matching_preset).is_none()>"Custom"</option>
                </select>
            </label>
            <details class="options">
                <summary>"Options"</summary>
                {editors}
                <p class="error" role="alert">{move || error.get()}</p>
            </details>
        </div>
    }
}
