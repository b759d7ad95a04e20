//! A small JSON reader and writer for the online messages ([`super::wire`]).
//!
//! The page used `serde_json` and the derived serde code of every message,
//! about 20 KB of its gzipped wasm for a dozen message types. This reader
//! builds a plain tree ([`Json`]) that the codec walks by hand; the writer
//! appends to a `String`. Both follow RFC 8259 and `serde_json`'s choices
//! where the standard leaves room: nesting deeper than 128 is refused, a
//! string's escapes are the short ones (`\n`, `\"`…) and `\u00XX` for other
//! control characters, and `\u` escapes must pair their surrogates.

use std::fmt::Write as _;

/// A parsed JSON value. Numbers keep only what the messages use: a whole
/// number in `u64`'s range (`None` for any other number).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(Option<u64>),
    Str(String),
    Arr(Vec<Json>),
    /// The members in their order, duplicates kept (a reader refuses them).
    Obj(Vec<(String, Json)>),
}

/// How deep arrays and objects may nest (as `serde_json`).
const MAX_DEPTH: usize = 128;

/// Parses a whole JSON text (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("trailing characters"));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        format!("not JSON: {what} at byte {}", self.i)
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, b: u8, what: &str) -> Result<(), String> {
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("expected a value"))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.peek() {
            Some(b'n') => self.word("null", Json::Null),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b'[') => {
                let mut items = Vec::new();
                self.list(b']', "expected `,` or `]`", |p| {
                    items.push(p.value()?);
                    Ok(())
                })?;
                Ok(Json::Arr(items))
            }
            Some(b'{') => {
                let mut members = Vec::new();
                self.list(b'}', "expected `,` or `}`", |p| {
                    p.ws();
                    if p.peek() != Some(b'"') {
                        return Err(p.err("expected a member name"));
                    }
                    let key = p.string()?;
                    p.ws();
                    p.eat(b':', "expected `:`")?;
                    members.push((key, p.value()?));
                    Ok(())
                })?;
                Ok(Json::Obj(members))
            }
            Some(_) => Err(self.err("expected a value")),
            None => Err(self.err("unexpected end")),
        }
    }

    /// The items of an array or an object, `self.i` at its opening
    /// bracket: `item` reads one, and they are separated by `,` up to
    /// `close`; `what` is the error when neither follows an item.
    fn list(
        &mut self,
        close: u8,
        what: &str,
        mut item: impl FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.depth == MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        self.depth += 1;
        self.i += 1;
        self.ws();
        if self.peek() == Some(close) {
            self.i += 1;
        } else {
            loop {
                item(self)?;
                self.ws();
                match self.peek() {
                    Some(b',') => self.i += 1,
                    Some(c) if c == close => {
                        self.i += 1;
                        break;
                    }
                    _ => return Err(self.err(what)),
                }
            }
        }
        self.depth -= 1;
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
        self.i - start
    }

    fn number(&mut self) -> Result<Json, String> {
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let start = self.i;
        match self.digits() {
            0 => return Err(self.err("expected a digit")),
            n if n > 1 && self.s[start] == b'0' => {
                return Err(self.err("a number may not start with 0"))
            }
            _ => {}
        }
        let int = &self.s[start..self.i];
        let mut whole = true;
        if self.peek() == Some(b'.') {
            self.i += 1;
            whole = false;
            if self.digits() == 0 {
                return Err(self.err("expected a digit"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            whole = false;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("expected a digit"));
            }
        }
        // serde_json reads -0 as a float too: no negative is in range.
        let value = if whole && !negative {
            std::str::from_utf8(int).ok().and_then(|t| t.parse().ok())
        } else {
            None
        };
        Ok(Json::Num(value))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .s
            .get(self.i..self.i + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or_else(|| self.err("bad \\u escape"))?;
        self.i += 4;
        Ok(h)
    }

    /// A string; `self.i` is at its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&b) = self.s.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            // The input is a &str and we stop only at ASCII bytes, so the
            // run is whole characters.
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).unwrap_or_default());
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let e = self.peek().ok_or_else(|| self.err("unexpected end"))?;
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !self.s[self.i..].starts_with(b"\\u") {
                                    return Err(self.err("lone surrogate in \\u escape"));
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("lone surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code)
                                .ok_or_else(|| self.err("lone surrogate in \\u escape"))?
                        }
                        _ => {
                            self.i -= 1;
                            return Err(self.err("bad escape"));
                        }
                    };
                    out.push(c);
                }
                Some(_) => return Err(self.err("control character in a string")),
                None => return Err(self.err("unexpected end")),
            }
        }
    }
}

