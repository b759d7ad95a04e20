//! Territory Duel: Ataxx on a 7×7 board, with optional gaps.
//!
//! The rules contract is `shared/rules/territory-duel.md`. A position is
//! three bitboards (X, O, gaps) plus the side to move, the jump counter and
//! the full-move number; moves are generated with shifts and precomputed
//! neighbour tables so search can copy-make millions of positions a second.
//!
//! Submodules by concern: [`board`] (bitboard geometry), `movegen`
//! (generation and application), `fen` (position text), `zobrist`
//! (hash keys) and `notation` (squares and moves).

pub mod board;
mod fen;
mod illegal;
mod movegen;
mod notation;
pub mod uai;
mod zobrist;

pub use illegal::AtaxxIllegal;
pub use notation::{parse_square, square_name};

/// The game's slug in the list (links, files, commands), its English name
/// and tagline, and the other name the command line accepts.
pub const SLUG: &str = "ataxx";
pub const TITLE: &str = "Territory Duel";
pub const TAGLINE: &str = "Clone and jump to take over the board.";
pub const OTHER_NAMES: &[&str] = &["territory-duel"];

use board::{bit, FULL, JUMPS, NEIGHBOURS};

use super::{EndReason, Game, GameError, Mode, Outcome, Side};

/// A square, `0..49`: `rank * 7 + file`, so `a1` = 0, `g1` = 6, `a7` = 42, `g7` = 48.
pub type Square = u8;

/// The standard start: X on a7 and g1, O on a1 and g7, X to move.
pub const START_FEN: &str = "x5o/7/7/7/7/7/o5x x 0 1";

/// The number of consecutive capture-less jumps (plies) that ends the game.
pub const JUMP_LIMIT: u32 = 80;

/// What happens to a player who has no clone or jump.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum NoMoveRule {
    /// The player passes (`0000`) and the opponent moves again (local and online play).
    #[default]
    Pass,
    /// The player loses at once, whatever the count (single player vs the computer).
    Lose,
}

/// The rule options of Territory Duel.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct AtaxxRules {
    /// What a player with no clone or jump does.
    pub no_move: NoMoveRule,
}

/// A Territory Duel move. Written `b6` (clone), `a7c5` (jump), `0000` (pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtaxxMove {
    /// No clone or jump exists (pass mode only).
    Pass,
    /// A new piece appears on `to`, next to one of the mover's pieces.
    Clone { to: Square },
    /// The piece on `from` moves to `to`, exactly two squares away.
    Jump { from: Square, to: Square },
}

/// A validated Territory Duel position under its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ataxx {
    /// Pieces of X (`[0]`) and O (`[1]`).
    pieces: [u64; 2],
    /// Blocked squares.
    gaps: u64,
    side: Side,
    /// Consecutive capture-less jumps, in plies (passes neither count nor reset).
    jumps: u32,
    /// Starts at 1, incremented after O moves (or passes).
    fullmove: u32,
    /// Zobrist hash of pieces, gaps and side to move, kept up to date by moves.
    hash: u64,
    rules: AtaxxRules,
}

impl Ataxx {
    /// Builds a position from validated parts (squares off the board are
    /// masked away; a gap wins over a piece; X wins over O on the same square).
    pub(crate) fn from_parts(
        pieces: [u64; 2],
        gaps: u64,
        side: Side,
        jumps: u32,
        fullmove: u32,
        rules: AtaxxRules,
    ) -> Self {
        let gaps = gaps & FULL;
        let x = pieces[0] & FULL & !gaps;
        let o = pieces[1] & FULL & !gaps & !x;
        let pieces = [x, o];
        Ataxx {
            pieces,
            gaps,
            side,
            jumps,
            fullmove: fullmove.max(1),
            hash: zobrist::full_hash(pieces, gaps, side),
            rules,
        }
    }

