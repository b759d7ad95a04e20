//! One test (or more) per rule of `shared/rules/territory-duel.md`, plus
//! notation round-trips and every kind of bad input.

use stoneplay::games::ataxx::AtaxxIllegal;
use stoneplay::games::ataxx::{
    parse_square, square_name, Ataxx, AtaxxMove, AtaxxRules, NoMoveRule, Square, START_FEN,
};
use stoneplay::games::{EndReason, Game, GameError, Illegal, Outcome, Record, Side};

const PASS: AtaxxRules = AtaxxRules {
    no_move: NoMoveRule::Pass,
};
const LOSE: AtaxxRules = AtaxxRules {
    no_move: NoMoveRule::Lose,
};

fn pos(fen: &str) -> Ataxx {
    Ataxx::from_text(fen, &PASS).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn lose(fen: &str) -> Ataxx {
    Ataxx::from_text(fen, &LOSE).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    parse_square(name).unwrap()
}

fn mv(text: &str) -> AtaxxMove {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn bits(names: &[&str]) -> u64 {
    names.iter().map(|n| 1u64 << sq(n)).fold(0, |a, b| a | b)
}

fn play(p: &mut Ataxx, text: &str) {
    let m = p.parse_move(text).unwrap();
    p.play(m).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn sorted_texts(p: &Ataxx) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- board, start

#[test]
fn squares_are_rank_times_seven_plus_file() {
    assert_eq!(sq("a1"), 0);
    assert_eq!(sq("g1"), 6);
    assert_eq!(sq("a2"), 7);
    assert_eq!(sq("a7"), 42);
    assert_eq!(sq("g7"), 48);
    for s in 0..49u8 {
        assert_eq!(parse_square(&square_name(s)), Ok(s));
    }
}

#[test]
fn start_position_is_standard_ataxx() {
    let p = Ataxx::start(&PASS);
    assert_eq!(p.to_text(), START_FEN);
    assert_eq!(p, pos(START_FEN));
    assert_eq!(p.side_to_move(), Side::First);
    assert_eq!(p.piece_at(sq("a7")), Some(Side::First));
    assert_eq!(p.piece_at(sq("g1")), Some(Side::First));
    assert_eq!(p.piece_at(sq("a1")), Some(Side::Second));
    assert_eq!(p.piece_at(sq("g7")), Some(Side::Second));
    assert_eq!(p.count(Side::First), 2);
    assert_eq!(p.count(Side::Second), 2);
    assert_eq!(p.empty_count(), 45);
    assert!((0..49).all(|s| !p.is_gap(s)));
    assert_eq!(p.jump_counter(), 0);
    assert_eq!(p.fullmove(), 1);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.rules(), &PASS);
    assert_eq!(Ataxx::default(), p);
    // 6 clones (a6 b6 b7 f1 f2 g2) and 10 jumps.
    let moves = p.legal_moves();
    assert_eq!(moves.len(), 16);
    let clones = moves
        .iter()
        .filter(|m| matches!(m, AtaxxMove::Clone { .. }))
        .count();
    assert_eq!(clones, 6);
    assert_eq!(
        sorted_texts(&p),
        [
            "a6", "a7a5", "a7b5", "a7c5", "a7c6", "a7c7", "b6", "b7", "f1", "f2", "g1e1", "g1e2",
            "g1e3", "g1f3", "g1g3", "g2"
        ]
    );
}

// ---------------------------------------------------------------- moves

#[test]
fn clone_adds_a_piece_and_keeps_the_origin() {
    let mut p = Ataxx::start(&PASS);
    play(&mut p, "b6");
    assert_eq!(p.piece_at(sq("b6")), Some(Side::First));
    assert_eq!(p.piece_at(sq("a7")), Some(Side::First));
    assert_eq!(p.count(Side::First), 3);
    assert_eq!(p.side_to_move(), Side::Second);
    assert_eq!(p.to_text(), "x5o/1x5/7/7/7/7/o5x o 0 1");
}

#[test]
fn clone_is_one_move_per_target_square() {
    // b1 is next to three X pieces (a1, c1, a2): still one clone move.
    let p = pos("7/7/7/7/7/x6/x1x3o x 0 1");
    let to_b1 = p
        .legal_moves()
        .into_iter()
        .filter(|m| *m == AtaxxMove::Clone { to: sq("b1") })
        .count();
    assert_eq!(to_b1, 1);
    // Each clone target appears once; each jump once per origin.
    let moves = p.legal_moves();
    for (i, a) in moves.iter().enumerate() {
        assert!(!moves[i + 1..].contains(a), "{a} generated twice");
    }
    // Jumps to the same target from two origins are two moves.
    let to_b3: Vec<_> = moves
        .iter()
        .filter(|m| matches!(m, AtaxxMove::Jump { to, .. } if *to == sq("b3")))
        .collect();
    assert_eq!(
        to_b3.len(),
        2,
        "a1b3 and c1b3 (a2 is next to b3): {to_b3:?}"
    );
}

#[test]
fn jump_moves_the_piece_two_squares() {
    let mut p = Ataxx::start(&PASS);
    play(&mut p, "a7c5");
    assert_eq!(p.piece_at(sq("a7")), None);
    assert_eq!(p.piece_at(sq("c5")), Some(Side::First));
    assert_eq!(p.count(Side::First), 2);
    assert_eq!(p.to_text(), "6o/7/2x4/7/7/7/o5x o 1 1");
    // Jumps reach exactly the 16 squares at distance 2 (from the centre).
    let p = pos("7/7/7/3x3/7/7/6o x 0 1");
    assert_eq!(p.jump_targets(sq("d4")).count_ones(), 16);
    assert_eq!(p.clone_targets(sq("d4")).count_ones(), 8);
    assert_eq!(
        p.jump_targets(sq("d4")),
        bits(&[
            "b2", "c2", "d2", "e2", "f2", "b6", "c6", "d6", "e6", "f6", "b3", "b4", "b5", "f3",
            "f4", "f5"
        ])
    );
}

#[test]
fn moves_must_start_on_own_piece_and_end_on_an_empty_square() {
    // X on a1 and c1, O on b1 and e3.
    let p = pos("7/7/7/7/4o2/7/xox4 x 0 1");
    let mut q = p;
    for text in [
        "b1",   // clone onto the opponent
        "a1",   // clone onto own piece
        "a1c1", // jump onto own piece
        "c1e3", // jump onto the opponent
        "b1d1", // jump with the opponent's piece
        "d1f1", // jump from an empty square
        "d4",   // clone with no own piece next to the target
    ] {
        assert!(
            matches!(q.play(mv(text)), Err(GameError::IllegalMove(_))),
            "{text} must be illegal"
        );
        assert_eq!(q, p, "an illegal move leaves the position unchanged");
    }
    // The UI helpers agree: opponent pieces and empty squares have no targets.
    assert_eq!(p.clone_targets(sq("b1")), 0);
    assert_eq!(p.jump_targets(sq("e3")), 0);
    assert_eq!(p.clone_targets(sq("d4")), 0);
    assert_eq!(p.clone_targets(sq("a1")), bits(&["a2", "b2"]));
    assert_eq!(p.jump_targets(sq("a1")), bits(&["a3", "b3", "c3", "c2"]));
}

#[test]
fn target_neighbours_flip_in_all_eight_directions() {
    // O surrounds d4 completely; X on b4 can jump to d4.
    let p = pos("7/7/2ooo2/1xo1o2/2ooo2/7/7 x 0 1");
    let ring = bits(&["c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"]);
    assert_eq!(p.flips(mv("b4d4")), ring);
    let mut q = p;
    play(&mut q, "b4d4");
    assert_eq!(q.count(Side::First), 9);
    for s in ["c3", "d3", "e3", "c4", "d4", "e4", "c5", "d5", "e5"] {
        assert_eq!(q.piece_at(sq(s)), Some(Side::First), "{s}");
    }
    assert_eq!(q.piece_at(sq("b4")), None);
    // Every O piece is gone: that also ends the game (rule 2).
    assert_eq!(q.count(Side::Second), 0);
    // A clone flips too, and own pieces next to the target stay.
    let mut r = pos("7/7/7/7/7/ox5/xo5 x 0 1");
    assert_eq!(r.flips(mv("b3")), bits(&["a2"]));
    play(&mut r, "b3");
    assert_eq!(r.to_text(), "7/7/7/7/1x5/xx5/xo5 o 0 1");
}

#[test]
fn flips_do_not_chain() {
    // X on d1 clones to d2: d3 (next to d2) flips; c4 is next to the
    // flipped d3 but not to d2, so it stays O.
    let p = pos("7/7/7/2o4/3o3/7/3x3 x 0 1");
    assert_eq!(p.flips(mv("d2")), bits(&["d3"]));
    let mut q = p;
    play(&mut q, "d2");
    assert_eq!(q.piece_at(sq("d3")), Some(Side::First));
    assert_eq!(q.piece_at(sq("c4")), Some(Side::Second));
    assert_eq!(q.count(Side::First), 3);
    assert_eq!(q.count(Side::Second), 1);
}

#[test]
fn gaps_block_squares_but_not_jumps_over_them() {
    // Gaps on b1, a2 and b2 wall in X's a1 for clones; X jumps over them.
    let p = pos("6o/7/7/7/7/--5/x-5 x 0 1");
    assert!(p.is_gap(sq("b1")) && p.is_gap(sq("a2")) && p.is_gap(sq("b2")));
    assert!(!p.is_gap(sq("a1")));
    assert_eq!(p.piece_at(sq("b1")), None);
    assert_eq!(p.empty_count(), 49 - 3 - 2);
    assert_eq!(p.clone_targets(sq("a1")), 0);
    assert_eq!(
        p.jump_targets(sq("a1")),
        bits(&["a3", "b3", "c3", "c2", "c1"])
    );
    assert_eq!(sorted_texts(&p), ["a1a3", "a1b3", "a1c1", "a1c2", "a1c3"]);
    // Nothing may move onto a gap.
    let q = pos("6o/7/7/7/7/7/x1-4 x 0 1");
    let mut r = q;
    assert!(matches!(r.play(mv("a1c1")), Err(GameError::IllegalMove(_))));
    assert!(matches!(
        pos("6o/7/7/7/7/7/x-5 x 0 1").play(mv("b1")),
        Err(GameError::IllegalMove(_))
    ));
    // Gaps never change: a jump over a gap leaves it, and a gap is never flipped.
    play(&mut r, "a1a3");
    assert!(r.is_gap(sq("c1")));
    assert_eq!(r.count(Side::First), 1);
}

// ---------------------------------------------------------------- no legal move

/// X (14 pieces) is walled in by gaps; O (1 piece on a7) can move.
const X_STUCK: &str = "o6/7/7/-------/-------/xxxxxxx/xxxxxxx x 0 1";

#[test]
fn pass_mode_the_stuck_player_passes() {
    let p = pos(X_STUCK);
    assert!(!p.has_moves(Side::First));
    assert!(p.has_moves(Side::Second));
    assert_eq!(p.outcome(), None);
    assert_eq!(p.legal_moves(), vec![AtaxxMove::Pass]);
    assert!(p.must_pass());
    let mut q = p;
    q.play(AtaxxMove::Pass).unwrap();
    assert_eq!(q.side_to_move(), Side::Second);
    assert_eq!(q.to_text(), "o6/7/7/-------/-------/xxxxxxx/xxxxxxx o 0 1");
    // The libataxx suite's walled-in position: X passes, then O has 75 moves.
    let mut w = pos("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
    assert_eq!(w.legal_moves(), vec![AtaxxMove::Pass]);
    w.play(mv("0000")).unwrap();
    assert_eq!(w.legal_moves().len(), 75);
}

#[test]
fn pass_is_illegal_when_a_move_exists() {
    let mut p = Ataxx::start(&PASS);
    assert!(matches!(
        p.play(AtaxxMove::Pass),
        Err(GameError::IllegalMove(_))
    ));
    assert_eq!(p, Ataxx::start(&PASS));
    assert!(!p.must_pass());
    // Nor in lose mode when stuck: the game is over.
    let mut q = lose(X_STUCK);
    assert_eq!(q.play(AtaxxMove::Pass), Err(GameError::GameOver));
    assert!(!q.must_pass());
}

#[test]
fn lose_mode_the_stuck_player_loses_whatever_the_count() {
    let p = lose(X_STUCK);
    assert_eq!(p.count(Side::First), 14);
    assert_eq!(p.count(Side::Second), 1);
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoLegalMove))
    );
    assert!(p.legal_moves().is_empty());
    // O to move in the same position can move: the game goes on.
    let q = lose("o6/7/7/-------/-------/xxxxxxx/xxxxxxx o 0 1");
    assert_eq!(q.outcome(), None);
    // And it ends as soon as a move leaves the next player stuck.
    let mut r = q;
    play(&mut r, "b7");
    assert_eq!(
        r.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoLegalMove))
    );
    // O stuck instead: X wins.
    let s = lose("ooooooo/-------/-------/7/7/7/6x o 0 1");
    assert_eq!(
        s.outcome(),
        Some(Outcome::win(Side::First, EndReason::NoLegalMove))
    );
}

