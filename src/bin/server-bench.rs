//! Load benchmark for the online server: N concurrent games over loopback.
//!
//! ```text
//! server-bench [--games N] [--server PATH] [--clock SECS] [--seed S]
//!              [--traffic PLIES] [--waiting-rooms N]
//!              [--flood ROUNDS [--conns N]] [--ping-flood SECS [--flooders N]]
//!              [--nodes N --database postgres://… --bus redis://…]
//! ```
//!
//! `--nodes N` starts N cluster nodes on the given PostgreSQL and Redis
//! (the server built with `--features cluster`; `make bench-server
//! NODES=N` starts both) and spreads the games over them: game i's creator
//! on node i mod N, the friend on the next node, so with more than one
//! node every move crosses the bus. CPU and memory are then per node.
//!
//! Starts the real server binary as a child process (`server` next to
//! this one, on a free port, with a fresh data directory and the rate limit
//! raised), opens two WebSockets per game (one creates a room, the other
//! joins), waits until every game has started, then lets every game play
//! random legal moves as fast as the server answers, until each game ends.
//! The games cycle through Territory Duel, Stones! and Mill.
//!
//! Prints the games, the moves, moves per second, the move round trip
//! (a move sent → the server's new state received by the opponent) at
//! p50/p90/p99/max, and the server's memory from `/proc/PID/status`
//! (VmRSS with every game open, VmHWM the peak). Client and server share
//! this machine's cores, so the figures are a floor for the server alone.
//!
//! `--traffic PLIES` measures instead what one long game costs on the
//! wire: a single Mill game (no n-move or repetition rule, moves that close
//! no mill, so it lasts) played for PLIES plies, counting the bytes of the
//! server's text frames each player receives per move.
//!
//! `--waiting-rooms N` measures what invites nobody takes cost: N rooms
//! created, each on its own connection that then closes (the creator
//! leaves, the invite stands), and the server's memory before and after.
//!
//! `--flood ROUNDS` measures what connection floods leave behind: each
//! round opens `--conns N` (8,000) bare TCP connections (from 127.0.0.1
//! to 127.0.0.100 in turn), holds them until the server has accepted them
//! all, closes them, and waits until the server's descriptors are back to
//! where they were; the server's RSS after each round.
//!
//! `--ping-flood SECS` measures WebSocket ping floods: `--flooders N` (4)
//! connections send ping frames as fast as they can for SECS while a
//! bystander game plays a move every 20 ms; the server's CPU, the
//! bystander's move round trip, and how long each flooder stayed open.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

use stoneplay::games::any::AnyRecord;
use stoneplay::games::any::Variant;
use stoneplay::games::mill::MillRules;
use stoneplay::games::splitmix64;
use stoneplay::games::{GameKind, Side};
use stoneplay::protocol::online::{ClientMsg, Event, GameState, ServerMsg, SideChoice};
use stoneplay::server::client::{Client, Spawned};

const WAIT: Duration = Duration::from_secs(60);

struct Args {
    games: usize,
    server: PathBuf,
    clock_secs: u32,
    seed: u64,
    traffic: Option<u32>,
    waiting_rooms: Option<usize>,
    flood: Option<usize>,
    conns: usize,
    ping_flood: Option<u64>,
    flooders: usize,
    nodes: usize,
    database: Option<String>,
    bus: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut args = Args {
        games: 100,
        server: exe.with_file_name("server"),
        clock_secs: 300,
        seed: 1,
        traffic: None,
        waiting_rooms: None,
        flood: None,
        conns: 8000,
        ping_flood: None,
        flooders: 4,
        nodes: 0,
        database: None,
        bus: None,
    };
    let list: Vec<String> = std::env::args().skip(1).collect();
    let mut it = list.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag} expects a number, not '{value}'"))
        };
        match flag.as_str() {
            "--games" => args.games = num()?.max(1) as usize,
            "--server" => args.server = PathBuf::from(value),
            "--clock" => args.clock_secs = num()?.clamp(1, 3600) as u32,
            "--seed" => args.seed = num()?,
            "--traffic" => args.traffic = Some(num()?.clamp(1, 100_000) as u32),
            "--waiting-rooms" => args.waiting_rooms = Some(num()?.clamp(1, 1_000_000) as usize),
            "--flood" => args.flood = Some(num()?.clamp(1, 100) as usize),
            "--conns" => args.conns = num()?.clamp(1, 60_000) as usize,
            "--ping-flood" => args.ping_flood = Some(num()?.clamp(1, 600)),
            "--flooders" => args.flooders = num()?.clamp(1, 64) as usize,
            "--nodes" => args.nodes = num()?.clamp(1, 64) as usize,
            "--database" => args.database = Some(value.clone()),
            "--bus" => args.bus = Some(value.clone()),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(args)
}

