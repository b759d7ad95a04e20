//! The page's languages: one text table per language, looked up by key.
//!
//! Each language is a plain text file next to this module (`en.txt`,
//! `tr.txt`, …), parsed once on first use. Natively (tests, tools) every
//! table is embedded with `include_str!`. The page embeds only English, the
//! reference and the fallback: the other four are copied to `lang/CODE.txt`
//! by the build (`.ci/stamp-sw.mjs`), fetched when the player's language
//! needs one and handed over with [`install`] (the service worker caches
//! them with the rest of the build). That keeps ~48 KB gzip of text the
//! player does not read out of the page's wasm.
//! The format (see `en.txt`'s header and docs/languages.md):
//!
//! ```text
//! # a comment (only at the start of a line)
//! home.recent = Recent games
//! move.flips.one = {side} clones to {to}, flips {n} piece
//! rules.ataxx.s1.p2 = A long paragraph can go on
//!     on indented lines; they are joined with single spaces.
//! ```
//!
//! English is the reference: every language has exactly its keys, and a
//! key missing at run time falls back to English, then to the key itself,
//! never to a panic. Code asks for text with the macros [`t!`](crate::t),
//! [`tn!`](crate::tn) (plural) and [`key!`](crate::key) (a key chosen by a
//! `match`), always with a literal key, so `tests/i18n.rs` can find every key
//! the code uses. The games layer knows nothing of this: the page maps its
//! enums and errors to keys.

mod parse;

use std::fmt::Display;
use std::sync::OnceLock;

pub use parse::{parse, placeholders, Table};

/// A language of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Lang {
    #[serde(rename = "en")]
    En,
    #[serde(rename = "tr")]
    Tr,
    #[serde(rename = "af")]
    Af,
    #[serde(rename = "mr")]
    Mr,
    #[serde(rename = "uz")]
    Uz,
}

impl Lang {
    /// Every language, in the order the settings list them.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::Tr, Lang::Af, Lang::Mr, Lang::Uz];

    /// The BCP 47 code, for `<html lang>` and the settings.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Tr => "tr",
            Lang::Af => "af",
            Lang::Mr => "mr",
            Lang::Uz => "uz",
        }
    }

    /// The language's name in itself, as the language picker shows it
    /// (Uzbek in Latin script, like its table).
    pub const fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Tr => "Türkçe",
            Lang::Af => "Afrikaans",
            Lang::Mr => "मराठी",
            Lang::Uz => "Oʻzbekcha",
        }
    }

    /// Writing direction for `<html dir>`: all five are left to right.
    pub const fn dir(self) -> &'static str {
        "ltr"
    }

    /// The language with this code (`"tr"`), if the page has it.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language for a browser's preference list (`navigator.languages`,
    /// most wanted first): the first tag whose primary subtag the page
    /// speaks (`tr-TR` → Turkish, `uz-Cyrl` → Uzbek), otherwise English.
    pub fn from_browser<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter()
            .find_map(|tag| {
                let primary = tag.split(['-', '_']).next()?.trim().to_ascii_lowercase();
                Lang::from_code(&primary)
            })
            .unwrap_or(Lang::En)
    }

    /// The raw table file of this language, for tests and tools. The page
    /// never calls it (see `built_in`), so its wasm links only English.
    pub fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("en.txt"),
            Lang::Tr => include_str!("tr.txt"),
            Lang::Af => include_str!("af.txt"),
            Lang::Mr => include_str!("mr.txt"),
            Lang::Uz => include_str!("uz.txt"),
        }
    }

    /// The table built into this binary, if any: every language natively,
    /// only English in the browser (the others come through [`install`]).
    fn built_in(self) -> Option<&'static str> {
        #[cfg(not(target_arch = "wasm32"))]
        return Some(self.source());
        #[cfg(target_arch = "wasm32")]
        return (self == Lang::En).then_some(include_str!("en.txt"));
    }

    /// Where the page fetches this language's table, relative to the page
    /// (`None` for English, which is built in).
    pub fn url(self) -> Option<String> {
        (self != Lang::En).then(|| format!("lang/{}.txt", self.code()))
    }

    /// The table's file name, for messages.
    pub fn file(self) -> String {
        format!("src/i18n/{}.txt", self.code())
    }

    fn index(self) -> usize {
        self as usize
    }
}

static TABLES: [OnceLock<Table>; 5] = [const { OnceLock::new() }; 5];

