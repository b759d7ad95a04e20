//! Every rule and option of `shared/rules/mill.md`, the presets, endings,
//! notation and FEN, and bad input.

// Tests change one option at a time from the default, which reads best as
// an assignment.
#![allow(clippy::field_reassign_with_default)]

use stoneplay::games::mill::MillIllegal;
use stoneplay::games::mill::{
    adjacent, lines, parse_point, point_coords, point_name, BoardFull, Mill, MillInPlacing,
    MillMove, MillRules, Phase, Point, Preset, RemoveFromMills, Stalemate, OPTION_NAMES,
};
use stoneplay::games::{EndReason, Game, GameError, Illegal, Outcome, Record, Side};

const START_FEN: &str = "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1";

fn p(name: &str) -> Point {
    parse_point(name).unwrap()
}

/// A board field from point names.
fn board(white: &[&str], black: &[&str], marked: &[&str]) -> String {
    let mut cells = ['*'; 24];
    for (names, c) in [(white, 'O'), (black, '@'), (marked, 'X')] {
        for n in names {
            cells[p(n) as usize] = c;
        }
    }
    let s: String = cells.iter().collect();
    format!("{}/{}/{}", &s[..8], &s[8..16], &s[16..])
}

/// A moving-phase position, no removal pending.
fn moving(rules: &MillRules, white: &[&str], black: &[&str], side: char, rule50: u32) -> Mill {
    let text = format!(
        "{} {side} m s {} 0 {} 0 0 0 0 0 0 0 0 {rule50} 20",
        board(white, black, &[]),
        white.len(),
        black.len()
    );
    Mill::from_text(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn play(pos: &mut Mill, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.to_text()));
    }
}

fn names(ps: &[Point]) -> Vec<&'static str> {
    let mut v: Vec<_> = ps.iter().map(|&q| point_name(q)).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- board

#[test]
fn point_names_and_coordinates() {
    assert_eq!(point_name(0), "d5");
    assert_eq!(point_name(8), "d6");
    assert_eq!(point_name(16), "d7");
    assert_eq!(point_name(23), "a7");
    assert_eq!(point_name(24), "?");
    for q in 0..24 {
        assert_eq!(parse_point(point_name(q)), Ok(q));
        let (f, r) = point_coords(q);
        let name = format!("{}{}", (b'a' + f) as char, r + 1);
        assert_eq!(name, point_name(q));
    }
    assert_eq!(point_coords(p("a1")), (0, 0));
    assert_eq!(point_coords(p("g7")), (6, 6));
    assert_eq!(point_coords(p("d5")), (3, 4));
    assert_eq!(parse_point(" D6 "), Ok(p("d6")));
    for bad in ["", "d4", "h1", "a0", "a8", "aa", "d66", "7a"] {
        assert!(
            matches!(parse_point(bad), Err(GameError::BadMove(_))),
            "{bad}"
        );
    }
}

#[test]
fn lines_are_the_rules_file_mills() {
    let listed = "a7-d7-g7 b6-d6-f6 c5-d5-e5 a4-b4-c4 e4-f4-g4 c3-d3-e3 b2-d2-f2 a1-d1-g1 \
                  a7-a4-a1 b6-b4-b2 c5-c4-c3 d7-d6-d5 d3-d2-d1 e5-e4-e3 f6-f4-f2 g7-g4-g1";
    let diag = "a7-b6-c5 g7-f6-e5 a1-b2-c3 g1-f2-e3";
    fn set(text: &str) -> Vec<Vec<&str>> {
        let mut v: Vec<Vec<&str>> = text
            .split_whitespace()
            .map(|l| {
                let mut x: Vec<&str> = l.split('-').collect();
                x.sort();
                x
            })
            .collect();
        v.sort();
        v
    }
    let engine = |diagonals: bool| {
        let mut v: Vec<Vec<&str>> = lines(diagonals).iter().map(|l| names(l)).collect();
        v.sort();
        v
    };
    assert_eq!(lines(false).len(), 16);
    assert_eq!(lines(true).len(), 20);
    assert_eq!(engine(false), set(listed));
    assert_eq!(engine(true), set(&format!("{listed} {diag}")));
}

#[test]
fn adjacency_follows_the_lines() {
    assert_eq!(names(adjacent(p("a7"), false)), ["a4", "d7"]);
    assert_eq!(names(adjacent(p("a7"), true)), ["a4", "b6", "d7"]);
    assert_eq!(names(adjacent(p("d6"), false)), ["b6", "d5", "d7", "f6"]);
    assert_eq!(names(adjacent(p("b6"), true)), ["a7", "b4", "c5", "d6"]);
    assert!(adjacent(24, false).is_empty());
    for diagonals in [false, true] {
        let mut degree_sum = 0;
        for a in 0..24 {
            for &b in adjacent(a, diagonals) {
                assert!(adjacent(b, diagonals).contains(&a), "symmetric");
            }
            degree_sum += adjacent(a, diagonals).len();
        }
        assert_eq!(degree_sum, 2 * 2 * lines(diagonals).len());
    }
}

