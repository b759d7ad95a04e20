//! Every resource a client can make the server hold is bounded: rooms
//! nobody joined expire, rooms nobody is in leave memory, new games are
//! limited per client address (issue 13, point 2).
#![cfg(feature = "server")]

mod common;

use std::time::Duration;

use common::{config, data_dir, eventually, refused_outside, seat, state, Seat, WAIT};
use stoneplay::games::any::Variant;
use stoneplay::games::ataxx::AtaxxRules;
use stoneplay::protocol::online::{ClientMsg, Event, Refusal, ServerMsg, SideChoice};
use stoneplay::server::client::Client;
use stoneplay::server::store::Store;
use stoneplay::server::{self, Config};

fn ataxx() -> Variant {
    Variant::Ataxx(AtaxxRules::default())
}

fn create(clock_secs: u32) -> ClientMsg {
    ClientMsg::Create {
        game: ataxx(),
        clock_secs: Some(clock_secs),
        side: SideChoice::First,
        rated: false,
    }
}

/// A new connection that creates a room; returns it with its seat.
async fn host(addr: std::net::SocketAddr, clock_secs: u32) -> (Client, Seat) {
    let mut c = Client::hello(addr).await.unwrap();
    c.send(&create(clock_secs)).await.unwrap();
    let s = seat(&mut c).await;
    state(&mut c, Some(Event::Sync)).await;
    (c, s)
}

