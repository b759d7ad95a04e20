//! The validated Mill position: state, move generation, transitions, FEN
//! and hashing.

use super::board::{
    bits, ADJ_MASKS, ALL_POINTS, LINES_THROUGH, LINE_MASKS, LINE_MASKS_THROUGH, NO_LINE, POINTS,
};
use super::rules::{BoardFull, MillInPlacing, MillRules, RemoveFromMills, Stalemate};
use super::{lines, point_name, MillMove, Point};
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
    rules: MillRules,
    /// Pieces on the board per side (`Side::index`).
    pieces: [u32; 2],
    /// Points marked by a delayed removal (mark-and-delay rule).
    marked: u32,
    in_hand: [u8; 2],
    side: Side,
    /// Still in the placing phase (some piece in hand, or the removal that
    /// follows the last placement is pending).
    placing: bool,
    /// Removals the side to move still owes.
    must_remove: u8,
    /// One-time mills: per side, the points of every mill formed so far
    /// (Sanmill's `formedMillsBB`).
    formed: [u32; 2],
    /// Plies since the last removal or placement (n-move rule).
    rule50: u32,
    /// Full-move number: starts at 1, grows when Black's turn ends.
    fullmove: u32,
    outcome: Option<Outcome>,
}

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Zobrist keys: white pieces, black pieces, marks (one per point).
const ZOBRIST: [[u64; POINTS]; 3] = {
    let mut out = [[0; POINTS]; 3];
    let mut k = 0;
    while k < 3 {
        let mut p = 0;
        while p < POINTS {
            out[k][p] = splitmix(0x4D49_4C4C_0000_0000 ^ ((k * POINTS + p) as u64));
            p += 1;
        }
        k += 1;
    }
    out
};
const ZOBRIST_SIDE: u64 = splitmix(0x5349_4445);

fn side_bit(p: Point) -> u32 {
    1u32 << (p as u32 % 32)
}

impl Mill {
    fn line_count(&self) -> usize {
        lines(self.rules.diagonal_lines).len()
    }

    fn empty(&self) -> u32 {
        ALL_POINTS & !(self.pieces[0] | self.pieces[1] | self.marked)
    }

    fn total(&self, side: Side) -> u32 {
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
    fn in_mills(&self, mask: u32) -> u32 {
        LINE_MASKS[..self.line_count()]
            .iter()
            .filter(|&&m| m & mask == m)
            .fold(0, |acc, &m| acc | m)
    }

    /// Opponent pieces the side to move may remove now.
    fn removable(&self) -> u32 {
        let opp = self.pieces[self.side.opponent().index()];
        match self.rules.remove_from_mills {
            RemoveFromMills::Always => opp,
            RemoveFromMills::OnlyIfAllInMills => {
                let free = opp & !self.in_mills(opp);
                if free != 0 {
                    free
                } else {
                    opp
                }
            }
        }
    }

    fn may_place(&self) -> bool {
        self.placing && self.in_hand[self.side.index()] > 0
    }

    fn may_slide(&self) -> bool {
        !self.placing || self.in_hand[self.side.index()] == 0 || self.rules.move_in_placing
    }

    /// Where the side to move's piece on `from` may go.
    fn slide_targets(&self, from: Point) -> u32 {
        if self.can_fly(self.side) {
            self.empty()
        } else {
            ADJ_MASKS[self.rules.diagonal_lines as usize]
                .get(from as usize)
                .copied()
                .unwrap_or(0)
                & self.empty()
        }
    }

    /// Slide or flight destinations for the piece on `from`: non-empty only
    /// when it belongs to the side to move and a slide is legal now.
    pub fn targets_from(&self, from: Point) -> Vec<Point> {
        if self.outcome.is_some()
            || self.must_remove > 0
            || !self.may_slide()
            || self.piece_at(from) != Some(self.side)
        {
            return Vec::new();
        }
        bits(self.slide_targets(from)).collect()
    }

    /// The number of moves [`Game::legal_moves_into`] gives, from popcounts
    /// alone: perft's last ply.
    fn count_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        if self.must_remove > 0 {
            return self.removable().count_ones() as u64;
        }
        let empty = self.empty();
        let mut n = 0;
        if self.may_place() {
            n += empty.count_ones();
        }
        if self.may_slide() {
            let own = self.pieces[self.side.index()];
            if self.can_fly(self.side) {
                n += own.count_ones() * empty.count_ones();
            } else {
                let adj = &ADJ_MASKS[self.rules.diagonal_lines as usize];
                for from in bits(own) {
                    n += (adj[from as usize] & empty).count_ones();
                }
            }
        }
        n as u64
    }

