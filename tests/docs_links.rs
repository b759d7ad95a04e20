//! The documentation's links: every relative link in README.md and
//! docs/*.md names a file or folder of this repository that exists, and
//! every `#anchor` names a heading of its target file, with the slugs
//! GitHub gives headings (lower case; letters, digits, `-` and `_` kept,
//! spaces as `-`, everything else dropped; a repeated heading gets `-1`,
//! `-2`, …). Links with a scheme (`https://…`) are not followed; links
//! inside code (fenced blocks, `inline code`) are not links.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documentation files, relative to the root: README.md and docs/*.md.
fn doc_files() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a readable docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            p.strip_prefix(root())
                .expect("under the root")
                .to_path_buf()
        })
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The lines of `text` outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m => fence = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// `line` with its inline code spans (`…`, ``…``) blanked out.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        match after.find(&"`".repeat(ticks)) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                // An unmatched backtick is text.
                out.push_str(&rest[start..start + ticks]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The destinations of the inline links and images (`[text](dest)`,
/// `![alt](dest "title")`) and reference definitions (`[label]: dest`) in
/// `line`, code already removed.
fn destinations(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let dest = after[..end].split_whitespace().next().unwrap_or("");
        out.push(
            dest.trim_start_matches('<')
                .trim_end_matches('>')
                .to_string(),
        );
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') && !trimmed.starts_with("[^") {
        if let Some(i) = trimmed.find("]:") {
            if let Some(dest) = trimmed[i + 2..].split_whitespace().next() {
                out.push(dest.to_string());
            }
        }
    }
    out
}

/// A heading's anchor as GitHub makes it (before numbering repeats).
fn slug(heading: &str) -> String {
    // A link in a heading shows its text only.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(i) = rest.find("](") {
        text.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        rest = after.find(')').map_or("", |end| &after[end + 1..]);
    }
    text.push_str(rest);
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor the headings of `text` get, repeats numbered as GitHub does.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let title = line[hashes..].trim().trim_end_matches('#').trim_end();
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// `path` with `.` and `..` resolved without touching the disk; `None` if
/// it climbs above its start.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// The broken links of `text`, the contents of `file` (relative to the
/// repository root `root`), each as `file:line: dest: why`.
fn broken_links(root: &Path, file: &Path, text: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for (number, line) in prose_lines(text) {
        for dest in destinations(&without_code(line)) {
            let where_ = format!("{}:{number}: {dest}", file.display());
            if dest.is_empty() {
                broken.push(format!("{where_}: an empty link"));
                continue;
            }
            if dest.contains("://") || dest.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match dest.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (dest.as_str(), None),
            };
            if path.is_empty() {
                // An anchor in this same text.
                let anchor = anchor.unwrap_or("");
                if !anchors(text).contains(anchor) {
                    broken.push(format!("{where_}: no heading #{anchor} here"));
                }
                continue;
            }
            let Some(target) = normalise(&file.parent().unwrap_or(Path::new("")).join(path)) else {
                broken.push(format!("{where_}: leaves the repository"));
                continue;
            };
            let full = root.join(&target);
            if !full.exists() {
                broken.push(format!("{where_}: no file {}", target.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let Ok(target_text) = fs::read_to_string(&full) else {
                broken.push(format!(
                    "{where_}: #{anchor} in something that is not a text file"
                ));
                continue;
            };
            if !anchors(&target_text).contains(anchor) {
                broken.push(format!(
                    "{where_}: no heading #{anchor} in {}",
                    target.display()
                ));
            }
        }
    }
    broken
}

#[test]
fn every_link_in_the_readme_and_docs_resolves() {
    let root = root();
    let files = doc_files();
    assert!(files.len() > 1, "docs/*.md found: {files:?}");
    let mut broken = Vec::new();
    let mut links = 0;
    for file in &files {
        let text = fs::read_to_string(root.join(file)).expect("a readable doc");
        links += prose_lines(&text)
            .iter()
            .map(|(_, l)| destinations(&without_code(l)).len())
            .sum::<usize>();
        broken.extend(broken_links(&root, file, &text));
    }
    assert!(
        links > 10,
        "only {links} links found: the scanner is broken"
    );
    assert!(
        broken.is_empty(),
        "{} broken link(s):\n{}",
        broken.len(),
        broken.join("\n")
    );
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Stones!"), "stones");
    assert_eq!(slug("Online, on two devices"), "online-on-two-devices");
    assert_eq!(
        slug("The engine's development record"),
        "the-engines-development-record"
    );
    assert_eq!(
        slug("Browser tests with `wasm-pack`"),
        "browser-tests-with-wasm-pack"
    );
    assert_eq!(slug("See [the docs](docs/x.md) now"), "see-the-docs-now");
    assert_eq!(slug("Oʻzbekcha_1 × 2"), "oʻzbekcha_1--2");
    let text = "# Notes\n\n## Notes\n\n```\n# not a heading\n```\n## Notes #\n";
    let found: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(found, ["notes", "notes-1", "notes-2"]);
}

#[test]
fn a_broken_link_is_reported_and_code_is_not_a_link() {
    let text = "\
See [the docs](docs/no-such-file.md), [a heading](README.md#no-such-heading),\n\
[fine](README.md#testing), [also fine](#here), [not here](#testing) and\n\
[outside](../../etc/passwd).\n\
`[in code](nowhere.md)` is code.\n\
```\n[in a block](nowhere.md)\n```\n\
[ref]: nowhere-either.md\n\
## Here\n";
    let broken = broken_links(&root(), Path::new("README.md"), text);
    assert_eq!(
        broken,
        [
            "README.md:1: docs/no-such-file.md: no file docs/no-such-file.md",
            "README.md:1: README.md#no-such-heading: no heading #no-such-heading in README.md",
            "README.md:2: #testing: no heading #testing here",
            "README.md:3: ../../etc/passwd: leaves the repository",
            "README.md:8: nowhere-either.md: no file nowhere-either.md",
        ]
    );
}

/// The README opens with a picture of the app (issue 34 point 5: "what
/// it is, with a screenshot"): an image link among its first lines to a
/// PNG in docs/ that exists (the link check above follows it too) and
/// stays small, so the README loads fast.
#[test]
fn the_readme_shows_a_small_screenshot_at_the_top() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README.md");
    let top: Vec<(usize, &str)> = prose_lines(&readme).into_iter().take(12).collect();
    let images: Vec<String> = top
        .iter()
        .filter(|(_, l)| l.contains("!["))
        .flat_map(|(_, l)| destinations(&without_code(l)))
        .collect();
    let [shot] = images.as_slice() else {
        panic!("one image among the README's first lines, not {images:?}");
    };
    assert!(
        shot.starts_with("docs/") && shot.ends_with(".png"),
        "{shot}"
    );
    let bytes = fs::read(root().join(shot)).unwrap_or_else(|e| panic!("{shot}: {e}"));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{shot} is a PNG");
    assert!(
        bytes.len() < 100 * 1024,
        "{shot} is {} bytes: keep it under 100 KB",
        bytes.len()
    );
}
