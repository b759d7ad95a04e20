//! The lobby on one node (issue 37): followers get `lobby` after changes
//! (gathered: a burst is a few messages, not one per change); a
//! challenge needs a name, is bounded, is not taken by its own creator,
//! is taken with one click (both get `seat` and `state`) and is gone when
//! its creator's connection goes; a live game's move count reaches
//! followers within about a second.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{data_dir, refused_outside, seat, state, Table, WAIT};

use stoneplay::games::any::Variant;
use stoneplay::games::stones::StonesRules;
use stoneplay::protocol::online::{
    ClientMsg, Event, LiveGame, Refusal, ServerMsg, SideChoice, Status,
};
use stoneplay::server;
use stoneplay::server::client::Client;

async fn send(c: &mut Client, msg: ClientMsg) {
    c.send(&msg).await.expect("sent");
}

async fn named(addr: SocketAddr, name: &str) -> Client {
    let mut c = Client::hello(addr).await.unwrap();
    send(&mut c, ClientMsg::Register { name: name.into() }).await;
    assert!(matches!(
        c.recv(WAIT).await.unwrap(),
        ServerMsg::Identity { .. }
    ));
    c
}

fn challenge(rated: bool) -> ClientMsg {
    ClientMsg::Challenge {
        game: Variant::Stones(StonesRules),
        clock_secs: Some(60),
        rated,
    }
}

/// The next `lobby` message: its challenges' ids and how many games.
async fn lobby(c: &mut Client) -> (Vec<String>, usize) {
    match c
        .recv_until(WAIT, |m| matches!(m, ServerMsg::Lobby { .. }))
        .await
        .expect("a lobby")
    {
        ServerMsg::Lobby { challenges, games } => {
            (challenges.into_iter().map(|c| c.id).collect(), games.len())
        }
        _ => unreachable!(),
    }
}

async fn posted(c: &mut Client) -> String {
    match c.recv(WAIT).await.unwrap() {
        ServerMsg::ChallengePosted { id } => id,
        other => panic!("expected challenge_posted, got {other:?}"),
    }
}