    fn has_any_move(&self) -> bool {
        if self.must_remove > 0 {
            return self.removable() != 0;
        }
        if self.may_place() && self.empty() != 0 {
            return true;
        }
        self.may_slide() && bits(self.pieces[self.side.index()]).any(|p| self.slide_targets(p) != 0)
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
    fn settle(&mut self) {
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

    /// Why `mv` is not legal here (for error messages).
    fn why_illegal(&self, mv: MillMove) -> String {
        let side = match self.side {
            Side::First => "White",
            Side::Second => "Black",
        };
        match mv {
            _ if self.must_remove > 0 => match mv {
                MillMove::Remove(p) => match self.piece_at(p) {
                    None => format!("there is no piece on {} to remove", point_name(p)),
                    Some(s) if s == self.side => {
                        format!(
                            "{} is your own piece; remove an opponent piece",
                            point_name(p)
                        )
                    }
                    Some(_) => format!(
                        "{} stands in a mill and other opponent pieces do not",
                        point_name(p)
                    ),
                },
                _ => format!("{side} must first remove an opponent piece (like xd7)"),
            },
            MillMove::Remove(_) => "no mill was closed: there is nothing to remove".into(),
            MillMove::Place(p) => {
                if !self.may_place() {
                    format!("{side} has no pieces in hand to place")
                } else if self.is_marked(p) {
                    format!("{} is marked until placing ends", point_name(p))
                } else {
                    format!("{} is occupied", point_name(p))
                }
            }
            MillMove::Slide { from, to } => {
                if !self.may_slide() {
                    format!("{side} must place a piece while pieces are in hand")
                } else if self.piece_at(from) != Some(self.side) {
                    format!("{side} has no piece on {}", point_name(from))
                } else if self.empty() & side_bit(to) == 0 || to as usize >= POINTS {
                    format!("{} is not empty", point_name(to))
                } else {
                    format!(
                        "{} is not adjacent to {} and {side} cannot fly",
                        point_name(to),
                        point_name(from)
                    )
                }
            }
        }
    }

    fn action_char(&self) -> char {
        if self.must_remove > 0 {
            'r'
        } else if self.may_place() {
            'p'
        } else {
            's'
        }
    }

    fn untouched_start(&self) -> bool {
        self.placing
            && self.pieces == [0, 0]
            && self.marked == 0
            && self.in_hand == [self.rules.pieces; 2]
    }
}

fn bad(msg: impl Into<String>) -> GameError {
    GameError::BadPosition(msg.into())
}

fn num<T: std::str::FromStr>(field: &str, what: &str) -> Result<T, GameError> {
    field.parse().map_err(|_| {
        bad(format!(
            "{what} must be a non-negative number, not '{field}'"
        ))
    })
}

/// Sanmill numbers the points 8..32 (bit `p + 8` is point `p`); 0 and -1
/// (Sanmill's Rust port) mean "no square".
fn sanmill_square_ok(v: i64) -> bool {
    v == 0 || v == -1 || (8..32).contains(&v)
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

    /// Reads Sanmill's FEN: `board side phase action wOn wHand bOn bHand
    /// wRemove bRemove wMillFrom wMillTo bMillFrom bMillTo formedMills
    /// rule50 fullmove`. The four last-mill squares are accepted (0, -1 or
    /// 8..31) and ignored (no rule here uses them) and written as 0. Phase
    /// `r` (ready) is accepted for the untouched start; `p` is written.
    fn from_text(text: &str, rules: &MillRules) -> Result<Self, GameError> {
        rules.validate()?;
        let f: Vec<&str> = text.split_whitespace().collect();
        if f.len() != 17 {
            return Err(bad(format!(
                "expected 17 fields (board, side, phase, action, 6 counts, 4 mill squares, \
                 formed mills, ply counter, move number), found {}",
                f.len()
            )));
        }
        // 1. Board.
        let rings: Vec<&str> = f[0].split('/').collect();
        if rings.len() != 3 || rings.iter().any(|r| r.chars().count() != 8) {
            return Err(bad(format!(
                "the board must be three rings of 8 points separated by '/', not '{}'",
                f[0]
            )));
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
                    return Err(bad(format!(
                        "'{c}' on {} is not a point value (O white, @ black, * empty, X marked)",
                        point_name(p as Point)
                    )))
                }
            }
        }
        // 2-4. Side, phase, action.
        let side = match f[1] {
            "w" => Side::First,
            "b" => Side::Second,
            s => return Err(bad(format!("side to move must be w or b, not '{s}'"))),
        };
        let phase = match f[2] {
            "r" | "p" | "m" | "o" => f[2].as_bytes()[0] as char,
            s => return Err(bad(format!("phase must be r, p, m or o, not '{s}'"))),
        };
        let action = match f[3] {
            "p" | "s" | "r" => f[3].as_bytes()[0] as char,
            s => return Err(bad(format!("action must be p, s or r, not '{s}'"))),
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
            let v: i64 = f[i]
                .parse()
                .map_err(|_| bad(format!("{what} must be a number, not '{}'", f[i])))?;
            if !sanmill_square_ok(v) {
                return Err(bad(format!(
                    "{what} must be 0, -1 or a square 8..31, not {v}"
                )));
            }
        }
        let formed_all: u64 = num(f[14], "formed mills")?;
        let rule50: u32 = num(f[15], "ply counter")?;
        let fullmove: u32 = num(f[16], "move number")?;

        let n = rules.pieces as u32;
        if pieces[0].count_ones() != on_w {
            return Err(bad(format!(
                "white on board says {on_w} but the board has {} white pieces",
                pieces[0].count_ones()
            )));
        }
        if pieces[1].count_ones() != on_b {
            return Err(bad(format!(
                "black on board says {on_b} but the board has {} black pieces",
                pieces[1].count_ones()
            )));
        }
        if on_w + hand_w > n {
            return Err(bad(format!(
                "white has {on_w} on board and {hand_w} in hand, more than the {n} pieces of these rules"
            )));
        }
        if on_b + hand_b > n {
            return Err(bad(format!(
                "black has {on_b} on board and {hand_b} in hand, more than the {n} pieces of these rules"
            )));
        }
        let (mine, theirs) = match side {
            Side::First => (rem_w, rem_b),
            Side::Second => (rem_b, rem_w),
        };
        if theirs != 0 {
            return Err(bad("only the side to move can owe removals"));
        }
        let max_owed = if rules.remove_multiple { 3 } else { 1 };
        if mine > max_owed {
            return Err(bad(format!(
                "the side to move owes {mine} removals; at most {max_owed} under these rules"
            )));
        }
        let opp_on = if side == Side::First { on_b } else { on_w };
        if mine > opp_on {
            return Err(bad(format!(
                "the side to move owes {mine} removals but the opponent has only {opp_on} pieces on the board"
            )));
        }
        if (action == 'r') != (mine > 0) {
            return Err(bad(
                "action r (remove) goes with a pending removal count, and only with it",
            ));
        }
        let placing = match phase {
            'm' => {
                if hand_w + hand_b > 0 {
                    return Err(bad("phase m (moving) but pieces are still in hand"));
                }
                false
            }
            'r' | 'p' => {
                if hand_w + hand_b == 0 && mine == 0 {
                    return Err(bad("phase p (placing) but no pieces are left in hand"));
                }
                true
            }
            _ => hand_w + hand_b > 0,
        };
        if marked != 0 {
            if rules.mill_in_placing != MillInPlacing::MarkAndDelay {
                return Err(bad("marked points (X) need the mark-and-delay rule"));
            }
            if !placing {
                return Err(bad("marked points (X) exist only during placing"));
            }
        }
        let formed_w = (formed_all >> 32) as u32;
        let formed_b = formed_all as u32;
        if formed_w & 0xFF != 0 || formed_b & 0xFF != 0 {
            return Err(bad("formed mills may only use squares 8..31"));
        }
        if formed_all != 0 && !rules.one_time_mill {
            return Err(bad(
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
                "phase r (ready) is only for the untouched start position",
            ));
        }
        let expected = m.action_char();
        if action != expected && m.must_remove == 0 {
            return Err(bad(format!(
                "action '{action}' does not fit the position (expected '{expected}')"
            )));
        }
        m.settle();
        if phase == 'o' && m.outcome.is_none() {
            return Err(bad("phase o (over) but the game is not finished"));
        }
        Ok(m)
    }