/// The parsed table of a language (parsed on first use, then kept). A
/// language whose table is neither built in nor installed yet reads as
/// English.
pub fn table(lang: Lang) -> &'static Table {
    let slot = &TABLES[lang.index()];
    if let Some(t) = slot.get() {
        return t;
    }
    match lang.built_in() {
        Some(source) => slot.get_or_init(|| parse(source)),
        None => table(Lang::En),
    }
}

/// Whether `lang`'s own words are at hand (built in or installed), so the
/// page can switch to it without showing English in between.
pub fn has_table(lang: Lang) -> bool {
    lang.built_in().is_some() || TABLES[lang.index()].get().is_some()
}

/// Why a fetched table was not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstallError {
    /// The text is not a table of the page's keys (an error page, a file
    /// cut short, another app's file): fewer than half of English's keys.
    NotATable {
        lang: Lang,
        keys: usize,
        expected: usize,
    },
}

impl Display for InstallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InstallError::NotATable {
                lang,
                keys,
                expected,
            } => write!(
                f,
                "lang/{}.txt is not a language table: {keys} of the {expected} keys",
                lang.code()
            ),
        }
    }
}

impl std::error::Error for InstallError {}

/// Takes a fetched table for `lang`. A text with fewer than half of
/// English's keys is refused and changes nothing (checked before anything
/// else, so native tests see it too); a table already there
/// (built in or installed) stays as it is. Keys the table lacks fall back
/// to English as always. The text lives as long as the page, like a
/// built-in table's (at most one per language once taken; a refused text,
/// which only a broken deployment serves, is dropped).
pub fn install(lang: Lang, source: String) -> Result<(), InstallError> {
    let keys_in_source: std::collections::HashSet<&str> = source
        .lines()
        .filter(|l| !l.starts_with([' ', '\t', '#']))
        .filter_map(|l| l.split_once('='))
        .map(|(k, _)| k.trim())
        .collect();
    let english = table(Lang::En).keys();
    let keys = english
        .iter()
        .filter(|k| keys_in_source.contains(*k))
        .count();
    if keys * 2 < english.len() {
        return Err(InstallError::NotATable {
            lang,
            keys,
            expected: english.len(),
        });
    }
    if !has_table(lang) {
        let parsed = parse(Box::leak(source.into_boxed_str()));
        let _ = TABLES[lang.index()].set(parsed);
    }
    Ok(())
}

/// The text of `key` in `lang`, or `None` when neither `lang` nor English
/// has it. For keys built at run time (the rules pages).
pub fn lookup(lang: Lang, key: &str) -> Option<&'static str> {
    table(lang).get(key).or_else(|| table(Lang::En).get(key))
}

/// The text of `key` in `lang`, falling back to English, then to the key
/// itself (marked in debug builds) so a missing key shows, never panics.
pub fn text(lang: Lang, key: &'static str) -> &'static str {
    match lookup(lang, key) {
        Some(t) => t,
        None if cfg!(debug_assertions) => missing(key),
        None => key,
    }
}

/// "⟦key⟧", leaked once per missing key (debug builds only).
fn missing(key: &'static str) -> &'static str {
    use std::sync::Mutex;
    static SEEN: Mutex<Vec<(&'static str, &'static str)>> = Mutex::new(Vec::new());
    let Ok(mut seen) = SEEN.lock() else {
        return key;
    };
    if let Some((_, shown)) = seen.iter().find(|(k, _)| *k == key) {
        return shown;
    }
    let shown: &'static str = Box::leak(format!("⟦{key}⟧").into_boxed_str());
    seen.push((key, shown));
    shown
}

/// The plural form of a counted text: the `.one` key for 1, `.other`
/// otherwise (the rule of all five languages for whole numbers).
pub fn plural(lang: Lang, one: &'static str, other: &'static str, n: u64) -> &'static str {
    text(lang, if n == 1 { one } else { other })
}

/// `template` with each `{name}` replaced by its value; unknown or
/// unmatched braces are left as they are.
pub fn fill(template: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, value)) => out.push_str(&value.to_string()),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text of a key in a language: `t!(lang, "home.play")` gives a
/// `&'static str`; with values, `t!(lang, "status.to_move", side = name)`
/// fills the `{side}` placeholder and gives a `String`. The key must be a
/// literal (tests/i18n.rs finds the keys in the source).
#[macro_export]
macro_rules! t {
    ($lang:expr, $key:literal) => {
        $crate::i18n::text($lang, $key)
    };
    ($lang:expr, $key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::fill(
            $crate::i18n::text($lang, $key),
            &[$((stringify!($name), &$value as &dyn ::std::fmt::Display)),+],
        )
    };
}

