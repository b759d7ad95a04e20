//! Mill evaluation.
//!
//! Rewards material first (pieces on the board plus in hand: the game is
//! lost below three), a removal the mover is owed (a piece about to go),
//! then *open twos* (two own pieces and an empty third point on a line: a
//! mill threat), closed mills (they can be reopened to strike again) and
//! mobility, while placing as well as sliding (a blocked side loses, and
//! the blocking is done while placing; a flying side has no mobility term).
//! Ordering puts removals
//! first (preferring pieces that make an open two), then moves that close
//! a mill, then moves that block an opponent's open two.

use super::{Evaluate, TACTICAL};
use crate::games::mill::board::{ADJ_MASKS, LINES_THROUGH, LINE_MASKS};
use crate::games::mill::{Mill, MillMove};
use crate::games::{Game, Side};

const PIECE: i32 = 100;
const OWED_REMOVAL: i32 = 90;
const OPEN_TWO: i32 = 18;
const MILL: i32 = 12;
const MOBILITY: i32 = 4;

fn line_count(pos: &Mill) -> usize {
    if pos.rules().diagonal_lines {
        20
    } else {
        16
    }
}

/// Empty points (marked points excluded).
fn empty(pos: &Mill) -> u32 {
    let mut marked = 0u32;
    if pos.rules().mill_in_placing == crate::games::mill::MillInPlacing::MarkAndDelay {
        for p in 0..24u8 {
            if pos.is_marked(p) {
                marked |= 1 << p;
            }
        }
    }
    ((1u32 << 24) - 1) & !(pos.pieces_bb(Side::First) | pos.pieces_bb(Side::Second) | marked)
}

/// The side's terms other than material.
fn shape(pos: &Mill, side: Side, empty: u32) -> i32 {
    let own = pos.pieces_bb(side);
    let mut score = 0;
    for &m in &LINE_MASKS[..line_count(pos)] {
        let mine = (own & m).count_ones();
        if mine == 3 {
            score += MILL;
        } else if mine == 2 && (empty & m).count_ones() == 1 {
            score += OPEN_TWO;
        }
    }
    // Mobility counts while placing too: a side hemmed in when its last
    // piece is placed is lost as soon as the sliding starts, and the
    // placing is where the hemming is done.
    if !pos.can_fly(side) {
        let adj = &ADJ_MASKS[pos.rules().diagonal_lines as usize];
        let mut rest = own;
        let mut mobility = 0;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            mobility += (adj[p] & empty).count_ones() as i32;
        }
        score += MOBILITY * mobility;
    }
    score
}

/// Whether `side` having a piece on `p` completes a line with its own pieces.
fn closes_line(pos: &Mill, own: u32, p: u8) -> bool {
    let n = line_count(pos);
    LINES_THROUGH[p as usize % 24]
        .iter()
        .filter(|&&l| (l as usize) < n)
        .any(|&l| {
            let m = LINE_MASKS[l as usize];
            (own | (1 << p)) & m == m
        })
}

impl Evaluate for Mill {
    fn evaluate(&self) -> i32 {
        let us = self.side_to_move();
        let them = us.opponent();
        let total = |s: Side| self.on_board(s) as i32 + self.in_hand(s) as i32;
        let e = empty(self);
        PIECE * (total(us) - total(them))
            + OWED_REMOVAL * self.must_remove() as i32
            + shape(self, us, e)
            - shape(self, them, e)
    }

    fn order_hint(&self, mv: MillMove) -> i32 {
        let us = self.side_to_move();
        let own = self.pieces_bb(us);
        let theirs = self.pieces_bb(us.opponent());
        match mv {
            MillMove::Remove(p) => {
                // Prefer breaking an opponent's open two.
                let e = empty(self);
                let n = line_count(self);
                let threat = LINES_THROUGH[p as usize % 24]
                    .iter()
                    .filter(|&&l| (l as usize) < n)
                    .any(|&l| {
                        let m = LINE_MASKS[l as usize];
                        (theirs & m).count_ones() == 2 && (e & m).count_ones() == 1
                    });
                5 * TACTICAL + if threat { 50 } else { 0 }
            }
            MillMove::Place(to) | MillMove::Slide { to, .. } => {
                let own_after = match mv {
                    MillMove::Slide { from, .. } => own & !(1 << from),
                    _ => own,
                };
                if closes_line(self, own_after, to) {
                    4 * TACTICAL
                } else if closes_line(self, theirs, to) {
                    2 * TACTICAL
                } else {
                    0
                }
            }
        }
    }

    fn move_key(mv: MillMove) -> usize {
        match mv {
            MillMove::Place(p) => (p % 24) as usize,
            MillMove::Slide { from, to } => 32 + (from % 24) as usize * 24 + (to % 24) as usize,
            MillMove::Remove(p) => 700 + (p % 24) as usize,
        }
    }
}
