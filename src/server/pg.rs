//! The store on PostgreSQL (feature `cluster`, `server --database
//! postgres://…`): the same operations and guarantees as the SQLite store
//! of [`super::store`], served by one task that owns a connection.
//!
//! The task commits whatever is queued in one transaction (group commit)
//! and only then acknowledges, so a room broadcasts a move only once it is
//! stored; PostgreSQL's default `synchronous_commit = on` makes a commit
//! durable. A lost connection is opened again at the next operation; until
//! then every write fails, so the rooms refuse instead of announcing.
//!
//! Who may write (see [`Writer`]): a single server holds the database alone
//! (an exclusive advisory lock, as the SQLite store locks its directory);
//! the nodes of a cluster share it (a shared advisory lock, so a single
//! server and a cluster never mix) and each writes only the rooms whose
//! lease it holds (see [`super::cluster`]): a node that lost a room to
//! another cannot store into it any more (fencing).

use std::time::Duration;

use tokio::sync::mpsc;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls, Statement};

use super::store::{now_ms, Op, RoomMeta, Store, Stored};

/// The tables. `leases`, `nodes` and `queue` are the cluster's (see
/// [`super::cluster`]); a single server leaves them empty.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    finished BOOLEAN NOT NULL,
    updated_ms BIGINT NOT NULL,
    meta TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms (code) WHERE NOT finished;
CREATE TABLE IF NOT EXISTS moves (
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    PRIMARY KEY (room, game_no, ply)
);
CREATE TABLE IF NOT EXISTS nodes (
    id TEXT PRIMARY KEY,
    alive_until TIMESTAMPTZ NOT NULL,
    draining BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE IF NOT EXISTS leases (
    room TEXT PRIMARY KEY,
    node TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_node ON leases (node);
CREATE TABLE IF NOT EXISTS queue (
    key TEXT NOT NULL,
    node TEXT NOT NULL,
    conn BIGINT NOT NULL,
    since TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (node, conn)
);
CREATE INDEX IF NOT EXISTS queue_key ON queue (key, since);
";

/// The advisory lock that says who uses the database (see [`Writer`]).
const USE_LOCK: i64 = 0x5354_4f4e_4550_4c41;
/// Held while the schema is set up, so nodes starting together do not race.
const SCHEMA_LOCK: i64 = USE_LOCK + 1;

/// What a room write is told when its node no longer holds the room.
pub const LEASE_LOST: &str =
    "storing failed: another server node referees this room now (this node lost its lease)";

/// Who may write.
#[derive(Clone, Debug)]
pub enum Writer {
    /// One server holds the database alone.
    Alone,
    /// A cluster node (its id): it writes the rooms it holds the lease of.
    Node(String),
}

/// A database error as a short message ("UNIQUE" in it for a duplicate key,
/// which the hub reads as a room code drawn twice).
pub fn pg_error(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) if *d.code() == SqlState::UNIQUE_VIOLATION => {
            format!("UNIQUE constraint failed: {}", d.message())
        }
        Some(d) => format!("database error: {}", d.message()),
        None if e.is_closed() => "the database connection is closed".into(),
        None => format!("database error: {e}"),
    }
}

/// Opens a connection (3 s to connect), its driver running as a task. The
/// URL is never echoed: it may hold a password.
pub async fn connect(url: &str) -> Result<Client, String> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| format!("--database is not a PostgreSQL URL: {e}"))?;
    config.connect_timeout(Duration::from_secs(3));
    if config.get_application_name().is_none() {
        config.application_name("stoneplay");
    }
    let (client, connection) = config
        .connect(NoTls)
        .await
        .map_err(|e| format!("cannot reach the database: {e}"))?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(client)
}

/// Creates the tables if needed (one node at a time).
pub async fn setup(client: &Client) -> Result<(), String> {
    client
        .batch_execute(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {SCHEMA} COMMIT;"
        ))
        .await
        .map_err(|e| format!("cannot set up the database: {}", pg_error(&e)))
}

/// Takes the use lock on this connection (held until it closes).
async fn take_lock(client: &Client, writer: &Writer) -> Result<(), String> {
    let (sql, why) = match writer {
        Writer::Alone => (
            "SELECT pg_try_advisory_lock($1)",
            "the database is in use by another server (a single server or cluster nodes): stop it first, or start every node with --bus to share the database",
        ),
        Writer::Node(_) => (
            "SELECT pg_try_advisory_lock_shared($1)",
            "the database is in use by a single server (started without --bus): stop it first",
        ),
    };
    let row = client
        .query_one(sql, &[&USE_LOCK])
        .await
        .map_err(|e| pg_error(&e))?;
    if row.get::<_, bool>(0) {
        Ok(())
    } else {
        Err(why.into())
    }
}