// ---------------------------------------------------------------- presets and options

#[test]
fn default_is_nine_mens_morris_as_in_the_table() {
    let r = MillRules::default();
    assert_eq!(r, Preset::NineMensMorris.rules());
    assert_eq!(r.pieces, 9);
    assert!(!r.diagonal_lines);
    assert!(r.may_fly);
    assert_eq!(r.fly_at, 3);
    assert_eq!(r.lose_below, 3);
    assert_eq!(r.remove_from_mills, RemoveFromMills::OnlyIfAllInMills);
    assert_eq!(r.mill_in_placing, MillInPlacing::RemoveNow);
    assert!(!r.move_in_placing && !r.remove_multiple && !r.one_time_mill);
    assert_eq!(r.board_full, BoardFull::FirstPlayerLoses);
    assert_eq!(r.stalemate, Stalemate::BlockedSideLoses);
    assert_eq!(r.n_move_rule, 100);
    assert!(r.threefold_repetition);
    assert!(!r.defender_first);
}

#[test]
fn presets_differ_only_as_listed() {
    let base = MillRules::default();
    let expect = |preset: Preset, f: &dyn Fn(&mut MillRules)| {
        let mut r = base;
        f(&mut r);
        assert_eq!(preset.rules(), r, "{preset:?}");
        assert!(preset.rules().validate().is_ok());
    };
    expect(Preset::NineMensMorris, &|_| {});
    expect(Preset::TwelveMensMorris, &|r| {
        r.pieces = 12;
        r.diagonal_lines = true;
    });
    expect(Preset::Morabaraba, &|r| {
        r.pieces = 12;
        r.diagonal_lines = true;
        r.remove_multiple = true;
    });
    expect(Preset::LaskerMorris, &|r| {
        r.pieces = 10;
        r.move_in_placing = true;
    });
    expect(Preset::RussianMill, &|r| r.one_time_mill = true);
    expect(Preset::ChengSanQi, &|r| r.may_fly = false);
    expect(Preset::DaSanQi, &|r| {
        r.pieces = 12;
        r.diagonal_lines = true;
        r.may_fly = false;
        r.mill_in_placing = MillInPlacing::MarkAndDelay;
        r.defender_first = true;
        r.remove_from_mills = RemoveFromMills::Always;
    });
}

#[test]
fn preset_names_and_slugs() {
    let slugs: Vec<_> = Preset::ALL.iter().map(|p| p.slug()).collect();
    assert_eq!(
        slugs,
        [
            "nine",
            "twelve",
            "morabaraba",
            "lasker",
            "russian",
            "cheng-san-qi",
            "da-san-qi"
        ]
    );
    assert_eq!(Preset::NineMensMorris.name(), "Nine Men's Morris");
    assert_eq!(Preset::DaSanQi.name(), "Da San Qi");
    for preset in Preset::ALL {
        assert_eq!(Preset::from_slug(preset.slug()), Some(preset));
    }
    assert_eq!(Preset::from_slug("chess"), None);
    assert_eq!(Preset::from_slug(""), None);
}

#[test]
fn set_option_sets_each_option_and_get_option_reads_it_back() {
    let mut r = MillRules::default();
    let changes = [
        ("pieces", "12"),
        ("diagonal_lines", "true"),
        ("may_fly", "no"),
        ("fly_at", "4"),
        ("lose_below", "2"),
        ("remove_from_mills", "always"),
        ("mill-in-placing", "mark-and-delay"),
        ("move_in_placing", "on"),
        ("remove_multiple", "1"),
        ("one_time_mill", "yes"),
        ("board_full", "draw"),
        ("stalemate", "turn-passes"),
        ("n_move_rule", "50"),
        ("threefold_repetition", "false"),
        ("defender_first", "true"),
    ];
    for (name, value) in changes {
        r.set_option(name, value).unwrap();
    }
    let expected = MillRules {
        pieces: 12,
        diagonal_lines: true,
        may_fly: false,
        fly_at: 4,
        lose_below: 2,
        remove_from_mills: RemoveFromMills::Always,
        mill_in_placing: MillInPlacing::MarkAndDelay,
        move_in_placing: true,
        remove_multiple: true,
        one_time_mill: true,
        board_full: BoardFull::Draw,
        stalemate: Stalemate::TurnPasses,
        n_move_rule: 50,
        threefold_repetition: false,
        defender_first: true,
    };
    assert_eq!(r, expected);
    // get_option's text is accepted by set_option and reproduces the rules.
    let mut copy = MillRules::default();
    for name in OPTION_NAMES {
        copy.set_option(name, &r.get_option(name).unwrap()).unwrap();
    }
    assert_eq!(copy, r);
    assert_eq!(r.get_option("nonsense"), None);
}

