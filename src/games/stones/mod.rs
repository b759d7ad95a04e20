//! Stones!: stones slide diagonally forward and jump; a jump pins an
//! opponent's stone or frees a pinned ally instead of capturing it.
//!
//! The rules implemented are exactly those of `shared/rules/stones.md`,
//! including its marked decisions. The position is three `u64` bitboards
//! (white, black, pinned) plus the side to move; moves are generated
//! stone by stone, ray by ray, and positions are copied, not unmade.
//!
//! Decisions taken here where the rules file is silent (see also
//! [`notation`] for the text formats):
//! - Any placement of stones is a valid position (the worked examples have
//!   fewer than eight stones a side, stones on any rank): the position text
//!   is only checked for being well formed and free of overlaps.
//! - `is_irreversible` is true for every move with a forward component:
//!   a stone never moves backwards, so the position before cannot recur.
//! - No repetition rule (the rules file: the game always ends).
//! - A move is fully identified by its `from` and `to` squares (a slide and
//!   a jump from the same square never land on the same square); the jumped
//!   square is still part of the move and is checked by `play`.

mod illegal;
pub mod notation;
mod zobrist;

pub use illegal::StonesIllegal;
pub use notation::{parse_square, square_name};

/// The game's slug in the list (links, files, commands) and its English
/// name and tagline.
pub const SLUG: &str = "stones";
pub const TITLE: &str = "Stones!";
pub const TAGLINE: &str = "Race your stones home; jumping pins and frees.";
pub const OTHER_NAMES: &[&str] = &[];

use super::bits::Bits;
use super::{EndReason, Game, GameError, Outcome, PositionError, PositionKind, Side};

/// A square index, `rank * 8 + file`: a1 = 0, h1 = 7, a8 = 56, h8 = 63.
pub type Square = u8;

/// The usual starting position: eight stones a side on their home rank,
/// White to move.
pub const START_POSITION: &str = "W:a1,b1,c1,d1,e1,f1,g1,h1 B:a8,b8,c8,d8,e8,f8,g8,h8 w";

/// Rank 1 (White's home rank, Black's far rank).
const RANK_1: u64 = 0xFF;
/// Rank 8 (Black's home rank, White's far rank).
const RANK_8: u64 = 0xFF << 56;
/// File a.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// File h.
const FILE_H: u64 = FILE_A << 7;

/// The rule options of Stones!: none yet; the type exists for [`Game`].
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct StonesRules;

/// One move: the stone on `from` ends on `to`; `jumped` is the stone it
/// jumped over, if any (which then becomes pinned if it is an opponent's,
/// unpinned if it is the mover's own).
///
/// Written `c3-e5` (slide), `c3xf6-g7` (slide then jump), `d4xe4-f4`
/// (sideways jump); see [`notation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StonesMove {
    /// The square the moving stone starts on.
    pub from: Square,
    /// The square the moving stone ends on.
    pub to: Square,
    /// The square of the jumped stone, directly before `to` on the line.
    pub jumped: Option<Square>,
}

/// A Stones! position: where the stones are, which are pinned, and whose
/// turn it is. Always valid: white and black never overlap, and pinned
/// stones are a subset of the stones on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stones {
    white: u64,
    black: u64,
    pinned: u64,
    side: Side,
    rules: StonesRules,
}

#[inline]
const fn bit(sq: Square) -> u64 {
    1u64 << sq
}

/// The square at `file`, `rank` if both are on the board.
#[inline]
fn square_at(file: i8, rank: i8) -> Option<Square> {
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Some((rank * 8 + file) as Square)
    } else {
        None
    }
}

impl Stones {
    /// Builds a position from bitboards, or says why they are inconsistent.
    fn from_parts(white: u64, black: u64, pinned: u64, side: Side) -> Result<Self, GameError> {
        if white & black != 0 {
            return Err(GameError::BadPosition(PositionError::new(
                PositionKind::Inconsistent,
                "a square holds both a white and a black stone",
            )));
        }
        if pinned & !(white | black) != 0 {
            return Err(GameError::BadPosition(PositionError::new(
                PositionKind::Inconsistent,
                "a pinned mark on an empty square",
            )));
        }
        Ok(Stones {
            white,
            black,
            pinned,
            side,
            rules: StonesRules,
        })
    }

