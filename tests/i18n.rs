//! The language tables (src/i18n/*.txt) against each other and against the
//! code: every language has exactly the English keys, the same
//! placeholders and no empty text; every key the code asks for exists,
//! every English key is used; the rules pages' keys form a clean
//! structure; and the UI shows no English text written outside the tables.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use stoneplay::i18n::{placeholders, rules_sections, table, Lang};

const GAMES: [&str; 3] = ["ataxx", "stones", "mill"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` whose name ends with `ext`.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A Rust source without its comment lines (doc examples are not uses).
fn code_of(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The string literal starting at byte `i` of `s` (which must be `"`).
fn literal_at(s: &str, i: usize) -> Option<String> {
    let rest = s.get(i..)?.strip_prefix('"')?;
    rest.find('"').map(|end| rest[..end].to_string())
}

/// The keys used by `t!(LANG, "key" …)`, `tn!(LANG, "key" …)` (its `.one`
/// and `.other` forms) and `key!("key")` in a piece of Rust code, with
/// "file: what" for calls whose key is not a plain literal.
fn keys_used(code: &str, file: &str, used: &mut BTreeSet<String>, bad: &mut Vec<String>) {
    for mac in ["t!(", "tn!(", "key!("] {
        let mut from = 0;
        while let Some(pos) = code[from..].find(mac) {
            let at = from + pos;
            from = at + mac.len();
            if code[..at].chars().next_back().is_some_and(is_ident) {
                continue; // format!( and the like
            }
            let mut i = at + mac.len();
            if mac != "key!(" {
                // Skip the language argument, up to its comma.
                let mut depth = 0;
                for (j, c) in code[i..].char_indices() {
                    match c {
                        '(' | '[' | '{' => depth += 1,
                        ')' | ']' | '}' => depth -= 1,
                        ',' if depth == 0 => {
                            i += j + 1;
                            break;
                        }
                        _ => {}
                    }
                }
            }
            i += code[i..].len() - code[i..].trim_start().len();
            match literal_at(code, i) {
                Some(k) if mac == "tn!(" => {
                    used.insert(format!("{k}.one"));
                    used.insert(format!("{k}.other"));
                }
                Some(k) => {
                    used.insert(k);
                }
                None => bad.push(format!(
                    "{file}: {mac}…) without a literal key: {}",
                    &code[at..(at + 60).min(code.len())]
                )),
            }
        }
    }
}

/// Every key the code (src/**/*.rs) and the build scripts (.ci/*.mjs,
/// which name keys in quotes) use.
fn all_keys_used() -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut bad = Vec::new();
    for f in files(&root().join("src"), ".rs") {
        let name = f.strip_prefix(root()).unwrap().display().to_string();
        keys_used(&code_of(&f), &name, &mut used, &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The typed reasons' keys, reached through their enums (words.rs
    // builds `illegal.GAME.NAME` and asks for `position.*` by kind).
    used.extend(stoneplay::games::error::all_illegal_keys());
    used.extend(
        stoneplay::games::PositionKind::KEYS
            .iter()
            .map(|k| k.to_string()),
    );
    let en = table(Lang::En);
    for f in files(&root().join(".ci"), ".mjs") {
        let text = fs::read_to_string(&f).unwrap();
        for k in en.keys() {
            if text.contains(&format!("'{k}'")) {
                used.insert(k.to_string());
            }
        }
    }
    used
}

/// The rules-page keys the page reaches through the structure of the
/// English table.
fn rules_keys_reached() -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for game in GAMES {
        keys.insert(format!("rules.{game}.summary"));
        for s in rules_sections(game) {
            keys.insert(s.heading);
            keys.extend(s.paragraphs);
            keys.extend(s.bullets);
            keys.extend(s.diagrams);
        }
    }
    keys
}

fn is_rules_page_key(key: &str) -> bool {
    GAMES
        .iter()
        .any(|g| key.starts_with(&format!("rules.{g}.")))
}

#[test]
fn every_table_reads_without_errors() {
    let problems: Vec<String> = Lang::ALL
        .into_iter()
        .flat_map(|l| {
            table(l)
                .errors
                .iter()
                .map(move |e| format!("{}: {e}", l.file()))
        })
        .collect();
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_language_has_exactly_the_english_keys() {
    let en: BTreeSet<&str> = table(Lang::En).keys().iter().copied().collect();
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let keys: BTreeSet<&str> = table(lang).keys().iter().copied().collect();
        let missing: Vec<&&str> = en.difference(&keys).collect();
        let extra: Vec<&&str> = keys.difference(&en).collect();
        if !missing.is_empty() {
            problems.push(format!(
                "{} ({}) misses {} keys: {missing:?}",
                lang.name(),
                lang.file(),
                missing.len()
            ));
        }
        if !extra.is_empty() {
            problems.push(format!(
                "{} ({}) has {} keys that English lacks: {extra:?}",
                lang.name(),
                lang.file(),
                extra.len()
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_text_keeps_the_english_placeholders_and_is_not_empty() {
    let en = table(Lang::En);
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        for (key, text) in table(lang).entries() {
            if text.trim().is_empty() {
                problems.push(format!("{}: {key} is empty", lang.file()));
                continue;
            }
            let mine = match placeholders(text) {
                Ok(p) => p,
                Err(e) => {
                    problems.push(format!("{}: {key}: {e}", lang.file()));
                    continue;
                }
            };
            let Some(english) = en.get(key).and_then(|t| placeholders(t).ok()) else {
                continue; // an extra key: reported by the key-set test
            };
            // "one" forms may say the number in words ("bir", "een").
            let optional_n = key.ends_with(".one");
            let same = mine == english
                || (optional_n && {
                    let without: Vec<&String> = english.iter().filter(|p| *p != "n").collect();
                    mine.iter().collect::<Vec<_>>() == without
                });
            if !same {
                problems.push(format!(
                    "{}: {key} has placeholders {mine:?}, English has {english:?}",
                    lang.file()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_key_the_code_uses_exists_in_english() {
    let en = table(Lang::En);
    let missing: Vec<String> = all_keys_used()
        .into_iter()
        .filter(|k| en.get(k).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "keys used in the code but missing from src/i18n/en.txt: {missing:?}"
    );
}

#[test]
fn every_english_key_is_used() {
    let used = all_keys_used();
    let rules = rules_keys_reached();
    let unused: Vec<&str> = table(Lang::En)
        .keys()
        .iter()
        .copied()
        .filter(|k| !used.contains(*k) && !rules.contains(*k))
        .collect();
    assert!(
        unused.is_empty(),
        "keys in src/i18n/en.txt that nothing uses (remove them, or use them): {unused:?}"
    );
}

#[test]
fn rules_pages_are_built_from_well_numbered_keys() {
    let en = table(Lang::En);
    let mut problems = Vec::new();
    for game in GAMES {
        if en.get(&format!("rules.{game}.summary")).is_none() {
            problems.push(format!("rules.{game}.summary is missing"));
        }
        let sections = rules_sections(game);
        if sections.is_empty() {
            problems.push(format!("rules.{game}.s1.heading is missing"));
        }
        for s in &sections {
            if s.paragraphs.is_empty() && s.bullets.is_empty() {
                problems.push(format!("{} has neither paragraphs nor bullets", s.heading));
            }
        }
    }
    // Every key under rules.GAME. must be reached: a gap in the numbering
    // (s3 without s2, p3 without p2) or an unknown part would be lost.
    let reached = rules_keys_reached();
    for key in en.keys() {
        if is_rules_page_key(key) && !reached.contains(*key) {
            problems.push(format!(
                "{key} is not part of its rules page (numbering gap or unknown part?)"
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// Texts of the UI written straight into a view or an attribute instead of
/// coming from the tables: a literal with letters between tags
/// (`<p>"Paused"</p>`, `{x}" (first)"</option>`) or as the value of an
/// aria-label, title, alt or placeholder attribute.
#[test]
fn the_ui_shows_no_text_outside_the_tables() {
    let mut found = Vec::new();
    for f in files(&root().join("src/ui"), ".rs") {
        let code = code_of(&f);
        let name = f.strip_prefix(root()).unwrap().display().to_string();
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'\'' && bytes.get(i + 2) == Some(&b'\'') {
                i += 3; // a char literal such as '"'
                continue;
            }
            if bytes[i] != b'"' {
                i += 1;
                continue;
            }
            // A string literal from i to its closing quote.
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            let lit = &code[i + 1..j.min(code.len())];
            let before = code[..i].trim_end();
            let after = code[(j + 1).min(code.len())..].trim_start();
            let has_letters = lit.chars().any(char::is_alphabetic);
            let between_tags = (before.ends_with('>') && !before.ends_with("=>")
                || before.ends_with('}'))
                && (after.starts_with('<') || after.starts_with('{'));
            let attr = ["aria-label=", "title=", "alt=", "placeholder="]
                .iter()
                .any(|a| before.ends_with(a));
            if has_letters && (between_tags || attr) {
                let line = code[..i].lines().count();
                found.push(format!("{name}:{line}: \"{lit}\""));
            }
            i = j + 1;
        }
    }
    assert!(
        found.is_empty(),
        "text shown by the UI must come from src/i18n/en.txt (use t!):\n{}",
        found.join("\n")
    );
}

/// Translators are told which files to edit; the copies waiting for them
/// say so on their first line, and a finished table must not.
#[test]
fn untranslated_copies_are_marked_and_english_is_not() {
    let en = table(Lang::En);
    assert!(!Lang::En.source().starts_with("# TODO-TRANSLATE"));
    let mut problems = Vec::new();
    for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
        let t = table(lang);
        let same: BTreeMap<&str, &str> = t
            .entries()
            .filter(|(k, v)| en.get(k) == Some(*v) && v.chars().any(char::is_alphabetic))
            .collect();
        let marked = lang.source().starts_with("# TODO-TRANSLATE");
        // A translated table keeps some words (names, X and O, "Mill"), but
        // not most of the English ones.
        let mostly_english = same.len() * 2 > t.keys().len();
        if mostly_english && !marked {
            problems.push(format!(
                "{} is mostly English ({} of {} texts) but its first line is not # TODO-TRANSLATE",
                lang.file(),
                same.len(),
                t.keys().len()
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// The screens of the page, as groups of key prefixes (the first part of a
/// key, before its first dot) whose texts are on screen together: the game
/// screen with its New game dialog, settings panel and notices; the online
/// screens; the home screen. Two keys of one screen that English words
/// differently must not read the same in any language (issue 36: Uzbek
/// had "Bekor qilish" for both Undo and the New game dialog's Cancel).
/// Not counted as kept apart: the two plural forms of one text
/// (`.one`/`.other`), an `_aria` label (heard, not shown, and often the
/// visible label's words on purpose), and English texts that differ only in
/// capitals or a plural "s" (Marathi खेळ is "game" and "games").
const SCREENS: [(&str, &[&str]); 3] = [
    (
        "game",
        &[
            "game", "newgame", "notice", "settings", "movenav", "movelist", "review", "hint",
            "status", "chip", "clock", "common",
        ],
    ),
    ("online", &["online", "common"]),
    ("home", &["home", "nav", "mode", "common"]),
];

#[test]
fn no_two_keys_of_one_screen_share_a_text_where_english_keeps_them_apart() {
    let en = table(Lang::En);
    let mut problems = Vec::new();
    for (screen, prefixes) in SCREENS {
        let keys: Vec<&str> = en
            .keys()
            .iter()
            .copied()
            .filter(|k| prefixes.iter().any(|p| k.split('.').next() == Some(*p)))
            .filter(|k| !k.ends_with("_aria"))
            .collect();
        let base = |k: &str| {
            k.strip_suffix(".one")
                .or_else(|| k.strip_suffix(".other"))
                .map(str::to_string)
        };
        let same_english = |a: &str, b: &str| {
            let norm = |k: &str| {
                let t = en.get(k).unwrap_or_default().to_lowercase();
                t.trim_end_matches(['.', 's']).to_string()
            };
            norm(a) == norm(b)
        };
        for lang in Lang::ALL.into_iter().filter(|&l| l != Lang::En) {
            let t = table(lang);
            for (i, a) in keys.iter().enumerate() {
                for b in &keys[i + 1..] {
                    let (Some(ta), Some(tb)) = (t.get(a), t.get(b)) else {
                        continue;
                    };
                    let plural_pair = base(a).is_some() && base(a) == base(b);
                    if ta == tb && !plural_pair && !same_english(a, b) {
                        problems.push(format!(
                            "{}: the {screen} screen's {a} and {b} both read “{ta}” (English: “{}” / “{}”)",
                            lang.file(),
                            en.get(a).unwrap_or_default(),
                            en.get(b).unwrap_or_default()
                        ));
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

/// Every typed reason (an illegal move of each game, a position text's
/// kind of mistake), listed from the enums themselves, has a text in every
/// table, with the squares it names as its only placeholders.
#[test]
fn every_typed_reason_has_a_text_in_every_language() {
    use stoneplay::games::error::all_illegal_keys;
    use stoneplay::games::PositionKind;
    let mut keys = all_illegal_keys();
    keys.extend(PositionKind::KEYS.iter().map(|k| k.to_string()));
    assert!(keys.len() >= 40, "{keys:?}");
    let mut problems = Vec::new();
    for lang in Lang::ALL {
        let t = table(lang);
        for k in &keys {
            match t.get(k) {
                Some(text) if !text.trim().is_empty() => {}
                _ => problems.push(format!("{}: {k} has no text", lang.file())),
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
