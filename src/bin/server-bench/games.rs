//! Two players in a game over real WebSockets: set up (one creates the
//! room, the other joins), random legal moves to the end with each move's
//! round trip, and `--traffic`'s one long Mill game.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use stoneplay::games::any::AnyRecord;
use stoneplay::games::any::Variant;
use stoneplay::games::mill::MillRules;
use stoneplay::games::splitmix64;
use stoneplay::games::{GameKind, Side};
use stoneplay::protocol::online::{ClientMsg, Event, GameState, ServerMsg, SideChoice};
use stoneplay::server::client::Client;

use crate::process::{ServerProcess, WAIT};

/// The `i`-th game's: the games of the list in turn, default rules.
pub(crate) fn spec(i: usize) -> Variant {
    Variant::default_for(GameKind::ALL[i % GameKind::ALL.len()])
}

pub(crate) async fn state_of(c: &mut Client, event: Option<Event>) -> Result<GameState, String> {
    let msg = c
        .recv_until(
            WAIT,
            |m| matches!(m, ServerMsg::State(s) if event.is_none_or(|e| s.event == e)),
        )
        .await?;
    match msg {
        ServerMsg::State(s) => Ok(s),
        _ => Err("not a state".into()),
    }
}

/// Two connected players in a started game.
pub(crate) struct Game {
    first: Client,
    second: Client,
    state: GameState,
}

impl Game {
    /// Two players seated in a started game (`state` as the first sees it).
    pub(crate) fn new(first: Client, second: Client, state: GameState) -> Game {
        Game {
            first,
            second,
            state,
        }
    }
}

pub(crate) async fn set_up(
    addr: SocketAddr,
    friend_at: SocketAddr,
    game: Variant,
    clock_secs: u32,
) -> Result<Game, String> {
    let mut a = Client::hello(addr).await?;
    a.send(&ClientMsg::Create {
        game,
        clock_secs: Some(clock_secs),
        side: SideChoice::First,
        rated: false,
    })
    .await?;
    let (room, key) = match a.recv(WAIT).await? {
        ServerMsg::Seat {
            room,
            join_key: Some(key),
            ..
        } => (room, key),
        other => return Err(format!("expected a seat, got {other:?}")),
    };
    let mut b = Client::hello(friend_at).await?;
    b.send(&ClientMsg::Join { room, key }).await?;
    state_of(&mut b, Some(Event::Started)).await?;
    let state = state_of(&mut a, Some(Event::Started)).await?;
    Ok(Game {
        first: a,
        second: b,
        state,
    })
}

/// Plays random legal moves to the end (a move every `pace`, if given);
/// returns the round trip of each move.
pub(crate) async fn play(
    mut g: Game,
    mut seed: u64,
    pace: Option<Duration>,
) -> Result<Vec<Duration>, String> {
    let mut live = AnyRecord::new(&g.state.game);
    let mut applied = 0;
    let mut trips = Vec::new();
    while g.state.outcome.is_none() {
        let moves = live.legal_moves();
        let (next, r) = splitmix64(seed);
        seed = next;
        let mv = moves
            .get((r % moves.len().max(1) as u64) as usize)
            .ok_or("no legal move in an unfinished game")?
            .clone();
        let (mover, other) = match g.state.to_move {
            Side::First => (&mut g.first, &mut g.second),
            Side::Second => (&mut g.second, &mut g.first),
        };
        let sent = Instant::now();
        mover
            .send(&ClientMsg::Move {
                ply: g.state.moves.len() as u32,
                mv,
            })
            .await?;
        let seen = state_of(other, Some(Event::Moved)).await?;
        trips.push(sent.elapsed());
        let mine = state_of(mover, Some(Event::Moved)).await?;
        if mine.moves != seen.moves {
            return Err("the players saw different games".into());
        }
        while applied < seen.moves.len() {
            let played = live
                .play_text(&seen.moves[applied])
                .map_err(|e| format!("the server's move does not replay: {e}"))?;
            applied += played.len();
        }
        g.state = seen;
        if let Some(p) = pace {
            tokio::time::sleep(p).await;
        }
    }
    g.first.close().await;
    g.second.close().await;
    Ok(trips)
}