/// The server child, killed when dropped (with its data directory).
struct ServerProcess {
    server: Spawned,
    addr: SocketAddr,
    data: PathBuf,
}

impl ServerProcess {
    fn start(path: &PathBuf, extra: &[String]) -> Result<ServerProcess, String> {
        let data = std::env::temp_dir().join(format!("stoneplay-bench-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        let server = Spawned::start(
            Command::new(path)
                .args(["--addr", "127.0.0.1:0", "--no-static"])
                .args(["--rate", "100000", "--burst", "100000"])
                .args(["--max-connections", "100000"])
                // Every simulated player comes from 127.0.0.1.
                .args(["--max-per-address", "0", "--rooms-per-address", "0"])
                .arg("--data")
                .arg(&data)
                .args(extra),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        let addr = server.addr;
        Ok(ServerProcess { server, addr, data })
    }

    /// CPU seconds the server has used (user + system).
    fn cpu_secs(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.server.child.id()))
            .unwrap_or_default();
        // Fields after the parenthesised name; utime and stime are 14 and 15.
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<f64> = rest
            .split_whitespace()
            .map(|v| v.parse().unwrap_or(0.0))
            .collect();
        let ticks = f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0);
        ticks / 100.0
    }

    /// Open descriptors.
    fn descriptors(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.server.child.id()))
            .map(|d| d.count())
            .unwrap_or(0)
    }

    /// (VmRSS, VmHWM) in KiB.
    fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.server.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.server.child.kill();
        let _ = self.server.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// The `i`-th game's: the games of the list in turn, default rules.
fn spec(i: usize) -> Variant {
    Variant::default_for(GameKind::ALL[i % GameKind::ALL.len()])
}

