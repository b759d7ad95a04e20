//! The move list's rows (src/client/moves.rs), natively: numbering, a
//! Mill removal sharing its move's cell, a pass, a game that starts with
//! the second side to move; and the one numbering every other count and
//! name of a move takes from them (issue 36), per game.

use stoneplay::client::moves::{
    move_count, move_count_any, move_of_ply, move_rows, move_text, next_move, numbered,
    ply_after_move, record_from_moves, Cell, MoveNo, Row,
};
use stoneplay::games::any::AnyRecord;
use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{Mill, MillRules};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{Game, Record, Side};

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

fn no(number: usize, side: Side, first_ply: usize, last_ply: usize) -> MoveNo {
    MoveNo {
        number,
        side,
        first_ply,
        last_ply,
    }
}

/// Every ply's numbered move, as `move_of_ply` names it.
fn names<G: Game>(record: &Record<G>) -> Vec<(usize, Side)> {
    (1..=record.moves().len())
        .map(|p| {
            let m = move_of_ply(record, p).unwrap();
            (m.number, m.side)
        })
        .collect()
}

#[test]
fn stones_moves_are_named_by_row_and_side() {
    // The review once said "move 20: Black f8-c5" for the list's
    // "10. f5-d7 f8-c5": ply 2n is Black's part of move n.
    let start = Stones::from_text("W:a1 B:a8 w", &StonesRules).unwrap();
    let record = Record::from_moves(start, ["a1-b2", "a8-b7", "b2-c3"]).unwrap();
    assert_eq!(
        names(&record),
        vec![(1, Side::First), (1, Side::Second), (2, Side::First)]
    );
    assert_eq!(move_of_ply(&record, 0), None, "the start is no move");
    assert_eq!(move_of_ply(&record, 4), None, "nothing past the end");
    assert_eq!(move_count(&record), 2);
    assert_eq!(next_move(&record), no(2, Side::Second, 4, 4));
    let rows = move_rows(&record);
    assert_eq!(ply_after_move(&rows, 1), Some(2));
    assert_eq!(ply_after_move(&rows, 2), Some(3));
    assert_eq!(ply_after_move(&rows, 3), None);
    // A longer game: ply 20 is Black's part of move 10.
    let white = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];
    let black = ["a8", "b7", "c6", "d5", "e4", "f3", "g2", "h1"];
    let moves: Vec<String> = (0..7)
        .flat_map(|i| {
            [
                format!("{}-{}", white[i], white[i + 1]),
                format!("{}-{}", black[i], black[i + 1]),
            ]
        })
        .collect();
    let start = Stones::from_text("W:a1 B:a8 w", &StonesRules).unwrap();
    let record = Record::from_moves(start, &moves).unwrap();
    assert_eq!(record.moves().len(), 14);
    assert_eq!(move_count(&record), 7);
    let m = move_of_ply(&record, 14).unwrap();
    assert_eq!((m.number, m.side), (7, Side::Second));
}

#[test]
fn a_mill_removal_is_part_of_its_move() {
    let start = Mill::start(&MillRules::default());
    let record = Record::from_moves(start, ["a7", "a1", "d7", "d1", "g7", "xa1"]).unwrap();
    let rows = move_rows(&record);
    assert_eq!(
        numbered(&rows),
        vec![
            no(1, Side::First, 1, 1),
            no(1, Side::Second, 2, 2),
            no(2, Side::First, 3, 3),
            no(2, Side::Second, 4, 4),
            no(3, Side::First, 5, 6),
        ]
    );
    // Six plies, three numbered moves: the count Recent games shows.
    assert_eq!(move_count(&record), 3);
    assert_eq!(move_count_any(&AnyRecord::Mill(record.clone())), 3);
    // The mill and its removal are one move, White's third.
    let m = move_of_ply(&record, 6).unwrap();
    assert_eq!(m, no(3, Side::First, 5, 6));
    assert_eq!(move_of_ply(&record, 5), Some(m));
    assert_eq!(move_text(&record, &m, 5), "g7", "before the removal");
    assert_eq!(move_text(&record, &m, 6), "g7xa1");
    assert_eq!(ply_after_move(&rows, 3), Some(6));
    // Between the mill and the removal, White's move 3 is still being made.
    let before = record.truncated(5);
    assert_eq!(next_move(&before), no(3, Side::First, 5, 6));
    assert_eq!(next_move(&record), no(3, Side::Second, 7, 7));
}

#[test]
fn a_territory_duel_pass_is_a_move_of_its_side() {
    // X is walled in and passes; O clones; X passes again.
    let start = Ataxx::from_text(
        "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
        &AtaxxRules::default(),
    )
    .unwrap();
    let record = Record::from_moves(start, ["0000", "a4", "0000", "b4"]).unwrap();
    let rows = move_rows(&record);
    assert_eq!(rows.len(), 2);
    assert!(rows[1].first.as_ref().unwrap().is_pass());
    assert_eq!(
        names(&record),
        vec![
            (1, Side::First),
            (1, Side::Second),
            (2, Side::First),
            (2, Side::Second)
        ]
    );
    assert_eq!(move_count(&record), 2);
    assert_eq!(move_count_any(&AnyRecord::Ataxx(record.clone())), 2);
    assert_eq!(next_move(&record), no(3, Side::First, 5, 5));
    assert_eq!(
        next_move(&Record::new(Ataxx::start(&AtaxxRules::default()))),
        no(1, Side::First, 1, 1)
    );
}

#[test]
fn a_game_from_the_second_side_numbers_its_first_move_one() {
    let start = Ataxx::from_text("x5o/7/7/7/7/7/o5x o 0 1", &AtaxxRules::default()).unwrap();
    let empty = Record::new(start);
    assert_eq!(next_move(&empty), no(1, Side::Second, 1, 1));
    assert_eq!(move_count(&empty), 0);
    let record = Record::from_moves(start, ["f7", "b7"]).unwrap();
    assert_eq!(names(&record), vec![(1, Side::Second), (2, Side::First)]);
    assert_eq!(move_count(&record), 2);
}

#[test]
fn a_move_that_cannot_be_played_is_numbered_as_the_list_would() {
    // Import "1. a7 a7": the second a7 is Black's part of move 1 (the
    // games layer counts it as the second action).
    let start = Mill::start(&MillRules::default());
    let e = record_from_moves(start, ["a7", "a7"]).unwrap_err();
    assert_eq!((e.number, e.text.as_str()), (1, "a7"));
    // After White's mill, the removal is still move 3; a bad one says so.
    let e = record_from_moves(start, ["a7", "a1", "d7", "d1", "g7", "xg7"]).unwrap_err();
    assert_eq!((e.number, e.text.as_str()), (3, "xg7"));
    // Stones!: Black's unreadable reply to move 2.
    let start = Stones::from_text("W:a1 B:a8 w", &StonesRules).unwrap();
    let e = record_from_moves(start, ["a1-b2", "a8-b7", "b2-c3", "zz"]).unwrap_err();
    assert_eq!(e.number, 2);
    let ok = record_from_moves(start, ["a1-b2", "a8-b7"]).unwrap();
    assert_eq!(ok, Record::from_moves(start, ["a1-b2", "a8-b7"]).unwrap());
}