#[test]
fn set_option_rejects_bad_input_and_keeps_rules() {
    let mut r = MillRules::default();
    for (name, value) in [
        ("colour", "red"),
        ("pieces", "many"),
        ("pieces", "8"),
        ("pieces", "13"),
        ("pieces", "-1"),
        ("lose_below", "10"),
        ("fly_at", "10"),
        ("may_fly", "maybe"),
        ("remove_from_mills", "never"),
        ("mill_in_placing", "later"),
        ("board_full", "white-loses"),
        ("stalemate", "pass"),
        ("n_move_rule", "-5"),
    ] {
        let err = r.set_option(name, value).unwrap_err();
        assert!(matches!(err, GameError::BadRules(_)), "{name}={value}");
        assert!(!err.to_string().is_empty());
        assert_eq!(r, MillRules::default(), "{name}={value} changed the rules");
    }
}

// ---------------------------------------------------------------- notation

#[test]
fn move_notation_round_trips() {
    for a in 0..24 {
        for mv in [MillMove::Place(a), MillMove::Remove(a)] {
            assert_eq!(mv.to_string().parse::<MillMove>(), Ok(mv));
        }
        for b in 0..24 {
            if a != b {
                let mv = MillMove::Slide { from: a, to: b };
                assert_eq!(mv.to_string().parse::<MillMove>(), Ok(mv));
            }
        }
    }
    assert_eq!(MillMove::Place(p("d6")).to_string(), "d6");
    assert_eq!(
        MillMove::Slide {
            from: p("a1"),
            to: p("a4")
        }
        .to_string(),
        "a1-a4"
    );
    assert_eq!(MillMove::Remove(p("d7")).to_string(), "xd7");
    assert_eq!(" XD7 ".parse::<MillMove>(), Ok(MillMove::Remove(p("d7"))));
}

#[test]
fn bad_move_text_is_refused_with_a_message() {
    for bad in [
        "", "d4", "x", "xd4", "xx", "a1-", "-a4", "a1-a1", "a1-z9", "a1-a4xd7", "a1a4", "é", "d6d6",
    ] {
        match bad.parse::<MillMove>() {
            Err(GameError::BadMove(msg)) => assert!(!msg.is_empty()),
            other => panic!("{bad:?} gave {other:?}"),
        }
    }
}

// ---------------------------------------------------------------- placing, mills, removal

#[test]
fn start_position() {
    let pos = Mill::start(&MillRules::default());
    assert_eq!(pos.to_text(), START_FEN);
    assert_eq!(Mill::from_text(START_FEN, &MillRules::default()), Ok(pos));
    assert_eq!(pos.side_to_move(), Side::First);
    assert_eq!(pos.phase(), Phase::Placing);
    assert_eq!(pos.in_hand(Side::First), 9);
    assert_eq!(pos.in_hand(Side::Second), 9);
    assert_eq!(pos.must_remove(), 0);
    assert_eq!(pos.legal_moves().len(), 24);
    let twelve = Mill::start(&Preset::TwelveMensMorris.rules());
    assert_eq!(twelve.in_hand(Side::Second), 12);
}

#[test]
fn a_mill_in_placing_removes_one_piece_as_a_separate_action() {
    let mut pos = Mill::start(&MillRules::default());
    play(&mut pos, "a7 a1 d7 d1");
    assert_eq!(pos.fullmove(), 3);
    play(&mut pos, "g7");
    assert_eq!(pos.must_remove(), 1);
    assert_eq!(pos.side_to_move(), Side::First, "the mover removes");
    assert_eq!(names(&pos.mills_at(p("d7"))[0]), ["a7", "d7", "g7"]);
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    assert_eq!(legal, ["xa1", "xd1"]);
    assert_eq!(
        pos.to_text(),
        format!(
            "{} w p r 3 6 2 7 1 0 0 0 0 0 0 0 3",
            board(&["a7", "d7", "g7"], &["a1", "d1"], &[])
        )
    );
    // Only removals now; the error says so.
    let err = pos.clone().play(MillMove::Place(p("b2"))).unwrap_err();
    assert!(err.to_string().contains("remove"), "{err}");
    play(&mut pos, "xa1");
    assert_eq!(pos.side_to_move(), Side::Second);
    assert_eq!(pos.must_remove(), 0);
    assert_eq!(pos.removed(Side::Second), 1);
    assert_eq!(pos.on_board(Side::Second), 1);
    assert_eq!(pos.piece_at(p("a1")), None);
    assert!(!pos.is_marked(p("a1")));
    assert!(pos.legal_moves().contains(&MillMove::Place(p("a1"))));
    assert_eq!(pos.plies_without_removal(), 0);
}

