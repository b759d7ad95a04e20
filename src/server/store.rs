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
//!
//! One server per directory: the server holds an exclusive OS lock
//! (`flock`) on the database file itself, so deleting a stale-looking
//! `stoneplay.lock` (the lock file older servers relied on, still taken
//! so that one of them running is noticed) cannot let a second server in
//! (issue 33: with only the lock file, `rm stoneplay.lock` let two
//! servers acknowledge different moves at the same plies, and the last
//! writer silently replaced 3 of them). SQLite's own locks are `fcntl`
//! locks, which Linux keeps apart from `flock`, so `sqlite3 … .backup`
//! still reads the file while the server runs. A ply already stored is
//! never replaced: storing another move there is refused (storing the
//! same move again is a no-op, as when a commit's answer was lost).
//!
//! Clocks across a stop: a room saved while its clock ran stores when
//! (`clock_saved_ms`); a clean stop saves the clocks stopped instead. The
//! server stamps the time into `stoneplay.alive` every half second (8
//! bytes written in place, so the stamp works on a full disk too). At the
//! next start a clock that was running is charged the time the server
//! ran after the save (to its last stamp: [`Stored::ran_until_ms`]) but
//! not the downtime: a crash costs nobody time, and a timeout the server
//! reached but could not store (a full disk) is reached again at once
//! instead of starting a fresh clock.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::players::glicko::Rating;
use super::players::{
    self, name::Name, sqlite::Player, sqlite::Standing, FinishedGame, PlayerError,
};
use crate::games::any::Variant;
use crate::games::{GameKind, Outcome, Side};
use crate::protocol::online::{PlayerTag, ServerMsg};

/// The database file inside the data directory.
pub const DB_FILE: &str = "stoneplay.sqlite3";
/// Locked by older servers (they did not lock the database file): still
/// taken, so that an older server running on the directory is noticed.
pub const LOCK_FILE: &str = "stoneplay.lock";
/// The heartbeat: when the server last ran (see the module header).
pub const ALIVE_FILE: &str = "stoneplay.alive";
/// How often the heartbeat is written.
pub const ALIVE_EVERY: Duration = Duration::from_millis(500);
/// Storing a move where the store already has another one says this.
pub const PLY_TAKEN: &str = "another move is already stored at this ply";
/// How long a room waits for a save or a load before it counts as failed
/// (the store then may still finish it: storing the same move again is a
/// no-op, and a different one is refused with [`PLY_TAKEN`]). Under the
/// 2 s in which a player hears that the server cannot store.
pub const STORE_DEADLINE: Duration = Duration::from_millis(1500);
/// The same for the occasional larger work (listing, deleting expired rooms).
const BULK_DEADLINE: Duration = Duration::from_secs(30);
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
    /// When this was saved (ms since the Unix epoch), if the move clock
    /// or the pause timer was running then; `None` when they were stopped
    /// (a clean stop, a finished game). See [`Stored::ran_until_ms`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_saved_ms: Option<u64>,
    /// The identity (public id) of each seat's player, by player (issue
    /// 37): set when they sit down with one; `None` for a player without.
    #[serde(default, skip_serializing_if = "no_players")]
    pub players: [Option<String>; 2],
    /// Set up as rated (both seats need a named identity).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Whether each side (by `Side::index`) has made a move of its own in
    /// the current game: a game over before both have is an abort, not
    /// rated.
    #[serde(default, skip_serializing_if = "no_moves")]
    pub moved: [bool; 2],
}

fn no_players(p: &[Option<String>; 2]) -> bool {
    p[0].is_none() && p[1].is_none()
}

fn no_moves(m: &[bool; 2]) -> bool {
    !m[0] && !m[1]
}

/// A room as loaded: its code, meta and the current game's moves.
#[derive(Clone, Debug)]
pub struct Stored {
    pub code: String,
    pub meta: RoomMeta,
    pub moves: Vec<String>,
    /// Until when the server that saved this room's running clock
    /// (`meta.clock_saved_ms`) is known to have run: its last heartbeat.
    /// `None`: this very server saved it, and runs still. A clock loaded
    /// is charged the time from its save to then, never the downtime
    /// after it.
    pub ran_until_ms: Option<u64>,
}

