//! Load benchmark for the online server: N concurrent games over loopback.
//!
//! ```text
//! server-bench [--games N] [--server PATH] [--clock SECS] [--seed S]
//!              [--traffic PLIES] [--waiting-rooms N]
//!              [--flood ROUNDS [--conns N]] [--ping-flood SECS [--flooders N]]
//!              [--rated] [--lobby-churn PAIRS [--followers N]]
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
//!
//! `--rated` and `--lobby-churn PAIRS` (issue 37) measure named players:
//! rated quick matches played to the end with every rating read back, and
//! games played while pairs of players post, cancel and take lobby
//! challenges and other connections follow the lobby; on one node or on
//! `--nodes N` (see `community.rs`).
//!
//! Files: this one reads the options and runs the benchmark asked for
//! (the games, `--traffic`, `--nodes`); `community.rs` `--rated` and
//! `--lobby-churn`; `process.rs` the server child
//! (its CPU, descriptors, memory); `games.rs` two players in a game and
//! random play to the end, the long Mill game of `--traffic`;
//! `floods.rs` `--waiting-rooms`, `--flood` and `--ping-flood` (issue 34:
//! was one file of 815 lines).

mod community;
mod floods;
mod games;
mod process;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use floods::{flood, ping_flood, waiting_rooms};
use games::{percentile, play, report_games, set_up, spec, traffic};
use process::ServerProcess;

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
    rated: bool,
    lobby_churn: Option<usize>,
    followers: usize,
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
        rated: false,
        lobby_churn: None,
        followers: 20,
    };
    let list: Vec<String> = std::env::args().skip(1).collect();
    let mut it = list.iter();
    while let Some(flag) = it.next() {
        if flag == "--rated" {
            args.rated = true;
            continue;
        }
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
            // At most 10: the server's open challenges per address.
            "--lobby-churn" => args.lobby_churn = Some(num()?.clamp(1, 10) as usize),
            "--followers" => args.followers = num()?.clamp(0, 10_000) as usize,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(args)
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
    if args.rated {
        return community::rated(&nodes, args.games, args.clock_secs, args.seed).await;
    }
    if let Some(pairs) = args.lobby_churn {
        return community::lobby_churn(
            &nodes,
            args.games,
            pairs,
            args.followers,
            args.clock_secs,
            args.seed,
        )
        .await;
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
    report_games(
        &nodes,
        &mut trips,
        finished,
        failed,
        elapsed,
        &cpu_before,
        &open,
    );
    if failed > 0 {
        return Err(format!("{failed} games failed"));
    }
    Ok(())
}

async fn run(args: Args) -> Result<(), String> {
    if args.nodes > 0 {
        return run_nodes(args).await;
    }
    let server = ServerProcess::start(&args.server, &[])?;
    if args.rated {
        return community::rated(
            std::slice::from_ref(&server),
            args.games,
            args.clock_secs,
            args.seed,
        )
        .await;
    }
    if let Some(pairs) = args.lobby_churn {
        let one = std::slice::from_ref(&server);
        return community::lobby_churn(
            one,
            args.games,
            pairs,
            args.followers,
            args.clock_secs,
            args.seed,
        )
        .await;
    }
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
            eprintln!("error: {e}\nusage: server-bench [--games N] [--server PATH] [--clock SECS] [--seed S] [--traffic PLIES] [--waiting-rooms N] [--flood ROUNDS [--conns N]] [--ping-flood SECS [--flooders N]] [--rated] [--lobby-churn PAIRS [--followers N]] [--nodes N --database URL --bus URL]");
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