/// The statements a connection prepares once.
struct Conn {
    client: Client,
    st: Stmts,
}

struct Stmts {
    create: Statement,
    upsert: Statement,
    fenced: Statement,
    lease: Statement,
    mv: Statement,
    meta: Statement,
    moves: Statement,
}

impl Conn {
    async fn open(url: &str, writer: &Writer) -> Result<Conn, String> {
        let client = connect(url).await?;
        take_lock(&client, writer).await?;
        let prep = |sql: &'static str| {
            let client = &client;
            async move { client.prepare(sql).await.map_err(|e| pg_error(&e)) }
        };
        let create =
            prep("INSERT INTO rooms (code, finished, updated_ms, meta) VALUES ($1, $2, $3, $4)")
                .await?;
        let upsert = prep(
            "INSERT INTO rooms (code, finished, updated_ms, meta) VALUES ($1, $2, $3, $4)
             ON CONFLICT (code) DO UPDATE SET finished = $2, updated_ms = $3, meta = $4",
        )
        .await?;
        let fenced = prep(
            "UPDATE rooms SET finished = $2, updated_ms = $3, meta = $4
             WHERE code = $1 AND EXISTS (SELECT 1 FROM leases WHERE room = $1 AND node = $5)",
        )
        .await?;
        let lease = prep(
            "INSERT INTO leases (room, node) VALUES ($1, $2)
             ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node",
        )
        .await?;
        let mv = prep(
            "INSERT INTO moves (room, game_no, ply, mv) VALUES ($1, $2, $3, $4)
             ON CONFLICT (room, game_no, ply) DO UPDATE SET mv = EXCLUDED.mv",
        )
        .await?;
        let meta = prep("SELECT meta FROM rooms WHERE code = $1").await?;
        let moves =
            prep("SELECT mv FROM moves WHERE room = $1 AND game_no = $2 ORDER BY ply").await?;
        Ok(Conn {
            client,
            st: Stmts {
                create,
                upsert,
                fenced,
                lease,
                mv,
                meta,
                moves,
            },
        })
    }
}

/// Connects, sets up the tables, takes the use lock and starts the task.
pub async fn open(url: &str, writer: Writer) -> Result<Store, String> {
    let first = connect(url).await?;
    setup(&first).await?;
    drop(first);
    let conn = Conn::open(url, &writer).await?;
    let (tx, rx) = mpsc::channel(4096);
    tokio::spawn(run(url.to_string(), writer, conn, rx));
    Ok(Store::from_sender(tx))
}

async fn run(url: String, writer: Writer, conn: Conn, mut rx: mpsc::Receiver<Op>) {
    let mut conn = Some(conn);
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        if conn.as_ref().is_none_or(|c| c.client.is_closed()) {
            conn = None;
            match Conn::open(&url, &writer).await {
                Ok(c) => {
                    eprintln!("server: connected to the database again");
                    conn = Some(c);
                }
                Err(e) => {
                    let why = format!("storing failed: {e}");
                    for op in batch {
                        match op {
                            Op::Save { done, .. } => drop(done.send(Err(why.clone()))),
                            Op::Load { done, .. } => drop(done.send(Err(why.clone()))),
                            Op::Unfinished { done } => drop(done.send(Err(why.clone()))),
                            Op::Expire { done, .. } => drop(done.send(Err(why.clone()))),
                            Op::Close { done } => {
                                let _ = done.send(());
                                return;
                            }
                        }
                    }
                    continue;
                }
            }
        }
        let Some(c) = conn.as_mut() else { continue };
        let mut saves = Vec::new();
        let mut close = None;
        for op in batch {
            match op {
                Op::Save { .. } => saves.push(op),
                Op::Load { code, done } => {
                    let _ = done.send(load(c, &code).await);
                }
                Op::Unfinished { done } => {
                    let _ = done.send(unfinished(c).await);
                }
                Op::Expire {
                    cutoff_ms,
                    code,
                    done,
                } => {
                    let _ = done.send(expire_waiting(c, cutoff_ms, code.as_deref()).await);
                }
                Op::Close { done } => close = Some(done),
            }
        }
        write_batch(c, saves, &writer).await;
        if let Some(done) = close {
            drop(conn);
            let _ = done.send(());
            return;
        }
    }
}