async fn state_of(c: &mut Client, event: Option<Event>) -> Result<GameState, String> {
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
struct Game {
    first: Client,
    second: Client,
    state: GameState,
}

async fn set_up(
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
async fn play(mut g: Game, mut seed: u64, pace: Option<Duration>) -> Result<Vec<Duration>, String> {
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

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// A move of `live` that neither ends the game nor closes a mill (so the
/// same side is not to move again), if there is one; else any legal move.
fn lasting_move(live: &AnyRecord, r: u64) -> Option<String> {
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
async fn traffic(
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

/// `--nodes N`: N cluster nodes, the games spread over them.
async fn run_nodes(args: Args) -> Result<(), String> {
    let (Some(db), Some(bus)) = (&args.database, &args.bus) else {
        return Err("--nodes needs --database postgres://… and --bus redis://…".into());
    };
    let extra = [
        "--database".to_string(),
        db.clone(),
        "--bus".into(),
        bus.clone(),
    ];
    let mut nodes = Vec::new();
    for _ in 0..args.nodes {
        nodes.push(ServerProcess::start(&args.server, &extra)?);
    }
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let n = addrs.len();
    println!(
        "server-bench: {} games on {n} node(s) {addrs:?}",
        args.games
    );
    let setup = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for i in 0..args.games {
        let gate = gate.clone();
        let clock = args.clock_secs;
        let (at, friend) = (addrs[i % n], addrs[(i + 1) % n]);
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            set_up(at, friend, spec(i), clock).await
        }));
    }
    let mut games = Vec::new();
    for t in tasks {
        games.push(t.await.map_err(|e| e.to_string())??);
    }
    let open: Vec<u64> = nodes.iter().map(|s| s.memory().0).collect();
    println!(
        "set up {} games ({} connections) in {:.1} s",
        games.len(),
        games.len() * 2,
        setup.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let cpu_before: Vec<f64> = nodes.iter().map(ServerProcess::cpu_secs).collect();
    let mut tasks = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        let seed = args.seed.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64);
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
    let elapsed = start.elapsed().as_secs_f64();
    trips.sort();
    let moves = trips.len();
    println!("games      {finished} finished, {failed} failed");
    println!("moves      {moves}");
    println!("elapsed    {elapsed:.2} s");
    println!("moves/s    {:.0}", moves as f64 / elapsed);
    println!(
        "round trip p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (move sent → opponent has the new state)",
        percentile(&trips, 0.50),
        percentile(&trips, 0.90),
        percentile(&trips, 0.99),
        percentile(&trips, 1.0)
    );
    let mut total_cpu = 0.0;
    for (i, node) in nodes.iter().enumerate() {
        let cpu = node.cpu_secs() - cpu_before[i];
        total_cpu += cpu;
        let (rss, hwm) = node.memory();
        println!(
            "node {i}     CPU {cpu:.1} s ({:.0} % of one core), RSS {:.1} MiB with the games open, {:.1} MiB at the end, peak {:.1} MiB",
            100.0 * cpu / elapsed,
            open[i] as f64 / 1024.0,
            rss as f64 / 1024.0,
            hwm as f64 / 1024.0
        );
    }
    println!(
        "all nodes  CPU {total_cpu:.1} s, {:.0} µs a move",
        1e6 * total_cpu / moves.max(1) as f64
    );
    if failed > 0 {
        return Err(format!("{failed} games failed"));
    }
    Ok(())
}

/// `--waiting-rooms N`: N invites whose creators leave at once.
async fn waiting_rooms(server: &ServerProcess, n: usize) -> Result<(), String> {
    let addr = server.addr;
    let (idle, _) = server.memory();
    let start = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for i in 0..n {
        let gate = gate.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            let mut c = Client::hello(addr).await?;
            c.send(&ClientMsg::Create {
                game: spec(i),
                clock_secs: None,
                side: SideChoice::First,
            })
            .await?;
            match c.recv(WAIT).await? {
                ServerMsg::Seat { .. } => Ok::<(), String>(()),
                other => Err(format!("expected a seat, got {other:?}")),
            }
        }));
    }
    for t in tasks {
        t.await.map_err(|e| e.to_string())??;
    }
    let made = start.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (rss, hwm) = server.memory();
    let db: u64 = std::fs::read_dir(&server.data)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    println!(
        "waiting rooms {n} created in {made:.1} s, creators gone; server RSS {:.1} MiB idle -> {:.1} MiB after (peak {:.1} MiB); data directory {:.1} MiB",
        idle as f64 / 1024.0,
        rss as f64 / 1024.0,
        hwm as f64 / 1024.0,
        db as f64 / 1_048_576.0
    );
    Ok(())
}

