//! Display names: what a player may be called, and when two names are
//! the same name.
//!
//! A name is checked after Unicode normalisation (NFKC, so a full-width
//! `Ａｌｉ` is `Ali` and a no-break space is a space), then:
//! - 2 to [`MAX_CHARS`] characters (code points, after normalisation;
//!   leading and trailing spaces are dropped and runs of spaces are one);
//! - letters of any script (General_Category L*), the marks that letters
//!   carry in many scripts (M*: Marathi's vowel signs and virama, at most
//!   [`MAX_MARKS`] on one letter), decimal digits of any script (Nd),
//!   space, `-` and `_`; nothing else: no control, format or invisible
//!   character (zero-width joiners, direction marks), no symbol, no
//!   emoji, no private-use or unassigned code point;
//! - it starts and ends with a letter, digit or mark, and never has two
//!   of space, `-`, `_` in a row;
//! - one script (UTS #39 "single script": `Аlice` with a Cyrillic А is
//!   refused; Japanese kana with kanji is one script, and digits and the
//!   separators go with any);
//! - not a reserved name ([`RESERVED`]: names of the site's roles, and
//!   words the page shows in a player's place, such as "You").
//!
//! Two names are the same name when either of their two folded forms
//! is equal (the server keeps each of both once: the second `Bob` — or
//! `B0B`, `bob`, a Cyrillic `ВОВ` — is refused as taken). Both fold with
//! lower case and the UTS #39 confusable skeleton (`0`/`O`, `1`/`l`/`I`,
//! Cyrillic `В`/Latin `B`, `m`/`rn`), repeated until nothing changes,
//! with space, `-` and `_` as one separator; they differ in which comes
//! first, because the two do not commute: a capital `I` looks like `l`
//! but a small `i` does not, so `ADMIN` skeletonised first is `adrnln`
//! while `admin` is `adrnin`; and a Cyrillic `В` looks like `B` while its
//! small `в` looks like nothing Latin. [`Name::key`] (lower case first)
//! makes every spelling in another case one name; [`Name::shape`]
//! (skeleton first) makes every capital look-alike one name.
//!
//! Unicode data: `unicode-normalization` (NFKC), `unicode-properties`
//! (General_Category) and `unicode-security` (the confusables skeleton
//! and script sets of UTS #39), all at Unicode 18.0. The first two are
//! already in the cluster build (through tokio-postgres); the third is
//! the Unicode Consortium's own confusables table, which no hand-made
//! list would match. The page does not carry them: it only shows the
//! server's answer.

use std::fmt;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_security::{skeleton, MixedScript};

/// The shortest name, in characters.
pub const MIN_CHARS: usize = 2;
/// The longest name, in characters (code points after normalisation).
pub const MAX_CHARS: usize = 20;
/// Marks on one letter at most (a Marathi syllable needs two or three).
pub const MAX_MARKS: usize = 4;
/// A name typed longer than this (in bytes) is refused before any work.
pub const MAX_INPUT_BYTES: usize = 256;

/// Names nobody may take (compared by key, so `ADMIN` and `Аdmin` too).
/// Besides the site's roles, the words the page shows on a chip instead
/// of a name.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "bot",
    "computer",
    "engine",
    "guest",
    "moderator",
    "mod",
    "nobody",
    "null",
    "official",
    "opponent",
    "player",
    "root",
    "server",
    "spectator",
    "staff",
    "stoneplay",
    "support",
    "system",
    "undefined",
    "you",
];

/// Words a name may not contain at all (by key): a name must not pass
/// for the site or its staff.
pub const RESERVED_PARTS: &[&str] = &["stoneplay", "admin", "moderator"];

/// A valid name: as shown, and the two folded forms it is unique under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name as it is shown (normalised, spaces tidied).
    pub shown: String,
    /// Equal for names that differ in case or look alike in lower case.
    pub key: String,
    /// Equal for names that look alike as written (capitals included).
    pub shape: String,
}

/// Why a name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    TooShort,
    TooLong,
    /// A character that is not a letter, digit, mark, space, `-` or `_`.
    Character(char),
    /// Starts or ends with a separator, or has two in a row.
    Separators,
    /// A mark with no letter under it, or too many on one.
    Marks,
    /// Letters of more than one script.
    MixedScripts,
    Reserved,
}

impl NameError {
    /// A stable code for the page (which words it in its language).
    pub fn code(&self) -> &'static str {
        match self {
            NameError::TooShort => "name_too_short",
            NameError::TooLong => "name_too_long",
            NameError::Character(_) => "name_character",
            NameError::Separators => "name_separators",
            NameError::Marks => "name_marks",
            NameError::MixedScripts => "name_mixed_scripts",
            NameError::Reserved => "name_reserved",
        }
    }
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::TooShort => write!(f, "a name has at least {MIN_CHARS} characters"),
            NameError::TooLong => write!(f, "a name has at most {MAX_CHARS} characters"),
            NameError::Character(c) => write!(
                f,
                "a name may hold letters, digits, spaces, - and _ only, not U+{:04X}",
                u32::from(*c)
            ),
            NameError::Separators => write!(
                f,
                "a name starts and ends with a letter or digit, with no two of space, - and _ in a row"
            ),
            NameError::Marks => write!(f, "a name's accents and vowel signs must sit on letters"),
            NameError::MixedScripts => write!(f, "a name is written in one script"),
            NameError::Reserved => write!(f, "this name is reserved"),
        }
    }
}

fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '_')
}

/// Checks a name as typed; the valid name comes back with its key.
pub fn check(typed: &str) -> Result<Name, NameError> {
    if typed.len() > MAX_INPUT_BYTES {
        return Err(NameError::TooLong);
    }
    let normal: String = typed.nfkc().collect();
    // Spaces tidied: none at the ends, runs of them as one.
    let mut shown = String::with_capacity(normal.len());
    for word in normal.split(' ').filter(|w| !w.is_empty()) {
        if !shown.is_empty() {
            shown.push(' ');
        }
        shown.push_str(word);
    }
    let chars = shown.chars().count();
    if chars < MIN_CHARS {
        return Err(NameError::TooShort);
    }
    if chars > MAX_CHARS {
        return Err(NameError::TooLong);
    }
    let mut marks = 0;
    let mut previous: Option<char> = None;
    for c in shown.chars() {
        let group = c.general_category_group();
        let allowed = match group {
            GeneralCategoryGroup::Letter => true,
            GeneralCategoryGroup::Mark => c.general_category() != GeneralCategory::EnclosingMark,
            GeneralCategoryGroup::Number => c.general_category() == GeneralCategory::DecimalNumber,
            _ => is_separator(c),
        };
        if !allowed {
            return Err(NameError::Character(c));
        }
        if group == GeneralCategoryGroup::Mark {
            marks += 1;
            if marks > MAX_MARKS || previous.is_none_or(is_separator) {
                return Err(NameError::Marks);
            }
        } else {
            marks = 0;
        }
        if is_separator(c) && previous.is_none_or(is_separator) {
            return Err(NameError::Separators);
        }
        previous = Some(c);
    }
    if previous.is_some_and(is_separator) {
        return Err(NameError::Separators);
    }
    if !shown.as_str().is_single_script() {
        return Err(NameError::MixedScripts);
    }
    let (key, shape) = (key(&shown), self::shape(&shown));
    let forms = |r: &str| {
        let mut title = r[..1].to_uppercase();
        title.push_str(&r[1..]);
        [
            self::key(r),
            self::shape(r),
            self::shape(&r.to_uppercase()),
            self::shape(&title),
        ]
    };
    let mine = [&key, &shape];
    let reserved = RESERVED
        .iter()
        .any(|r| forms(r).iter().any(|f| mine.contains(&f)))
        || RESERVED_PARTS.iter().any(|r| {
            forms(r)
                .iter()
                .any(|f| mine.iter().any(|m| m.contains(f.as_str())))
        });
    if reserved {
        return Err(NameError::Reserved);
    }
    Ok(Name { shown, key, shape })
}

/// Lower case, then the skeleton, until nothing changes (see the module
/// header). Also how a name typed to look a player up is folded.
pub fn key(name: &str) -> String {
    fold(name, true)
}

/// The skeleton, then lower case, until nothing changes.
pub fn shape(name: &str) -> String {
    fold(name, false)
}

