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
//!
//! Nothing waits on the database without a deadline (issue 33: with
//! PostgreSQL stopped by SIGSTOP every game froze without a word, the
//! slowest move for 10.01 s). Every connection asks the server for a
//! statement timeout and a lock timeout ([`SESSION_LIMITS`]); a server
//! that does not run at all enforces neither, so each batch of operations
//! also has a deadline here ([`BATCH_DEADLINE`]), and connecting one
//! ([`CONNECT_DEADLINE`]). A batch past its deadline fails, its
//! connection is dropped, and for [`RETRY_AFTER`] operations fail at once
//! instead of queueing behind another attempt: a player hears "the server
//! cannot store games right now" within 2 s. A commit whose answer was
//! lost may have happened: storing the same move again is a no-op, and a
//! different move at a stored ply is refused (the room then reloads).
//!
//! Each writer (a node, or one run of a single server: its id is new at
//! each start) stamps the time into `alive` every second, and each room
//! row names the writer that saved it (`saved_by`): a clock loaded is
//! charged the time up to that writer's last stamp, not the downtime or
//! the takeover after it (see [`super::store::Stored::ran_until_ms`]).

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_postgres::{Client, NoTls, Statement};

pub use super::pg_error::pg_error;
use super::players::PlayerError;
use super::store::{
    now_ms, ply_taken, Answer, Counted, Known, Op, PlayerJob, Query, RoomMeta, Store, Stored,
    PLY_TAKEN,
};
use crate::protocol::online::{PlayerTag, ServerMsg};

/// What every connection asks of the server: no statement runs longer
/// than 1.5 s, no lock is waited for longer than 1 s, and a transaction a
/// vanished client left open is ended after 10 s. Options in the
/// `--database` URL are given after these, so an operator may lower them
/// (raising them past [`BATCH_DEADLINE`] changes nothing: the node gives
/// up first).
pub const SESSION_LIMITS: &str =
    "-c statement_timeout=1500 -c lock_timeout=1000 -c idle_in_transaction_session_timeout=10000";
