//! Mill (Nine Men's Morris and its family), following Sanmill's rule model,
//! notation and counting (see `shared/rules/mill.md`).
//!
//! - [`board`]: points, names, lines and adjacency.
//! - [`rules`]: the rule options ([`MillRules`]) and [`Preset`]s.
//! - [`position`]: the validated position [`Mill`] and its transitions;
//!   `movegen.rs` its moves, `fen.rs` its FEN, `zobrist.rs` its hash.
//!
//! A turn is one or more actions by the same player: a placement or slide,
//! then, if it closed a mill, one removal action per owed piece (`xd7`).
//! Every action is one [`MillMove`] and one perft ply.
//!
//! Decisions where the rules file is silent (Sanmill's behaviour where it
//! has one):
//! - **Owed removals lapse** when the opponent has no piece on the board to
//!   take: the count owed is capped by the opponent's pieces on the board,
//!   so a removal is always possible while one is owed. Marked points are
//!   never pieces, so they cannot be removed.
//! - **Phase**: placing lasts until both hands are empty and the removals
//!   of the last placement are done. The moving phase then starts with
//!   White, or with Black under `defender_first`, whoever placed last.
//!   Marks (mark-and-delay) are cleared at that moment.
//! - **Flying** needs an empty hand as well as at most `fly_at` pieces on
//!   the board (matters only for Lasker).
//! - **Lasker**: a side with an empty hand while the other still places
//!   must slide; its blockade is a stalemate like in the moving phase.
//! - **Stalemate, turn passes**: the pass happens inside the move that
//!   blocked the opponent (no pass move). If both sides are blocked the game
//!   is drawn (`NeitherCanMove`).
//! - **Board full** means 24 pieces on the board (marks do not count); a
//!   placing side with no empty point (only possible with invalid rules)
//!   is treated the same.
//! - **Endings order**: too few pieces (checked right after each removal),
//!   then the n-move rule, board full, and finally blocked side.
//! - **n-move counter** (Sanmill's `rule50`): slides add one, placements and
//!   removals reset it; the draw comes when it reaches `n_move_rule`.
//! - **Full-move number** starts at 1 and grows when Black's turn (its
//!   move and removals) ends.
//! - **One-time mill** follows Sanmill's `formedMillsBB`: per side the set
//!   of points of every mill formed so far; a line whose three points are
//!   all in that set no longer counts as a new mill. Tracked only with the
//!   option on.
//! - **FEN**: the four last-mill squares are read (0, -1 or 8..31) and
//!   ignored, and written as 0; `r` (ready) is read for the untouched start
//!   and `p` written; a finished position is written with phase `o`; a
//!   text whose side to move is blocked under "turn passes" is read with
//!   the turn already passed.
//! - **Hash** leaves out the n-move counter and the move number so that
//!   repeated positions hash alike for [`crate::games::Record`].

pub mod board;
mod fen;
mod illegal;
mod movegen;
pub mod position;
pub mod rules;
mod zobrist;

use std::fmt;
use std::str::FromStr;

use crate::games::GameError;

pub use board::{adjacent, lines, parse_point, point_coords, point_name, Point, POINTS};
pub use illegal::MillIllegal;
pub use position::{Mill, Phase};
pub use rules::{
    BoardFull, MillInPlacing, MillRules, Preset, RemoveFromMills, Stalemate, OPTION_NAMES,
};

/// The game's slug in the list (links, files, commands) and its English
/// name and tagline.
pub const SLUG: &str = "mill";
pub const TITLE: &str = "Mill";
pub const TAGLINE: &str = "Line up three to take a piece.";
pub const OTHER_NAMES: &[&str] = &[];

/// One action: a placement, a slide (or flight), or a removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MillMove {
    /// Put a piece from hand on an empty point: `d6`.
    Place(Point),
    /// Move a piece along a line, or fly: `a1-a4`.
    Slide { from: Point, to: Point },
    /// Take an opponent piece off after closing a mill: `xd7`.
    Remove(Point),
}

impl fmt::Display for MillMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MillMove::Place(p) => write!(f, "{}", point_name(p)),
            MillMove::Slide { from, to } => write!(f, "{}-{}", point_name(from), point_name(to)),
            MillMove::Remove(p) => write!(f, "x{}", point_name(p)),
        }
    }
}

impl FromStr for MillMove {
    type Err = GameError;

    /// Reads `d6`, `a1-a4` or `xd7` (case-insensitive). A combined
    /// `a1-a4xd7` is refused: the removal is a move of its own.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let bad = |why: &str| GameError::BadMove(format!("'{s}': {why}"));
        if t.is_empty() {
            return Err(bad("empty move"));
        }
        if !t.is_ascii() {
            return Err(bad(
                "expected a point like d6, a slide like a1-a4 or a removal like xd7",
            ));
        }
        if let Some(rest) = t.strip_prefix(['x', 'X']) {
            return parse_point(rest)
                .map(MillMove::Remove)
                .map_err(|_| bad("a removal is x and a point, like xd7"));
        }
        if let Some((a, b)) = t.split_once('-') {
            if b.len() > 2 {
                return Err(bad(
                    "a slide is two points like a1-a4; give a removal as a separate move (xd7)",
                ));
            }
            let from = parse_point(a).map_err(|_| bad("the slide's first point is not a point"))?;
            let to = parse_point(b).map_err(|_| bad("the slide's second point is not a point"))?;
            if from == to {
                return Err(bad("a slide must go to a different point"));
            }
            return Ok(MillMove::Slide { from, to });
        }
        parse_point(t)
            .map(MillMove::Place)
            .map_err(|_| bad("expected a point like d6, a slide like a1-a4 or a removal like xd7"))
    }
}