/// Appends `s` as a JSON string.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A JSON object being written: `{"type":"move","ply":3,"mv":"b6"}`.
pub struct ObjWriter<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> ObjWriter<'a> {
    pub fn new(out: &'a mut String) -> Self {
        out.push('{');
        ObjWriter { out, first: true }
    }

    /// Starts a member; the caller writes its value into the returned text.
    pub fn key(&mut self, key: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        write_str(self.out, key);
        self.out.push(':');
        self.out
    }

    pub fn str(&mut self, key: &str, value: &str) -> &mut Self {
        let out = self.key(key);
        write_str(out, value);
        self
    }

    pub fn num(&mut self, key: &str, value: u64) -> &mut Self {
        let _ = write!(self.key(key), "{value}");
        self
    }

    pub fn bool(&mut self, key: &str, value: bool) -> &mut Self {
        self.key(key).push_str(if value { "true" } else { "false" });
        self
    }

    pub fn end(&mut self) {
        self.out.push('}');
    }
}

/// An object's members as a reader sees them: a missing member, a wrong
/// type or a repeated known member is an error naming the member.
pub struct Fields<'a>(&'a [(String, Json)]);

impl<'a> Fields<'a> {
    /// The members of `v`, which must be an object.
    pub fn of(v: &'a Json) -> Result<Self, String> {
        match v {
            Json::Obj(m) => Ok(Fields(m)),
            _ => Err(format!("expected an object, found {}", kind(v))),
        }
    }

    /// The member `key`, if present (an error if it appears twice).
    pub fn get(&self, key: &str) -> Result<Option<&'a Json>, String> {
        let mut found = self.0.iter().filter(|(k, _)| k == key).map(|(_, v)| v);
        let first = found.next();
        if found.next().is_some() {
            return Err(format!("duplicate field `{key}`"));
        }
        Ok(first)
    }

    /// The member `key`, read as `T`; it must be there.
    pub fn req<T: FromJson>(&self, key: &str) -> Result<T, String> {
        match self.get(key)? {
            Some(v) => read(key, v),
            None => T::missing().ok_or_else(|| format!("missing field `{key}`")),
        }
    }

    /// The member `key`, or `T`'s default when it is absent.
    pub fn or_default<T: FromJson + Default>(&self, key: &str) -> Result<T, String> {
        match self.get(key)? {
            Some(v) => read(key, v),
            None => Ok(T::default()),
        }
    }
}

/// The member `key`'s value `v` as `T`, an error naming the member.
fn read<T: FromJson>(key: &str, v: &Json) -> Result<T, String> {
    T::from_json(v).map_err(|e| format!("`{key}`: {e}"))
}

/// What a value is, for error messages.
pub fn kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Num(_) => "a number",
        Json::Str(_) => "a string",
        Json::Arr(_) => "an array",
        Json::Obj(_) => "an object",
    }
}

/// A type read from a JSON value.
pub trait FromJson: Sized {
    fn from_json(v: &Json) -> Result<Self, String>;
    /// The value of an absent member, if it may be absent (`None` for
    /// an `Option`, as serde reads a missing optional field).
    fn missing() -> Option<Self> {
        None
    }
}

fn whole(v: &Json) -> Result<u64, String> {
    match v {
        Json::Num(Some(n)) => Ok(*n),
        Json::Num(None) => Err("expected a whole number from 0".into()),
        _ => Err(format!("expected a number, found {}", kind(v))),
    }
}

macro_rules! from_json_uint {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Json) -> Result<Self, String> {
                let n = whole(v)?;
                <$t>::try_from(n).map_err(|_| format!("{n} is out of range"))
            }
        }
    )*};
}
from_json_uint!(u8, u32, u64);

impl FromJson for bool {
    fn from_json(v: &Json) -> Result<Self, String> {
        match v {
            Json::Bool(b) => Ok(*b),
            _ => Err(format!("expected a boolean, found {}", kind(v))),
        }
    }
}