fn fold(name: &str, lower_first: bool) -> String {
    let lower = |s: &str| s.chars().flat_map(char::to_lowercase).collect::<String>();
    let mut folded = if lower_first {
        lower(name)
    } else {
        name.to_string()
    };
    // A fixed point comes within three rounds for every name in the tests;
    // the bound keeps a strange one from costing more.
    for _ in 0..4 {
        let next = lower(&skeleton(&folded).collect::<String>());
        if next == folded {
            break;
        }
        folded = next;
    }
    folded
        .chars()
        .map(|c| if is_separator(c) { '_' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> String {
        match check(s) {
            Ok(n) => n.shown,
            Err(e) => panic!("{s:?} refused: {e}"),
        }
    }

    fn err(s: &str) -> NameError {
        match check(s) {
            Ok(n) => panic!("{s:?} accepted as {n:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn names_of_every_script_are_accepted() {
        for name in [
            "Ali",
            "Ayşe Yılmaz",
            "Jan-Pieter",
            "Dilnoza_88",
            "Zoë",
            "Ёжик",
            "अमोल पाटील",
            "श्रीकृष्ण",
            "さくら 桜",
            "김민준",
            "محمد",
            "42",
            "Ōtani",
        ] {
            ok(name);
        }
    }

    #[test]
    fn normalisation_and_spaces() {
        // Full-width letters and a no-break space become plain ones.
        assert_eq!(ok("Ａｌｉ\u{a0}Can"), "Ali Can");
        assert_eq!(ok("  Ali    Can "), "Ali Can");
        // A letter and its combining accent are one character, as typed
        // precomposed.
        assert_eq!(ok("Zoe\u{308}"), "Zoë");
    }

    #[test]
    fn lengths() {
        assert_eq!(err("A"), NameError::TooShort);
        assert_eq!(err("   "), NameError::TooShort);
        assert_eq!(err(""), NameError::TooShort);
        ok("Ab");
        ok("Abcdefghijklmnopqrst");
        assert_eq!(err("Abcdefghijklmnopqrstu"), NameError::TooLong);
        assert_eq!(err(&"a".repeat(10_000)), NameError::TooLong);
    }

    #[test]
    fn control_invisible_and_symbol_characters_are_refused() {
        for (name, c) in [
            ("Ali\u{200b}Can", '\u{200b}'), // zero-width space
            ("Ali\u{200d}Can", '\u{200d}'), // zero-width joiner
            ("Ali\u{202e}naC", '\u{202e}'), // right-to-left override
            ("Ali\u{7}", '\u{7}'),
            ("Ali\tCan", '\t'),
            ("Ali\nCan", '\n'),
            ("Ali!", '!'),
            ("Ali.Can", '.'),
            ("Ali😀", '😀'),
            ("Ali\u{e000}", '\u{e000}'),    // private use
            ("Ali\u{fffe}", '\u{fffe}'),    // a noncharacter
            ("Ali\u{20dd}", '\u{20dd}'),    // an enclosing mark
            ("Ali\u{ad}Can", '\u{ad}'),     // soft hyphen
            ("Ali\u{2028}Can", '\u{2028}'), // line separator
            ("A½", '⁄'),                    // ½ is 1⁄2 after NFKC
        ] {
            assert_eq!(err(name), NameError::Character(c), "{name:?}");
        }
    }

    #[test]
    fn separators_and_marks_sit_between_letters() {
        for name in ["-Ali", "Ali_", "Ali--Can", "Ali -Can", "_ab"] {
            assert_eq!(err(name), NameError::Separators, "{name:?}");
        }
        assert_eq!(err("\u{301}Ali"), NameError::Marks);
        assert_eq!(err("Ali \u{301}Can"), NameError::Marks);
        // Five marks on one letter (q has no precomposed forms).
        assert_eq!(
            err("Zq\u{301}\u{302}\u{303}\u{304}\u{305}"),
            NameError::Marks
        );
        ok("Zq\u{301}\u{302}\u{303}\u{304}");
        ok("Ali-Can_K");
    }

    #[test]
    fn one_script_per_name() {
        // Cyrillic А (U+0410) in a Latin name.
        assert_eq!(err("\u{410}lice"), NameError::MixedScripts);
        assert_eq!(err("Ali अमोल"), NameError::MixedScripts);
        // Digits and separators go with any script; Devanagari digits too.
        ok("अमोल ४२");
        ok("Ali 42");
    }

    #[test]
    fn reserved_names_in_any_form() {
        for name in [
            "admin",
            "ADMIN",
            "Admin",
            "adm1n",
            "ADMlN",
            "You",
            "Stoneplay",
            "The Stoneplay Team",
            "ST0NEPLAY",
        ] {
            assert_eq!(err(name), NameError::Reserved, "{name:?}");
        }
        // Greek capitals that look like "BOT".
        assert_eq!(err("\u{392}\u{39f}\u{3a4}"), NameError::Reserved);
        ok("Youssef");
    }

    /// Whether the server would take the two as one name.
    fn same(a: &str, b: &str) -> bool {
        let (a, b) = (check(a).unwrap(), check(b).unwrap());
        a.key == b.key || a.shape == b.shape
    }

    #[test]
    fn look_alike_names_are_one_name() {
        for (a, b) in [
            ("Bob", "bob"),
            ("Bob", "BOB"),
            ("Bob", "B0B"),
            ("bob", "b0b"),
            // Cyrillic capitals В, О.
            ("Bob", "\u{412}\u{41e}\u{412}"),
            ("BOB", "\u{412}\u{41e}\u{412}"),
            ("Ali Can", "Ali_Can"),
            ("Ali Can", "ali-can"),
            ("Ill", "lll"),
            ("MlLLER", "MILLER"),
            ("Ａｌｉ", "Ali"),
            ("Emma", "Ernrna"),
            ("Ayşe", "AYŞE"),
        ] {
            assert!(same(a, b), "{a:?} and {b:?}");
        }
        for (a, b) in [
            ("Bob", "Rob"),
            ("Ali", "Alim"),
            ("ill", "lll"),
            ("Ayşe", "Ayse"),
        ] {
            assert!(!same(a, b), "{a:?} and {b:?}");
        }
        // Both folds are stable: folding a folded name changes nothing.
        for name in ["Bob", "B0B", "MlLLER", "Ayşe Yılmaz", "अमोल", "さくら"] {
            let (k, s) = (key(name), shape(name));
            assert_eq!(key(&k), k, "{name:?}");
            assert_eq!(shape(&s), s, "{name:?}");
        }
    }

    #[test]
    fn every_error_has_a_code_and_a_reason() {
        for e in [
            NameError::TooShort,
            NameError::TooLong,
            NameError::Character('!'),
            NameError::Separators,
            NameError::Marks,
            NameError::MixedScripts,
            NameError::Reserved,
        ] {
            assert!(e.code().starts_with("name_"));
            assert!(!e.to_string().is_empty());
        }
    }
}
