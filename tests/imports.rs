//! The import check (issue 34): reads the library's sources (`src/`,
//! the binaries aside) and fails when
//!
//! 1. modules import each other, directly or in a circle, or
//! 2. an import runs up a layer: `games` at the bottom; `protocol` and
//!    `i18n` on it; `ai` on those; `client` and `server` on those; `ui`
//!    at the top (/work/shared/design.md, docs/architecture.md).
//!
//! An import is a `use` (every path of its tree) or a `crate::`/`super::`
//! path in the code; it is an edge from the file's module to the deepest
//! module the path names. A module and the modules inside it are one
//! unit: a child naming its parent's items (`use super::Side`) is how
//! Rust nests files, so edges between a module and its own ancestors or
//! descendants are not counted as circles. Every other pair counts, at
//! any depth (`server::hub` ↔ `server::placement` would fail). Comments,
//! strings and in-file `#[cfg(test)] mod tests` are left out.
//!
//! Cheap: it parses text, with no build of its own (about 200 files, a
//! few milliseconds).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first: an import may only point at the same or a
/// lower layer.
const LAYERS: &[&[&str]] = &[
    &["games"],
    &["protocol", "i18n"],
    &["ai"],
    &["client", "server"],
    &["ui"],
];

fn layer(module: &str) -> Option<usize> {
    let top = module.split("::").next().unwrap_or("");
    LAYERS.iter().position(|l| l.contains(&top))
}

/// Module path (`server::room::table`) → source text, for every file
/// under `src/` but `bin/` and `main.rs`.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path != src.join("bin") {
                    dirs.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path == src.join("main.rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).unwrap();
            out.insert(parts.join("::"), text);
        }
    }
    out
}

/// The text without comments, string or char literals, and without an
/// in-file test module.
fn code(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = text[i..].find("*/").map_or(b.len(), |e| i + e + 2);
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal ('x', '\n'); a lifetime has no closing quote.
            let end = text[i + 1..].find('\'').map_or(b.len(), |e| i + 1 + e + 1);
            i = end;
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    match out.find("#[cfg(test)]\nmod tests") {
        Some(k) => out[..k].to_string(),
        None => out,
    }
}

/// Every path a use tree names (`a::{b, c::{d, self}}` → a::b, a::c::d, a::c).
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        return vec![path.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut items, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for ch in inner.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            items.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    items.push(cur);
    let mut out = Vec::new();
    for item in items.iter().filter(|i| !i.trim().is_empty()) {
        for e in expand(item) {
            out.push(if e == "self" {
                prefix.trim_end_matches("::").to_string()
            } else {
                format!("{prefix}{e}")
            });
        }
    }
    out
}

/// Every path the code names: its use trees and its `crate::`/`super::`
/// paths elsewhere.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = String::with_capacity(code.len());
    let mut s = code;
    while let Some(k) = find_word(s, "use") {
        rest.push_str(&s[..k]);
        let end = s[k..].find(';').map_or(s.len(), |e| k + e);
        out.extend(expand(&s[k + 3..end]));
        s = &s[(end + 1).min(s.len())..];
    }
    rest.push_str(s);
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(k) = rest[from..].find(start) {
            let k = from + k;
            let before = rest[..k].chars().next_back();
            let end = rest[k..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(rest.len(), |e| k + e);
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                out.push(rest[k..end].to_string());
            }
            from = end.max(k + 1);
        }
    }
    out
}

/// Where `word` starts as a whole word (a `use` keyword), if anywhere.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(k) = s[from..].find(word) {
        let k = from + k;
        let before = s[..k].chars().next_back();
        let after = s[k + word.len()..].chars().next();
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        if !before.is_some_and(ident) && after.is_some_and(char::is_whitespace) {
            return Some(k);
        }
        from = k + word.len();
    }
    None
}

