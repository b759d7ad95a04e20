//! Stones!: one test (or more) per rule and decision of
//! shared/rules/stones.md, its four worked examples move list for move
//! list, and the notation with every kind of bad input.

use std::collections::BTreeSet;

use stoneplay::games::stones::StonesIllegal;
use stoneplay::games::stones::{
    parse_square, square_name, Square, Stones, StonesMove, StonesRules, START_POSITION,
};
use stoneplay::games::{EndReason, Game, GameError, Illegal, Outcome, Record, Side};

fn pos(text: &str) -> Stones {
    Stones::from_text(text, &StonesRules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(name: &str) -> Square {
    parse_square(name).unwrap()
}

fn moves(p: &Stones) -> BTreeSet<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn set(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(str::to_string).collect()
}

fn from_moves(p: &Stones, from: &str) -> BTreeSet<String> {
    p.moves_from(sq(from))
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// Plays a move given in notation, which must be legal.
fn after(p: &Stones, mv: &str) -> Stones {
    let mut next = *p;
    let m = p.parse_move(mv).unwrap();
    next.play(m).unwrap_or_else(|e| panic!("{mv}: {e}"));
    next
}

// ---------------------------------------------------------------- worked examples

#[test]
fn example_1_ten_moves() {
    let p = pos("W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w");
    let expected = set("c1xb2-a3 c1-d2 c1-e3 c1-f4 g2-f3 g2-h3 c3-b4 c3-d4 c3-e5 c3xf6-g7");
    assert_eq!(moves(&p), expected);
    assert_eq!(p.legal_moves().len(), 10);
    // a1 cannot jump b2*: c3 is occupied.
    assert!(p.moves_from(sq("a1")).is_empty());
    // h4 is stuck behind the pinned g5*.
    assert!(p.moves_from(sq("h4")).is_empty());
    // c3 cannot jump a5 (the first stone met beyond b4): landing off the board.
    assert!(!moves(&p).iter().any(|m| m.contains("xa5")));
}

#[test]
fn example_2_white_then_black_and_scores() {
    let w = pos("W:a8,c7,e8,f8*,g7,h8 B:b8,d8* w");
    assert_eq!(moves(&w), set("a8xb8-c8 e8xf8-g8"));
    assert_eq!(w.legal_moves().len(), 2);
    let b = pos("W:a8,c7,e8,f8*,g7,h8 B:b8,d8* b");
    assert_eq!(moves(&b), set("b8-a7 b8xc7-d6"));
    assert_eq!(b.legal_moves().len(), 2);
    for p in [w, b] {
        assert_eq!(p.score(Side::First), 3, "a8, e8, h8 (f8 is pinned)");
        assert_eq!(p.score(Side::Second), 0);
    }
}

#[test]
fn example_3_seven_moves() {
    let p = pos("W:b1,c4,d1,d2* B:a2,c1,d5,e4*,h6 b");
    let expected = set("c1xb1-a1 c1xd1-e1 d5xc4-b3 d5xe4-f3 h6-g5 h6-f4 h6-e3");
    assert_eq!(moves(&p), expected);
    assert_eq!(p.legal_moves().len(), 7);
}

#[test]
fn example_4_white_has_no_move_and_wins_2_1() {
    let p = pos("W:a8,c8,e8*,g3* B:b1,d1*,f5 w");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.score(Side::First), 2);
    assert_eq!(p.score(Side::Second), 1);
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::First, EndReason::NoLegalMove))
    );
    // Black's options do not matter: it is White's turn.
    let mut black_view = pos("W:a8,c8,e8*,g3* B:b1,d1*,f5 b");
    assert!(!black_view.legal_moves().is_empty());
    assert_eq!(black_view.outcome(), None);
    // Playing on a finished game is refused.
    let mut over = p;
    let mv: StonesMove = "a8xb8-c8".parse().unwrap();
    assert_eq!(over.play(mv), Err(GameError::GameOver));
    assert_eq!(over, p);
    let first = black_view.legal_moves()[0];
    black_view.play(first).unwrap();
}

#[test]
fn example_4_with_black_h1_is_a_draw() {
    let p = pos("W:a8,c8,e8*,g3* B:b1,d1*,f5,h1 w");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.score(Side::First), 2);
    assert_eq!(p.score(Side::Second), 2);
    assert_eq!(p.outcome(), Some(Outcome::draw(EndReason::NoLegalMove)));
}

