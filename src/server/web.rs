//! The web side of the server: which pages may open the game WebSocket
//! (the `Origin` check), the built app as static files (no dotfiles, no
//! symlinks out of the directory, no overlong names; precompressed `.br`
//! and `.gz` files when the browser takes them) and the headers every
//! response carries (Content-Security-Policy, nosniff, no framing, and
//! caching that fits a PWA: `index.html` and `sw.js` revalidate, files
//! with a content hash in their name are kept a year).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use sha2::{Digest, Sha256};
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// The longest path segment (a file name) served; longer is refused.
pub const MAX_SEGMENT: usize = 255;

// ---------------------------------------------------------------- Origin

/// `scheme://host[:port]` with the scheme's default port left out and in
/// lowercase, as browsers send `Origin`; `None` for anything else
/// (`null`, `file://`).
fn normal_origin(origin: &str) -> Option<String> {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, host) = origin.split_once("://")?;
    let default = match scheme {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    if host.is_empty() || host.contains('/') {
        return None;
    }
    let host = host.strip_suffix(default).unwrap_or(host);
    Some(format!("{scheme}://{host}"))
}

/// Whether a WebSocket upgrade with these headers may go ahead: no
/// `Origin` (not a browser), the page's own origin (its host is the
/// `Host` the request came to, or the `X-Forwarded-Host` a proxy set), or
/// one listed in `allowed` (`*` allows any).
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    if allowed.iter().any(|a| a == "*") {
        return true;
    }
    let Some(origin) = origin.to_str().ok().and_then(normal_origin) else {
        return false;
    };
    if allowed
        .iter()
        .any(|a| normal_origin(a).is_some_and(|a| a == origin))
    {
        return true;
    }
    let (scheme, _) = origin.split_once("://").unwrap_or_default();
    let hosts = [headers.get(header::HOST), headers.get("x-forwarded-host")];
    hosts
        .into_iter()
        .flatten()
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(','))
        .filter_map(|h| normal_origin(&format!("{scheme}://{}", h.trim())))
        .any(|own| own == origin)
}

// ---------------------------------------------------------------- Headers

/// The policy the app runs under. Scripts: its own files, WebAssembly
/// (`'wasm-unsafe-eval'`) and the inline scripts of `index.html` by hash;
/// styles also inline (the UI sets `style` attributes); the game socket
/// on this or another server (the page may be pointed at one).
fn policy(inline_hashes: &[String]) -> String {
    let hashes: String = inline_hashes
        .iter()
        .map(|h| format!(" 'sha256-{h}'"))
        .collect();
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'{hashes}; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; \
         connect-src 'self' ws: wss:; worker-src 'self'; manifest-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The SHA-256 (base64) of each inline `<script>` (one with no `src`).
pub fn inline_script_hashes(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(open) = lower[at..].find("<script").map(|i| at + i) {
        let Some(tag_end) = lower[open..].find('>').map(|i| open + i) else {
            break;
        };
        let Some(close) = lower[tag_end..].find("</script").map(|i| tag_end + i) else {
            break;
        };
        let tag = &lower[open..tag_end];
        if !tag.contains(" src=") {
            let body = &html[tag_end + 1..close];
            let digest = Sha256::digest(body.as_bytes());
            out.push(base64::engine::general_purpose::STANDARD.encode(digest));
        }
        at = close;
    }
    out
}

/// The Content-Security-Policy header for the app in `dir`, recomputed
/// when its `index.html` changes (a new build deployed under a running
/// server), looked at most once a second.
pub struct Policy {
    index: Option<PathBuf>,
    cached: Mutex<(Instant, Option<SystemTime>, HeaderValue)>,
}

impl Policy {
    pub fn new(dir: Option<&Path>) -> Policy {
        let index = dir.map(|d| d.join("index.html"));
        let (mtime, value) = Self::compute(index.as_deref());
        Policy {
            index,
            cached: Mutex::new((Instant::now(), mtime, value)),
        }
    }

    fn compute(index: Option<&Path>) -> (Option<SystemTime>, HeaderValue) {
        let mtime = index
            .and_then(|p| std::fs::metadata(p).ok())
            .and_then(|m| m.modified().ok());
        let html = index
            .and_then(|p| std::fs::read_to_string(p).ok())
            .unwrap_or_default();
        let value = HeaderValue::from_str(&policy(&inline_script_hashes(&html)))
            .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"));
        (mtime, value)
    }

    pub fn header(&self) -> HeaderValue {
        let mut c = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        if c.0.elapsed() >= Duration::from_secs(1) {
            c.0 = Instant::now();
            let mtime = self
                .index
                .as_deref()
                .and_then(|p| std::fs::metadata(p).ok())
                .and_then(|m| m.modified().ok());
            if mtime != c.1 {
                let (m, v) = Self::compute(self.index.as_deref());
                c.1 = m;
                c.2 = v;
            }
        }
        c.2.clone()
    }
}

/// Adds the security headers to every response.
pub async fn secure(State(policy): State<Arc<Policy>>, mut res: Response) -> Response {
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, policy.header());
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    res
}

// ---------------------------------------------------------------- Files