/// The runs of the server on one store, as its clocks need them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Runs {
    /// When this server opened the store (ms since the Unix epoch).
    pub started_ms: u64,
    /// The last heartbeat of the server before it, if known.
    pub previous_alive_ms: Option<u64>,
}

impl Runs {
    /// [`Stored::ran_until_ms`] for a clock saved at `saved_ms`: by this
    /// server (saved since it started), or by the one before, which ran
    /// until its last heartbeat (unknown: until the save, so nothing is
    /// charged).
    pub fn ran_until(&self, saved_ms: Option<u64>) -> Option<u64> {
        let saved = saved_ms?;
        (saved < self.started_ms).then(|| self.previous_alive_ms.unwrap_or(saved).max(saved))
    }
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
        /// The game just finished (issue 37): recorded, with the players'
        /// new ratings when it counts, in the same transaction.
        game: Option<Box<FinishedGame>>,
        done: Reply<Option<Counted>>,
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
    /// How many rooms wait for the friend.
    CountWaiting {
        done: Reply<usize>,
    },
    /// A player operation (issue 37): identities and names.
    Player {
        job: PlayerJob,
        now_ms: u64,
        done: Reply<Result<Known, PlayerError>>,
    },
    /// A read for players, pages, the leaderboard or a finished game.
    Query {
        query: Query,
        now_ms: u64,
        done: Reply<Result<Answer, PlayerError>>,
    },
    Close {
        done: oneshot::Sender<()>,
    },
}

/// Each side's rating before and after a counted game, `[First, Second]`.
pub type Counted = [(Rating, Rating); 2];

/// What a connection or a room reads of the players' tables.
#[derive(Clone, Debug)]
pub enum Query {
    /// The tags (name, rating in `game`) of these identities.
    Tags {
        ids: [Option<String>; 2],
        game: Option<GameKind>,
    },
    /// `player {who, page}`.
    Player { who: String, page: u32 },
    /// `leaderboard {game}`.
    Leaderboard { game: GameKind },
    /// `archive {room, game_no}` (the code already normalized).
    Archive { room: String, game_no: u32 },
    /// Each side's rating before game `game_no` of `room`, if it was
    /// counted (a room loaded after a restart shows `rated_before`).
    RatedBefore { room: String, game_no: u32 },
}

/// The answer to a [`Query`].
#[derive(Clone, Debug)]
pub enum Answer {
    Tags([Option<PlayerTag>; 2]),
    /// The message to send (`player_page`, `leaderboard`, `archive`).
    Msg(Box<ServerMsg>),
    /// Each side's rating before a counted game (first, second), as shown.
    Before(Option<[u32; 2]>),
}

