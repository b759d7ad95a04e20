//! Territory Duel as Ataxx tournament tools play it (UAI, libataxx-based
//! match runners), for `engine uai`.
//!
//! The board, the moves and game ends 1–3 are ours ([`Ataxx`]); what
//! differs is the counter in the FEN's third field and what it ends:
//!
//! - [`MoveLimit::Uai`] (the default under UAI): the field counts plies
//!   since the last clone; jumps (flipping or not) and passes add one,
//!   a clone resets it. At [`HALFMOVE_LIMIT`] the game is a draw (the
//!   Ataxx "50-move rule"); a position that is over by the board alone
//!   (full, a side without pieces, nobody can move) is still decided by
//!   count first. A clone is the only move that cannot be undone, so the
//!   repetition history starts again at each clone.
//! - [`MoveLimit::TerritoryDuel`]: our rule 5 (80 jumps in a row without a
//!   capture, decided by count), exactly as [`Ataxx`] plays it.
//!
//! The third occurrence of a position ([`crate::games::Record`] ends the
//! game there, and the search scores a repetition in its tree so) and any
//! ply cap ([`Game::adjudicate`]):
//!
//! - under [`MoveLimit::Uai`], a draw. libataxx and the match runners built
//!   on it (cuteataxx) have no repetition rule at all: a game that goes
//!   round a cycle of jumps runs on until the 100-ply counter draws it
//!   (no clone comes in a cycle), and a game-length adjudication is a
//!   draw too. A repetition is therefore worth a draw to an engine under
//!   that convention, as Ataxx engines score it.
//! - under [`MoveLimit::TerritoryDuel`], by the piece count, as our rules
//!   decide it ([`Ataxx`]).

use super::{Ataxx, AtaxxMove, AtaxxRules};
use crate::games::{EndReason, Game, GameError, Outcome, Side};

/// Plies since the last clone that end the game as a draw under UAI.
pub const HALFMOVE_LIMIT: u32 = 100;

/// Which move-limit convention a UAI session follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MoveLimit {
    /// Plies since the last clone; 100 is a draw (libataxx, UAI GUIs).
    #[default]
    Uai,
    /// 80 capture-less jumps, decided by count (our rule 5).
    TerritoryDuel,
}

impl MoveLimit {
    /// Both conventions, the default first.
    pub const ALL: [MoveLimit; 2] = [MoveLimit::Uai, MoveLimit::TerritoryDuel];

    /// The name in `setoption name MoveLimit value …`.
    pub fn slug(self) -> &'static str {
        match self {
            MoveLimit::Uai => "uai",
            MoveLimit::TerritoryDuel => "territory-duel",
        }
    }

    /// Reads an option value (case-insensitive).
    pub fn from_slug(s: &str) -> Option<MoveLimit> {
        MoveLimit::ALL
            .into_iter()
            .find(|m| m.slug().eq_ignore_ascii_case(s))
    }
}

/// The rules of a UAI session: the board rules and the move-limit convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct UaiRules {
    /// The board rules (pass or lose without a move; pass by default).
    pub board: AtaxxRules,
    /// The move-limit convention.
    pub move_limit: MoveLimit,
}

/// A Territory Duel position under [`UaiRules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UaiAtaxx {
    /// The position. Under [`MoveLimit::Uai`] its own jump counter is kept
    /// far below 80, so only `halfmoves` limits the game.
    pos: Ataxx,
    /// Plies since the last clone (used under [`MoveLimit::Uai`] only).
    halfmoves: u32,
    rules: UaiRules,
}

/// The inner counter is cleared once it reaches this, far from 80.
const INNER_CLEAR_AT: u32 = 40;

impl UaiAtaxx {
    /// `pos` under `move_limit`, with `halfmoves` plies since the last
    /// clone (ignored for [`MoveLimit::TerritoryDuel`], which uses the
    /// position's own jump counter).
    pub fn new(pos: Ataxx, halfmoves: u32, move_limit: MoveLimit) -> Self {
        let rules = UaiRules {
            board: *pos.rules(),
            move_limit,
        };
        let mut out = UaiAtaxx {
            pos,
            halfmoves,
            rules,
        };
        if move_limit == MoveLimit::Uai {
            out.clear_inner_counter();
        }
        out
    }

    /// The position on the board.
    pub fn board(&self) -> &Ataxx {
        &self.pos
    }

    /// The counter of the FEN's third field under the session's convention.
    pub fn counter(&self) -> u32 {
        match self.rules.move_limit {
            MoveLimit::Uai => self.halfmoves,
            MoveLimit::TerritoryDuel => self.pos.jump_counter(),
        }
    }

    fn uai(&self) -> bool {
        self.rules.move_limit == MoveLimit::Uai
    }

    fn clear_inner_counter(&mut self) {
        let p = &self.pos;
        self.pos = Ataxx::from_parts(
            [p.pieces_bb(Side::First), p.pieces_bb(Side::Second)],
            p.gaps_bb(),
            p.side_to_move(),
            0,
            p.fullmove(),
            *p.rules(),
        );
    }
}

impl Game for UaiAtaxx {
    type Move = AtaxxMove;
    type Rules = UaiRules;

    fn start(rules: &UaiRules) -> Self {
        UaiAtaxx::new(Ataxx::start(&rules.board), 0, rules.move_limit)
    }

    fn from_text(text: &str, rules: &UaiRules) -> Result<Self, GameError> {
        let pos = Ataxx::from_text(text, &rules.board)?;
        Ok(UaiAtaxx::new(pos, pos.jump_counter(), rules.move_limit))
    }

    fn to_text(&self) -> String {
        let text = self.pos.to_text();
        if !self.uai() {
            return text;
        }
        let f: Vec<&str> = text.split(' ').collect();
        format!("{} {} {} {}", f[0], f[1], self.halfmoves, f[3])
    }

    fn rules(&self) -> &UaiRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    fn why_illegal(&self, mv: AtaxxMove) -> crate::games::Illegal {
        self.pos.why_illegal(mv)
    }

    fn legal_moves_into(&self, out: &mut Vec<AtaxxMove>) {
        if self.uai() && self.halfmoves >= HALFMOVE_LIMIT {
            out.clear();
        } else {
            self.pos.legal_moves_into(out);
        }
    }

    #[inline]
    fn play_unchecked(&mut self, mv: AtaxxMove) {
        if self.uai() {
            self.halfmoves = match mv {
                AtaxxMove::Clone { .. } => 0,
                _ => self.halfmoves.saturating_add(1),
            };
            self.pos.play_unchecked(mv);
            if self.pos.jump_counter() >= INNER_CLEAR_AT {
                self.clear_inner_counter();
            }
        } else {
            self.pos.play_unchecked(mv);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| {
            (self.uai() && self.halfmoves >= HALFMOVE_LIMIT)
                .then_some(Outcome::draw(EndReason::MoveLimit))
        })
    }

    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn parse_move(&self, text: &str) -> Result<AtaxxMove, GameError> {
        self.pos.parse_move(text)
    }

    /// Under UAI only a clone: it is the one move that adds a piece, and
    /// no move removes one.
    fn is_irreversible(&self, mv: AtaxxMove) -> bool {
        if self.uai() {
            matches!(mv, AtaxxMove::Clone { .. })
        } else {
            self.pos.is_irreversible(mv)
        }
    }

    /// A draw under UAI (libataxx has no repetition rule: the cycle runs
    /// into the 100-ply draw), by the piece count under our rules.
    fn adjudicate(&self, reason: EndReason) -> Outcome {
        if self.uai() {
            Outcome::draw(reason)
        } else {
            self.pos.adjudicate(reason)
        }
    }
}