/// A counted text: `tn!(lang, "import.ok", n)` uses `import.ok.one` when
/// `n` is 1 and `import.ok.other` otherwise, filling `{n}` and any other
/// named values. Gives a `String`.
#[macro_export]
macro_rules! tn {
    ($lang:expr, $key:literal, $n:expr $(, $name:ident = $value:expr)* $(,)?) => {{
        let n = $n;
        $crate::i18n::fill(
            $crate::i18n::plural($lang, concat!($key, ".one"), concat!($key, ".other"), n as u64),
            &[("n", &n as &dyn ::std::fmt::Display) $(, (stringify!($name), &$value as &dyn ::std::fmt::Display))*],
        )
    }};
}

/// A key chosen in code, e.g. by a `match`, and looked up later with
/// [`text`]: `key!("level.master")` is just the literal, marked so that
/// tests/i18n.rs counts it as used.
#[macro_export]
macro_rules! key {
    ($key:literal) => {
        $key
    };
}

/// One section of a rules page: the keys of its heading, paragraphs and
/// bullet points, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesSection {
    pub heading: String,
    pub paragraphs: Vec<String>,
    pub bullets: Vec<String>,
    /// Captions of the section's board diagrams (`.d1`, `.d2`, …), drawn
    /// after its text; each names a [`crate::client::diagram::Diagram`].
    pub diagrams: Vec<String>,
}

/// The keys of a game's rules page, derived from the English table so a
/// translator only edits text: `rules.GAME.summary`, then sections
/// `rules.GAME.s1.heading`, `.s1.p1`, `.s1.p2`, … (paragraphs, shown first)
/// and `.s1.b1`, … (bullet points), then `.s1.d1`, … (captions of board
/// diagrams), numbered from 1 without gaps.
pub fn rules_sections(game: &str) -> Vec<RulesSection> {
    let en = table(Lang::En);
    let numbered = |prefix: &str| -> Vec<String> {
        (1..)
            .map(|i| format!("{prefix}{i}"))
            .take_while(|k| en.get(k).is_some())
            .collect()
    };
    (1..)
        .map(|s| format!("rules.{game}.s{s}."))
        .take_while(|p| en.get(&format!("{p}heading")).is_some())
        .map(|p| RulesSection {
            heading: format!("{p}heading"),
            paragraphs: numbered(&format!("{p}p")),
            bullets: numbered(&format!("{p}b")),
            diagrams: numbered(&format!("{p}d")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_named_placeholders_and_leaves_the_rest() {
        let s = fill("{side} to {to}, {x} {", &[("side", &"X"), ("to", &5)]);
        assert_eq!(s, "X to 5, {x} {");
    }

    #[test]
    fn browser_languages_pick_by_primary_subtag() {
        assert_eq!(Lang::from_browser(["tr-TR", "en"]), Lang::Tr);
        assert_eq!(Lang::from_browser(["de-DE", "mr-IN"]), Lang::Mr);
        assert_eq!(Lang::from_browser(["de-DE", "en-GB", "af"]), Lang::En);
        assert_eq!(Lang::from_browser(["uz-Cyrl-UZ"]), Lang::Uz);
        assert_eq!(Lang::from_browser(["AF"]), Lang::Af);
        assert_eq!(Lang::from_browser(["fr"]), Lang::En);
        assert_eq!(Lang::from_browser([]), Lang::En);
    }

    #[test]
    fn a_fetched_table_must_be_a_table() {
        let page = "<!DOCTYPE html><html><body>Not found</body></html>".to_string();
        let err = install(Lang::Tr, page).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("lang/tr.txt is not a language table: 0 of the "),
            "{err}"
        );
        // A table cut to its first tenth is refused too.
        let cut: String = Lang::Tr
            .source()
            .lines()
            .take(Lang::Tr.source().lines().count() / 10)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(install(Lang::Tr, cut).is_err());
        // The real one is taken, and the words stay Turkish.
        assert_eq!(install(Lang::Tr, Lang::Tr.source().to_string()), Ok(()));
        assert!(has_table(Lang::Tr));
        assert_eq!(
            text(Lang::Tr, "home.recent"),
            table(Lang::Tr).get("home.recent").unwrap()
        );
        assert_eq!(Lang::Tr.url().as_deref(), Some("lang/tr.txt"));
        assert_eq!(Lang::En.url(), None);
    }

    #[test]
    fn a_missing_key_falls_back_and_never_panics() {
        assert_eq!(text(Lang::Tr, "app.name"), "Stoneplay");
        let shown = text(Lang::Mr, "no.such.key");
        assert!(shown.contains("no.such.key"), "{shown}");
        assert_eq!(lookup(Lang::Uz, "no.such.key"), None);
    }
}
