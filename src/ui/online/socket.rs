//! The WebSocket behind an online page: opens it, feeds every event into
//! the tab's [`OnlineSession`] and carries out what the session asks (send, keep
//! or forget a seat, stop). After a drop it tries again with the session's
//! backoff (0.5 s doubling to 8 s), or at once when the browser comes back
//! online or the player presses "Try now".
//!
//! A connection that goes silent (a network that drops without closing the
//! socket) is noticed by a heartbeat: after [`PING_AFTER_MS`] without a
//! message the page sends `ping`, and after [`DEAD_AFTER_MS`] it reconnects.
//!
//! Closing is quiet: handlers are detached before a deliberate close, and a
//! refused connection is reported on the page, never with `console.error`.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::{Interval, Timeout};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

use super::{me, seats};
use crate::client::online::identity::KeptIdentity;
use crate::client::online::session::{Effect, Intent, OnlineSession};
use crate::games::any::Variant;
use crate::protocol::online::{ClientMsg, ServerMsg};
use crate::ui::clock::now_ms;

type Handler<E> = Closure<dyn FnMut(E)>;

/// Silence after which the page asks the server for a `pong`.
pub const PING_AFTER_MS: f64 = 8_000.0;
/// Silence after which the connection is taken for dead and replaced.
pub const DEAD_AFTER_MS: f64 = 20_000.0;

#[derive(Default)]
struct Inner {
    ws: Option<WebSocket>,
    /// Keeps the current socket's handlers alive as long as the socket.
    handlers: Vec<Box<dyn std::any::Any>>,
    retry: Option<Timeout>,
    /// Bumped for every socket: events of an older socket are ignored.
    generation: u32,
    /// `performance.now()` of the last message from the server (or the open).
    last_heard: f64,
    heartbeat: Option<Interval>,
}

/// A handle to the connection of one online page (cheap to copy).
#[derive(Clone, Copy)]
pub struct Driver {
    pub session: RwSignal<OnlineSession>,
    /// The server's WebSocket address.
    pub url: StoredValue<String>,
    inner: StoredValue<Rc<RefCell<Inner>>, LocalStorage>,
}

impl Driver {
    /// A driver for `url`, idle until [`Driver::start`]; it stops when the
    /// owning component is dropped.
    pub fn new(url: String) -> Self {
        let driver = Driver {
            session: RwSignal::new(OnlineSession::default()),
            url: StoredValue::new(url),
            inner: StoredValue::new_local(Rc::new(RefCell::new(Inner::default()))),
        };
        let online = window_event_listener_untyped("online", move |_| driver.retry_now());
        let beat = Interval::new(2_000, move || driver.heartbeat());
        if let Some(inner) = driver.inner() {
            inner.borrow_mut().heartbeat = Some(beat);
        }
        on_cleanup(move || {
            online.remove();
            driver.shutdown();
        });
        driver
    }

    fn inner(&self) -> Option<Rc<RefCell<Inner>>> {
        self.inner.try_get_value()
    }

    /// Starts a new session for `intent` on a fresh connection, as this
    /// device's identity on the server when it has one.
    pub fn start(&self, intent: Intent) {
        self.close_socket();
        let secret = me::kept(&self.url.get_value()).map(|k| k.secret);
        self.session.set(OnlineSession::identified(intent, secret));
        self.connect();
    }

    /// Runs what a session call returns.
    fn act(&self, f: impl FnOnce(&mut OnlineSession) -> Vec<Effect>) {
        let actions = self.session.try_update(f).unwrap_or_default();
        self.run(actions);
    }

    /// A new identity named `name`.
    pub fn register(&self, name: String) {
        self.act(|s| s.register(name));
    }

    /// A new name for this identity.
    pub fn rename(&self, name: String) {
        self.act(|s| s.rename(name));
    }

