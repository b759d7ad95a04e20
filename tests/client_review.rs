//! The review after a game (src/client/review.rs), natively: the biggest
//! drops of the player who moved, the scores kept per position and the
//! move the computer preferred to each marked move.

use stoneplay::ai::MATE;
use stoneplay::client::review::{
    clamp, move_ticks, pieces_label, score_axis, worst_moves, Analysis, CLAMP,
};
use stoneplay::games::mill::{parse_point, Mill, MillMove, MillRules};
use stoneplay::games::Side::{self, First, Second};
use stoneplay::games::{Game, Record};

/// The review marks the moves where the evaluation fell most for the
/// player who made them: on a game with known mistakes of both sides (and
/// good moves, small slips and a move that gains), the three biggest drops,
/// largest first.
#[test]
fn the_review_marks_the_biggest_drops_of_the_player_who_moved() {
    // Evaluations from the first player's side, one per position (start = 0).
    let evals = [
        0, 20, -10,  // 1 First +20, 2 Second -30 (good moves)
        -250, // 3 First drops 240: a mistake
        -240, // 4 Second drops 10
        -200, // 5 First +40
        300,  // 6 Second drops 500: the biggest mistake
        260,  // 7 First drops 40: a slip below the threshold
        900,  // 8 Second drops 640 (a rise for the first player)
        880,  // 9 First drops 20
        880,  // 10 Second drops 0
        500,  // 11 First drops 380: a mistake
        600,  // 12 Second drops 100: a small mistake, fourth biggest
    ];
    let movers: Vec<Side> = (0..evals.len() - 1)
        .map(|ply| if ply % 2 == 0 { First } else { Second })
        .collect();
    assert_eq!(
        worst_moves(&evals, &movers),
        [(8, 640), (6, 500), (11, 380)],
        "the three biggest drops, largest first"
    );
    // Fewer mistakes: only drops of at least 0.8 piece are marked.
    let fewer = [
        0, 20, -10, -250, -240, -200, -200, -240, -240, -260, -260, -640, -660,
    ];
    assert_eq!(worst_moves(&fewer, &movers), [(11, 380), (3, 240)]);
    // A Second-only game (a forced pass makes the same side move twice).
    assert_eq!(
        worst_moves(&[0, 100, 300], &[Second, Second]),
        [(2, 200), (1, 100)]
    );
    assert!(worst_moves(&[0, 100, 300], &[First, First]).is_empty());
    // Evaluations still coming in: only the moves with both ends are judged.
    assert_eq!(worst_moves(&[0, -300], &movers), [(1, 300)]);
}

#[test]
fn scores_are_kept_from_the_first_players_side_and_clamped() {
    let mut a = Analysis::default();
    assert!(a.is_empty());
    a.push(First, 120, Some("d6".into()));
    a.push(Second, 120, Some("f4".into()));
    a.push(First, MATE - 3, None);
    a.push(Second, 5_000, Some("d2".into()));
    a.push_final(-CLAMP);
    assert_eq!(a.evals, [120, -120, CLAMP, -CLAMP, -CLAMP]);
    assert_eq!(a.len(), 5);
    assert_eq!(a.best[0].as_deref(), Some("d6"));
    assert_eq!(a.best[4], None, "no move in the final position");
    assert_eq!(clamp(-(MATE - 1)), -CLAMP);
    assert_eq!(clamp(37), 37);
}

/// A Mill game where White lets a mill go: the better move is the
/// computer's move in the position before the marked one, read in that
/// position; nothing when it is the move played, missing or unreadable.
#[test]
fn the_better_move_is_the_computers_move_before_the_marked_one() {
    let start = Mill::start(&MillRules::default());
    // White a7, Black b6, White d7, Black d6, White f4?? (g7 closes a mill).
    let record = Record::from_moves(start, ["a7", "b6", "d7", "d6", "f4"]).unwrap();
    let mut a = Analysis::default();
    for (side, best) in [
        (First, "d7"),
        (Second, "b6"),
        (First, "d7"),
        (Second, "g7"),
        (First, "g7"),
        (Second, "g7"),
    ] {
        a.push(side, 0, Some(best.to_string()));
    }
    assert_eq!(
        a.better_move(&record, 5),
        Some(MillMove::Place(parse_point("g7").unwrap()))
    );
    assert_eq!(
        a.better_move(&record, 3),
        None,
        "the computer's own move was played"
    );
    assert_eq!(
        a.better_move(&record, 0),
        None,
        "no move leads to the start"
    );
    assert_eq!(a.better_move(&record, 6), None, "no such move");
    let mut unsure = a.clone();
    unsure.best[4] = None;
    assert_eq!(unsure.better_move(&record, 5), None, "no best move given");
    unsure.best[4] = Some("zz9".into());
    assert_eq!(unsure.better_move(&record, 5), None, "an unreadable move");
    // Not yet analysed that far.
    let early = Analysis {
        evals: a.evals[..2].to_vec(),
        best: a.best[..2].to_vec(),
    };
    assert_eq!(early.better_move(&record, 5), None);
}

/// The graph's score axis fits the largest score in 1, 2, 5 or 10 pieces
/// and labels the range, its half and 0, in pieces.
#[test]
fn the_score_axis_fits_the_scores_in_whole_steps_and_labels_them_in_pieces() {
    assert_eq!(score_axis(&[]), (100, vec![100, 50, 0, -50, -100]));
    assert_eq!(score_axis(&[0, 30, -100]).0, 100);
    assert_eq!(score_axis(&[0, 30, -101]).0, 200);
    assert_eq!(score_axis(&[0, 450, -300]).0, 500);
    assert_eq!(
        score_axis(&[0, 20, CLAMP]),
        (CLAMP, vec![1000, 500, 0, -500, -1000])
    );
    let labels: Vec<String> = score_axis(&[0, 120])
        .1
        .into_iter()
        .map(pieces_label)
        .collect();
    assert_eq!(labels, ["+2", "+1", "0", "−1", "−2"]);
    let labels: Vec<String> = score_axis(&[-80]).1.into_iter().map(pieces_label).collect();
    assert_eq!(labels, ["+1", "+0.5", "0", "−0.5", "−1"]);
    assert_eq!(pieces_label(-250), "−2.5");
}

/// The move axis labels move numbers at a step of 1, 2, 5, 10, 20, 50, …
/// with no more labels than asked for.
#[test]
fn the_move_axis_labels_move_numbers_at_a_round_step() {
    assert_eq!(move_ticks(0, 6), Vec::<usize>::new());
    assert_eq!(move_ticks(1, 6), [1]);
    assert_eq!(move_ticks(6, 6), [1, 2, 3, 4, 5, 6]);
    assert_eq!(move_ticks(7, 6), [2, 4, 6]);
    assert_eq!(move_ticks(13, 6), [2, 4, 6, 8, 10, 12]);
    assert_eq!(move_ticks(14, 6), [5, 10]);
    assert_eq!(move_ticks(45, 6), [10, 20, 30, 40]);
    assert_eq!(move_ticks(60, 6), [10, 20, 30, 40, 50, 60]);
    assert_eq!(move_ticks(70, 6), [20, 40, 60]);
    assert_eq!(move_ticks(250, 6), [50, 100, 150, 200, 250]);
    for total in 0..500 {
        let t = move_ticks(total, 6);
        assert!(
            t.len() <= 6 && t.iter().all(|&n| (1..=total).contains(&n)),
            "{total}: {t:?}"
        );
    }
}
