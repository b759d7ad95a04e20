//! What the server tests share: data directories, a test config, and
//! waiting for the messages a test expects. (`mod common;` in each test
//! file; not every file uses every helper.)
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use stoneplay::games::any::AnyRecord;
use stoneplay::games::any::Variant;
use stoneplay::games::{splitmix64, Side};
use stoneplay::protocol::online::{
    ClientMsg, Event, GameState, Refusal, ServerMsg, SideChoice, Status,
};
use stoneplay::server::client::Client;
use stoneplay::server::Config;

pub const WAIT: Duration = Duration::from_secs(10);

/// A fresh, empty directory under the system's temporary directory.
pub fn data_dir(name: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "stoneplay-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A server on a free port of 127.0.0.1 storing in `dir`, serving no
/// files, with a rate limit no test reaches by accident.
pub fn config(dir: &Path) -> Config {
    Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        static_dir: None,
        rate_per_sec: 1000,
        burst: 1000,
        ..Config::default()
    }
}

/// Skips messages until a state (optionally with `event`).
pub async fn state(c: &mut Client, event: Option<Event>) -> GameState {
    let msg = c
        .recv_until(
            WAIT,
            |m| matches!(m, ServerMsg::State(s) if event.is_none_or(|e| s.event == e)),
        )
        .await
        .expect("a state");
    let ServerMsg::State(s) = msg else {
        unreachable!()
    };
    s
}

/// A seat as the server hands it out.
#[derive(Clone, Debug)]
pub struct Seat {
    pub room: String,
    pub token: String,
    pub side: Side,
    pub join_key: Option<String>,
}

/// The next message must be a seat.
pub async fn seat(c: &mut Client) -> Seat {
    match c.recv(WAIT).await.expect("a seat") {
        ServerMsg::Seat {
            room,
            token,
            side,
            join_key,
        } => Seat {
            room,
            token,
            side,
            join_key,
        },
        other => panic!("expected seat, got {other:?}"),
    }
}

/// The next message must be `refused` with `code` (no room state follows).
pub async fn refused_outside(c: &mut Client, code: Refusal) -> String {
    match c.recv(WAIT).await.expect("an answer") {
        ServerMsg::Refused {
            code: got, reason, ..
        } => {
            assert_eq!(got, code, "refused: {reason}");
            reason
        }
        other => panic!("expected refused {code:?}, got {other:?}"),
    }
}

/// Polls `cond` every 20 ms for up to `wait`; whether it came true.
pub async fn eventually(wait: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        if cond() {
            return true;
        }
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Two players in a started game: `a` created it (on the side asked
/// for), `b` joined with the key. `state` is the last state both have.
pub struct Table {
    pub a: Client,
    pub b: Client,
    pub a_seat: Seat,
    pub b_seat: Seat,
    pub state: GameState,
}

/// Forced passes ("0000") the server added after the move at `ply`.
pub fn forced_passes(moves: &[String], ply: u32) -> u32 {
    moves[ply as usize + 1..]
        .iter()
        .filter(|m| *m == "0000")
        .count() as u32
}

impl Table {
    /// Creates a room on `addr` and joins it; checks the seats and states.
    pub async fn new(addr: SocketAddr, game: Variant, clock_secs: u32, side: SideChoice) -> Table {
        let mut a = Client::hello(addr).await.unwrap();
        a.send(&ClientMsg::Create {
            game,
            clock_secs: Some(clock_secs),
            side,
            rated: false,
        })
        .await
        .unwrap();
        let a_seat = seat(&mut a).await;
        assert_eq!(a_seat.room.len(), 16);
        assert_eq!(a_seat.token.len(), 32);
        let waiting = state(&mut a, Some(Event::Sync)).await;
        assert_eq!(waiting.status, Status::Waiting);
        assert_eq!(waiting.seated, [true, false]);
        assert!(!waiting.clock.running);
        let key = a_seat
            .join_key
            .clone()
            .expect("the creator gets the join key");

        let mut b = Client::hello(addr).await.unwrap();
        b.send(&ClientMsg::Join {
            room: a_seat.room.clone(),
            key,
        })
        .await
        .unwrap();
        let b_seat = seat(&mut b).await;
        assert_eq!(b_seat.room, a_seat.room);
        assert_eq!(b_seat.side, a_seat.side.opponent());
        assert_ne!(b_seat.token, a_seat.token);
        assert!(b_seat.join_key.is_none());
        let sb = state(&mut b, Some(Event::Started)).await;
        let sa = state(&mut a, Some(Event::Started)).await;
        assert_eq!(sa.status, Status::Playing);
        assert!(sa.clock.running);
        assert_eq!(sa.connected, [true, true]);
        assert_eq!(sb.you, Some(b_seat.side));
        Table {
            a,
            b,
            a_seat,
            b_seat,
            state: sa,
        }
    }

    /// Both players come back (with their tokens) to a server at `addr`.
    pub async fn rejoin(addr: SocketAddr, a_seat: Seat, b_seat: Seat) -> Table {
        let mut a = Client::hello(addr).await.unwrap();
        a.send(&ClientMsg::Reconnect {
            room: a_seat.room.clone(),
            token: a_seat.token.clone(),
        })
        .await
        .unwrap();
        assert_eq!(seat(&mut a).await.side, a_seat.side);
        state(&mut a, Some(Event::Sync)).await;
        let mut b = Client::hello(addr).await.unwrap();
        b.send(&ClientMsg::Reconnect {
            room: b_seat.room.clone(),
            token: b_seat.token.clone(),
        })
        .await
        .unwrap();
        assert_eq!(seat(&mut b).await.side, b_seat.side);
        let state = state(&mut b, Some(Event::Sync)).await;
        Table {
            a,
            b,
            a_seat,
            b_seat,
            state,
        }
    }

    /// The connection of the side to move.
    pub fn mover(&mut self) -> &mut Client {
        if self.state.to_move == self.a_seat.side {
            &mut self.a
        } else {
            &mut self.b
        }
    }

    /// Plays `mv` by the side to move; returns once both players have the
    /// new state (the move is acknowledged).
    pub async fn play(&mut self, mv: &str) -> GameState {
        let ply = self.state.moves.len() as u32;
        let msg = ClientMsg::Move {
            ply,
            mv: mv.to_string(),
        };
        self.mover().send(&msg).await.unwrap();
        let sa = state(&mut self.a, Some(Event::Moved)).await;
        let sb = state(&mut self.b, Some(Event::Moved)).await;
        assert_eq!(sa.moves, sb.moves);
        assert_eq!(
            sa.moves.len() as u32,
            ply + 1 + forced_passes(&sa.moves, ply),
            "{mv} was not played"
        );
        assert_eq!(sa.you, Some(self.a_seat.side));
        assert_eq!(sb.you, Some(self.b_seat.side));
        self.state = sa.clone();
        sa
    }

    /// A pseudo-random legal move in the current state.
    pub fn pick(&self, seed: &mut u64) -> String {
        let live = AnyRecord::restore(&self.state.game, &self.state.start, &self.state.moves)
            .expect("the state replays");
        let moves = live.legal_moves();
        assert!(!moves.is_empty(), "no legal move in an unfinished game");
        let (next, r) = splitmix64(*seed);
        *seed = next;
        moves[(r % moves.len() as u64) as usize].clone()
    }
}