/// Connecting (TCP, startup, authentication) at most this long: a stopped
/// server's kernel still accepts the TCP connection.
pub const CONNECT_DEADLINE: Duration = Duration::from_millis(1000);
/// One batch of operations at most this long.
pub const BATCH_DEADLINE: Duration = Duration::from_millis(1300);
/// After a failure, operations fail at once for this long.
pub const RETRY_AFTER: Duration = Duration::from_millis(1000);
/// How often each writer stamps `alive`.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// The tables. `leases`, `nodes` and `queue` are the cluster's (see
/// [`super::cluster`]); a single server leaves them empty. A rated
/// seeker's `queue` row also holds who they are and what pairing by
/// rating needs (`player`, `rating`, `provisional`, `widen_every_ms`;
/// `since` is when they started waiting); a casual one leaves them null.
/// Columns added later are added with `ADD COLUMN IF NOT EXISTS`, so an
/// existing database is brought up to date at a node's start.
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    finished BOOLEAN NOT NULL,
    updated_ms BIGINT NOT NULL,
    meta TEXT NOT NULL
);
ALTER TABLE rooms ADD COLUMN IF NOT EXISTS saved_by TEXT;
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms (code) WHERE NOT finished;
CREATE INDEX IF NOT EXISTS rooms_waiting ON rooms (updated_ms)
    WHERE NOT finished AND (meta::jsonb #> '{tokens,1}') = 'null'::jsonb;
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
ALTER TABLE queue ADD COLUMN IF NOT EXISTS player TEXT;
ALTER TABLE queue ADD COLUMN IF NOT EXISTS rating INTEGER;
ALTER TABLE queue ADD COLUMN IF NOT EXISTS provisional BOOLEAN;
ALTER TABLE queue ADD COLUMN IF NOT EXISTS widen_every_ms BIGINT;
CREATE TABLE IF NOT EXISTS alive (
    id TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
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

/// Opens a connection (within [`CONNECT_DEADLINE`], with the
/// [`SESSION_LIMITS`]), its driver running as a task. The URL is never
/// echoed: it may hold a password.
pub async fn connect(url: &str) -> Result<Client, String> {
    let mut config: tokio_postgres::Config = url
        .parse()
        .map_err(|e| format!("--database is not a PostgreSQL URL: {e}"))?;
    config.connect_timeout(CONNECT_DEADLINE);
    if config.get_application_name().is_none() {
        config.application_name("stoneplay");
    }
    let options = match config.get_options() {
        // The operator's own (`?options=-c%20statement_timeout%3D800` in
        // the URL) come last, so they win.
        Some(o) if !o.is_empty() => format!("{SESSION_LIMITS} {o}"),
        _ => SESSION_LIMITS.to_string(),
    };
    config.options(&options);
    let connecting = tokio::time::timeout(CONNECT_DEADLINE, config.connect(NoTls));
    let (client, connection) = connecting
        .await
        .map_err(|_| "cannot reach the database: it does not answer".to_string())?
        .map_err(|e| format!("cannot reach the database: {e}"))?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(client)
}

/// `fut` (a database call) within `deadline`; past it, an error that says
/// so (the caller drops the connection: its state is unknown).
pub async fn within<T>(
    deadline: Duration,
    fut: impl std::future::Future<Output = Result<T, tokio_postgres::Error>>,
) -> Result<T, String> {
    match tokio::time::timeout(deadline, fut).await {
        Ok(r) => r.map_err(|e| pg_error(&e)),
        Err(_) => Err(format!(
            "the database did not answer within {} ms",
            deadline.as_millis()
        )),
    }
}

/// Creates the tables if needed (one node at a time; a start may wait a
/// few seconds for another node's, without the lock timeout).
pub async fn setup(client: &Client) -> Result<(), String> {
    let sql = format!(
        "BEGIN; SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 30000; \
         SELECT pg_advisory_xact_lock({SCHEMA_LOCK}); {SCHEMA} {} COMMIT;",
        super::players::schema::POSTGRES
    );
    within(Duration::from_secs(30), client.batch_execute(&sql))
        .await
        .map_err(|e| format!("cannot set up the database: {e}"))
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
    let row = within(CONNECT_DEADLINE, client.query_one(sql, &[&USE_LOCK])).await?;
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
    mv_at: Statement,
    meta: Statement,
    moves: Statement,
    alive: Statement,
}

impl Conn {
    async fn open(url: &str, writer: &Writer) -> Result<Conn, String> {
        let client = connect(url).await?;
        take_lock(&client, writer).await?;
        let prep = |sql: &'static str| {
            let client = &client;
            async move { within(CONNECT_DEADLINE, client.prepare(sql)).await }
        };
        let create = prep(
            "INSERT INTO rooms (code, finished, updated_ms, meta, saved_by)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .await?;
        let upsert = prep(
            "INSERT INTO rooms (code, finished, updated_ms, meta, saved_by)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (code) DO UPDATE SET finished = $2, updated_ms = $3, meta = $4,
                 saved_by = $5",
        )
        .await?;
        let fenced = prep(
            "UPDATE rooms SET finished = $2, updated_ms = $3, meta = $4, saved_by = $5
             WHERE code = $1 AND EXISTS (SELECT 1 FROM leases WHERE room = $1 AND node = $5)",
        )
        .await?;
        let lease = prep(
            "INSERT INTO leases (room, node) VALUES ($1, $2)
             ON CONFLICT (room) DO UPDATE SET node = EXCLUDED.node",
        )
        .await?;
        // A stored ply is kept: the same move again is a no-op (1 row), a
        // different one changes nothing (0 rows) and is refused.
        let mv = prep(
            "INSERT INTO moves (room, game_no, ply, mv) VALUES ($1, $2, $3, $4)
             ON CONFLICT (room, game_no, ply) DO UPDATE SET mv = EXCLUDED.mv
             WHERE moves.mv = EXCLUDED.mv",
        )
        .await?;
        let mv_at =
            prep("SELECT mv FROM moves WHERE room = $1 AND game_no = $2 AND ply = $3").await?;
        let meta = prep(
            "SELECT r.meta, r.saved_by, a.at_ms FROM rooms r
             LEFT JOIN alive a ON a.id = r.saved_by WHERE r.code = $1",
        )
        .await?;
        let moves =
            prep("SELECT mv FROM moves WHERE room = $1 AND game_no = $2 ORDER BY ply").await?;
        let alive = prep(
            "INSERT INTO alive (id, at_ms) VALUES ($1, $2)
             ON CONFLICT (id) DO UPDATE SET at_ms = EXCLUDED.at_ms",
        )
        .await?;
        Ok(Conn {
            client,
            st: Stmts {
                create,
                upsert,
                fenced,
                lease,
                mv,
                mv_at,
                meta,
                moves,
                alive,
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
    // This writer's row in `alive` (and in `rooms.saved_by`): a node's id,
    // or a new one for each run of a single server.
    let me = match &writer {
        Writer::Alone => format!("alone-{}", super::ids::random(4)?),
        Writer::Node(id) => id.clone(),
    };
    // Stamps of writers gone for a week are cleared.
    let week = 7 * 24 * 3600 * 1000;
    within(
        CONNECT_DEADLINE,
        conn.client.execute(
            "DELETE FROM alive WHERE at_ms < $1",
            &[&(now_ms() as i64 - week)],
        ),
    )
    .await?;
    let (tx, rx) = mpsc::channel(4096);
    tokio::spawn(run(url.to_string(), writer, me, conn, rx));
    Ok(Store::from_sender(tx))
}

/// The task's connection and what it knows of the last failure.
struct Link {
    conn: Option<Conn>,
    /// Until then, operations fail at once with `why`.
    quiet_until: Option<Instant>,
    why: String,
}

impl Link {
    /// The connection, opened again if it was lost (at most once per
    /// [`RETRY_AFTER`]); the error to answer with otherwise.
    async fn get(&mut self, url: &str, writer: &Writer) -> Result<&mut Conn, String> {
        if self.conn.as_ref().is_some_and(|c| c.client.is_closed()) {
            self.conn = None;
        }
        if self.conn.is_none() {
            if self.quiet_until.is_some_and(|t| Instant::now() < t) {
                return Err(self.why.clone());
            }
            // Connecting, the lock and the statements: a few round trips.
            let opening = tokio::time::timeout(2 * CONNECT_DEADLINE, Conn::open(url, writer));
            match opening
                .await
                .unwrap_or_else(|_| Err("cannot reach the database: it does not answer".into()))
            {
                Ok(c) => {
                    eprintln!("server: connected to the database again");
                    self.conn = Some(c);
                    self.quiet_until = None;
                }
                Err(e) => return Err(self.failed(format!("storing failed: {e}"))),
            }
        }
        self.conn
            .as_mut()
            .ok_or_else(|| "no database connection".to_string())
    }

    /// Drops the connection (its state is unknown) and fails what comes
    /// for a while with `why`.
    fn failed(&mut self, why: String) -> String {
        self.conn = None;
        self.quiet_until = Some(Instant::now() + RETRY_AFTER);
        self.why = why.clone();
        why
    }
}

fn fail(op: Op, why: &str) {
    let why = why.to_string();
    match op {
        Op::Save { done, .. } => drop(done.send(Err(why))),
        Op::Load { done, .. } => drop(done.send(Err(why))),
        Op::Unfinished { done } => drop(done.send(Err(why))),
        Op::Expire { done, .. } => drop(done.send(Err(why))),
        Op::CountWaiting { done } => drop(done.send(Err(why))),
        Op::Player { done, .. } => drop(done.send(Err(why))),
        Op::Query { done, .. } => drop(done.send(Err(why))),
        Op::Close { done } => drop(done.send(())),
    }
}

async fn run(url: String, writer: Writer, me: String, conn: Conn, mut rx: mpsc::Receiver<Op>) {
    let mut link = Link {
        conn: Some(conn),
        quiet_until: None,
        why: String::new(),
    };
    let mut beat = tokio::time::interval(HEARTBEAT);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let first = tokio::select! {
            op = rx.recv() => match op {
                Some(op) => op,
                None => return,
            },
            _ = beat.tick() => {
                let stamp = async {
                    let c = link.get(&url, &writer).await?;
                    let at = now_ms() as i64;
                    within(BATCH_DEADLINE, c.client.execute(&c.st.alive, &[&me, &at])).await
                }
                .await;
                if let Err(e) = stamp {
                    if link.conn.is_some() {
                        link.failed(format!("storing failed: {e}"));
                    }
                }
                continue;
            }
        };
        let mut batch = vec![first];
        while batch.len() < 512 {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        let mut close = None;
        let mut ops = Vec::with_capacity(batch.len());
        for op in batch {
            match op {
                Op::Close { done } => close = Some(done),
                op => ops.push(op),
            }
        }
        match link.get(&url, &writer).await {
            Err(why) => ops.into_iter().for_each(|op| fail(op, &why)),
            Ok(c) => {
                // Answers not sent by the deadline are dropped with the
                // batch: their askers hear that the store gave none.
                let served =
                    tokio::time::timeout(BATCH_DEADLINE, serve(c, ops, &writer, &me)).await;
                if served.is_err() {
                    link.failed(format!(
                        "storing failed: the database did not answer within {} ms",
                        BATCH_DEADLINE.as_millis()
                    ));
                }
            }
        }
        if let Some(done) = close {
            drop(link);
            let _ = done.send(());
            return;
        }
    }
}

/// Does a player operation in one transaction (see the SQLite store's).
async fn player_job(c: &mut Conn, job: PlayerJob, now_ms: u64) -> Result<Known, PlayerError> {
    use super::players::pg as ops;
    let tx = c
        .client
        .transaction()
        .await
        .map_err(|e| PlayerError::Db(pg_error(&e)))?;
    let id = match job {
        PlayerJob::Register { id, secret, name } => {
            ops::register(&tx, &id, &secret, &name, now_ms).await?;
            id
        }
        PlayerJob::Identify { secret } => {
            ops::identify(&tx, &secret)
                .await?
                .ok_or(PlayerError::NoSuchPlayer)?
                .id
        }
        PlayerJob::Rename { id, name, every_ms } => {
            ops::rename(&tx, &id, &name, now_ms, every_ms).await?;
            id
        }
    };
    let player = ops::find(&tx, &id)
        .await?
        .ok_or(PlayerError::NoSuchPlayer)?;
    let standings = ops::standings(&tx, &id).await?;
    tx.commit()
        .await
        .map_err(|e| PlayerError::Db(pg_error(&e)))?;
    Ok(Known { player, standings })
}

/// Answers a read for players, pages, the leaderboard or a finished game
/// (see the SQLite store's).
async fn query(c: &Conn, query: Query, now_ms: u64) -> Result<Answer, PlayerError> {
    use super::players::pg as ops;
    let c = &c.client;
    Ok(match query {
        Query::Tags { ids, game } => {
            let mut tags = [None, None];
            for (i, id) in ids.iter().enumerate() {
                if let Some(id) = id {
                    tags[i] = ops::tag(c, id, game, now_ms).await?;
                }
            }
            Answer::Tags(tags)
        }
        Query::Player { who, page } => {
            let player = ops::find(c, &who).await?.ok_or(PlayerError::NoSuchPlayer)?;
            let (games, pages) = ops::games(c, &player.id, page).await?;
            let ratings = ops::standings(c, &player.id)
                .await?
                .iter()
                .map(|s| s.info(now_ms))
                .collect();
            let history = ops::history(c, &player.id).await?;
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
            rows: ops::leaderboard(c, game, now_ms).await?,
        })),
        Query::Archive { room, game_no } => {
            let (game, start) = ops::archived(c, &room, game_no)
                .await?
                .ok_or(PlayerError::NoSuchGame)?;
            let no = i32::try_from(game_no).map_err(|_| PlayerError::NoSuchGame)?;
            let moves = c
                .query(
                    "SELECT mv FROM moves WHERE room = $1 AND game_no = $2 ORDER BY ply",
                    &[&room, &no],
                )
                .await
                .map_err(|e| PlayerError::Db(pg_error(&e)))?
                .iter()
                .map(|r| r.get::<_, String>(0))
                .collect();
            Answer::Msg(Box::new(ServerMsg::Archive { game, start, moves }))
        }
        Query::RatedBefore { room, game_no } => {
            let no = i32::try_from(game_no).map_err(|_| PlayerError::NoSuchGame)?;
            let row = c
                .query_opt(
                    "SELECT first_before, second_before FROM games
                     WHERE room = $1 AND game_no = $2 AND counted",
                    &[&room, &no],
                )
                .await
                .map_err(|e| PlayerError::Db(pg_error(&e)))?
                .map(|r| (r.get::<_, Option<f64>>(0), r.get::<_, Option<f64>>(1)));
            Answer::Before(super::store::before(row))
        }
    })
}

/// Answers a batch: reads at once, writes together at the end.
async fn serve(c: &mut Conn, batch: Vec<Op>, writer: &Writer, me: &str) {
    let mut saves = Vec::new();
    for op in batch {
        match op {
            Op::Save { .. } => saves.push(op),
            Op::Load { code, done } => {
                let _ = done.send(load(c, &code, me).await);
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
            Op::CountWaiting { done } => {
                let _ = done.send(count_waiting(c).await);
            }
            Op::Player { job, now_ms, done } => {
                let _ = done.send(Ok(player_job(c, job, now_ms).await));
            }
            Op::Query {
                query: q,
                now_ms,
                done,
            } => {
                let _ = done.send(Ok(query(c, q, now_ms).await));
            }
            Op::Close { done } => {
                let _ = done.send(());
            }
        }
    }
    write_batch(c, saves, writer, me).await;
}

/// Commits every save in one transaction; if that fails, each on its own,
/// so one bad write (a lost lease, a duplicate code) does not fail the others.
async fn write_batch(c: &mut Conn, saves: Vec<Op>, writer: &Writer, me: &str) {
    if saves.is_empty() {
        return;
    }
    let together = async {
        let tx = c.client.transaction().await.map_err(|e| pg_error(&e))?;
        let mut counted = Vec::with_capacity(saves.len());
        for op in &saves {
            counted.push(write(&tx, &c.st, op, writer, me).await?);
        }
        tx.commit().await.map_err(|e| pg_error(&e))?;
        Ok::<_, String>(counted)
    }
    .await;
    if let Ok(counted) = together {
        for (op, c) in saves.into_iter().zip(counted) {
            if let Op::Save { done, .. } = op {
                let _ = done.send(Ok(c));
            }
        }
        return;
    }
    for op in saves {
        let result = async {
            let tx = c.client.transaction().await.map_err(|e| pg_error(&e))?;
            let counted = write(&tx, &c.st, &op, writer, me).await?;
            tx.commit().await.map_err(|e| pg_error(&e))?;
            Ok::<_, String>(counted)
        }
        .await
        .map_err(|e| {
            if e == LEASE_LOST || e.starts_with("UNIQUE") || e.starts_with(PLY_TAKEN) {
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
    me: &str,
) -> Result<Option<Counted>, String> {
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
    let now = now_ms() as i64;
    let err = |e: tokio_postgres::Error| pg_error(&e);
    if *create {
        tx.execute(&st.create, &[code, finished, &now, meta, &me])
            .await
            .map_err(err)?;
        if let Writer::Node(node) = writer {
            tx.execute(&st.lease, &[code, node]).await.map_err(err)?;
        }
    } else {
        match writer {
            Writer::Alone => {
                tx.execute(&st.upsert, &[code, finished, &now, meta, &me])
                    .await
                    .map_err(err)?;
            }
            // `saved_by` is the node (`me`), the same as its lease's.
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
    let game_no_i = *game_no as i32;
    for (ply, m) in moves {
        let ply_i = *ply as i32;
        let n = tx
            .execute(&st.mv, &[code, &game_no_i, &ply_i, m])
            .await
            .map_err(err)?;
        if n == 0 {
            let stored: String = tx
                .query_one(&st.mv_at, &[code, &game_no_i, &ply_i])
                .await
                .map_err(err)?
                .get(0);
            return Err(ply_taken(code, *game_no, *ply, &stored, m));
        }
    }
    // The finished game and its ratings in this same transaction (a game
    // recorded already is left as it is: the ratings move once).
    match game {
        None => Ok(None),
        Some(g) => match super::players::pg::record(tx, g).await {
            Ok(counted) => Ok(counted),
            Err(PlayerError::Conflict(_)) => Ok(None),
            Err(e) => Err(format!("recording the finished game failed: {e}")),
        },
    }
}

/// A room as stored; `saved_by` and its last stamp `alive_ms` say until
/// when its running clock ran (see [`Stored::ran_until_ms`]).
async fn stored(
    c: &Conn,
    code: String,
    meta: &str,
    (saved_by, alive_ms, me): (Option<String>, Option<i64>, &str),
) -> Result<Option<Stored>, String> {
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
    let ran_until_ms = match meta.clock_saved_ms {
        None => None,
        Some(_) if saved_by.as_deref() == Some(me) => None,
        // Another writer (or an earlier run): until its last stamp, or,
        // unknown, until the save (nothing charged).
        Some(saved) => Some(alive_ms.map_or(saved, |a| (a.max(0) as u64).max(saved))),
    };
    Ok(Some(Stored {
        code,
        meta,
        moves,
        ran_until_ms,
    }))
}

async fn load(c: &Conn, code: &str, me: &str) -> Result<Option<Stored>, String> {
    let row = c
        .client
        .query_opt(&c.st.meta, &[&code])
        .await
        .map_err(|e| pg_error(&e))?;
    match row {
        Some(row) => {
            let by = (row.get(1), row.get(2), me);
            stored(c, code.to_string(), row.get(0), by).await
        }
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

/// How many rooms wait for the friend.
async fn count_waiting(c: &Conn) -> Result<usize, String> {
    let sql = format!("SELECT count(*) FROM rooms WHERE NOT finished AND {WAITING}");
    let row = c
        .client
        .query_one(&sql, &[])
        .await
        .map_err(|e| pg_error(&e))?;
    Ok(row.get::<_, i64>(0) as usize)
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
