//! The worker's request handling (`ai::worker::serve`), natively: every game,
//! stale or bad requests, and serde round trips of the messages.
#![cfg(not(target_arch = "wasm32"))]

use stoneplay::ai::worker::serve;
use stoneplay::ai::{InstantClock, MATE_BOUND};
use stoneplay::games::any::{AnyRecord, Variant};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules, NoMoveRule, START_FEN};
use stoneplay::games::mill::{Mill, Preset};
use stoneplay::games::stones::{StonesRules, START_POSITION};
use stoneplay::games::{Game, Record};
use stoneplay::protocol::{Request, Response};

fn think(game: Variant, start: &str, moves: &[&str], level: &str) -> Request {
    Request::Think {
        id: 3,
        game,
        start: start.to_string(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        level: level.to_string(),
        movetime_ms: Some(50),
        seed: 42,
    }
}

fn best(request: &Request) -> Option<String> {
    let clock = InstantClock::new();
    match serve(request, &clock, &mut |_| {}) {
        Response::Best { id: 3, mv, .. } => mv,
        other => panic!("expected Best, got {other:?}"),
    }
}

#[test]
fn every_game_gets_a_legal_move() {
    let mill_start = Mill::start(&Preset::LaskerMorris.rules()).to_text();
    let cases = [
        (
            Variant::Ataxx(AtaxxRules::default()),
            START_FEN.to_string(),
            vec!["b6"],
        ),
        (
            Variant::Stones(StonesRules),
            START_POSITION.to_string(),
            vec!["a1-c3"],
        ),
        (
            Variant::Mill(Preset::LaskerMorris.rules()),
            mill_start,
            vec!["d6", "f4"],
        ),
    ];
    for (spec, start, moves) in cases {
        for level in ["beginner", "master"] {
            let mv = best(&think(spec, &start, &moves, level)).expect("a move");
            // Replay and check legality with the rules themselves.
            let ok = AnyRecord::restore(&spec, &start, &moves)
                .unwrap()
                .play_text(&mv)
                .is_ok();
            assert!(ok, "{level} {spec:?}: {mv} is not legal");
        }
    }
}

#[test]
fn a_finished_game_gets_no_move() {
    // X has no pieces: the game is over.
    let spec = Variant::Ataxx(AtaxxRules {
        no_move: NoMoveRule::Lose,
    });
    assert_eq!(
        best(&think(spec, "o6/7/7/7/7/7/7 x 0 1", &[], "master")),
        None
    );
}

#[test]
fn bad_requests_get_errors_naming_the_problem() {
    let clock = InstantClock::new();
    let spec = Variant::Ataxx(AtaxxRules::default());
    for (request, expected) in [
        (
            think(spec, "x5o/7/7 x 0 1", &[], "master"),
            "invalid position",
        ),
        (
            think(spec, START_FEN, &["b6", "b6"], "master"),
            "move 2 (b6)",
        ),
        (think(spec, START_FEN, &["0000"], "master"), "move 1 (0000)"),
        (
            think(spec, START_FEN, &[], "grandmaster"),
            "unknown level 'grandmaster'",
        ),
    ] {
        match serve(&request, &clock, &mut |_| {}) {
            Response::Error { id: 3, message } => {
                assert!(message.contains(expected), "{message:?} lacks {expected:?}")
            }
            other => panic!("expected an error for {expected}, got {other:?}"),
        }
    }
}

#[test]
fn progress_reports_come_before_the_answer() {
    let clock = InstantClock::new();
    let mut depths = Vec::new();
    let request = think(
        Variant::Ataxx(AtaxxRules::default()),
        START_FEN,
        &[],
        "master",
    );
    let answer = serve(&request, &clock, &mut |r| match r {
        Response::Info {
            id: 3,
            depth,
            nodes,
            ..
        } => {
            assert!(nodes > 0);
            depths.push(depth)
        }
        other => panic!("unexpected {other:?}"),
    });
    assert!(matches!(answer, Response::Best { mv: Some(_), .. }));
    assert!(!depths.is_empty());
    assert!(
        depths.windows(2).all(|w| w[0] < w[1]),
        "depths rise: {depths:?}"
    );
}

/// The worker's best move and its score.
fn best_scored(request: &Request) -> (Option<String>, i32) {
    let clock = InstantClock::new();
    match serve(request, &clock, &mut |_| {}) {
        Response::Best {
            id: 3, mv, score, ..
        } => (mv, score),
        other => panic!("expected Best, got {other:?}"),
    }
}

#[test]
fn the_worker_rebuilds_repetitions_through_flipping_jumps() {
    // Issue 11's cycle with a far block of X, from the position after X's
    // a1c2: seven plies bring back the start with X to move, and X's a1c2
    // makes the third occurrence of the position after it, which X (far
    // ahead) wins by count (issue 38), if the worker rebuilt the whole
    // history from the moves (the flips in it clear nothing).
    let spec = Variant::Ataxx(AtaxxRules::default());
    let rules = AtaxxRules::default();
    let mut first = Ataxx::from_text("xxxxxxx/xxxxxxx/7/7/6o/7/x2o3 x 0 1", &rules).unwrap();
    first.play(first.parse_move("a1c2").unwrap()).unwrap();
    let start = first.to_text();
    let seven = ["g3e2", "c2a1", "e2g3", "a1c2", "g3e2", "c2a1", "e2g3"];
    for level in ["strong", "master"] {
        let (mv, score) = best_scored(&think(spec, &start, &seven, level));
        assert_eq!(mv.as_deref(), Some("a1c2"), "{level}");
        assert!(score > MATE_BOUND, "{level}: a win on the spot, {score}");
    }
    // The same position sent as a start without moves: no win to take.
    let record = Record::from_moves(first, seven).unwrap();
    let here = record.position().to_text();
    let (_, score) = best_scored(&think(spec, &here, &[], "master"));
    assert!(score < MATE_BOUND, "no repetition without history: {score}");
    // The eighth move ends the game: the worker answers no move.
    let eight: Vec<&str> = seven.iter().chain(&["a1c2"]).copied().collect();
    assert_eq!(best(&think(spec, &start, &eight, "master")), None);
}