// ---------------------------------------------------------------- board and start

#[test]
fn start_position() {
    let p = Stones::start(&StonesRules);
    assert_eq!(p, pos(START_POSITION));
    assert_eq!(p.to_text(), START_POSITION);
    assert_eq!(p.side_to_move(), Side::First);
    for s in 0..64u8 {
        let expected = match s / 8 {
            0 => Some((Side::First, false)),
            7 => Some((Side::Second, false)),
            _ => None,
        };
        assert_eq!(p.stone_at(s), expected, "{}", square_name(s));
    }
    assert_eq!(p.score(Side::First), 0);
    assert_eq!(p.score(Side::Second), 0);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.rules(), &StonesRules);
}

#[test]
fn square_indices() {
    assert_eq!(sq("a1"), 0);
    assert_eq!(sq("h1"), 7);
    assert_eq!(sq("a8"), 56);
    assert_eq!(sq("h8"), 63);
    assert_eq!(sq("e4"), 28);
    for s in 0..64u8 {
        assert_eq!(parse_square(&square_name(s)), Ok(s));
    }
    assert_eq!(square_name(64), "??");
    assert_eq!(square_name(255), "??");
}

// ---------------------------------------------------------------- diagonal moves

#[test]
fn slides_any_distance_forward_diagonally_only() {
    let p = pos("W:d4 B:h1 w");
    assert_eq!(
        from_moves(&p, "d4"),
        set("d4-c5 d4-b6 d4-a7 d4-e5 d4-f6 d4-g7 d4-h8")
    );
    // Black goes down the board.
    let b = pos("W:a8 B:d4 b");
    assert_eq!(
        from_moves(&b, "d4"),
        set("d4-c3 d4-b2 d4-a1 d4-e3 d4-f2 d4-g1")
    );
}

#[test]
fn slide_stops_at_first_stone_and_may_jump_only_it() {
    // White d4; Black unpinned f6 on the way: stop on e5 or jump f6 to g7,
    // never beyond g7 (a jump ends the move) nor past f6 by sliding.
    let p = pos("W:d4 B:f6,h8 w");
    let m = from_moves(&p, "d4");
    assert!(m.contains("d4-e5"));
    assert!(m.contains("d4xf6-g7"));
    assert!(!m.contains("d4-g7"));
    assert!(!m.iter().any(|x| x.ends_with("-h8")));
}

#[test]
fn adjacent_stone_can_be_jumped() {
    let p = pos("W:d4 B:e5 w");
    assert!(from_moves(&p, "d4").contains("d4xe5-f6"));
}

#[test]
fn only_the_first_stone_met_may_be_jumped() {
    // e5 is an unpinned ally (not jumpable); f6 behind it must not be jumped.
    let p = pos("W:d4,e5 B:f6 w");
    let m = from_moves(&p, "d4");
    assert!(!m.iter().any(|x| x.contains('x') && x.ends_with("g7")));
    assert!(!m.contains("d4xe5-f6"));
}

#[test]
fn jumpable_stones_are_unpinned_opponents_and_pinned_allies() {
    // d4 looks at e5 in each case; f6 is empty.
    let cases = [
        ("W:d4 B:e5 w", true),     // unpinned opponent
        ("W:d4,e5* B:a8 w", true), // pinned ally
        ("W:d4,e5 B:a8 w", false), // unpinned ally
        ("W:d4 B:e5* w", false),   // pinned opponent
    ];
    for (text, jumpable) in cases {
        let p = pos(text);
        assert_eq!(
            from_moves(&p, "d4").contains("d4xe5-f6"),
            jumpable,
            "{text}"
        );
    }
    // Same four cases sideways: d4 and e4, landing f4.
    let cases = [
        ("W:d4 B:e4 w", true),
        ("W:d4,e4* B:a8 w", true),
        ("W:d4,e4 B:a8 w", false),
        ("W:d4 B:e4* w", false),
    ];
    for (text, jumpable) in cases {
        let p = pos(text);
        assert_eq!(
            from_moves(&p, "d4").contains("d4xe4-f4"),
            jumpable,
            "{text}"
        );
    }
}