impl FromJson for String {
    fn from_json(v: &Json) -> Result<Self, String> {
        match v {
            Json::Str(s) => Ok(s.clone()),
            _ => Err(format!("expected a string, found {}", kind(v))),
        }
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Json) -> Result<Self, String> {
        match v {
            Json::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }
    fn missing() -> Option<Self> {
        Some(None)
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Json) -> Result<Self, String> {
        match v {
            Json::Arr(items) => items.iter().map(T::from_json).collect(),
            _ => Err(format!("expected an array, found {}", kind(v))),
        }
    }
}

impl<T: FromJson> FromJson for [T; 2] {
    fn from_json(v: &Json) -> Result<Self, String> {
        match v {
            Json::Arr(items) if items.len() == 2 => {
                Ok([T::from_json(&items[0])?, T::from_json(&items[1])?])
            }
            _ => Err(format!("expected an array of 2, found {}", kind(v))),
        }
    }
}

/// The text form of a field-less enum: each variant's name, and the
/// variant that stands for any name this build does not know (`other`).
macro_rules! json_names {
    ($t:ty $(, other = $other:ident)? { $($v:ident = $name:literal),* $(,)? }) => {
        impl $crate::protocol::json::JsonName for $t {
            fn json_name(self) -> &'static str {
                match self { $(<$t>::$v => $name,)* $(<$t>::$other => "other",)? }
            }
            fn from_json_name(name: &str) -> Option<Self> {
                match name {
                    $($name => Some(<$t>::$v),)*
                    _ => json_names!(@other $($other)?),
                }
            }
        }
        impl $crate::protocol::json::FromJson for $t {
            fn from_json(v: &$crate::protocol::json::Json) -> Result<Self, String> {
                match v {
                    $crate::protocol::json::Json::Str(s) => <$t as $crate::protocol::json::JsonName>::from_json_name(s)
                        .ok_or_else(|| format!("unknown variant `{s}`")),
                    v => Err(format!("expected a string, found {}", $crate::protocol::json::kind(v))),
                }
            }
        }
    };
    (@other $other:ident) => { Some(Self::$other) };
    (@other) => { None };
}
pub(crate) use json_names;

/// A field-less enum written as a string (see [`json_names!`]).
pub trait JsonName: Sized {
    fn json_name(self) -> &'static str;
    fn from_json_name(name: &str) -> Option<Self>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        let cases = [
            r#"{"a":[1,2,{"b":null}],"c":"x\"y\\z\n\u00e9\ud83d\ude00","d":true,"e":false}"#,
            " [ ] ",
            "{}",
            "0",
            "-0",
            "18446744073709551615",
            "18446744073709551616",
            "1.5",
            "1e3",
            "-7",
            r#""\/\b\f\r\t""#,
        ];
        for text in cases {
            let ours = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let theirs: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, from_value(&theirs), "{text}");
        }
    }

    fn from_value(v: &serde_json::Value) -> Json {
        use serde_json::Value as V;
        match v {
            V::Null => Json::Null,
            V::Bool(b) => Json::Bool(*b),
            V::Number(n) => Json::Num(n.as_u64()),
            V::String(s) => Json::Str(s.clone()),
            V::Array(a) => Json::Arr(a.iter().map(from_value).collect()),
            V::Object(o) => Json::Obj(o.iter().map(|(k, v)| (k.clone(), from_value(v))).collect()),
        }
    }

    #[test]
    fn refuses_what_serde_json_refuses() {
        let deep = "[".repeat(200) + &"]".repeat(200);
        let cases = [
            "",
            " ",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{a:1}",
            "01",
            "1.",
            "1e",
            "-",
            ".5",
            "+1",
            "\"abc",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"a\u{1}b\"",
            "nul",
            "truex",
            "[1] 2",
            &deep,
            "\u{feff}{}",
        ];
        for text in cases {
            assert!(parse(text).is_err(), "{text:?} was read");
            assert!(
                serde_json::from_str::<serde_json::Value>(text).is_err(),
                "{text:?}"
            );
        }
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(parse(&ok).is_ok());
    }

    #[test]
    fn writes_strings_as_serde_json() {
        for s in [
            "",
            "plain",
            "q\"b\\s/",
            "\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}",
            "é😀",
        ] {
            let mut ours = String::new();
            write_str(&mut ours, s);
            assert_eq!(ours, serde_json::to_string(s).unwrap());
            assert_eq!(parse(&ours), Ok(Json::Str(s.into())));
        }
    }
}
