//! Online play: two people on two devices through the game server.
//!
//! Links: `?online` (setup: create a game or quick match),
//! `?online=ROOM&key=KEY` (a friend's invite), `?online=ROOM` (your game
//! on this device: reload reopens it), `?watch=ROOM` (spectate), each with
//! an optional `&server=wss://…` when the game is on a server other than
//! the page's own. The logic without the browser (links, backoff, clock,
//! the session) is [`crate::client::online`]. This file is the page:
//! which of the parts below it shows for the session's state. [`socket`]
//! drives the WebSocket, [`seats`] keeps seat tokens, [`me`] the player's
//! identity, [`identity`] is the name card, [`lobby`] the open challenges
//! and live games, [`setup`] is the
//! setup form and your online games, [`cards`] the cards around a room
//! (connection, matching, problem, invite), [`room`] shows a game and
//! [`text`] words the protocol's values; every text comes from the
//! `online.*` keys of the language tables.

pub mod cards;
pub mod identity;
pub mod lobby;
pub mod me;
pub mod panel;
pub mod player;
pub mod probe;
pub mod room;
pub mod seats;
pub mod setup;
pub mod socket;
pub mod text;
pub mod view;

use leptos::prelude::*;

use self::cards::{ConnectionBanner, InviteCard, MatchingCard, ProblemCard};
use self::socket::Driver;
use super::address::{server_for, server_param};
use super::page::{replace_query, Nav, Page};
use super::store::Settings;
use super::words::use_lang;
use crate::client::online::link::{self, OnlineLink, Route};
use crate::client::online::session::{Halt, Intent, OnlineSession};
use crate::games::any::Variant;
use crate::protocol::online::Status;
use crate::t;

/// What the page shows, coarse enough that the game view is built once
/// per game (a rematch builds a new one).
#[derive(Clone, Debug, PartialEq)]
enum Showing {
    Setup,
    Connecting,
    Matching,
    Invite,
    Game {
        spec: Variant,
        game_no: u32,
    },
    Halted(Halt),
    /// A player's page and the leaderboards.
    Player,
}

/// What the page for `route` asks the server for, and where: a seat kept
/// on this device, a friend's invite, a room to watch or nothing yet
/// (setup). The flag is set when a room's link found no seat here, so
/// the page watches it.
fn open_route(link: &OnlineLink, setting_server: &str) -> (Intent, String, bool) {
    let linked = || server_for(link.server.as_deref(), setting_server);
    match &link.route {
        // The setup holds a connection for the player's name and the lobby.
        Route::Setup => (Intent::Lobby, linked(), false),
        Route::Join { room, key } => match seats::joined(room) {
            Some(s) => (
                Intent::Seat {
                    room: room.clone(),
                    token: s.token,
                },
                s.server,
                false,
            ),
            None => (
                Intent::Join {
                    room: room.clone(),
                    key: key.clone(),
                },
                linked(),
                false,
            ),
        },
        Route::Room { room } => match seats::find(room) {
            Some((token, server)) => {
                seats::take(room, &token, &server);
                (
                    Intent::Seat {
                        room: room.clone(),
                        token,
                    },
                    server,
                    false,
                )
            }
            None => (Intent::Watch { room: room.clone() }, linked(), true),
        },
        Route::Watch { room } => (Intent::Watch { room: room.clone() }, linked(), false),
        Route::Player { who } => (
            Intent::Player {
                who: who.clone(),
                page: 0,
            },
            linked(),
            false,
        ),
    }
}

/// What the page shows for the session `s`.
fn showing(s: &OnlineSession) -> Showing {
    if let Some(p) = &s.halt {
        return Showing::Halted(p.clone());
    }
    if let Some(st) = &s.state {
        if st.status == Status::Waiting && s.seat.is_some() {
            return Showing::Invite;
        }
        return Showing::Game {
            spec: st.game,
            game_no: st.game_no,
        };
    }
    match s.intent {
        Intent::Idle | Intent::Lobby => Showing::Setup,
        Intent::Player { .. } => Showing::Player,
        Intent::QuickMatch { .. } => Showing::Matching,
        _ => Showing::Connecting,
    }
}