#[test]
fn pieces_in_mills_are_protected_unless_all_are_in_mills() {
    let rules = MillRules::default();
    let fen = |black: &[&str]| {
        format!(
            "{} w m r 3 0 {} 0 1 0 0 0 0 0 0 0 10",
            board(&["a7", "d7", "g7"], black, &[]),
            black.len()
        )
    };
    let pos = Mill::from_text(&fen(&["a1", "d1", "g1", "b4"]), &rules).unwrap();
    assert_eq!(pos.legal_moves(), [MillMove::Remove(p("b4"))]);
    let err = pos.clone().play(MillMove::Remove(p("d1"))).unwrap_err();
    assert!(err.to_string().contains("mill"), "{err}");
    let all_in_mills = Mill::from_text(&fen(&["a1", "d1", "g1"]), &rules).unwrap();
    assert_eq!(all_in_mills.legal_moves().len(), 3);
    let mut always = rules;
    always.remove_from_mills = RemoveFromMills::Always;
    let pos = Mill::from_text(&fen(&["a1", "d1", "g1", "b4"]), &always).unwrap();
    assert_eq!(pos.legal_moves().len(), 4);
}

#[test]
fn mark_and_delay_marks_removed_points_until_placing_ends() {
    let rules = Preset::DaSanQi.rules();
    let mut pos = Mill::start(&rules);
    play(&mut pos, "a7 a1 d7 d1 g7 xa1");
    assert!(pos.is_marked(p("a1")));
    assert_eq!(pos.piece_at(p("a1")), None);
    assert_eq!(pos.removed(Side::Second), 1);
    assert!(pos.to_text().contains('X'));
    let err = pos.clone().play(MillMove::Place(p("a1"))).unwrap_err();
    assert!(err.to_string().contains("marked"), "{err}");
    assert_eq!(pos.legal_moves().len(), 24 - 4 - 1);
    // Remove-now leaves the point free (see the previous test); here the
    // marks vanish when placing ends, found by seeded random play.
    let mut found = false;
    for seed in 1..200u64 {
        let mut x = seed;
        let mut pos = Mill::start(&rules);
        while pos.phase() == Phase::Placing {
            let legal = pos.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let before = pos;
            pos.play(legal[(x % legal.len() as u64) as usize]).unwrap();
            if pos.phase() == Phase::Moving && (0..24).any(|q| before.is_marked(q)) {
                assert!((0..24).all(|q| !pos.is_marked(q)));
                assert_eq!(pos.side_to_move(), Side::Second, "defender first");
                found = true;
            }
        }
        if found {
            break;
        }
    }
    assert!(found, "some game ends placing with marks on the board");
}

#[test]
fn marked_points_need_the_rule_and_the_placing_phase() {
    let text = format!(
        "{} b p p 3 9 1 10 0 0 0 0 0 0 0 0 3",
        board(&["a7", "d7", "g7"], &["d1"], &["a1"])
    );
    let dsq = Preset::DaSanQi.rules();
    let pos = Mill::from_text(&text, &dsq).unwrap();
    assert!(pos.is_marked(p("a1")));
    assert_eq!(pos.to_text(), text);
    let twelve = Preset::TwelveMensMorris.rules();
    assert!(matches!(
        Mill::from_text(&text, &twelve),
        Err(GameError::BadPosition(_))
    ));
}

#[test]
fn move_in_placing_lets_lasker_slide_while_pieces_are_in_hand() {
    let mut lasker = Mill::start(&Preset::LaskerMorris.rules());
    play(&mut lasker, "a7 a1 a7-a4");
    assert_eq!(lasker.in_hand(Side::First), 9);
    assert_eq!(lasker.piece_at(p("a4")), Some(Side::First));
    assert_eq!(lasker.phase(), Phase::Placing);
    assert_eq!(lasker.targets_from(p("a1")), [p("d1")]);
    let mut nine = Mill::start(&MillRules::default());
    play(&mut nine, "a7 a1");
    let err = nine.play("a7-a4".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("place"), "{err}");
    assert!(nine.targets_from(p("a7")).is_empty());
}