    /// Becomes the identity of a typed recovery code; `false` when the
    /// text cannot be one (nothing sent).
    pub fn recover(&self, typed: &str) -> bool {
        let mut ok = false;
        self.act(|s| {
            let out = s.recover(typed);
            ok = out.is_some();
            out.unwrap_or_default()
        });
        ok
    }

    /// Forgets this device's identity (the player was told what is lost)
    /// and starts afresh without it, on the setup screen.
    pub fn forget_identity(&self) {
        me::forget(&self.url.get_value());
        self.start(Intent::Lobby);
    }

    /// Another page of the player's games.
    pub fn player_page(&self, page: u32) {
        self.act(|s| s.player_page(page));
    }

    /// Asks for a leaderboard or an archived game.
    pub fn ask(&self, msg: ClientMsg) {
        self.act(|s| s.ask(msg));
    }

    /// Posts an open challenge in the lobby.
    pub fn challenge(&self, game: Variant, clock_secs: u32, rated: bool) {
        self.act(|s| s.challenge(game, clock_secs, rated));
    }

    /// Withdraws this tab's challenge.
    pub fn cancel_challenge(&self) {
        self.act(|s| s.cancel_challenge());
    }

    /// Takes the seat a lobby challenge offers.
    pub fn take_challenge(&self, id: String) {
        self.act(|s| s.take_challenge(id));
    }

    /// Stops: leaves the queue if waiting, closes, does not reconnect.
    pub fn stop(&self) {
        let actions = self.session.try_update(|s| s.stop()).unwrap_or_default();
        self.run(actions);
    }

    /// Withdraws this tab's invite if nobody has taken it (else as `stop`).
    pub fn withdraw(&self) {
        let actions = self
            .session
            .try_update(|s| s.withdraw())
            .unwrap_or_default();
        self.run(actions);
    }

    /// Tries again now instead of waiting for the backoff.
    pub fn retry_now(&self) {
        let waiting = self
            .session
            .try_with_untracked(|s| {
                s.wants_connection()
                    && s.connection != crate::client::online::session::Connection::Open
            })
            .unwrap_or(false);
        if waiting {
            self.connect();
        }
    }

    /// Sends a move in the game's notation (if the session allows it now).
    pub fn play(&self, mv: String) {
        if let Some(a) = self.session.try_update(|s| s.play(mv)).flatten() {
            self.run(vec![a]);
        }
    }

    /// Sends a game control (pause, resign, draw, rematch).
    pub fn control(&self, msg: ClientMsg) {
        if let Some(a) = self.session.with_untracked(|s| s.control(msg)) {
            self.run(vec![a]);
        }
    }

    /// Pings a quiet connection and replaces a dead one.
    fn heartbeat(&self) {
        let Some(inner) = self.inner() else { return };
        let open = self
            .session
            .try_with_untracked(|s| {
                s.connection == crate::client::online::session::Connection::Open
            })
            .unwrap_or(false);
        let (silent, generation) = {
            let i = inner.borrow();
            (now_ms() - i.last_heard, i.generation)
        };
        if !open || silent < PING_AFTER_MS {
            return;
        }
        if silent >= DEAD_AFTER_MS {
            self.close_socket();
            self.on_closed(generation.wrapping_add(1));
        } else {
            let actions = self
                .session
                .try_update(|s| s.ping(silent as u64, now_ms()))
                .unwrap_or_default();
            self.run(actions);
        }
    }

    fn shutdown(&self) {
        let _ = self.session.try_update(|s| s.stop());
        self.close_socket();
        if let Some(inner) = self.inner() {
            inner.borrow_mut().heartbeat = None;
        }
    }

    /// Closes the socket without telling the session (handlers detached first).
    fn close_socket(&self) {
        let Some(inner) = self.inner() else { return };
        let mut i = inner.borrow_mut();
        i.retry = None;
        i.generation = i.generation.wrapping_add(1);
        if let Some(ws) = i.ws.take() {
            ws.set_onopen(None);
            ws.set_onmessage(None);
            ws.set_onclose(None);
            ws.set_onerror(None);
            let _ = ws.close();
        }
        i.handlers.clear();
    }

