//! The validated Mill position: its state, what it tells (pieces, phase,
//! mills), its transitions (placing, sliding, removing, the end of a turn
//! and of the game) and the [`Game`] impl. Move generation is `movegen.rs`,
//! the FEN `fen.rs`, the hash `zobrist.rs` (the way `ataxx/` is split).

use super::board::{
    side_bit, ALL_POINTS, LINES_THROUGH, LINE_MASKS, LINE_MASKS_THROUGH, NO_LINE, POINTS,
};
use super::rules::{BoardFull, MillInPlacing, MillRules, Preset, Stalemate};
use super::{lines, MillMove, Point};
use crate::games::{EndReason, Game, GameError, Outcome, Side};

/// The stage of the game, as the UI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    /// Pieces are still being placed from hand (Lasker: or slid).
    Placing,
    /// All pieces are placed; pieces slide (or fly).
    Moving,
    /// The game is over by the position alone (see [`Game::outcome`]).
    Over,
}

/// A Mill position under its rules: pieces as bit masks (bit `p` = point
/// `p`), pieces in hand, pending removals, marked points and counters.
///
/// Reached only through [`Game::start`], [`Game::from_text`] and legal
/// moves, so its fields are always consistent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mill {
    pub(super) rules: MillRules,
    /// Pieces on the board per side (`Side::index`).
    pub(super) pieces: [u32; 2],
    /// Points marked by a delayed removal (mark-and-delay rule).
    pub(super) marked: u32,
    pub(super) in_hand: [u8; 2],
    pub(super) side: Side,
    /// Still in the placing phase (some piece in hand, or the removal that
    /// follows the last placement is pending).
    pub(super) placing: bool,
    /// Removals the side to move still owes.
    pub(super) must_remove: u8,
    /// One-time mills: per side, the points of every mill formed so far
    /// (Sanmill's `formedMillsBB`).
    pub(super) formed: [u32; 2],
    /// Plies since the last removal or placement (n-move rule).
    pub(super) rule50: u32,
    /// Full-move number: starts at 1, grows when Black's turn ends.
    pub(super) fullmove: u32,
    pub(super) outcome: Option<Outcome>,
}

impl Mill {
    pub(super) fn line_count(&self) -> usize {
        lines(self.rules.diagonal_lines).len()
    }

    pub(super) fn empty(&self) -> u32 {
        ALL_POINTS & !(self.pieces[0] | self.pieces[1] | self.marked)
    }

    pub(super) fn total(&self, side: Side) -> u32 {
        self.in_hand[side.index()] as u32 + self.pieces[side.index()].count_ones()
    }

    /// The side whose piece stands on `p`, if any (`Side::First` = White).
    pub fn piece_at(&self, p: Point) -> Option<Side> {
        let b = if (p as usize) < POINTS { 1u32 << p } else { 0 };
        if self.pieces[0] & b != 0 {
            Some(Side::First)
        } else if self.pieces[1] & b != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// The points of `side`'s pieces as a bit mask (bit `p` = point `p`),
    /// for evaluation code that works on whole-board masks.
    pub fn pieces_bb(&self, side: Side) -> u32 {
        self.pieces[side.index()]
    }

    /// Whether `p` is marked by a delayed removal (no placing on it until
    /// placing ends).
    pub fn is_marked(&self, p: Point) -> bool {
        (p as usize) < POINTS && self.marked & (1 << p) != 0
    }

    /// Pieces `side` still has in hand.
    pub fn in_hand(&self, side: Side) -> u8 {
        self.in_hand[side.index()]
    }

    /// Pieces `side` has on the board.
    pub fn on_board(&self, side: Side) -> u8 {
        self.pieces[side.index()].count_ones() as u8
    }

    /// Pieces of `side` taken off so far (`pieces - in hand - on board`).
    pub fn removed(&self, side: Side) -> u8 {
        let left = self.total(side);
        (self.rules.pieces as u32).saturating_sub(left) as u8
    }

    /// The stage of the game.
    pub fn phase(&self) -> Phase {
        if self.outcome.is_some() {
            Phase::Over
        } else if self.placing {
            Phase::Placing
        } else {
            Phase::Moving
        }
    }

    /// Removals the side to move still owes (0 = an ordinary move is due).
    pub fn must_remove(&self) -> u8 {
        self.must_remove
    }

    /// Plies since the last removal or placement (the n-move counter).
    pub fn plies_without_removal(&self) -> u32 {
        self.rule50
    }

    /// The full-move number (1 at the start, +1 when Black's turn ends).
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Whether `side` may fly: flying allowed, nothing in hand, and at most
    /// `fly_at` pieces on the board.
    pub fn can_fly(&self, side: Side) -> bool {
        self.rules.may_fly
            && self.in_hand[side.index()] == 0
            && self.on_board(side) <= self.rules.fly_at
    }

    /// The lines through `p` that are full of `mask`'s pieces, as line indices.
    fn full_lines_at(&self, p: Point, mask: u32) -> impl Iterator<Item = usize> + '_ {
        let n = self.line_count();
        let through = LINES_THROUGH
            .get(p as usize)
            .copied()
            .unwrap_or([u8::MAX; 3]);
        through
            .into_iter()
            .map(usize::from)
            .filter(move |&l| l < n && LINE_MASKS[l] & mask == LINE_MASKS[l])
    }