    /// The owner of the piece on `sq`, if any (`Side::First` = X, `Side::Second` = O).
    pub fn piece_at(&self, sq: Square) -> Option<Side> {
        let b = bit(sq);
        if self.pieces[0] & b != 0 {
            Some(Side::First)
        } else if self.pieces[1] & b != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// Whether `sq` is a gap (a blocked square nothing may stand on).
    pub fn is_gap(&self, sq: Square) -> bool {
        self.gaps & bit(sq) != 0
    }

    /// Whether the only thing the side to move can do is pass (the pass
    /// rule, game not over): the app and the server play that pass at once.
    pub fn must_pass(&self) -> bool {
        self.outcome().is_none() && self.legal_moves() == [AtaxxMove::Pass]
    }

    /// The number of pieces `side` has on the board.
    pub fn count(&self, side: Side) -> u32 {
        self.pieces[side.index()].count_ones()
    }

    /// The number of empty playable squares (gaps excluded).
    pub fn empty_count(&self) -> u32 {
        self.empty_bb().count_ones()
    }

    /// The bitboard of `side`'s pieces (bit `sq` set for each occupied square).
    pub fn pieces_bb(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// The bitboard of gaps.
    pub fn gaps_bb(&self) -> u64 {
        self.gaps
    }

    /// Whether the piece on `from` may move now (it is the mover's and the game goes on).
    fn movable(&self, from: Square) -> bool {
        self.piece_at(from) == Some(self.side) && self.outcome().is_none()
    }

    /// Bitboard of the squares the piece on `from` may clone to now (0 if it
    /// is not the mover's piece or the game is over). Several pieces may
    /// share a target: the clone move itself names only the target.
    pub fn clone_targets(&self, from: Square) -> u64 {
        if self.movable(from) {
            NEIGHBOURS[from as usize] & self.empty_bb()
        } else {
            0
        }
    }

    /// Bitboard of the squares the piece on `from` may jump to now (0 if it
    /// is not the mover's piece or the game is over).
    pub fn jump_targets(&self, from: Square) -> u64 {
        if self.movable(from) {
            JUMPS[from as usize] & self.empty_bb()
        } else {
            0
        }
    }

    /// Bitboard of the opponent pieces that `mv` would turn (0 for a pass).
    /// Computed from the target alone; legality is not checked.
    pub fn flips(&self, mv: AtaxxMove) -> u64 {
        match mv {
            AtaxxMove::Pass => 0,
            AtaxxMove::Clone { to } | AtaxxMove::Jump { to, .. } => {
                NEIGHBOURS[to as usize & 63] & self.pieces[self.side.opponent().index()]
            }
        }
    }

    /// Whether `side` has any clone or jump in this position (whoever is to move).
    pub fn has_moves(&self, side: Side) -> bool {
        self.can_move(side)
    }

    /// Consecutive capture-less jumps so far, in plies (the FEN's third field).
    pub fn jump_counter(&self) -> u32 {
        self.jumps
    }

    /// The full-move number: starts at 1 and grows after each O move or pass.
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }
}

impl Game for Ataxx {
    type Move = AtaxxMove;
    type Rules = AtaxxRules;

    /// Against the computer a player who cannot move loses (the computer
    /// is never left waiting on a pass); online and with two players on
    /// one device the player passes (the rules file: "a link cannot choose
    /// another"; the page refuses a link that names the other rule).
    fn rules_for(mode: Mode, _chosen: &AtaxxRules) -> AtaxxRules {
        match mode {
            Mode::Computer => AtaxxRules {
                no_move: NoMoveRule::Lose,
            },
            Mode::Online | Mode::TwoPlayers => AtaxxRules {
                no_move: NoMoveRule::Pass,
            },
        }
    }

    /// The pass of a player with no clone or jump, under the pass rule.
    fn forced_move(&self) -> Option<AtaxxMove> {
        self.must_pass().then_some(AtaxxMove::Pass)
    }

    fn start(rules: &AtaxxRules) -> Self {
        // a7 and g1 for X, a1 and g7 for O.
        Ataxx::from_parts(
            [bit(42) | bit(6), bit(0) | bit(48)],
            0,
            Side::First,
            0,
            1,
            *rules,
        )
    }

