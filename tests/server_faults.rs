//! The online server under faults: the real server binary as a child
//! process with its storage made to fail for real (a file size limit, as a
//! full disk: set at start with `ulimit -f`, or lowered and raised again
//! while it runs with `prlimit`), killed with SIGKILL and started again on
//! the same data.

mod common;

use std::io::Read;
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{data_dir, state, WAIT};

use stoneplay::games::any::AnyRecord;
use stoneplay::games::any::Variant;
use stoneplay::games::ataxx::{AtaxxMove, AtaxxRules};
use stoneplay::games::mill::MillRules;
use stoneplay::games::splitmix64;
use stoneplay::games::{Game, Side};
use stoneplay::protocol::online::{ClientMsg, ErrorCode, Event, GameState, ServerMsg, SideChoice};
use stoneplay::server::client::{Client, Recv, Spawned};

/// The server binary as a child; killed (SIGKILL) when dropped.
struct Proc {
    _server: Spawned,
    addr: SocketAddr,
    pid: u32,
    stderr: Arc<Mutex<String>>,
}

impl Proc {
    /// Starts the server on `dir`; with `file_limit_kib`, under `ulimit -f`
    /// (and SIGXFSZ ignored), so a write past that size fails as on a full
    /// disk.
    fn start(dir: &Path, file_limit_kib: Option<u32>, extra: &[&str]) -> Proc {
        let exe = env!("CARGO_BIN_EXE_server");
        let limit = file_limit_kib.map_or(String::new(), |k| format!("ulimit -f {k}; "));
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(format!("trap '' XFSZ; {limit}exec \"$0\" \"$@\""))
            .arg(exe)
            .args(["--addr", "127.0.0.1:0", "--no-static"])
            .args(["--rate", "1000", "--burst", "1000"])
            .arg("--data")
            .arg(dir)
            .args(extra)
            .stderr(Stdio::piped());
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut server = Spawned::start(&mut cmd).unwrap_or_else(|e| panic!("{e}"));
        let mut err = server.child.stderr.take().unwrap();
        let log = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                log.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Proc {
            addr: server.addr,
            pid: server.child.id(),
            _server: server,
            stderr,
        }
    }

    /// From now on a write that makes any file larger than `bytes` fails
    /// (EFBIG, as a full disk fails it); `None` lifts the limit. The soft
    /// RLIMIT_FSIZE of the running server, set from outside (`prlimit`).
    fn file_limit(&self, bytes: Option<u64>) {
        let lim = libc::rlimit {
            rlim_cur: bytes.unwrap_or(libc::RLIM_INFINITY),
            rlim_max: libc::RLIM_INFINITY,
        };
        // SAFETY: prlimit reads `lim` and writes nothing (no old limit asked).
        let r = unsafe {
            libc::prlimit(
                self.pid as libc::pid_t,
                libc::RLIMIT_FSIZE,
                &lim,
                std::ptr::null_mut(),
            )
        };
        assert_eq!(r, 0, "prlimit: {}", std::io::Error::last_os_error());
    }