// ---------------------------------------------------------------- endings

#[test]
fn ending_1_board_full_decided_by_count() {
    let p = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 0 1");
    assert_eq!(p.empty_count(), 0);
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::First, EndReason::BoardFull))
    );
    assert!(p.legal_moves().is_empty());
    // Gaps don't count as empty; equal counts draw.
    let d = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxx-ooo/ooooooo/ooooooo/ooooooo x 0 1");
    assert_eq!(d.outcome(), Some(Outcome::draw(EndReason::BoardFull)));
    // Reached by a move: O clones to the last square (g1) and flips f2, g2.
    let mut m = pos("ooooooo/ooooooo/ooooooo/oooxxxx/xxxxxxx/xxxxxxx/ooooxo1 o 0 1");
    assert_eq!(m.outcome(), None);
    play(&mut m, "g1");
    assert_eq!((m.count(Side::First), m.count(Side::Second)), (17, 32));
    assert_eq!(
        m.outcome(),
        Some(Outcome::win(Side::Second, EndReason::BoardFull))
    );
    // Board full takes precedence over lose mode's rule 6.
    let l = lose("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 0 1");
    assert_eq!(
        l.outcome(),
        Some(Outcome::win(Side::First, EndReason::BoardFull))
    );
}

#[test]
fn ending_2_a_side_without_pieces() {
    let p = pos("x6/7/7/7/7/7/7 o 0 1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::First, EndReason::NoPieces))
    );
    assert!(p.legal_moves().is_empty());
    let q = pos("7/7/7/3o3/7/7/7 o 0 1");
    assert_eq!(
        q.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoPieces))
    );
    // An empty board: no pieces on either side, a draw.
    let e = pos("7/7/7/7/7/7/7 x 0 1");
    assert_eq!(e.outcome(), Some(Outcome::draw(EndReason::NoPieces)));
    // Reached by a move: X takes O's last piece.
    let mut m = pos("7/7/7/7/7/7/xo5 x 0 1");
    play(&mut m, "b2");
    assert_eq!(
        m.outcome(),
        Some(Outcome::win(Side::First, EndReason::NoPieces))
    );
    // Before rule 6 in lose mode too.
    let l = lose("x6/7/7/7/7/7/7 o 0 1");
    assert_eq!(
        l.outcome(),
        Some(Outcome::win(Side::First, EndReason::NoPieces))
    );
}

