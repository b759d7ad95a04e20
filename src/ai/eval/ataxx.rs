//! Territory Duel evaluation.
//!
//! On the usual open board Strong and Master score with the network
//! ([`super::nnue`], kept up to date move by move in the search), and the
//! lower levels with the learned pattern tables ([`super::patterns`]),
//! which they were calibrated with. A board with gaps (a setup neither was
//! trained on) is scored by hand: material (every game ending is decided
//! by the piece count) and, more lightly, *safe* pieces: a piece with no
//! empty neighbour cannot be flipped by the next move, so it is worth more
//! than an exposed one.
//! Ordering puts moves that flip many pieces first, then clones (which add
//! a piece and leave no hole) before jumps.

use super::{nnue, patterns, Evaluate, TACTICAL};
use crate::ai::engine::EngineGame;
use crate::games::ataxx::board::{singles, FULL, NEIGHBOURS};
use crate::games::ataxx::uai::UaiAtaxx;
use crate::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules};
use crate::games::{Game, Side};

const PIECE: i32 = 100;
const SAFE: i32 = 8;

impl Ataxx {
    /// The hand-written score of a board with gaps.
    fn hand_score(&self) -> i32 {
        let us = self.side_to_move();
        let mine = self.pieces_bb(us);
        let theirs = self.pieces_bb(us.opponent());
        let empty = FULL & !(mine | theirs | self.gaps_bb());
        let exposed = singles(empty);
        let material = mine.count_ones() as i32 - theirs.count_ones() as i32;
        let safe = (mine & !exposed).count_ones() as i32 - (theirs & !exposed).count_ones() as i32;
        PIECE * material + SAFE * safe
    }

    /// The pattern tables' score (open boards).
    fn table_score(&self) -> i32 {
        let us = self.side_to_move();
        patterns::score(&patterns::features(
            self.pieces_bb(us),
            self.pieces_bb(us.opponent()),
        ))
    }

    /// Whether the network scores this board: an open board, and the net
    /// not turned off (`--net none`).
    #[inline]
    fn uses_net(&self) -> bool {
        self.gaps_bb() == 0 && nnue::enabled()
    }