    /// The mills of the owner of `p` that contain `p` (for highlighting);
    /// empty if `p` is empty.
    pub fn mills_at(&self, p: Point) -> Vec<[Point; 3]> {
        match self.piece_at(p) {
            None => Vec::new(),
            Some(s) => self
                .full_lines_at(p, self.pieces[s.index()])
                .map(|l| lines(true)[l])
                .collect(),
        }
    }

    /// Points of `mask` that stand in a mill of `mask`.
    pub(super) fn in_mills(&self, mask: u32) -> u32 {
        LINE_MASKS[..self.line_count()]
            .iter()
            .filter(|&&m| m & mask == m)
            .fold(0, |acc, &m| acc | m)
    }

    /// Endings that need no move generation: too few pieces, the n-move
    /// rule, a full board.
    fn static_outcome(&self) -> Option<Outcome> {
        let lose = self.rules.lose_below as u32;
        for s in [self.side, self.side.opponent()] {
            if self.total(s) < lose {
                return Some(Outcome::win(s.opponent(), EndReason::TooFewPieces));
            }
        }
        if self.must_remove > 0 {
            return None;
        }
        if self.rules.n_move_rule > 0 && self.rule50 >= self.rules.n_move_rule {
            return Some(Outcome::draw(EndReason::MoveLimit));
        }
        if (self.pieces[0] | self.pieces[1]).count_ones() as usize >= POINTS {
            return Some(self.board_full_outcome());
        }
        None
    }

    fn board_full_outcome(&self) -> Outcome {
        match self.rules.board_full {
            BoardFull::FirstPlayerLoses => Outcome::win(Side::Second, EndReason::BoardFull),
            BoardFull::Draw => Outcome::draw(EndReason::BoardFull),
        }
    }

    fn set_side(&mut self, next: Side) {
        if self.side == Side::Second && next == Side::First {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = next;
    }

    /// Decides whether the game is over now; under `stalemate = turn
    /// passes` a blocked side to move hands the turn over.
    #[inline]
    pub(super) fn settle(&mut self) {
        self.outcome = self.static_outcome();
        if self.outcome.is_some() || self.has_any_move() {
            return;
        }
        if self.must_remove > 0 {
            // Nothing left to remove: the owed removals lapse.
            self.hand_over();
            // No removal is owed now, so this settles without coming back here.
            self.outcome = self.static_outcome();
            if self.outcome.is_some() || self.has_any_move() {
                return;
            }
        }
        self.settle_blocked();
    }

    /// [`Mill::settle`] for a side to move that owes no removal and has no
    /// move (rare: kept out of the hot path).
    #[cold]
    fn settle_blocked(&mut self) {
        if self.may_place() {
            // Only reachable with more pieces than points: treat as full.
            self.outcome = Some(self.board_full_outcome());
            return;
        }
        match self.rules.stalemate {
            Stalemate::BlockedSideLoses => {
                self.outcome = Some(Outcome::win(self.side.opponent(), EndReason::NoLegalMove));
            }
            Stalemate::TurnPasses => {
                self.set_side(self.side.opponent());
                if !self.has_any_move() {
                    self.outcome = Some(Outcome::draw(EndReason::NeitherCanMove));
                }
            }
        }
    }

    /// The turn is over (no removal owed): end placing if both hands are
    /// empty, hand the move over, and check for the end of the game.
    fn end_turn(&mut self) {
        self.hand_over();
        self.settle();
    }

    /// The turn-ending part of [`Mill::end_turn`], without the end check.
    fn hand_over(&mut self) {
        self.must_remove = 0;
        if self.placing && self.in_hand == [0, 0] {
            self.placing = false;
            self.marked = 0;
            let first = if self.rules.defender_first {
                Side::Second
            } else {
                Side::First
            };
            self.set_side(first);
        } else {
            self.set_side(self.side.opponent());
        }
    }

    /// After a placement or slide onto `to`: count new mills, owe removals.
    fn after_move(&mut self, to: Point) {
        let s = self.side.index();
        let mut new_mills = 0u8;
        let mut formed = self.formed[s];
        let own = self.pieces[s];
        let through = LINE_MASKS_THROUGH[self.rules.diagonal_lines as usize]
            .get(to as usize)
            .copied()
            .unwrap_or([NO_LINE; 3]);
        for m in through {
            if m & own != m {
                continue;
            }
            if self.rules.one_time_mill {
                if formed & m == m {
                    continue;
                }
                formed |= m;
            }
            new_mills += 1;
        }
        self.formed[s] = formed;
        let owed = if self.rules.remove_multiple {
            new_mills
        } else {
            new_mills.min(1)
        };
        let opp_on_board = self.on_board(self.side.opponent());
        self.must_remove = owed.min(opp_on_board);
        if self.must_remove == 0 {
            self.end_turn();
        } else {
            self.settle();
        }
    }

    fn remove(&mut self, p: Point) {
        let opp = self.side.opponent().index();
        let b = side_bit(p);
        self.pieces[opp] &= !b;
        if self.placing && self.rules.mill_in_placing == MillInPlacing::MarkAndDelay {
            self.marked |= b & ALL_POINTS;
        }
        self.rule50 = 0;
        self.must_remove = self.must_remove.saturating_sub(1);
        if self.total(self.side.opponent()) < self.rules.lose_below as u32 {
            self.must_remove = 0;
            self.outcome = Some(Outcome::win(self.side, EndReason::TooFewPieces));
            return;
        }
        if self.must_remove > 0 && self.pieces[opp] != 0 {
            self.settle();
        } else {
            self.end_turn();
        }
    }
}

impl Game for Mill {
    type Move = MillMove;
    type Rules = MillRules;
    /// Sanmill counts a finished game as a leaf in perft.
    const PERFT_FINISHED_IS_LEAF: bool = true;