/// `%xx` decoded; `None` if that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok()?;
            if let Ok(v) = u8::from_str_radix(hex, 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Whether Trunk put a content hash in this file name
/// (`name-<hex>.ext`, `name-<hex>_bg.wasm`, `name-<hex>_loader.js`).
pub fn is_hashed(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or("");
    let stem = stem
        .strip_suffix("_bg")
        .or_else(|| stem.strip_suffix("_loader"))
        .unwrap_or(stem);
    stem.rsplit_once('-').is_some_and(|(base, hash)| {
        !base.is_empty()
            && (8..=16).contains(&hash.len())
            && hash
                .bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    })
}

/// The built app's directory, served with the checks above.
pub struct Site {
    root: PathBuf,
    /// `root` with every symlink resolved: what a file must be inside.
    real_root: PathBuf,
    files: ServeDir,
}

impl Site {
    pub fn new(root: PathBuf) -> Site {
        let real_root = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
        let files = ServeDir::new(&root).precompressed_br().precompressed_gzip();
        Site {
            root,
            real_root,
            files,
        }
    }
}

fn refuse(status: StatusCode) -> Response {
    let text = match status {
        StatusCode::URI_TOO_LONG => "a name in the path is too long\n",
        _ => "not found\n",
    };
    (status, text).into_response()
}

/// Serves one request for a file of the app.
pub async fn file(State(site): State<Arc<Site>>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let mut inside = site.root.clone();
    let mut last = String::new();
    for raw in path.split('/').filter(|s| !s.is_empty()) {
        let Some(seg) = percent_decode(raw) else {
            return refuse(StatusCode::NOT_FOUND);
        };
        if seg.len() > MAX_SEGMENT {
            return refuse(StatusCode::URI_TOO_LONG);
        }
        // Dotfiles (.env, .git) and `..` are never served.
        if seg.starts_with('.') || seg.contains(['\\', '\0']) {
            return refuse(StatusCode::NOT_FOUND);
        }
        inside.push(&seg);
        last = seg;
    }
    // A symlink may point within the directory, never out of it.
    if let Ok(real) = tokio::fs::canonicalize(&inside).await {
        let real = if real.is_dir() {
            match tokio::fs::canonicalize(real.join("index.html")).await {
                Ok(index) => index,
                Err(_) => real,
            }
        } else {
            real
        };
        if !real.starts_with(&site.real_root) {
            return refuse(StatusCode::NOT_FOUND);
        }
    }
    let revalidate = last.is_empty() || !is_hashed(&last);
    let mut res = match site.files.clone().oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(e) => match e {},
    };
    if res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED {
        let cache = if revalidate {
            "no-cache"
        } else {
            "public, max-age=31536000, immutable"
        };
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn origins() {
        let none: Vec<String> = Vec::new();
        let own = headers(&[
            ("host", "play.example:8080"),
            ("origin", "http://play.example:8080"),
        ]);
        assert!(origin_allowed(&own, &none));
        let https = headers(&[("host", "play.example"), ("origin", "https://play.example")]);
        assert!(origin_allowed(&https, &none));
        let default_port = headers(&[
            ("host", "play.example:443"),
            ("origin", "https://play.example"),
        ]);
        assert!(origin_allowed(&default_port, &none));
        for bad in [
            "https://evil.example",
            "null",
            "file://",
            "http://play.example.evil:8080",
        ] {
            let h = headers(&[("host", "play.example:8080"), ("origin", bad)]);
            assert!(!origin_allowed(&h, &none), "{bad}");
        }
        assert!(
            origin_allowed(&headers(&[("host", "x")]), &none),
            "no Origin: not a browser"
        );
        let other = headers(&[
            ("host", "api.example"),
            ("origin", "https://static.example"),
        ]);
        assert!(origin_allowed(&other, &["https://static.example/".into()]));
        assert!(!origin_allowed(&other, &["https://static2.example".into()]));
        assert!(origin_allowed(&other, &["*".into()]));
        let proxied = headers(&[
            ("host", "127.0.0.1:8080"),
            ("x-forwarded-host", "play.example"),
            ("origin", "https://play.example"),
        ]);
        assert!(origin_allowed(&proxied, &none));
    }

    #[test]
    fn hashed_names() {
        assert!(is_hashed("stoneplay-1a2b3c4d5e6f7a8b_bg.wasm"));
        assert!(is_hashed("stoneplay-1a2b3c4d5e6f7a8b.js"));
        assert!(is_hashed("worker-1a2b3c4d5e6f7a8_loader.js"));
        assert!(is_hashed("main-00ff00ff00ff00ff.css"));
        for plain in [
            "index.html",
            "sw.js",
            "icon.svg",
            "manifest.webmanifest",
            "noto-sans.woff2",
            "a-b.css",
        ] {
            assert!(!is_hashed(plain), "{plain}");
        }
    }

    #[test]
    fn inline_scripts_are_hashed_and_files_are_not() {
        let html = "<script>a()</script><SCRIPT type=\"module\">b()</SCRIPT><script src=\"x.js\"></script>";
        let hashes = inline_script_hashes(html);
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(Sha256::digest(s));
        assert_eq!(hashes, vec![b64("a()"), b64("b()")]);
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("%2Eenv").as_deref(), Some(".env"));
        assert_eq!(percent_decode("a%20b").as_deref(), Some("a b"));
        assert_eq!(percent_decode("100%").as_deref(), Some("100%"));
        assert_eq!(percent_decode("%ff"), None);
    }
}