    /// The stones of `side`, pinned or not.
    #[inline]
    fn stones_of(&self, side: Side) -> u64 {
        match side {
            Side::First => self.white,
            Side::Second => self.black,
        }
    }

    /// The stone on `sq`: its owner (`Side::First` = White) and whether it
    /// is pinned. `None` for an empty square or a square index off the board.
    pub fn stone_at(&self, sq: Square) -> Option<(Side, bool)> {
        if sq >= 64 {
            return None;
        }
        let b = bit(sq);
        let pinned = self.pinned & b != 0;
        if self.white & b != 0 {
            Some((Side::First, pinned))
        } else if self.black & b != 0 {
            Some((Side::Second, pinned))
        } else {
            None
        }
    }

    /// The score of `side`: its unpinned stones on its far rank (rank 8 for
    /// White, rank 1 for Black). Pinned stones there count zero.
    pub fn score(&self, side: Side) -> u32 {
        let far = match side {
            Side::First => RANK_8,
            Side::Second => RANK_1,
        };
        (self.stones_of(side) & !self.pinned & far).count_ones()
    }

    /// The raw bitboards `(white, black, pinned)` (bit `rank * 8 + file`),
    /// for evaluation code that needs whole-board masks rather than squares.
    pub fn bitboards(&self) -> (u64, u64, u64) {
        (self.white, self.black, self.pinned)
    }

    /// The legal moves of the stone on `from`: empty if the square is off
    /// the board, empty, holds an opponent's stone or a pinned stone, or the
    /// stone is blocked. The UI uses this for its move targets.
    pub fn moves_from(&self, from: Square) -> Vec<StonesMove> {
        let mut out = Vec::new();
        if from < 64 {
            self.push_moves_from(from, &mut out);
        }
        out
    }

    /// Appends the legal moves of the stone on `from` (any square 0..64).
    fn push_moves_from(&self, from: Square, out: &mut Vec<StonesMove>) {
        self.each_move_from(from, &mut |mv| out.push(mv));
    }

    /// Calls `found` with each legal move of the stone on `from` (any
    /// square 0..64): one generator for the list, the count and the
    /// has-a-move test, none of which needs a buffer.
    #[inline]
    fn each_move_from(&self, from: Square, found: &mut impl FnMut(StonesMove)) {
        let own = self.stones_of(self.side);
        let b = bit(from);
        if own & b == 0 || self.pinned & b != 0 {
            return;
        }
        let opp = self.stones_of(self.side.opponent());
        let occupied = self.white | self.black;
        // An unpinned opponent or a pinned ally.
        let jumpable = (opp & !self.pinned) | (own & self.pinned);
        let is_empty = |sq: Square| occupied & bit(sq) == 0;
        let file = (from % 8) as i8;
        let rank = (from / 8) as i8;
        let forward: i8 = match self.side {
            Side::First => 1,
            Side::Second => -1,
        };

        // Diagonal moves: slide any distance, or jump the first stone met.
        for df in [-1i8, 1] {
            let (mut f, mut r) = (file + df, rank + forward);
            while let Some(sq) = square_at(f, r) {
                if is_empty(sq) {
                    found(StonesMove {
                        from,
                        to: sq,
                        jumped: None,
                    });
                    f += df;
                    r += forward;
                    continue;
                }
                if jumpable & bit(sq) != 0 {
                    if let Some(land) = square_at(f + df, r + forward) {
                        if is_empty(land) {
                            found(StonesMove {
                                from,
                                to: land,
                                jumped: Some(sq),
                            });
                        }
                    }
                }
                break;
            }
        }

        // Sideways jumps over an adjacent stone on the same rank.
        for df in [-1i8, 1] {
            if let (Some(over), Some(land)) =
                (square_at(file + df, rank), square_at(file + 2 * df, rank))
            {
                if jumpable & bit(over) != 0 && is_empty(land) {
                    found(StonesMove {
                        from,
                        to: land,
                        jumped: Some(over),
                    });
                }
            }
        }
    }

