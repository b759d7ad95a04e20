//! The online server over real WebSockets on loopback: an in-process server
//! on port 0 per test, driven by `server::client::Client`. Every wait is
//! for a message, with a timeout; no test sleeps to let time pass except
//! where the passing time is what is tested (downtime across a restart).

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{data_dir, eventually, seat, state, Seat, Table, WAIT};

use stoneplay::games::any::{AnyRecord, Variant};
use stoneplay::games::ataxx::{parse_square, AtaxxIllegal, AtaxxRules, NoMoveRule};
use stoneplay::games::mill::{MillRules, Preset};
use stoneplay::games::stones::StonesRules;
use stoneplay::games::{EndReason, Illegal, Side};
use stoneplay::protocol::online::{
    ClientMsg, ErrorCode, Event, GameState, Refusal, ServerMsg, SideChoice, Status,
    MAX_MESSAGE_BYTES,
};
use stoneplay::server::client::{Client, Recv};
use stoneplay::server::{self, Config, Server};

/// Pauses end by themselves after 300 ms here.
fn config(dir: &std::path::Path) -> Config {
    Config {
        auto_resume: Duration::from_millis(300),
        ..common::config(dir)
    }
}

async fn start(name: &str) -> (Server, PathBuf) {
    let dir = data_dir(name);
    let server = server::start(config(&dir)).await.expect("server starts");
    (server, dir)
}

/// The next message must be `refused` with `code`, followed by a state.
async fn refused(c: &mut Client, code: Refusal) -> GameState {
    match c.recv(WAIT).await.expect("an answer") {
        ServerMsg::Refused {
            code: got, reason, ..
        } => {
            assert_eq!(got, code, "refused for {reason}");
            assert!(!reason.is_empty());
        }
        other => panic!("expected refused {code:?}, got {other:?}"),
    }
    let s = state(c, None).await;
    assert_eq!(s.event, Event::Sync);
    s
}

/// The next message must be `refused` with `code` (no room state follows).
async fn refused_outside(c: &mut Client, code: Refusal) {
    common::refused_outside(c, code).await;
}

async fn error(c: &mut Client, code: ErrorCode) {
    match c.recv(WAIT).await.expect("an answer") {
        ServerMsg::Error { code: got, message } => assert_eq!(got, code, "{message}"),
        other => panic!("expected error {code:?}, got {other:?}"),
    }
}

/// Plays random legal moves to the end; a spectator watches throughout.
async fn full_game(game: Variant, seed: u64) -> GameState {
    let (server, _dir) = start("full").await;
    let mut t = Table::new(server.addr(), game, 60, SideChoice::First).await;
    let mut watcher = Client::hello(server.addr()).await.unwrap();
    watcher
        .send(&ClientMsg::Watch {
            room: t.a_seat.room.clone(),
        })
        .await
        .unwrap();
    let w = state(&mut watcher, Some(Event::Sync)).await;
    assert_eq!(w.you, None);
    let mut seed = seed;
    let mut plies = 0;
    while t.state.outcome.is_none() {
        let mv = t.pick(&mut seed);
        t.play(&mv).await;
        let seen = state(&mut watcher, Some(Event::Moved)).await;
        assert_eq!(seen.moves, t.state.moves);
        plies += 1;
        assert!(plies < 2000, "the game should end");
    }
    let end = t.state.clone();
    assert_eq!(end.status, Status::Over);
    assert!(!end.clock.running);
    // A move after the end is refused.
    let ply = end.moves.len() as u32;
    t.a.send(&ClientMsg::Move {
        ply,
        mv: "a1".into(),
    })
    .await
    .unwrap();
    refused(&mut t.a, Refusal::GameOver).await;
    server.shutdown().await;
    end
}

#[tokio::test]
async fn territory_duel_full_game() {
    // Asked for with the lose rule: online games always use the pass rule.
    let end = full_game(
        Variant::Ataxx(AtaxxRules {
            no_move: NoMoveRule::Lose,
        }),
        1,
    )
    .await;
    assert_eq!(
        end.game,
        Variant::Ataxx(AtaxxRules {
            no_move: NoMoveRule::Pass
        })
    );
    assert_ne!(end.outcome.unwrap().reason, EndReason::NoLegalMove);
}

#[tokio::test]
async fn stones_full_game() {
    let end = full_game(Variant::Stones(StonesRules), 2).await;
    assert!(end.outcome.is_some());
}

#[tokio::test]
async fn mill_full_game() {
    let end = full_game(Variant::Mill(MillRules::default()), 3).await;
    assert!(end.outcome.is_some());
    let end = full_game(Variant::Mill(Preset::LaskerMorris.rules()), 4).await;
    assert!(end.outcome.is_some());
}

