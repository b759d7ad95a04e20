//! Ataxx FEN: `x5o/7/7/7/7/7/o5x x 0 1` — ranks 7 → 1 separated by `/`,
//! `x`, `o`, `-` (gap) and digits 1–7 for runs of empty squares, then the
//! side to move (`x`/`o`), the jump counter and the full-move number. The
//! last two fields may be left out (they default to 0 and 1).

use super::board::bit;
use super::{Ataxx, AtaxxRules};
use crate::games::{Game, GameError, PositionError, PositionKind, Side};

fn bad(kind: PositionKind, msg: String) -> GameError {
    GameError::BadPosition(PositionError::new(kind, msg))
}

/// Reads a FEN into a validated position.
pub(super) fn parse(text: &str, rules: &AtaxxRules) -> Result<Ataxx, GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    match fields.len() {
        0 => {
            return Err(bad(
                PositionKind::Empty,
                "the position text is empty".to_string(),
            ))
        }
        1 => {
            return Err(bad(
                PositionKind::Missing,
                "the side to move is missing (expected e.g. 'x5o/7/7/7/7/7/o5x x 0 1')".to_string(),
            ))
        }
        2..=4 => {}
        n => {
            return Err(bad(
                PositionKind::Fields { found: n },
                format!(
                    "too many fields: {n} (expected board, side, jump counter, full-move number)"
                ),
            ))
        }
    }

    let mut pieces = [0u64; 2];
    let mut gaps = 0u64;
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 7 {
        return Err(bad(
            PositionKind::Board,
            format!(
                "the board has {} ranks separated by '/'; it needs 7",
                ranks.len()
            ),
        ));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 6 - i as u8; // the first rank written is rank 7
        let rank_no = rank + 1;
        let mut file: u8 = 0;
        let mut prev_digit = false;
        for c in rank_text.chars() {
            let is_digit = c.is_ascii_digit();
            if is_digit {
                if prev_digit {
                    return Err(bad(PositionKind::Board, format!(
                        "rank {rank_no} ('{rank_text}') has two digits in a row; write one run of empty squares as one digit"
                    )));
                }
                let n = c as u8 - b'0';
                if !(1..=7).contains(&n) {
                    return Err(bad(PositionKind::Board, format!(
                        "rank {rank_no} ('{rank_text}') has the digit {c}; runs of empty squares are 1-7"
                    )));
                }
                file = file.saturating_add(n);
            } else {
                if file >= 7 {
                    return Err(bad(
                        PositionKind::Board,
                        format!("rank {rank_no} ('{rank_text}') has more than 7 squares"),
                    ));
                }
                let b = bit(rank * 7 + file);
                match c {
                    'x' => pieces[0] |= b,
                    'o' => pieces[1] |= b,
                    '-' => gaps |= b,
                    _ => {
                        return Err(bad(PositionKind::Char { found: c }, format!(
                            "rank {rank_no} ('{rank_text}') has the unknown character '{c}' (expected x, o, - or a digit 1-7)"
                        )))
                    }
                }
                file += 1;
            }
            prev_digit = is_digit;
        }
        if file != 7 {
            let what = if file > 7 { "more" } else { "fewer" };
            return Err(bad(
                PositionKind::Board,
                format!("rank {rank_no} ('{rank_text}') has {what} than 7 squares ({file})"),
            ));
        }
    }

    let side = match fields[1] {
        "x" => Side::First,
        "o" => Side::Second,
        s => {
            return Err(bad(
                PositionKind::Side {
                    found: s.to_string(),
                },
                format!("the side to move is '{s}'; it must be 'x' or 'o'"),
            ))
        }
    };

    let jumps = match fields.get(2) {
        None => 0,
        Some(s) => s.parse::<u32>().map_err(|_| {
            bad(
                PositionKind::Number {
                    found: s.to_string(),
                },
                format!("the jump counter is '{s}'; it must be a whole number 0 or more"),
            )
        })?,
    };
    let fullmove = match fields.get(3) {
        None => 1,
        Some(s) => match s.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => {
                return Err(bad(
                    PositionKind::Number {
                        found: s.to_string(),
                    },
                    format!("the full-move number is '{s}'; it must be a whole number 1 or more"),
                ))
            }
        },
    };

    Ok(Ataxx::from_parts(
        pieces, gaps, side, jumps, fullmove, *rules,
    ))
}

/// Writes the position as FEN (always all four fields).
pub(super) fn write(pos: &Ataxx) -> String {
    let mut out = String::with_capacity(40);
    for rank in (0..7u8).rev() {
        let mut empty = 0;
        for file in 0..7u8 {
            let sq = rank * 7 + file;
            let c = if pos.is_gap(sq) {
                Some('-')
            } else {
                match pos.piece_at(sq) {
                    Some(Side::First) => Some('x'),
                    Some(Side::Second) => Some('o'),
                    None => None,
                }
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let side = match pos.side_to_move() {
        Side::First => 'x',
        Side::Second => 'o',
    };
    out.push(' ');
    out.push(side);
    out.push_str(&format!(" {} {}", pos.jump_counter(), pos.fullmove()));
    out
}
