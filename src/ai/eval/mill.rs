//! Mill evaluation.
//!
//! Rewards material first (pieces on the board plus in hand: the game is
//! lost below three), a removal the mover is owed (a piece about to go),
//! then *open twos* (two own pieces and an empty third point on a line: a
//! mill threat), closed mills (they can be reopened to strike again) and
//! mobility, while placing as well as sliding (a blocked side loses, and
//! the blocking is done while placing; a flying side has no mobility term).
//! The terms are linear tables with a placing and a moving weight each;
//! the committed weights (`mill-tables.bin`) are learned from self-play
//! and held near the hand-written values by `engine train mill --prior`.
//! Strong and Master play with them; the lower levels play with the
//! hand-written weights ([`Evaluate::evaluate_plain`]), whose plain value
//! of a piece keeps their random choice from giving one away (docs/engine.md,
//! "How the evaluation weights were made"). Ordering puts removals
//! first (preferring pieces that make an open two), then moves that close
//! a mill, then moves that block an opponent's open two.

use super::{tables, Evaluate, Horizon, TACTICAL};
use crate::ai::engine::EngineGame;
use crate::games::mill::board::{ADJ_MASKS, LINES_THROUGH, LINE_MASKS};
use crate::games::mill::{Mill, MillMove, MillRules};
use crate::games::{Game, Side};

const PIECE: i32 = 100;
const OWED_REMOVAL: i32 = 90;
const OPEN_TWO: i32 = 18;
const MILL: i32 = 12;
const MOBILITY_WEIGHT: i32 = 4;

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

/// The side's terms other than material, added to `f` from `base` on
/// (`base` is [`MINE`] or [`THEIRS`]): open twos, mills, double threats
/// (an empty point that would close two of its lines), whether it has an
/// open two at all, and, for a side
/// that cannot fly, mobility (free neighbouring points, counted while
/// placing too: a side hemmed in when its last piece is placed is lost as
/// soon as the sliding starts, and the placing is where the hemming is
/// done) and blocked pieces; the pieces on points of each degree; whether
/// it can fly.
fn side_terms(pos: &Mill, side: Side, empty: u32, f: &mut Features, base: usize) {
    let own = pos.pieces_bb(side);
    let diagonal = pos.rules().diagonal_lines as usize;
    let (mut seen, mut double) = (0u32, 0u32);
    for &m in &LINE_MASKS[..line_count(pos)] {
        let mine = (own & m).count_ones();
        if mine == 3 {
            f.values[base + MILLS] += 1;
        } else if mine == 2 && (empty & m).count_ones() == 1 {
            f.values[base + OPEN_TWOS] += 1;
            let point = empty & m;
            double |= seen & point;
            seen |= point;
        }
    }
    f.values[base + DOUBLES] += double.count_ones() as i16;
    f.values[base + ANY_OPEN_TWO] = (f.values[base + OPEN_TWOS] > 0) as i16;
    if pos.can_fly(side) {
        f.values[base + FLIES] = 1;
    } else {
        let adj = &ADJ_MASKS[diagonal];
        let mut rest = own;
        let (mut mobility, mut blocked) = (0, 0);
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let free = (adj[p] & empty).count_ones() as i16;
            mobility += free;
            blocked += (free == 0) as i16;
        }
        f.values[base + MOBILITY] = mobility;
        f.values[base + BLOCKED] = blocked;
    }
    for (k, mask) in DEGREE_MASKS[diagonal].iter().enumerate() {
        f.values[base + DEGREE + k] = (own & mask).count_ones() as i16;
    }
}

/// The points with at most two, three, and four or more neighbours,
/// without and with the diagonal lines.
const DEGREE_MASKS: [[u32; 3]; 2] = {
    let mut out = [[0u32; 3]; 2];
    let mut d = 0;
    while d < 2 {
        let mut p = 0;
        while p < 24 {
            let n = ADJ_MASKS[d][p].count_ones();
            let k = if n <= 2 {
                0
            } else if n == 3 {
                1
            } else {
                2
            };
            out[d][k] |= 1 << p;
            p += 1;
        }
        d += 1;
    }
    out
};