/// Issue 36: the refusal of an illegal move carries its typed reason as
/// `why` (its code, `ataxx.occupied:a1`) beside the English `reason`, as
/// the page's codec reads it; a refusal that is not about the move's
/// legality has none.
#[tokio::test]
async fn an_illegal_move_is_refused_with_its_typed_reason() {
    let (server, _dir) = start("refused-why").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    let sq = |name: &str| parse_square(name).unwrap();
    let cases = [
        (
            "a1",
            AtaxxIllegal::Occupied { to: sq("a1") },
            "illegal move: a1 is occupied",
        ),
        (
            "d4",
            AtaxxIllegal::Alone { to: sq("d4") },
            "illegal move: no piece of the side to move stands next to d4",
        ),
        (
            "g7e5",
            AtaxxIllegal::NotYours { from: sq("g7") },
            "illegal move: the piece on g7 belongs to the opponent",
        ),
    ];
    for (mv, want, english) in &cases {
        t.a.send(&ClientMsg::Move {
            ply: 0,
            mv: mv.to_string(),
        })
        .await
        .unwrap();
        match t.a.recv(WAIT).await.expect("an answer") {
            ServerMsg::Refused { code, reason, why } => {
                assert_eq!(code, Refusal::IllegalMove, "{mv}");
                assert_eq!(why, Some(Illegal::Ataxx(*want)), "{mv}");
                assert_eq!(reason, *english, "{mv}");
            }
            other => panic!("{mv}: expected refused, got {other:?}"),
        }
        assert_eq!(state(&mut t.a, None).await.event, Event::Sync);
    }
    // Not about the move: no typed reason.
    t.b.send(&ClientMsg::Move {
        ply: 0,
        mv: "a2".into(),
    })
    .await
    .unwrap();
    match t.b.recv(WAIT).await.expect("an answer") {
        ServerMsg::Refused { code, why, .. } => {
            assert_eq!(code, Refusal::NotYourTurn);
            assert_eq!(why, None);
        }
        other => panic!("expected refused, got {other:?}"),
    }
}

#[tokio::test]
async fn illegal_out_of_turn_stale_and_wrong_token_moves_are_refused() {
    let (server, _dir) = start("refused").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    // Illegal: b1 is not next to an X piece at the start.
    t.a.send(&ClientMsg::Move {
        ply: 0,
        mv: "d4".into(),
    })
    .await
    .unwrap();
    let s = refused(&mut t.a, Refusal::IllegalMove).await;
    assert!(s.moves.is_empty());
    // Malformed move text.
    t.a.send(&ClientMsg::Move {
        ply: 0,
        mv: "zz99".into(),
    })
    .await
    .unwrap();
    refused(&mut t.a, Refusal::IllegalMove).await;
    // Out of turn: the second player moves first.
    t.b.send(&ClientMsg::Move {
        ply: 0,
        mv: "a2".into(),
    })
    .await
    .unwrap();
    refused(&mut t.b, Refusal::NotYourTurn).await;
    // Stale ply.
    t.a.send(&ClientMsg::Move {
        ply: 5,
        mv: "b6".into(),
    })
    .await
    .unwrap();
    refused(&mut t.a, Refusal::StalePly).await;
    t.play("b6").await;
    // A stranger with a made-up token gets no seat, so cannot move.
    let mut stranger = Client::hello(server.addr()).await.unwrap();
    stranger
        .send(&ClientMsg::Reconnect {
            room: t.a_seat.room.clone(),
            token: "a".repeat(32),
        })
        .await
        .unwrap();
    refused_outside(&mut stranger, Refusal::BadToken).await;
    // The opponent's token does not work in another room either.
    let other = Table::new(
        server.addr(),
        Variant::Stones(StonesRules),
        60,
        SideChoice::First,
    )
    .await;
    stranger
        .send(&ClientMsg::Reconnect {
            room: other.a_seat.room.clone(),
            token: t.b_seat.token.clone(),
        })
        .await
        .unwrap();
    refused_outside(&mut stranger, Refusal::BadToken).await;
    stranger
        .send(&ClientMsg::Move {
            ply: 1,
            mv: "a2".into(),
        })
        .await
        .unwrap();
    refused_outside(&mut stranger, Refusal::NotInRoom).await;
    // Nothing changed; the game goes on.
    t.play("a2").await;
    assert_eq!(t.state.moves, ["b6", "a2"]);
    server.shutdown().await;
}

#[tokio::test]
async fn timeout_loses_on_the_server_clock() {
    let (server, _dir) = start("timeout").await;
    let mut bad = Client::hello(server.addr()).await.unwrap();
    bad.send(&ClientMsg::Create {
        game: Variant::Stones(StonesRules),
        clock_secs: Some(0),
        side: SideChoice::Random,
        rated: false,
    })
    .await
    .unwrap();
    refused_outside(&mut bad, Refusal::BadGame).await;

    let mut t = Table::new(
        server.addr(),
        Variant::Stones(StonesRules),
        1,
        SideChoice::Second,
    )
    .await;
    assert_eq!(t.state.clock.per_move_ms, 1000);
    assert!(t.state.clock.remaining_ms <= 1000);
    let end = state(&mut t.a, Some(Event::Timeout)).await;
    let seen = state(&mut t.b, Some(Event::Timeout)).await;
    assert_eq!(
        end,
        GameState {
            you: end.you,
            ..seen
        }
    );
    let outcome = end.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::Timeout);
    // The first player (b, who joined) was to move and lost.
    assert_eq!(outcome.winner, Some(Side::Second));
    assert_eq!(t.a_seat.side, Side::Second);
    assert_eq!(end.clock.remaining_ms, 0);
    assert!(!end.clock.running);
    t.b.send(&ClientMsg::Move {
        ply: 0,
        mv: "a1-b2".into(),
    })
    .await
    .unwrap();
    refused(&mut t.b, Refusal::GameOver).await;
    server.shutdown().await;
}

