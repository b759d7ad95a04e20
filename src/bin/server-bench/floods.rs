//! What the server keeps after abuse: `--waiting-rooms` (invites whose
//! creators leave), `--flood` (rounds of bare TCP connections) and
//! `--ping-flood` (WebSocket ping floods beside a bystander game).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use stoneplay::games::any::Variant;
use stoneplay::games::GameKind;
use stoneplay::protocol::online::{ClientMsg, ServerMsg, SideChoice};
use stoneplay::server::client::Client;

use crate::games::{percentile, play, set_up, spec};
use crate::process::{ServerProcess, WAIT};

/// `--waiting-rooms N`: N invites whose creators leave at once.
pub(crate) async fn waiting_rooms(server: &ServerProcess, n: usize) -> Result<(), String> {
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
                rated: false,
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
pub(crate) async fn flood(
    server: &ServerProcess,
    rounds: usize,
    conns: usize,
) -> Result<(), String> {
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
pub(crate) async fn ping_flood(
    server: &ServerProcess,
    secs: u64,
    flooders: usize,
) -> Result<(), String> {
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