#[test]
fn landing_square_must_be_empty_and_on_the_board() {
    // Occupied landing square.
    let p = pos("W:d4 B:e5,f6 w");
    assert!(!from_moves(&p, "d4").iter().any(|m| m.contains('x')));
    // Off the board: g7 to the edge.
    let p = pos("W:g6 B:h7 w");
    assert!(!from_moves(&p, "g6").iter().any(|m| m.contains('x')));
    // Sideways off the board and onto an occupied square.
    let p = pos("W:b4,e4 B:a4,f4,g4 w");
    assert!(!from_moves(&p, "b4").iter().any(|m| m.contains("xa4")));
    assert!(!from_moves(&p, "e4").iter().any(|m| m.contains("xf4")));
}

#[test]
fn jumping_is_optional() {
    let p = pos("W:d4 B:e5 w");
    let m = from_moves(&p, "d4");
    assert!(m.contains("d4xe5-f6"));
    assert!(m.contains("d4-c5"), "other moves stay available: {m:?}");
}

#[test]
fn a_stone_jumps_at_most_once_per_turn() {
    // After d4xe5-f6, g7 holds another jumpable stone; the move ends on f6.
    let p = pos("W:d4 B:e5,g7 w");
    let m = from_moves(&p, "d4");
    assert!(m.contains("d4xe5-f6"));
    assert!(!m.iter().any(|x| x.ends_with("h8")));
    let q = after(&p, "d4xe5-f6");
    assert_eq!(q.side_to_move(), Side::Second);
    assert_eq!(q.stone_at(sq("f6")), Some((Side::First, false)));
}

// ---------------------------------------------------------------- sideways jumps

#[test]
fn sideways_jumps_left_and_right_no_sideways_slide() {
    let p = pos("W:d4 B:c4,e4,a8 w");
    let m = from_moves(&p, "d4");
    assert!(m.contains("d4xc4-b4"));
    assert!(m.contains("d4xe4-f4"));
    // No sideways slide anywhere.
    let lone = pos("W:d4 B:a8 w");
    assert!(!from_moves(&lone, "d4")
        .iter()
        .any(|x| x.ends_with('4') && !x.contains('x')));
    // The jumped stone must be adjacent.
    let far = pos("W:d4 B:f4 w");
    assert!(!from_moves(&far, "d4").iter().any(|x| x.contains('x')));
}

#[test]
fn far_rank_stone_may_jump_sideways_and_be_jumped_sideways() {
    // White on its goal rank: no forward move, but a sideways jump.
    let p = pos("W:d8 B:e8,a1 w");
    assert_eq!(from_moves(&p, "d8"), set("d8xe8-f8"));
    // Black then sits on its home rank; a White goal-rank stone gets jumped.
    let q = pos("W:e8 B:d8,a1 b");
    assert!(from_moves(&q, "d8").contains("d8xe8-f8"));
    // Black on its goal rank (rank 1).
    let r = pos("W:e1 B:d1 b");
    assert_eq!(from_moves(&r, "d1"), set("d1xe1-f1"));
}

// ---------------------------------------------------------------- effect of a jump

#[test]
fn jumped_opponent_becomes_pinned() {
    let p = pos("W:d4 B:e5,a8 w");
    let q = after(&p, "d4xe5-f6");
    assert_eq!(q.stone_at(sq("e5")), Some((Side::Second, true)));
    assert_eq!(q.stone_at(sq("f6")), Some((Side::First, false)));
    assert_eq!(q.stone_at(sq("d4")), None);
    assert_eq!(q.to_text(), "W:f6 B:e5*,a8 b");
}

#[test]
fn jumped_ally_becomes_unpinned() {
    let p = pos("W:d4,e4* B:a8 w");
    let q = after(&p, "d4xe4-f4");
    assert_eq!(q.stone_at(sq("e4")), Some((Side::First, false)));
    assert_eq!(q.to_text(), "W:e4,f4 B:a8 b");
    // Black unpins its own stone too.
    let p = pos("W:a1 B:d5,c4* b");
    let q = after(&p, "d5xc4-b3");
    assert_eq!(q.stone_at(sq("c4")), Some((Side::Second, false)));
}

