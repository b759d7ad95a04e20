//! Issue 37's load: rated games between named players (`--rated`) and
//! lobby churn while games run (`--lobby-churn PAIRS`), on one node or
//! on `--nodes N`.
//!
//! `--rated`: `2 × --games` players each register a name (`register`),
//! ask for a rated quick match of the game of their pair (the games of
//! the list in turn, default rules, player `2i` on node `i mod N` and
//! `2i+1` on the next), are paired by the server (the bench groups the
//! seats by room: whom the queue pairs is the server's business), and
//! play random legal moves to the end. Then every player's page is read
//! (`player`) until each player's rating in the game counts one game: the
//! server recorded every result and rating. Prints what the plain mode
//! prints, plus the register and pairing times and the check.
//!
//! `--lobby-churn PAIRS`: `--games` casual games play as in the plain
//! mode while PAIRS pairs of named players churn the lobby until the
//! last game ends: the poster posts a challenge (rated and casual in
//! turn), every third is cancelled, the others are taken by the pair's
//! taker, who resigns at once (an abort: not rated), and both leave the
//! room; `--followers F` (20) more connections follow the lobby and
//! count the `lobby` messages it sends on each change. PAIRS is at most
//! 10: the server keeps at most 10 open challenges per client address
//! (`server::lobby::PER_ADDRESS`) and every bench client comes from
//! 127.0.0.1. Each pair is on one node (pair k on node k mod N), as on
//! a cluster each node lists only its own challenges until the lobby is
//! shared across nodes. Prints the games' figures and the churn's:
//! challenges posted, cancelled and taken, and the round trips of a post
//! (`challenge` → `challenge_posted`), a cancel and a take (`take_challenge`
//! → the taker seated in the started game), p50/p99.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use stoneplay::games::Side;
use stoneplay::protocol::online::{ClientMsg, Event, GameState, ServerMsg};
use stoneplay::server::client::{Client, Recv};

use crate::games::{percentile, play, report_games, set_up, spec, state_of, Game};
use crate::process::{ServerProcess, WAIT};

/// Connects, says hello and registers `name`; the player's public id.
async fn named(addr: SocketAddr, name: &str) -> Result<(Client, String), String> {
    let mut c = Client::hello(addr).await?;
    c.send(&ClientMsg::Register { name: name.into() }).await?;
    match c
        .recv_until(WAIT, |m| {
            matches!(m, ServerMsg::Identity { .. } | ServerMsg::Refused { .. })
        })
        .await?
    {
        ServerMsg::Identity { player, .. } => Ok((c, player.id)),
        other => Err(format!("register {name}: {other:?}")),
    }
}

/// The next message that is the answer `want` looks for, or a refusal
/// (an error).
async fn answer(
    c: &mut Client,
    what: &str,
    want: impl Fn(&ServerMsg) -> bool,
) -> Result<ServerMsg, String> {
    let msg = c
        .recv_until(WAIT, |m| {
            want(m) || matches!(m, ServerMsg::Refused { .. } | ServerMsg::Error { .. })
        })
        .await?;
    match &msg {
        ServerMsg::Refused { code, reason, .. } => {
            return Err(format!("{what} refused: {code:?} ({reason})"))
        }
        ServerMsg::Error { code, message } if !want(&msg) => {
            return Err(format!("{what}: the server's error {code:?} ({message})"))
        }
        _ => {}
    }
    Ok(msg)
}

/// One seat a quick match gave: the room, the side, the client and the
/// started game's state.
struct Seated {
    room: String,
    side: Side,
    client: Client,
    state: GameState,
    waited: Duration,
}

/// Asks for a rated quick match of `i`'s game and waits to be seated.
async fn quick_match(mut c: Client, i: usize, clock_secs: u32) -> Result<Seated, String> {
    let asked = Instant::now();
    c.send(&ClientMsg::QuickMatch {
        game: spec(i),
        clock_secs: Some(clock_secs),
        rated: true,
    })
    .await?;
    let (room, side) = match answer(&mut c, "quick match", |m| {
        matches!(m, ServerMsg::Seat { .. })
    })
    .await?
    {
        ServerMsg::Seat { room, side, .. } => (room, side),
        _ => unreachable!("answer returns the seat"),
    };
    let state = state_of(&mut c, Some(Event::Started)).await?;
    if !state.rated {
        return Err(format!(
            "room {room}: a rated quick match started a casual game"
        ));
    }
    Ok(Seated {
        room,
        side,
        client: c,
        state,
        waited: asked.elapsed(),
    })
}