/// `--flood ROUNDS`: rounds of `conns` bare TCP connections, opened,
/// held until the server has them all, closed; the server's RSS after each.
async fn flood(server: &ServerProcess, rounds: usize, conns: usize) -> Result<(), String> {
    stoneplay::server::listen::raise_fd_limit();
    let addr = server.addr;
    let idle_fds = server.descriptors();
    let (idle, _) = server.memory();
    println!(
        "flood: {conns} bare TCP connections a round, {rounds} rounds; server RSS {:.1} MiB idle, {idle_fds} descriptors",
        idle as f64 / 1024.0
    );
    for round in 1..=rounds {
        let gate = Arc::new(tokio::sync::Semaphore::new(256));
        let mut tasks = Vec::new();
        for i in 0..conns {
            let gate = gate.clone();
            tasks.push(tokio::spawn(async move {
                let _permit = gate.acquire().await.ok()?;
                let socket = tokio::net::TcpSocket::new_v4().ok()?;
                let from = std::net::Ipv4Addr::new(127, 0, 0, 1 + (i % 100) as u8);
                socket.bind(SocketAddr::from((from, 0))).ok()?;
                socket.connect(addr).await.ok()
            }));
        }
        let mut held = Vec::new();
        for t in tasks {
            if let Ok(Some(s)) = t.await {
                held.push(s);
            }
        }
        let until = Instant::now() + Duration::from_secs(20);
        while server.descriptors() < idle_fds + held.len() && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let (peak, _) = server.memory();
        let peak_fds = server.descriptors();
        let opened = held.len();
        drop(held);
        let until = Instant::now() + Duration::from_secs(30);
        while server.descriptors() > idle_fds && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // What is given back is given back within a few seconds.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let (rss, _) = server.memory();
        println!(
            "round {round}: {opened} connected ({peak_fds} server descriptors, RSS {:.1} MiB); all closed: {} descriptors, RSS {:.1} MiB",
            peak as f64 / 1024.0,
            server.descriptors(),
            rss as f64 / 1024.0
        );
    }
    Ok(())
}

/// `--ping-flood SECS`: `flooders` connections send WebSocket pings as
/// fast as they can while a bystander game plays a move every 20 ms.
async fn ping_flood(server: &ServerProcess, secs: u64, flooders: usize) -> Result<(), String> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let addr = server.addr;
    let run_for = Duration::from_secs(secs);
    // The bystander's round trips with nobody flooding, first.
    let quiet_until = Instant::now() + Duration::from_secs(3);
    let mut quiet = Vec::new();
    let mut seed = 1;
    while Instant::now() < quiet_until {
        let g = set_up(addr, addr, Variant::default_for(GameKind::Stones), 300).await?;
        quiet.append(&mut play(g, seed, Some(Duration::from_millis(20))).await?);
        seed += 1;
    }
    quiet.sort();
    let cpu_before = server.cpu_secs();
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..flooders {
        tasks.push(tokio::spawn(async move {
            let url = format!("ws://{addr}{}", stoneplay::protocol::online::WS_PATH);
            let (ws, _) = tokio_tungstenite::connect_async(url)
                .await
                .map_err(|e| e.to_string())?;
            let (mut sink, mut stream) = ws.split();
            // Read (and drop) the pongs, so the server's writes never block.
            let reader =
                tokio::spawn(async move { while let Some(Ok(_)) = stream.next().await {} });
            let mut sent: u64 = 0;
            let lasted = loop {
                if start.elapsed() >= run_for || reader.is_finished() {
                    break start.elapsed();
                }
                let batch = async {
                    for _ in 0..64 {
                        sink.feed(Message::Ping(Default::default())).await?;
                    }
                    sink.flush().await
                };
                if batch.await.is_err() {
                    break start.elapsed();
                }
                sent += 64;
            };
            reader.abort();
            Ok::<(u64, Duration), String>((sent, lasted))
        }));
    }
    let mut trips = Vec::new();
    while start.elapsed() < run_for {
        let g = set_up(addr, addr, Variant::default_for(GameKind::Stones), 300).await?;
        trips.append(&mut play(g, seed, Some(Duration::from_millis(20))).await?);
        seed += 1;
    }
    let mut flooded = Vec::new();
    for t in tasks {
        flooded.push(t.await.map_err(|e| e.to_string())??);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = server.cpu_secs() - cpu_before;
    trips.sort();
    println!(
        "ping flood: {flooders} connections for {secs} s: pings sent {:?}, each open for {:?} s",
        flooded.iter().map(|f| f.0).collect::<Vec<_>>(),
        flooded
            .iter()
            .map(|f| (f.1.as_secs_f64() * 10.0).round() / 10.0)
            .collect::<Vec<_>>()
    );
    println!(
        "server CPU {cpu:.2} s in {elapsed:.1} s; bystander move round trip p50 {:.2} ms, p99 {:.2} ms ({} moves; {:.2} / {:.2} ms with no flood)",
        percentile(&trips, 0.5),
        percentile(&trips, 0.99),
        trips.len(),
        percentile(&quiet, 0.5),
        percentile(&quiet, 0.99)
    );
    Ok(())
}