#[tokio::test]
async fn pause_limits_and_auto_resume() {
    let (server, _dir) = start("pause").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Mill(MillRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    let a = t.a_seat.side.index();
    for left in (0..3u8).rev() {
        t.a.send(&ClientMsg::Pause).await.unwrap();
        let s = state(&mut t.a, Some(Event::Paused)).await;
        state(&mut t.b, Some(Event::Paused)).await;
        assert_eq!(s.status, Status::Paused);
        assert_eq!(s.paused_by, Some(t.a_seat.side));
        assert_eq!(s.pauses_left[a], left);
        assert!(!s.clock.running);
        assert!(s.auto_resume_ms.is_some());
        if left == 2 {
            // Moves wait; the other player cannot resume someone else's pause.
            t.a.send(&ClientMsg::Move {
                ply: 0,
                mv: "d6".into(),
            })
            .await
            .unwrap();
            refused(&mut t.a, Refusal::Paused).await;
            t.b.send(&ClientMsg::Unpause).await.unwrap();
            refused(&mut t.b, Refusal::NotYourPause).await;
            t.b.send(&ClientMsg::Pause).await.unwrap();
            refused(&mut t.b, Refusal::Paused).await;
        }
        t.a.send(&ClientMsg::Unpause).await.unwrap();
        let s = state(&mut t.a, Some(Event::Unpaused)).await;
        state(&mut t.b, Some(Event::Unpaused)).await;
        assert_eq!(s.status, Status::Playing);
        assert!(s.clock.running);
    }
    // The fourth pause is refused.
    t.a.send(&ClientMsg::Pause).await.unwrap();
    let s = refused(&mut t.a, Refusal::NoPausesLeft).await;
    assert_eq!(s.pauses_left[a], 0);
    t.a.send(&ClientMsg::Unpause).await.unwrap();
    refused(&mut t.a, Refusal::NotPaused).await;
    // The other player still has three; this pause ends by itself (300 ms here).
    t.b.send(&ClientMsg::Pause).await.unwrap();
    let paused = state(&mut t.a, Some(Event::Paused)).await;
    let remaining = paused.clock.remaining_ms;
    let resumed = state(&mut t.a, Some(Event::AutoUnpaused)).await;
    state(&mut t.b, Some(Event::AutoUnpaused)).await;
    assert_eq!(resumed.status, Status::Playing);
    assert_eq!(resumed.paused_by, None);
    assert!(resumed.clock.running);
    assert!(resumed.clock.remaining_ms <= remaining);
    assert_eq!(resumed.pauses_left[t.b_seat.side.index()], 2);
    t.play("d6").await;
    server.shutdown().await;
}

#[tokio::test]
async fn reconnect_resumes_with_presence_and_a_running_clock() {
    let (server, _dir) = start("reconnect").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    t.play("b6").await;
    // b drops without a word.
    let Table {
        mut a,
        b,
        a_seat,
        b_seat,
        ..
    } = t;
    drop(b);
    match a.recv(WAIT).await.unwrap() {
        ServerMsg::Presence { side, connected } => {
            assert_eq!(side, b_seat.side);
            assert!(!connected);
        }
        other => panic!("expected presence, got {other:?}"),
    }
    a.send(&ClientMsg::Sync).await.unwrap();
    let s = state(&mut a, Some(Event::Sync)).await;
    assert!(s.clock.running, "the clock keeps running while away");
    assert!(!s.connected[b_seat.side.index()]);

    let mut b = Client::hello(server.addr()).await.unwrap();
    b.send(&ClientMsg::Reconnect {
        room: b_seat.room.to_uppercase(),
        token: b_seat.token.clone(),
    })
    .await
    .unwrap();
    let again = seat(&mut b).await;
    assert_eq!((again.side, &again.token), (b_seat.side, &b_seat.token));
    let s = state(&mut b, Some(Event::Sync)).await;
    assert_eq!(s.moves, ["b6"]);
    assert_eq!(s.you, Some(b_seat.side));
    assert_eq!(s.connected, [true, true]);
    match a.recv(WAIT).await.unwrap() {
        ServerMsg::Presence { side, connected } => {
            assert_eq!(side, b_seat.side);
            assert!(connected);
        }
        other => panic!("expected presence, got {other:?}"),
    }
    let mut t = Table {
        a,
        b,
        a_seat,
        b_seat,
        state: s,
    };
    t.play("a2").await;
    server.shutdown().await;
}

#[tokio::test]
async fn restart_resumes_every_game_from_sqlite() {
    let dir = data_dir("restart");
    // Pauses last a minute here: the pause must outlive the restart.
    let config = |dir: &std::path::Path| Config {
        auto_resume: Duration::from_secs(60),
        ..config(dir)
    };
    let first = server::start(config(&dir)).await.unwrap();
    // A game in progress, paused, and another with a running clock.
    let mut paused = Table::new(
        first.addr(),
        Variant::Mill(Preset::LaskerMorris.rules()),
        60,
        SideChoice::First,
    )
    .await;
    for mv in ["d6", "f4", "d2"] {
        paused.play(mv).await;
    }
    paused.a.send(&ClientMsg::Pause).await.unwrap();
    let before_pause = state(&mut paused.a, Some(Event::Paused)).await;
    let mut running = Table::new(
        first.addr(),
        Variant::Stones(StonesRules),
        60,
        SideChoice::Random,
    )
    .await;
    let mut seed = 7;
    for _ in 0..3 {
        let mv = running.pick(&mut seed);
        running.play(&mv).await;
    }
    // And a room still waiting for the friend.
    let mut lonely = Client::hello(first.addr()).await.unwrap();
    lonely
        .send(&ClientMsg::Create {
            game: Variant::Ataxx(AtaxxRules::default()),
            clock_secs: None,
            side: SideChoice::Second,
            rated: false,
        })
        .await
        .unwrap();
    let lonely_seat = seat(&mut lonely).await;
    state(&mut lonely, None).await;

    running.a.send(&ClientMsg::Sync).await.unwrap();
    let before_stop = state(&mut running.a, Some(Event::Sync)).await;
    first.shutdown().await;
    // Every client is told the server is restarting.
    for c in [&mut paused.a, &mut running.b, &mut lonely] {
        loop {
            match c.next(WAIT).await {
                Ok(Recv::Msg(_)) => continue,
                Ok(Recv::Closed(frame)) => {
                    assert_eq!(frame.map(|f| u16::from(f.code)), Some(1012));
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    // Downtime is not charged: the clock continues from where it stopped.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let second = server::start(config(&dir)).await.unwrap();
    // The two started games; the waiting room is loaded when asked for.
    assert_eq!(second.resumed().await, 2);
    assert_eq!(second.rooms_in_memory(), 2);
    let addr = second.addr();
    let rejoin = |seat: &Seat| ClientMsg::Reconnect {
        room: seat.room.clone(),
        token: seat.token.clone(),
    };

    // The paused game: same moves, same pause, same pauses left.
    let mut a = Client::hello(addr).await.unwrap();
    a.send(&rejoin(&paused.a_seat)).await.unwrap();
    seat(&mut a).await;
    let s = state(&mut a, Some(Event::Sync)).await;
    assert_eq!(s.moves, before_pause.moves);
    assert_eq!(s.game, before_pause.game);
    assert_eq!(s.status, Status::Paused);
    assert_eq!(s.paused_by, Some(paused.a_seat.side));
    assert_eq!(s.pauses_left, before_pause.pauses_left);
    assert_eq!(s.clock.remaining_ms, before_pause.clock.remaining_ms);
    // The pause's own timer was not charged for the downtime either.
    let (left_before, left_after) = (
        before_pause.auto_resume_ms.unwrap(),
        s.auto_resume_ms.unwrap(),
    );
    assert!(
        left_after + 1000 > left_before && left_after <= left_before,
        "{left_before} ms of pause before the restart, {left_after} after"
    );
    let mut b = Client::hello(addr).await.unwrap();
    b.send(&rejoin(&paused.b_seat)).await.unwrap();
    seat(&mut b).await;
    let sb = state(&mut b, Some(Event::Sync)).await;
    a.send(&ClientMsg::Unpause).await.unwrap();
    state(&mut a, Some(Event::Unpaused)).await;
    let mut t = Table {
        a,
        b,
        a_seat: paused.a_seat,
        b_seat: paused.b_seat,
        state: sb,
    };
    t.state = state(&mut t.b, Some(Event::Unpaused)).await;
    let mut seed = 11;
    for _ in 0..4 {
        let mv = t.pick(&mut seed);
        t.play(&mv).await;
    }
    assert_eq!(t.state.moves.len(), 7);

    // The running game: its clock went on from the saved time, not minus the downtime.
    let mut a = Client::hello(addr).await.unwrap();
    a.send(&rejoin(&running.a_seat)).await.unwrap();
    seat(&mut a).await;
    let s = state(&mut a, Some(Event::Sync)).await;
    assert_eq!(s.moves, before_stop.moves);
    assert!(s.clock.running);
    assert!(
        s.clock.remaining_ms + 1000 > before_stop.clock.remaining_ms,
        "downtime charged: {} ms left before the restart, {} after",
        before_stop.clock.remaining_ms,
        s.clock.remaining_ms
    );

    // The waiting room can still be joined with its key.
    let mut friend = Client::hello(addr).await.unwrap();
    friend
        .send(&ClientMsg::Join {
            room: lonely_seat.room.clone(),
            key: lonely_seat.join_key.clone().unwrap(),
        })
        .await
        .unwrap();
    let fs = seat(&mut friend).await;
    assert_eq!(fs.side, Side::First);
    let s = state(&mut friend, Some(Event::Started)).await;
    assert_eq!(s.status, Status::Playing);
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn malformed_unknown_and_oversized_messages() {
    let (server, _dir) = start("malformed").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Stones(StonesRules),
        60,
        SideChoice::First,
    )
    .await;

    // Before hello.
    let mut c = Client::connect(server.addr()).await.unwrap();
    c.send(&ClientMsg::Sync).await.unwrap();
    error(&mut c, ErrorCode::HelloFirst).await;
    c.send(&ClientMsg::Hello { v: 99 }).await.unwrap();
    error(&mut c, ErrorCode::Version).await;
    match c.next(WAIT).await.unwrap() {
        Recv::Closed(frame) => assert_eq!(frame.map(|f| u16::from(f.code)), Some(4001)),
        other => panic!("expected close, got {other:?}"),
    }

    let mut c = Client::hello(server.addr()).await.unwrap();
    for (text, code) in [
        ("not json", ErrorCode::BadJson),
        ("{\"type\":\"move\"", ErrorCode::BadJson),
        ("{\"type\":\"fly\",\"to\":\"moon\"}", ErrorCode::UnknownType),
        ("{\"no\":\"type\"}", ErrorCode::UnknownType),
        ("[1,2,3]", ErrorCode::UnknownType),
        (
            "{\"type\":\"move\",\"ply\":\"x\",\"mv\":1}",
            ErrorCode::BadMessage,
        ),
        (
            "{\"type\":\"create\",\"game\":{\"Chess\":null}}",
            ErrorCode::BadMessage,
        ),
        (
            &format!("{}1{}", "[".repeat(1000), "]".repeat(1000)),
            ErrorCode::BadJson,
        ),
    ] {
        c.send_text(text).await.unwrap();
        error(&mut c, code).await;
    }
    c.send_binary(vec![0, 1, 2]).await.unwrap();
    error(&mut c, ErrorCode::Binary).await;
    c.send(&ClientMsg::Ping { t: 42 }).await.unwrap();
    assert!(matches!(
        c.recv(WAIT).await.unwrap(),
        ServerMsg::Pong { t: 42, .. }
    ));

    // Over 4 KiB: the connection is closed (1009), the server goes on.
    let huge = format!(
        "{{\"type\":\"join\",\"room\":\"{}\",\"key\":\"k\"}}",
        "a".repeat(MAX_MESSAGE_BYTES)
    );
    c.send_text(&huge).await.unwrap();
    match c.next(WAIT).await {
        Ok(Recv::Closed(Some(f))) => assert_eq!(u16::from(f.code), 1009, "{f:?}"),
        other => panic!("expected the 1009 close, got {other:?}"),
    }

    // A client that vanishes in the middle of a frame.
    {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut raw = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
        raw.write_all(
            b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        )
        .await
        .unwrap();
        let mut buf = [0u8; 1024];
        let n = raw.read(&mut buf).await.unwrap();
        assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 101"));
        // A masked text frame announcing 100 bytes, cut after 10.
        raw.write_all(&[
            0x81,
            0x80 | 100,
            1,
            2,
            3,
            4,
            b'{',
            b'"',
            b't',
            b'y',
            b'p',
            b'e',
        ])
        .await
        .unwrap();
    }

    // The game in progress never noticed.
    t.play("a1-b2").await;
    t.a.send(&ClientMsg::Ping { t: 1 }).await.unwrap();
    assert!(matches!(
        t.a.recv(WAIT).await.unwrap(),
        ServerMsg::Pong { t: 1, .. }
    ));
    server.shutdown().await;
}

#[tokio::test]
async fn spectators_watch_but_cannot_act() {
    let (server, _dir) = start("spectator").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    let mut w = Client::hello(server.addr()).await.unwrap();
    w.send(&ClientMsg::Watch {
        room: "doesnotexist2345".into(),
    })
    .await
    .unwrap();
    refused_outside(&mut w, Refusal::NoSuchRoom).await;
    // The room code alone does not let anyone sit down.
    w.send(&ClientMsg::Join {
        room: t.a_seat.room.clone(),
        key: String::new(),
    })
    .await
    .unwrap();
    refused_outside(&mut w, Refusal::RoomFull).await;
    w.send(&ClientMsg::Watch {
        room: t.a_seat.room.clone(),
    })
    .await
    .unwrap();
    let s = state(&mut w, Some(Event::Sync)).await;
    assert_eq!(s.you, None);
    assert_eq!(s.spectators, 1);
    for msg in [
        ClientMsg::Move {
            ply: 0,
            mv: "b6".into(),
        },
        ClientMsg::Pause,
        ClientMsg::Resign,
        ClientMsg::OfferDraw,
        ClientMsg::AnswerDraw { accept: true },
        ClientMsg::Rematch,
    ] {
        w.send(&msg).await.unwrap();
        let s = refused(&mut w, Refusal::Spectator).await;
        assert!(s.moves.is_empty());
    }
    t.play("b6").await;
    let s = state(&mut w, Some(Event::Moved)).await;
    assert_eq!(s.moves, ["b6"]);
    assert_eq!(s.you, None);
    t.a.send(&ClientMsg::Sync).await.unwrap();
    assert_eq!(state(&mut t.a, Some(Event::Sync)).await.spectators, 1);
    server.shutdown().await;
}

#[tokio::test]
async fn quick_match_pairs_the_next_player_waiting() {
    let (server, _dir) = start("quick").await;
    let addr = server.addr();
    let stones = Variant::Stones(StonesRules);
    let mut c1 = Client::hello(addr).await.unwrap();
    let mut c2 = Client::hello(addr).await.unwrap();
    let mut c3 = Client::hello(addr).await.unwrap();
    c1.send(&ClientMsg::QuickMatch {
        game: stones,
        clock_secs: None,
        rated: false,
    })
    .await
    .unwrap();
    assert_eq!(
        c1.recv(WAIT).await.unwrap(),
        ServerMsg::Queued {
            game: stones,
            clock_secs: 30
        }
    );
    c1.send(&ClientMsg::QuickMatch {
        game: stones,
        clock_secs: None,
        rated: false,
    })
    .await
    .unwrap();
    refused_outside(&mut c1, Refusal::AlreadyQueued).await;
    // Another game (or clock) waits in its own queue.
    c2.send(&ClientMsg::QuickMatch {
        game: Variant::Mill(MillRules::default()),
        clock_secs: Some(30),
        rated: false,
    })
    .await
    .unwrap();
    assert!(matches!(
        c2.recv(WAIT).await.unwrap(),
        ServerMsg::Queued { .. }
    ));
    c3.send(&ClientMsg::QuickMatch {
        game: stones,
        clock_secs: Some(30),
        rated: false,
    })
    .await
    .unwrap();
    let s3 = seat(&mut c3).await;
    let st3 = state(&mut c3, Some(Event::Started)).await;
    let s1 = seat(&mut c1).await;
    let st1 = state(&mut c1, Some(Event::Started)).await;
    assert_eq!(s1.room, s3.room);
    assert_eq!(s1.side, s3.side.opponent());
    assert!(s1.join_key.is_none());
    assert_eq!(st1.status, Status::Playing);
    assert_eq!(st3.you, Some(s3.side));
    c2.send(&ClientMsg::CancelQuickMatch).await.unwrap();
    assert_eq!(c2.recv(WAIT).await.unwrap(), ServerMsg::QueueCancelled);
    c2.send(&ClientMsg::CancelQuickMatch).await.unwrap();
    refused_outside(&mut c2, Refusal::NotQueued).await;
    let (a, a_seat, b, b_seat) = (c1, s1, c3, s3);
    let mut t = Table {
        a,
        b,
        a_seat,
        b_seat,
        state: st1,
    };
    let mut seed = 5;
    let mv = t.pick(&mut seed);
    t.play(&mv).await;
    server.shutdown().await;
}

#[tokio::test]
async fn draw_offers_decline_lapse_and_accept() {
    let (server, _dir) = start("draw").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    let a_side = t.a_seat.side;
    t.b.send(&ClientMsg::AnswerDraw { accept: true })
        .await
        .unwrap();
    refused(&mut t.b, Refusal::NoDrawOffer).await;
    t.a.send(&ClientMsg::OfferDraw).await.unwrap();
    let s = state(&mut t.b, Some(Event::DrawOffered)).await;
    assert_eq!(s.draw_offer, Some(a_side));
    state(&mut t.a, Some(Event::DrawOffered)).await;
    t.a.send(&ClientMsg::OfferDraw).await.unwrap();
    refused(&mut t.a, Refusal::DrawAlreadyOffered).await;
    t.b.send(&ClientMsg::AnswerDraw { accept: false })
        .await
        .unwrap();
    let s = state(&mut t.a, Some(Event::DrawDeclined)).await;
    assert_eq!(s.draw_offer, None);
    state(&mut t.b, Some(Event::DrawDeclined)).await;
    // One offer per own move.
    t.a.send(&ClientMsg::OfferDraw).await.unwrap();
    refused(&mut t.a, Refusal::DrawAlreadyOffered).await;
    t.play("b6").await;
    t.a.send(&ClientMsg::OfferDraw).await.unwrap();
    state(&mut t.a, Some(Event::DrawOffered)).await;
    state(&mut t.b, Some(Event::DrawOffered)).await;
    // The opponent moves instead of answering: the offer lapses.
    t.play("a2").await;
    assert_eq!(t.state.draw_offer, None);
    t.b.send(&ClientMsg::AnswerDraw { accept: true })
        .await
        .unwrap();
    refused(&mut t.b, Refusal::NoDrawOffer).await;
    // Offered and accepted.
    t.b.send(&ClientMsg::OfferDraw).await.unwrap();
    state(&mut t.a, Some(Event::DrawOffered)).await;
    state(&mut t.b, Some(Event::DrawOffered)).await;
    t.a.send(&ClientMsg::AnswerDraw { accept: true })
        .await
        .unwrap();
    let s = state(&mut t.b, Some(Event::DrawAgreed)).await;
    let outcome = s.outcome.unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(outcome.reason, EndReason::Agreement);
    assert_eq!(s.status, Status::Over);
    server.shutdown().await;
}

#[tokio::test]
async fn resign_then_rematch_with_sides_swapped() {
    let (server, _dir) = start("rematch").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Stones(StonesRules),
        60,
        SideChoice::First,
    )
    .await;
    t.a.send(&ClientMsg::Rematch).await.unwrap();
    refused(&mut t.a, Refusal::NotOver).await;
    t.play("a1-b2").await;
    t.a.send(&ClientMsg::Resign).await.unwrap();
    let s = state(&mut t.b, Some(Event::Resigned)).await;
    state(&mut t.a, Some(Event::Resigned)).await;
    let outcome = s.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::Resignation);
    assert_eq!(outcome.winner, Some(t.b_seat.side));
    t.a.send(&ClientMsg::Resign).await.unwrap();
    refused(&mut t.a, Refusal::GameOver).await;

    t.a.send(&ClientMsg::Rematch).await.unwrap();
    let s = state(&mut t.b, Some(Event::RematchOffered)).await;
    assert!(s.rematch[t.a_seat.side.index()]);
    state(&mut t.a, Some(Event::RematchOffered)).await;
    t.a.send(&ClientMsg::Rematch).await.unwrap();
    refused(&mut t.a, Refusal::AlreadyAsked).await;
    t.b.send(&ClientMsg::Rematch).await.unwrap();
    let sa = state(&mut t.a, Some(Event::Rematch)).await;
    let sb = state(&mut t.b, Some(Event::Rematch)).await;
    assert_eq!(sa.game_no, 2);
    assert_eq!(sa.room, t.a_seat.room);
    assert!(sa.moves.is_empty());
    assert_eq!(sa.outcome, None);
    assert!(sa.clock.running);
    assert_eq!(sa.you, Some(Side::Second));
    assert_eq!(sb.you, Some(Side::First));
    assert_eq!(sa.rematch, [false, false]);
    // The tokens stay with the players; their sides swapped.
    t.a_seat.side = Side::Second;
    t.b_seat.side = Side::First;
    t.state = sa;
    t.play("a1-b2").await;
    assert_eq!(t.state.to_move, Side::Second);
    // A reconnect tells the new side.
    let mut again = Client::hello(server.addr()).await.unwrap();
    again
        .send(&ClientMsg::Reconnect {
            room: t.a_seat.room.clone(),
            token: t.a_seat.token.clone(),
        })
        .await
        .unwrap();
    assert_eq!(seat(&mut again).await.side, Side::Second);
    server.shutdown().await;
}

#[tokio::test]
async fn joining_needs_the_key_and_a_free_seat() {
    let (server, _dir) = start("join").await;
    let addr = server.addr();
    let mut a = Client::hello(addr).await.unwrap();
    a.send(&ClientMsg::Create {
        game: Variant::Mill(MillRules {
            pieces: 20,
            ..MillRules::default()
        }),
        clock_secs: None,
        side: SideChoice::Random,
        rated: false,
    })
    .await
    .unwrap();
    refused_outside(&mut a, Refusal::BadGame).await;
    a.send(&ClientMsg::Create {
        game: Variant::Mill(Preset::Morabaraba.rules()),
        clock_secs: None,
        side: SideChoice::Random,
        rated: false,
    })
    .await
    .unwrap();
    let a_seat = seat(&mut a).await;
    let s = state(&mut a, None).await;
    assert_eq!(s.clock.per_move_ms, 30_000);
    assert_eq!(s.game, Variant::Mill(Preset::Morabaraba.rules()));
    let key = a_seat.join_key.clone().unwrap();
    assert_ne!(key, a_seat.room);
    // Moves before the friend joins are refused.
    a.send(&ClientMsg::Move {
        ply: 0,
        mv: "d6".into(),
    })
    .await
    .unwrap();
    refused(&mut a, Refusal::NotStarted).await;

    let mut b = Client::hello(addr).await.unwrap();
    b.send(&ClientMsg::Join {
        room: a_seat.room.clone(),
        key: "wrongwrongwrong2".into(),
    })
    .await
    .unwrap();
    refused_outside(&mut b, Refusal::BadKey).await;
    b.send(&ClientMsg::Join {
        room: "nosuchroomatall2".into(),
        key: key.clone(),
    })
    .await
    .unwrap();
    refused_outside(&mut b, Refusal::NoSuchRoom).await;
    b.send(&ClientMsg::Join {
        room: a_seat.room.clone(),
        key: key.clone(),
    })
    .await
    .unwrap();
    let b_seat = seat(&mut b).await;
    assert_eq!(b_seat.side, a_seat.side.opponent());
    state(&mut b, Some(Event::Started)).await;
    let mut c = Client::hello(addr).await.unwrap();
    c.send(&ClientMsg::Join {
        room: a_seat.room.clone(),
        key,
    })
    .await
    .unwrap();
    refused_outside(&mut c, Refusal::RoomFull).await;
    server.shutdown().await;
}

#[tokio::test]
async fn a_flooding_connection_is_limited_then_closed() {
    let dir = data_dir("rate");
    let server = server::start(Config {
        rate_per_sec: 5,
        burst: 5,
        ..config(&dir)
    })
    .await
    .unwrap();
    let mut c = Client::hello(server.addr()).await.unwrap();
    for t in 0..40 {
        if c.send(&ClientMsg::Ping { t }).await.is_err() {
            break;
        }
    }
    let (mut pongs, mut limited) = (0, 0);
    let closed = loop {
        match c.next(WAIT).await {
            Ok(Recv::Msg(ServerMsg::Pong { .. })) => pongs += 1,
            Ok(Recv::Msg(ServerMsg::Error {
                code: ErrorCode::RateLimited,
                ..
            })) => limited += 1,
            Ok(Recv::Msg(other)) => panic!("unexpected {other:?}"),
            Ok(Recv::Closed(frame)) => break frame,
            Err(e) => panic!("{e}"),
        }
    };
    assert!((4..=8).contains(&pongs), "{pongs} pongs");
    assert!(limited >= 1);
    assert_eq!(closed.map(|f| u16::from(f.code)), Some(1008));
    // Others are not affected.
    let mut d = Client::hello(server.addr()).await.unwrap();
    d.send(&ClientMsg::Ping { t: 9 }).await.unwrap();
    assert!(matches!(
        d.recv(WAIT).await.unwrap(),
        ServerMsg::Pong { t: 9, .. }
    ));
    server.shutdown().await;
}

/// Issue 33, point 4: WebSocket ping frames spend the same budget as
/// messages: a connection that floods them is closed like any flood.
/// (Before: one connection sent 7.2 M pings in 5 s and was never closed.)
#[tokio::test]
async fn a_ping_frame_flood_is_closed_like_a_message_flood() {
    let dir = data_dir("ping-flood");
    let server = server::start(Config {
        rate_per_sec: 10,
        burst: 30,
        ..config(&dir)
    })
    .await
    .unwrap();
    let mut c = Client::hello(server.addr()).await.unwrap();
    let mut sent = 0;
    for _ in 0..5000 {
        if c.send_ping().await.is_err() {
            break;
        }
        sent += 1;
    }
    let closed = loop {
        match c.next(WAIT).await {
            Ok(Recv::Msg(_)) => continue,
            Ok(Recv::Closed(frame)) => break frame,
            Err(e) if e.starts_with("nothing received") => {
                panic!("still open after {sent} pings: {e}")
            }
            // The socket was reset after the close frame.
            Err(_) => break None,
        }
    };
    if let Some(f) = closed {
        assert_eq!(u16::from(f.code), 1008, "{f:?}");
    }
    // Gone even though this client never answers the close: the server
    // waits at most 2 s for the closing handshake, through the pings still
    // queued.
    assert!(
        eventually(Duration::from_secs(5), || server.connections() == 0).await,
        "the flooding connection is gone"
    );
    // Others are not affected.
    let mut d = Client::hello(server.addr()).await.unwrap();
    d.send(&ClientMsg::Ping { t: 9 }).await.unwrap();
    assert!(matches!(
        d.recv(WAIT).await.unwrap(),
        ServerMsg::Pong { t: 9, .. }
    ));
    server.shutdown().await;
}

/// Issue 33 (b): the side that offered a draw can neither accept nor
/// decline its own offer (the page never shows it the buttons, so only
/// the raw protocol can try): both are refused, and the game and the
/// offer are as they were.
#[tokio::test]
async fn the_offerer_cannot_answer_its_own_draw_offer() {
    let (server, _dir) = start("own-offer").await;
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    t.play("b6").await;
    let a_side = t.a_seat.side;
    t.a.send(&ClientMsg::OfferDraw).await.unwrap();
    let offered = state(&mut t.a, Some(Event::DrawOffered)).await;
    state(&mut t.b, Some(Event::DrawOffered)).await;
    for accept in [true, false] {
        t.a.send(&ClientMsg::AnswerDraw { accept }).await.unwrap();
        let s = refused(&mut t.a, Refusal::NoDrawOffer).await;
        assert_eq!(s.draw_offer, Some(a_side), "accept: {accept}");
        assert_eq!(s.status, Status::Playing);
        assert_eq!(s.outcome, None);
        assert_eq!(s.moves, offered.moves);
        // The opponent hears nothing of it.
        assert!(t.b.recv(Duration::from_millis(200)).await.is_err());
    }
    // The offer still stands for the one it was made to.
    t.b.send(&ClientMsg::AnswerDraw { accept: true })
        .await
        .unwrap();
    let s = state(&mut t.a, Some(Event::DrawAgreed)).await;
    assert_eq!(s.outcome.map(|o| o.reason), Some(EndReason::Agreement));
    server.shutdown().await;
}

#[tokio::test]
async fn serves_the_app_and_the_websocket_on_one_port() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = data_dir("static");
    let site = dir.join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(
        site.join("index.html"),
        "<!doctype html><title>Stoneplay</title>",
    )
    .unwrap();
    let server = server::start(Config {
        static_dir: Some(site),
        ..config(&dir.join("data"))
    })
    .await
    .unwrap();
    let mut http = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    http.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut page = String::new();
    http.read_to_string(&mut page).await.unwrap();
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<title>Stoneplay</title>"));
    let c = Client::hello(server.addr()).await.unwrap();
    c.close().await;
    server.shutdown().await;
}

/// Issue 11: a cycle of flipping jumps repeats the position, and the
/// server ends the game by repetition on its third occurrence; issue 38:
/// decided by the piece count, as the rules file says (X, 3 pieces to 2,
/// wins).
#[tokio::test]
async fn a_cycle_of_flipping_jumps_ends_by_repetition_decided_by_count() {
    let (server, _dir) = start("flip-cycle").await;
    let spec = Variant::Ataxx(AtaxxRules::default());
    let mut t = Table::new(server.addr(), spec, 60, SideChoice::First).await;
    // X gets pieces on d1 and g3 (O to move after e1g3, O on a1 and g7).
    for mv in ["g1e1", "g7g5", "d1", "g5g7", "e1g3"] {
        t.play(mv).await;
    }
    // O's a1c2 flips d1, X's g3e2 flips it back, both jump home.
    let cycle = ["a1c2", "g3e2", "c2a1", "e2g3"];
    for (i, mv) in cycle.iter().chain(&cycle).enumerate() {
        assert_eq!(t.state.outcome, None, "before cycle ply {}", i + 1);
        t.play(mv).await;
    }
    let end = t.state.clone();
    let outcome = end.outcome.expect("the third occurrence ends the game");
    assert_eq!(outcome.reason, EndReason::Repetition);
    // X has a7, d1 and g3, O a1 and g7: more pieces wins.
    let replay = AnyRecord::restore(&spec, &end.start, &end.moves).unwrap();
    let AnyRecord::Ataxx(r) = &replay else {
        panic!("a Territory Duel game")
    };
    assert_eq!(r.position().count(Side::First), 3);
    assert_eq!(r.position().count(Side::Second), 2);
    assert_eq!(outcome.winner, Some(Side::First), "X wins on the count");
    assert_eq!(replay.outcome(), Some(outcome), "the page reads the same");
    assert_eq!(end.status, Status::Over);
    assert_eq!(end.moves.len(), 13);
    t.a.send(&ClientMsg::Move {
        ply: 13,
        mv: "a1c2".into(),
    })
    .await
    .unwrap();
    refused(&mut t.a, Refusal::GameOver).await;
    server.shutdown().await;
}

/// The server stamps its clock on `welcome`, `pong` and every state's
/// clock, so a page can take the message's travel time off the clock it
/// shows (`Session::clock_left`).
#[tokio::test]
async fn welcome_pong_and_the_clock_carry_the_server_time() {
    let (server, _dir) = start("server-time").await;
    let unix_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64
    };
    let within = |before: u64, at: u64, after: u64| {
        assert!(before <= at && at <= after, "{before} <= {at} <= {after}");
    };
    let before = unix_ms();
    let mut c = Client::connect(server.addr()).await.unwrap();
    c.send(&ClientMsg::Hello {
        v: stoneplay::protocol::online::PROTOCOL_VERSION,
    })
    .await
    .unwrap();
    match c.recv(WAIT).await.unwrap() {
        ServerMsg::Welcome { server_ms, .. } => within(before, server_ms, unix_ms()),
        other => panic!("expected welcome, got {other:?}"),
    }
    let before = unix_ms();
    c.send(&ClientMsg::Ping { t: 7 }).await.unwrap();
    match c.recv(WAIT).await.unwrap() {
        ServerMsg::Pong { t, server_ms } => {
            assert_eq!(t, 7);
            within(before, server_ms, unix_ms());
        }
        other => panic!("expected pong, got {other:?}"),
    }
    let before = unix_ms();
    let mut t = Table::new(
        server.addr(),
        Variant::Ataxx(AtaxxRules::default()),
        60,
        SideChoice::First,
    )
    .await;
    within(before, t.state.clock.at_ms, unix_ms());
    let before = unix_ms();
    let s = t.play("b6").await;
    within(before, s.clock.at_ms, unix_ms());
    assert!(s.clock.running);
    server.shutdown().await;
}