/// Plays every game to the end; (round trips, finished, failed).
async fn play_all(games: Vec<Game>, seed: u64) -> (Vec<Duration>, usize, usize) {
    let mut tasks = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        let seed = seed.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64);
        tasks.push(tokio::spawn(play(g, seed, None)));
    }
    let (mut trips, mut finished, mut failed) = (Vec::new(), 0, 0);
    for t in tasks {
        match t.await {
            Ok(Ok(mut v)) => {
                finished += 1;
                trips.append(&mut v);
            }
            Ok(Err(e)) => {
                failed += 1;
                eprintln!("game failed: {e}");
            }
            Err(e) => {
                failed += 1;
                eprintln!("game task failed: {e}");
            }
        }
    }
    (trips, finished, failed)
}

/// `--rated`: `games` rated quick matches between named players.
pub(crate) async fn rated(
    nodes: &[ServerProcess],
    games: usize,
    clock_secs: u32,
    seed: u64,
) -> Result<(), String> {
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let n = addrs.len();
    println!("server-bench --rated: {games} rated games between {} named players on {n} node(s) {addrs:?}", 2 * games);
    // Register everyone first (64 at a time), then queue everyone.
    let started = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for j in 0..2 * games {
        let gate = gate.clone();
        let i = j / 2;
        let at = addrs[(i + j % 2) % n];
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            named(at, &format!("r{seed}_{j}")).await
        }));
    }
    let mut players = Vec::new();
    for t in tasks {
        players.push(t.await.map_err(|e| e.to_string())??);
    }
    let registered = started.elapsed().as_secs_f64();
    let ids: Vec<String> = players.iter().map(|(_, id)| id.clone()).collect();
    let queued = Instant::now();
    let mut tasks = Vec::new();
    for (j, (c, _)) in players.into_iter().enumerate() {
        tasks.push(tokio::spawn(quick_match(c, j / 2, clock_secs)));
    }
    let mut rooms: HashMap<String, Vec<Seated>> = HashMap::new();
    let mut waits = Vec::new();
    for t in tasks {
        let s = t.await.map_err(|e| e.to_string())??;
        waits.push(s.waited);
        rooms.entry(s.room.clone()).or_default().push(s);
    }
    let paired = queued.elapsed().as_secs_f64();
    let mut set = Vec::new();
    for (room, mut two) in rooms {
        if two.len() != 2 || two[0].side == two[1].side {
            return Err(format!(
                "room {room}: {} seats, not one per side",
                two.len()
            ));
        }
        two.sort_by_key(|s| s.side != Side::First);
        let second = two.pop().ok_or("no second seat")?;
        let first = two.pop().ok_or("no first seat")?;
        set.push(Game::new(first.client, second.client, first.state));
    }
    waits.sort();
    let open: Vec<u64> = nodes.iter().map(|s| s.memory().0).collect();
    println!(
        "registered {} players in {registered:.1} s; paired into {} rated games in {paired:.1} s (queue → seated p50 {:.0} ms, p99 {:.0} ms)",
        ids.len(),
        set.len(),
        percentile(&waits, 0.5),
        percentile(&waits, 0.99)
    );
    let start = Instant::now();
    let cpu_before: Vec<f64> = nodes.iter().map(ServerProcess::cpu_secs).collect();
    let (mut trips, finished, failed) = play_all(set, seed).await;
    let elapsed = start.elapsed().as_secs_f64();
    report_games(
        nodes,
        &mut trips,
        finished,
        failed,
        elapsed,
        &cpu_before,
        &open,
    );
    // Every result and rating recorded: each player's page counts one
    // rated game (the store may write just after the last state).
    let check = Instant::now();
    let mut c = Client::hello(addrs[0]).await?;
    let mut counted = 0;
    for id in &ids {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            c.send(&ClientMsg::Player {
                who: id.clone(),
                page: 0,
            })
            .await?;
            let ServerMsg::PlayerPage { ratings, .. } = answer(&mut c, "player page", |m| {
                matches!(m, ServerMsg::PlayerPage { .. })
            })
            .await?
            else {
                unreachable!("answer returns the page");
            };
            let games: u32 = ratings.iter().map(|r| r.games).sum();
            if games == 1 {
                counted += 1;
                break;
            }
            if games > 1 || Instant::now() > deadline {
                return Err(format!("player {id}: {games} rated games recorded, not 1"));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    c.close().await;
    println!(
        "ratings    {counted} of {} players have their one rated game recorded (read back in {:.1} s)",
        ids.len(),
        check.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(format!("{failed} games failed"));
    }
    Ok(())
}

/// What the churn counted.
#[derive(Default)]
struct Churn {
    posted: u64,
    cancelled: u64,
    taken: u64,
    post: Vec<Duration>,
    cancel: Vec<Duration>,
    take: Vec<Duration>,
}

/// One pair churning the lobby until `stop`.
async fn churn_pair(
    addr: SocketAddr,
    k: usize,
    seed: u64,
    clock_secs: u32,
    stop: Arc<AtomicBool>,
) -> Result<Churn, String> {
    let (mut poster, _) = named(addr, &format!("lp{seed}_{k}")).await?;
    let (mut taker, _) = named(addr, &format!("lt{seed}_{k}")).await?;
    let mut churn = Churn::default();
    let mut round = 0usize;
    while !stop.load(Ordering::Relaxed) {
        let sent = Instant::now();
        poster
            .send(&ClientMsg::Challenge {
                game: spec(k + round),
                clock_secs: Some(clock_secs),
                rated: round.is_multiple_of(2),
            })
            .await?;
        let ServerMsg::ChallengePosted { id } = answer(&mut poster, "challenge", |m| {
            matches!(m, ServerMsg::ChallengePosted { .. })
        })
        .await?
        else {
            unreachable!("answer returns the posted challenge");
        };
        churn.post.push(sent.elapsed());
        churn.posted += 1;
        if round % 3 == 2 {
            let sent = Instant::now();
            poster.send(&ClientMsg::CancelChallenge).await?;
            answer(&mut poster, "cancel", |m| {
                matches!(m, ServerMsg::ChallengeCancelled)
            })
            .await?;
            churn.cancel.push(sent.elapsed());
            churn.cancelled += 1;
        } else {
            let sent = Instant::now();
            taker.send(&ClientMsg::TakeChallenge { id }).await?;
            answer(&mut taker, "take", |m| matches!(m, ServerMsg::Seat { .. })).await?;
            state_of(&mut taker, Some(Event::Started)).await?;
            churn.take.push(sent.elapsed());
            state_of(&mut poster, Some(Event::Started)).await?;
            churn.taken += 1;
            taker.send(&ClientMsg::Resign).await?;
            for c in [&mut taker, &mut poster] {
                c.recv_until(
                    WAIT,
                    |m| matches!(m, ServerMsg::State(s) if s.outcome.is_some()),
                )
                .await?;
                c.send(&ClientMsg::Leave).await?;
            }
        }
        round += 1;
    }
    poster.close().await;
    taker.close().await;
    Ok(churn)
}

/// A connection following the lobby until `stop`: the `lobby` messages
/// it received and their bytes.
async fn follow(
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    bytes: Arc<AtomicU64>,
) -> Result<u64, String> {
    let mut c = Client::hello(addr).await?;
    c.send(&ClientMsg::Lobby).await?;
    let mut lists = 0;
    while !stop.load(Ordering::Relaxed) {
        let before = c.received_bytes;
        match c.next(Duration::from_millis(200)).await {
            Ok(Recv::Msg(ServerMsg::Lobby { .. })) => {
                lists += 1;
                bytes.fetch_add(c.received_bytes - before, Ordering::Relaxed);
            }
            Ok(Recv::Msg(_)) => {}
            Ok(Recv::Closed(f)) => return Err(format!("a lobby follower was closed: {f:?}")),
            // Nothing in 200 ms: look at `stop` again.
            Err(e) if e.starts_with("nothing received") => {}
            Err(e) => return Err(e),
        }
    }
    c.close().await;
    Ok(lists)
}

/// `--lobby-churn PAIRS`: `games` casual games while PAIRS pairs churn
/// the lobby and `followers` connections follow it.
pub(crate) async fn lobby_churn(
    nodes: &[ServerProcess],
    games: usize,
    pairs: usize,
    followers: usize,
    clock_secs: u32,
    seed: u64,
) -> Result<(), String> {
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let n = addrs.len();
    println!(
        "server-bench --lobby-churn: {games} games, {pairs} pairs churning the lobby, {followers} followers, on {n} node(s) {addrs:?}"
    );
    let setup = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for i in 0..games {
        let gate = gate.clone();
        let (at, friend) = (addrs[i % n], addrs[(i + 1) % n]);
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            set_up(at, friend, spec(i), clock_secs).await
        }));
    }
    let mut set = Vec::new();
    for t in tasks {
        set.push(t.await.map_err(|e| e.to_string())??);
    }
    let open: Vec<u64> = nodes.iter().map(|s| s.memory().0).collect();
    println!(
        "set up {} games ({} connections) in {:.1} s",
        set.len(),
        set.len() * 2,
        setup.elapsed().as_secs_f64()
    );
    let stop = Arc::new(AtomicBool::new(false));
    let bytes = Arc::new(AtomicU64::new(0));
    let follows: Vec<_> = (0..followers)
        .map(|f| tokio::spawn(follow(addrs[f % n], stop.clone(), bytes.clone())))
        .collect();
    let churners: Vec<_> = (0..pairs)
        .map(|k| tokio::spawn(churn_pair(addrs[k % n], k, seed, clock_secs, stop.clone())))
        .collect();
    let start = Instant::now();
    let cpu_before: Vec<f64> = nodes.iter().map(ServerProcess::cpu_secs).collect();
    let (mut trips, finished, failed) = play_all(set, seed).await;
    let elapsed = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    report_games(
        nodes,
        &mut trips,
        finished,
        failed,
        elapsed,
        &cpu_before,
        &open,
    );
    let mut all = Churn::default();
    for t in churners {
        let c = t.await.map_err(|e| e.to_string())??;
        all.posted += c.posted;
        all.cancelled += c.cancelled;
        all.taken += c.taken;
        all.post.extend(c.post);
        all.cancel.extend(c.cancel);
        all.take.extend(c.take);
    }
    let mut lists = 0;
    for t in follows {
        lists += t.await.map_err(|e| e.to_string())??;
    }
    for v in [&mut all.post, &mut all.cancel, &mut all.take] {
        v.sort();
    }
    println!(
        "lobby      {} challenges posted, {} cancelled, {} taken ({:.0} lobby changes/s while the games ran)",
        all.posted,
        all.cancelled,
        all.taken,
        (all.posted + all.cancelled + all.taken) as f64 / elapsed
    );
    println!(
        "lobby      post p50 {:.2} ms, p99 {:.2} ms; cancel p50 {:.2} ms, p99 {:.2} ms; take → seated in the started game p50 {:.2} ms, p99 {:.2} ms",
        percentile(&all.post, 0.5),
        percentile(&all.post, 0.99),
        percentile(&all.cancel, 0.5),
        percentile(&all.cancel, 0.99),
        percentile(&all.take, 0.5),
        percentile(&all.take, 0.99)
    );
    println!(
        "lobby      {followers} followers received {lists} lobby lists ({:.0} bytes each on average)",
        bytes.load(Ordering::Relaxed) as f64 / lists.max(1) as f64
    );
    if failed > 0 {
        return Err(format!("{failed} games failed"));
    }
    if all.posted == 0 {
        return Err("no challenge was posted while the games ran".into());
    }
    Ok(())
}