async fn run(args: Args) -> Result<(), String> {
    if args.nodes > 0 {
        return run_nodes(args).await;
    }
    let server = ServerProcess::start(&args.server, &[])?;
    let addr = server.addr;
    if let Some(plies) = args.traffic {
        return traffic(addr, plies, args.clock_secs, args.seed).await;
    }
    if let Some(n) = args.waiting_rooms {
        return waiting_rooms(&server, n).await;
    }
    if let Some(rounds) = args.flood {
        return flood(&server, rounds, args.conns).await;
    }
    if let Some(secs) = args.ping_flood {
        return ping_flood(&server, secs, args.flooders).await;
    }
    let (idle_rss, _) = server.memory();
    println!(
        "server-bench: {} games on {addr} (server pid {}, {} KiB RSS idle)",
        args.games,
        server.server.child.id(),
        idle_rss
    );

    // Set up every game first (at most 64 handshakes at a time), so all
    // of them are open at once when play starts.
    let setup = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let mut tasks = Vec::new();
    for i in 0..args.games {
        let gate = gate.clone();
        let clock = args.clock_secs;
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            set_up(addr, addr, spec(i), clock).await
        }));
    }
    let mut games = Vec::new();
    for t in tasks {
        games.push(t.await.map_err(|e| e.to_string())??);
    }
    let (open_rss, _) = server.memory();
    println!(
        "set up {} games ({} connections) in {:.1} s; server RSS with all open: {:.1} MiB",
        games.len(),
        games.len() * 2,
        setup.elapsed().as_secs_f64(),
        open_rss as f64 / 1024.0
    );

    let start = Instant::now();
    let cpu_before = server.cpu_secs();
    let mut tasks = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        let seed = args.seed.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64);
        tasks.push(tokio::spawn(play(g, seed, None)));
    }
    let mut peak_rss = open_rss;
    let mut trips = Vec::new();
    let mut finished = 0;
    let mut failed = 0;
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
        peak_rss = peak_rss.max(server.memory().0);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let (end_rss, hwm) = server.memory();
    let server_cpu = server.cpu_secs() - cpu_before;
    trips.sort();
    let moves = trips.len();
    println!("games      {finished} finished, {failed} failed");
    println!("moves      {moves}");
    println!("elapsed    {elapsed:.2} s");
    println!("moves/s    {:.0}", moves as f64 / elapsed);
    println!(
        "server CPU {server_cpu:.1} s in {elapsed:.1} s ({:.0} % of one core; {:.0} µs a move)",
        100.0 * server_cpu / elapsed,
        1e6 * server_cpu / moves.max(1) as f64
    );
    println!(
        "round trip p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms (move sent → opponent has the new state)",
        percentile(&trips, 0.50),
        percentile(&trips, 0.90),
        percentile(&trips, 0.99),
        percentile(&trips, 1.0)
    );
    println!(
        "server RSS {:.1} MiB idle, {:.1} MiB with {} games open, {:.1} MiB at the end; peak (VmHWM) {:.1} MiB",
        idle_rss as f64 / 1024.0,
        open_rss as f64 / 1024.0,
        args.games,
        end_rss as f64 / 1024.0,
        hwm.max(peak_rss) as f64 / 1024.0
    );
    if failed > 0 {
        return Err(format!("{failed} games failed"));
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\nusage: server-bench [--games N] [--server PATH] [--clock SECS] [--seed S] [--traffic PLIES] [--waiting-rooms N] [--flood ROUNDS [--conns N]] [--ping-flood SECS [--flooders N]] [--nodes N --database URL --bus URL]");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
