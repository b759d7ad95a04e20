//! The cluster tests' services: a real PostgreSQL and a real Redis, started
//! on free loopback ports for this test process and stopped when it ends
//! (each runs under a shell that kills it once the test process's pipe
//! closes, so even a panicking or killed test leaves nothing running).
//!
//! PostgreSQL refuses to run as root: as root, it runs as `nobody`. Its
//! binaries are found in `$STONEPLAY_PG_BIN`, or the newest
//! `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package, installed
//! by `.ci/setup`); Redis is `redis-server` on the PATH.

#![allow(dead_code)]

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn pg_bin(tool: &str) -> PathBuf {
    if let Ok(dir) = std::env::var("STONEPLAY_PG_BIN") {
        return PathBuf::from(dir).join(tool);
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (/usr/lib/postgresql): run .ci/setup")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join(tool).exists())
        .collect();
    dirs.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    dirs.pop()
        .expect("a PostgreSQL server in /usr/lib/postgresql/*/bin")
        .join(tool)
}

/// Runs as `nobody` when we are root (PostgreSQL refuses root).
fn as_pg_user(program: PathBuf) -> Command {
    if root() {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// A service process that ends with this test process.
pub struct Service {
    shell: Child,
    pipe: Option<ChildStdin>,
    pub port: u16,
    /// The service's own process.
    pub pid: i32,
}

impl Service {
    /// Runs `command` (a shell command line) under the guard shell; `stop`
    /// is the signal that stops it.
    fn start(command: &str, stop: &str, port: u16) -> Service {
        let script = format!(
            "{command} >/dev/null 2>&1 & pid=$!; echo $pid; cat >/dev/null; kill -{stop} $pid 2>/dev/null; wait $pid"
        );
        let mut shell = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("sh starts");
        let pipe = shell.stdin.take();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(shell.stdout.take().expect("a pipe")),
            &mut line,
        )
        .expect("the service's pid");
        let pid = line.trim().parse().expect("a pid");
        let service = Service {
            shell,
            pipe,
            port,
            pid,
        };
        let until = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < until,
                "{command}: no answer on port {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        service
    }

    /// Stops the service and waits until it is gone.
    pub fn stop(&mut self) {
        // A frozen service would never handle its stop signal.
        signal(&tree(self.pid), libc::SIGCONT);
        drop(self.pipe.take());
        let _ = self.shell.wait();
    }

    /// Stops the service's processes with SIGSTOP (the service hangs: its
    /// kernel still accepts connections, nothing answers) until the
    /// returned guard is dropped (SIGCONT).
    pub fn freeze(&self) -> Frozen {
        let pids = tree(self.pid);
        signal(&pids, libc::SIGSTOP);
        Frozen { pids }
    }
}

/// Processes stopped by [`Service::freeze`]: continued when dropped.
pub struct Frozen {
    pids: Vec<i32>,
}

impl Drop for Frozen {
    fn drop(&mut self) {
        signal(&self.pids, libc::SIGCONT);
    }
}

fn signal(pids: &[i32], sig: i32) {
    for &pid in pids {
        // SAFETY: kill only sends a signal.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

/// `root` and every process under it (PostgreSQL serves each connection
/// from a process of its own), parents first.
fn tree(root: i32) -> Vec<i32> {
    let mut parent = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": the name may hold spaces.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        if let Some(ppid) = ppid {
            parent.push((pid, ppid));
        }
    }
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let p = out[i];
        out.extend(parent.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    out
}

impl Drop for Service {
    fn drop(&mut self) {
        self.stop();
    }
}

fn quote(p: &std::path::Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// Removes the directories that earlier test processes (now gone) left.
fn sweep() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some(rest) = name.strip_prefix("stoneplay-pg-") else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or("");
        if !pid.is_empty() && !std::path::Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// A PostgreSQL cluster in a fresh temporary directory.
pub struct Postgres {
    pub dir: PathBuf,
    service: Option<Service>,
    pub port: u16,
    databases: AtomicU32,
}

impl Postgres {
    pub fn start() -> Postgres {
        static N: AtomicU32 = AtomicU32::new(0);
        sweep();
        let dir = std::env::temp_dir().join(format!(
            "stoneplay-pg-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if root() {
            let ok = Command::new("chown")
                .args(["nobody:nogroup"])
                .arg(&dir)
                .status()
                .expect("chown runs");
            assert!(ok.success());
        }
        let out = as_pg_user(pg_bin("initdb"))
            .arg("-D")
            .arg(dir.join("data"))
            .args(["-A", "trust", "-U", "stoneplay", "-E", "UTF8", "--no-sync"])
            .output()
            .expect("initdb runs");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port();
        let mut pg = Postgres {
            dir,
            service: None,
            port,
            databases: AtomicU32::new(0),
        };
        pg.resume();
        pg
    }

    /// Starts the server again (after [`Postgres::stop`]).
    pub fn resume(&mut self) {
        let mut cmd = as_pg_user(pg_bin("postgres"));
        cmd.arg("-D").arg(self.dir.join("data"));
        let line = format!(
            "{} {} -p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200",
            cmd.get_program().to_string_lossy(),
            cmd.get_args()
                .map(|a| quote(std::path::Path::new(a)))
                .collect::<Vec<_>>()
                .join(" "),
            self.port,
            quote(&self.dir),
        );
        // SIGINT: PostgreSQL's fast shutdown (clients are disconnected).
        self.service = Some(Service::start(&line, "INT", self.port));
    }

    /// Stops the server (a database outage).
    pub fn stop(&mut self) {
        if let Some(mut s) = self.service.take() {
            s.stop();
        }
    }

    /// Hangs the server and every backend (SIGSTOP) until the guard drops.
    pub fn freeze(&self) -> Frozen {
        self.service.as_ref().expect("PostgreSQL runs").freeze()
    }

    pub fn url(&self, db: &str) -> String {
        format!("postgres://stoneplay@127.0.0.1:{}/{db}", self.port)
    }

    /// A new, empty database; its URL.
    pub async fn database(&self) -> String {
        let name = format!("t{}", self.databases.fetch_add(1, Ordering::Relaxed));
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            match tokio_postgres::connect(&self.url("postgres"), tokio_postgres::NoTls).await {
                Ok((client, conn)) => {
                    tokio::spawn(conn);
                    client
                        .batch_execute(&format!("CREATE DATABASE {name}"))
                        .await
                        .expect("CREATE DATABASE");
                    return self.url(&name);
                }
                Err(e) => {
                    assert!(Instant::now() < until, "PostgreSQL does not start: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A Redis server (no persistence).
pub struct Redis {
    service: Option<Service>,
    pub port: u16,
}

impl Redis {
    pub fn start() -> Redis {
        let mut r = Redis {
            service: None,
            port: free_port(),
        };
        r.resume();
        r
    }

    pub fn resume(&mut self) {
        let line = format!(
            "redis-server --port {} --bind 127.0.0.1 --save '' --appendonly no",
            self.port
        );
        self.service = Some(Service::start(&line, "TERM", self.port));
    }

    /// Stops the server (a bus outage).
    pub fn stop(&mut self) {
        if let Some(mut s) = self.service.take() {
            s.stop();
        }
    }

    /// Hangs the server (SIGSTOP) until the guard drops.
    pub fn freeze(&self) -> Frozen {
        self.service.as_ref().expect("Redis runs").freeze()
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

/// The PostgreSQL and Redis shared by this test process's tests (each
/// test takes its own database); tests that stop them start their own.
pub fn shared() -> &'static (Postgres, Redis) {
    static SHARED: OnceLock<(Postgres, Redis)> = OnceLock::new();
    SHARED.get_or_init(|| (Postgres::start(), Redis::start()))
}

pub fn addr(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}