/// The deepest module `path`, named in module `from`, points into.
fn resolve(modules: &BTreeMap<String, String>, from: &str, path: &str) -> Option<String> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split("::").collect()
    };
    match segs.first() {
        Some(&"crate") => {
            base.clear();
            segs.remove(0);
        }
        Some(&"super" | &"self") => {
            while let Some(&s @ ("super" | "self")) = segs.first() {
                if s == "super" {
                    base.pop();
                }
                segs.remove(0);
            }
        }
        // A child module by its name, or a path outside the crate.
        Some(first) => {
            let child = [base.clone(), vec![*first]].concat().join("::");
            if !modules.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    for s in segs {
        let next = [base.clone(), vec![s]].concat().join("::");
        if !modules.contains_key(&next) {
            break;
        }
        base.push(s);
    }
    Some(base.join("::"))
}

/// Whether `inner` is `outer` or inside it.
fn within(inner: &str, outer: &str) -> bool {
    outer.is_empty() || inner == outer || inner.starts_with(&format!("{outer}::"))
}

/// The import graph between modules neither of which holds the other.
fn graph(modules: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, text) in modules {
        for path in paths(&code(text)) {
            let Some(to) = resolve(modules, name, &path) else {
                continue;
            };
            if !within(name, &to) && !within(&to, name) {
                edges.entry(name.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// The circles: strongly connected parts of more than one module.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Kosaraju: finish order on the graph, then parts on its reverse.
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for &n in &nodes {
        let mut stack = vec![(n, false)];
        while let Some((v, done)) = stack.pop() {
            if done {
                order.push(v);
                continue;
            }
            if !seen.insert(v) {
                continue;
            }
            stack.push((v, true));
            for w in edges.get(v).into_iter().flatten() {
                if !seen.contains(w) {
                    stack.push((w, false));
                }
            }
        }
    }
    let mut reverse: BTreeMap<&String, Vec<&String>> = BTreeMap::new();
    for (a, bs) in edges {
        for b in bs {
            reverse.entry(b).or_default().push(a);
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for &v in order.iter().rev() {
        if assigned.contains(v) {
            continue;
        }
        let mut part = Vec::new();
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            if !assigned.insert(x) {
                continue;
            }
            part.push(x.clone());
            stack.extend(reverse.get(x).into_iter().flatten().copied());
        }
        if part.len() > 1 {
            part.sort();
            out.push(part);
        }
    }
    out
}

fn source_graph() -> (BTreeMap<String, String>, BTreeMap<String, BTreeSet<String>>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = modules(&src);
    let edges = graph(&modules);
    (modules, edges)
}

#[test]
fn no_modules_import_each_other_directly_or_in_a_circle() {
    let (modules, edges) = source_graph();
    assert!(
        modules.len() > 100,
        "the sources were read: {}",
        modules.len()
    );
    let circles = circles(&edges);
    assert!(
        circles.is_empty(),
        "modules that import each other (directly or in a circle): {circles:?}"
    );
}

#[test]
fn no_import_runs_up_a_layer() {
    let (_, edges) = source_graph();
    let mut up = Vec::new();
    for (from, tos) in &edges {
        for to in tos {
            if let (Some(a), Some(b)) = (layer(from), layer(to)) {
                if b > a {
                    up.push(format!("{from} -> {to}"));
                }
            }
        }
    }
    assert!(up.is_empty(), "imports that run up a layer: {up:#?}");
    // Every module is in a layer but the crate root.
    let unlayered: Vec<&String> = edges.keys().filter(|m| layer(m).is_none()).collect();
    assert!(unlayered.is_empty(), "modules in no layer: {unlayered:?}");
}

/// The parser itself, on the shapes the check relies on.
#[test]
fn the_check_reads_use_trees_and_paths() {
    assert_eq!(
        expand("super::{host::{Attach, Host}, table::{self, Action}}"),
        [
            "super::host::Attach",
            "super::host::Host",
            "super::table",
            "super::table::Action"
        ]
    );
    let text = "use crate::games::Side; // use crate::ui::X;\nfn f() { let s = \"crate::ui\"; crate::ai::MATE; }\n";
    assert_eq!(
        paths(&code(text)),
        ["crate::games::Side", "crate::ai::MATE"]
    );
    let mut modules = BTreeMap::new();
    for m in ["games", "server", "server::hub", "server::placement"] {
        modules.insert(m.to_string(), String::new());
    }
    modules.insert("server::hub".into(), "use super::placement::Alone;".into());
    modules.insert("server::placement".into(), "use super::hub::Hub;".into());
    assert_eq!(
        circles(&graph(&modules)),
        [vec![
            "server::hub".to_string(),
            "server::placement".to_string()
        ]]
    );
    // A child naming its parent is one unit, not a circle.
    modules.insert("server::placement".into(), "use super::Config;".into());
    modules.insert("server".into(), "use placement::Alone;".into());
    assert!(circles(&graph(&modules)).is_empty());
    assert_eq!(
        resolve(&modules, "server::hub", "crate::games::Side"),
        Some("games".into())
    );
}