#[test]
fn ending_3_neither_side_can_move() {
    // X (13) and O (1) are both walled in by two ranks of gaps; empty squares remain.
    let p = pos("7/7/7/-------/-------/oxxxxxx/xxxxxxx x 0 1");
    assert!(!p.has_moves(Side::First) && !p.has_moves(Side::Second));
    assert!(p.empty_count() > 0);
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::First, EndReason::NeitherCanMove))
    );
    assert!(p.legal_moves().is_empty(), "no pass when the game is over");
    // The same in lose mode: rule 3 is decided by count before rule 6.
    let l = lose("7/7/7/-------/-------/oxxxxxx/xxxxxxx o 0 1");
    assert_eq!(
        l.outcome(),
        Some(Outcome::win(Side::First, EndReason::NeitherCanMove))
    );
    // Equal counts draw.
    let d = pos("7/7/7/-------/-------/ooooxxx/oooxxxx x 0 1");
    assert_eq!(d.outcome(), Some(Outcome::draw(EndReason::NeitherCanMove)));
    // Reached by a move: X clones to g2, the last empty square anyone can
    // reach (ranks 5-7 are cut off by two ranks of gaps); O on a1 was
    // already stuck.
    let mut m = pos("7/7/7/-------/-------/xxxxxx1/oxxxxxx x 0 1");
    assert!(m.has_moves(Side::First) && !m.has_moves(Side::Second));
    assert_eq!(m.outcome(), None);
    play(&mut m, "g2");
    assert_eq!(
        m.outcome(),
        Some(Outcome::win(Side::First, EndReason::NeitherCanMove))
    );
    assert_eq!(m.empty_count(), 21);
}

