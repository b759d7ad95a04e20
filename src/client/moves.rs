//! The move list as the game screens show it: numbered rows of the first
//! and the second side's moves. A Mill move and the removal after its mill
//! share a cell (`a1-a4xd7`). Shared by the local and the online screen,
//! which draw the rows with one non-generic component (`ui/screen/moves.rs`).
//!
//! **One meaning of "move"** (issue 36): everything the page counts or
//! names as a move counts and names it as this list does, as chess and
//! Sanmill write their move lists: a numbered move is a row ("10. f5-d7
//! f8-c5"), and one side's part of it is named by the row's number and the
//! side ("move 10, Black's f8-c5"). A Territory Duel pass is a side's move;
//! a Mill removal is part of the move that closed the mill, not a move of
//! its own. The review, the look-back line, Recent games, the graph's axis,
//! hints, import and link problems ([`record_from_moves`]) and the export
//! all take their numbers from
//! [`move_rows`] through [`numbered`], [`move_of_ply`] and [`move_count`],
//! so they cannot drift from what the list shows (tests/client_moves.rs
//! checks them per game).

use crate::games::any::AnyRecord;
use crate::games::{Game, MoveListError, Record, Side};

/// One cell of the move list: the move's text and how many moves have been
/// played after it (the ply the board shows when the cell is pressed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub ply: usize,
}

impl Cell {
    /// Whether the move is a pass (written `0000`, shown as a word).
    pub fn is_pass(&self) -> bool {
        self.text == "0000"
    }
}

/// One numbered row: the first side's move, then the second side's. A game
/// from a position with the second side to move starts with an empty first
/// cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub number: usize,
    pub first: Option<Cell>,
    pub second: Option<Cell>,
}

/// The move list of `record`, row by row.
pub fn move_rows<G: Game>(record: &Record<G>) -> Vec<Row> {
    let mut pos = record.start().clone();
    let mut rows: Vec<Row> = Vec::new();
    let mut prev_side = None;
    for (i, &mv) in record.moves().iter().enumerate() {
        let side = pos.side_to_move();
        let cell = Cell {
            text: mv.to_string(),
            ply: i + 1,
        };
        match rows.last_mut() {
            // The same side again (a removal after a mill): the same cell.
            Some(row) if prev_side == Some(side) => {
                let same = match side {
                    Side::First => &mut row.first,
                    Side::Second => &mut row.second,
                };
                if let Some(c) = same {
                    c.text.push_str(&cell.text);
                    c.ply = cell.ply;
                }
            }
            Some(row) if side == Side::Second && row.second.is_none() => row.second = Some(cell),
            _ => {
                let number = rows.len() + 1;
                let (first, second) = match side {
                    Side::First => (Some(cell), None),
                    Side::Second => (None, Some(cell)),
                };
                rows.push(Row {
                    number,
                    first,
                    second,
                });
            }
        }
        prev_side = Some(side);
        pos.play_unchecked(mv);
    }
    rows
}

/// One side's part of a numbered move, as the list shows it: the row's
/// number, the side, and the plies it covers (a Mill move and its removal
/// are two plies of one cell). Plies count from 1: ply `p` is the `p`-th
/// action played, and the board after it is the position after `p` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNo {
    /// The row's number ("10." in "10. f5-d7 f8-c5").
    pub number: usize,
    /// Whose move it is: the row's first or second cell.
    pub side: Side,
    /// The first ply of the cell.
    pub first_ply: usize,
    /// The last ply of the cell (the position the list shows for it).
    pub last_ply: usize,
}

impl MoveNo {
    /// Whether ply `ply` is one of this move's.
    pub fn covers(&self, ply: usize) -> bool {
        (self.first_ply..=self.last_ply).contains(&ply)
    }
}

/// The cells of `rows` in the order they were played, each named by its
/// row and side.
pub fn numbered(rows: &[Row]) -> Vec<MoveNo> {
    let mut out = Vec::new();
    let mut prev = 0;
    for row in rows {
        for (cell, side) in [(&row.first, Side::First), (&row.second, Side::Second)] {
            if let Some(c) = cell {
                out.push(MoveNo {
                    number: row.number,
                    side,
                    first_ply: prev + 1,
                    last_ply: c.ply,
                });
                prev = c.ply;
            }
        }
    }
    out
}

/// The numbered move that ply `ply` of `record` belongs to (`None` for 0,
/// the start, and past the end).
pub fn move_of_ply<G: Game>(record: &Record<G>, ply: usize) -> Option<MoveNo> {
    numbered(&move_rows(record))
        .into_iter()
        .find(|m| m.covers(ply))
}

/// The numbered move the side to move after `record` is about to make: the
/// name a hint, an illegal move or the next imported move goes by.
pub fn next_move<G: Game>(record: &Record<G>) -> MoveNo {
    let ply = record.moves().len() + 1;
    let side = record.position().side_to_move();
    let rows = move_rows(record);
    let number = match rows.last() {
        None => 1,
        // The same side again (a removal): the same move.
        Some(row) if record.moves().last().is_some() && last_side(row) == Some(side) => row.number,
        Some(row) if side == Side::Second && row.second.is_none() => row.number,
        Some(row) => row.number + 1,
    };
    let first_ply = numbered(&rows)
        .last()
        .filter(|m| m.side == side && m.number == number)
        .map_or(ply, |m| m.first_ply);
    MoveNo {
        number,
        side,
        first_ply,
        last_ply: ply,
    }
}

fn last_side(row: &Row) -> Option<Side> {
    match (&row.first, &row.second) {
        (_, Some(_)) => Some(Side::Second),
        (Some(_), None) => Some(Side::First),
        (None, None) => None,
    }
}

/// How many numbered moves the list of `record` shows: its last row's
/// number (a 15-row Mill list is 15 moves, its removals included in them).
pub fn move_count<G: Game>(record: &Record<G>) -> usize {
    move_rows(record).last().map_or(0, |r| r.number)
}

/// [`move_count`] of a game of whichever kind (Recent games, online seats).
pub fn move_count_any(record: &AnyRecord) -> usize {
    crate::with_record!(record, G, r => move_count(r))
}

/// The ply after numbered move `number` is complete (its last cell): where
/// the review's graph puts the label `number`. `None` past the list.
pub fn ply_after_move(rows: &[Row], number: usize) -> Option<usize> {
    let row = rows.iter().find(|r| r.number == number)?;
    row.second.as_ref().or(row.first.as_ref()).map(|c| c.ply)
}

/// The text of numbered move `m` of `record` up to ply `ply` (the whole
/// cell when `ply` is its last): `a1-a4` before a Mill removal, `a1-a4xd7`
/// after it.
pub fn move_text<G: Game>(record: &Record<G>, m: &MoveNo, ply: usize) -> String {
    let end = ply.clamp(m.first_ply, m.last_ply);
    record.moves()[m.first_ply - 1..end]
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// [`Record::from_moves`] for the page (an import, a link): a move that
/// cannot be played is numbered as the move list would number it (its
/// row: in `1. a7 a7` the second `a7` is move 1, Black's), not by its
/// place among the actions.
pub fn record_from_moves<G: Game, S: AsRef<str>>(
    start: G,
    moves: impl IntoIterator<Item = S>,
) -> Result<Record<G>, MoveListError> {
    let mut record = Record::new(start);
    for m in moves {
        let m = m.as_ref();
        if let Err(error) = record.play_text(m) {
            return Err(MoveListError {
                number: next_move(&record).number,
                text: m.to_string(),
                error,
            });
        }
    }
    Ok(record)
}