    fn connect(&self) {
        self.close_socket();
        let Some(inner) = self.inner() else { return };
        let url = self.url.get_value();
        self.session.update(|s| s.connecting());
        let generation = inner.borrow().generation;
        let ws = match WebSocket::new(&url) {
            Ok(ws) => ws,
            Err(_) => {
                // Not a usable address: counts as a failed attempt.
                self.on_closed(generation);
                return;
            }
        };
        let me = *self;
        let current = move || {
            me.inner()
                .is_some_and(|i| i.borrow().generation == generation)
        };
        let on_open: Handler<web_sys::Event> = Closure::new(move |_| {
            if current() {
                me.heard();
                let actions = me
                    .session
                    .try_update(|s| s.opened(now_ms()))
                    .unwrap_or_default();
                me.run(actions);
            }
        });
        let on_message: Handler<MessageEvent> = Closure::new(move |ev: MessageEvent| {
            if !current() {
                return;
            }
            me.heard();
            let Some(text) = ev.data().as_string() else {
                return;
            };
            match ServerMsg::from_json(&text) {
                Ok(msg) => me.receive(msg),
                Err(e) => web_sys::console::warn_1(
                    &format!("online: a message from the server could not be read: {e}").into(),
                ),
            }
        });
        let on_close: Handler<CloseEvent> = Closure::new(move |_: CloseEvent| {
            if current() {
                me.on_closed(generation);
            }
        });
        // A failure is followed by `close`, which handles it; nothing to log.
        let on_error: Handler<web_sys::Event> = Closure::new(move |_| {});
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        ws.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut i = inner.borrow_mut();
        i.ws = Some(ws);
        i.handlers = vec![
            Box::new(on_open),
            Box::new(on_message),
            Box::new(on_close),
            Box::new(on_error),
        ];
    }

    fn heard(&self) {
        if let Some(inner) = self.inner() {
            inner.borrow_mut().last_heard = now_ms();
        }
    }

    fn receive(&self, msg: ServerMsg) {
        let now = now_ms();
        let actions = self
            .session
            .try_update(|s| s.receive(msg, now))
            .unwrap_or_default();
        // Keep this device's copy of the seat in step with the game.
        let url = self.url.get_value();
        self.session.with_untracked(|s| {
            if let (Some(seat), Some(state)) = (&s.seat, &s.state) {
                if state.room == seat.room {
                    seats::refresh(seat, &url, state);
                }
            }
        });
        self.run(actions);
    }

    fn on_closed(&self, generation: u32) {
        let Some(inner) = self.inner() else { return };
        {
            let mut i = inner.borrow_mut();
            if i.generation != generation {
                return;
            }
            i.ws = None;
        }
        let wait = self.session.try_update(|s| s.closed(now_ms())).flatten();
        if let Some(ms) = wait {
            let me = *self;
            let timer = Timeout::new(ms, move || me.connect());
            inner.borrow_mut().retry = Some(timer);
        }
    }

    fn run(&self, actions: Vec<Effect>) {
        for action in actions {
            match action {
                Effect::Send(msg) => {
                    let ws = self.inner().and_then(|i| i.borrow().ws.clone());
                    if let Some(ws) = ws {
                        let _ = ws.send_with_str(&msg.to_json());
                    }
                }
                Effect::Remember { seat, over } => {
                    let kind = self.session.with_untracked(|s| s.game.map(|g| g.kind()));
                    seats::remember(&seat, &self.url.get_value(), kind, over);
                }
                Effect::Forget { room } => seats::forget(&room),
                Effect::KeepIdentity { secret, id, name } => me::keep(KeptIdentity {
                    server: self.url.get_value(),
                    secret,
                    id,
                    name,
                }),
                Effect::Stop => self.close_socket(),
            }
        }
    }
}
