//! Rated games over the socket (issue 37), on one node (SQLite) and, with
//! feature `cluster`, on PostgreSQL: the players carried into the room
//! (names and ratings in `state`, for players and spectators, after a
//! restart too), a rated quick match played to the end changing both
//! ratings once (in the transaction that stores the result), the player
//! page, the leaderboard and the finished game (`archive`) answered from
//! the store; an aborted game, a casual one and a forged message change
//! no rating; nobody plays themselves.

#[cfg(feature = "cluster")]
mod cluster;
mod common;

use std::net::SocketAddr;

use common::{data_dir, refused_outside, seat, state, Seat, Table, WAIT};

use stoneplay::games::any::Variant;
use stoneplay::games::stones::StonesRules;
use stoneplay::games::GameKind;
use stoneplay::protocol::online::{
    ClientMsg, ErrorCode, Event, GameState, PlayerTag, Refusal, ServerMsg, SideChoice, Status,
};
use stoneplay::server::client::Client;
use stoneplay::server::{self, Config};

fn stones() -> Variant {
    Variant::Stones(StonesRules)
}

async fn send(c: &mut Client, msg: ClientMsg) {
    c.send(&msg).await.expect("sent");
}

/// A connection with a new identity called `name`; returns it, its tag
/// and its secret.
async fn named(addr: SocketAddr, name: &str) -> (Client, PlayerTag, String) {
    let mut c = Client::hello(addr).await.unwrap();
    send(&mut c, ClientMsg::Register { name: name.into() }).await;
    match c.recv(WAIT).await.expect("an answer") {
        ServerMsg::Identity {
            player,
            secret: Some(secret),
            ..
        } => (c, player, secret),
        other => panic!("expected identity, got {other:?}"),
    }
}

/// The next message that is not a state: it must answer the query.
async fn answer(c: &mut Client) -> ServerMsg {
    c.recv_until(WAIT, |m| {
        !matches!(m, ServerMsg::State(_) | ServerMsg::Update(_))
    })
    .await
    .expect("an answer")
}

/// Both players of a rated quick match of Stones!: `a` waits, `b` pairs.
async fn rated_match(mut a: Client, mut b: Client) -> Table {
    let quick = ClientMsg::QuickMatch {
        game: stones(),
        clock_secs: Some(60),
        rated: true,
    };
    send(&mut a, quick.clone()).await;
    assert!(matches!(
        a.recv(WAIT).await.unwrap(),
        ServerMsg::Queued { .. }
    ));
    send(&mut b, quick).await;
    let b_seat = seat(&mut b).await;
    let sb = state(&mut b, Some(Event::Started)).await;
    let a_seat = seat(&mut a).await;
    let sa = state(&mut a, Some(Event::Started)).await;
    assert_eq!(sb.status, Status::Playing);
    // Each seat is named as its player sits down: both see both.
    let sa = named_state(&mut a, &sa).await;
    named_state(&mut b, &sb).await;
    Table {
        a,
        b,
        a_seat,
        b_seat,
        state: sa,
    }
}

/// `known` if both seats show a player there, else the next state of
/// `c` where they do.
async fn named_state(c: &mut Client, known: &GameState) -> GameState {
    if known.players.iter().all(Option::is_some) {
        return known.clone();
    }
    let msg = c
        .recv_until(WAIT, |m| {
            matches!(m, ServerMsg::State(s) | ServerMsg::Update(s)
                if s.players.iter().all(Option::is_some))
        })
        .await
        .expect("a state with both players");
    match msg {
        ServerMsg::State(s) | ServerMsg::Update(s) => s,
        _ => unreachable!(),
    }
}

fn names(s: &GameState) -> [String; 2] {
    s.players
        .clone()
        .map(|p| p.map(|p| p.name).unwrap_or_default())
}

/// Each side moves once, then the side to move resigns: returns the final
/// state as `a` sees it (after the result is stored).
async fn each_moves_then_resign(t: &mut Table, seed: &mut u64) -> GameState {
    for _ in 0..2 {
        let mv = t.pick(seed);
        t.play(&mv).await;
    }
    t.mover().send(&ClientMsg::Resign).await.unwrap();
    state(&mut t.b, Some(Event::Resigned)).await;
    state(&mut t.a, Some(Event::Resigned)).await
}