#[test]
fn slide_changes_no_pins_and_mover_state_never_changes() {
    let p = pos("W:d4,b2* B:e7*,a8 w");
    let q = after(&p, "d4-f6");
    assert_eq!(q.to_text(), "W:b2*,f6 B:e7*,a8 b");
    // The mover keeps its (unpinned) state after a jump.
    let q = after(&pos("W:d4 B:e5 w"), "d4xe5-f6");
    assert_eq!(q.stone_at(sq("f6")), Some((Side::First, false)));
}

#[test]
fn pinned_stones_cannot_move() {
    let p = pos("W:d4* B:a8 w");
    assert!(p.moves_from(sq("d4")).is_empty());
    assert!(p.legal_moves().is_empty());
    let mut q = pos("W:d4*,h1 B:a8 w");
    let mv: StonesMove = "d4-e5".parse().unwrap();
    let err = q.play(mv).unwrap_err();
    assert_eq!(
        err,
        GameError::IllegalMove(Illegal::Stones(StonesIllegal::Pinned { from: sq("d4") }))
    );
    assert_eq!(
        err.to_string(),
        "illegal move: the stone on d4 is pinned and cannot move"
    );
    assert_eq!(q, pos("W:d4*,h1 B:a8 w"));
}

#[test]
fn stones_are_never_removed() {
    let p = pos("W:d4 B:e5 w");
    let q = after(&p, "d4xe5-f6");
    let count = |s: &Stones, side| {
        (0..64)
            .filter(|&i| matches!(s.stone_at(i), Some((o, _)) if o == side))
            .count()
    };
    assert_eq!(count(&q, Side::First), 1);
    assert_eq!(count(&q, Side::Second), 1);
}

#[test]
fn moves_from_empty_opponent_or_off_board_square_is_empty() {
    let p = Stones::start(&StonesRules);
    assert!(p.moves_from(sq("d4")).is_empty());
    assert!(p.moves_from(sq("d8")).is_empty());
    assert!(p.moves_from(64).is_empty());
    assert!(p.moves_from(255).is_empty());
    assert_eq!(p.stone_at(64), None);
    assert_eq!(p.moves_from(sq("a1")).len(), 6);
    assert_eq!(p.moves_from(sq("b1")).len(), 7);
}

#[test]
fn moves_from_agrees_with_legal_moves() {
    let p = pos("W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w");
    let mut union: Vec<StonesMove> = (0..64).flat_map(|s| p.moves_from(s)).collect();
    let mut all = p.legal_moves();
    union.sort_by_key(|m| (m.from, m.to));
    all.sort_by_key(|m| (m.from, m.to));
    assert_eq!(union, all);
}

// ---------------------------------------------------------------- play errors

#[test]
fn illegal_moves_are_refused_with_reasons_and_change_nothing() {
    let start = Stones::start(&StonesRules);
    let cases = [
        ("d4-e5", "there is no stone on d4"),
        ("a8-b7", "the stone on a8 belongs to the opponent"),
        ("c1-c3x", ""), // not even well formed: checked below
    ];
    for (text, reason) in cases.iter().take(2) {
        let mut p = start;
        let mv: StonesMove = text.parse().unwrap();
        let err = p.play(mv).unwrap_err();
        assert!(
            matches!(err, GameError::IllegalMove(Illegal::Stones(_))),
            "{err:?}"
        );
        assert_eq!(err.to_string(), format!("illegal move: {reason}"));
        assert_eq!(p, start);
    }
    assert!(matches!(
        start.parse_move(cases[2].0),
        Err(GameError::BadMove(_))
    ));
    // Well formed, own stone, but not legal: backwards, blocked, wrong jump.
    let p = pos("W:d4,h1 B:e5*,a8 w");
    for text in ["d4-c3", "d4xe5-f6", "d4-f6", "h1xg1-f1"] {
        let mut q = p;
        let mv: StonesMove = text.parse().unwrap();
        let err = q.play(mv).unwrap_err();
        assert!(matches!(err, GameError::IllegalMove(_)), "{text}: {err:?}");
        assert_eq!(q, p);
    }
    // Hand-built moves with squares off the board never panic.
    let mut q = p;
    for mv in [
        StonesMove {
            from: 64,
            to: 1,
            jumped: None,
        },
        StonesMove {
            from: 27,
            to: 200,
            jumped: None,
        },
        StonesMove {
            from: 27,
            to: 45,
            jumped: Some(99),
        },
    ] {
        assert!(matches!(q.play(mv), Err(GameError::IllegalMove(_))));
    }
    assert_eq!(q, p);
}