pub(crate) fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// A move of `live` that neither ends the game nor closes a mill (so the
/// same side is not to move again), if there is one; else any legal move.
pub(crate) fn lasting_move(live: &AnyRecord, r: u64) -> Option<String> {
    let moves = live.legal_moves();
    let lasting: Vec<&String> = moves
        .iter()
        .filter(|m| {
            let mut next = live.clone();
            next.play_text(m).is_ok()
                && next.outcome().is_none()
                && next.to_move() != live.to_move()
        })
        .collect();
    let pick = |list: &[&String]| {
        (!list.is_empty()).then(|| list[(r % list.len() as u64) as usize].clone())
    };
    pick(&lasting).or_else(|| pick(&moves.iter().collect::<Vec<_>>()))
}

/// One long Mill game: bytes received per player per move.
pub(crate) async fn traffic(
    addr: SocketAddr,
    plies: u32,
    clock_secs: u32,
    mut seed: u64,
) -> Result<(), String> {
    let rules = MillRules {
        n_move_rule: 0,
        threefold_repetition: false,
        ..MillRules::default()
    };
    let mut g = set_up(addr, addr, Variant::Mill(rules), clock_secs).await?;
    let mut live = AnyRecord::new(&g.state.game);
    let before = g.first.received_bytes + g.second.received_bytes;
    let mut played = 0u32;
    let mut last_size = 0u64;
    while played < plies && g.state.outcome.is_none() {
        let (next, r) = splitmix64(seed);
        seed = next;
        let mv = lasting_move(&live, r).ok_or("no legal move in an unfinished game")?;
        let (mover, other) = match g.state.to_move {
            Side::First => (&mut g.first, &mut g.second),
            Side::Second => (&mut g.second, &mut g.first),
        };
        mover
            .send(&ClientMsg::Move {
                ply: g.state.moves.len() as u32,
                mv: mv.clone(),
            })
            .await?;
        let other_before = other.received_bytes;
        let seen = state_of(other, Some(Event::Moved)).await?;
        last_size = other.received_bytes - other_before;
        state_of(mover, Some(Event::Moved)).await?;
        live.play_text(&mv)
            .map_err(|e| format!("the move does not replay: {e}"))?;
        played = seen.moves.len() as u32;
        g.state = seen;
    }
    let total = g.first.received_bytes + g.second.received_bytes - before;
    println!(
        "traffic    {played} plies of Mill: {total} bytes to the two players, {:.0} bytes per move per player; the last move's message {last_size} bytes{}",
        total as f64 / 2.0 / f64::from(played.max(1)),
        match g.state.outcome {
            Some(o) => format!(" (game over: {o:?})"),
            None => String::new(),
        }
    );
    g.first.close().await;
    g.second.close().await;
    Ok(())
}

/// The figures every mode prints for the games: moves, moves/s, round
/// trips, CPU and memory per node.
pub(crate) fn report_games(
    nodes: &[ServerProcess],
    trips: &mut [Duration],
    finished: usize,
    failed: usize,
    elapsed: f64,
    cpu_before: &[f64],
    open_rss: &[u64],
) {
    trips.sort();
    let moves = trips.len();
    println!("games      {finished} finished, {failed} failed");
    println!("moves      {moves}");
    println!("elapsed    {elapsed:.2} s");
    println!("moves/s    {:.0}", moves as f64 / elapsed);
    println!(
        "round trip p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (move sent → opponent has the new state)",
        percentile(trips, 0.50),
        percentile(trips, 0.90),
        percentile(trips, 0.99),
        percentile(trips, 1.0)
    );
    let mut total_cpu = 0.0;
    for (i, node) in nodes.iter().enumerate() {
        let cpu = node.cpu_secs() - cpu_before[i];
        total_cpu += cpu;
        let (rss, hwm) = node.memory();
        println!(
            "node {i}     CPU {cpu:.1} s ({:.0} % of one core), RSS {:.1} MiB with the games open, {:.1} MiB at the end, peak (VmHWM) {:.1} MiB",
            100.0 * cpu / elapsed,
            open_rss[i] as f64 / 1024.0,
            rss as f64 / 1024.0,
            hwm as f64 / 1024.0
        );
    }
    println!(
        "all nodes  CPU {total_cpu:.1} s, {:.0} µs a move",
        1e6 * total_cpu / moves.max(1) as f64
    );
}
