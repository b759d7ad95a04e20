//! The clock on the page: `performance.now()`, a ticker that refreshes it
//! while a clock runs, and the display. The clock's arithmetic is
//! [`crate::client::clock::MoveClock`].

use gloo_timers::callback::Interval;
use leptos::prelude::*;

pub use crate::client::clock::{format_left, MoveClock};

use super::words::use_lang;
use crate::t;

/// Milliseconds since page load from the monotonic `performance.now()`.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// A signal with the current `performance.now()`, refreshed by a gloo
/// interval only while `running` is true; the clock is derived from it.
pub fn ticker(running: Signal<bool>) -> RwSignal<f64> {
    let now = RwSignal::new(now_ms());
    let interval = StoredValue::new_local(None::<Interval>);
    Effect::new(move |_| {
        let run = running.get();
        now.set(now_ms());
        interval.set_value(if run {
            Some(Interval::new(100, move || now.set(now_ms())))
        } else {
            None
        });
    });
    on_cleanup(move || interval.set_value(None));
    now
}

/// The clock display: time left for the side to move and a bar; after the
/// end of the game it says so instead of showing a time.
#[component]
pub fn ClockView(
    #[prop(into)] clock: Signal<MoveClock>,
    now: RwSignal<f64>,
    #[prop(into)] active: Signal<bool>,
    /// The game is over.
    #[prop(into, optional)]
    over: Signal<bool>,
) -> impl IntoView {
    let lang = use_lang();
    let left = move || clock.with(|c| c.left_at(now.get()));
    let text = move || match left() {
        _ if over.get() => t!(lang.get(), "clock.over").to_string(),
        Some(ms) => format_left(ms),
        None => t!(lang.get(), "clock.none").to_string(),
    };
    let fraction = move || {
        clock.with(|c| match (c.left_at(now.get()), c.limit_ms()) {
            _ if over.get() => 0.0,
            (Some(left), Some(limit)) if limit > 0.0 => left / limit,
            _ => 1.0,
        })
    };
    let low = move || left().is_some_and(|ms| ms <= 5_000.0) && active.get();
    view! {
        <ClockFace text=Signal::derive(text) fraction=Signal::derive(fraction) low=Signal::derive(low)
            idle=Signal::derive(move || !active.get()) over=over
            label=Signal::derive(move || t!(lang.get(), "clock.aria", time = text()))/>
    }
}

/// How a clock looks, local or online: the time, a bar that empties, and
/// its state as classes (low on time, not running, game over).
#[component]
pub fn ClockFace(
    #[prop(into)] text: Signal<String>,
    /// How much of the move's time is left, 0 to 1.
    #[prop(into)]
    fraction: Signal<f64>,
    #[prop(into)] low: Signal<bool>,
    #[prop(into)] idle: Signal<bool>,
    #[prop(into)] over: Signal<bool>,
    /// What a screen reader says.
    #[prop(into)]
    label: Signal<String>,
) -> impl IntoView {
    view! {
        <div class="clock" class:low=move || low.get() class:idle=move || idle.get() class:over=move || over.get() role="timer"
             aria-label=move || label.get()>
            <span class="clock-text" data-testid="clock">{move || text.get()}</span>
            <span class="clock-bar" aria-hidden="true">
                <span class="clock-fill" style:width=move || format!("{:.1}%", fraction.get() * 100.0)></span>
            </span>
        </div>
    }
}