#[test]
fn a_jump_must_name_the_right_stone() {
    // d4xe5-f6 is legal; the same landing with a slide or a wrong jumped
    // square is not.
    let p = pos("W:d4 B:e5 w");
    let good: StonesMove = "d4xe5-f6".parse().unwrap();
    assert!(p.legal_moves().contains(&good));
    let slide = StonesMove {
        from: sq("d4"),
        to: sq("f6"),
        jumped: None,
    };
    let mut q = p;
    assert!(q.play(slide).is_err());
    let wrong = StonesMove {
        from: sq("d4"),
        to: sq("f6"),
        jumped: Some(sq("e4")),
    };
    assert!(q.play(wrong).is_err());
    assert_eq!(q, p);
}

// ---------------------------------------------------------------- end and score

#[test]
fn pinned_stones_on_far_rank_score_zero_and_zero_zero_is_a_draw() {
    let p = pos("W:a8*,b8*,c8 B:a1*,b1 b");
    assert_eq!(p.score(Side::First), 1);
    assert_eq!(p.score(Side::Second), 1);
    // Stones elsewhere do not score.
    let q = pos("W:a7,b6 B:a2 w");
    assert_eq!(q.score(Side::First), 0);
    assert_eq!(q.score(Side::Second), 0);
    // No stones: nobody can move, 0-0 draw.
    let empty = pos("W: B: w");
    assert_eq!(empty.outcome(), Some(Outcome::draw(EndReason::NoLegalMove)));
    // All pinned on the far ranks: 0-0 draw.
    let pinned = pos("W:a8* B:h1* w");
    assert_eq!(
        pinned.outcome(),
        Some(Outcome::draw(EndReason::NoLegalMove))
    );
}

#[test]
fn black_can_win_on_count() {
    // White to move, only a pinned stone: game over, Black has 2 on rank 1.
    let p = pos("W:d4* B:a1,c1,e1* w");
    assert_eq!(
        p.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoLegalMove))
    );
}

#[test]
fn game_ends_only_when_side_to_move_is_stuck() {
    // Black (not to move) is stuck; White can still move: not over.
    let p = pos("W:a6 B:b1* w");
    assert_eq!(p.outcome(), None);
    let q = after(&p, "a6-b7");
    assert_eq!(
        q.outcome(),
        Some(Outcome::draw(EndReason::NoLegalMove)),
        "Black to move and stuck, 0-0"
    );
}

#[test]
fn no_repetition_rule_and_irreversibility() {
    let p = Stones::start(&StonesRules);
    assert!(!p.repetition_ends_game());
    let slide: StonesMove = "c1-e3".parse().unwrap();
    assert!(p.is_irreversible(slide));
    let diag_jump: StonesMove = "c3xd4-e5".parse().unwrap();
    assert!(p.is_irreversible(diag_jump));
    let side: StonesMove = "d4xe4-f4".parse().unwrap();
    assert!(!p.is_irreversible(side));
}

#[test]
fn record_plays_text_and_never_declares_repetition() {
    let mut r = Record::new(Stones::start(&StonesRules));
    r.play_text("c1-e3").unwrap();
    r.play_text("d8-f6").unwrap();
    assert_eq!(r.moves().len(), 2);
    assert!(matches!(
        r.play_text("c1-e3"),
        Err(GameError::IllegalMove(_))
    ));
    assert!(matches!(r.play_text("zz"), Err(GameError::BadMove(_))));
    assert_eq!(r.outcome(), None);
}

// ---------------------------------------------------------------- hash

#[test]
fn hash_depends_on_stones_pins_and_side_only() {
    let a = pos("W:a1,b2* B:e5 w");
    assert_eq!(a.hash(), pos("  B:e5   W:b2*,a1 w ").hash());
    assert_ne!(a.hash(), pos("W:a1,b2* B:e5 b").hash());
    assert_ne!(a.hash(), pos("W:a1,b2 B:e5 w").hash());
    assert_ne!(a.hash(), pos("W:a1,b2* B:e5* w").hash());
    assert_ne!(a.hash(), pos("W:a1,b2*,e5 B: w").hash());
    assert_ne!(a.hash(), pos("W:a1,b2* B:e6 w").hash());
    // Deterministic: the same in a fresh value.
    assert_eq!(
        Stones::start(&StonesRules).hash(),
        pos(START_POSITION).hash()
    );
}