async fn rated_story(config: Config, restart: bool) {
    let server = server::start(config.clone()).await.expect("server starts");
    let addr = server.addr();
    let (a, ann, _) = named(addr, "Ann").await;
    let (b, ben, _) = named(addr, "Ben").await;
    let mut t = rated_match(a, b).await;
    // Both seats show their player, with a provisional 1500, to both.
    let sa = t.state.clone();
    assert!(sa.rated);
    let a_side = t.a_seat.side.index();
    assert_eq!(sa.players[a_side].as_ref().unwrap().id, ann.id);
    assert_eq!(sa.players[1 - a_side].as_ref().unwrap().id, ben.id);
    for p in sa.players.iter().flatten() {
        assert_eq!((p.rating, p.provisional), (Some(1500), true));
    }
    // A spectator sees them too.
    let mut spectator = Client::hello(addr).await.unwrap();
    send(
        &mut spectator,
        ClientMsg::Watch {
            room: t.a_seat.room.clone(),
        },
    )
    .await;
    let watched = state(&mut spectator, Some(Event::Sync)).await;
    assert_eq!(names(&watched), names(&sa));
    assert!(watched.rated && watched.you.is_none());

    let mut seed = 7;
    let (addr, server) = if restart {
        // The players stay in the room across a restart.
        let mv = t.pick(&mut seed);
        t.play(&mv).await;
        server.shutdown().await;
        let server = server::start(config.clone()).await.expect("restarts");
        let addr = server.addr();
        let (a_seat, b_seat) = (t.a_seat.clone(), t.b_seat.clone());
        t = Table::rejoin(addr, a_seat, b_seat).await;
        assert_eq!(names(&t.state), names(&sa), "players restored");
        assert!(t.state.rated);
        (addr, server)
    } else {
        (addr, server)
    };
    let over = each_moves_then_resign(&mut t, &mut seed).await;
    assert_eq!(over.status, Status::Over);
    let winner = over.outcome.unwrap().winner.unwrap().index();
    assert_eq!(over.rated_before, Some([1500, 1500]), "counted");
    let after = over.players.clone().map(|p| p.unwrap().rating.unwrap());
    assert!(
        after[winner] > 1500 && after[1 - winner] < 1500,
        "{after:?}"
    );
    let (addr, server) = if restart {
        // After a restart the finished room still says what changed:
        // `rated_before` is read back from the store.
        server.shutdown().await;
        let server = server::start(config.clone()).await.expect("restarts");
        let addr = server.addr();
        let (a_seat, b_seat) = (t.a_seat.clone(), t.b_seat.clone());
        t = Table::rejoin(addr, a_seat, b_seat).await;
        assert_eq!(t.state.status, Status::Over);
        assert_eq!(
            t.state.rated_before,
            Some([1500, 1500]),
            "rated_before after a restart"
        );
        let restored = t.state.players.clone().map(|p| p.unwrap().rating.unwrap());
        assert_eq!(restored, after);
        // Ann hears Ben come back.
        t.a.recv_until(WAIT, |m| matches!(m, ServerMsg::Presence { .. }))
            .await
            .expect("presence");
        (addr, server)
    } else {
        (addr, server)
    };
    // The ratings moved once, and the player page says so.
    send(
        &mut t.a,
        ClientMsg::Player {
            who: "ann".into(),
            page: 0,
        },
    )
    .await;
    let got = answer(&mut t.a).await;
    let ServerMsg::PlayerPage {
        player,
        ratings,
        history,
        games,
        pages,
        ..
    } = got
    else {
        panic!("expected player_page, got {got:?}")
    };
    assert_eq!(player.id, ann.id);
    assert_eq!(pages, 1);
    assert_eq!(ratings.len(), 1);
    assert_eq!(ratings[0].game, GameKind::Stones);
    assert_eq!(ratings[0].games, 1);
    assert_eq!(ratings[0].rating, after[a_side]);
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].points.len(), 1);
    assert_eq!(games.len(), 1);
    assert!(games[0].rated && games[0].counted);
    assert_eq!(games[0].after[a_side], Some(after[a_side]));
    // The finished game, move by move, from the store.
    let room = t.a_seat.room.clone();
    send(
        &mut t.b,
        ClientMsg::Archive {
            room: room.clone(),
            game_no: 1,
        },
    )
    .await;
    let ServerMsg::Archive { game, moves, .. } = answer(&mut t.b).await else {
        panic!("expected archive")
    };
    assert_eq!(moves, over.moves);
    assert_eq!(game.outcome, over.outcome.unwrap());
    assert!(game.counted);

    // Rematches until both are established: the leaderboard lists them.
    let mut board = Vec::new();
    for _ in 0..40 {
        t.a.send(&ClientMsg::Rematch).await.unwrap();
        t.b.send(&ClientMsg::Rematch).await.unwrap();
        t.state = state(&mut t.a, Some(Event::Rematch)).await;
        state(&mut t.b, Some(Event::Rematch)).await;
        let (a_seat, b_seat) = (t.a_seat.side.opponent(), t.b_seat.side.opponent());
        t.a_seat.side = a_seat;
        t.b_seat.side = b_seat;
        let over = each_moves_then_resign(&mut t, &mut seed).await;
        assert!(over.rated_before.is_some());
        send(
            &mut t.a,
            ClientMsg::Leaderboard {
                game: GameKind::Stones,
            },
        )
        .await;
        let ServerMsg::Leaderboard { rows, .. } = answer(&mut t.a).await else {
            panic!("expected leaderboard")
        };
        if rows.len() == 2 {
            board = rows;
            break;
        }
    }
    let listed: Vec<&str> = board.iter().map(|r| r.player.id.as_str()).collect();
    assert!(listed.contains(&ann.id.as_str()) && listed.contains(&ben.id.as_str()));
    assert!(board.iter().all(|r| !r.player.provisional && r.games >= 2));

    // Bad reads are refused clearly (on a fresh connection: the
    // spectator's went with the restart).
    let mut spectator = Client::hello(addr).await.unwrap();
    for (msg, code) in [
        (
            ClientMsg::Player {
                who: "nobody at all".into(),
                page: 0,
            },
            Refusal::NoSuchPlayer,
        ),
        (
            ClientMsg::Player {
                who: ann.id.clone(),
                page: 99,
            },
            Refusal::BadPage,
        ),
        (
            ClientMsg::Player {
                who: ann.id.clone(),
                page: u32::MAX,
            },
            Refusal::BadPage,
        ),
        (
            ClientMsg::Archive {
                room: room.clone(),
                game_no: 999,
            },
            Refusal::NoSuchGame,
        ),
        (
            ClientMsg::Archive {
                room: "not a room".into(),
                game_no: 1,
            },
            Refusal::NoSuchGame,
        ),
    ] {
        send(&mut spectator, msg).await;
        let got = answer(&mut spectator).await;
        assert!(
            matches!(got, ServerMsg::Refused { code: c, .. } if c == code),
            "{code:?}: {got:?}"
        );
    }
    let _ = addr;
    server.shutdown().await;
}

