//! The small board diagrams of the rules pages: for each, a position in
//! the game's own text, the moves that lead to the move it shows, and
//! whether the board shows the position after that move (drawn as the last
//! move, with its flips, pins or mill) or before it (the move drawn as a
//! mark still to be played: Mill's removal).
//!
//! A diagram is built through the rules ([`Diagram::build`]), so it is a
//! legal position and a legal move; tests/rules_diagrams.rs checks that
//! each one does what its caption says. The captions are the
//! `rules.GAME.sN.dM` keys of the language tables (see
//! [`crate::i18n::rules_sections`]); the page draws each with the game's own
//! board component in its read-only mode.

use crate::games::{Game, GameError, GameKind, Record};

/// Whether the diagram shows its move played or still to be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// The position after the move, which the board draws as its last move.
    After,
    /// The position before the move, the move drawn over it as a mark.
    Before,
}

/// One diagram of a rules page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Which game's board draws it.
    pub game: GameKind,
    /// The caption's key in the language tables (`rules.GAME.sN.dM`).
    pub caption: &'static str,
    /// The position, in the game's text notation (FEN, Stones! position text).
    pub position: &'static str,
    /// Moves in the game's notation played from `position`; the last one is
    /// the move the diagram is about.
    pub moves: &'static [&'static str],
    /// Whether that last move is shown played or about to be played.
    pub shown: Shown,
}

/// Every diagram, in page order.
pub const DIAGRAMS: &[Diagram] = &[
    // Territory Duel: a clone and a jump from the start, then a jump that flips.
    Diagram {
        game: GameKind::Ataxx,
        caption: "rules.ataxx.s2.d1",
        position: "x5o/7/7/7/7/7/o5x x 0 1",
        moves: &["b6"],
        shown: Shown::After,
    },
    Diagram {
        game: GameKind::Ataxx,
        caption: "rules.ataxx.s2.d2",
        position: "x5o/7/7/7/7/7/o5x x 0 1",
        moves: &["a7c5"],
        shown: Shown::After,
    },
    Diagram {
        game: GameKind::Ataxx,
        caption: "rules.ataxx.s2.d3",
        position: "7/5o1/2oo3/4o2/7/1x5/x6 x 0 1",
        moves: &["b2d4"],
        shown: Shown::After,
    },
    // Stones!: a slide; a jump that pins an opponent, one that frees an ally.
    Diagram {
        game: GameKind::Stones,
        caption: "rules.stones.s2.d1",
        position: "W:a1,b2,c3,e1,g1 B:b8,d6,e7,f8,h8 w",
        moves: &["c3-e5"],
        shown: Shown::After,
    },
    Diagram {
        game: GameKind::Stones,
        caption: "rules.stones.s3.d1",
        position: "W:a1,c3,e1,g2 B:b7,d8,f6,h8 w",
        moves: &["c3xf6-g7"],
        shown: Shown::After,
    },
    Diagram {
        game: GameKind::Stones,
        caption: "rules.stones.s3.d2",
        position: "W:c1,d4,e5*,g2 B:b7,d6,g5,h8 w",
        moves: &["d4xe5-f6"],
        shown: Shown::After,
    },
    // Mill (Nine Men's Morris): flying; a slide that closes a mill; a removal.
    Diagram {
        game: GameKind::Mill,
        caption: "rules.mill.s2.d1",
        position: "**@****@/O**@**O*/@**O*@*@ w m s 3 0 6 0 0 0 0 0 0 0 0 6 20",
        moves: &["g1-b6"],
        shown: Shown::After,
    },
    Diagram {
        game: GameKind::Mill,
        caption: "rules.mill.s3.d1",
        position: "**@*****/@*O*O*O*/@@*@*O*O w m s 5 0 5 0 0 0 0 0 0 0 0 6 20",
        moves: &["b4-a4"],
        shown: Shown::After,
    },
    Diagram {
        game: GameKind::Mill,
        caption: "rules.mill.s3.d2",
        position: "***O**@*/*O**O*O@/*@@@O**@ w m s 5 0 6 0 0 0 0 0 0 0 0 6 20",
        moves: &["e3-d3", "xb6"],
        shown: Shown::Before,
    },
];

/// The diagram with caption key `caption`.
pub fn find(caption: &str) -> Option<&'static Diagram> {
    DIAGRAMS.iter().find(|d| d.caption == caption)
}

impl Diagram {
    /// The game to draw and the move the diagram is about: the record from
    /// the position after the moves before it, and after that move too
    /// when it is shown [`Shown::After`]. Under the game's default rules
    /// (Mill: Nine Men's Morris). Every move must be legal.
    pub fn build<G: Game>(&self) -> Result<(Record<G>, G::Move), GameError> {
        let start = G::from_text(self.position, &G::Rules::default())?;
        let mut record = Record::new(start);
        let (last, before) = self
            .moves
            .split_last()
            .ok_or_else(|| GameError::BadMove("a diagram needs a move".to_string()))?;
        for m in before {
            record.play_text(m)?;
        }
        match self.shown {
            Shown::After => {
                let mv = record.play_text(last)?;
                Ok((record, mv))
            }
            Shown::Before => {
                // Checked on a copy: the record keeps the position before it.
                let mv = record.clone().play_text(last)?;
                Ok((record, mv))
            }
        }
    }
}