/// Answers `query` on SQLite (reads only).
fn query(conn: &Connection, query: Query, now_ms: u64) -> Result<Answer, PlayerError> {
    use players::sqlite as ops;
    let db = |e: rusqlite::Error| PlayerError::Db(e.to_string());
    Ok(match query {
        Query::Tags { ids, game } => {
            let mut tags = [None, None];
            for (i, id) in ids.iter().enumerate() {
                if let Some(id) = id {
                    tags[i] = ops::tag(conn, id, game, now_ms)?;
                }
            }
            Answer::Tags(tags)
        }
        Query::Player { who, page } => {
            let player = ops::find(conn, &who)?.ok_or(PlayerError::NoSuchPlayer)?;
            let (games, pages) = ops::games(conn, &player.id, page)?;
            let ratings = ops::standings(conn, &player.id)?
                .iter()
                .map(|s| s.info(now_ms))
                .collect();
            let history = ops::history(conn, &player.id)?;
            Answer::Msg(Box::new(ServerMsg::PlayerPage {
                player: PlayerTag {
                    id: player.id,
                    name: player.name,
                    rating: None,
                    provisional: false,
                },
                ratings,
                history,
                games,
                page,
                pages,
            }))
        }
        Query::Leaderboard { game } => Answer::Msg(Box::new(ServerMsg::Leaderboard {
            game,
            rows: ops::leaderboard(conn, game, now_ms)?,
        })),
        Query::Archive { room, game_no } => {
            let (game, start) =
                ops::archived(conn, &room, game_no)?.ok_or(PlayerError::NoSuchGame)?;
            let moves = conn
                .prepare_cached(
                    "SELECT mv FROM moves WHERE room = ?1 AND game_no = ?2 ORDER BY ply",
                )
                .and_then(|mut st| {
                    st.query_map(params![room, game_no], |r| r.get::<_, String>(0))?
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(db)?;
            Answer::Msg(Box::new(ServerMsg::Archive { game, start, moves }))
        }
        Query::RatedBefore { room, game_no } => {
            let row = conn
                .prepare_cached(
                    "SELECT first_before, second_before FROM games
                     WHERE room = ?1 AND game_no = ?2 AND counted = 1",
                )
                .and_then(|mut st| {
                    st.query_row(params![room, game_no], |r| {
                        Ok((r.get::<_, Option<f64>>(0)?, r.get::<_, Option<f64>>(1)?))
                    })
                    .optional()
                })
                .map_err(db)?;
            Answer::Before(before(row))
        }
    })
}

/// Each side's rating before a counted game, as shown (both known).
pub(crate) fn before(row: Option<(Option<f64>, Option<f64>)>) -> Option<[u32; 2]> {
    match row {
        Some((Some(a), Some(b))) => Some([players::shown(a) as u32, players::shown(b) as u32]),
        _ => None,
    }
}

/// What a connection asks of the players' tables.
#[derive(Clone, Debug)]
pub enum PlayerJob {
    /// A new identity: its fresh public id and secret, its checked name.
    Register {
        id: String,
        secret: String,
        name: Name,
    },
    /// The identity whose secret this is (already parsed).
    Identify { secret: String },
    /// A new name for identity `id`, at most once per `every_ms`
    /// (`Config::rename_every`, a day: [`players::RENAME_EVERY_MS`]).
    Rename {
        id: String,
        name: Name,
        every_ms: u64,
    },
}

/// An identity as its connection knows it: who, and their standings.
#[derive(Clone, Debug)]
pub struct Known {
    pub player: Player,
    pub standings: Vec<Standing>,
}

/// Does `job` on SQLite, in one transaction.
fn player_job(conn: &mut Connection, job: PlayerJob, now_ms: u64) -> Result<Known, PlayerError> {
    let tx = conn
        .transaction()
        .map_err(|e| PlayerError::Db(e.to_string()))?;
    let id = match job {
        PlayerJob::Register { id, secret, name } => {
            players::sqlite::register(&tx, &id, &secret, &name, now_ms)?;
            id
        }
        PlayerJob::Identify { secret } => {
            players::sqlite::identify(&tx, &secret)?
                .ok_or(PlayerError::NoSuchPlayer)?
                .id
        }
        PlayerJob::Rename { id, name, every_ms } => {
            players::sqlite::rename(&tx, &id, &name, now_ms, every_ms)?;
            id
        }
    };
    let player = players::sqlite::find(&tx, &id)?.ok_or(PlayerError::NoSuchPlayer)?;
    let standings = players::sqlite::standings(&tx, &id)?;
    tx.commit().map_err(|e| PlayerError::Db(e.to_string()))?;
    Ok(Known { player, standings })
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
CREATE INDEX IF NOT EXISTS rooms_waiting ON rooms(updated_ms)
    WHERE finished = 0 AND json_extract(meta, '$.tokens[1]') IS NULL;
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
        // The lock file older servers take (see LOCK_FILE).
        let lock_path = dir.join(LOCK_FILE);
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
        lock_exclusively(&lock, dir, &lock_path)?;
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
        // One server per directory: two would resume the same games and
        // write moves at the same plies. The lock is on the database file
        // itself, which no stale-lock cleanup deletes.
        let db_lock = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        lock_exclusively(&db_lock, dir, &path)?;
        let conn =
            Connection::open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        // The lock timeout: no other writer exists, so a busy database is a
        // stuck one; answer within the room's deadline.
        conn.busy_timeout(Duration::from_millis(1000))
            .and_then(|()| conn.pragma_update(None, "journal_mode", "WAL"))
            .and_then(|()| conn.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|()| conn.execute_batch(SCHEMA))
            .and_then(|()| conn.execute_batch(players::schema::SQLITE))
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
        let heartbeat = Heartbeat::start(&dir.join(ALIVE_FILE))?;
        let runs = Runs {
            started_ms: now_ms(),
            previous_alive_ms: heartbeat.previous,
        };
        let (tx, rx) = mpsc::channel(4096);
        let locks = (lock, db_lock);
        std::thread::Builder::new()
            .name("store".into())
            .spawn(move || run(conn, locks, heartbeat, runs, rx, &path, file))
            .map_err(|e| format!("cannot start the store thread: {e}"))?;
        Ok(Store { tx })
    }

    /// Sends `op` and waits for its answer, at most `deadline` in all (a
    /// full queue included): a store that does not answer is a failed one.
    async fn ask<T>(
        &self,
        deadline: Duration,
        op: impl FnOnce(Reply<T>) -> Op,
    ) -> Result<T, String> {
        let (done, rx) = oneshot::channel();
        let asked = async {
            self.tx
                .send(op(done))
                .await
                .map_err(|_| "the store is closed".to_string())?;
            rx.await
                .map_err(|_| "the store gave no answer (closed, or it gave up)".to_string())?
        };
        tokio::time::timeout(deadline, asked)
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "the store did not answer within {} ms",
                    deadline.as_millis()
                ))
            })
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
        self.save_game(code, meta, create, moves, None)
            .await
            .map(|_| ())
    }

    /// [`Store::save`], and when `game` is given (the room's game has just
    /// finished) records it with the players' new ratings in the same
    /// transaction (issue 37): both commit or neither. Returns the ratings
    /// before and after when the game counted.
    pub async fn save_game(
        &self,
        code: &str,
        meta: &RoomMeta,
        create: bool,
        moves: Vec<(u32, String)>,
        game: Option<FinishedGame>,
    ) -> Result<Option<Counted>, String> {
        let json = serde_json::to_string(meta).map_err(|e| e.to_string())?;
        self.ask(STORE_DEADLINE, |done| Op::Save {
            code: code.to_string(),
            create,
            finished: meta.outcome.is_some(),
            meta: json,
            game_no: meta.game_no,
            moves,
            game: game.map(Box::new),
            done,
        })
        .await
    }

    /// Reads players, pages, the leaderboard or a finished game; the outer
    /// error is the store's failure, the inner one the refusal.
    pub async fn query(&self, query: Query) -> Result<Result<Answer, PlayerError>, String> {
        let now_ms = now_ms();
        self.ask(STORE_DEADLINE, |done| Op::Query {
            query,
            now_ms,
            done,
        })
        .await
    }

    /// One room, if it exists.
    pub async fn load(&self, code: &str) -> Result<Option<Stored>, String> {
        let code = code.to_string();
        self.ask(STORE_DEADLINE, |done| Op::Load { code, done })
            .await
    }

    /// The codes of every room whose game has started and is not finished
    /// (what a restart resumes: their clocks run). Rooms still waiting for
    /// the friend are loaded only when someone asks for them.
    pub async fn unfinished(&self) -> Result<Vec<String>, String> {
        self.ask(BULK_DEADLINE, |done| Op::Unfinished { done })
            .await
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
        self.ask(BULK_DEADLINE, |done| Op::Expire {
            cutoff_ms,
            code,
            done,
        })
        .await
    }

    /// How many rooms wait for the friend (the whole store's).
    pub async fn count_waiting(&self) -> Result<usize, String> {
        self.ask(STORE_DEADLINE, |done| Op::CountWaiting { done })
            .await
    }

    /// Does a player operation; the outer error is the store's failure
    /// (no answer in time), the inner one the player's refusal.
    pub async fn player(&self, job: PlayerJob) -> Result<Result<Known, PlayerError>, String> {
        let now_ms = now_ms();
        self.ask(STORE_DEADLINE, |done| Op::Player { job, now_ms, done })
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

/// Takes an exclusive `flock` on `file` (of the data directory `dir`),
/// trying for a second: a server that has just stopped may release it a
/// moment late (a process being spawned holds a copy of its descriptors
/// until it execs).
fn lock_exclusively(file: &std::fs::File, dir: &Path, path: &Path) -> Result<(), String> {
    let mut tries = 0;
    let locked = loop {
        match file.try_lock() {
            Err(std::fs::TryLockError::WouldBlock) if tries < 20 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            other => break other,
        }
    };
    match locked {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "the data directory {} is in use by another running server (it holds the lock on {}): stop that server first, or give this one another --data",
            dir.display(),
            path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("cannot lock {}: {e}", path.display()))
        }
    }
}