    fn start(rules: &MillRules) -> Self {
        let mut m = Mill {
            rules: *rules,
            pieces: [0, 0],
            marked: 0,
            in_hand: [rules.pieces; 2],
            side: Side::First,
            placing: rules.pieces > 0,
            must_remove: 0,
            formed: [0, 0],
            rule50: 0,
            fullmove: 1,
            outcome: None,
        };
        m.settle();
        m
    }

    /// Reads Sanmill's FEN (see `fen.rs`): `board side phase action wOn wHand bOn bHand
    /// wRemove bRemove wMillFrom wMillTo bMillFrom bMillTo formedMills
    /// rule50 fullmove`. The four last-mill squares are accepted (0, -1 or
    /// 8..31) and ignored (no rule here uses them) and written as 0. Phase
    /// `r` (ready) is accepted for the untouched start; `p` is written.
    fn from_text(text: &str, rules: &MillRules) -> Result<Self, GameError> {
        Mill::from_fen(text, rules)
    }

    fn to_text(&self) -> String {
        self.fen()
    }

    fn rules(&self) -> &MillRules {
        &self.rules
    }

    fn check_rules(rules: &MillRules) -> Result<(), GameError> {
        rules.validate()
    }

    /// Every [`Preset`] by its slug.
    fn presets() -> Vec<(&'static str, MillRules)> {
        Preset::ALL.iter().map(|p| (p.slug(), p.rules())).collect()
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn why_illegal(&self, mv: MillMove) -> crate::games::Illegal {
        crate::games::Illegal::Mill(self.reason(mv))
    }

    fn legal_moves_into(&self, out: &mut Vec<MillMove>) {
        self.generate(out);
    }

    fn count_legal_moves(&self, _scratch: &mut Vec<MillMove>) -> u64 {
        self.count_moves()
    }

    fn play_unchecked(&mut self, mv: MillMove) {
        let s = self.side.index();
        match mv {
            MillMove::Place(p) => {
                self.pieces[s] |= side_bit(p) & ALL_POINTS;
                self.in_hand[s] = self.in_hand[s].saturating_sub(1);
                self.rule50 = 0;
                self.after_move(p);
            }
            MillMove::Slide { from, to } => {
                self.pieces[s] = (self.pieces[s] & !side_bit(from)) | (side_bit(to) & ALL_POINTS);
                self.rule50 = self.rule50.saturating_add(1);
                self.after_move(to);
            }
            MillMove::Remove(p) => self.remove(p),
        }
    }

    /// Checked play with a message that says why a move is illegal.
    fn play(&mut self, mv: MillMove) -> Result<(), GameError> {
        if self.outcome.is_some() {
            return Err(GameError::GameOver);
        }
        if !self.legal_moves().contains(&mv) {
            return Err(GameError::IllegalMove(self.why_illegal(mv)));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Pieces, marks, side, counts in hand, pending removals, phase, formed
    /// mills and whether the game is over. The n-move counter and the move
    /// number are left out so that repeated positions hash alike.
    fn hash(&self) -> u64 {
        self.zobrist()
    }

    fn parse_move(&self, text: &str) -> Result<MillMove, GameError> {
        text.parse()
    }

    /// Placements and removals can never be undone; slides can.
    fn is_irreversible(&self, mv: MillMove) -> bool {
        !matches!(mv, MillMove::Slide { .. })
    }

    fn repetition_ends_game(&self) -> bool {
        self.rules.threefold_repetition
    }

    /// A draw: the third occurrence as Sanmill has it, and the online ply
    /// cap (the rules file: the count decides nothing in Mill).
    fn adjudicate(&self, reason: EndReason) -> Outcome {
        Outcome::draw(reason)
    }
}
