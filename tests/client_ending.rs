//! The result line in words (src/client/ending.rs), natively: each ending
//! names the side that brought it about, the winner and, where the count
//! decided it, the score with its unit; every language says each of them.

use stoneplay::client::ending::{describe, Ending, Ends};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules, NoMoveRule};
use stoneplay::games::mill::{Mill, MillRules, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{EndReason, Game, GameKind, Outcome, Record, Side};
use stoneplay::i18n::Lang;

use EndReason::*;
use Side::{First, Second};

fn ataxx(fen: &str, no_move: NoMoveRule) -> Ataxx {
    Ataxx::from_text(fen, &AtaxxRules { no_move }).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn stones(text: &str) -> Stones {
    Stones::from_text(text, &StonesRules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The English line for a real final position (its own outcome).
fn line<G: Ends>(pos: &G) -> String {
    let outcome = pos.outcome().expect("a finished position");
    describe(Lang::En, &pos.ending(outcome))
}

/// An ending made up from its parts.
fn ending(kind: GameKind, outcome: Outcome, to_move: Side, counts: [u32; 2]) -> Ending {
    Ending {
        kind,
        outcome,
        to_move,
        counts,
        move_limit: match kind {
            GameKind::Ataxx => 80,
            _ => 100,
        },
    }
}

fn en(end: Ending) -> String {
    describe(Lang::En, &end)
}

#[test]
fn territory_duel_endings_by_count_show_the_pieces() {
    // The board is full: 28 X to 21 O.
    let p = ataxx(
        "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/ooooooo o 0 1",
        NoMoveRule::Pass,
    );
    assert_eq!(line(&p), "The board is full — X wins, 28 pieces to 21.");
    // Gaps: 24 each.
    let d = ataxx(
        "xxxxxxx/xxxxxxx/xxxxxxx/xxx-ooo/ooooooo/ooooooo/ooooooo x 0 1",
        NoMoveRule::Pass,
    );
    assert_eq!(line(&d), "The board is full — draw, 24 pieces each.");
    // O has none left.
    let n = ataxx("x6/7/7/7/7/7/7 o 0 1", NoMoveRule::Pass);
    assert_eq!(line(&n), "O has no pieces left — X wins, 1 piece to 0.");
    let a = GameKind::Ataxx;
    assert_eq!(
        en(ending(a, Outcome::win(Second, NoPieces), First, [0, 3])),
        "X has no pieces left — O wins, 3 pieces to 0."
    );
    assert_eq!(
        en(ending(
            a,
            Outcome::win(Second, NeitherCanMove),
            First,
            [12, 30]
        )),
        "Neither side can move — O wins, 30 pieces to 12."
    );
    assert_eq!(
        en(ending(a, Outcome::draw(NeitherCanMove), First, [1, 1])),
        "Neither side can move — draw, 1 piece each."
    );
    assert_eq!(
        en(ending(a, Outcome::win(First, MoveLimit), Second, [25, 24])),
        "80 jumps in a row flipped nothing — X wins, 25 pieces to 24."
    );
}

#[test]
fn territory_duel_a_stuck_mover_loses_whatever_the_count() {
    // Lose mode: X to move is stuck with 14 pieces to O's 1.
    let p = ataxx(
        "o6/7/7/-------/-------/xxxxxxx/xxxxxxx x 0 1",
        NoMoveRule::Lose,
    );
    assert_eq!(p.outcome(), Some(Outcome::win(Second, NoLegalMove)));
    assert_eq!(line(&p), "X cannot move — O wins.");
}

#[test]
fn stones_the_stuck_side_is_named_and_the_score_decides() {
    // White cannot move and wins on the count.
    let p = stones("W:a8,c8,e8*,g3* B:b1,d1*,f5 w");
    assert_eq!(
        line(&p),
        "White cannot move — White wins, 2 stones home to 1."
    );
    // The same with one more Black stone home: a draw.
    let d = stones("W:a8,c8,e8*,g3* B:b1,d1*,f5,h1 w");
    assert_eq!(line(&d), "White cannot move — draw, 2 stones home each.");
    // White to move, stuck, Black wins.
    let b = stones("W:d4* B:a1,c1,e1* w");
    assert_eq!(
        line(&b),
        "White cannot move — Black wins, 2 stones home to 0."
    );
    let s = GameKind::Stones;
    assert_eq!(
        en(ending(s, Outcome::win(Second, NoLegalMove), Second, [1, 2])),
        "Black cannot move — Black wins, 2 stones home to 1."
    );
    assert_eq!(
        en(ending(s, Outcome::win(First, NoLegalMove), Second, [2, 1])),
        "Black cannot move — White wins, 2 stones home to 1."
    );
    assert_eq!(
        en(ending(s, Outcome::win(First, NoLegalMove), Second, [1, 0])),
        "Black cannot move — White wins, 1 stone home to 0."
    );
    assert_eq!(
        en(ending(s, Outcome::draw(NoLegalMove), First, [1, 1])),
        "White cannot move — draw, 1 stone home each."
    );
    assert_eq!(
        en(ending(s, Outcome::draw(NoLegalMove), Second, [0, 0])),
        "Black cannot move — draw, 0 stones home each."
    );
}

#[test]
fn mill_endings_name_the_side_and_no_score() {
    let m = GameKind::Mill;
    assert_eq!(
        en(ending(m, Outcome::win(Second, TooFewPieces), First, [2, 7])),
        "White has too few pieces left — Black wins."
    );
    // Too few can be reached with the winner still to remove: the loser is
    // named, not the side to move.
    assert_eq!(
        en(ending(m, Outcome::win(First, TooFewPieces), First, [5, 2])),
        "Black has too few pieces left — White wins."
    );
    assert_eq!(
        en(ending(m, Outcome::win(First, NoLegalMove), Second, [9, 9])),
        "Black cannot move — White wins."
    );
    assert_eq!(
        en(ending(m, Outcome::draw(NeitherCanMove), First, [4, 4])),
        "Neither side can move — draw."
    );
    assert_eq!(
        en(ending(m, Outcome::draw(MoveLimit), First, [4, 4])),
        "100 moves in a row without a removal — draw."
    );
    // A real full board in Twelve Men's Morris: the first player loses.
    let text = "*@@O@@@O/OOO@OO@@/O@O@OOO@ b p p 12 0 11 1 0 0 0 0 0 0 0 0 12";
    let mut pos = Mill::from_text(text, &Preset::TwelveMensMorris.rules()).unwrap();
    pos.play("d5".parse().unwrap()).unwrap();
    assert_eq!(line(&pos), "The board is full — Black wins.");
    let rules = MillRules {
        n_move_rule: 1,
        ..MillRules::default()
    };
    let one = Mill::start(&rules).ending(Outcome::draw(MoveLimit));
    assert_eq!(en(one), "1 move in a row without a removal — draw.");
}

#[test]
fn the_players_endings_name_the_loser_and_no_score() {
    for (kind, x, o) in [
        (GameKind::Ataxx, "X", "O"),
        (GameKind::Stones, "White", "Black"),
        (GameKind::Mill, "White", "Black"),
    ] {
        // Either side may resign, on its turn or not.
        for to_move in [First, Second] {
            assert_eq!(
                en(ending(
                    kind,
                    Outcome::win(First, Resignation),
                    to_move,
                    [3, 9]
                )),
                format!("{o} resigned — {x} wins.")
            );
        }
        assert_eq!(
            en(ending(
                kind,
                Outcome::win(Second, Resignation),
                First,
                [3, 9]
            )),
            format!("{x} resigned — {o} wins.")
        );
        assert_eq!(
            en(ending(kind, Outcome::win(First, Timeout), Second, [3, 9])),
            format!("{o} ran out of time — {x} wins.")
        );
        assert_eq!(
            en(ending(kind, Outcome::draw(Agreement), First, [3, 9])),
            "Agreed draw."
        );
    }
}

#[test]
fn a_repetition_and_the_ply_cap_read_as_the_game_decides_them() {
    // Territory Duel: by the piece count (issue 38), the score shown.
    assert_eq!(
        en(ending(
            GameKind::Ataxx,
            Outcome::win(Second, Repetition),
            First,
            [1, 2]
        )),
        "The same position occurred three times — O wins, 2 pieces to 1."
    );
    assert_eq!(
        en(ending(
            GameKind::Ataxx,
            Outcome::draw(Repetition),
            First,
            [4, 4]
        )),
        "The same position occurred three times — draw, 4 pieces each."
    );
    assert_eq!(
        en(ending(
            GameKind::Ataxx,
            Outcome::win(First, PlyLimit),
            Second,
            [25, 20]
        )),
        "The game reached the online move limit — X wins, 25 pieces to 20."
    );
    // Stones!: the ply cap by the stones home.
    assert_eq!(
        en(ending(
            GameKind::Stones,
            Outcome::win(Second, PlyLimit),
            First,
            [1, 3]
        )),
        "The game reached the online move limit — Black wins, 3 stones home to 1."
    );
    // Mill: both are draws, and the count decides nothing.
    assert_eq!(
        en(ending(
            GameKind::Mill,
            Outcome::draw(Repetition),
            First,
            [3, 9]
        )),
        "The same position occurred three times — draw."
    );
    assert_eq!(
        en(ending(
            GameKind::Mill,
            Outcome::draw(PlyLimit),
            First,
            [3, 9]
        )),
        "The game reached the online move limit — draw."
    );
    // A real record: the flipping cycle of the rules tests, O ahead.
    let start = ataxx("7/7/7/7/6o/7/x2o3 x 0 1", NoMoveRule::Pass);
    let cycle = ["a1c2", "g3e2", "c2a1", "e2g3"];
    let record = Record::from_moves(start, cycle.iter().chain(&cycle)).unwrap();
    let outcome = record.outcome().expect("over by repetition");
    assert_eq!(
        describe(Lang::En, &record.position().ending(outcome)),
        "The same position occurred three times — O wins, 2 pieces to 1."
    );
}

#[test]
fn a_record_decided_by_the_players_reads_the_same() {
    // O resigns at the start of a Territory Duel game (X to move).
    let rules = AtaxxRules {
        no_move: NoMoveRule::Pass,
    };
    let mut record = Record::new(Ataxx::start(&rules));
    record.resign(Second);
    let outcome = record.outcome().expect("over");
    assert_eq!(
        describe(Lang::En, &record.position().ending(outcome)),
        "O resigned — X wins."
    );
}

/// Every ending the games have, with and without a winner.
fn every_ending() -> Vec<Ending> {
    let reasons = [
        BoardFull,
        NoPieces,
        NeitherCanMove,
        NoLegalMove,
        Repetition,
        MoveLimit,
        TooFewPieces,
        Timeout,
        Resignation,
        Agreement,
        PlyLimit,
    ];
    let mut out = Vec::new();
    for kind in GameKind::ALL {
        for reason in reasons {
            for outcome in [
                Outcome::win(First, reason),
                Outcome::win(Second, reason),
                Outcome::draw(reason),
            ] {
                for counts in [[1, 0], [2, 2], [1, 1], [30, 19]] {
                    out.push(ending(kind, outcome, First, counts));
                }
            }
        }
    }
    out
}

#[test]
fn every_language_says_every_ending() {
    for lang in Lang::ALL {
        for end in every_ending() {
            let text = describe(lang, &end);
            assert!(!text.trim().is_empty(), "{lang:?} {end:?}");
            assert!(
                !text.contains(['{', '}', '⟦']),
                "{lang:?} {end:?}: {text:?}"
            );
            if end.outcome.reason != Agreement {
                // The winner is named (a draw may name no side).
                if let Some(w) = end.outcome.winner {
                    let name = stoneplay::client::ending::side_name(lang, end.kind, w);
                    assert!(text.contains(name), "{lang:?} {end:?}: {text:?}");
                }
            }
        }
    }
}

#[test]
fn other_languages_are_not_english() {
    let end = ending(
        GameKind::Stones,
        Outcome::win(First, NoLegalMove),
        Second,
        [2, 1],
    );
    let english = describe(Lang::En, &end);
    for lang in [Lang::Tr, Lang::Af, Lang::Mr, Lang::Uz] {
        let text = describe(lang, &end);
        assert_ne!(text, english, "{lang:?}");
        assert!(text.contains('2') && text.contains('1'), "{lang:?}: {text}");
    }
}
