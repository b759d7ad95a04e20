//! Mill (Nine Men's Morris and its family), following Sanmill's rule model,
//! notation and counting (see `shared/rules/mill.md`).
//!
//! - [`board`]: points, names, lines and adjacency.
//! - [`rules`]: the rule options ([`MillRules`]) and [`Preset`]s.
//! - [`position`]: the validated position [`Mill`], its moves and FEN.
//!
//! A turn is one or more actions by the same player: a placement or slide,
//! then, if it closed a mill, one removal action per owed piece (`xd7`).
//! Every action is one [`MillMove`] and one perft ply.

pub mod board;
pub mod position;
pub mod rules;

use std::fmt;
use std::str::FromStr;

use crate::games::GameError;

pub use board::{adjacent, lines, parse_point, point_coords, point_name, Point, POINTS};
pub use position::{Mill, Phase};
pub use rules::{
    BoardFull, MillInPlacing, MillRules, Preset, RemoveFromMills, Stalemate, OPTION_NAMES,
};

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