    /// The side to move as the network's perspective index.
    #[inline]
    fn stm_view(&self) -> usize {
        match self.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

impl Evaluate for Ataxx {
    type Acc = nnue::Accumulator;

    /// The network's score from scratch (the search reads the same number
    /// from its accumulators, [`Evaluate::evaluate_acc`]).
    fn evaluate(&self) -> i32 {
        if self.gaps_bb() != 0 {
            self.hand_score()
        } else if self.uses_net() {
            nnue::evaluate_board(
                self.pieces_bb(Side::First),
                self.pieces_bb(Side::Second),
                self.stm_view(),
            )
        } else {
            self.table_score()
        }
    }

    /// The pattern tables: Beginner, Casual and Intermediate keep the
    /// evaluation their margins and mistakes were calibrated with.
    fn evaluate_plain(&self) -> i32 {
        if self.gaps_bb() != 0 {
            self.hand_score()
        } else {
            self.table_score()
        }
    }

    #[inline]
    fn acc_refresh(&self, acc: &mut nnue::Accumulator) {
        if self.uses_net() {
            nnue::refresh(
                self.pieces_bb(Side::First),
                self.pieces_bb(Side::Second),
                acc,
            );
        }
    }

    #[inline]
    fn acc_update(
        &self,
        parent: &Ataxx,
        parent_acc: &nnue::Accumulator,
        acc: &mut nnue::Accumulator,
    ) {
        if self.uses_net() {
            nnue::update(
                parent.pieces_bb(Side::First),
                parent.pieces_bb(Side::Second),
                parent_acc,
                self.pieces_bb(Side::First),
                self.pieces_bb(Side::Second),
                acc,
            );
        }
    }

    #[inline]
    fn evaluate_acc(&self, acc: &nnue::Accumulator) -> i32 {
        if self.uses_net() {
            nnue::evaluate(
                acc,
                self.stm_view(),
                (self.pieces_bb(Side::First) | self.pieces_bb(Side::Second)).count_ones(),
            )
        } else {
            self.evaluate()
        }
    }

    fn order_hint(&self, mv: AtaxxMove) -> i32 {
        let theirs = self.pieces_bb(self.side_to_move().opponent());
        match mv {
            AtaxxMove::Pass => 0,
            AtaxxMove::Clone { to } => {
                let flips = (NEIGHBOURS[to as usize & 63] & theirs).count_ones() as i32;
                TACTICAL * flips + 20
            }
            AtaxxMove::Jump { to, .. } => {
                let flips = (NEIGHBOURS[to as usize & 63] & theirs).count_ones() as i32;
                TACTICAL * flips - 20
            }
        }
    }

    const LATE_QUIET: [usize; 3] = [4, 8, 16];

    const LOG_REDUCTIONS: Option<(i32, i32)> = Some((80, 40));

    const FUTILITY: Option<(i32, i32, i32)> = Some((48, 160, 80));

    const IIR_DEPTH: Option<i32> = Some(4);

    const SINGULAR: Option<(i32, i32)> = Some((6, 3));

    fn move_key(mv: AtaxxMove) -> usize {
        match mv {
            AtaxxMove::Pass => 4095,
            AtaxxMove::Clone { to } => (to & 63) as usize,
            AtaxxMove::Jump { from, to } => 64 + (from & 63) as usize * 49 + (to & 63) as usize,
        }
    }
}

/// The UAI session's game evaluates and orders as the board does.
impl Evaluate for UaiAtaxx {
    type Acc = nnue::Accumulator;

    #[inline]
    fn evaluate(&self) -> i32 {
        self.board().evaluate()
    }

    #[inline]
    fn evaluate_plain(&self) -> i32 {
        self.board().evaluate_plain()
    }

    #[inline]
    fn acc_refresh(&self, acc: &mut nnue::Accumulator) {
        self.board().acc_refresh(acc)
    }

    #[inline]
    fn acc_update(
        &self,
        parent: &UaiAtaxx,
        parent_acc: &nnue::Accumulator,
        acc: &mut nnue::Accumulator,
    ) {
        self.board().acc_update(parent.board(), parent_acc, acc)
    }

    #[inline]
    fn evaluate_acc(&self, acc: &nnue::Accumulator) -> i32 {
        self.board().evaluate_acc(acc)
    }

    #[inline]
    fn order_hint(&self, mv: AtaxxMove) -> i32 {
        self.board().order_hint(mv)
    }

    #[inline]
    fn move_key(mv: AtaxxMove) -> usize {
        Ataxx::move_key(mv)
    }

    const LATE_QUIET: [usize; 3] = Ataxx::LATE_QUIET;

    const LOG_REDUCTIONS: Option<(i32, i32)> = Ataxx::LOG_REDUCTIONS;

    const FUTILITY: Option<(i32, i32, i32)> = Ataxx::FUTILITY;

    const IIR_DEPTH: Option<i32> = Ataxx::IIR_DEPTH;

    const SINGULAR: Option<(i32, i32)> = Ataxx::SINGULAR;
}

/// Territory Duel for the engine tools: UAI, the pattern tables.
impl EngineGame for Ataxx {
    type Speaks = UaiAtaxx;
    type Tables = crate::ai::train::AtaxxTables;
    const DATAGEN_RANDOM_PLIES: usize = 4;
    const BENCH_DEPTH: u32 = 10;

    fn bench_positions() -> Vec<Ataxx> {
        [
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "7/7/2xxo2/2xoo2/2xxo2/7/7 x 0 1",
            "xxo4/xoo4/x2o3/7/3x3/4oo1/o4xx o 0 1",
            "7/1ox4/1oxx3/2oxo2/3ox2/4xo1/7 x 0 1",
        ]
        .iter()
        .map(|t| Ataxx::from_text(t, &AtaxxRules::default()).expect("bench positions are valid"))
        .collect()
    }
    fn hand_weights() -> Vec<(i16, i16)> {
        patterns::hand_weights()
    }
    fn read_weights_file(bytes: &[u8]) -> Result<Vec<(i16, i16)>, String> {
        patterns::read_weights_file(bytes)
    }
    fn weights_file(weights: &[(i16, i16)]) -> Vec<u8> {
        patterns::weights_file(weights)
    }
    fn use_weights(weights: &[(i16, i16)]) -> Result<(), String> {
        patterns::use_weights(weights)
    }
}
