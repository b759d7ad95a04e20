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

use crate::games::any::Variant;
use crate::games::{Outcome, Side};

/// The database file inside the data directory.
pub const DB_FILE: &str = "stoneplay.sqlite3";
/// Held locked (exclusively) by the server that uses the directory.
pub const LOCK_FILE: &str = "stoneplay.lock";
/// Written next to a database once it exists: a directory with this file
/// and no database has lost it (the server then refuses to start).
pub const MARKER_FILE: &str = "stoneplay.created";

/// Everything about a room but its moves, as stored.
///
/// Players are numbered by seat: player 0 created the room (or was paired
/// first), player 1 joined. Per-side arrays are indexed by `Side::index`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomMeta {
    pub spec: Variant,
    pub clock_ms: u64,
    /// Seat tokens by player, sealed ([`super::ids::seal`]: only their
    /// hash is kept); player 1's is `None` until the friend joins.
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

pub(crate) type Reply<T> = oneshot::Sender<Result<T, String>>;

/// What the store's owner (the SQLite thread, or the PostgreSQL task of
/// [`super::pg`]) is asked to do.
pub(crate) enum Op {
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
        done: Reply<Vec<String>>,
    },
    Expire {
        cutoff_ms: u64,
        code: Option<String>,
        done: Reply<usize>,
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
    /// A store served by another backend's task (see [`super::pg`]).
    #[cfg(feature = "cluster")]
    pub(crate) fn from_sender(tx: mpsc::Sender<Op>) -> Store {
        Store { tx }
    }

    /// Opens (or creates) the database in `dir` and starts its thread.
    pub fn open(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the data directory {}: {e}", dir.display()))?;
        // One server per directory: two would resume the same games and
        // overwrite each other's moves.
        let lock_path = dir.join(LOCK_FILE);
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
        // A server that has just stopped may release it a moment late (a
        // process being spawned holds a copy of its descriptors until it
        // execs): try for a second before refusing.
        let mut tries = 0;
        let locked = loop {
            match lock.try_lock() {
                Err(std::fs::TryLockError::WouldBlock) if tries < 20 => {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                other => break other,
            }
        };
        match locked {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(format!(
                    "the data directory {} is in use by another running server (it holds the lock on {}): stop that server first, or give this one another --data",
                    dir.display(),
                    lock_path.display()
                ))
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(format!("cannot lock {}: {e}", lock_path.display()))
            }
        }
        let path = dir.join(DB_FILE);
        let marker = dir.join(MARKER_FILE);
        if !path.exists() && marker.exists() {
            return Err(format!(
                "{} is missing, but {} held a database (it has {MARKER_FILE}): restore the database from a backup, or delete {} to start with no games",
                path.display(),
                dir.display(),
                marker.display()
            ));
        }
        let conn =
            Connection::open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .and_then(|()| conn.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| conn.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| conn.execute_batch(SCHEMA))
            .map_err(|e| format!("cannot set up {}: {e}", path.display()))?;
        let sealed = seal_tokens(&conn)
            .map_err(|e| format!("cannot seal the seat tokens in {}: {e}", path.display()))?;
        if sealed > 0 {
            eprintln!("server: the seat tokens of {sealed} room(s) are now stored as hashes");
        }
        if !marker.exists() {
            std::fs::write(&marker, "a Stoneplay database lives here\n")
                .map_err(|e| format!("cannot write {}: {e}", marker.display()))?;
        }
        let file = FileId::of(&path)
            .ok_or_else(|| format!("cannot read the metadata of {}", path.display()))?;
        let (tx, rx) = mpsc::channel(4096);
        std::thread::Builder::new()
            .name("store".into())
            .spawn(move || run(conn, lock, rx, &path, file))
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

    /// The codes of every room whose game has started and is not finished
    /// (what a restart resumes: their clocks run). Rooms still waiting for
    /// the friend are loaded only when someone asks for them.
    pub async fn unfinished(&self) -> Result<Vec<String>, String> {
        self.ask(|done| Op::Unfinished { done }).await
    }

    /// Deletes the rooms still waiting for the friend that were last
    /// written before `cutoff_ms` (all of them, or only `code`); returns
    /// how many went.
    pub async fn expire_waiting(
        &self,
        cutoff_ms: u64,
        code: Option<&str>,
    ) -> Result<usize, String> {
        let code = code.map(str::to_string);
        self.ask(|done| Op::Expire {
            cutoff_ms,
            code,
            done,
        })
        .await
    }

    /// Finishes queued writes and closes the database.
    pub async fn close(&self) {
        let (done, rx) = oneshot::channel();
        if self.tx.send(Op::Close { done }).await.is_ok() {
            let _ = rx.await;
        }
    }
}

/// Which file a path names (device and inode): a database deleted or
/// replaced while the server runs no longer matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path)
            .ok()
            .map(|m| FileId(m.dev(), m.ino()))
    }

    #[cfg(not(unix))]
    fn of(path: &Path) -> Option<FileId> {
        std::fs::metadata(path).ok().map(|_| FileId(0, 0))
    }
}

