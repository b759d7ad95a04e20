//! Web hardening (issue 13, point 6): which pages may open the game
//! socket, which files are served, and the headers that come with them.
#![cfg(feature = "server")]

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::Path;

use common::{config, data_dir};
use stoneplay::server::{self, Config, Server};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

struct Answer {
    status: u16,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }
}

/// One request over a fresh connection (closed after the answer).
async fn request(addr: SocketAddr, head: &str) -> Answer {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = tokio::time::timeout(common::WAIT, tcp.read_to_end(&mut raw)).await;
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: raw[split + 4..].to_vec(),
    }
}

async fn get(addr: SocketAddr, path: &str, extra: &str) -> Answer {
    request(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}\r\n"),
    )
    .await
}

/// The status of a WebSocket upgrade sent with `origin` (if any).
async fn upgrade(addr: SocketAddr, origin: Option<&str>) -> u16 {
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(
        format!(
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{origin}\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut buf = [0u8; 12];
    tcp.read_exact(&mut buf).await.unwrap();
    String::from_utf8_lossy(&buf[9..12]).parse().unwrap()
}

#[tokio::test]
async fn the_socket_accepts_its_own_pages_and_listed_origins_only() {
    let dir = data_dir("origin");
    let server = server::start(config(&dir)).await.unwrap();
    let addr = server.addr();
    assert_eq!(
        upgrade(addr, Some(&format!("http://{addr}"))).await,
        101,
        "own origin"
    );
    assert_eq!(upgrade(addr, None).await, 101, "no Origin: not a browser");
    for bad in [
        "https://evil.example",
        "null",
        "file://",
        "http://127.0.0.1:1",
    ] {
        assert_eq!(upgrade(addr, Some(bad)).await, 403, "{bad}");
    }
    server.shutdown().await;

    let server = server::start(Config {
        allow_origins: vec!["https://static.example".into()],
        ..config(&dir)
    })
    .await
    .unwrap();
    let addr = server.addr();
    assert_eq!(upgrade(addr, Some("https://static.example")).await, 101);
    assert_eq!(upgrade(addr, Some("https://evil.example")).await, 403);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

const INLINE: &str = "console.log('hi')";

fn site(root: &Path) -> std::path::PathBuf {
    let site = root.join("site");
    std::fs::create_dir_all(site.join("icons")).unwrap();
    std::fs::write(
        site.join("index.html"),
        format!("<!doctype html><title>Stoneplay</title><script>{INLINE}</script>"),
    )
    .unwrap();
    std::fs::write(site.join(".env"), "SECRET=1").unwrap();
    std::fs::create_dir_all(site.join(".git")).unwrap();
    std::fs::write(site.join(".git").join("config"), "[core]").unwrap();
    std::fs::write(site.join("sw.js"), "// worker").unwrap();
    std::fs::write(site.join("app-1a2b3c4d5e6f7a8b.js"), "x".repeat(4000)).unwrap();
    let gz = std::process::Command::new("gzip")
        .args(["-k", "-9"])
        .arg(site.join("app-1a2b3c4d5e6f7a8b.js"))
        .status()
        .unwrap();
    assert!(gz.success());
    std::fs::write(site.join("icons").join("a.svg"), "<svg/>").unwrap();
    // Outside the served directory.
    std::fs::write(root.join("secret.txt"), "outside").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("secret.txt"), site.join("leak.txt")).unwrap();
        std::os::unix::fs::symlink(root, site.join("up")).unwrap();
        std::os::unix::fs::symlink(site.join("sw.js"), site.join("inside.js")).unwrap();
    }
    site
}

async fn serving(name: &str) -> (Server, std::path::PathBuf) {
    let dir = data_dir(name);
    let server = server::start(Config {
        static_dir: Some(site(&dir)),
        ..config(&dir.join("data"))
    })
    .await
    .unwrap();
    (server, dir)
}

#[tokio::test]
async fn no_dotfiles_no_symlinks_out_and_no_overlong_names() {
    let (server, dir) = serving("files").await;
    let addr = server.addr();
    for path in [
        "/.env",
        "/%2Eenv",
        "/.git/config",
        "/icons/../.env",
        "/leak.txt",
        "/up/secret.txt",
    ] {
        let a = get(addr, path, "").await;
        assert_eq!(a.status, 404, "{path}");
        let body = String::from_utf8_lossy(&a.body);
        assert!(
            !body.contains("SECRET") && !body.contains("outside") && !body.contains("[core]"),
            "{path}: {body}"
        );
    }
    let long = format!("/{}", "a".repeat(300));
    assert_eq!(get(addr, &long, "").await.status, 414);
    // A symlink that stays inside is fine, and so is a normal file.
    assert_eq!(get(addr, "/inside.js", "").await.status, 200);
    assert_eq!(get(addr, "/icons/a.svg", "").await.status, 200);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test]
async fn security_cache_and_compression_headers() {
    let (server, dir) = serving("headers").await;
    let addr = server.addr();
    let page = get(addr, "/", "").await;
    assert_eq!(page.status, 200);
    let csp = page.header("content-security-policy");
    assert!(csp.contains("'wasm-unsafe-eval'"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(!csp.contains("'unsafe-eval'"), "{csp}");
    use base64::Engine;
    use sha2::Digest;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(INLINE));
    assert!(
        csp.contains(&format!("'sha256-{hash}'")),
        "the inline script's hash: {csp}"
    );
    assert_eq!(page.header("x-content-type-options"), "nosniff");
    assert_eq!(page.header("x-frame-options"), "DENY");
    assert_eq!(page.header("cache-control"), "no-cache");
    assert_eq!(
        get(addr, "/sw.js", "").await.header("cache-control"),
        "no-cache"
    );
    assert_eq!(
        get(addr, "/icons/a.svg", "").await.header("cache-control"),
        "no-cache"
    );
    let asset = get(addr, "/app-1a2b3c4d5e6f7a8b.js", "").await;
    assert_eq!(
        asset.header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(asset.header("x-content-type-options"), "nosniff");
    assert_eq!(asset.body.len(), 4000);
    let zipped = get(
        addr,
        "/app-1a2b3c4d5e6f7a8b.js",
        "Accept-Encoding: gzip\r\n",
    )
    .await;
    assert_eq!(zipped.header("content-encoding"), "gzip");
    assert!(zipped.body.len() < 200, "{} bytes", zipped.body.len());
    // Refusals carry the headers too.
    let missing = get(addr, "/.env", "").await;
    assert_eq!(missing.header("x-content-type-options"), "nosniff");
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
