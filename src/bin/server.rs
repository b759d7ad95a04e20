//! The online-play server: the built app (`--static`, default `dist`) and
//! the game endpoint `/ws` on one port.
//!
//! ```text
//! server [--addr HOST:PORT] [--data DIR] [--static DIR | --no-static]
//!        [--auto-resume-ms MS] [--min-clock-secs S] [--rate N] [--burst N]
//!        [--max-connections N] [--max-per-address N] [--rooms-per-address N]
//!        [--max-waiting-rooms N] [--allow-origin ORIGIN]...
//!        [--database postgres://… [--bus redis://…]]
//! ```
//!
//! `--database` keeps the games in PostgreSQL instead of `--data`'s SQLite
//! file; with `--bus` the server is one node of a cluster (docs/operations.md,
//! "Scaling past one machine"). Both need the `cluster` feature.
//!
//! Prints `listening on http://ADDR/` once it accepts connections (the
//! load benchmark reads that line), and shuts down cleanly on Ctrl-C or
//! SIGTERM: connections are closed with code 1012 and every clock is saved.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use stoneplay::server::{self, Config};

const USAGE: &str = "usage: server [--addr HOST:PORT] [--data DIR] [--static DIR | --no-static]
              [--auto-resume-ms MS] [--min-clock-secs S] [--rate N] [--burst N]
              [--max-connections N] [--max-per-address N] [--rooms-per-address N]
              [--max-waiting-rooms N] [--allow-origin ORIGIN]...
              [--database postgres://… [--bus redis://…]]
defaults: --addr 127.0.0.1:8080 --data ./data --static dist
behind a reverse proxy every client has the proxy's address: set
--max-per-address 0 --rooms-per-address 0 and limit per client there";

fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut config = Config::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        if flag == "--no-static" {
            config.static_dir = None;
            continue;
        }
        let value = it
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?
            .as_str();
        let number = |what: &str| -> Result<u64, String> {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag} expects {what}, not '{value}'"))
        };
        match flag.as_str() {
            "--addr" => {
                config.addr = value
                    .parse()
                    .map_err(|_| format!("--addr expects HOST:PORT, not '{value}'"))?
            }
            "--data" => config.data_dir = PathBuf::from(value),
            "--database" => config.database = Some(value.to_string()),
            "--bus" => config.bus = Some(value.to_string()),
            "--static" => config.static_dir = Some(PathBuf::from(value)),
            "--auto-resume-ms" => {
                config.auto_resume = Duration::from_millis(number("milliseconds")?)
            }
            "--min-clock-secs" => {
                config.min_clock_secs = number("seconds")?.clamp(1, 3600) as u32;
            }
            "--rate" => config.rate_per_sec = number("a number")?.max(1) as u32,
            "--burst" => config.burst = number("a number")?.max(1) as u32,
            "--max-connections" => config.max_connections = number("a number")? as usize,
            "--max-per-address" => config.max_per_addr = number("a number")? as usize,
            "--rooms-per-address" => {
                config.rooms_per_addr = number("a number")?.min(u64::from(u32::MAX)) as u32
            }
            "--max-waiting-rooms" => config.max_waiting_rooms = number("a number")? as usize,
            // Pages on another origin (a static host) that may open /ws.
            "--allow-origin" => config.allow_origins.extend(
                value
                    .split(',')
                    .map(str::trim)
                    .filter(|o| !o.is_empty())
                    .map(String::from),
            ),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(config)
}

async fn stop_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}

fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(c) => c,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &config.static_dir {
        if !dir.join("index.html").is_file() {
            eprintln!(
                "warning: {} has no index.html (build the app with `trunk build --release`); serving /ws only is fine",
                dir.display()
            );
        }
    }
    let data = match (&config.database, &config.bus) {
        (None, _) => config.data_dir.display().to_string(),
        (Some(_), None) => "PostgreSQL".to_string(),
        (Some(_), Some(_)) => "PostgreSQL, a cluster node on the bus".to_string(),
    };
    let server = match server::start(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let addr = server.addr();
    // Never panic on a closed stdout (a parent that stopped reading).
    say(&format!("listening on http://{addr}/"));
    // Clients are served while the games are loaded; this line comes after.
    let resumed = tokio::select! {
        n = server.resumed() => n,
        () = stop_signal() => {
            say("shutting down: saving clocks");
            server.shutdown().await;
            return ExitCode::SUCCESS;
        }
    };
    say(&format!(
        "  WebSocket ws://{addr}/ws, protocol v{}, data in {}, {} unfinished game(s) resumed",
        stoneplay::protocol::online::PROTOCOL_VERSION,
        data,
        resumed
    ));
    stop_signal().await;
    say("shutting down: saving clocks");
    server.shutdown().await;
    ExitCode::SUCCESS
}
