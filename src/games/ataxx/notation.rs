//! Square and move notation: `a1`–`g7`, clones as their target (`b6`),
//! jumps as origin+target (`a7c5`), a pass as `0000` (UAI style, as used
//! by libataxx and other Ataxx engines).

use std::fmt;
use std::str::FromStr;

use super::board::{distance, SQUARES};
use super::{AtaxxMove, Square};
use crate::games::GameError;

/// The name of a square, e.g. `a1` for 0 and `g7` for 48 (`??` if off the board).
pub fn square_name(sq: Square) -> String {
    if (sq as usize) < SQUARES {
        let file = (b'a' + sq % 7) as char;
        let rank = (b'1' + sq / 7) as char;
        format!("{file}{rank}")
    } else {
        "??".to_string()
    }
}

/// Reads a square name (`a1`–`g7`, lower case).
pub fn parse_square(s: &str) -> Result<Square, GameError> {
    let bytes = s.as_bytes();
    if bytes.len() != 2 {
        return Err(GameError::BadMove(format!(
            "'{s}' is not a square: expected a file a-g and a rank 1-7, like 'd4'"
        )));
    }
    let (file, rank) = (bytes[0], bytes[1]);
    if !(b'a'..=b'g').contains(&file) {
        return Err(GameError::BadMove(format!(
            "'{s}' is not a square: the file must be a letter a-g"
        )));
    }
    if !(b'1'..=b'7').contains(&rank) {
        return Err(GameError::BadMove(format!(
            "'{s}' is not a square: the rank must be a digit 1-7"
        )));
    }
    Ok((rank - b'1') * 7 + (file - b'a'))
}

impl fmt::Display for AtaxxMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AtaxxMove::Pass => f.write_str("0000"),
            AtaxxMove::Clone { to } => f.write_str(&square_name(to)),
            AtaxxMove::Jump { from, to } => {
                write!(f, "{}{}", square_name(from), square_name(to))
            }
        }
    }
}

impl FromStr for AtaxxMove {
    type Err = GameError;

    /// Reads a move without a position: checks the form and the geometry
    /// (a jump spans distance exactly 2), not whether it is legal.
    fn from_str(text: &str) -> Result<Self, GameError> {
        let s = text.trim();
        if s == "0000" {
            return Ok(AtaxxMove::Pass);
        }
        if !s.is_ascii() {
            return Err(GameError::BadMove(format!(
                "'{text}' is not a move: use a target square like 'b6', origin+target like 'a7c5', or '0000' to pass"
            )));
        }
        let square = |part: &str| {
            parse_square(part).map_err(|e| match e {
                GameError::BadMove(why) => {
                    GameError::BadMove(format!("'{s}' is not a move: {why}"))
                }
                other => other,
            })
        };
        match s.len() {
            2 => Ok(AtaxxMove::Clone { to: square(s)? }),
            4 => {
                let from = square(&s[..2])?;
                let to = square(&s[2..])?;
                match distance(from, to) {
                    0 => Err(GameError::BadMove(format!(
                        "'{s}' starts and ends on the same square"
                    ))),
                    1 => Err(GameError::BadMove(format!(
                        "'{s}' is a clone: write a clone as its target square alone ('{}')",
                        &s[2..]
                    ))),
                    2 => Ok(AtaxxMove::Jump { from, to }),
                    d => Err(GameError::BadMove(format!(
                        "'{s}' spans {d} squares: a jump goes exactly 2 squares"
                    ))),
                }
            }
            0 => Err(GameError::BadMove("the move text is empty".to_string())),
            _ => Err(GameError::BadMove(format!(
                "'{s}' is not a move: use a target square like 'b6', origin+target like 'a7c5', or '0000' to pass"
            ))),
        }
    }
}