#[tokio::test]
async fn the_lobby_on_one_node() {
    let dir = data_dir("lobby");
    let server = server::start(common::config(&dir))
        .await
        .expect("server starts");
    let addr = server.addr();
    let mut watcher = Client::hello(addr).await.unwrap();
    send(&mut watcher, ClientMsg::Lobby).await;
    assert_eq!(lobby(&mut watcher).await, (vec![], 0));

    // Without a name there is no challenge.
    let mut anon = Client::hello(addr).await.unwrap();
    send(&mut anon, challenge(false)).await;
    refused_outside(&mut anon, Refusal::NoIdentity).await;

    // A challenge is listed; its creator cannot take it.
    let mut ann = named(addr, "Ann").await;
    send(&mut ann, challenge(true)).await;
    let id = posted(&mut ann).await;
    assert_eq!(lobby(&mut watcher).await.0, vec![id.clone()]);
    send(&mut ann, ClientMsg::TakeChallenge { id: id.clone() }).await;
    refused_outside(&mut ann, Refusal::OwnChallenge).await;
    // One per connection.
    send(&mut ann, challenge(false)).await;
    refused_outside(&mut ann, Refusal::TooMany).await;
    // A rated one needs a name to take.
    send(&mut anon, ClientMsg::TakeChallenge { id: id.clone() }).await;
    refused_outside(&mut anon, Refusal::NoIdentity).await;

    // Its creator leaves: it is gone.
    ann.close().await;
    assert_eq!(lobby(&mut watcher).await.0, Vec::<String>::new());
    let mut ben = named(addr, "Ben").await;
    send(&mut ben, ClientMsg::TakeChallenge { id }).await;
    refused_outside(&mut ben, Refusal::NoSuchChallenge).await;

    // Cancelled: gone too.
    send(&mut ben, challenge(false)).await;
    let id = posted(&mut ben).await;
    assert_eq!(lobby(&mut watcher).await.0, vec![id.clone()]);
    send(&mut ben, ClientMsg::CancelChallenge).await;
    assert!(matches!(
        ben.recv(WAIT).await.unwrap(),
        ServerMsg::ChallengeCancelled
    ));
    assert_eq!(lobby(&mut watcher).await.0, Vec::<String>::new());
    send(&mut ben, ClientMsg::CancelChallenge).await;
    refused_outside(&mut ben, Refusal::NoSuchChallenge).await;

    // Taken with one click: both get a seat and the started game, which
    // the lobby lists to watch; the challenge is gone.
    send(&mut ben, challenge(true)).await;
    let id = posted(&mut ben).await;
    assert_eq!(lobby(&mut watcher).await.0, vec![id.clone()]);
    let mut cem = named(addr, "Cem").await;
    send(&mut cem, ClientMsg::TakeChallenge { id: id.clone() }).await;
    let cs = seat(&mut cem).await;
    let bs = ben
        .recv_until(WAIT, |m| matches!(m, ServerMsg::Seat { .. }))
        .await
        .unwrap();
    let ServerMsg::Seat { room, side, .. } = bs else {
        unreachable!()
    };
    assert_eq!(room, cs.room);
    assert_ne!(side, cs.side);
    let s = state(&mut cem, Some(Event::Started)).await;
    assert_eq!(s.status, Status::Playing);
    assert!(s.rated);
    state(&mut ben, Some(Event::Started)).await;
    let mut seen_game = false;
    for _ in 0..5 {
        let (challenges, games) = lobby(&mut watcher).await;
        assert!(!challenges.contains(&id));
        if games == 1 {
            seen_game = true;
            break;
        }
    }
    assert!(seen_game, "the live game is listed");
    // A second taker finds it gone.
    let mut dan = named(addr, "Dan").await;
    send(&mut dan, ClientMsg::TakeChallenge { id }).await;
    refused_outside(&mut dan, Refusal::NoSuchChallenge).await;

    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// The next `lobby` message within `wait`, whole (`None`: none came).
async fn next_lobby(c: &mut Client, wait: Duration) -> Option<(Vec<String>, Vec<LiveGame>)> {
    match c
        .recv_until(wait, |m| matches!(m, ServerMsg::Lobby { .. }))
        .await
    {
        Ok(ServerMsg::Lobby { challenges, games }) => {
            Some((challenges.into_iter().map(|c| c.id).collect(), games))
        }
        _ => None,
    }
}

/// A live game's move count reaches a follower within about a second of
/// the move, though the lobby is not resent per move (on main's code
/// every row said 0 moves: the count was the one when it was listed).
#[tokio::test]
async fn a_live_games_move_count_reaches_followers() {
    let dir = data_dir("lobby-plies");
    let server = server::start(common::config(&dir))
        .await
        .expect("server starts");
    let addr = server.addr();
    let mut watcher = Client::hello(addr).await.unwrap();
    send(&mut watcher, ClientMsg::Lobby).await;
    assert_eq!(lobby(&mut watcher).await, (vec![], 0));
    let mut t = Table::new(addr, Variant::Stones(StonesRules), 300, SideChoice::First).await;
    let room = t.a_seat.room.clone();
    let mut seed = 37;
    for _ in 0..6 {
        let mv = t.pick(&mut seed);
        t.play(&mv).await;
    }
    let plies = t.state.moves.len() as u32;
    assert!(plies >= 6);
    let played = Instant::now();
    let deadline = played + Duration::from_millis(1500);
    let mut seen = None;
    while let Some((_, games)) = next_lobby(
        &mut watcher,
        deadline.saturating_duration_since(Instant::now()),
    )
    .await
    {
        let g = games.iter().find(|g| g.room == room).map(|g| g.plies);
        seen = g.or(seen);
        if g == Some(plies) {
            break;
        }
    }
    assert_eq!(
        seen,
        Some(plies),
        "the follower sees the game's {plies} moves within 1.5 s (saw {seen:?} after {:?})",
        played.elapsed()
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A burst of challenge posts and cancels reaches a follower as a few
/// `lobby` messages, not one per change, and the last one lists what
/// stands (on main's code every change sent the whole lobby: one message
/// per post or cancel).
#[tokio::test]
async fn a_burst_of_challenges_is_a_few_lobby_messages() {
    let dir = data_dir("lobby-burst");
    let server = server::start(common::config(&dir))
        .await
        .expect("server starts");
    let addr = server.addr();
    let mut posters = Vec::new();
    for name in ["Ann", "Ben", "Cem", "Dan", "Eve"] {
        posters.push(named(addr, name).await);
    }
    let mut watcher = Client::hello(addr).await.unwrap();
    send(&mut watcher, ClientMsg::Lobby).await;
    assert_eq!(lobby(&mut watcher).await, (vec![], 0));

    // 5 × 5 posts and cancels, then one more post each that stands.
    let mut changes = 0;
    for _ in 0..5 {
        for p in posters.iter_mut() {
            send(p, challenge(false)).await;
            posted(p).await;
            send(p, ClientMsg::CancelChallenge).await;
            assert!(matches!(
                p.recv(WAIT).await.unwrap(),
                ServerMsg::ChallengeCancelled
            ));
            changes += 2;
        }
    }
    let mut standing = Vec::new();
    for p in posters.iter_mut() {
        send(p, challenge(false)).await;
        standing.push(posted(p).await);
        changes += 1;
    }
    standing.reverse(); // newest first, as listed
                        // Every message up to a quiet second: the last lists the five.
    let mut messages = 0;
    let mut last = None;
    while let Some((ids, _)) = next_lobby(&mut watcher, Duration::from_secs(1)).await {
        messages += 1;
        last = Some(ids);
    }
    assert_eq!(last, Some(standing), "the last lobby lists what stands");
    assert!(
        messages * 5 <= changes,
        "{changes} changes reached the follower as {messages} lobby messages"
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
