//! The server under test as a child process: started on a free port with
//! a fresh data directory and the limits raised, killed when dropped;
//! its CPU time, open descriptors and memory from /proc.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use stoneplay::server::client::Spawned;

/// The longest any answer of the server is waited for.
pub(crate) const WAIT: Duration = Duration::from_secs(60);

/// The server child, killed when dropped (with its data directory).
pub(crate) struct ServerProcess {
    pub(crate) server: Spawned,
    pub(crate) addr: SocketAddr,
    pub(crate) data: PathBuf,
}

impl ServerProcess {
    pub(crate) fn start(path: &PathBuf, extra: &[String]) -> Result<ServerProcess, String> {
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
    pub(crate) fn cpu_secs(&self) -> f64 {
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
    pub(crate) fn descriptors(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.server.child.id()))
            .map(|d| d.count())
            .unwrap_or(0)
    }

    /// (VmRSS, VmHWM) in KiB.
    pub(crate) fn memory(&self) -> (u64, u64) {
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