/// The online page for `link`. `game` draws a room's game once it starts,
/// given the connection and the room's variant, and `setup` the setup
/// form, given the connection and the server (the app's draw each from a
/// chunk of its own, so a room's link does not fetch the form).
#[component]
pub fn OnlinePage(
    link: OnlineLink,
    game: Callback<(Driver, Variant), AnyView>,
    setup: Callback<(Driver, String), AnyView>,
    /// Draws a player's page (from a chunk of its own, as `setup`).
    player: Callback<Driver, AnyView>,
) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let nav = expect_context::<Nav>();
    let lang = use_lang();
    let setting_server = settings.with_untracked(|s| s.online_server.clone());
    // What to ask the server for, and where; `no_seat_note`: "You have no
    // seat here, so you are watching."
    let (intent, server, no_seat_note) = open_route(&link, &setting_server);
    let driver = Driver::new(server.clone());
    if intent != Intent::Idle {
        driver.start(intent);
    }
    let session = driver.session;
    let server = StoredValue::new(server);

    let shown = Memo::new(move |_| session.with(showing));

    // The address bar follows the page: your room, the room you watch.
    Effect::new(move |_| {
        let param = server_param(&server.get_value());
        let query = session.with(|s| match (&s.seat, &s.intent, &s.state) {
            (Some(seat), _, _) => Some(link::room_query(&seat.room, param.as_deref())),
            (None, Intent::Watch { room }, Some(_)) => {
                Some(link::watch_query(room, param.as_deref()))
            }
            _ => None,
        });
        if let Some(q) = query {
            replace_query(&q);
        }
    });

    let to_setup = Callback::new(move |()| {
        driver.stop();
        nav.go(Page::Online(OnlineLink::setup()));
    });
    // Cancel on the invite withdraws it: the room is deleted on the server.
    let withdraw = move || {
        driver.withdraw();
        nav.go(Page::Online(OnlineLink::setup()));
    };

    let body = move || {
        match shown.get() {
        // The setup says up front when the server cannot be reached.
        Showing::Setup => view! {
            <probe::ServerProbe server=server.get_value()/>
            {setup.run((driver, server.get_value()))}
        }
        .into_any(),
        Showing::Connecting => view! {
            <div class="online-card" data-testid="online-connecting">
                <h2>{move || t!(lang.get(), "online.title")}</h2>
                <button data-testid="cancel-connect" on:click=move |_| to_setup.run(())>{move || t!(lang.get(), "online.cancel")}</button>
            </div>
        }
        .into_any(),
        Showing::Matching => view! { <MatchingCard driver=driver on_cancel=to_setup/> }.into_any(),
        // Leaving keeps the seat on this device (the protocol cannot
        // withdraw an invite): the game stays in "Your online games".
        Showing::Invite => view! { <InviteCard driver=driver server=server.get_value() on_cancel=Callback::new(move |_| withdraw())/> }
        .into_any(),
        Showing::Game { spec, .. } => game.run((driver, spec)),
        Showing::Player => player.run(driver),
        Showing::Halted(p) => {
            let watch_room = match (&p, &link.route) {
                (Halt::Refused { code: crate::protocol::online::Refusal::RoomFull, .. }, Route::Join { room, .. }) => Some(room.clone()),
                _ => None,
            };
            view! { <ProblemCard problem=p watch_room=watch_room server=server on_setup=to_setup/> }.into_any()
        }
    }
    };

    view! {
        <div class="online">
            {no_seat_note.then(|| view! { <p class="banner-line" role="status">{move || t!(lang.get(), "online.no_seat_watching")}</p> })}
            <ConnectionBanner driver=driver server=server/>
            {body}
        </div>
    }
}
