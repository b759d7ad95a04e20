//! Protocol transcripts fed through `transcript` (no processes): the
//! handshakes, searches answered with legal moves, and bad input answered
//! with `info string error:` while the state stays as it was.

use std::cell::Cell;

use stoneplay::ai::protocol::{transcript, Dialect, ProtocolGame};
use stoneplay::games::ataxx::Ataxx;
use stoneplay::games::mill::Mill;
use stoneplay::games::stones::Stones;
use stoneplay::games::Game;

/// Runs `lines` with a fake clock that gains 1 ms per reading (the search
/// reads it every 1024 nodes), so timed `go` commands end quickly and
/// deterministically.
fn run<G: ProtocolGame>(dialect: Dialect, lines: &[&str]) -> Vec<String> {
    let t = Cell::new(0.0);
    let clock = move || {
        t.set(t.get() + 1.0);
        t.get()
    };
    transcript::<G>(dialect, lines, &clock)
}

fn errors(out: &[String]) -> Vec<&String> {
    out.iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn bestmoves(out: &[String]) -> Vec<String> {
    out.iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(str::to_string)
        .collect()
}

fn fens(out: &[String]) -> Vec<String> {
    out.iter()
        .filter_map(|l| l.strip_prefix("info string fen "))
        .map(str::to_string)
        .collect()
}

#[test]
fn uai_handshake_and_search() {
    let out = run::<Ataxx>(
        Dialect::Uai,
        &[
            "uai",
            "isready",
            "uainewgame",
            "position startpos moves g2 a1a3",
            "go depth 3",
            "quit",
            "isready",
        ],
    );
    assert_eq!(out[0], "id name Stoneplay Territory Duel");
    assert!(out[1].starts_with("id author "));
    assert!(out.contains(&"uaiok".to_string()));
    assert_eq!(
        out.iter().filter(|l| *l == "readyok").count(),
        1,
        "nothing after quit"
    );
    let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 3);
    for (i, l) in infos.iter().enumerate() {
        assert!(
            l.starts_with(&format!("info depth {} score cp ", i + 1)),
            "{l}"
        );
        for key in [" nodes ", " nps ", " time ", " pv "] {
            assert!(l.contains(key), "{l}");
        }
    }
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    let mut pos = Ataxx::default();
    for m in ["g2", "a1a3"] {
        pos.play(pos.parse_move(m).unwrap()).unwrap();
    }
    assert!(pos
        .legal_moves()
        .contains(&pos.parse_move(&best[0]).unwrap()));
    assert!(errors(&out).is_empty(), "{out:?}");
}

#[test]
fn uai_bad_input_is_reported_and_changes_nothing() {
    let out = run::<Ataxx>(
        Dialect::Uai,
        &[
            "position startpos moves g2",
            "d",
            "position fen garbage",
            "d",
            "position startpos moves g2 g2",
            "d",
            "position startpos moves b6 zz9",
            "d",
            "position fen x5o/7/7/7/7/7/o5x x 0 1 moves a7a7",
            "d",
            "position",
            "position sideways",
            "go depth abc",
            "go depth",
            "go depth 0",
            "go movetime -5",
            "go sideways 3",
            "setoption name Hash value 16",
            "setoption name Level value godlike",
            "setoption",
            "frobnicate now",
            "",
            "d",
            "go depth 1",
        ],
    );
    let errs = errors(&out);
    assert_eq!(errs.len(), 15, "{out:#?}");
    for needle in [
        "invalid position",
        "move 'g2'",
        "move 'zz9'",
        "move 'a7a7'",
        "'abc' is not a non-negative whole number",
        "go depth needs a number",
        "go depth must be 1 to",
        "unknown parameter 'sideways'",
        "unknown option 'Hash'",
        "unknown level 'godlike'",
        "unknown command 'frobnicate'",
    ] {
        assert!(
            errs.iter().any(|e| e.contains(needle)),
            "no error with '{needle}': {errs:#?}"
        );
    }
    // Every `d` shows the position after the one good `position` command.
    let f = fens(&out);
    assert_eq!(f.len(), 6);
    assert!(f.iter().all(|x| x == "x5o/7/7/7/7/6x/o5x o 0 1"), "{f:?}");
    // And the search still works from it (O to move).
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    let pos = stoneplay::games::Game::from_text(&f[0], &Default::default())
        .map(|p: Ataxx| p)
        .unwrap();
    assert!(pos
        .legal_moves()
        .contains(&pos.parse_move(&best[0]).unwrap()));
}

