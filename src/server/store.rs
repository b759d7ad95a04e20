//! Rooms and moves in SQLite (`stoneplay.sqlite3` in the data directory),
//! written by one thread that owns the connection.
//!
//! A room is one row: the code, whether its game is finished, and the rest
//! as JSON ([`RoomMeta`]: rules, clock, seats and tokens, pauses, draw
//! offer, rematch requests). Moves are rows of their own, appended as they
//! are played, so a move costs one small insert and one row update. The
//! thread commits whatever is queued in one transaction (group commit) and
//! only then acknowledges, so a room broadcasts a move only once it is
//! stored. WAL mode with `synchronous=NORMAL`: a commit survives the server
//! process crashing; a power cut may lose the last moments.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::games::{Outcome, Side};
use crate::protocol::GameSpec;

/// The database file inside the data directory.
pub const DB_FILE: &str = "stoneplay.sqlite3";

/// Everything about a room but its moves, as stored.
///
/// Players are numbered by seat: player 0 created the room (or was paired
/// first), player 1 joined. Per-side arrays are indexed by `Side::index`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomMeta {
    pub spec: GameSpec,
    pub clock_ms: u64,
    /// Seat tokens by player; player 1's is `None` until the friend joins.
    pub tokens: [Option<String>; 2],
    /// The secret the friend needs to join; cleared once they have.
    pub join_key: Option<String>,
    /// Player 0's side in the current game (player 1 has the other).
    pub creator_side: Side,
    /// 1, then +1 per rematch.
    pub game_no: u32,
    /// The start position of the current game.
    pub start: String,
    pub outcome: Option<Outcome>,
    /// Time left for the side to move when this was saved. Downtime is
    /// not charged: after a restart the clock continues from here.
    pub remaining_ms: u64,
    pub paused_by: Option<Side>,
    /// While paused: time left before the pause ends by itself.
    pub pause_left_ms: u64,
    pub pauses_left: [u8; 2],
    pub draw_offer: Option<Side>,
    /// The ply at which each side last offered a draw (one per own move).
    pub offered_at: [Option<u32>; 2],
    pub rematch: [bool; 2],
    /// Milliseconds since the Unix epoch.
    pub created_ms: u64,
}

/// A room as loaded: its code, meta and the current game's moves.
#[derive(Clone, Debug)]
pub struct Stored {
    pub code: String,
    pub meta: RoomMeta,
    pub moves: Vec<String>,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

type Reply<T> = oneshot::Sender<Result<T, String>>;

enum Op {
    Save {
        code: String,
        /// A new room: fails if the code exists.
        create: bool,
        finished: bool,
        meta: String,
        game_no: u32,
        /// (ply, move) pairs to append; ply counts from 0.
        moves: Vec<(u32, String)>,
        done: Reply<()>,
    },
    Load {
        code: String,
        done: Reply<Option<Stored>>,
    },
    Unfinished {
        done: Reply<Vec<Stored>>,
    },
    Close {
        done: oneshot::Sender<()>,
    },
}

/// The handle rooms use; cheap to clone.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::Sender<Op>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    finished INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    meta TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_finished ON rooms(finished);
CREATE TABLE IF NOT EXISTS moves (
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    PRIMARY KEY (room, game_no, ply)
) WITHOUT ROWID;
PRAGMA user_version = 1;
";

impl Store {
    /// Opens (or creates) the database in `dir` and starts its thread.
    pub fn open(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
        let path = dir.join(DB_FILE);
        let conn =
            Connection::open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .and_then(|()| conn.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| conn.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| conn.execute_batch(SCHEMA))
            .map_err(|e| format!("cannot set up {}: {e}", path.display()))?;
        let (tx, rx) = mpsc::channel(4096);
        std::thread::Builder::new()
            .name("store".into())
            .spawn(move || run(conn, rx))
            .map_err(|e| format!("cannot start the store thread: {e}"))?;
        Ok(Store { tx })
    }

    async fn ask<T>(&self, op: impl FnOnce(Reply<T>) -> Op) -> Result<T, String> {
        let (done, rx) = oneshot::channel();
        self.tx
            .send(op(done))
            .await
            .map_err(|_| "the store is closed".to_string())?;
        rx.await.map_err(|_| "the store is closed".to_string())?
    }

    /// Writes a room's meta and appends moves of its current game; returns
    /// once committed. `create` refuses an existing code.
    pub async fn save(
        &self,
        code: &str,
        meta: &RoomMeta,
        create: bool,
        moves: Vec<(u32, String)>,
    ) -> Result<(), String> {
        let json = serde_json::to_string(meta).map_err(|e| e.to_string())?;
        self.ask(|done| Op::Save {
            code: code.to_string(),
            create,
            finished: meta.outcome.is_some(),
            meta: json,
            game_no: meta.game_no,
            moves,
            done,
        })
        .await
    }