/// An abort, a casual game and forged messages change no rating.
async fn unrated_story(config: Config) {
    let server = server::start(config).await.expect("server starts");
    let addr = server.addr();
    let (a, _ann, _) = named(addr, "Cy").await;
    let (b, _, _) = named(addr, "Di").await;
    let mut t = rated_match(a, b).await;
    // Only the first mover moves; the other resigns: an abort.
    let mut seed = 3;
    let mv = t.pick(&mut seed);
    t.play(&mv).await;
    // Forged: no message carries a result; they are not understood.
    for forged in [
        r#"{"type":"result","winner":"First"}"#,
        r#"{"type":"state","room":"x","outcome":{"winner":"First","reason":"Resignation"}}"#,
        r#"{"type":"rated","players":["x","y"],"rated_before":[1,1]}"#,
    ] {
        t.b.send_text(forged).await.unwrap();
        let err =
            t.b.recv_until(WAIT, |m| matches!(m, ServerMsg::Error { .. }))
                .await
                .unwrap();
        assert!(
            matches!(
                err,
                ServerMsg::Error {
                    code: ErrorCode::UnknownType,
                    ..
                }
            ),
            "{err:?}"
        );
    }
    t.mover().send(&ClientMsg::Resign).await.unwrap();
    let over = state(&mut t.a, Some(Event::Resigned)).await;
    assert_eq!(over.rated_before, None, "an abort is not counted");
    for p in over.players.iter().flatten() {
        assert_eq!(p.rating, Some(1500));
    }
    // A casual game between the same two.
    let quick = ClientMsg::QuickMatch {
        game: stones(),
        clock_secs: Some(60),
        rated: false,
    };
    send(&mut t.a, quick.clone()).await;
    t.a.recv_until(WAIT, |m| matches!(m, ServerMsg::Queued { .. }))
        .await
        .unwrap();
    send(&mut t.b, quick).await;
    t.b.recv_until(WAIT, |m| matches!(m, ServerMsg::Seat { .. }))
        .await
        .unwrap();
    let b_seat = Seat {
        room: String::new(),
        token: String::new(),
        side: stoneplay::games::Side::First,
        join_key: None,
    };
    let sb = state(&mut t.b, Some(Event::Started)).await;
    assert!(!sb.rated);
    let b_seat = Seat {
        side: sb.you.unwrap(),
        room: sb.room.clone(),
        ..b_seat
    };
    let a_seat =
        t.a.recv_until(WAIT, |m| matches!(m, ServerMsg::Seat { .. }))
            .await
            .unwrap();
    let ServerMsg::Seat {
        room, token, side, ..
    } = a_seat
    else {
        unreachable!()
    };
    let sa = state(&mut t.a, Some(Event::Started)).await;
    let mut casual = Table {
        a: t.a,
        b: t.b,
        a_seat: Seat {
            room,
            token,
            side,
            join_key: None,
        },
        b_seat,
        state: sa,
    };
    let over = each_moves_then_resign(&mut casual, &mut seed).await;
    assert!(!over.rated && over.rated_before.is_none());
    // Nobody's rating moved; both games are on the page, neither counted.
    send(
        &mut casual.a,
        ClientMsg::Player {
            who: "Cy".into(),
            page: 0,
        },
    )
    .await;
    let ServerMsg::PlayerPage { ratings, games, .. } = answer(&mut casual.a).await else {
        panic!("expected player_page")
    };
    assert_eq!(ratings, vec![], "no rating moved");
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| !g.counted));
    server.shutdown().await;
}

