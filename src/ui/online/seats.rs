//! Seats in online games kept on this device, so a reload, a dropped
//! connection or a later visit takes the seat back (`reconnect {room,
//! token}`).
//!
//! `localStorage` (`stoneplay.online`) holds every seat with its server,
//! game and whether the game is over (the home screen lists the unfinished
//! ones). Each tab also notes in `sessionStorage` which seat *it* holds per
//! room (its token and server), so two tabs of one browser can play each
//! other and each reload finds its own side. A reload trusts the tab's own
//! note before the shared list: the list is one `localStorage` value that
//! both tabs rewrite as their games move, and a tab that found its token
//! missing there used to take the room's most recent seat, its opponent's
//! (seen once in the two-tabs end-to-end test: the X tab came back as O).

use serde::{Deserialize, Serialize};

use super::super::store;
use crate::client::moves::move_count_any;
use crate::client::online::session::SeatInfo;
use crate::games::any::AnyRecord;
use crate::games::{GameKind, Side};
use crate::protocol::online::{GameState, Status};

const SEATS: &str = "stoneplay.online";
const TAB: &str = "stoneplay.online.tab";
/// How many seats are kept (finished games are dropped first).
const MAX_SEATS: usize = 20;

/// One seat kept on this device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredSeat {
    pub room: String,
    pub token: String,
    /// The server's WebSocket address.
    pub server: String,
    pub side: Side,
    pub kind: Option<GameKind>,
    /// This seat made the room (its invite link carries the join key).
    pub created: bool,
    pub over: bool,
    /// Moves played when last seen, counted as the move list numbers them
    /// (its rows: a Mill removal is part of its move), as the resume list
    /// shows it. (The field keeps its stored name.)
    #[serde(default)]
    pub plies: usize,
    /// `Date.now()` when last seen.
    pub updated: f64,
}

/// Every kept seat, most recent first.
pub fn all() -> Vec<StoredSeat> {
    let mut seats: Vec<StoredSeat> = store::load(SEATS).unwrap_or_default();
    seats.sort_by(|a, b| b.updated.total_cmp(&a.updated));
    seats
}

/// Unfinished games, most recent first (for the home screen).
pub fn active() -> Vec<StoredSeat> {
    all().into_iter().filter(|s| !s.over).collect()
}

fn save_all(mut seats: Vec<StoredSeat>) {
    seats.sort_by(|a, b| b.updated.total_cmp(&a.updated));
    while seats.len() > MAX_SEATS {
        match seats.iter().rposition(|s| s.over) {
            Some(i) => seats.remove(i),
            None => seats.pop().expect("not empty"),
        };
    }
    store::save(SEATS, &seats);
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// The seat a tab holds in a room: (room, token, server).
type TabSeat = (String, String, String);

fn tab_seats() -> Vec<TabSeat> {
    // An older page kept (room, token) pairs; they read as none.
    session_storage()
        .and_then(|s| store::load_from(&s, TAB))
        .unwrap_or_default()
}

/// The token this tab holds in `room` and its server, if any.
fn tab_seat(room: &str) -> Option<(String, String)> {
    tab_seats()
        .into_iter()
        .find(|(r, _, _)| r == room)
        .map(|(_, t, server)| (t, server))
}

fn tab_token(room: &str) -> Option<String> {
    tab_seat(room).map(|(t, _)| t)
}

fn set_tab_seat(room: &str, seat: Option<(&str, &str)>) {
    let Some(s) = session_storage() else { return };
    let mut map = tab_seats();
    map.retain(|(r, _, _)| r != room);
    if let Some((token, server)) = seat {
        map.push((room.to_string(), token.to_string(), server.to_string()));
    }
    store::save_to(&s, TAB, &map);
}

/// Keeps `seat` (and marks it as this tab's seat in its room).
pub fn remember(seat: &SeatInfo, server: &str, kind: Option<GameKind>, over: bool) {
    let mut seats = all();
    let old = seats
        .iter()
        .position(|s| s.token == seat.token)
        .map(|i| seats.remove(i));
    seats.push(StoredSeat {
        room: seat.room.clone(),
        token: seat.token.clone(),
        server: server.to_string(),
        side: seat.side,
        kind: kind.or(old.as_ref().and_then(|o| o.kind)),
        created: seat.created || old.as_ref().is_some_and(|o| o.created),
        over,
        plies: old.map_or(0, |o| o.plies),
        updated: store::now_epoch_ms(),
    });
    save_all(seats);
    set_tab_seat(&seat.room, Some((&seat.token, server)));
}

/// Brings a kept seat up to date with its game's state.
pub fn refresh(seat: &SeatInfo, server: &str, state: &GameState) {
    let mut seats = all();
    let Some(s) = seats.iter_mut().find(|s| s.token == seat.token) else {
        return;
    };
    let over = state.status == Status::Over;
    let plies = AnyRecord::restore(&state.game, &state.start, &state.moves)
        .map_or(state.moves.len(), |r| move_count_any(&r));
    let kind = Some(state.game.kind());
    if s.over == over && s.kind == kind && s.plies == plies && s.side == seat.side {
        return;
    }
    s.over = over;
    s.kind = kind;
    s.plies = plies;
    s.side = seat.side;
    s.server = server.to_string();
    s.updated = store::now_epoch_ms();
    save_all(seats);
}

/// Forgets every seat in `room` held by this tab or, failing that, all of them.
pub fn forget(room: &str) {
    let mine = tab_token(room);
    let mut seats = all();
    seats.retain(|s| s.room != room || mine.as_ref().is_some_and(|t| *t != s.token));
    save_all(seats);
    set_tab_seat(room, None);
}

/// Forgets one seat.
pub fn forget_token(token: &str) {
    let mut seats = all();
    seats.retain(|s| s.token != token);
    save_all(seats);
}

/// The seat to take back in `room` as (token, server): this tab's own,
/// else the most recent one kept on the device.
pub fn find(room: &str) -> Option<(String, String)> {
    if let Some(own) = tab_seat(room) {
        return Some(own);
    }
    all()
        .into_iter()
        .find(|s| s.room == room)
        .map(|s| (s.token, s.server))
}

/// A seat this device holds in `room` that it got by joining (an invite
/// link opened again reconnects to it instead of asking to join).
pub fn joined(room: &str) -> Option<StoredSeat> {
    all().into_iter().find(|s| s.room == room && !s.created)
}

/// Marks `token` (on `server`) as this tab's seat in `room` (resuming from
/// the home screen).
pub fn take(room: &str, token: &str, server: &str) {
    set_tab_seat(room, Some((token, server)));
}