    /// One room, if it exists.
    pub async fn load(&self, code: &str) -> Result<Option<Stored>, String> {
        let code = code.to_string();
        self.ask(|done| Op::Load { code, done }).await
    }

    /// Every room whose game is not finished (what a restart resumes).
    pub async fn unfinished(&self) -> Result<Vec<Stored>, String> {
        self.ask(|done| Op::Unfinished { done }).await
    }

    /// Finishes queued writes and closes the database.
    pub async fn close(&self) {
        let (done, rx) = oneshot::channel();
        if self.tx.send(Op::Close { done }).await.is_ok() {
            let _ = rx.await;
        }
    }
}

fn run(mut conn: Connection, mut rx: mpsc::Receiver<Op>) {
    while let Some(first) = rx.blocking_recv() {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        let mut saves = Vec::new();
        let mut close = None;
        for op in batch {
            match op {
                Op::Save { .. } => saves.push(op),
                Op::Load { code, done } => {
                    let _ = done.send(load(&conn, &code).map_err(|e| e.to_string()));
                }
                Op::Unfinished { done } => {
                    let _ = done.send(unfinished(&conn).map_err(|e| e.to_string()));
                }
                Op::Close { done } => close = Some(done),
            }
        }
        write_batch(&mut conn, saves);
        if let Some(done) = close {
            drop(conn);
            let _ = done.send(());
            return;
        }
    }
}

/// Commits every save in one transaction; if that fails, each on its own,
/// so one bad write does not fail the others.
fn write_batch(conn: &mut Connection, saves: Vec<Op>) {
    if saves.is_empty() {
        return;
    }
    let together = conn.transaction().and_then(|tx| {
        for op in &saves {
            write(&tx, op)?;
        }
        tx.commit()
    });
    if together.is_ok() {
        for op in saves {
            if let Op::Save { done, .. } = op {
                let _ = done.send(Ok(()));
            }
        }
        return;
    }
    for op in saves {
        let result = conn
            .transaction()
            .and_then(|tx| write(&tx, &op).and_then(|()| tx.commit()))
            .map_err(|e| format!("storing the room failed: {e}"));
        if let Op::Save { done, .. } = op {
            let _ = done.send(result);
        }
    }
}

fn write(conn: &Connection, op: &Op) -> rusqlite::Result<()> {
    let Op::Save {
        code,
        create,
        finished,
        meta,
        game_no,
        moves,
        ..
    } = op
    else {
        return Ok(());
    };
    let sql = if *create {
        "INSERT INTO rooms (code, finished, updated_ms, meta) VALUES (?1, ?2, ?3, ?4)"
    } else {
        "INSERT INTO rooms (code, finished, updated_ms, meta) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(code) DO UPDATE SET finished = ?2, updated_ms = ?3, meta = ?4"
    };
    conn.prepare_cached(sql)?
        .execute(params![code, finished, now_ms() as i64, meta])?;
    let mut insert = conn.prepare_cached(
        "INSERT OR REPLACE INTO moves (room, game_no, ply, mv) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (ply, mv) in moves {
        insert.execute(params![code, game_no, ply, mv])?;
    }
    Ok(())
}

fn stored(conn: &Connection, code: String, meta: &str) -> rusqlite::Result<Option<Stored>> {
    let Ok(meta) = serde_json::from_str::<RoomMeta>(meta) else {
        eprintln!("server: room {code} has an unreadable record; skipped");
        return Ok(None);
    };
    let mut stmt =
        conn.prepare_cached("SELECT mv FROM moves WHERE room = ?1 AND game_no = ?2 ORDER BY ply")?;
    let moves = stmt
        .query_map(params![code, meta.game_no], |row| row.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(Some(Stored { code, meta, moves }))
}

fn load(conn: &Connection, code: &str) -> rusqlite::Result<Option<Stored>> {
    let meta: Option<String> = conn
        .prepare_cached("SELECT meta FROM rooms WHERE code = ?1")?
        .query_row(params![code], |row| row.get(0))
        .optional()?;
    match meta {
        Some(meta) => stored(conn, code.to_string(), &meta),
        None => Ok(None),
    }
}

fn unfinished(conn: &Connection) -> rusqlite::Result<Vec<Stored>> {
    let rows: Vec<(String, String)> = conn
        .prepare("SELECT code, meta FROM rooms WHERE finished = 0")?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (code, meta) in rows {
        if let Some(s) = stored(conn, code, &meta)? {
            out.push(s);
        }
    }
    Ok(out)
}