    /// The store cannot write from now on: no file may grow (the WAL,
    /// where every commit is appended, is at its size now).
    fn fill_disk(&self, dir: &Path) {
        let wal = std::fs::metadata(dir.join(format!("{}-wal", stoneplay::server::store::DB_FILE)))
            .map(|m| m.len())
            .unwrap_or(0);
        self.file_limit(Some(wal.max(1)));
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn kill(self) {
        drop(self);
    }
}

/// A Mill game that does not end by itself.
fn endless_mill() -> Variant {
    Variant::Mill(MillRules {
        n_move_rule: 0,
        threefold_repetition: false,
        ..MillRules::default()
    })
}

/// A move that neither ends the game nor closes a mill (nor leaves the
/// opponent without a move). In Territory Duel a jump that flips comes
/// first, then any jump, then a clone: jumps never fill the board and a
/// flip starts the 80-jump count again, so such a game runs past the ply
/// cap.
fn lasting_move(live: &AnyRecord, r: u64) -> String {
    let moves = live.legal_moves();
    let mut lasting: Vec<&String> = moves
        .iter()
        .filter(|m| {
            let mut next = live.clone();
            next.play_text(m).is_ok()
                && next.outcome().is_none()
                && next.to_move() != live.to_move()
        })
        .collect();
    if let AnyRecord::Ataxx(record) = live {
        let pos = record.position();
        let class = |m: &&String| match pos.parse_move(m) {
            Ok(mv @ AtaxxMove::Jump { .. }) if pos.flips(mv) != 0 => 0,
            Ok(AtaxxMove::Jump { .. }) => 1,
            _ => 2,
        };
        if let Some(best) = lasting.iter().map(class).min() {
            lasting.retain(|m| class(m) == best);
        }
    }
    if lasting.is_empty() {
        moves[(r % moves.len() as u64) as usize].clone()
    } else {
        lasting[(r % lasting.len() as u64) as usize].clone()
    }
}

struct Table {
    first: Client,
    second: Client,
    token_first: String,
    room: String,
}

async fn table(addr: SocketAddr, game: Variant) -> Table {
    let mut a = Client::hello(addr).await.unwrap();
    a.send(&ClientMsg::Create {
        game,
        clock_secs: Some(600),
        side: SideChoice::First,
        rated: false,
    })
    .await
    .unwrap();
    let (room, token, key) = match a.recv(WAIT).await.unwrap() {
        ServerMsg::Seat {
            room,
            token,
            join_key: Some(key),
            ..
        } => (room, token, key),
        other => panic!("expected a seat, got {other:?}"),
    };
    let mut b = Client::hello(addr).await.unwrap();
    b.send(&ClientMsg::Join {
        room: room.clone(),
        key,
    })
    .await
    .unwrap();
    state(&mut b, Some(Event::Started)).await;
    state(&mut a, Some(Event::Started)).await;
    Table {
        first: a,
        second: b,
        token_first: token,
        room,
    }
}

/// Point 1 of issue 13: with the disk full, moves kept being broadcast
/// though they were not stored. Now the move is refused (the mover gets an
/// error and the state they had, the opponent hears nothing), new games
/// are refused, the log says so loudly, and after SIGKILL and a restart
/// the game has exactly the moves the players were shown.
#[tokio::test]
async fn a_move_that_cannot_be_stored_is_refused_not_broadcast() {
    let dir = data_dir("full");
    // 256 KiB: room for the schema, a game set up and a few dozen moves.
    let server = Proc::start(&dir, Some(256), &[]);
    let mut t = table(server.addr, endless_mill()).await;
    let mut live = AnyRecord::new(&endless_mill());
    let mut shown: Vec<String> = Vec::new();
    let mut to_move = Side::First;
    let mut seed = 7;
    let mut refused_at = None;
    for _ in 0..400 {
        let (next, r) = splitmix64(seed);
        seed = next;
        let mv = lasting_move(&live, r);
        let (mover, other) = match to_move {
            Side::First => (&mut t.first, &mut t.second),
            Side::Second => (&mut t.second, &mut t.first),
        };
        mover
            .send(&ClientMsg::Move {
                ply: shown.len() as u32,
                mv: mv.clone(),
            })
            .await
            .unwrap();
        match mover.recv(WAIT).await.unwrap() {
            ServerMsg::State(s) if s.event == Event::Moved => {
                let seen = state(other, Some(Event::Moved)).await;
                assert_eq!(seen.moves, s.moves);
                live.play_text(&mv).unwrap();
                shown = s.moves;
                to_move = s.to_move;
            }
            ServerMsg::Error { code, message } => {
                assert_eq!(code, ErrorCode::Server);
                assert!(message.contains("cannot store"), "{message}");
                // The state they had, again.
                let s = state(mover, Some(Event::Sync)).await;
                assert_eq!(s.moves, shown, "the refused move is not in the state");
                assert_eq!(s.to_move, to_move);
                // The opponent hears nothing of it.
                match other.next(Duration::from_millis(500)).await {
                    Err(_) => {}
                    Ok(m) => panic!("the opponent was told {m:?}"),
                }
                refused_at = Some(shown.len());
                break;
            }
            other => panic!("unexpected answer to a move: {other:?}"),
        }
    }
    let Some(refused_at) = refused_at else {
        panic!(
            "400 moves were all announced although the store is full; stderr:\n{}",
            server.stderr()
        );
    };
    assert!(refused_at > 0, "the limit leaves room for a few moves");
    // A second try is refused too (the disk is still full)…
    let mover = match to_move {
        Side::First => &mut t.first,
        Side::Second => &mut t.second,
    };
    let mv = lasting_move(&live, 1);
    mover
        .send(&ClientMsg::Move {
            ply: shown.len() as u32,
            mv,
        })
        .await
        .unwrap();
    assert!(matches!(
        mover.recv(WAIT).await.unwrap(),
        ServerMsg::Error {
            code: ErrorCode::Server,
            ..
        }
    ));
    // …and so is a new game.
    let mut c = Client::hello(server.addr).await.unwrap();
    c.send(&ClientMsg::Create {
        game: Variant::Mill(MillRules::default()),
        clock_secs: None,
        side: SideChoice::First,
        rated: false,
    })
    .await
    .unwrap();
    match c.recv(WAIT).await.unwrap() {
        ServerMsg::Error { code, message } => {
            assert_eq!(code, ErrorCode::Server);
            assert!(message.contains("cannot store"), "{message}");
        }
        other => panic!("a new game while the store fails: {other:?}"),
    }
    let log = server.stderr();
    assert!(log.contains("CANNOT STORE GAMES"), "said loudly: {log}");
    // SIGKILL, space back (no limit), start again: the game is what the
    // players were shown.
    server.kill();
    let server = Proc::start(&dir, None, &[]);
    let mut a = Client::hello(server.addr).await.unwrap();
    a.send(&ClientMsg::Reconnect {
        room: t.room.clone(),
        token: t.token_first.clone(),
    })
    .await
    .unwrap();
    let s = state(&mut a, None).await;
    assert_eq!(s.moves, shown, "after the restart");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads until the server closes the connection (or `wait` passes).
#[allow(dead_code)]
async fn closed_within(c: &mut Client, wait: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match c.next(left).await {
            Ok(Recv::Closed(_)) => return true,
            Ok(Recv::Msg(_)) => continue,
            Err(e) => return !e.starts_with("nothing received"),
        }
    }
}

fn in_process_config(dir: &Path) -> stoneplay::server::Config {
    stoneplay::server::Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        data_dir: dir.to_path_buf(),
        static_dir: None,
        rate_per_sec: 10_000,
        burst: 10_000,
        ..stoneplay::server::Config::default()
    }
}

