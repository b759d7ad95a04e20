//! Stones! notation: squares, moves and position text.
//!
//! - Squares: `a1`..`h8`, lower case only (files `a`-`h`, ranks `1`-`8`).
//! - Moves: `c3-e5` (slide), `c3xf6-g7` (slide then jump f6, land g7),
//!   `d4xe4-f4` (sideways jump). Reading a move checks its shape only (a
//!   slide is diagonal; a jumped square lies on the line directly before the
//!   landing square); whether it is legal is decided by `play`.
//! - Position: `W:a1,b2*,c3 B:e5,f6* w`, `*` marking a pinned stone, then
//!   the side to move `w` or `b`.
//!
//! Decisions for reading position text (the rules file is silent):
//! - Fields are separated by any whitespace; leading and trailing
//!   whitespace is ignored.
//! - The two stone lists may come in either order (`B:... W:...` is read
//!   too), each exactly once; the side to move comes last. Writing always
//!   gives White first, squares in index order a1, b1, .., h8, so text
//!   read and written back is canonical.
//! - An empty list (`W:`) is a side with no stones. Empty items (`W:a1,,b2`
//!   or a trailing comma) are errors.
//! - A square listed twice, in one list or in both, is an error; so no
//!   position can hold more than 64 stones.
//! - Any number of stones on any squares is accepted (the worked examples
//!   use such positions); a side with no legal move simply ends the game.

use std::fmt;
use std::str::FromStr;

use super::{Square, StonesMove};
use crate::games::bits::Bits;
use crate::games::{GameError, PositionError, PositionKind, Side};

/// The name of a square, `a1`..`h8`. Indices off the board (64 and up) are
/// written `??` rather than panicking.
pub fn square_name(sq: Square) -> String {
    if sq >= 64 {
        return "??".to_string();
    }
    let file = (b'a' + sq % 8) as char;
    let rank = (b'1' + sq / 8) as char;
    format!("{file}{rank}")
}

/// Reads a square name `a1`..`h8` (lower-case file letter, then rank digit).
/// Errors are `GameError::BadMove` (squares are typed as parts of moves);
/// position text reports its bad squares as `GameError::BadPosition`.
pub fn parse_square(s: &str) -> Result<Square, GameError> {
    let bad = || {
        GameError::BadMove(format!(
            "bad square name '{s}': expected a file a-h and a rank 1-8, like e4"
        ))
    };
    let mut chars = s.chars();
    let (Some(file), Some(rank), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(bad());
    };
    if !('a'..='h').contains(&file) || !('1'..='8').contains(&rank) {
        return Err(bad());
    }
    Ok((rank as u8 - b'1') * 8 + (file as u8 - b'a'))
}

/// A square name read inside a position text: same rules, position error.
fn parse_position_square(s: &str, list: &str) -> Result<Square, GameError> {
    parse_square(s).map_err(|_| {
        GameError::BadPosition(PositionError::new(
            PositionKind::Square {
                found: s.to_string(),
            },
            format!("bad square name '{s}' in {list}'s list: expected a file a-h and a rank 1-8, like e4"),
        ))
    })
}

impl fmt::Display for StonesMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.jumped {
            None => write!(f, "{}-{}", square_name(self.from), square_name(self.to)),
            Some(j) => write!(
                f,
                "{}x{}-{}",
                square_name(self.from),
                square_name(j),
                square_name(self.to)
            ),
        }
    }
}

impl FromStr for StonesMove {
    type Err = GameError;

    /// Reads `c3-e5`, `c3xf6-g7` or `d4xe4-f4` and checks the move's shape.
    fn from_str(text: &str) -> Result<Self, GameError> {
        let text = text.trim();
        let bad = |why: &str| GameError::BadMove(format!("'{text}': {why}"));
        if text.is_empty() {
            return Err(GameError::BadMove("empty move text".into()));
        }
        let Some((head, to)) = text.split_once('-') else {
            return Err(bad(
                "expected from-to (c3-e5) or from x jumped - to (c3xf6-g7)",
            ));
        };
        let (from, jumped) = match head.split_once('x') {
            None => (head, None),
            Some((from, jumped)) => (from, Some(jumped)),
        };
        let from = parse_square(from)?;
        let to = parse_square(to)?;
        let jumped = jumped.map(parse_square).transpose()?;
        if from == to {
            return Err(bad("the stone must end on another square"));
        }
        let (ff, fr) = ((from % 8) as i8, (from / 8) as i8);
        let (tf, tr) = ((to % 8) as i8, (to / 8) as i8);
        let (df, dr) = (tf - ff, tr - fr);
        match jumped {
            None => {
                if df.abs() != dr.abs() {
                    return Err(bad(
                        "a slide goes diagonally (a sideways move must name the jumped stone)",
                    ));
                }
            }
            Some(j) => {
                let sideways = dr == 0 && df.abs() == 2;
                let diagonal = df.abs() == dr.abs() && df.abs() >= 2;
                if !sideways && !diagonal {
                    return Err(bad(
                        "a jump goes diagonally, or sideways by two squares on one rank",
                    ));
                }
                // The jumped stone sits directly before the landing square.
                let before = (tr - dr.signum()) * 8 + (tf - df.signum());
                if i16::from(j) != i16::from(before) {
                    return Err(bad(
                        "the jumped square must be directly before the landing square on the line",
                    ));
                }
            }
        }
        Ok(StonesMove { from, to, jumped })
    }
}