/// Serves the store's operations until closed. `lock` is held until the
/// database is closed, and released before `close` is answered, so a
/// server started right after another has stopped finds the directory free.
fn run(
    mut conn: Connection,
    lock: std::fs::File,
    mut rx: mpsc::Receiver<Op>,
    path: &Path,
    file: FileId,
) {
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
                Op::Expire {
                    cutoff_ms,
                    code,
                    done,
                } => {
                    let result = expire_waiting(&conn, cutoff_ms, code.as_deref())
                        .map_err(|e| e.to_string());
                    let _ = done.send(result);
                }
                Op::Close { done } => close = Some(done),
            }
        }
        // Writing to a database file that was deleted (or replaced) would
        // be lost at the next start: refuse, so nothing more is announced.
        if !saves.is_empty() && FileId::of(path) != Some(file) {
            let why = format!(
                "storing failed: the database file {} was deleted or replaced while the server runs; restore it from a backup and restart the server",
                path.display()
            );
            for op in saves {
                if let Op::Save { done, .. } = op {
                    let _ = done.send(Err(why.clone()));
                }
            }
        } else {
            write_batch(&mut conn, saves);
        }
        if let Some(done) = close {
            drop(conn);
            drop(lock);
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

fn unfinished(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    conn.prepare(&format!(
        "SELECT code FROM rooms WHERE finished = 0 AND NOT {WAITING}"
    ))?
    .query_map([], |row| row.get(0))?
    .collect()
}

/// A room whose second seat is empty: waiting for the friend.
const WAITING: &str = "json_extract(meta, '$.tokens[1]') IS NULL";

fn expire_waiting(
    conn: &Connection,
    cutoff_ms: u64,
    code: Option<&str>,
) -> rusqlite::Result<usize> {
    let sql = format!(
        "DELETE FROM rooms WHERE finished = 0 AND {WAITING} AND updated_ms < ?1 AND (?2 IS NULL OR code = ?2)"
    );
    conn.prepare_cached(&sql)?
        .execute(params![cutoff_ms as i64, code])
}

/// Rooms stored before seat tokens were sealed get their tokens replaced
/// by their hashes (in one transaction); returns how many rooms changed.
fn seal_tokens(conn: &Connection) -> rusqlite::Result<usize> {
    let plain = format!(
        "SELECT code, meta FROM rooms WHERE json_extract(meta, '$.tokens[0]') NOT LIKE '{0}%' \
         OR json_extract(meta, '$.tokens[1]') NOT LIKE '{0}%'",
        super::ids::SEALED
    );
    let rows: Vec<(String, String)> = conn
        .prepare(&plain)?
        .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    if rows.is_empty() {
        return Ok(0);
    }
    let tx = conn.unchecked_transaction()?;
    let mut n = 0;
    for (code, meta) in rows {
        let Ok(mut meta) = serde_json::from_str::<RoomMeta>(&meta) else {
            continue;
        };
        for t in meta.tokens.iter_mut().flatten() {
            *t = super::ids::seal(t);
        }
        let json = serde_json::to_string(&meta)
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        tx.execute(
            "UPDATE rooms SET meta = ?1 WHERE code = ?2",
            params![json, code],
        )?;
        n += 1;
    }
    tx.commit()?;
    Ok(n)
}
