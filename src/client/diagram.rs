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
    /// The position, in the game's own text notation.
    pub position: &'static str,
    /// Moves in the game's notation played from `position`; the last one is
    /// the move the diagram is about.
    pub moves: &'static [&'static str],
    /// Whether that last move is shown played or about to be played.
    pub shown: Shown,
}

/// A game's rules-page diagrams, in page order: implemented in the
/// game's own file (`client/games/<game>.rs`), so this file names no game
/// and a new game brings its diagrams with it (issue 34).
pub trait Diagrams {
    const DIAGRAMS: &'static [Diagram];
}

/// Every diagram: each game's, the list's games in order.
pub fn all() -> impl Iterator<Item = &'static Diagram> {
    GameKind::ALL
        .iter()
        .flat_map(|&kind| crate::with_game!(kind, G => <G as Diagrams>::DIAGRAMS))
}

/// The diagram with caption key `caption`.
pub fn find(caption: &str) -> Option<&'static Diagram> {
    all().find(|d| d.caption == caption)
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