// ---------------------------------------------------------------- move notation

#[test]
fn move_notation_round_trips() {
    for text in [
        "c3-e5", "c3xf6-g7", "d4xe4-f4", "d4xc4-b4", "h6-e3", "d5xc4-b3", "a8xb8-c8",
    ] {
        let mv: StonesMove = text.parse().unwrap();
        assert_eq!(mv.to_string(), text);
    }
    let mv: StonesMove = "c3xf6-g7".parse().unwrap();
    assert_eq!(
        mv,
        StonesMove {
            from: sq("c3"),
            to: sq("g7"),
            jumped: Some(sq("f6"))
        }
    );
    // Surrounding whitespace is ignored.
    assert_eq!(
        " c3-e5\n".parse::<StonesMove>().unwrap().to_string(),
        "c3-e5"
    );
    // Every generated move round-trips through parse_move.
    let p = pos("W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w");
    for m in p.legal_moves() {
        assert_eq!(p.parse_move(&m.to_string()), Ok(m));
    }
}

#[test]
fn bad_move_text_is_rejected_with_a_message() {
    let p = Stones::start(&StonesRules);
    let bad = [
        "",
        "   ",
        "c3",
        "c3e5",
        "c3-",
        "-e5",
        "c3-e5-g7",
        "c3--e5",
        "i3-e5",
        "c9-e5",
        "c0-e5",
        "C3-E5",
        "c3-e55",
        "c3-c3",
        "c3-c5",    // not diagonal
        "c3-d5",    // knight-like
        "c3-e3",    // sideways slide
        "c3xd4-e6", // jump not on a line
        "c3xe5-g7", // wrong jumped square: must be f6
        "c3xd4-d5", // adjacent landing
        "c3xd3-e3x",
        "c3xd3-f3", // sideways by three
        "d4xe4-g4",
        "d4xd4-f4",
        "c3xx-e5",
        "c3xf6xg7-h8",
        "é3-e5",
        "c3-e5 ",
        "c3 - e5",
        "c3\u{0}-e5",
    ];
    for text in bad {
        if text == "c3-e5 " {
            // Trailing whitespace alone is fine (trimmed).
            assert!(p.parse_move(text).is_ok());
            continue;
        }
        match p.parse_move(text) {
            Err(GameError::BadMove(msg)) => assert!(!msg.is_empty(), "{text:?}"),
            other => panic!("{text:?} gave {other:?}"),
        }
    }
    // Messages name the problem.
    let msg = |t: &str| p.parse_move(t).unwrap_err().to_string();
    assert!(msg("i3-e5").contains("'i3'"), "{}", msg("i3-e5"));
    assert!(msg("c3-c5").contains("diagonal"));
    assert!(msg("c3xe5-g7").contains("directly before the landing square"));
    assert!(msg("").contains("empty"));
}

#[test]
fn bad_square_names() {
    for s in [
        "", "a", "a0", "a9", "i1", "A1", "1a", "a10", "aa", "🙂1", "a1 ",
    ] {
        assert!(
            matches!(parse_square(s), Err(GameError::BadMove(ref m)) if m.contains("bad square name")),
            "{s:?}"
        );
    }
}

// ---------------------------------------------------------------- position text

#[test]
fn position_text_round_trips_canonically() {
    // Canonical texts (squares in index order a1, b1, .., h8) come back unchanged.
    for text in [
        START_POSITION,
        "W:a1,c1,b2*,g2,c3,h4 B:e4*,a5,g5*,f6 w",
        "W:c7,g7,a8,e8,f8*,h8 B:b8,d8* b",
        "W:b1,d1,d2*,c4 B:c1,a2,e4*,d5,h6 b",
        "W:g3*,a8,c8,e8* B:b1,d1*,f5 w",
        "W: B:a8 w",
        "W:a1 B: b",
        "W: B: w",
    ] {
        assert_eq!(pos(text).to_text(), text);
    }
    // The worked examples are not in index order: they read to the same
    // position as their canonical text.
    for text in [
        "W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w",
        "W:a8,c7,e8,f8*,g7,h8 B:b8,d8* b",
        "W:b1,c4,d1,d2* B:a2,c1,d5,e4*,h6 b",
        "W:a8,c8,e8*,g3* B:b1,d1*,f5 w",
    ] {
        let p = pos(text);
        assert_eq!(pos(&p.to_text()), p, "{text}");
    }
    // Either list order, any order of squares, extra whitespace: same
    // position, written canonically.
    let p = pos("\t B:f6*,e5   W:c3,a1,b2* \n w ");
    assert_eq!(p.to_text(), "W:a1,b2*,c3 B:e5,f6* w");
    assert_eq!(p.stone_at(sq("b2")), Some((Side::First, true)));
    assert_eq!(p.stone_at(sq("f6")), Some((Side::Second, true)));
    assert_eq!(p.stone_at(sq("e5")), Some((Side::Second, false)));
    assert_eq!(pos("W: B:a8 b").side_to_move(), Side::Second);
}