/// White places d7, closing a7-d7-g7 and d7-d6-d5 at once.
fn double_mill(rules: &MillRules, black: &[&str]) -> Mill {
    let text = format!(
        "{} w p p 4 8 {} {} 0 0 0 0 0 0 0 0 5",
        board(&["a7", "g7", "d6", "d5"], black, &[]),
        black.len(),
        12 - black.len()
    );
    let mut pos = Mill::from_text(&text, rules).unwrap();
    play(&mut pos, "d7");
    pos
}

#[test]
fn remove_multiple_owes_one_removal_per_mill() {
    let black = ["a1", "g1", "b2", "f2"];
    let mut mora = double_mill(&Preset::Morabaraba.rules(), &black);
    assert_eq!(mora.mills_at(p("d7")).len(), 2);
    assert_eq!(mora.must_remove(), 2);
    play(&mut mora, "xa1");
    assert_eq!(mora.side_to_move(), Side::First);
    assert_eq!(mora.must_remove(), 1);
    play(&mut mora, "xg1");
    assert_eq!(mora.side_to_move(), Side::Second);
    assert_eq!(mora.removed(Side::Second), 2);
    let twelve = double_mill(&Preset::TwelveMensMorris.rules(), &black);
    assert_eq!(twelve.must_remove(), 1);
}

/// Decision: removals that cannot be made (the opponent has fewer pieces on
/// the board than owed) lapse.
#[test]
fn owed_removals_are_capped_by_the_pieces_on_the_board() {
    let mut pos = double_mill(&Preset::Morabaraba.rules(), &["a1"]);
    assert_eq!(pos.must_remove(), 1);
    play(&mut pos, "xa1");
    assert_eq!(pos.side_to_move(), Side::Second);
    assert_eq!(pos.on_board(Side::Second), 0);
}

#[test]
fn one_time_mill_removes_only_the_first_time() {
    let white = ["a7", "g7", "d6", "g1"];
    let black = ["b4", "f4", "d2", "a1"];
    let sequence = "d6-d7 xa1 b4-c4 d7-d6 c4-b4 d6-d7";
    let mut russian = moving(&Preset::RussianMill.rules(), &white, &black, 'w', 0);
    let mut nine = moving(&MillRules::default(), &white, &black, 'w', 0);
    play(&mut russian, "d6-d7");
    let formed: u64 = ((1 << 31) | (1 << 24) | (1 << 25)) << 32;
    assert!(
        russian.to_text().contains(&format!(" {formed} ")),
        "{}",
        russian.to_text()
    );
    play(&mut russian, &sequence["d6-d7 ".len()..]);
    play(&mut nine, sequence);
    assert_eq!(russian.must_remove(), 0);
    assert_eq!(russian.side_to_move(), Side::Second);
    assert_eq!(nine.must_remove(), 1);
    // The formed mills survive a FEN round trip and are part of the hash.
    let back = Mill::from_text(&russian.to_text(), &Preset::RussianMill.rules()).unwrap();
    assert_eq!(back, russian);
    assert_eq!(back.hash(), russian.hash());
}

// ---------------------------------------------------------------- moving and flying

#[test]
fn slides_go_to_adjacent_empty_points() {
    let pos = moving(
        &MillRules::default(),
        &["a7", "d7", "b4", "f4"],
        &["a4", "g7", "d2", "f2"],
        'w',
        0,
    );
    assert_eq!(names(&pos.targets_from(p("a7"))), Vec::<&str>::new());
    assert_eq!(names(&pos.targets_from(p("d7"))), ["d6"]);
    assert_eq!(names(&pos.targets_from(p("b4"))), ["b2", "b6", "c4"]);
    assert!(pos.targets_from(p("a4")).is_empty(), "opponent's piece");
    assert!(pos.targets_from(p("c4")).is_empty(), "empty point");
    let err = pos.clone().play("b4-d6".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("adjacent"), "{err}");
    assert_eq!(
        err,
        GameError::IllegalMove(Illegal::Mill(MillIllegal::NotAdjacent {
            from: p("b4"),
            to: p("d6")
        }))
    );
}

#[test]
fn flying_with_fly_at_pieces_unless_forbidden() {
    let white = ["a7", "d7", "b4"];
    let black = ["a4", "g7", "d2", "f2"];
    let nine = moving(&MillRules::default(), &white, &black, 'w', 0);
    assert!(nine.can_fly(Side::First));
    assert!(!nine.can_fly(Side::Second));
    assert_eq!(nine.targets_from(p("a7")).len(), 24 - 7);
    let cheng = moving(&Preset::ChengSanQi.rules(), &white, &black, 'w', 0);
    assert!(!cheng.can_fly(Side::First));
    assert!(cheng.targets_from(p("a7")).is_empty());
    let mut four = MillRules::default();
    four.fly_at = 4;
    let pos = moving(&four, &white, &black, 'b', 0);
    assert!(pos.can_fly(Side::Second));
    assert_eq!(pos.targets_from(p("f2")).len(), 24 - 7);
    // No flying while pieces are in hand.
    assert!(!Mill::start(&MillRules::default()).can_fly(Side::First));
}

