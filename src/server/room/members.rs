//! The members of a room: who is in it and what they are sent. Every
//! change goes to each member as an `update` with the moves it has not
//! been sent (the full `state` after a rematch), built once per
//! viewpoint; a member whose queue is full leaves, and a player's last
//! connection leaving is told to the others (`presence`).

use axum::extract::ws::Utf8Bytes;
use tokio::time::Instant;

use super::task::{Member, Room};
use crate::games::Side;
use crate::protocol::online::{Event, GameState, ServerMsg};
use crate::server::store::now_ms;

impl Room {
    pub(super) fn connected(&self, side: Side) -> bool {
        self.members
            .iter()
            .any(|m| m.player.is_some_and(|p| self.table.side_of(p) == side))
    }

    /// The state, with the moves after the first `from`, as it is at `now`
    /// (`wall_ms` is the same moment on the wall clock: one reading per
    /// event, so every member is sent the same clock).
    fn state(
        &self,
        you: Option<Side>,
        event: Event,
        now: (Instant, u64),
        from: usize,
    ) -> GameState {
        let connected = [self.connected(Side::First), self.connected(Side::Second)];
        let spectators = self.members.iter().filter(|m| m.player.is_none()).count() as u32;
        let mut state =
            self.table
                .state(&self.code, you, event, now, from, (connected, spectators));
        // Issue 37: who plays each side, and whether (and how) it counts.
        for p in 0..2 {
            state.players[self.table.side_of(p).index()] = self.tags[p].clone();
        }
        state.rated = self.table.meta.rated;
        state.rated_before = self
            .rated_before
            .filter(|(game_no, _)| *game_no == self.table.meta.game_no)
            .map(|(_, before)| before);
        state
    }

    /// The full state (all the moves).
    pub(super) fn state_msg(&self, you: Option<Side>, event: Event, now: Instant) -> ServerMsg {
        ServerMsg::State(self.state(you, event, (now, now_ms()), 0))
    }

    /// Sends `conn` the full state and notes that it has every move.
    pub(super) fn send_full(&mut self, conn: u64, event: Event, now: Instant) {
        let Some(i) = self.members.iter().position(|m| m.conn.id == conn) else {
            return;
        };
        let you = self.you(&self.members[i]);
        let msg = self.state_msg(you, event, now);
        let (game_no, known) = (self.table.meta.game_no, self.table.moves.len());
        let m = &mut self.members[i];
        m.game_no = game_no;
        m.known = known;
        m.conn.send(&msg);
    }

    fn you(&self, member: &Member) -> Option<Side> {
        member.player.map(|p| self.table.side_of(p))
    }

    /// Sends the change to every member (each with its own `you`): an
    /// `update` with the moves it has not been sent, or the full state
    /// when the game is another one (a rematch).
    pub(super) fn broadcast(&mut self, event: Event) {
        let now = (Instant::now(), now_ms());
        let (game_no, len) = (self.table.meta.game_no, self.table.moves.len());
        // Built once per (you, from, full): in practice one per side.
        let mut texts: Vec<((usize, usize, bool), Utf8Bytes)> = Vec::new();
        let mut dead = Vec::new();
        for i in 0..self.members.len() {
            let you = self.you(&self.members[i]);
            let slot = you.map_or(2, Side::index);
            let m = &self.members[i];
            let full = m.game_no != game_no || m.known > len;
            let from = if full { 0 } else { m.known };
            let key = (slot, from, full);
            let text = match texts.iter().find(|(k, _)| *k == key) {
                Some((_, t)) => t.clone(),
                None => {
                    let state = self.state(you, event, now, from);
                    let msg = if full {
                        ServerMsg::State(state)
                    } else {
                        ServerMsg::Update(state)
                    };
                    let t: Utf8Bytes = msg.to_json().into();
                    texts.push((key, t.clone()));
                    t
                }
            };
            let m = &mut self.members[i];
            m.game_no = game_no;
            m.known = len;
            if !m.conn.send_text(text) {
                dead.push(m.conn.id);
            }
        }
        for id in dead {
            self.detach(id);
        }
        self.sync_listed(false);
    }

    /// Sends to every member but `except`; members that cannot take it leave.
    pub(super) fn tell_others(&mut self, except: u64, msg: &ServerMsg) {
        let text: Utf8Bytes = msg.to_json().into();
        let dead: Vec<u64> = self
            .members
            .iter()
            .filter(|m| m.conn.id != except && !m.conn.send_text(text.clone()))
            .map(|m| m.conn.id)
            .collect();
        for id in dead {
            self.detach(id);
        }
    }

    /// A connection leaves; its opponent hears if that was the player's last one.
    pub(super) fn detach(&mut self, conn: u64) {
        let Some(i) = self.members.iter().position(|m| m.conn.id == conn) else {
            return;
        };
        let member = self.members.swap_remove(i);
        if self.members.is_empty() {
            self.last_left = Instant::now();
        }
        if let Some(p) = member.player {
            let side = self.table.side_of(p);
            if !self.connected(side) {
                let msg = ServerMsg::Presence {
                    side,
                    connected: false,
                };
                self.tell_others(conn, &msg);
            }
        }
    }
}