#[test]
fn bad_position_text_is_rejected_with_a_message() {
    let cases = [
        ("", "empty position text"),
        ("   ", "empty position text"),
        ("W:a1 B:a8", "missing the side to move"),
        ("W:a1 w", "missing Black's stones"),
        ("B:a8 w", "missing White's stones"),
        ("w", "missing White's stones"),
        ("W:a1 B:a8 x", "unknown side to move 'x'"),
        ("W:a1 B:a8 W", "unknown side to move 'W'"),
        ("W:a1 B:a8 white", "unknown side to move 'white'"),
        ("W:a1 B:a8 w b", "unexpected 'b' after the side to move"),
        ("W:a1 w B:a8", "unexpected 'B:a8' after the side to move"),
        ("W:a1 B:a8 R:c3 w", "unknown colour 'R'"),
        ("w:a1 B:a8 w", "unknown colour 'w'"),
        ("W:a1 W:b1 B:a8 w", "White's stones are listed twice"),
        ("W:a1 B:a8 B:b8 w", "Black's stones are listed twice"),
        ("W:a1,a1 B:a8 w", "a1 is listed twice in White's list"),
        ("W:a1,a1* B:a8 w", "a1 is listed twice in White's list"),
        ("W:a1 B:a8,b8,a8 w", "a8 is listed twice in Black's list"),
        ("W:a1,c3 B:c3 w", "c3 holds both a white and a black stone"),
        ("W:a1* B:a1 w", "a1 holds both a white and a black stone"),
        ("W:a1,,b1 B:a8 w", "an empty square name in White's list"),
        ("W:a1, B:a8 w", "an empty square name in White's list"),
        ("W:a1 B:* w", "an empty square name in Black's list"),
        ("W:a1 B:,a8 w", "an empty square name in Black's list"),
        ("W:a9 B:a8 w", "bad square name 'a9' in White's list"),
        ("W:a1 B:z8 w", "bad square name 'z8' in Black's list"),
        ("W:a1** B:a8 w", "bad square name 'a1*' in White's list"),
        ("W:*a1 B:a8 w", "bad square name '*a1' in White's list"),
        ("W:A1 B:a8 w", "bad square name 'A1' in White's list"),
        ("W:a1;b1 B:a8 w", "bad square name 'a1;b1' in White's list"),
        ("W:a1:b1 B:a8 w", "bad square name 'a1:b1' in White's list"),
        ("W a1 B:a8 w", "unknown side to move 'W'"),
        (":a1 B:a8 w", "unknown colour ''"),
    ];
    for (text, expected) in cases {
        match Stones::from_text(text, &StonesRules) {
            Err(GameError::BadPosition(msg)) => {
                assert!(
                    msg.contains(expected),
                    "{text:?}: got {msg:?}, want {expected:?}"
                )
            }
            other => panic!("{text:?} gave {other:?}"),
        }
    }
}

#[test]
fn all_64_squares_may_be_filled_but_no_more() {
    let names: Vec<String> = (0..64u8).map(square_name).collect();
    let full = format!("W:{} B:{} w", names[..32].join(","), names[32..].join(","));
    let p = pos(&full);
    assert_eq!(p.to_text(), full);
    assert!(p.legal_moves().is_empty());
    // A 65th stone must repeat a square.
    let over = format!(
        "W:{},a1 B:{} w",
        names[..32].join(","),
        names[32..].join(",")
    );
    assert!(matches!(
        Stones::from_text(&over, &StonesRules),
        Err(GameError::BadPosition(m)) if m.contains("a1 is listed twice")
    ));
    let over = format!(
        "W:{} B:{},a1 w",
        names[..32].join(","),
        names[32..].join(",")
    );
    assert!(matches!(
        Stones::from_text(&over, &StonesRules),
        Err(GameError::BadPosition(m)) if m.contains("a1 holds both")
    ));
}