/// The heartbeat file (see the module header): the stamp found there at
/// start, and the thread that writes the time into it.
struct Heartbeat {
    previous: Option<u64>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Heartbeat {
    /// Reads the last stamp, writes the first one (so the file's block is
    /// there before any disk fills) and starts writing one every
    /// [`ALIVE_EVERY`], in place.
    fn start(path: &Path) -> Result<Heartbeat, String> {
        let previous = std::fs::read(path).ok().and_then(|b| {
            let bytes: [u8; 8] = b.get(..8)?.try_into().ok()?;
            Some(u64::from_le_bytes(bytes)).filter(|&ms| ms > 0)
        });
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        stamp(&file).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let thread = std::thread::Builder::new()
            .name("heartbeat".into())
            .spawn(move || {
                while !stopping.load(Ordering::Relaxed) {
                    // A failed stamp (a read-only disk) leaves the last one.
                    let _ = stamp(&file);
                    std::thread::park_timeout(ALIVE_EVERY);
                }
                let _ = stamp(&file);
            })
            .map_err(|e| format!("cannot start the heartbeat thread: {e}"))?;
        Ok(Heartbeat {
            previous,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Heartbeat {
    /// Stops the thread (after one last stamp).
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

/// Writes the time (8 bytes, little-endian ms) at the start of `file`.
fn stamp(file: &std::fs::File) -> std::io::Result<()> {
    let bytes = now_ms().to_le_bytes();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.write_all_at(&bytes, 0)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = file;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&bytes)
    }
}

/// Serves the store's operations until closed. The locks are held until
/// the database is closed, and released before `close` is answered, so a
/// server started right after another has stopped finds the directory free.
fn run(
    mut conn: Connection,
    locks: (std::fs::File, std::fs::File),
    heartbeat: Heartbeat,
    runs: Runs,
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
                    let _ = done.send(load(&conn, &code, &runs).map_err(|e| e.to_string()));
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
                Op::CountWaiting { done } => {
                    let _ = done.send(count_waiting(&conn).map_err(|e| e.to_string()));
                }
                Op::Player { job, now_ms, done } => {
                    let _ = done.send(Ok(player_job(&mut conn, job, now_ms)));
                }
                Op::Query {
                    query: q,
                    now_ms,
                    done,
                } => {
                    let _ = done.send(Ok(query(&conn, q, now_ms)));
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
            drop(heartbeat);
            drop(locks);
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
    let together = conn
        .transaction()
        .map_err(|e| e.to_string())
        .and_then(|tx| {
            let mut counted = Vec::with_capacity(saves.len());
            for op in &saves {
                counted.push(write(&tx, op)?);
            }
            tx.commit().map_err(|e| e.to_string())?;
            Ok(counted)
        });
    if let Ok(counted) = together {
        for (op, c) in saves.into_iter().zip(counted) {
            if let Op::Save { done, .. } = op {
                let _ = done.send(Ok(c));
            }
        }
        return;
    }
    for op in saves {
        let result = conn
            .transaction()
            .map_err(|e| e.to_string())
            .and_then(|tx| {
                let c = write(&tx, &op)?;
                tx.commit().map_err(|e| e.to_string())?;
                Ok(c)
            })
            .map_err(|e| {
                if e.starts_with(PLY_TAKEN) {
                    e
                } else {
                    format!("storing the room failed: {e}")
                }
            });
        if let Op::Save { done, .. } = op {
            let _ = done.send(result);
        }
    }
}

/// What a refused ply says: where, and which two moves.
pub(crate) fn ply_taken(code: &str, game_no: u32, ply: u32, stored: &str, mv: &str) -> String {
    format!(
        "{PLY_TAKEN}: room {code}, game {game_no}, ply {ply} holds {stored}, not {mv} (is another server writing to this database?)"
    )
}

fn write(conn: &Connection, op: &Op) -> Result<Option<Counted>, String> {
    let Op::Save {
        code,
        create,
        finished,
        meta,
        game_no,
        moves,
        game,
        ..
    } = op
    else {
        return Ok(None);
    };
    let sql = if *create {
        "INSERT INTO rooms (code, finished, updated_ms, meta) VALUES (?1, ?2, ?3, ?4)"
    } else {
        "INSERT INTO rooms (code, finished, updated_ms, meta) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(code) DO UPDATE SET finished = ?2, updated_ms = ?3, meta = ?4"
    };
    let err = |e: rusqlite::Error| e.to_string();
    conn.prepare_cached(sql)
        .map_err(err)?
        .execute(params![code, finished, now_ms() as i64, meta])
        .map_err(err)?;
    // A ply already stored is kept: the same move again changes nothing
    // (counted as one change), another move changes nothing (0) and is
    // refused.
    let mut insert = conn
        .prepare_cached(
            "INSERT INTO moves (room, game_no, ply, mv) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (room, game_no, ply) DO UPDATE SET mv = excluded.mv
             WHERE moves.mv = excluded.mv",
        )
        .map_err(err)?;
    for (ply, mv) in moves {
        if insert
            .execute(params![code, game_no, ply, mv])
            .map_err(err)?
            == 0
        {
            let stored: String = conn
                .query_row(
                    "SELECT mv FROM moves WHERE room = ?1 AND game_no = ?2 AND ply = ?3",
                    params![code, game_no, ply],
                    |row| row.get(0),
                )
                .map_err(err)?;
            return Err(ply_taken(code, *game_no, *ply, &stored, mv));
        }
    }
    // The finished game and its ratings, in this same transaction. A game
    // recorded already (a write whose answer was lost, tried again) is
    // left as it is: the ratings move once.
    match game {
        None => Ok(None),
        Some(g) => match players::sqlite::record(conn, g) {
            Ok(counted) => Ok(counted),
            Err(PlayerError::Conflict(_)) => Ok(None),
            Err(e) => Err(format!("recording the finished game failed: {e}")),
        },
    }
}

fn stored(
    conn: &Connection,
    code: String,
    meta: &str,
    runs: &Runs,
) -> rusqlite::Result<Option<Stored>> {
    let Ok(meta) = serde_json::from_str::<RoomMeta>(meta) else {
        eprintln!("server: room {code} has an unreadable record; skipped");
        return Ok(None);
    };
    let mut stmt =
        conn.prepare_cached("SELECT mv FROM moves WHERE room = ?1 AND game_no = ?2 ORDER BY ply")?;
    let moves = stmt
        .query_map(params![code, meta.game_no], |row| row.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    let ran_until_ms = runs.ran_until(meta.clock_saved_ms);
    Ok(Some(Stored {
        code,
        meta,
        moves,
        ran_until_ms,
    }))
}

fn load(conn: &Connection, code: &str, runs: &Runs) -> rusqlite::Result<Option<Stored>> {
    let meta: Option<String> = conn
        .prepare_cached("SELECT meta FROM rooms WHERE code = ?1")?
        .query_row(params![code], |row| row.get(0))
        .optional()?;
    match meta {
        Some(meta) => stored(conn, code.to_string(), &meta, runs),
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

fn count_waiting(conn: &Connection) -> rusqlite::Result<usize> {
    conn.prepare_cached(&format!(
        "SELECT count(*) FROM rooms WHERE finished = 0 AND {WAITING}"
    ))?
    .query_row([], |row| row.get::<_, i64>(0))
    .map(|n| n as usize)
}

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

#[cfg(test)]
mod tests {
    use super::Runs;

    #[test]
    fn a_clock_runs_until_the_last_heartbeat_of_the_server_that_saved_it() {
        // The server before beat last at 10,000; this one started at 15,000.
        let runs = Runs {
            started_ms: 15_000,
            previous_alive_ms: Some(10_000),
        };
        assert_eq!(runs.ran_until(Some(9_000)), Some(10_000));
        assert_eq!(runs.ran_until(Some(15_100)), None, "saved by this one");
        assert_eq!(runs.ran_until(None), None, "no clock was running");
        // No heartbeat known: nothing after the save is charged.
        let unknown = Runs {
            started_ms: 15_000,
            previous_alive_ms: None,
        };
        assert_eq!(unknown.ran_until(Some(9_000)), Some(9_000));
    }
}