#[tokio::test]
async fn invites_nobody_takes_expire_and_are_deleted() {
    let dir = data_dir("expire");
    let cfg = Config {
        waiting_ttl: Duration::from_millis(1500),
        ..config(&dir)
    };
    let server = server::start(cfg).await.unwrap();
    let addr = server.addr();
    // One creator leaves (the room leaves memory at once), one stays.
    let (gone, left) = host(addr, 60).await;
    gone.close().await;
    assert!(
        eventually(Duration::from_secs(1), || server.rooms_in_memory() == 0).await,
        "a waiting room nobody is in stays in memory"
    );
    let (mut stays, kept) = host(addr, 60).await;
    assert_eq!(server.rooms_in_memory(), 1);

    // Past the time to live: the creator still there is told, and nobody
    // can join either room any more.
    let reason = refused_outside(&mut stays, Refusal::NoSuchRoom).await;
    assert!(reason.contains("expired"), "{reason}");
    assert!(eventually(Duration::from_secs(1), || server.rooms_in_memory() == 0).await);
    for s in [&left, &kept] {
        let mut friend = Client::hello(addr).await.unwrap();
        friend
            .send(&ClientMsg::Join {
                room: s.room.clone(),
                key: s.join_key.clone().unwrap(),
            })
            .await
            .unwrap();
        refused_outside(&mut friend, Refusal::NoSuchRoom).await;
    }
    // A room made now is fine.
    let (_fresh, fresh) = host(addr, 60).await;
    server.shutdown().await;

    // Deleted from the store too, not just hidden.
    let store = Store::open(&dir).unwrap();
    for s in [&left, &kept] {
        assert!(
            store.load(&s.room).await.unwrap().is_none(),
            "{} still stored",
            s.room
        );
    }
    assert!(store.load(&fresh.room).await.unwrap().is_some());
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn a_game_lost_on_time_with_nobody_there_leaves_memory() {
    let dir = data_dir("timeout-freed");
    let cfg = Config {
        min_clock_secs: 1,
        ..config(&dir)
    };
    let server = server::start(cfg).await.unwrap();
    let addr = server.addr();
    let (a, s) = host(addr, 1).await;
    let mut b = Client::hello(addr).await.unwrap();
    b.send(&ClientMsg::Join {
        room: s.room.clone(),
        key: s.join_key.clone().unwrap(),
    })
    .await
    .unwrap();
    state(&mut b, Some(Event::Started)).await;
    a.close().await;
    b.close().await;
    assert_eq!(
        server.rooms_in_memory(),
        1,
        "the game runs while its clock does"
    );
    // The clock runs out with nobody there; the finished room leaves memory.
    assert!(
        eventually(Duration::from_secs(4), || server.rooms_in_memory() == 0).await,
        "a game that ended on time stays in memory"
    );
    // Still stored, and loaded when someone looks.
    let mut c = Client::hello(addr).await.unwrap();
    c.send(&ClientMsg::Watch { room: s.room }).await.unwrap();
    let over = state(&mut c, Some(Event::Sync)).await;
    assert!(over.outcome.is_some());
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn new_games_are_limited_per_address_not_per_connection() {
    let dir = data_dir("per-address");
    let cfg = Config {
        rooms_per_addr: 3,
        room_every: Duration::from_secs(3600),
        ..config(&dir)
    };
    let server = server::start(cfg).await.unwrap();
    let addr = server.addr();
    // Reconnecting does not reset the count.
    for _ in 0..3 {
        host(addr, 60).await.0.close().await;
    }
    let mut c = Client::hello(addr).await.unwrap();
    c.send(&create(60)).await.unwrap();
    let reason = refused_outside(&mut c, Refusal::Full).await;
    assert!(reason.contains("address"), "{reason}");
    c.send(&ClientMsg::QuickMatch {
        game: ataxx(),
        clock_secs: None,
        rated: false,
    })
    .await
    .unwrap();
    refused_outside(&mut c, Refusal::Full).await;
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The creator withdraws an invite nobody has taken: the room is deleted
/// (from memory and the store), a spectator is told, and the links stop
/// working. Nobody else may withdraw it, nor anyone once the friend sat
/// down.
#[tokio::test]
async fn the_creator_can_cancel_an_invite_nobody_took() {
    let dir = data_dir("cancel-invite");
    let server = server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    let (mut creator, s) = host(addr, 60).await;
    let mut watcher = Client::hello(addr).await.unwrap();
    watcher
        .send(&ClientMsg::Watch {
            room: s.room.clone(),
        })
        .await
        .unwrap();
    state(&mut watcher, None).await;
    // The creator hears of the spectator (an update); nothing else.
    while let Ok(m) = creator.recv(Duration::from_millis(300)).await {
        assert!(
            matches!(m, ServerMsg::Update(_) | ServerMsg::State(_)),
            "{m:?}"
        );
    }
    // A spectator cannot withdraw it, and gets the state with the
    // refusal, as every refusal brings (issue 33).
    watcher.send(&ClientMsg::CancelInvite).await.unwrap();
    refused_outside(&mut watcher, Refusal::Spectator).await;
    let s_after = state(&mut watcher, Some(Event::Sync)).await;
    assert_eq!(s_after.you, None);
    assert_eq!(s_after.seated, [true, false], "the invite stands");
    assert_eq!(server.rooms_in_memory(), 1);

    creator.send(&ClientMsg::CancelInvite).await.unwrap();
    for c in [&mut creator, &mut watcher] {
        let why = refused_outside(c, Refusal::NoSuchRoom).await;
        assert!(why.contains("cancelled"), "{why}");
    }
    assert!(eventually(Duration::from_secs(1), || server.rooms_in_memory() == 0).await);
    let mut friend = Client::hello(addr).await.unwrap();
    friend
        .send(&ClientMsg::Join {
            room: s.room.clone(),
            key: s.join_key.clone().unwrap(),
        })
        .await
        .unwrap();
    refused_outside(&mut friend, Refusal::NoSuchRoom).await;

    // Once the friend has joined, the invite is taken.
    let (mut a, t) = host(addr, 60).await;
    let mut b = Client::hello(addr).await.unwrap();
    b.send(&ClientMsg::Join {
        room: t.room.clone(),
        key: t.join_key.clone().unwrap(),
    })
    .await
    .unwrap();
    state(&mut b, Some(Event::Started)).await;
    state(&mut a, Some(Event::Started)).await;
    a.send(&ClientMsg::CancelInvite).await.unwrap();
    refused_outside(&mut a, Refusal::RoomFull).await;
    assert_eq!(state(&mut a, Some(Event::Sync)).await.seated, [true, true]);
    server.shutdown().await;

    // Gone from the store; the started game is kept.
    let store = Store::open(&dir).unwrap();
    assert!(store.load(&s.room).await.unwrap().is_none());
    assert!(store.load(&t.room).await.unwrap().is_some());
    store.close().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 33, point 5: the rooms waiting for a friend are bounded for the
/// whole server, whatever the number of client addresses (per-address
/// limits off, as behind a proxy). (Before: 7,980 invites from 400
/// loopback addresses in 40 s, each kept 24 h.)
#[tokio::test]
async fn the_invites_the_whole_server_keeps_are_bounded() {
    let dir = data_dir("max-waiting");
    let cfg = Config {
        rooms_per_addr: 0,
        max_waiting_rooms: 3,
        ..config(&dir)
    };
    let server = server::start(cfg).await.unwrap();
    let addr = server.addr();
    let mut hosts = Vec::new();
    for _ in 0..3 {
        hosts.push(host(addr, 60).await);
    }
    let mut c = Client::hello(addr).await.unwrap();
    c.send(&create(60)).await.unwrap();
    let reason = refused_outside(&mut c, Refusal::Full).await;
    assert!(reason.contains("invites"), "{reason}");
    // A quick match is no invite: still fine.
    c.send(&ClientMsg::QuickMatch {
        game: ataxx(),
        clock_secs: None,
        rated: false,
    })
    .await
    .unwrap();
    assert!(matches!(
        c.recv(WAIT).await.unwrap(),
        ServerMsg::Queued { .. }
    ));
    // One invite taken: room for another.
    let s = &hosts[0].1;
    let mut friend = Client::hello(addr).await.unwrap();
    friend
        .send(&ClientMsg::Join {
            room: s.room.clone(),
            key: s.join_key.clone().unwrap(),
        })
        .await
        .unwrap();
    state(&mut friend, Some(Event::Started)).await;
    host(addr, 60).await;
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 33: a finished room that is not in memory is loaded (and its
/// moves replayed) once for a stream of spectators, not once each: it
/// stays in memory for a while after the last one leaves.
#[tokio::test]
async fn spectators_of_a_finished_game_do_not_each_reload_it() {
    let dir = data_dir("linger");
    let server = server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    let (mut a, s) = host(addr, 60).await;
    let mut b = Client::hello(addr).await.unwrap();
    b.send(&ClientMsg::Join {
        room: s.room.clone(),
        key: s.join_key.clone().unwrap(),
    })
    .await
    .unwrap();
    state(&mut b, Some(Event::Started)).await;
    a.send(&ClientMsg::Resign).await.unwrap();
    state(&mut b, Some(Event::Resigned)).await;
    a.close().await;
    b.close().await;
    // Finished with nobody there: out of memory at once, as before.
    assert!(eventually(Duration::from_secs(2), || server.rooms_in_memory() == 0).await);
    let loaded = server.rooms_loaded();
    for _ in 0..5 {
        let mut w = Client::hello(addr).await.unwrap();
        w.send(&ClientMsg::Watch {
            room: s.room.clone(),
        })
        .await
        .unwrap();
        assert!(state(&mut w, Some(Event::Sync)).await.outcome.is_some());
        w.close().await;
        // It stays in memory for the next one.
        assert!(!eventually(Duration::from_millis(200), || server.rooms_in_memory() == 0).await);
    }
    assert_eq!(
        server.rooms_loaded() - loaded,
        1,
        "loaded once for 5 spectators"
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