/// Rated games need a name, and nobody plays themselves.
async fn themselves_story(config: Config) {
    let server = server::start(config).await.expect("server starts");
    let addr = server.addr();
    let mut anon = Client::hello(addr).await.unwrap();
    let rated_create = ClientMsg::Create {
        game: stones(),
        clock_secs: Some(60),
        side: SideChoice::First,
        rated: true,
    };
    send(&mut anon, rated_create.clone()).await;
    refused_outside(&mut anon, Refusal::NoIdentity).await;
    send(
        &mut anon,
        ClientMsg::QuickMatch {
            game: stones(),
            clock_secs: None,
            rated: true,
        },
    )
    .await;
    refused_outside(&mut anon, Refusal::NoIdentity).await;

    let (mut a, _, secret) = named(addr, "Eve").await;
    send(&mut a, rated_create).await;
    let a_seat = seat(&mut a).await;
    let waiting = state(&mut a, Some(Event::Sync)).await;
    assert!(waiting.rated);
    assert_eq!(waiting.players[0].as_ref().unwrap().name, "Eve");
    let key = a_seat.join_key.clone().unwrap();
    let join = ClientMsg::Join {
        room: a_seat.room.clone(),
        key,
    };
    // The same identity on another device may not take the other seat.
    let mut again = Client::hello(addr).await.unwrap();
    send(&mut again, ClientMsg::Identify { secret }).await;
    assert!(matches!(
        again.recv(WAIT).await.unwrap(),
        ServerMsg::Identity { .. }
    ));
    send(&mut again, join.clone()).await;
    refused_outside(&mut again, Refusal::OwnChallenge).await;
    // Nor may a player without a name.
    send(&mut anon, join.clone()).await;
    refused_outside(&mut anon, Refusal::NoIdentity).await;
    // The same identity does not meet itself in the rated queue.
    let quick = ClientMsg::QuickMatch {
        game: stones(),
        clock_secs: Some(45),
        rated: true,
    };
    send(&mut again, quick.clone()).await;
    assert!(matches!(
        again.recv(WAIT).await.unwrap(),
        ServerMsg::Queued { .. }
    ));
    send(&mut a, quick).await;
    let got = a
        .recv_until(WAIT, |m| !matches!(m, ServerMsg::State(_)))
        .await
        .unwrap();
    assert!(matches!(got, ServerMsg::Queued { .. }), "{got:?}");
    // Someone else takes the invite.
    let (mut f, _, _) = named(addr, "Fay").await;
    send(&mut f, join).await;
    seat(&mut f).await;
    let s = state(&mut f, Some(Event::Started)).await;
    assert_eq!(names(&s)[1], "Fay");
    // Unknown types stay unknown.
    send(&mut f, ClientMsg::Sync).await;
    f.send_text(r#"{"type":"set_rating","rating":3000}"#)
        .await
        .unwrap();
    let err = f
        .recv_until(WAIT, |m| matches!(m, ServerMsg::Error { .. }))
        .await
        .unwrap();
    assert!(matches!(
        err,
        ServerMsg::Error {
            code: ErrorCode::UnknownType,
            ..
        }
    ));
    server.shutdown().await;
}

/// Two rated seekers too far apart to be paired when the second asks
/// are paired once both ranges have widened to the gap, without a third
/// seeker arriving (the server looks at the rated queue periodically).
#[tokio::test]
async fn waiting_rated_seekers_are_paired_once_their_ranges_meet() {
    let dir = data_dir("repair");
    let widen = std::time::Duration::from_millis(200);
    let server = server::start(Config {
        widen_every: widen,
        ..common::config(&dir)
    })
    .await
    .expect("server starts");
    let addr = server.addr();
    let (a, _, _) = named(addr, "Ann").await;
    let (b, _, _) = named(addr, "Ben").await;
    let mut t = rated_match(a, b).await;
    let mut seed = 11;
    let over = each_moves_then_resign(&mut t, &mut seed).await;
    let r = over.players.clone().map(|p| p.unwrap().rating.unwrap());
    let gap = r[0].abs_diff(r[1]);
    // Provisional ranges start at ±200 and widen by 100 a step.
    assert!(gap > 200 && gap <= 700, "{r:?}");
    let quick = ClientMsg::QuickMatch {
        game: stones(),
        clock_secs: Some(60),
        rated: true,
    };
    let asked = std::time::Instant::now();
    for c in [&mut t.a, &mut t.b] {
        send(c, quick.clone()).await;
        c.recv_until(WAIT, |m| matches!(m, ServerMsg::Queued { .. }))
            .await
            .expect("queued: too far apart to pair at once");
    }
    let mut seats = Vec::new();
    for c in [&mut t.a, &mut t.b] {
        match c
            .recv_until(WAIT, |m| matches!(m, ServerMsg::Seat { .. }))
            .await
        {
            Ok(ServerMsg::Seat { room, side, .. }) => seats.push((room, side)),
            other => panic!("expected a seat, got {other:?}"),
        }
    }
    let waited = asked.elapsed();
    assert_eq!(seats[0].0, seats[1].0);
    assert_ne!(seats[0].1, seats[1].1);
    let steps = (gap - 200).div_ceil(100);
    assert!(
        waited >= widen * steps,
        "paired after {waited:?}, before the ranges met ({steps} steps)"
    );
    let s = state(&mut t.a, Some(Event::Started)).await;
    assert!(s.rated);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_rated_game_on_sqlite() {
    let dir = data_dir("ratings");
    rated_story(common::config(&dir), true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn unrated_games_on_sqlite() {
    let dir = data_dir("unrated");
    unrated_story(common::config(&dir)).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn nobody_plays_themselves_on_sqlite() {
    let dir = data_dir("themselves");
    themselves_story(common::config(&dir)).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "cluster")]
fn pg_config(name: &str, db: String) -> (std::path::PathBuf, Config) {
    let dir = data_dir(name);
    let config = Config {
        database: Some(db),
        ..common::config(&dir)
    };
    (dir, config)
}

#[cfg(feature = "cluster")]
#[tokio::test]
async fn a_rated_game_on_postgres() {
    let (postgres, _) = cluster::shared();
    let (dir, config) = pg_config("ratings-pg", postgres.database().await);
    rated_story(config, true).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "cluster")]
#[tokio::test]
async fn unrated_games_on_postgres() {
    let (postgres, _) = cluster::shared();
    let (dir, config) = pg_config("unrated-pg", postgres.database().await);
    unrated_story(config).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(feature = "cluster")]
#[tokio::test]
async fn nobody_plays_themselves_on_postgres() {
    let (postgres, _) = cluster::shared();
    let (dir, config) = pg_config("themselves-pg", postgres.database().await);
    themselves_story(config).await;
    let _ = std::fs::remove_dir_all(&dir);
}
