//! Mill positions as Sanmill's FEN, read and written.
//!
//! The fields: `board side phase action wOn wHand bOn bHand
//! wRemove bRemove wMillFrom wMillTo bMillFrom bMillTo formedMills
//! rule50 fullmove`. The four last-mill squares are accepted (0, -1 or
//! 8..31) and ignored (no rule here uses them) and written as 0. Phase
//! `r` (ready) is accepted for the untouched start; `p` is written.

use super::board::POINTS;
use super::position::{Mill, Phase};
use super::rules::{MillInPlacing, MillRules};
use super::{point_name, Point};
use crate::games::{GameError, PositionError, PositionKind, Side};

fn bad(kind: PositionKind, msg: impl Into<String>) -> GameError {
    GameError::BadPosition(PositionError::new(kind, msg))
}

fn num<T: std::str::FromStr>(field: &str, what: &str) -> Result<T, GameError> {
    field.parse().map_err(|_| {
        bad(
            PositionKind::Number {
                found: field.to_string(),
            },
            format!("{what} must be a non-negative number, not '{field}'"),
        )
    })
}

/// Sanmill numbers the points 8..32 (bit `p + 8` is point `p`); 0 and -1
/// (Sanmill's Rust port) mean "no square".
fn sanmill_square_ok(v: i64) -> bool {
    v == 0 || v == -1 || (8..32).contains(&v)
}

impl Mill {
    /// Reads Sanmill's FEN into a validated position (see the module
    /// header for the fields).
    pub(super) fn from_fen(text: &str, rules: &MillRules) -> Result<Mill, GameError> {
        rules.validate()?;
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 17 {
            return Err(bad(
                PositionKind::Fields { found: f.len() },
                format!(
                    "expected 17 fields (board, side, phase, action, 6 counts, 4 mill squares, \
                 formed mills, ply counter, move number), found {}",
                    f.len()
                ),
            ));
        }
        // 1. Board.
        let rings: Vec<&str> = f[0].split('/').collect();
        if rings.len() != 3 || rings.iter().any(|r| r.chars().count() != 8) {
            return Err(bad(
                PositionKind::Board,
                format!(
                    "the board must be three rings of 8 points separated by '/', not '{}'",
                    f[0]
                ),
            ));
        }
        let mut pieces = [0u32; 2];
        let mut marked = 0u32;
        for (p, c) in rings.iter().flat_map(|r| r.chars()).enumerate() {
            let b = 1u32 << p;
            match c {
                'O' => pieces[0] |= b,
                '@' => pieces[1] |= b,
                'X' => marked |= b,
                '*' => {}
                _ => {
                    return Err(bad(
                        PositionKind::Char { found: c },
                        format!(
                        "'{c}' on {} is not a point value (O white, @ black, * empty, X marked)",
                        point_name(p as Point)
                    ),
                    ))
                }
            }
        }
        // 2-4. Side, phase, action.
        let side = match f[1] {
            "w" => Side::First,
            "b" => Side::Second,
            s => {
                return Err(bad(
                    PositionKind::Side {
                        found: s.to_string(),
                    },
                    format!("side to move must be w or b, not '{s}'"),
                ))
            }
        };
        let phase = match f[2] {
            "r" | "p" | "m" | "o" => f[2].as_bytes()[0] as char,
            s => {
                return Err(bad(
                    PositionKind::Value {
                        found: s.to_string(),
                    },
                    format!("phase must be r, p, m or o, not '{s}'"),
                ))
            }
        };
        let action = match f[3] {
            "p" | "s" | "r" => f[3].as_bytes()[0] as char,
            s => {
                return Err(bad(
                    PositionKind::Value {
                        found: s.to_string(),
                    },
                    format!("action must be p, s or r, not '{s}'"),
                ))
            }
        };
        // 5. Counts.
        let on_w: u32 = num(f[4], "white on board")?;
        let hand_w: u32 = num(f[5], "white in hand")?;
        let on_b: u32 = num(f[6], "black on board")?;
        let hand_b: u32 = num(f[7], "black in hand")?;
        let rem_w: u32 = num(f[8], "white to remove")?;
        let rem_b: u32 = num(f[9], "black to remove")?;
        for (i, what) in (10..14).zip([
            "white mill from",
            "white mill to",
            "black mill from",
            "black mill to",
        ]) {
            let v: i64 = f[i].parse().map_err(|_| {
                bad(
                    PositionKind::Number {
                        found: f[i].to_string(),
                    },
                    format!("{what} must be a number, not '{}'", f[i]),
                )
            })?;
            if !sanmill_square_ok(v) {
                return Err(bad(
                    PositionKind::Number {
                        found: v.to_string(),
                    },
                    format!("{what} must be 0, -1 or a square 8..31, not {v}"),
                ));
            }
        }
        let formed_all: u64 = num(f[14], "formed mills")?;
        let rule50: u32 = num(f[15], "ply counter")?;
        let fullmove: u32 = num(f[16], "move number")?;

        let n = rules.pieces as u32;
        if pieces[0].count_ones() != on_w {
            return Err(bad(
                PositionKind::Inconsistent,
                format!(
                    "white on board says {on_w} but the board has {} white pieces",
                    pieces[0].count_ones()
                ),
            ));
        }
        if pieces[1].count_ones() != on_b {
            return Err(bad(
                PositionKind::Inconsistent,
                format!(
                    "black on board says {on_b} but the board has {} black pieces",
                    pieces[1].count_ones()
                ),
            ));
        }
        if on_w + hand_w > n {
            return Err(bad(PositionKind::Inconsistent, format!(
                "white has {on_w} on board and {hand_w} in hand, more than the {n} pieces of these rules"
            )));
        }
        if on_b + hand_b > n {
            return Err(bad(PositionKind::Inconsistent, format!(
                "black has {on_b} on board and {hand_b} in hand, more than the {n} pieces of these rules"
            )));
        }
        let (mine, theirs) = match side {
            Side::First => (rem_w, rem_b),
            Side::Second => (rem_b, rem_w),
        };
        if theirs != 0 {
            return Err(bad(
                PositionKind::Inconsistent,
                "only the side to move can owe removals",
            ));
        }
        let max_owed = if rules.remove_multiple { 3 } else { 1 };
        if mine > max_owed {
            return Err(bad(
                PositionKind::Inconsistent,
                format!(
                    "the side to move owes {mine} removals; at most {max_owed} under these rules"
                ),
            ));
        }
        let opp_on = if side == Side::First { on_b } else { on_w };
        if mine > opp_on {
            return Err(bad(PositionKind::Inconsistent, format!(
                "the side to move owes {mine} removals but the opponent has only {opp_on} pieces on the board"
            )));
        }
        if (action == 'r') != (mine > 0) {
            return Err(bad(
                PositionKind::Inconsistent,
                "action r (remove) goes with a pending removal count, and only with it",
            ));
        }
        let placing = match phase {
            'm' => {
                if hand_w + hand_b > 0 {
                    return Err(bad(
                        PositionKind::Inconsistent,
                        "phase m (moving) but pieces are still in hand",
                    ));
                }
                false
            }
            'r' | 'p' => {
                if hand_w + hand_b == 0 && mine == 0 {
                    return Err(bad(
                        PositionKind::Inconsistent,
                        "phase p (placing) but no pieces are left in hand",
                    ));
                }
                true
            }
            _ => hand_w + hand_b > 0,
        };
        if marked != 0 {
            if rules.mill_in_placing != MillInPlacing::MarkAndDelay {
                return Err(bad(
                    PositionKind::Inconsistent,
                    "marked points (X) need the mark-and-delay rule",
                ));
            }
            if !placing {
                return Err(bad(
                    PositionKind::Inconsistent,
                    "marked points (X) exist only during placing",
                ));
            }
        }
        let formed_w = (formed_all >> 32) as u32;
        let formed_b = formed_all as u32;
        if formed_w & 0xFF != 0 || formed_b & 0xFF != 0 {
            return Err(bad(
                PositionKind::Inconsistent,
                "formed mills may only use squares 8..31",
            ));
        }
        if formed_all != 0 && !rules.one_time_mill {
            return Err(bad(
                PositionKind::Inconsistent,
                "formed mills must be 0 unless the one-time-mill rule is on",
            ));
        }
        let mut m = Mill {
            rules: *rules,
            pieces,
            marked,
            in_hand: [hand_w as u8, hand_b as u8],
            side,
            placing,
            must_remove: mine as u8,
            formed: [formed_w >> 8, formed_b >> 8],
            rule50,
            fullmove: fullmove.max(1),
            outcome: None,
        };
        if phase == 'r' && !m.untouched_start() {
            return Err(bad(
                PositionKind::Inconsistent,
                "phase r (ready) is only for the untouched start position",
            ));
        }
        let expected = m.action_char();
        if action != expected && m.must_remove == 0 {
            return Err(bad(
                PositionKind::Inconsistent,
                format!("action '{action}' does not fit the position (expected '{expected}')"),
            ));
        }
        m.settle();
        if phase == 'o' && m.outcome.is_none() {
            return Err(bad(
                PositionKind::Inconsistent,
                "phase o (over) but the game is not finished",
            ));
        }
        Ok(m)
    }