// ---------------------------------------------------------------- endings

#[test]
fn too_few_pieces_loses() {
    let mut pos = moving(
        &MillRules::default(),
        &["a7", "g7", "d6", "g1"],
        &["b4", "f4", "d2"],
        'w',
        0,
    );
    play(&mut pos, "d6-d7 xb4");
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::First, EndReason::TooFewPieces))
    );
    assert_eq!(pos.phase(), Phase::Over);
    assert!(pos.legal_moves().is_empty());
    assert_eq!(
        pos.clone().play("g1-d1".parse().unwrap()),
        Err(GameError::GameOver)
    );
    assert!(pos.to_text().contains(" o "));
    assert_eq!(Mill::from_text(&pos.to_text(), pos.rules()), Ok(pos));
    // With lose_below = 2 the game goes on.
    let mut r = MillRules::default();
    r.lose_below = 2;
    let mut pos = moving(&r, &["a7", "g7", "d6", "g1"], &["b4", "f4", "d2"], 'w', 0);
    play(&mut pos, "d6-d7 xb4");
    assert_eq!(pos.outcome(), None);
}

/// White a7 d7 g7 a4 are boxed in by black d6 g4 b4 a1 after c4-b4.
fn stalemate_after_c4_b4(rules: &MillRules) -> Mill {
    let mut pos = moving(
        rules,
        &["a7", "d7", "g7", "a4"],
        &["d6", "g4", "c4", "a1"],
        'b',
        0,
    );
    play(&mut pos, "c4-b4");
    pos
}

#[test]
fn a_blocked_side_loses_or_passes() {
    let pos = stalemate_after_c4_b4(&MillRules::default());
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::Second, EndReason::NoLegalMove))
    );
    let mut passes = MillRules::default();
    passes.stalemate = Stalemate::TurnPasses;
    let pos = stalemate_after_c4_b4(&passes);
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.side_to_move(), Side::Second, "White's turn passed");
    assert!(!pos.legal_moves().is_empty());
}

#[test]
fn board_full_in_placing() {
    // 12 + 12 pieces, no line of three alike (diagonals included); Black
    // places the last piece on d5.
    let text = "*@@O@@@O/OOO@OO@@/O@O@OOO@ b p p 12 0 11 1 0 0 0 0 0 0 0 0 12";
    let rules = Preset::TwelveMensMorris.rules();
    let mut pos = Mill::from_text(text, &rules).unwrap();
    play(&mut pos, "d5");
    assert_eq!(pos.must_remove(), 0);
    assert_eq!(
        pos.outcome(),
        Some(Outcome::win(Side::Second, EndReason::BoardFull))
    );
    let mut draw = rules;
    draw.board_full = BoardFull::Draw;
    let mut pos = Mill::from_text(text, &draw).unwrap();
    play(&mut pos, "d5");
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::BoardFull)));
}

#[test]
fn n_move_rule_draws_after_plies_without_removal() {
    let white = ["a7", "d7", "b4", "f4"];
    let black = ["a4", "g7", "d2", "f2"];
    let mut pos = moving(&MillRules::default(), &white, &black, 'w', 99);
    play(&mut pos, "b4-b6");
    assert_eq!(pos.plies_without_removal(), 100);
    assert_eq!(pos.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
    let mut off = MillRules::default();
    off.n_move_rule = 0;
    let mut pos = moving(&off, &white, &black, 'w', 99);
    play(&mut pos, "b4-b6");
    assert_eq!(pos.outcome(), None);
    let mut longer = MillRules::default();
    longer.n_move_rule = 150;
    let mut pos = moving(&longer, &white, &black, 'w', 99);
    play(&mut pos, "b4-b6");
    assert_eq!(pos.outcome(), None);
    // Placements reset the counter too (they are irreversible).
    let mut pos = Mill::start(&MillRules::default());
    play(&mut pos, "a7");
    assert_eq!(pos.plies_without_removal(), 0);
}

#[test]
fn a_removal_in_the_moving_phase_resets_the_n_move_counter() {
    // 98 plies without removal; White's slide g4-g7 closes a7-d7-g7 (99),
    // the removal resets the counter, so Black's next slide is ply 1, not
    // the 100th that would draw.
    let white = ["a7", "d7", "g4", "b4"];
    let black = ["a1", "d1", "d2", "f2"];
    let mut pos = moving(&MillRules::default(), &white, &black, 'w', 98);
    play(&mut pos, "g4-g7");
    assert_eq!(pos.must_remove(), 1);
    assert_eq!(pos.plies_without_removal(), 99);
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "xd2");
    assert_eq!(pos.phase(), Phase::Moving);
    assert_eq!(pos.plies_without_removal(), 0);
    play(&mut pos, "f2-f4");
    assert_eq!(pos.plies_without_removal(), 1);
    assert_eq!(pos.outcome(), None);
    // The same through a record, which is what the app and server keep.
    let mut rec = Record::new(moving(&MillRules::default(), &white, &black, 'w', 98));
    for m in ["g4-g7", "xd2", "f2-f4"] {
        rec.play_text(m).unwrap();
    }
    assert_eq!(rec.outcome(), None);
}

