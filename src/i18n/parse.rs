//! Reads a language table. The format, line by line:
//!
//! - `key = value`: a key (lowercase letters, digits, `_` and `.`), an `=`,
//!   the text. Spaces around both are dropped.
//! - A line that starts with a space or tab continues the value above it,
//!   joined with a single space (for long paragraphs).
//! - A line that starts with `#` is a comment; empty lines end a value.
//! - In a value, `{name}` is a placeholder the page fills in; there are no
//!   other special characters and no escapes.
//!
//! A malformed line is skipped and noted in [`Table::errors`] (the tests
//! report them); reading never fails or panics.

/// A parsed table: text by key, in file order, and the problems found.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// (key, text), sorted by key for lookup.
    sorted: Vec<(&'static str, String)>,
    /// Keys in file order.
    order: Vec<&'static str>,
    /// "line 12: …" for every line that could not be read.
    pub errors: Vec<String>,
}

impl Table {
    /// The text of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.sorted
            .binary_search_by(|(k, _)| (*k).cmp(key))
            .ok()
            .map(|i| self.sorted[i].1.as_str())
    }

    /// Every key, in file order.
    pub fn keys(&self) -> &[&'static str] {
        &self.order
    }

    /// (key, text) pairs in file order.
    pub fn entries(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.order.iter().map(|k| (*k, self.get(k).unwrap_or("")))
    }
}

fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('.')
        && !key.ends_with('.')
        && !key.contains("..")
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'.')
}

/// Reads a table from its text (see the module docs for the format).
pub fn parse(source: &'static str) -> Table {
    let mut entries: Vec<(&'static str, String)> = Vec::new();
    let mut errors = Vec::new();
    // Whether the previous line belongs to a value that may continue.
    let mut open = false;
    for (i, raw) in source.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            open = false;
            continue;
        }
        if line.starts_with('#') {
            open = false;
            continue;
        }
        if line.starts_with([' ', '\t']) {
            match entries.last_mut() {
                Some((_, value)) if open => {
                    if !value.is_empty() {
                        value.push(' ');
                    }
                    value.push_str(line.trim());
                }
                _ => errors.push(format!(
                    "line {n}: an indented line continues a value, but there is none above it"
                )),
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            errors.push(format!("line {n}: expected `key = text`"));
            open = false;
            continue;
        };
        let key = key.trim();
        if !valid_key(key) {
            errors.push(format!(
                "line {n}: '{key}' is not a key (lowercase letters, digits, _ and .)"
            ));
            open = false;
            continue;
        }
        if entries.iter().any(|(k, _)| *k == key) {
            errors.push(format!("line {n}: the key {key} appears twice"));
            open = false;
            continue;
        }
        entries.push((key, value.trim().to_string()));
        open = true;
    }
    let order = entries.iter().map(|(k, _)| *k).collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    Table {
        sorted: entries,
        order,
        errors,
    }
}

/// The placeholders of a text, sorted and without repeats, or an error
/// naming a brace that is not part of a `{name}` placeholder.
pub fn placeholders(text: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        if rest[i..].starts_with('}') {
            return Err(format!("a '}}' without its '{{' in “{text}”"));
        }
        let after = &rest[i + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| format!("a '{{' without its '}}' in “{text}”"))?;
        let name = &after[..close];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
            return Err(format!(
                "'{{{name}}}' is not a placeholder (lowercase letters and _) in “{text}”"
            ));
        }
        names.push(name.to_string());
        rest = &after[close + 1..];
    }
    names.sort();
    names.dedup();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_values_comments_and_continuations() {
        let t = parse(
            "# comment\n\
             a.b = one\n\
             c = two\n    \
             lines\n\
             \n\
             d=x = y\n",
        );
        assert!(t.errors.is_empty(), "{:?}", t.errors);
        assert_eq!(t.get("a.b"), Some("one"));
        assert_eq!(t.get("c"), Some("two lines"));
        assert_eq!(t.get("d"), Some("x = y"));
        assert_eq!(t.keys(), ["a.b", "c", "d"]);
    }

    #[test]
    fn names_bad_lines_and_keeps_the_rest() {
        let t = parse("Bad Key = x\nok = 1\nok = 2\nno equals sign\n\n  stray\n");
        assert_eq!(t.errors.len(), 4, "{:?}", t.errors);
        assert!(t.errors[0].starts_with("line 1:"));
        assert!(t.errors[1].contains("appears twice"));
        assert_eq!(t.get("ok"), Some("1"));
    }

    #[test]
    fn finds_placeholders_and_stray_braces() {
        assert_eq!(
            placeholders("{side} to {to}, {side}").unwrap(),
            ["side", "to"]
        );
        assert!(placeholders("a } b").is_err());
        assert!(placeholders("a { b").is_err());
        assert!(placeholders("{Side}").is_err());
    }
}