    /// The position as Sanmill's FEN.
    pub(super) fn fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for p in 0..POINTS as Point {
            if p == 8 || p == 16 {
                s.push('/');
            }
            s.push(match (self.piece_at(p), self.is_marked(p)) {
                (Some(Side::First), _) => 'O',
                (Some(Side::Second), _) => '@',
                (None, true) => 'X',
                (None, false) => '*',
            });
        }
        let side = if self.side == Side::First { 'w' } else { 'b' };
        let phase = match self.phase() {
            Phase::Over => 'o',
            Phase::Placing => 'p',
            Phase::Moving => 'm',
        };
        let (rw, rb) = match self.side {
            Side::First => (self.must_remove, 0),
            Side::Second => (0, self.must_remove),
        };
        let formed = ((self.formed[0] as u64) << 40) | ((self.formed[1] as u64) << 8);
        format!(
            "{s} {side} {phase} {} {} {} {} {} {rw} {rb} 0 0 0 0 {formed} {} {}",
            self.action_char(),
            self.on_board(Side::First),
            self.in_hand[0],
            self.on_board(Side::Second),
            self.in_hand[1],
            self.rule50,
            self.fullmove
        )
    }

    pub(super) fn action_char(&self) -> char {
        if self.must_remove > 0 {
            'r'
        } else if self.may_place() {
            'p'
        } else {
            's'
        }
    }

    pub(super) fn untouched_start(&self) -> bool {
        self.placing
            && self.pieces == [0, 0]
            && self.marked == 0
            && self.in_hand == [self.rules.pieces; 2]
    }
}