#[test]
fn ending_4_threefold_repetition_in_record() {
    let mut rec = Record::new(Ataxx::start(&PASS));
    let shuffle = ["g1e1", "a1c1", "e1g1", "c1a1"];
    for (i, text) in shuffle.iter().chain(shuffle.iter()).enumerate() {
        assert_eq!(rec.outcome(), None, "before ply {i}");
        rec.play_text(text).unwrap();
    }
    // The start position (X to move) has now occurred three times: the
    // count decides it, 2 pieces each, a draw.
    assert_eq!(rec.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert_eq!(rec.position().count(Side::First), 2);
    assert_eq!(rec.position().count(Side::Second), 2);
    assert_eq!(rec.position().jump_counter(), 8);
    assert_eq!(rec.play_text("b6"), Err(GameError::GameOver));
    // A clone is irreversible: it clears the history, so repeats before it
    // don't count. After X's clone X has 3 pieces to O's 2, and the third
    // occurrence is X's win (the rules file: repetition is case 4, decided
    // by count like cases 1-5).
    let shuffle_o = ["a1c1", "g1e1", "c1a1", "e1g1"];
    let mut rec = Record::new(Ataxx::start(&PASS));
    for text in ["g1e1", "a1c1", "e1g1", "c1a1", "b6"] {
        rec.play_text(text).unwrap();
    }
    for text in shuffle_o {
        rec.play_text(text).unwrap();
    }
    assert_eq!(
        rec.outcome(),
        None,
        "only the second occurrence since the clone"
    );
    for text in shuffle_o {
        rec.play_text(text).unwrap();
    }
    assert_eq!(
        rec.outcome(),
        Some(Outcome::win(Side::First, EndReason::Repetition)),
        "X, 3 pieces to 2, wins the repetition"
    );
    // The side to move is part of the position.
    let x = pos("x5o/7/7/7/7/7/o5x x 0 1");
    let o = pos("x5o/7/7/7/7/7/o5x o 0 1");
    assert_ne!(x.hash(), o.hash());
}

#[test]
fn ending_5_eighty_jumps_without_capture() {
    // Counter 79: a capture-less jump makes it 80 and ends the game by count.
    let mut p = pos("x5o/7/7/7/7/7/o5x x 79 40");
    assert_eq!(p.outcome(), None);
    play(&mut p, "g1e1");
    assert_eq!(p.jump_counter(), 80);
    assert_eq!(p.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
    assert!(p.legal_moves().is_empty());
    // With more pieces, that side wins.
    let q = pos("xx4o/7/7/7/7/7/o5x o 80 1");
    assert_eq!(
        q.outcome(),
        Some(Outcome::win(Side::First, EndReason::MoveLimit))
    );
    // A capturing jump at 79 resets the counter instead.
    let mut r = pos("x5o/7/7/7/7/7/o2o2x x 79 40");
    play(&mut r, "g1e1");
    assert_eq!(r.jump_counter(), 0);
    assert_eq!(r.outcome(), None);
    // Lose mode: rule 5 (by count) before rule 6.
    let l = lose("o6/7/7/-------/-------/xxxxxxx/xxxxxxx x 80 1");
    assert_eq!(
        l.outcome(),
        Some(Outcome::win(Side::First, EndReason::MoveLimit))
    );
}

#[test]
fn ending_7_timeout_and_resignation_in_record() {
    let mut rec = Record::new(Ataxx::start(&PASS));
    rec.play_text("b6").unwrap();
    rec.timeout();
    assert_eq!(
        rec.outcome(),
        Some(Outcome::win(Side::First, EndReason::Timeout))
    );
    let mut rec = Record::new(Ataxx::start(&LOSE));
    rec.resign(Side::First);
    assert_eq!(
        rec.outcome(),
        Some(Outcome::win(Side::Second, EndReason::Resignation))
    );
}

#[test]
fn ending_order_is_rules_file_order() {
    // Full board with a high jump counter: rule 1 wins.
    let p = pos("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo x 99 1");
    assert_eq!(p.outcome().unwrap().reason, EndReason::BoardFull);
    // No O pieces, nobody can move, counter 80: rule 2 wins.
    let q = pos("7/7/7/-------/-------/xxxxxxx/xxxxxxx x 80 1");
    assert_eq!(q.outcome().unwrap().reason, EndReason::NoPieces);
    // Neither can move and counter 80: rule 3 wins.
    let r = pos("7/7/7/-------/-------/oxxxxxx/xxxxxxx x 80 1");
    assert_eq!(r.outcome().unwrap().reason, EndReason::NeitherCanMove);
}

// ---------------------------------------------------------------- counters

#[test]
fn jump_counter_resets_on_clone_and_capture_counts_plain_jumps_ignores_pass() {
    let mut p = pos("x5o/7/7/7/7/7/o5x x 10 3");
    play(&mut p, "a7c5"); // capture-less jump: +1
    assert_eq!(p.jump_counter(), 11);
    play(&mut p, "g7e5"); // capture-less jump: +1
    assert_eq!(p.jump_counter(), 12);
    play(&mut p, "f1"); // clone without a flip: reset
    assert_eq!(p.jump_counter(), 0);
    play(&mut p, "e5e3"); // jump without a flip
    assert_eq!(p.jump_counter(), 1);
    // A jump that flips resets.
    let mut q = pos("7/7/7/7/7/7/x2o2o x 7 1");
    play(&mut q, "a1c2"); // flips d1
    assert_eq!(q.jump_counter(), 0);
    assert_eq!(q.piece_at(sq("d1")), Some(Side::First));
    // A pass neither counts nor resets.
    let mut w = pos("o6/7/7/-------/-------/xxxxxxx/xxxxxxx x 5 9");
    w.play(AtaxxMove::Pass).unwrap();
    assert_eq!(w.jump_counter(), 5);
}

#[test]
fn fullmove_grows_after_o_moves_and_o_passes() {
    let mut p = Ataxx::start(&PASS);
    play(&mut p, "b6");
    assert_eq!(p.fullmove(), 1);
    play(&mut p, "b1");
    assert_eq!(p.fullmove(), 2);
    // O passes: the full-move number still grows.
    let mut w = pos("7/7/7/7/xxxxxxx/xxxxxxx/ooooooo o 0 4");
    w.play(AtaxxMove::Pass).unwrap();
    assert_eq!(w.fullmove(), 5);
    assert_eq!(w.to_text(), "7/7/7/7/xxxxxxx/xxxxxxx/ooooooo x 0 5");
    // X passes: it does not.
    let mut v = pos("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 4");
    v.play(AtaxxMove::Pass).unwrap();
    assert_eq!(v.fullmove(), 4);
}

#[test]
fn irreversible_moves_are_clones_only() {
    // A clone adds a piece and no move removes one: nothing before it can
    // recur. A jump keeps the count, and a flip can be flipped back.
    let p = pos("7/7/7/7/7/7/x2o2o x 0 1");
    assert!(p.is_irreversible(mv("b1")));
    assert!(p.is_irreversible(mv("b2")));
    assert!(
        !p.is_irreversible(mv("a1c2")),
        "flips d1, which can flip back"
    );
    assert!(!p.is_irreversible(mv("a1a3")));
    assert!(!p.is_irreversible(AtaxxMove::Pass));
}

/// The cycle of issue 11: two flipping jumps out and two plain jumps back.
const FLIP_CYCLE_FEN: &str = "7/7/7/7/6o/7/x2o3 x 0 1";
const FLIP_CYCLE: [&str; 4] = ["a1c2", "g3e2", "c2a1", "e2g3"];

#[test]
fn flipping_jumps_repeat_and_end_by_repetition_on_the_third_occurrence() {
    let start = pos(FLIP_CYCLE_FEN);
    let mut rec = Record::new(start);
    // The cycle really flips (d1 goes to X, then back to O) and comes back.
    rec.play_text("a1c2").unwrap();
    assert_eq!(rec.position().piece_at(3), Some(Side::First), "d1 flipped");
    assert_eq!(
        rec.position().jump_counter(),
        0,
        "a flip resets the counter"
    );
    rec.play_text("g3e2").unwrap();
    assert_eq!(rec.position().piece_at(3), Some(Side::Second), "d1 back");
    for text in ["c2a1", "e2g3"] {
        rec.play_text(text).unwrap();
    }
    assert_eq!(rec.position().hash(), start.hash());
    assert_eq!(rec.position().to_text(), "7/7/7/7/6o/7/x2o3 x 2 3");
    assert_eq!(rec.outcome(), None, "second occurrence: the game goes on");
    // Second cycle: the start position occurs the third time at its end,
    // and not one ply earlier.
    for (i, text) in FLIP_CYCLE.iter().enumerate() {
        assert_eq!(rec.outcome(), None, "before ply {} of cycle 2", i + 1);
        rec.play_text(text).unwrap();
    }
    // The count decides it (issue 38): X has 1 piece (a1), O 2 (d1, g3).
    let o_wins = Some(Outcome::win(Side::Second, EndReason::Repetition));
    assert_eq!(rec.outcome(), o_wins, "O has more pieces");
    assert_eq!(rec.position().count(Side::First), 1);
    assert_eq!(rec.position().count(Side::Second), 2);
    assert_eq!(rec.play_text("a1c2"), Err(GameError::GameOver));
    assert_eq!(rec.moves().len(), 8);
    // Undo reopens the game; replaying the last move ends it again.
    assert_eq!(rec.undo(1), 1);
    assert_eq!(rec.outcome(), None);
    rec.play_text("e2g3").unwrap();
    assert_eq!(rec.outcome(), o_wins);
    // After a clone (which clears the history), the new positions are
    // counted the same way: a flipping cycle after it ends on its third time.
    let mut rec = Record::new(start);
    for text in FLIP_CYCLE.iter().chain(["a2", "g3g1"].iter()) {
        rec.play_text(text).unwrap();
    }
    let after_clone = *rec.position();
    for cycle in 0..2 {
        for text in ["a1c2", "g1e2", "c2a1", "e2g1"] {
            assert_eq!(rec.outcome(), None, "cycle {cycle}, before {text}");
            rec.play_text(text).unwrap();
        }
    }
    assert_eq!(rec.position().hash(), after_clone.hash());
    // Here the counts are equal (X a1 a2, O d1 g1): a draw.
    assert_eq!(rec.position().count(Side::First), 2);
    assert_eq!(rec.position().count(Side::Second), 2);
    assert_eq!(rec.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

// ---------------------------------------------------------------- hash

#[test]
fn hash_covers_pieces_gaps_and_side_but_not_counters() {
    let a = pos("x5o/7/7/7/7/7/o5x x 0 1");
    assert_eq!(a.hash(), pos("x5o/7/7/7/7/7/o5x x 33 17").hash());
    assert_ne!(a.hash(), pos("x5o/7/7/7/7/7/o5x o 0 1").hash());
    assert_ne!(a.hash(), pos("x5o/7/7/3-3/7/7/o5x x 0 1").hash());
    assert_ne!(a.hash(), pos("o5x/7/7/7/7/7/x5o x 0 1").hash());
    assert_ne!(a.hash(), pos("x5o/7/7/7/7/7/o4xx x 0 1").hash());
    assert_ne!(a.hash(), 0);
    // The incremental hash matches a fresh parse after every move.
    let mut p = a;
    for text in ["b6", "b1", "a7c5", "g7e6", "d4"] {
        play(&mut p, text);
        assert_eq!(p.hash(), pos(&p.to_text()).hash(), "after {text}");
    }
}

// ---------------------------------------------------------------- FEN

#[test]
fn fen_round_trips() {
    for fen in [
        START_FEN,
        "x5o/7/7/7/7/7/o5x o 0 1",
        "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1",
        "7/7/7/7/-------/-------/x5o o 17 23",
        "xxxxxxx/ooooooo/-------/x1o1-1x/7/7/7 x 79 100",
        "7/7/7/7/7/7/7 x 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(p.to_text(), fen);
        assert_eq!(pos(&p.to_text()), p);
    }
}

#[test]
fn fen_counters_are_optional() {
    let p = pos("x5o/7/7/7/7/7/o5x o");
    assert_eq!((p.jump_counter(), p.fullmove()), (0, 1));
    assert_eq!(p.to_text(), "x5o/7/7/7/7/7/o5x o 0 1");
    let q = pos("x5o/7/7/7/7/7/o5x x 12");
    assert_eq!((q.jump_counter(), q.fullmove()), (12, 1));
    // Surrounding and repeated whitespace is fine.
    assert_eq!(pos("  x5o/7/7/7/7/7/o5x   x  0 1 "), Ataxx::start(&PASS));
    // The rules given are kept.
    assert_eq!(lose(START_FEN).rules(), &LOSE);
}

#[test]
fn bad_fens_are_rejected_with_a_specific_message() {
    let cases = [
        ("", "empty"),
        ("   ", "empty"),
        ("x5o/7/7/7/7/7/o5x", "side to move is missing"),
        ("x5o/7/7/7/7/o5x x 0 1", "6 ranks"),
        ("x5o/7/7/7/7/7/7/o5x x 0 1", "8 ranks"),
        ("x5o/7/7/7/7/7/o5x/ x 0 1", "8 ranks"),
        ("x5o/6/7/7/7/7/o5x x 0 1", "rank 6 ('6') has fewer than 7"),
        ("x6o/7/7/7/7/7/o5x x 0 1", "rank 7 ('x6o') has more than 7"),
        ("x5o/8/7/7/7/7/o5x x 0 1", "digit 8"),
        ("x5o/07/7/7/7/7/o5x x 0 1", "digit 0"),
        ("x5o/7/7/34/7/7/o5x x 0 1", "two digits in a row"),
        ("x5o/7/7/7/7/7/o5X x 0 1", "unknown character 'X'"),
        ("x5o/7/7/3b3/7/7/o5x x 0 1", "unknown character 'b'"),
        (
            "x5o/7/7/3\u{e9}3/7/7/o5x x 0 1",
            "unknown character '\u{e9}'",
        ),
        ("x5o/7/7/7/7/7/o5xxxxxxxxxxx x 0 1", "rank 1"),
        ("x5o/7/7/7/7/7/o5x w 0 1", "side to move is 'w'"),
        ("x5o/7/7/7/7/7/o5x X 0 1", "side to move is 'X'"),
        ("x5o/7/7/7/7/7/o5x x -1 1", "jump counter is '-1'"),
        ("x5o/7/7/7/7/7/o5x x a 1", "jump counter is 'a'"),
        ("x5o/7/7/7/7/7/o5x x 99999999999 1", "jump counter"),
        ("x5o/7/7/7/7/7/o5x x 0 0", "full-move number is '0'"),
        ("x5o/7/7/7/7/7/o5x x 0 one", "full-move number is 'one'"),
        ("x5o/7/7/7/7/7/o5x x 0 1 extra", "too many fields"),
    ];
    for (fen, expected) in cases {
        match Ataxx::from_text(fen, &PASS) {
            Err(GameError::BadPosition(msg)) => {
                assert!(
                    msg.contains(expected),
                    "{fen:?}: message {msg:?} lacks {expected:?}"
                )
            }
            other => panic!("{fen:?} should be rejected, got {other:?}"),
        }
    }
}

// ---------------------------------------------------------------- move notation

#[test]
fn move_notation_round_trips() {
    assert_eq!(mv("b6"), AtaxxMove::Clone { to: sq("b6") });
    assert_eq!(
        mv("a7c5"),
        AtaxxMove::Jump {
            from: sq("a7"),
            to: sq("c5")
        }
    );
    assert_eq!(mv("0000"), AtaxxMove::Pass);
    assert_eq!(AtaxxMove::Pass.to_string(), "0000");
    let mut n = 0;
    for to in 0..49u8 {
        let c = AtaxxMove::Clone { to };
        assert_eq!(mv(&c.to_string()), c);
        for from in 0..49u8 {
            let (fr, ff, tr, tf) = (from / 7, from % 7, to / 7, to % 7);
            if fr.abs_diff(tr).max(ff.abs_diff(tf)) == 2 {
                let j = AtaxxMove::Jump { from, to };
                assert_eq!(mv(&j.to_string()), j);
                n += 1;
            }
        }
    }
    assert_eq!(n, 480, "ordered pairs of squares at distance 2");
    // parse_move reads the same notation; surrounding spaces are fine.
    assert_eq!(Ataxx::start(&PASS).parse_move(" a7c5 "), Ok(mv("a7c5")));
}

#[test]
fn bad_moves_are_rejected_with_a_specific_message() {
    let cases = [
        ("", "empty"),
        ("b", "not a move"),
        ("b66", "not a move"),
        ("a1c3e5", "not a move"),
        ("pass", "not a move"),
        ("000", "not a move"),
        ("00000", "not a move"),
        ("h1", "file must be a letter a-g"),
        ("A1", "file must be a letter a-g"),
        ("a8", "rank must be a digit 1-7"),
        ("a0", "rank must be a digit 1-7"),
        ("a1h3", "file must be a letter a-g"),
        ("a1a1", "same square"),
        ("a1b2", "is a clone"),
        ("a1a4", "spans 3 squares"),
        ("a1g7", "spans 6 squares"),
        ("a1-c", "'-c' is not a square"),
        ("\u{e9}1", "not a move"),
        ("\u{e9}1c3", "not a move"),
    ];
    let p = Ataxx::start(&PASS);
    for (text, expected) in cases {
        match p.parse_move(text) {
            Err(GameError::BadMove(msg)) => {
                assert!(
                    msg.contains(expected),
                    "{text:?}: message {msg:?} lacks {expected:?}"
                )
            }
            other => panic!("{text:?} should be rejected, got {other:?}"),
        }
    }
    for bad in ["", "a", "a10", "z9", "11", "aa", "\u{e9}"] {
        assert!(
            matches!(parse_square(bad), Err(GameError::BadMove(_))),
            "{bad}"
        );
    }
    // Messages read well through Display.
    let e = p.parse_move("a1a4").unwrap_err().to_string();
    assert!(e.starts_with("invalid move: "), "{e}");
}

#[test]
fn play_rejects_illegal_moves_and_moves_after_the_end() {
    let mut p = Ataxx::start(&PASS);
    let e = p.play(mv("d4")).unwrap_err();
    assert_eq!(
        e,
        GameError::IllegalMove(Illegal::Ataxx(AtaxxIllegal::Alone { to: sq("d4") }))
    );
    assert_eq!(
        e.to_string(),
        "illegal move: no piece of the side to move stands next to d4"
    );
    // Moves built in code with squares off the board are illegal, not a panic.
    assert!(p.play(AtaxxMove::Clone { to: 49 }).is_err());
    assert!(p.play(AtaxxMove::Jump { from: 200, to: 255 }).is_err());
    assert_eq!(p.flips(AtaxxMove::Clone { to: 255 }), 0);
    assert_eq!(p.piece_at(255), None);
    assert!(!p.is_gap(49));
    assert_eq!(p.clone_targets(49), 0);
    assert_eq!(p.jump_targets(200), 0);
    assert_eq!(p, Ataxx::start(&PASS));
    let mut over = pos("x6/7/7/7/7/7/7 o 0 1");
    assert_eq!(over.play(mv("a6")), Err(GameError::GameOver));
    assert_eq!(over.clone_targets(sq("a7")), 0);
}