#[test]
fn threefold_repetition_through_record() {
    let white = ["a7", "d7", "g7", "a4"];
    let black = ["d6", "g4", "c4", "a1"];
    let cycle = ["a4-b4", "c4-c3", "b4-a4", "c3-c4"];
    let mut rec = Record::new(moving(&MillRules::default(), &white, &black, 'w', 0));
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(rec.outcome(), None, "before ply {i}");
        rec.play_text(m).unwrap();
    }
    assert_eq!(rec.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    let mut off = MillRules::default();
    off.threefold_repetition = false;
    let mut rec = Record::new(moving(&off, &white, &black, 'w', 0));
    for m in cycle.iter().chain(cycle.iter()) {
        rec.play_text(m).unwrap();
    }
    assert_eq!(rec.outcome(), None);
    let pos = rec.position();
    assert!(!pos.is_irreversible("a4-b4".parse().unwrap()));
    assert!(pos.is_irreversible("d5".parse().unwrap()));
    assert!(pos.is_irreversible("xd6".parse().unwrap()));
}

#[test]
fn moving_phase_starts_with_white_or_with_the_defender() {
    let text = format!(
        "{} b p p 8 0 8 1 0 0 0 0 0 0 0 0 9",
        board(
            &["d5", "e4", "d3", "c4", "b6", "f2", "a4", "g1"],
            &["e5", "e3", "c3", "c5", "f6", "b2", "a7", "d1"],
            &[]
        )
    );
    for (defender_first, first) in [(false, Side::First), (true, Side::Second)] {
        let mut r = MillRules::default();
        r.defender_first = defender_first;
        let mut pos = Mill::from_text(&text, &r).unwrap();
        play(&mut pos, "d7");
        assert_eq!(pos.phase(), Phase::Moving);
        assert_eq!(pos.side_to_move(), first);
    }
}

#[test]
fn fullmove_counts_complete_turns() {
    let mut pos = Mill::start(&MillRules::default());
    assert_eq!(pos.fullmove(), 1);
    play(&mut pos, "a7");
    assert_eq!(pos.fullmove(), 1);
    play(&mut pos, "a1");
    assert_eq!(pos.fullmove(), 2);
    assert!(pos.to_text().ends_with(" 0 2"));
}

#[test]
fn hash_tracks_side_and_pieces() {
    let a = Mill::start(&MillRules::default());
    let mut b = a;
    play(&mut b, "a7");
    assert_ne!(a.hash(), b.hash());
    let mut c = a;
    play(&mut c, "d7");
    assert_ne!(b.hash(), c.hash());
    let x = moving(
        &MillRules::default(),
        &["a7", "d7", "b4"],
        &["a4", "g7", "d2"],
        'w',
        0,
    );
    let y = moving(
        &MillRules::default(),
        &["a7", "d7", "b4"],
        &["a4", "g7", "d2"],
        'b',
        0,
    );
    assert_ne!(x.hash(), y.hash());
    let z = moving(
        &MillRules::default(),
        &["a7", "d7", "b4"],
        &["a4", "g7", "d2"],
        'w',
        40,
    );
    assert_eq!(x.hash(), z.hash(), "the n-move counter is not hashed");
}

// ---------------------------------------------------------------- bad FEN

