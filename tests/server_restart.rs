//! The online server's clock across turns, and what survives a restart:
//! a clean one (in-process, like `server_online.rs`) and a crash (the real
//! `server` binary killed with SIGKILL, then started again on its data).
//!
//! Each wait is for a message, with a timeout; the sleeps are the passing
//! time that is tested (a turn's time used, before a move).

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{config, data_dir, state, Table, WAIT};

use stoneplay::games::any::Variant;
use stoneplay::games::ataxx::AtaxxRules;
use stoneplay::games::mill::MillRules;
use stoneplay::games::stones::StonesRules;
use stoneplay::games::{EndReason, Side};
use stoneplay::protocol::online::{ClientMsg, Event, Refusal, ServerMsg, SideChoice};
use stoneplay::server;
use stoneplay::server::client::{Client, Spawned};

/// The per-move clock starts afresh for every turn: the time a player used
/// is not carried over to the next. A Mill removal belongs to the turn of
/// the move that closed the mill, so the clock runs on between the two.
#[tokio::test]
async fn the_move_clock_restarts_each_turn_and_a_mill_removal_is_the_same_turn() {
    let dir = data_dir("clock");
    let server = server::start(config(&dir)).await.unwrap();
    let mut t = Table::new(
        server.addr(),
        Variant::Mill(MillRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    let per = t.state.clock.per_move_ms;
    assert_eq!(per, 60_000);
    let used = Duration::from_millis(1500);
    // Each player thinks 1.5 s; the next player still gets the whole minute.
    for mv in ["a7", "b6", "d7", "d6"] {
        let mover = t.state.to_move;
        tokio::time::sleep(used).await;
        let s = t.play(mv).await;
        assert_eq!(s.to_move, mover.opponent(), "{mv} ends the turn");
        assert!(s.clock.running);
        assert!(
            s.clock.remaining_ms + 1000 >= per,
            "after {mv} the next turn starts with {} ms of {per}",
            s.clock.remaining_ms
        );
    }
    // g7 closes the mill a7-d7-g7: White still has to remove a piece, and
    // the turn's clock, started after d6, runs on.
    tokio::time::sleep(used).await;
    let s = t.play("g7").await;
    assert_eq!(s.to_move, Side::First, "White removes next");
    assert!(s.clock.running);
    assert!(
        s.clock.remaining_ms + 1500 <= per,
        "the clock restarted between the mill and its removal: {} ms left of {per}",
        s.clock.remaining_ms
    );
    let removal = t.pick(&mut 1);
    assert!(removal.starts_with('x'), "a removal, not {removal}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let s = t.play(&removal).await;
    assert_eq!(s.to_move, Side::Second);
    assert!(
        s.clock.remaining_ms + 1000 >= per,
        "after the removal Black's turn starts with {} ms of {per}",
        s.clock.remaining_ms
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A draw offer still stands after a clean restart, with its
/// one-offer-per-move rule, and can be accepted.
#[tokio::test]
async fn a_draw_offer_survives_a_restart() {
    let dir = data_dir("draw");
    let first = server::start(config(&dir)).await.unwrap();
    let mut t = Table::new(
        first.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    t.play("b6").await;
    t.b.send(&ClientMsg::OfferDraw).await.unwrap();
    let s = state(&mut t.a, Some(Event::DrawOffered)).await;
    assert_eq!(s.draw_offer, Some(t.b_seat.side));
    state(&mut t.b, Some(Event::DrawOffered)).await;
    first.shutdown().await;

    let second = server::start(config(&dir)).await.unwrap();
    assert_eq!(second.resumed().await, 1);
    let Table { a_seat, b_seat, .. } = t;
    let mut t = Table::rejoin(second.addr(), a_seat, b_seat).await;
    assert_eq!(t.state.moves, ["b6"]);
    assert_eq!(t.state.draw_offer, Some(t.b_seat.side));
    // Still one offer per move: b cannot offer again before moving.
    t.b.send(&ClientMsg::OfferDraw).await.unwrap();
    match t.b.recv(WAIT).await.unwrap() {
        ServerMsg::Refused { code, .. } => assert_eq!(code, Refusal::DrawAlreadyOffered),
        other => panic!("expected refused, got {other:?}"),
    }
    state(&mut t.b, Some(Event::Sync)).await;
    t.a.send(&ClientMsg::AnswerDraw { accept: true })
        .await
        .unwrap();
    let s = state(&mut t.b, Some(Event::DrawAgreed)).await;
    let outcome = s.outcome.expect("a draw");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (None, EndReason::Agreement)
    );
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The real server binary, started on `data` with a free port.
struct Process {
    server: Spawned,
    addr: SocketAddr,
    resumed: usize,
}

impl Process {
    fn start(data: &Path) -> Process {
        let server = Spawned::start(
            Command::new(env!("CARGO_BIN_EXE_server"))
                .args(["--addr", "127.0.0.1:0", "--no-static", "--rate", "1000"])
                .args(["--burst", "1000", "--data"])
                .arg(data)
                .stdin(std::process::Stdio::null()),
        )
        .expect("the server binary starts");
        // Its second line says how many games it resumed.
        let second = server
            .line(Duration::from_secs(20))
            .expect("the server says what it resumed");
        let resumed = second
            .split(", ")
            .find_map(|part| part.strip_suffix(" unfinished game(s) resumed"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected second line: {second}"));
        Process {
            addr: server.addr,
            server,
            resumed,
        }
    }

    /// SIGKILL: the process ends at once, saving nothing more.
    fn kill_9(&mut self) {
        use std::os::unix::process::ExitStatusExt;
        let pid = self.server.child.id().to_string();
        let killed = Command::new("kill")
            .args(["-9", &pid])
            .status()
            .expect("kill runs");
        assert!(killed.success());
        let status = self.server.child.wait().unwrap();
        assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status:?}");
    }
}

/// The connection ends without the server's 1012 "restarting" close: the
/// process died rather than shutting down.
async fn dropped_without_goodbye(c: &mut Client) {
    loop {
        match c.next(WAIT).await {
            Ok(stoneplay::server::client::Recv::Msg(_)) => continue,
            Ok(stoneplay::server::client::Recv::Closed(frame)) => {
                assert!(frame.is_none(), "a clean close after SIGKILL: {frame:?}");
                break;
            }
            Err(e) => {
                assert!(!e.contains("nothing received"), "{e}");
                break;
            }
        }
    }
}

/// `kill -9` of the real server binary, then a start on the same data:
/// every move a player was told about is there, with the draw offer and
/// the pause made before the crash, and the games go on.
#[tokio::test]
async fn a_killed_server_keeps_every_acknowledged_move() {
    let dir = data_dir("kill9");
    let mut first = Process::start(&dir);
    assert_eq!(first.resumed, 0);
    // A Stones! game, paused after a few moves.
    let mut seed = 0x5eed;
    let mut stones = Table::new(
        first.addr,
        Variant::Stones(StonesRules),
        60,
        SideChoice::First,
    )
    .await;
    for _ in 0..4 {
        let mv = stones.pick(&mut seed);
        stones.play(&mv).await;
    }
    stones.b.send(&ClientMsg::Pause).await.unwrap();
    state(&mut stones.a, Some(Event::Paused)).await;
    let paused = state(&mut stones.b, Some(Event::Paused)).await;
    // A Territory Duel game with random moves, ending with a draw offer by
    // the side to move, then that side's move (the offer stands): the crash
    // comes as soon as that move is acknowledged.
    let mut duel = Table::new(
        first.addr,
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    for _ in 0..15 {
        let mv = duel.pick(&mut seed);
        duel.play(&mv).await;
    }
    let offerer = duel.state.to_move;
    let offering = if offerer == duel.a_seat.side {
        &mut duel.a
    } else {
        &mut duel.b
    };
    offering.send(&ClientMsg::OfferDraw).await.unwrap();
    state(&mut duel.a, Some(Event::DrawOffered)).await;
    state(&mut duel.b, Some(Event::DrawOffered)).await;
    let mv = duel.pick(&mut seed);
    let acked = duel.play(&mv).await;
    assert_eq!(acked.draw_offer, Some(offerer));

    first.kill_9();
    dropped_without_goodbye(&mut duel.a).await;
    dropped_without_goodbye(&mut stones.b).await;
    // Downtime is charged to no one, after a crash too.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let mut second = Process::start(&dir);
    assert_eq!(second.resumed, 2, "both unfinished games resumed");
    let Table { a_seat, b_seat, .. } = duel;
    let mut duel = Table::rejoin(second.addr, a_seat, b_seat).await;
    assert_eq!(duel.state.moves, acked.moves, "every acknowledged move");
    assert_eq!(duel.state.draw_offer, Some(offerer));
    assert!(duel.state.clock.running);
    assert!(
        duel.state.clock.remaining_ms + 1000 >= duel.state.clock.per_move_ms,
        "{} ms left after the crash",
        duel.state.clock.remaining_ms
    );
    let Table { a_seat, b_seat, .. } = stones;
    let mut stones = Table::rejoin(second.addr, a_seat, b_seat).await;
    assert_eq!(stones.state.moves, paused.moves);
    assert_eq!(stones.state.paused_by, Some(stones.b_seat.side));
    assert_eq!(stones.state.pauses_left, paused.pauses_left);
    assert!(!stones.state.clock.running);

    // Both games go on: the draw is accepted, the pause ends and a move follows.
    let answering = if offerer == duel.a_seat.side {
        &mut duel.b
    } else {
        &mut duel.a
    };
    answering
        .send(&ClientMsg::AnswerDraw { accept: true })
        .await
        .unwrap();
    let s = state(&mut duel.a, Some(Event::DrawAgreed)).await;
    assert_eq!(s.outcome.map(|o| o.reason), Some(EndReason::Agreement));
    stones.b.send(&ClientMsg::Unpause).await.unwrap();
    state(&mut stones.a, Some(Event::Unpaused)).await;
    stones.state = state(&mut stones.b, Some(Event::Unpaused)).await;
    let mv = stones.pick(&mut seed);
    let s = stones.play(&mv).await;
    assert_eq!(s.moves.len(), paused.moves.len() + 1);

    second.kill_9();
    let _ = std::fs::remove_dir_all(dir);
}

/// Seat tokens are stored only as hashes (a leaked database seats
/// nobody), and rooms stored by an older server with plain tokens are
/// converted when the server starts; the tokens still seat their holders.
#[tokio::test]
async fn seat_tokens_are_stored_as_hashes_and_old_rooms_converted() {
    use stoneplay::server::store::DB_FILE;
    let dir = data_dir("sealed");
    let first = server::start(config(&dir)).await.unwrap();
    let t = Table::new(
        first.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    let (a_seat, b_seat) = (t.a_seat.clone(), t.b_seat.clone());
    first.shutdown().await;
    let db = dir.join(DB_FILE);
    let stored = |db: &Path| -> String {
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row(
            "SELECT meta FROM rooms WHERE code = ?1",
            [&a_seat.room],
            |r| r.get(0),
        )
        .unwrap()
    };
    let meta = stored(&db);
    assert!(
        !meta.contains(&a_seat.token) && !meta.contains(&b_seat.token),
        "a token in the database: {meta}"
    );
    let sealed: serde_json::Value = serde_json::from_str(&meta).unwrap();
    let sealed_a = sealed["tokens"][0].as_str().unwrap().to_string();

    // What an older server stored: the tokens themselves.
    let mut old: serde_json::Value = serde_json::from_str(&meta).unwrap();
    old["tokens"] = serde_json::json!([a_seat.token, b_seat.token]);
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE rooms SET meta = ?1 WHERE code = ?2",
            [old.to_string(), a_seat.room.clone()],
        )
        .unwrap();
    let second = server::start(config(&dir)).await.unwrap();
    let meta = stored(&db);
    assert!(
        !meta.contains(&a_seat.token) && !meta.contains(&b_seat.token),
        "not converted at start: {meta}"
    );
    // The holders sit down again; the hash itself seats nobody.
    let mut t = Table::rejoin(second.addr(), a_seat.clone(), b_seat).await;
    t.play("b6").await;
    let mut thief = Client::hello(second.addr()).await.unwrap();
    thief
        .send(&ClientMsg::Reconnect {
            room: a_seat.room.clone(),
            token: sealed_a,
        })
        .await
        .unwrap();
    match thief.recv(WAIT).await.unwrap() {
        ServerMsg::Refused { code, .. } => assert_eq!(code, Refusal::BadToken),
        other => panic!("a stored hash took a seat: {other:?}"),
    }
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 37: a finished game's permanent link is its room's spectator
/// link. After the players left and the server restarted, anyone who
/// watches gets the final position, the moves and the result, read-only:
/// a move, a rematch or a resignation from the spectator is refused and
/// changes nothing.
#[tokio::test]
async fn a_finished_game_stays_watchable_read_only_after_a_restart() {
    let dir = data_dir("finished");
    let first = server::start(config(&dir)).await.unwrap();
    let mut t = Table::new(
        first.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    t.play("b6").await;
    t.play("b2").await;
    t.a.send(&ClientMsg::Resign).await.unwrap();
    let over = state(&mut t.b, Some(Event::Resigned)).await;
    let room = t.a_seat.room.clone();
    drop(t);
    first.shutdown().await;

    let second = server::start(config(&dir)).await.unwrap();
    assert_eq!(second.resumed().await, 0, "a finished game is not resumed");
    let mut w = Client::hello(second.addr()).await.unwrap();
    w.send(&ClientMsg::Watch { room: room.clone() })
        .await
        .unwrap();
    let s = state(&mut w, Some(Event::Sync)).await;
    assert_eq!(s.moves, ["b6", "b2"]);
    assert_eq!(s.outcome, over.outcome);
    assert_eq!(
        s.outcome.map(|o| (o.winner, o.reason)),
        Some((Some(Side::Second), EndReason::Resignation))
    );
    assert_eq!(s.you, None);
    for msg in [
        ClientMsg::Move {
            ply: 2,
            mv: "c5".into(),
        },
        ClientMsg::Rematch,
        ClientMsg::Resign,
    ] {
        w.send(&msg).await.unwrap();
        match w.recv(WAIT).await.unwrap() {
            ServerMsg::Refused { .. } => {}
            other => panic!("{msg:?} from a spectator: expected a refusal, got {other:?}"),
        }
        // The refusal comes with the state as it was.
        let s = state(&mut w, Some(Event::Sync)).await;
        assert_eq!(
            (&s.moves, s.outcome),
            (&over.moves, over.outcome),
            "{msg:?}"
        );
    }
    // Unchanged, for a second spectator too.
    let mut v = Client::hello(second.addr()).await.unwrap();
    v.send(&ClientMsg::Watch { room }).await.unwrap();
    let s = state(&mut v, Some(Event::Sync)).await;
    assert_eq!((s.moves, s.outcome), (over.moves, over.outcome));
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