#[test]
fn error_messages_display_their_kind() {
    let e = Stones::from_text("W:a1 B:a8", &StonesRules).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid position: missing the side to move (w or b)"
    );
    let e = "c3-c5".parse::<StonesMove>().unwrap_err();
    assert!(e.to_string().starts_with("invalid move: 'c3-c5'"));
}

// ---------------------------------------------------------------- termination

/// The longest run of sideways jumps (by either side, in any order) that
/// one rank allows; computed and checked by the test below, and used by the
/// game-length bound in stones_props.rs.
const SIDEWAYS_JUMPS_PER_RANK: u32 = 4;

#[test]
fn sideways_jumps_alone_never_repeat_a_rank() {
    // The rules file: "sideways jumps alone cannot repeat a position". A
    // sideways jump reads and writes one rank only, so enumerate every
    // content of one rank (empty, W, W*, B, B* on 8 squares: 5^8 states),
    // take the engine's sideways jumps for both sides as edges, and check
    // the graph has no cycle (Kahn's algorithm), measuring its longest path.
    const STATES: usize = 390_625;
    let decode = |mut code: usize| {
        let mut cells = [0u8; 8];
        for c in cells.iter_mut() {
            *c = (code % 5) as u8;
            code /= 5;
        }
        cells
    };
    let encode = |p: &Stones, rank: u8| {
        (0..8).rev().fold(0usize, |acc, file| {
            let cell = match p.stone_at(rank * 8 + file) {
                None => 0,
                Some((Side::First, false)) => 1,
                Some((Side::First, true)) => 2,
                Some((Side::Second, false)) => 3,
                Some((Side::Second, true)) => 4,
            };
            acc * 5 + cell
        })
    };
    let rank = 3u8; // rank 4: any rank behaves the same for sideways jumps
    let mut edges: Vec<Vec<u32>> = vec![Vec::new(); STATES];
    let mut indegree = vec![0u32; STATES];
    for (code, out) in edges.iter_mut().enumerate() {
        let cells = decode(code);
        let mut white = Vec::new();
        let mut black = Vec::new();
        for (file, &c) in cells.iter().enumerate() {
            let name = square_name(rank * 8 + file as u8);
            match c {
                1 => white.push(name),
                2 => white.push(name + "*"),
                3 => black.push(name),
                4 => black.push(name + "*"),
                _ => {}
            }
        }
        for side in ["w", "b"] {
            let p = pos(&format!(
                "W:{} B:{} {side}",
                white.join(","),
                black.join(",")
            ));
            assert_eq!(encode(&p, rank), code);
            for mv in p.legal_moves() {
                if mv.from / 8 == mv.to / 8 {
                    let mut q = p;
                    q.play_unchecked(mv);
                    let next = encode(&q, rank);
                    out.push(next as u32);
                    indegree[next] += 1;
                }
            }
        }
    }
    let mut ready: Vec<usize> = (0..STATES).filter(|&s| indegree[s] == 0).collect();
    let mut longest = vec![0u32; STATES];
    let mut done = 0;
    let mut edge_count = 0;
    while let Some(s) = ready.pop() {
        done += 1;
        for &t in &edges[s] {
            let t = t as usize;
            edge_count += 1;
            longest[t] = longest[t].max(longest[s] + 1);
            indegree[t] -= 1;
            if indegree[t] == 0 {
                ready.push(t);
            }
        }
    }
    assert!(
        edge_count > 100_000,
        "sideways jumps were generated: {edge_count}"
    );
    assert_eq!(
        done, STATES,
        "some rank states lie on a cycle of sideways jumps"
    );
    let max = longest.iter().copied().max().unwrap();
    println!(
        "sideways-jump graph of one rank: {STATES} states, {edge_count} edges, longest path {max}"
    );
    assert_eq!(max, SIDEWAYS_JUMPS_PER_RANK);
}
