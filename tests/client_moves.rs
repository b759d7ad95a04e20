//! The move list's rows (src/client/moves.rs), natively: numbering, a
//! Mill removal sharing its move's cell, a pass, a game that starts with
//! the second side to move.

use stoneplay::client::moves::{move_rows, Cell, Row};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{Mill, MillRules};
use stoneplay::games::{Game, Record};

fn cell(text: &str, ply: usize) -> Option<Cell> {
    Some(Cell {
        text: text.to_string(),
        ply,
    })
}

#[test]
fn rows_are_numbered_pairs_of_moves() {
    let start = Ataxx::start(&AtaxxRules::default());
    let record = Record::from_moves(start, ["b6", "b2", "c6"]).unwrap();
    let rows = move_rows(&record);
    assert_eq!(
        rows,
        vec![
            Row {
                number: 1,
                first: cell("b6", 1),
                second: cell("b2", 2),
            },
            Row {
                number: 2,
                first: cell("c6", 3),
                second: None,
            },
        ]
    );
    assert!(move_rows(&Record::new(Ataxx::start(&AtaxxRules::default()))).is_empty());
}

#[test]
fn a_mill_removal_shares_its_moves_cell() {
    let start = Mill::start(&MillRules::default());
    let record = Record::from_moves(start, ["a7", "a1", "d7", "d1", "g7", "xa1"]).unwrap();
    let rows = move_rows(&record);
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[2],
        Row {
            number: 3,
            first: cell("g7xa1", 6),
            second: None,
        }
    );
}

#[test]
fn a_pass_is_known_by_its_text() {
    assert!(cell("0000", 3).unwrap().is_pass());
    assert!(!cell("a7", 1).unwrap().is_pass());
}