#[test]
fn uai_pass_and_game_over() {
    // X on a1 is walled in by O: its only move is the pass.
    let out = run::<Ataxx>(
        Dialect::Uai,
        &["position fen 7/7/7/7/ooo4/ooo4/xoo4 x 0 1", "go depth 2"],
    );
    assert_eq!(bestmoves(&out), vec!["0000"]);
    // O has no pieces: the game is over.
    let out = run::<Ataxx>(
        Dialect::Uai,
        &["position fen x6/7/7/7/7/7/7 o 0 1", "go depth 2"],
    );
    assert_eq!(bestmoves(&out), vec!["(none)"]);
    assert!(out.iter().any(|l| l.starts_with("info string game over")));
}

#[test]
fn uai_go_with_clocks_uses_the_movers_time() {
    let out = run::<Ataxx>(
        Dialect::Uai,
        &[
            "position startpos",
            "go wtime 1000 btime 2000 winc 10 binc 10",
            "go nodes 3000",
            "go movestogo 10 btime 500",
        ],
    );
    assert_eq!(bestmoves(&out).len(), 3);
    assert!(errors(&out).is_empty(), "{out:?}");
}

#[test]
fn mill_uci_options_presets_and_moves() {
    let out = run::<Mill>(
        Dialect::Uci,
        &[
            "uci",
            "setoption name pieces value 99",
            "setoption name Preset value atlantis",
            "setoption name may_fly value perhaps",
            "uci",
            "setoption name Preset value lasker",
            "uci",
            "setoption name pieces value 11",
            "uci",
            "ucinewgame",
            "position startpos moves a7 d1 d7 g1",
            "d",
            "position startpos moves a7 d1 d7 g1 g7 a1",
            "d",
            "go depth 3",
        ],
    );
    assert!(out.contains(&"uciok".to_string()));
    assert_eq!(out[0], "id name Stoneplay Mill");
    let errs = errors(&out);
    assert_eq!(errs.len(), 4, "{errs:#?}");
    assert!(errs[0].contains("pieces must be 9 to 12"));
    assert!(errs[1].contains("unknown preset 'atlantis'"));
    assert!(errs[2].contains("may_fly"));
    // After `g7` closes a mill, White must remove: `a1` is illegal.
    assert!(errs[3].contains("move 'a1'"), "{}", errs[3]);
    let pieces: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("option name pieces "))
        .collect();
    let defaults: Vec<&str> = pieces
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(
        defaults,
        vec!["9", "9", "10", "11"],
        "bad options leave the rules alone"
    );
    let f = fens(&out);
    assert_eq!(f.len(), 2);
    assert_eq!(f[0], f[1], "the illegal move list changed nothing");
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    let rules = {
        let mut r = stoneplay::games::mill::Preset::LaskerMorris.rules();
        r.set_option("pieces", "11").unwrap();
        r
    };
    let pos = Mill::from_text(&f[0], &rules).unwrap();
    assert!(pos
        .legal_moves()
        .contains(&pos.parse_move(&best[0]).unwrap()));
}

#[test]
fn mill_removal_is_its_own_bestmove() {
    let out = run::<Mill>(
        Dialect::Uci,
        &["position startpos moves a7 b2 d7 d2 g7", "go depth 2"],
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    assert!(best[0].starts_with('x'), "a removal is due: {}", best[0]);
}

#[test]
fn stones_uci_positions_and_errors() {
    let out = run::<Stones>(
        Dialect::Uci,
        &[
            "uci",
            "position fen W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w",
            "d",
            "position fen W:a1 B:a1 w",
            "position fen W:a1,b2 B:h8",
            "position startpos moves a1-b2 h8-g7 c3-e5",
            "position startpos moves a1-b2 h8-g7 b1-c2-d3",
            "setoption name Preset value nine",
            "d",
            "go depth 3",
            "position fen W:a8,c8,e8*,g3* B:b1,d1*,f5 w",
            "go depth 3",
        ],
    );
    assert_eq!(out[0], "id name Stoneplay Stones!");
    let errs = errors(&out);
    assert_eq!(errs.len(), 5, "{errs:#?}");
    let f = fens(&out);
    assert_eq!(f, vec![f[0].clone(), f[0].clone()]);
    let best = bestmoves(&out);
    assert_eq!(best.len(), 2);
    let pos = Stones::from_text(&f[0], &Default::default()).unwrap();
    assert_eq!(pos.legal_moves().len(), 10, "worked example 1");
    assert!(pos
        .legal_moves()
        .contains(&pos.parse_move(&best[0]).unwrap()));
    assert_eq!(best[1], "(none)", "worked example 4: White has no move");
}

#[test]
fn level_option_limits_the_search() {
    let out = run::<Ataxx>(
        Dialect::Uai,
        &[
            "setoption name Level value beginner",
            "position startpos",
            "go depth 5",
            "setoption name Level value Master",
            "go depth 3",
        ],
    );
    let depths: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(depths.len(), 1 + 3, "Beginner stops at depth 1: {out:#?}");
    assert_eq!(bestmoves(&out).len(), 2);
    assert!(errors(&out).is_empty());
}
