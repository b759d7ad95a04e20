//! The lobby on one node (issue 37): followers get `lobby` on every
//! change; a challenge needs a name, is bounded, is not taken by its own
//! creator, is taken with one click (both get `seat` and `state`) and is
//! gone when its creator's connection goes.

mod common;

use std::net::SocketAddr;

use common::{data_dir, refused_outside, seat, state, WAIT};

use stoneplay::games::any::Variant;
use stoneplay::games::stones::StonesRules;
use stoneplay::protocol::online::{ClientMsg, Event, Refusal, ServerMsg, Status};
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