    /// Whether the side to move has at least one legal move. A free stone
    /// with an empty square diagonally ahead can always slide there, which
    /// settles most positions with two shifts; otherwise the stones are
    /// asked one by one.
    fn has_legal_move(&self) -> bool {
        let movers = self.stones_of(self.side) & !self.pinned;
        let empty = !(self.white | self.black);
        let (left, right) = match self.side {
            Side::First => ((movers & !FILE_A) << 7, (movers & !FILE_H) << 9),
            Side::Second => ((movers & !FILE_H) >> 7, (movers & !FILE_A) >> 9),
        };
        if (left | right) & empty != 0 {
            return true;
        }
        for from in Bits(movers) {
            let mut any = false;
            self.each_move_from(from, &mut |_| any = true);
            if any {
                return true;
            }
        }
        false
    }

    /// The number of legal moves, counted without a list (perft's last ply).
    fn count_moves(&self) -> u64 {
        let mut n = 0;
        for from in Bits(self.stones_of(self.side) & !self.pinned) {
            self.each_move_from(from, &mut |_| n += 1);
        }
        n
    }
}

impl Game for Stones {
    type Move = StonesMove;
    type Rules = StonesRules;

    fn start(rules: &StonesRules) -> Self {
        Stones {
            white: RANK_1,
            black: RANK_8,
            pinned: 0,
            side: Side::First,
            rules: *rules,
        }
    }

    fn from_text(text: &str, rules: &StonesRules) -> Result<Self, GameError> {
        let (white, black, pinned, side) = notation::parse_position(text)?;
        let mut pos = Stones::from_parts(white, black, pinned, side)?;
        pos.rules = *rules;
        Ok(pos)
    }

    fn to_text(&self) -> String {
        notation::write_position(self.white, self.black, self.pinned, self.side)
    }

    fn rules(&self) -> &StonesRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn why_illegal(&self, mv: StonesMove) -> crate::games::Illegal {
        crate::games::Illegal::Stones(self.reason(mv))
    }

    fn legal_moves_into(&self, out: &mut Vec<StonesMove>) {
        out.clear();
        for from in Bits(self.stones_of(self.side) & !self.pinned) {
            self.push_moves_from(from, out);
        }
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<StonesMove>) -> u64 {
        self.count_moves()
    }

    fn play_unchecked(&mut self, mv: StonesMove) {
        let moved = bit(mv.from) | bit(mv.to);
        match self.side {
            Side::First => self.white ^= moved,
            Side::Second => self.black ^= moved,
        }
        if let Some(j) = mv.jumped {
            if self.stones_of(self.side) & bit(j) != 0 {
                self.pinned &= !bit(j);
            } else {
                self.pinned |= bit(j);
            }
        }
        self.side = self.side.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_legal_move() {
            None
        } else {
            Some(Outcome::by_count(
                self.score(Side::First),
                self.score(Side::Second),
                EndReason::NoLegalMove,
            ))
        }
    }

    fn hash(&self) -> u64 {
        let mut h = match self.side {
            Side::First => 0,
            Side::Second => zobrist::BLACK_TO_MOVE_KEY,
        };
        for (colour, stones) in [self.white, self.black].into_iter().enumerate() {
            for sq in Bits(stones) {
                let pinned = usize::from(self.pinned & (1u64 << sq) != 0);
                h ^= zobrist::STONE_KEYS[colour * 2 + pinned][sq as usize];
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<StonesMove, GameError> {
        text.parse()
    }

    fn is_irreversible(&self, mv: StonesMove) -> bool {
        mv.from / 8 != mv.to / 8
    }

    fn repetition_ends_game(&self) -> bool {
        false
    }

    /// Like the game's own end, by the unpinned stones on the far rank:
    /// the rules file decides the online ply cap so (no repetition rule).
    fn adjudicate(&self, reason: EndReason) -> Outcome {
        Outcome::by_count(self.score(Side::First), self.score(Side::Second), reason)
    }

    /// Plays `mv` if it is legal; otherwise says why not and changes nothing.
    fn play(&mut self, mv: StonesMove) -> Result<(), GameError> {
        // A legal move means the game is not over, so the (slower) outcome
        // check is only needed to word the refusal.
        if self.moves_from(mv.from).contains(&mv) {
            self.play_unchecked(mv);
            return Ok(());
        }
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        Err(GameError::IllegalMove(self.why_illegal(mv)))
    }
}