    fn to_text(&self) -> String {
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

    fn rules(&self) -> &MillRules {
        &self.rules
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves_into(&self, out: &mut Vec<MillMove>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        if self.must_remove > 0 {
            out.extend(bits(self.removable()).map(MillMove::Remove));
            return;
        }
        if self.may_place() {
            out.extend(bits(self.empty()).map(MillMove::Place));
        }
        if self.may_slide() {
            for from in bits(self.pieces[self.side.index()]) {
                out.extend(bits(self.slide_targets(from)).map(|to| MillMove::Slide { from, to }));
            }
        }
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
            return Err(GameError::IllegalMove(format!(
                "{mv}: {}",
                self.why_illegal(mv)
            )));
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
        let mut h = 0u64;
        for (k, mask) in [self.pieces[0], self.pieces[1], self.marked]
            .into_iter()
            .enumerate()
        {
            for p in bits(mask) {
                h ^= ZOBRIST[k][p as usize];
            }
        }
        if self.side == Side::Second {
            h ^= ZOBRIST_SIDE;
        }
        let misc = self.in_hand[0] as u64
            | (self.in_hand[1] as u64) << 8
            | (self.must_remove as u64) << 16
            | (self.placing as u64) << 24
            | (self.outcome.is_some() as u64) << 25;
        h ^= splitmix(misc ^ 0x4D49_5343);
        if self.formed != [0, 0] {
            h ^= splitmix(((self.formed[0] as u64) << 32 | self.formed[1] as u64) ^ 0x464F_524D);
        }
        h
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
