//! The Leptos app: components only; rules come from [`crate::games`].

pub mod board;
pub mod clock;
pub mod game;

use leptos::prelude::*;

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <header class="topbar">
            <h1><span class="logo" aria-hidden="true">"◆"</span>" Stoneplay"</h1>
            <p class="subtitle">"Territory Duel · two players, one device"</p>
        </header>
        <main>
            <game::AtaxxGame initial=game::new_local_game()/>
        </main>
    }
}

/// Mounts the app on the page's body.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}