/// Commits every save in one transaction; if that fails, each on its own,
/// so one bad write (a lost lease, a duplicate code) does not fail the others.
async fn write_batch(c: &mut Conn, saves: Vec<Op>, writer: &Writer) {
    if saves.is_empty() {
        return;
    }
    let together = async {
        let tx = c.client.transaction().await.map_err(|e| pg_error(&e))?;
        for op in &saves {
            write(&tx, &c.st, op, writer).await?;
        }
        tx.commit().await.map_err(|e| pg_error(&e))
    }
    .await;
    if together.is_ok() {
        for op in saves {
            if let Op::Save { done, .. } = op {
                let _ = done.send(Ok(()));
            }
        }
        return;
    }
    for op in saves {
        let result = async {
            let tx = c.client.transaction().await.map_err(|e| pg_error(&e))?;
            write(&tx, &c.st, &op, writer).await?;
            tx.commit().await.map_err(|e| pg_error(&e))
        }
        .await
        .map_err(|e| {
            if e == LEASE_LOST || e.starts_with("UNIQUE") {
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

async fn write(
    tx: &tokio_postgres::Transaction<'_>,
    st: &Stmts,
    op: &Op,
    writer: &Writer,
) -> Result<(), String> {
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
    let now = now_ms() as i64;
    let err = |e: tokio_postgres::Error| pg_error(&e);
    if *create {
        tx.execute(&st.create, &[code, finished, &now, meta])
            .await
            .map_err(err)?;
        if let Writer::Node(node) = writer {
            tx.execute(&st.lease, &[code, node]).await.map_err(err)?;
        }
    } else {
        match writer {
            Writer::Alone => {
                tx.execute(&st.upsert, &[code, finished, &now, meta])
                    .await
                    .map_err(err)?;
            }
            Writer::Node(node) => {
                let n = tx
                    .execute(&st.fenced, &[code, finished, &now, meta, node])
                    .await
                    .map_err(err)?;
                if n == 0 {
                    return Err(LEASE_LOST.into());
                }
            }
        }
    }
    let game_no = *game_no as i32;
    for (ply, m) in moves {
        let ply = *ply as i32;
        tx.execute(&st.mv, &[code, &game_no, &ply, m])
            .await
            .map_err(err)?;
    }
    Ok(())
}

async fn stored(c: &Conn, code: String, meta: &str) -> Result<Option<Stored>, String> {
    let Ok(meta) = serde_json::from_str::<RoomMeta>(meta) else {
        eprintln!("server: room {code} has an unreadable record; skipped");
        return Ok(None);
    };
    let game_no = meta.game_no as i32;
    let moves = c
        .client
        .query(&c.st.moves, &[&code, &game_no])
        .await
        .map_err(|e| pg_error(&e))?
        .iter()
        .map(|row| row.get::<_, String>(0))
        .collect();
    Ok(Some(Stored { code, meta, moves }))
}

async fn load(c: &Conn, code: &str) -> Result<Option<Stored>, String> {
    let row = c
        .client
        .query_opt(&c.st.meta, &[&code])
        .await
        .map_err(|e| pg_error(&e))?;
    match row {
        Some(row) => stored(c, code.to_string(), row.get(0)).await,
        None => Ok(None),
    }
}

/// A room whose second seat is empty: waiting for the friend.
const WAITING: &str = "(meta::jsonb #> '{tokens,1}') = 'null'::jsonb";

/// The codes of the started, unfinished rooms (what a restart resumes).
async fn unfinished(c: &Conn) -> Result<Vec<String>, String> {
    let sql = format!("SELECT code FROM rooms WHERE NOT finished AND NOT {WAITING}");
    let rows = c.client.query(&sql, &[]).await.map_err(|e| pg_error(&e))?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Deletes the rooms waiting for the friend last written before
/// `cutoff_ms` (all, or only `code`), with their leases.
async fn expire_waiting(c: &Conn, cutoff_ms: u64, code: Option<&str>) -> Result<usize, String> {
    let sql = format!(
        "WITH gone AS (DELETE FROM rooms WHERE NOT finished AND {WAITING}
            AND updated_ms < $1 AND ($2::TEXT IS NULL OR code = $2) RETURNING code),
         leases_gone AS (DELETE FROM leases WHERE room IN (SELECT code FROM gone))
         SELECT count(*) FROM gone"
    );
    let row = c
        .client
        .query_one(&sql, &[&(cutoff_ms as i64), &code])
        .await
        .map_err(|e| pg_error(&e))?;
    Ok(row.get::<_, i64>(0) as usize)
}