/// Per side, from [`MINE`] or [`THEIRS`]: pieces (on the board and in
/// hand), open twos, closed mills, double threats, mobility, blocked
/// pieces, whether it flies, pieces on points of degree ≤ 2, 3, ≥ 4, and
/// whether it has an open two.
const PIECES: usize = 0;
const OPEN_TWOS: usize = 1;
const MILLS: usize = 2;
const DOUBLES: usize = 3;
const MOBILITY: usize = 4;
const BLOCKED: usize = 5;
const FLIES: usize = 6;
const DEGREE: usize = 7;
/// Whether the side has an open two at all: the mover can close only one
/// mill a move, so its second open two is worth less than its first.
const ANY_OPEN_TWO: usize = DEGREE + 3;
const PER_SIDE: usize = ANY_OPEN_TWO + 1;
/// The side to move's terms, then the opponent's.
pub const MINE: usize = 0;
pub const THEIRS: usize = PER_SIDE;
/// Removals the side to move still owes.
pub const OWED: usize = 2 * PER_SIDE;
/// Having the move.
pub const TEMPO: usize = OWED + 1;
/// Weight pairs in the tables.
pub const FEATURES: usize = TEMPO + 1;

/// The weights file's first bytes.
pub const MAGIC: &[u8; 8] = b"MLTRM001";
/// The weights file's size.
pub const FILE_BYTES: usize = MAGIC.len() + FEATURES * 4;

const FILE: &[u8] = include_bytes!("mill-tables.bin");
static WEIGHTS: [[i16; 2]; FEATURES] = tables::pairs(FILE, MAGIC.len());
/// The hand-written weights as a table ([`hand_weights`]): the plain
/// evaluation the lower levels play with.
static HAND: [[i16; 2]; FEATURES] = {
    let mut w = [[0i16; 2]; FEATURES];
    let terms = [
        (PIECES, PIECE),
        (OPEN_TWOS, OPEN_TWO),
        (MILLS, MILL),
        (MOBILITY, MOBILITY_WEIGHT),
    ];
    let mut i = 0;
    while i < terms.len() {
        let (term, v) = terms[i];
        w[MINE + term] = [v as i16, v as i16];
        w[THEIRS + term] = [-v as i16, -v as i16];
        i += 1;
    }
    w[OWED] = [OWED_REMOVAL as i16, OWED_REMOVAL as i16];
    w
};
/// Weights read at run time (`engine datagen|uci mill --eval`), as in Stones!.
static RUNTIME: tables::Runtime = tables::Runtime::new();

/// What the evaluation counts in a position, from the side to move, and
/// how much of the placing is left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub values: [i16; FEATURES],
    /// Pieces still in both hands.
    in_hand: u8,
    /// Pieces both sides start with in hand.
    start: u8,
}

impl Features {
    /// The share of the opening (placing) weights: 1 at the start, 0 once
    /// every piece is placed.
    pub fn opening_share(&self) -> f64 {
        self.in_hand as f64 / self.start.max(1) as f64
    }
}

/// The features of `pos`.
#[inline]
pub fn features(pos: &Mill) -> Features {
    let us = pos.side_to_move();
    let them = us.opponent();
    let e = empty(pos);
    let mut f = Features {
        values: [0; FEATURES],
        in_hand: pos.in_hand(us) + pos.in_hand(them),
        start: pos.rules().pieces.saturating_mul(2),
    };
    for (side, base) in [(us, MINE), (them, THEIRS)] {
        f.values[base + PIECES] = (pos.on_board(side) + pos.in_hand(side)) as i16;
        side_terms(pos, side, e, &mut f, base);
    }
    f.values[OWED] = pos.must_remove() as i16;
    f.values[TEMPO] = 1;
    f
}

/// The score of `f` for the side to move with `weights`.
#[inline]
fn score_with(weights: &[[i16; 2]], f: &Features) -> i32 {
    let (mut open, mut end) = (0i32, 0i32);
    for (v, [o, x]) in f.values.iter().zip(weights) {
        open += *v as i32 * *o as i32;
        end += *v as i32 * *x as i32;
    }
    let (h, n) = (f.in_hand as i32, (f.start as i32).max(1));
    (open * h + end * (n - h)) / n
}

/// Makes `weights` the process's weights instead of the built-in ones.
pub fn use_weights(weights: &[(i16, i16)]) -> Result<(), String> {
    RUNTIME.set(weights, FEATURES)
}

/// Reads a weights file (as [`weights_file`] writes it).
pub fn read_weights_file(bytes: &[u8]) -> Result<Vec<(i16, i16)>, String> {
    tables::read(bytes, MAGIC, FEATURES, "Mill")
}

/// Writes a weights file from `(opening, ending)` pairs.
pub fn weights_file(weights: &[(i16, i16)]) -> Vec<u8> {
    assert_eq!(weights.len(), FEATURES, "one pair per feature");
    tables::write(MAGIC, weights)
}

