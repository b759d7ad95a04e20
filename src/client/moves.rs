//! The move list as the game screens show it: numbered rows of the first
//! and the second side's moves. A Mill move and the removal after its mill
//! share a cell (`a1-a4xd7`). Shared by the local and the online screen,
//! which draw the rows with one non-generic component (`ui/screen/moves.rs`).

use crate::games::{Game, Record, Side};

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