#[test]
fn bad_fen_is_refused_with_a_clear_error() {
    let rules = MillRules::default();
    let good = format!(
        "{} w m s 3 0 3 0 0 0 0 0 0 0 0 0 10",
        board(&["a7", "d7", "b4"], &["a4", "g7", "d2"], &[])
    );
    assert!(Mill::from_text(&good, &rules).is_ok());
    let b = board(&["a7", "d7", "b4"], &["a4", "g7", "d2"], &[]);
    let cases = [
        (String::new(), "17 fields"),
        ("garbage".to_string(), "17 fields"),
        (format!("{good} extra"), "17 fields"),
        (good.replacen('/', "", 1), "three rings"),
        (good.replacen('*', "**", 1), "three rings"),
        (good.replacen('*', "#", 1), "not a point value"),
        (good.replacen(" w ", " x ", 1), "side to move"),
        (good.replacen(" m ", " q ", 1), "phase"),
        (good.replacen(" s ", " z ", 1), "action"),
        (
            format!("{b} w m s 4 0 3 0 0 0 0 0 0 0 0 0 10"),
            "white on board",
        ),
        (
            format!("{b} w m s 3 0 2 0 0 0 0 0 0 0 0 0 10"),
            "black on board",
        ),
        (
            format!("{b} w m s 3 7 3 0 0 0 0 0 0 0 0 0 10"),
            "more than the 9",
        ),
        (
            format!("{b} w m s 3 0 3 7 0 0 0 0 0 0 0 0 10"),
            "more than the 9",
        ),
        (
            format!("{b} w m s -3 0 3 0 0 0 0 0 0 0 0 0 10"),
            "non-negative",
        ),
        (
            format!("{b} w m s 3 0 3 0 0 0 0 0 0 0 0 0 ten"),
            "non-negative",
        ),
        (
            format!("{b} w m s 3 1 3 0 0 0 0 0 0 0 0 0 10"),
            "still in hand",
        ),
        (
            format!("{b} w p p 3 0 3 0 0 0 0 0 0 0 0 0 10"),
            "no pieces are left",
        ),
        (
            format!("{b} w m s 3 0 3 0 0 1 0 0 0 0 0 0 10"),
            "only the side to move",
        ),
        (format!("{b} w m s 3 0 3 0 1 0 0 0 0 0 0 0 10"), "action r"),
        (format!("{b} w m r 3 0 3 0 0 0 0 0 0 0 0 0 10"), "action r"),
        (format!("{b} w m r 3 0 3 0 2 0 0 0 0 0 0 0 10"), "at most 1"),
        (
            format!("{b} w m p 3 0 3 0 0 0 0 0 0 0 0 0 10"),
            "does not fit",
        ),
        (
            format!("{b} w o s 3 0 3 0 0 0 0 0 0 0 0 0 10"),
            "not finished",
        ),
        (
            format!("{b} w r p 3 6 3 6 0 0 0 0 0 0 0 0 10"),
            "untouched start",
        ),
        (
            format!("{b} w m s 3 0 3 0 0 0 5 0 0 0 0 0 10"),
            "square 8..31",
        ),
        (
            format!("{b} w m s 3 0 3 0 0 0 0 0 0 0 1099511627776 0 10"),
            "one-time-mill",
        ),
        (
            format!("{b} w m s 3 0 3 0 0 0 0 0 0 0 1 0 10"),
            "squares 8..31",
        ),
    ];
    for (text, needle) in cases {
        match Mill::from_text(&text, &rules) {
            Err(GameError::BadPosition(msg)) => {
                assert!(msg.contains(needle), "{text:?}: '{msg}' lacks '{needle}'")
            }
            other => panic!("{text:?} gave {other:?}"),
        }
    }
    let mut bad_rules = rules;
    bad_rules.pieces = 3;
    assert!(matches!(
        Mill::from_text(&good, &bad_rules),
        Err(GameError::BadRules(_))
    ));
    // Removals owed beyond the opponent's pieces on the board.
    let text = format!(
        "{} w p r 3 9 1 9 2 0 0 0 0 0 0 0 3",
        board(&["a7", "d7", "g7"], &["a1"], &[])
    );
    let err = Mill::from_text(&text, &Preset::Morabaraba.rules()).unwrap_err();
    assert!(err.to_string().contains("only 1 pieces"), "{err}");
}

#[test]
fn fen_fields_follow_sanmill() {
    // Rings inner, middle, outer, each clockwise from the top middle point.
    let text = format!(
        "{} w m s 3 0 3 0 0 0 0 0 0 0 0 0 7",
        board(&["d5", "d6", "d7"], &["e5", "f6", "a7"], &[])
    );
    assert!(text.starts_with("O@******/O@******/O******@ "), "{text}");
    let pos = Mill::from_text(&text, &MillRules::default()).unwrap();
    assert_eq!(pos.piece_at(p("d5")), Some(Side::First));
    assert_eq!(pos.piece_at(p("a7")), Some(Side::Second));
    assert_eq!(pos.to_text(), text);
    // `r` (ready) is read for the untouched start, as are -1 for "no
    // last-mill square"; fullmove 0 reads as 1.
    let alt = "********/********/******** w r p 0 9 0 9 0 0 -1 -1 -1 -1 0 0 0";
    assert_eq!(
        Mill::from_text(alt, &MillRules::default())
            .unwrap()
            .to_text(),
        START_FEN
    );
}