/// The score of `f` for the side to move with the built-in weights (or
/// those of [`use_weights`]).
pub fn score(f: &Features) -> i32 {
    match RUNTIME.get() {
        Some(w) => score_with(w, f),
        None => score_with(&WEIGHTS, f),
    }
}

/// The hand-written evaluation as tables, the same in both phases: a piece
/// [`PIECE`], an owed removal [`OWED_REMOVAL`], an open two [`OPEN_TWO`], a
/// mill [`MILL`], a free neighbouring point [`MOBILITY_WEIGHT`]; the
/// opponent's terms the same with the sign turned. `engine train mill`
/// starts from them.
pub fn hand_weights() -> Vec<(i16, i16)> {
    HAND.iter().map(|&[o, e]| (o, e)).collect()
}

/// Whether line mask `m` holds two of `pieces` and one empty point.
fn open_two(pieces: u32, empty: u32, m: u32) -> bool {
    (pieces & m).count_ones() == 2 && (empty & m).count_ones() == 1
}

/// Whether placing or sliding with `mv` closes a mill of the side to move.
fn closes_own_mill(pos: &Mill, mv: MillMove) -> bool {
    let own = pos.pieces_bb(pos.side_to_move());
    match mv {
        MillMove::Place(to) => closes_line(pos, own, to),
        MillMove::Slide { from, to } => closes_line(pos, own & !(1 << from), to),
        MillMove::Remove(_) => false,
    }
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
    type Acc = ();

    fn evaluate(&self) -> i32 {
        score(&features(self))
    }

    /// The hand-written evaluation: the learned tables give up a piece for
    /// mobility or open twos where only a deep search makes that sound
    /// (with them, blocking an open mill scored only 18 above the next
    /// move at 4 plies), so the lower levels, which pick among near-equal
    /// moves, play with this one.
    fn evaluate_plain(&self) -> i32 {
        score_with(&HAND, &features(self))
    }

    fn order_hint(&self, mv: MillMove) -> i32 {
        let theirs = self.pieces_bb(self.side_to_move().opponent());
        match mv {
            MillMove::Remove(p) => {
                // Prefer breaking an opponent's open two.
                let e = empty(self);
                let n = line_count(self);
                let threat = LINES_THROUGH[p as usize % 24]
                    .iter()
                    .filter(|&&l| (l as usize) < n)
                    .any(|&l| open_two(theirs, e, LINE_MASKS[l as usize]));
                5 * TACTICAL + if threat { 50 } else { 0 }
            }
            MillMove::Place(to) | MillMove::Slide { to, .. } => {
                if closes_own_mill(self, mv) {
                    4 * TACTICAL
                } else if closes_line(self, theirs, to) {
                    2 * TACTICAL
                } else {
                    0
                }
            }
        }
    }

    /// A removal that is owed (the only legal moves), or the moves that
    /// close a mill of the side to move: the material swings a search
    /// that stops there would not see.
    fn horizon_moves(&self, out: &mut Vec<MillMove>) -> Horizon {
        out.clear();
        if self.must_remove() > 0 {
            self.legal_moves_into(out);
            return Horizon::Forced;
        }
        let own = self.pieces_bb(self.side_to_move());
        let e = empty(self);
        let open = LINE_MASKS[..line_count(self)]
            .iter()
            .any(|&m| open_two(own, e, m));
        if !open {
            return Horizon::Quiet;
        }
        self.legal_moves_into(out);
        out.retain(|&mv| closes_own_mill(self, mv));
        if out.is_empty() {
            Horizon::Quiet
        } else {
            Horizon::Noisy
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

/// Mill for the engine tools: UCI in Sanmill's dialect, the term tables.
impl EngineGame for Mill {
    type Speaks = Mill;
    type Tables = crate::ai::train::MillTables;
    const DATAGEN_RANDOM_PLIES: usize = 6;
    const BENCH_DEPTH: u32 = 11;

    /// The start and two placing-phase positions (the second after a
    /// removal).
    fn bench_positions() -> Vec<Mill> {
        let rules = MillRules::default();
        let mut out = vec![Mill::start(&rules)];
        for line in ["d6 f4 d2 b4 b6 f6 a4 a1", "a7 d1 d7 g1 g7 xd1 a1 b2"] {
            let mut pos = Mill::start(&rules);
            for text in line.split_whitespace() {
                let mv = pos.parse_move(text).expect("bench moves are valid");
                pos.play(mv).expect("bench moves are legal");
            }
            out.push(pos);
        }
        out
    }
    fn hand_weights() -> Vec<(i16, i16)> {
        hand_weights()
    }
    fn read_weights_file(bytes: &[u8]) -> Result<Vec<(i16, i16)>, String> {
        read_weights_file(bytes)
    }
    fn weights_file(weights: &[(i16, i16)]) -> Vec<u8> {
        weights_file(weights)
    }
    fn use_weights(weights: &[(i16, i16)]) -> Result<(), String> {
        use_weights(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::SplitMix64;
    use crate::games::mill::Preset;

    /// The evaluation written by hand before the tables: material, an owed
    /// removal, and each side's open twos, mills and (unless it flies)
    /// mobility.
    fn hand_score(pos: &Mill) -> i32 {
        let e = empty(pos);
        let shape = |side: Side| {
            let own = pos.pieces_bb(side);
            let mut score = 0;
            for &m in &LINE_MASKS[..line_count(pos)] {
                let mine = (own & m).count_ones();
                if mine == 3 {
                    score += MILL;
                } else if mine == 2 && (e & m).count_ones() == 1 {
                    score += OPEN_TWO;
                }
            }
            if !pos.can_fly(side) {
                let adj = &ADJ_MASKS[pos.rules().diagonal_lines as usize];
                let mut rest = own;
                while rest != 0 {
                    let p = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    score += MOBILITY_WEIGHT * (adj[p] & e).count_ones() as i32;
                }
            }
            score
        };
        let us = pos.side_to_move();
        let them = us.opponent();
        let total = |s: Side| pos.on_board(s) as i32 + pos.in_hand(s) as i32;
        PIECE * (total(us) - total(them)) + OWED_REMOVAL * pos.must_remove() as i32 + shape(us)
            - shape(them)
    }

    #[test]
    fn the_hand_weights_are_the_hand_written_evaluation() {
        let hand: Vec<[i16; 2]> = hand_weights().into_iter().map(|(o, e)| [o, e]).collect();
        let mut rng = SplitMix64::new(5);
        let mut checked = 0;
        for preset in Preset::ALL {
            for _ in 0..10 {
                let mut pos = Mill::start(&preset.rules());
                for _ in 0..300 {
                    assert_eq!(
                        score_with(&hand, &features(&pos)),
                        hand_score(&pos),
                        "{preset:?} {}",
                        pos.to_text()
                    );
                    checked += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    /// Self-play positions the weights were not trained on (another seed:
    /// `engine datagen mill --positions 2000 --nodes 5000 --random-plies 6
    /// --seed 9 --eval hand`), with each game's result for the side to move.
    const HELD_OUT: &str = include_str!("../../../tests/data/mill_games.txt");

    /// The mean cross-entropy of `sigmoid(score / K)` against the results,
    /// with the `K` the training fitted (272).
    fn result_loss(score: impl Fn(&Mill) -> i32) -> f64 {
        let rules = Preset::NineMensMorris.rules();
        tables::held_out_loss(
            HELD_OUT,
            272.0,
            |text| Mill::from_text(text, &rules).unwrap(),
            score,
        )
    }

    /// The committed weights predict the results of games they were not
    /// trained on better than the hand-written evaluation does (the test
    /// fails with the hand weights committed).
    #[test]
    fn the_weights_predict_unseen_games_better_than_the_hand_evaluation() {
        let learned = result_loss(|p| score(&features(p)));
        let hand = result_loss(hand_score);
        eprintln!("held-out games: learned {learned:.4}, hand {hand:.4}");
        assert!(
            learned < hand - 0.005,
            "learned {learned:.4}, hand {hand:.4}"
        );
    }

    #[test]
    fn the_weights_file_round_trips() {
        let bytes = weights_file(&hand_weights());
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(read_weights_file(&bytes).unwrap(), hand_weights());
        assert_eq!(read_weights_file(FILE).unwrap().len(), FEATURES);
        assert!(read_weights_file(&bytes[1..]).is_err());
        assert!(read_weights_file(b"STSTN001").is_err());
    }

    /// Pieces on points of each degree: every point is in one class.
    #[test]
    fn degree_classes_cover_the_board_once() {
        for masks in DEGREE_MASKS {
            assert_eq!(masks[0] | masks[1] | masks[2], (1 << 24) - 1);
            assert_eq!(masks[0] & masks[1], 0);
            assert_eq!(masks[1] & masks[2], 0);
            assert_eq!(masks[0] & masks[2], 0);
        }
        // Without diagonals: the 12 corners have two neighbours, the
        // middles of the outer and inner squares three, the middles of the
        // middle square four.
        assert_eq!(DEGREE_MASKS[0].map(u32::count_ones), [12, 8, 4]);
    }
}