    fn from_text(text: &str, rules: &AtaxxRules) -> Result<Self, GameError> {
        fen::parse(text, rules)
    }

    fn to_text(&self) -> String {
        fen::write(self)
    }

    fn rules(&self) -> &AtaxxRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn why_illegal(&self, mv: AtaxxMove) -> crate::games::Illegal {
        crate::games::Illegal::Ataxx(self.reason(mv))
    }

    /// Clones (one per target square), then jumps (origin, target); in pass
    /// mode exactly `[Pass]` when the mover has neither but the game goes on.
    fn legal_moves_into(&self, out: &mut Vec<AtaxxMove>) {
        self.generate(out);
    }

    #[inline]
    fn count_legal_moves(&self, _scratch: &mut Vec<AtaxxMove>) -> u64 {
        self.count_moves()
    }

    #[inline]
    fn play_unchecked(&mut self, mv: AtaxxMove) {
        self.apply(mv);
    }

    /// The position's result, checking the endings of the rules file in its
    /// order, first match wins:
    /// 1. no empty square (`BoardFull`), 2. a side has no pieces (`NoPieces`),
    /// 3. neither side can clone or jump (`NeitherCanMove`),
    /// 5. the jump counter has reached 80 (`MoveLimit`) — these four are
    ///    decided by piece count —, then
    /// 6. in lose mode, the side to move has no move and loses (`NoLegalMove`).
    ///
    /// Rule 6 comes last so that a position which is also over by 1–5 is
    /// scored by count (e.g. a full board in lose mode is not a loss for
    /// the mover). Repetition (4, decided by count too: [`Game::adjudicate`])
    /// and time (7) need the history: see [`crate::games::Record`].
    fn outcome(&self) -> Option<Outcome> {
        let (x, o) = (self.count(Side::First), self.count(Side::Second));
        let by_count = |reason| Some(Outcome::by_count(x, o, reason));
        if self.empty_bb() == 0 {
            return by_count(EndReason::BoardFull);
        }
        if x == 0 || o == 0 {
            return by_count(EndReason::NoPieces);
        }
        let mover_can = self.can_move(self.side);
        if !mover_can && !self.can_move(self.side.opponent()) {
            return by_count(EndReason::NeitherCanMove);
        }
        if self.jumps >= JUMP_LIMIT {
            return by_count(EndReason::MoveLimit);
        }
        if !mover_can && self.rules.no_move == NoMoveRule::Lose {
            return Some(Outcome::win(self.side.opponent(), EndReason::NoLegalMove));
        }
        None
    }

    /// Zobrist hash of pieces, gaps and side to move (not the counters).
    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<AtaxxMove, GameError> {
        text.parse()
    }

    /// Only a clone: it is the only move that adds a piece, and no move
    /// removes one, so no position before a clone (fewer pieces) can occur
    /// after it. Jumps keep the piece count, and their flips can be flipped
    /// back: from `7/7/7/7/6o/7/x2o3 x 0 1`, `a1c2 g3e2 c2a1 e2g3` flips d1
    /// twice and returns to the start. A pass changes only the side to move,
    /// and the opponent's jumps can bring the position back.
    fn is_irreversible(&self, mv: AtaxxMove) -> bool {
        matches!(mv, AtaxxMove::Clone { .. })
    }

    /// By the piece count, as endings 1–5 (the rules file: "In cases 1–5
    /// the side with more pieces wins; equal counts are a draw", case 4
    /// being the third occurrence), and so is the online ply cap.
    fn adjudicate(&self, reason: EndReason) -> Outcome {
        Outcome::by_count(self.count(Side::First), self.count(Side::Second), reason)
    }
}

impl Default for Ataxx {
    /// The start position under the default (pass) rules.
    fn default() -> Self {
        Ataxx::start(&AtaxxRules::default())
    }
}