/// Plays lasting moves until `plies` have been played or the game ends;
/// returns the last state the opponent of the last mover saw.
async fn play_lasting(
    t: &mut Table,
    live: &mut AnyRecord,
    plies: usize,
    mut seed: u64,
) -> GameState {
    let mut last = None;
    let mut to_move = Side::First;
    let mut ply = 0;
    while ply < plies {
        let (next, r) = splitmix64(seed);
        seed = next;
        let mv = lasting_move(live, r);
        let (mover, other) = match to_move {
            Side::First => (&mut t.first, &mut t.second),
            Side::Second => (&mut t.second, &mut t.first),
        };
        mover
            .send(&ClientMsg::Move {
                ply: ply as u32,
                mv: mv.clone(),
            })
            .await
            .unwrap();
        let seen = state(other, Some(Event::Moved)).await;
        let mine = state(mover, Some(Event::Moved)).await;
        assert_eq!(seen.moves, mine.moves);
        live.play_text(&mv).unwrap();
        ply = seen.moves.len();
        to_move = seen.to_move;
        let over = seen.outcome.is_some();
        last = Some(seen);
        if over {
            break;
        }
    }
    last.expect("a move was played")
}

/// Point 4 of issue 13: a game whose rules never end it (Mill without the
/// n-move and repetition rules) ends at the ply cap: a draw in Mill.
#[tokio::test]
async fn every_online_game_ends_at_the_ply_cap() {
    use stoneplay::games::EndReason;
    use stoneplay::protocol::online::{Refusal, Status, MAX_PLIES};
    let dir = data_dir("cap");
    let server = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    let mut t = table(server.addr(), endless_mill()).await;
    let mut live = AnyRecord::new(&endless_mill());
    let end = play_lasting(&mut t, &mut live, MAX_PLIES as usize + 10, 3).await;
    assert_eq!(end.moves.len(), MAX_PLIES as usize, "ended at the cap");
    assert_eq!(end.status, Status::Over);
    let outcome = end.outcome.expect("over");
    assert_eq!(outcome.winner, None, "a draw");
    assert_eq!(outcome.reason, EndReason::PlyLimit);
    // No move after it.
    let mover = match end.to_move {
        Side::First => &mut t.first,
        Side::Second => &mut t.second,
    };
    mover
        .send(&ClientMsg::Move {
            ply: MAX_PLIES,
            mv: lasting_move(&live, 0),
        })
        .await
        .unwrap();
    match mover.recv(WAIT).await.unwrap() {
        ServerMsg::Refused { code, .. } => assert_eq!(code, Refusal::GameOver),
        other => panic!("a move after the cap: {other:?}"),
    }
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 38: a Territory Duel game that reaches the ply cap is decided
/// like the game's other endings, by the piece count (the rules file's
/// decision), not drawn; the page reads the same result from the state.
#[tokio::test]
async fn a_territory_duel_game_at_the_ply_cap_is_decided_by_count() {
    use stoneplay::games::{EndReason, Outcome};
    use stoneplay::protocol::online::{Status, MAX_PLIES};
    let dir = data_dir("cap-count");
    let server = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    let game = Variant::Ataxx(AtaxxRules::default());
    let mut t = table(server.addr(), game).await;
    let mut live = AnyRecord::new(&game);
    let end = play_lasting(&mut t, &mut live, MAX_PLIES as usize + 10, 11).await;
    assert_eq!(end.moves.len(), MAX_PLIES as usize, "ended at the cap");
    assert_eq!(end.status, Status::Over);
    let outcome = end.outcome.expect("over");
    assert_eq!(outcome.reason, EndReason::PlyLimit);
    let AnyRecord::Ataxx(record) = &live else {
        panic!("a Territory Duel game")
    };
    let pos = record.position();
    let (x, o) = (pos.count(Side::First), pos.count(Side::Second));
    assert_ne!(x, o, "this game's counts differ, so a draw would be wrong");
    assert_eq!(outcome, Outcome::by_count(x, o, EndReason::PlyLimit));
    // The page rebuilds the same ending from the moves and the reason.
    let mut page = AnyRecord::restore(&game, &end.start, &end.moves).unwrap();
    assert_eq!(page.outcome(), None, "the board alone does not end it");
    page.ply_limit();
    assert_eq!(page.outcome(), Some(outcome));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Point 4 of issue 13: once a client has the state, a move is sent as an
/// `update` with just the new move (not the whole game), so a message
/// stays small however long the game; entering, `sync` and a refusal
/// bring the full `state`.
#[tokio::test]
async fn moves_are_sent_as_updates_once_the_client_has_the_state() {
    let dir = data_dir("updates");
    let server = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    let mut t = table(server.addr(), endless_mill()).await;
    let mut live = AnyRecord::new(&endless_mill());
    play_lasting(&mut t, &mut live, 300, 5).await;
    // A watcher gets the full state, then updates only.
    let mut w = Client::hello(server.addr()).await.unwrap();
    w.merge_updates = false;
    w.send(&ClientMsg::Watch {
        room: t.room.clone(),
    })
    .await
    .unwrap();
    let full_size = w.received_bytes;
    let full = match w.recv(WAIT).await.unwrap() {
        ServerMsg::State(s) => s,
        other => panic!("expected the full state, got {other:?}"),
    };
    let full_size = w.received_bytes - full_size;
    assert_eq!(full.from, 0);
    assert!(full.moves.len() >= 300);
    let mut have = full.clone();
    let mut to_move = full.to_move;
    for _ in 0..4 {
        let mv = lasting_move(&live, 9);
        let mover = match to_move {
            Side::First => &mut t.first,
            Side::Second => &mut t.second,
        };
        mover
            .send(&ClientMsg::Move {
                ply: have.moves.len() as u32,
                mv: mv.clone(),
            })
            .await
            .unwrap();
        let before = w.received_bytes;
        let update = match w.recv(WAIT).await.unwrap() {
            ServerMsg::Update(u) => u,
            other => panic!("expected an update, got {other:?}"),
        };
        let size = w.received_bytes - before;
        assert_eq!(update.from as usize, have.moves.len());
        assert_eq!(update.moves, std::slice::from_ref(&mv));
        // The rules and start come along (small); the moves do not.
        assert!(
            size < 1000 && size * 3 < full_size,
            "an update after 300 plies is {size} bytes, the full state {full_size}"
        );
        assert!(have.apply(update));
        live.play_text(&mv).unwrap();
        to_move = have.to_move;
    }
    // `sync` brings everything again.
    w.send(&ClientMsg::Sync).await.unwrap();
    match w.recv(WAIT).await.unwrap() {
        ServerMsg::State(s) => assert_eq!(s.moves, have.moves),
        other => panic!("expected the full state, got {other:?}"),
    }
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Point 5 of issue 13: a second server on the same data directory is
/// refused with a clear message (both would resume the same games).
#[tokio::test]
async fn a_second_server_on_the_same_data_directory_is_refused() {
    let dir = data_dir("lock");
    let first = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    let second = stoneplay::server::start(in_process_config(&dir)).await;
    let Err(e) = second else {
        panic!("a second server started on the same data directory");
    };
    assert!(e.contains("in use by another running server"), "{e}");
    first.shutdown().await;
    // Once the first has stopped, the directory is free.
    let again = stoneplay::server::start(in_process_config(&dir))
        .await
        .expect("the directory is free again");
    again.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Point 5 of issue 13: a database deleted while the server runs is
/// noticed (moves are refused instead of going to a file nobody will
/// read), and the next start refuses to begin with 0 games as if the
/// directory were new; a directory that never held one starts empty.
#[tokio::test]
async fn a_deleted_database_is_noticed_and_not_silently_replaced() {
    use stoneplay::server::store::{DB_FILE, MARKER_FILE};
    let dir = data_dir("deleted");
    let server = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    let mut t = table(server.addr(), endless_mill()).await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(dir.join(format!("{DB_FILE}{suffix}")));
    }
    t.first
        .send(&ClientMsg::Move {
            ply: 0,
            mv: "d6".into(),
        })
        .await
        .unwrap();
    match t.first.recv(WAIT).await.unwrap() {
        ServerMsg::Error { code, message } => {
            assert_eq!(code, ErrorCode::Server);
            assert!(message.contains("cannot store"), "{message}");
        }
        other => panic!("a move into a deleted database: {other:?}"),
    }
    assert!(
        t.second.next(Duration::from_millis(300)).await.is_err(),
        "the opponent hears nothing"
    );
    server.shutdown().await;
    let restart = stoneplay::server::start(in_process_config(&dir)).await;
    let Err(e) = restart else {
        panic!("started with the database gone");
    };
    assert!(e.contains("is missing"), "{e}");
    // The operator decides: without the marker it is a new directory.
    std::fs::remove_file(dir.join(MARKER_FILE)).unwrap();
    let fresh = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    assert_eq!(fresh.resumed().await, 0);
    fresh.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The state a reconnecting player is sent.
async fn reconnect(addr: SocketAddr, seat: &common::Seat) -> (Client, GameState) {
    let mut c = Client::hello(addr).await.unwrap();
    c.send(&ClientMsg::Reconnect {
        room: seat.room.clone(),
        token: seat.token.clone(),
    })
    .await
    .unwrap();
    let s = state(&mut c, Some(Event::Sync)).await;
    (c, s)
}

/// No state with `event` arrives at `c` within `wait`.
async fn not_told(c: &mut Client, event: Event, wait: Duration) {
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match c.next(left).await {
            Ok(Recv::Msg(ServerMsg::State(s) | ServerMsg::Update(s))) => {
                assert_ne!(
                    s.event, event,
                    "announced while the store cannot write: {s:?}"
                );
            }
            Ok(Recv::Msg(_)) => {}
            Ok(Recv::Closed(f)) => panic!("closed: {f:?}"),
            Err(_) => return,
        }
    }
}

/// Issue 33, point 1: the clock runs out while the store cannot write.
/// The verdict is not announced (it is not stored), a move after the
/// deadline is refused, the room stays in memory when both players
/// leave, and once the store can write again the loss on time is stored
/// by itself: the loser comes back to a lost game, not to a fresh clock.
/// (Before: `timeout` was announced, the finished room left memory, and
/// the loser came back to "playing, 1998 ms left".)
#[tokio::test]
async fn a_timeout_the_store_cannot_take_is_stored_later_never_undone() {
    let dir = data_dir("timeout-full");
    let server = Proc::start(&dir, None, &[]);
    let game = Variant::Stones(stoneplay::games::stones::StonesRules);
    let mut t = common::Table::new(server.addr, game, 2, SideChoice::First).await;
    assert_eq!(t.state.to_move, Side::First);
    server.fill_disk(&dir);
    // The clock (2 s) runs out while nothing can be stored.
    not_told(&mut t.a, Event::Timeout, Duration::from_millis(2600)).await;
    // The time is up: no move is taken, and nothing is claimed stored.
    t.a.send(&ClientMsg::Move {
        ply: 0,
        mv: "a1-b2".into(),
    })
    .await
    .unwrap();
    match t
        .a
        .recv_until(WAIT, |m| {
            !matches!(m, ServerMsg::State(_) | ServerMsg::Update(_))
        })
        .await
        .unwrap()
    {
        ServerMsg::Error { code, message } => {
            assert_eq!(code, ErrorCode::Server);
            assert!(message.contains("cannot store"), "{message}");
        }
        other => panic!("a move after the deadline while storing fails: {other:?}"),
    }
    let seats = (t.a_seat.clone(), t.b_seat.clone());
    t.a.close().await;
    t.b.close().await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(server.stderr().contains("CANNOT STORE GAMES"));
    // Room on the disk again: the verdict is stored by itself.
    server.file_limit(None);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_a, s) = reconnect(server.addr, &seats.0).await;
    assert_eq!(s.status, stoneplay::protocol::online::Status::Over, "{s:?}");
    let outcome = s.outcome.expect("over");
    assert_eq!(outcome.reason, stoneplay::games::EndReason::Timeout);
    assert_eq!(outcome.winner, Some(Side::Second));
    assert_eq!(s.clock.remaining_ms, 0);
    // And it is what the store holds: after SIGKILL and a restart too.
    server.kill();
    let server = Proc::start(&dir, None, &[]);
    let (_a, s) = reconnect(server.addr, &seats.0).await;
    assert_eq!(s.outcome, Some(outcome));
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 33, point 1: a server killed after its clock ran out but before
/// it could store the verdict (the disk was full). At the next start the
/// clock is charged the time that server ran after its last save (its
/// heartbeat), so the loss on time is reached again at once, never a
/// fresh clock.
#[tokio::test]
async fn a_timeout_lost_in_a_crash_is_reached_again_from_the_stored_clock() {
    let dir = data_dir("timeout-crash");
    let server = Proc::start(&dir, None, &[]);
    let game = Variant::Stones(stoneplay::games::stones::StonesRules);
    let mut t = common::Table::new(server.addr, game, 2, SideChoice::First).await;
    server.fill_disk(&dir);
    not_told(&mut t.a, Event::Timeout, Duration::from_millis(2600)).await;
    let seats = (t.a_seat.clone(), t.b_seat.clone());
    server.kill();
    // Down for a while: that time is not what decides.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let server = Proc::start(&dir, None, &[]);
    let (_a, s) = reconnect(server.addr, &seats.0).await;
    let outcome = s
        .outcome
        .unwrap_or_else(|| panic!("a fresh clock after the crash: {s:?}"));
    assert_eq!(outcome.reason, stoneplay::games::EndReason::Timeout);
    assert_eq!(outcome.winner, Some(Side::Second));
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 33, point 1: a pause that ends by itself while the store cannot
/// write ends only once that is stored (until then the game stays paused
/// for everyone), then is announced.
#[tokio::test]
async fn a_pause_ends_by_itself_only_once_that_is_stored() {
    let dir = data_dir("pause-full");
    let server = Proc::start(&dir, None, &["--auto-resume-ms", "1000"]);
    let game = Variant::Stones(stoneplay::games::stones::StonesRules);
    let mut t = common::Table::new(server.addr, game, 60, SideChoice::First).await;
    t.a.send(&ClientMsg::Pause).await.unwrap();
    state(&mut t.a, Some(Event::Paused)).await;
    state(&mut t.b, Some(Event::Paused)).await;
    server.fill_disk(&dir);
    not_told(&mut t.b, Event::AutoUnpaused, Duration::from_millis(2000)).await;
    server.file_limit(None);
    let s = state(&mut t.b, Some(Event::AutoUnpaused)).await;
    assert_eq!(s.status, stoneplay::protocol::online::Status::Playing);
    assert!(s.clock.running);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 33, point 2: deleting `stoneplay.lock` (a "stale lock"
/// cleanup) while a server runs does not let a second one start on the
/// same data directory: the lock is on the database file itself.
/// (Before: the second server resumed the game, both acknowledged
/// different moves at the same plies, and 3 acknowledged moves were lost.)
#[tokio::test]
async fn a_deleted_lock_file_does_not_let_a_second_server_in() {
    use stoneplay::server::store::LOCK_FILE;
    let dir = data_dir("lock-deleted");
    let first = stoneplay::server::start(in_process_config(&dir))
        .await
        .unwrap();
    std::fs::remove_file(dir.join(LOCK_FILE)).unwrap();
    let second = stoneplay::server::start(in_process_config(&dir)).await;
    let Err(e) = second else {
        panic!("a second server started once stoneplay.lock was deleted");
    };
    assert!(e.contains("in use by another running server"), "{e}");
    // The real binary is refused too.
    let exe = env!("CARGO_BIN_EXE_server");
    let out = Command::new(exe)
        .args(["--addr", "127.0.0.1:0", "--no-static", "--data"])
        .arg(&dir)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("in use by another running server"));
    first.shutdown().await;
    let again = stoneplay::server::start(in_process_config(&dir))
        .await
        .expect("the directory is free once the first has stopped");
    again.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 33, point 2: a ply already stored is never replaced: storing
/// another move there is refused (the store keeps the first), storing
/// the same move again is a no-op (a commit whose answer was lost).
#[tokio::test]
async fn a_stored_ply_is_refused_not_replaced() {
    use stoneplay::server::store::{RoomMeta, Store, PLY_TAKEN};
    let dir = data_dir("ply-taken");
    let store = Store::open(&dir).unwrap();
    let spec = Variant::Stones(stoneplay::games::stones::StonesRules);
    let meta = RoomMeta {
        spec,
        clock_ms: 60_000,
        tokens: [Some("a".into()), Some("b".into())],
        join_key: None,
        creator_side: Side::First,
        game_no: 1,
        start: AnyRecord::new(&spec).start_text(),
        outcome: None,
        remaining_ms: 60_000,
        paused_by: None,
        pause_left_ms: 0,
        pauses_left: [3, 3],
        draw_offer: None,
        offered_at: [None, None],
        rematch: [false, false],
        created_ms: 1,
        clock_saved_ms: None,
        players: [None, None],
        rated: false,
        moved: [false, false],
    };
    let code = "PLYTAKENPLYTAKEN";
    let moves = |m: &[(u32, &str)]| m.iter().map(|(p, m)| (*p, m.to_string())).collect();
    store
        .save(code, &meta, true, moves(&[(0, "a1-b2"), (1, "g7-f6")]))
        .await
        .unwrap();
    let e = store
        .save(code, &meta, false, moves(&[(1, "g1-f2"), (2, "b2-c3")]))
        .await
        .expect_err("another move at a stored ply");
    assert!(e.contains(PLY_TAKEN), "{e}");
    assert_eq!(
        store.load(code).await.unwrap().unwrap().moves,
        ["a1-b2", "g7-f6"]
    );
    // The same move again (a commit whose answer was lost) is fine.
    store
        .save(code, &meta, false, moves(&[(1, "g7-f6"), (2, "b2-c3")]))
        .await
        .unwrap();
    let stored = store.load(code).await.unwrap().unwrap();
    assert_eq!(stored.moves, ["a1-b2", "g7-f6", "b2-c3"]);
    store.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