/// Reads a position text into (white, black, pinned, side to move).
pub(crate) fn parse_position(text: &str) -> Result<(u64, u64, u64, Side), GameError> {
    let bad = |kind: PositionKind, m: String| GameError::BadPosition(PositionError::new(kind, m));
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(bad(PositionKind::Empty, "empty position text".into()));
    }
    let mut lists: [Option<u64>; 2] = [None, None];
    let mut pinned = 0u64;
    let mut side = None;
    for field in &fields {
        if side.is_some() {
            return Err(bad(
                PositionKind::Value {
                    found: field.to_string(),
                },
                format!("unexpected '{field}' after the side to move (it comes last)"),
            ));
        }
        if let Some((colour, squares)) = field.split_once(':') {
            let (index, name) = match colour {
                "W" => (0, "White"),
                "B" => (1, "Black"),
                _ => {
                    return Err(bad(
                        PositionKind::Value {
                            found: colour.to_string(),
                        },
                        format!("unknown colour '{colour}' (expected W or B)"),
                    ))
                }
            };
            if lists[index].is_some() {
                return Err(bad(
                    PositionKind::Twice {
                        at: colour.to_string(),
                    },
                    format!("{name}'s stones are listed twice"),
                ));
            }
            let mut stones = 0u64;
            if !squares.is_empty() {
                for item in squares.split(',') {
                    let (sq, is_pinned) = match item.strip_suffix('*') {
                        Some(sq) => (sq, true),
                        None => (item, false),
                    };
                    if sq.is_empty() {
                        return Err(bad(
                            PositionKind::Board,
                            format!("an empty square name in {name}'s list"),
                        ));
                    }
                    let sq = parse_position_square(sq, name)?;
                    let b = 1u64 << sq;
                    if stones & b != 0 {
                        return Err(bad(
                            PositionKind::Twice {
                                at: square_name(sq),
                            },
                            format!("{} is listed twice in {name}'s list", square_name(sq)),
                        ));
                    }
                    stones |= b;
                    if is_pinned {
                        pinned |= b;
                    }
                }
            }
            lists[index] = Some(stones);
        } else {
            side = Some(match *field {
                "w" => Side::First,
                "b" => Side::Second,
                other => {
                    return Err(bad(
                        PositionKind::Side {
                            found: other.to_string(),
                        },
                        format!("unknown side to move '{other}' (expected w or b)"),
                    ))
                }
            });
        }
    }
    let Some(white) = lists[0] else {
        return Err(bad(
            PositionKind::Missing,
            "missing White's stones (W:...)".into(),
        ));
    };
    let Some(black) = lists[1] else {
        return Err(bad(
            PositionKind::Missing,
            "missing Black's stones (B:...)".into(),
        ));
    };
    let Some(side) = side else {
        return Err(bad(
            PositionKind::Missing,
            "missing the side to move (w or b)".into(),
        ));
    };
    let both = white & black;
    if both != 0 {
        return Err(bad(
            PositionKind::Twice {
                at: square_name(both.trailing_zeros() as Square),
            },
            format!(
                "{} holds both a white and a black stone",
                square_name(both.trailing_zeros() as Square)
            ),
        ));
    }
    Ok((white, black, pinned, side))
}

/// Writes a stone list: squares in index order, `*` after pinned ones.
fn write_list(out: &mut String, stones: u64, pinned: u64) {
    let mut first = true;
    for sq in Bits(stones) {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(&square_name(sq));
        if pinned & (1u64 << sq) != 0 {
            out.push('*');
        }
    }
}

/// Writes the canonical position text (White's list, Black's list, side).
pub(crate) fn write_position(white: u64, black: u64, pinned: u64, side: Side) -> String {
    let mut out = String::from("W:");
    write_list(&mut out, white, pinned);
    out.push_str(" B:");
    write_list(&mut out, black, pinned);
    out.push_str(match side {
        Side::First => " w",
        Side::Second => " b",
    });
    out
}
