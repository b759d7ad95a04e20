//! Stoneplay: Territory Duel, Stones! and Mill in one Rust/WebAssembly app.
//!
//! Layers, with arrows going one way (`ui` → `games`):
//! - [`games`]: the rules of each game, pure Rust, no browser types; they
//!   compile and test natively and run unchanged in the page.
//! - [`protocol`]: wire types only: the worker's messages, the online
//!   protocol and the page's codec for it; they import nothing but [`games`].
//! - [`ai`]: the computer player (search, evaluations, levels) and the
//!   engine protocols; generic over the games, clock injected.
//! - [`client`]: what the page decides for a game on this device (record,
//!   undo/redo and review, the clock rules, forced moves, timeouts, resume)
//!   and for online play (links, reconnecting, the session with the server)
//!   as plain types with the time injected; compiles and tests natively.
//! - [`i18n`]: the page's languages: one text table per language, looked up
//!   by key with English as the fallback; compiles and tests natively.
//! - `server` (feature `server`, native only): the online-play server
//!   (axum WebSocket, rooms, clocks, SQLite); its messages are
//!   [`protocol::online`].
//! - `ui` (wasm32 only): Leptos components; engine state in signals, one SVG
//!   board per game; every text they show comes from [`i18n`].

pub mod ai;
pub mod client;
pub mod games;
pub mod i18n;
pub mod protocol;

#[cfg(feature = "server")]
pub mod server;

#[cfg(target_arch = "wasm32")]
pub mod ui;
