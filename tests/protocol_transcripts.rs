//! Protocol transcripts fed through `transcript` (no processes): the
//! handshakes, searches answered with legal moves, and bad input answered
//! with `info string error:` while the state stays as it was.

use std::cell::Cell;

use stoneplay::ai::uci::{transcript, Dialect, ProtocolGame};
use stoneplay::games::ataxx::uai::UaiAtaxx;
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
    let out = run::<UaiAtaxx>(
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
fn hash_option_is_listed_and_refuses_bad_sizes() {
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            "uai",
            "setoption name Hash value 0",
            "setoption name Hash value 1025",
            "setoption name Hash value lots",
            "setoption name Hash value -1",
            "setoption name Hash",
            "setoption name Hash value 64",
            "setoption name hash value 1",
            "position startpos",
            "go depth 3",
        ],
    );
    assert!(
        out.contains(&"option name Hash type spin default 32 min 1 max 1024".to_string()),
        "{out:#?}"
    );
    let errs = errors(&out);
    assert_eq!(errs.len(), 5, "{errs:#?}");
    for e in &errs {
        assert!(e.contains("from 1 to 1024"), "{e}");
    }
    // The last refusal names the size in force: 32, as none was accepted.
    assert!(errs[4].contains("stays at 32 MiB"), "{}", errs[4]);
    // A 1 MiB table still searches.
    assert_eq!(bestmoves(&out).len(), 1);
    for dialect_game in [
        run::<Mill>(Dialect::Uci, &["uci"]),
        run::<Stones>(Dialect::Uci, &["uci"]),
    ] {
        assert!(dialect_game
            .iter()
            .any(|l| l.starts_with("option name Hash type spin default 32 ")));
    }
}

#[test]
fn uai_bad_input_is_reported_and_changes_nothing() {
    let out = run::<UaiAtaxx>(
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
            "setoption name Ponder value true",
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
        "'abc' is not a whole number",
        "go depth needs a number",
        "go depth: '0' is outside 1 to 64; read as 1",
        "go movetime: '-5' is below 0; read as 0",
        "unknown parameter 'sideways'",
        "unknown option 'Ponder'",
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
    // And the search still works from it (O to move): `go depth 0` and
    // `go movetime -5` are clamped (and said so), so they search too.
    let best = bestmoves(&out);
    assert_eq!(best.len(), 3);
    let pos = stoneplay::games::Game::from_text(&f[0], &Default::default())
        .map(|p: Ataxx| p)
        .unwrap();
    for b in &best {
        assert!(pos.legal_moves().contains(&pos.parse_move(b).unwrap()));
    }
}

#[test]
fn uai_pass_and_game_over() {
    // X on a1 is walled in by O: its only move is the pass.
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &["position fen 7/7/7/7/ooo4/ooo4/xoo4 x 0 1", "go depth 2"],
    );
    assert_eq!(bestmoves(&out), vec!["0000"]);
    // O has no pieces: the game is over.
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &["position fen x6/7/7/7/7/7/7 o 0 1", "go depth 2"],
    );
    assert_eq!(bestmoves(&out), vec!["(none)"]);
    assert!(out.iter().any(|l| l.starts_with("info string game over")));
}

#[test]
fn uai_go_with_clocks_uses_the_movers_time() {
    let out = run::<UaiAtaxx>(
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
    let out = run::<UaiAtaxx>(
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

// ---- Issue 12 point 5: the tournament convention under UAI ----

fn lines_with<'a>(out: &'a [String], prefix: &str) -> Vec<&'a String> {
    out.iter().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn uai_lists_the_move_limit_option() {
    let out = run::<UaiAtaxx>(Dialect::Uai, &["uai"]);
    assert!(
        out.contains(
            &"option name MoveLimit type combo default uai var uai var territory-duel".to_string()
        ),
        "{out:#?}"
    );
    assert_eq!(out.last().unwrap(), "uaiok");
}

#[test]
fn uai_halfmove_field_counts_plies_since_the_last_clone() {
    // 85 is past our 80-jump limit but below the tournament's 100: play on.
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            "position fen x5o/7/7/7/7/7/o5x x 85 60",
            "d",
            "go movetime 100",
        ],
    );
    assert_eq!(fens(&out), vec!["x5o/7/7/7/7/7/o5x x 85 60"]);
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1);
    assert_ne!(best[0], "(none)", "{out:#?}");
    assert!(Ataxx::default().parse_move(&best[0]).is_ok());
    assert!(errors(&out).is_empty(), "{out:#?}");

    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            // A jump (no flip) adds one: 100, a draw.
            "position fen x5o/7/7/7/7/7/o5x x 99 60 moves a7c5",
            "d",
            "go depth 3",
            // A clone resets it.
            "position fen x5o/7/7/7/7/7/o5x x 99 60 moves b6",
            "d",
            // A jump that flips does not reset it (our rule would).
            "position fen x6/7/7/3o3/7/7/6o x 98 1 moves a7c5",
            "d",
            "go depth 2",
            // A pass counts too.
            "position fen 7/7/7/7/ooo4/ooo4/xoo4 x 99 1 moves 0000",
            "d",
            "go depth 2",
            // An ending by the board comes first (decided by count).
            "position fen x6/7/7/7/7/7/7 o 100 1",
            "go depth 2",
        ],
    );
    assert_eq!(
        fens(&out),
        vec![
            "6o/7/2x4/7/7/7/o5x o 100 60",
            "x5o/1x5/7/7/7/7/o5x o 0 60",
            "7/7/2x4/3x3/7/7/6o o 99 1",
            "7/7/7/7/ooo4/ooo4/xoo4 o 100 1",
        ]
    );
    assert_eq!(bestmoves(&out)[0], "(none)");
    assert_ne!(bestmoves(&out)[1], "(none)");
    assert_eq!(bestmoves(&out)[2], "(none)");
    assert_eq!(bestmoves(&out)[3], "(none)");
    let over = lines_with(&out, "info string game over: ");
    assert_eq!(over.len(), 3, "{out:#?}");
    assert!(over[0].contains("move limit"), "{over:?}");
    assert!(over[1].contains("move limit"), "{over:?}");
    assert!(over[2].contains("no pieces"), "{over:?}");
    assert!(errors(&out).is_empty(), "{out:#?}");
}

#[test]
fn uai_move_limit_option_switches_to_our_80_jump_rule() {
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            "setoption name MoveLimit value territory-duel",
            "position fen x5o/7/7/7/7/7/o5x x 85 60",
            "go movetime 100",
            // Our counter: a flipping jump resets it.
            "position fen x6/7/7/3o3/7/7/6o x 78 1 moves a7c5",
            "d",
            "position fen x5o/7/7/7/7/7/o5x x 79 60 moves a7c5",
            "d",
            "go depth 2",
            // A bad value is refused and changes nothing.
            "setoption name MoveLimit value fifty",
            "setoption name MoveLimit",
            "position fen x5o/7/7/7/7/7/o5x x 85 60",
            "go depth 2",
            "setoption name movelimit value UAI",
            "position fen x5o/7/7/7/7/7/o5x x 85 60",
            "go depth 2",
        ],
    );
    assert_eq!(
        fens(&out),
        vec!["7/7/2x4/3x3/7/7/6o o 0 1", "6o/7/2x4/7/7/7/o5x o 80 60"]
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 4, "{out:#?}");
    assert_eq!(&best[..3], ["(none)", "(none)", "(none)"], "{out:#?}");
    assert_ne!(best[3], "(none)", "back under the UAI convention");
    let errs = errors(&out);
    assert_eq!(errs.len(), 2, "{out:#?}");
    assert!(errs[0].contains("unknown MoveLimit 'fifty'"), "{errs:?}");
}

#[test]
fn uai_repetition_cycle_is_decided_as_each_convention_says() {
    // Every move of the cycle flips a piece and flips it back; only a
    // clone is irreversible, so the start recurs.
    let cycle = "a1c2 g3e2 c2a1 e2g3";
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            &format!("position fen 7/7/7/7/6o/7/x2o3 x 0 1 moves {cycle}"),
            "go depth 3",
            &format!("position fen 7/7/7/7/6o/7/x2o3 x 0 1 moves {cycle} {cycle}"),
            "d",
            "go depth 3",
        ],
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 2, "{out:#?}");
    assert_ne!(best[0], "(none)", "second occurrence: play on");
    assert_eq!(best[1], "(none)", "third occurrence: a draw");
    assert_eq!(fens(&out), vec!["7/7/7/7/6o/7/x2o3 x 8 5"]);
    let over = lines_with(&out, "info string game over: ");
    assert_eq!(over.len(), 1);
    assert!(over[0].contains("three times"), "{over:?}");
    // Our rules (the MoveLimit option) end it at the same ply.
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            "setoption name MoveLimit value territory-duel",
            &format!("position fen 7/7/7/7/6o/7/x2o3 x 0 1 moves {cycle} {cycle}"),
            "go depth 3",
        ],
    );
    assert_eq!(bestmoves(&out), vec!["(none)"], "{out:#?}");
    // The result: a draw under UAI (libataxx has no repetition rule, so
    // the cycle would run into its 100-ply draw), O's win by count (2
    // pieces to 1) under our rules.
    use stoneplay::ai::uci::Session;
    use stoneplay::games::{EndReason, Outcome, Side};
    for (option, outcome) in [
        (None, Outcome::draw(EndReason::Repetition)),
        (
            Some("setoption name MoveLimit value territory-duel"),
            Outcome::win(Side::Second, EndReason::Repetition),
        ),
    ] {
        let mut session = Session::<UaiAtaxx>::new(Dialect::Uai);
        for line in option.into_iter().chain([
            "uainewgame",
            &*format!("position fen 7/7/7/7/6o/7/x2o3 x 0 1 moves {cycle} {cycle}"),
        ]) {
            session.handle(line);
        }
        assert_eq!(session.record().moves().len(), 8, "{option:?}");
        assert_eq!(session.record().outcome(), Some(outcome), "{option:?}");
    }
}

#[test]
fn go_clock_values_saturate_instead_of_overflowing() {
    use stoneplay::ai::uci::{Reply, Session};
    // The clock is read 10 ms short (the default `MoveOverhead`).
    fn movetime<G: ProtocolGame>(dialect: Dialect, line: &str) -> Option<u64> {
        match Session::<G>::new(dialect).handle(line) {
            Reply::Go(job) => job.limits.movetime_ms,
            other => panic!("{line}: {other:?}"),
        }
    }
    // Any u64 increment: half the clock at most, never a wrapped value.
    for inc in [u64::MAX, u64::MAX / 3 + 1, u64::MAX / 2] {
        assert_eq!(
            movetime::<Stones>(Dialect::Uci, &format!("go wtime 1000 winc {inc}")),
            Some(495),
            "winc {inc}"
        );
        assert_eq!(
            movetime::<UaiAtaxx>(Dialect::Uai, &format!("go btime 1000 binc {inc}")),
            Some(495),
            "binc {inc}"
        );
    }
    assert_eq!(
        movetime::<Mill>(Dialect::Uci, &format!("go wtime {} winc 0", u64::MAX)),
        Some((u64::MAX - 10) / 20)
    );
    assert_eq!(
        movetime::<Mill>(Dialect::Uci, "go wtime 1000 winc 100"),
        Some(49 + 75)
    );
    // Territory Duel: a hard limit (an eighth of the clock plus the
    // increment) over a soft one (a twenty-fifth plus 60 % of it).
    let limits = |line: &str| match Session::<UaiAtaxx>::new(Dialect::Uai).handle(line) {
        Reply::Go(job) => (job.limits.movetime_ms, job.limits.soft_ms),
        other => panic!("{line}: {other:?}"),
    };
    assert_eq!(
        limits("go btime 1000 binc 100"),
        (Some(123 + 100), Some(39 + 60))
    );
    assert_eq!(
        limits(&format!("go btime 1000 binc {}", u64::MAX)),
        (Some(495), Some(495))
    );
    assert_eq!(limits("go wtime 1000 winc 100"), (None, None), "X moves");
    // A clock at or under the overhead still searches, for 1 ms.
    assert_eq!(limits("go btime 5 binc 0"), (Some(1), Some(1)));
    // And the search answers.
    let out = run::<Stones>(
        Dialect::Uci,
        &[
            "position startpos",
            "go wtime 1000 winc 18446744073709551615",
        ],
    );
    assert_eq!(bestmoves(&out).len(), 1);
    assert!(errors(&out).is_empty(), "{out:#?}");
}

#[test]
fn move_overhead_shortens_the_clock_and_bad_values_change_nothing() {
    use stoneplay::ai::uci::{Reply, Session};
    fn limits(session: &mut Session<UaiAtaxx>, line: &str) -> (Option<u64>, Option<u64>) {
        match session.handle(line) {
            Reply::Go(job) => (job.limits.movetime_ms, job.limits.soft_ms),
            other => panic!("{line}: {other:?}"),
        }
    }
    fn set(session: &mut Session<UaiAtaxx>, line: &str) -> Vec<String> {
        match session.handle(line) {
            Reply::Output(out) => out,
            other => panic!("{line}: {other:?}"),
        }
    }
    let mut s = Session::<UaiAtaxx>::new(Dialect::Uai);
    let hello = set(&mut s, "uai");
    assert!(
        hello.contains(&"option name MoveOverhead type spin default 10 min 0 max 5000".to_string()),
        "{hello:#?}"
    );
    // None: the clock as given.
    assert!(set(&mut s, "setoption name MoveOverhead value 0").is_empty());
    let go = "go btime 1000 binc 100";
    assert_eq!(limits(&mut s, go), (Some(125 + 100), Some(40 + 60)));
    // 200 ms (Stockfish's spelling is taken too): 800 ms left to share.
    assert!(set(&mut s, "setoption name Move Overhead value 200").is_empty());
    assert_eq!(limits(&mut s, go), (Some(100 + 100), Some(32 + 60)));
    // A bad value is refused and the overhead stays at 200 ms.
    for bad in ["-1", "5001", "lots", ""] {
        let out = set(&mut s, &format!("setoption name MoveOverhead value {bad}"));
        assert_eq!(out.len(), 1, "{bad}: {out:#?}");
        assert!(
            out[0].starts_with("info string error: MoveOverhead")
                && out[0].ends_with("it stays at 200 ms"),
            "{bad}: {}",
            out[0]
        );
    }
    assert_eq!(limits(&mut s, go), (Some(200), Some(92)));
    // `go movetime` is a move's own time, untouched.
    assert_eq!(limits(&mut s, "go movetime 300"), (Some(300), None));
    // Every protocol offers it.
    for out in [
        run::<Mill>(Dialect::Uci, &["uci"]),
        run::<Stones>(Dialect::Uci, &["uci"]),
    ] {
        assert!(out
            .iter()
            .any(|l| l == "option name MoveOverhead type spin default 10 min 0 max 5000"));
    }
}

// ---- The native loop (the `engine` binary): input is read while searching ----

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    /// Runs `engine ARGS` with `input` on stdin (then closed), and returns
    /// its stdout lines; fails if it has not exited after `limit`.
    pub fn engine(args: &[&str], input: &[u8], limit: Duration) -> Vec<String> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        // Written on its own thread: an engine that stops reading fails
        // the test at `limit` instead of blocking it.
        let mut stdin = child.stdin.take().unwrap();
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stdout.read_to_string(&mut s);
            s
        });
        let t0 = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                assert!(status.success(), "engine exited with {status}");
                break;
            }
            if t0.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                let partial = reader.join().unwrap();
                panic!("engine {args:?} still running after {limit:?}; output so far:\n{partial}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        reader.join().unwrap().lines().map(str::to_string).collect()
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_go_infinite_then_d_then_stop_exits() {
    let out = native::engine(
        &["uci", "stones"],
        b"go infinite\nd\nstop\nquit\n",
        std::time::Duration::from_secs(20),
    );
    assert_eq!(
        fens(&out).len(),
        1,
        "d is answered during the search: {out:#?}"
    );
    assert_eq!(bestmoves(&out).len(), 1, "{out:#?}");
    let d = out
        .iter()
        .position(|l| l.starts_with("info string fen"))
        .unwrap();
    let b = out.iter().position(|l| l.starts_with("bestmove")).unwrap();
    assert!(d < b, "d before stop's bestmove: {out:#?}");
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_end_of_input_stops_the_search_and_exits() {
    let t0 = std::time::Instant::now();
    let out = native::engine(
        &["uai"],
        b"go depth 60\n",
        std::time::Duration::from_secs(20),
    );
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1, "the stopped search still answers: {out:#?}");
    assert!(Ataxx::default().parse_move(&best[0]).is_ok(), "{best:?}");
    assert!(t0.elapsed() < std::time::Duration::from_secs(10));
    // The same for an infinite search, and with nothing running.
    let out = native::engine(
        &["uci", "mill"],
        b"position startpos\ngo infinite\n",
        std::time::Duration::from_secs(20),
    );
    assert_eq!(bestmoves(&out).len(), 1, "{out:#?}");
    let out = native::engine(
        &["uci", "stones"],
        b"isready",
        std::time::Duration::from_secs(20),
    );
    assert_eq!(out, vec!["readyok"], "a last line without a newline counts");
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_non_utf8_line_is_one_error_and_changes_nothing() {
    let out = native::engine(
        &["uai"],
        b"position startpos moves g2\n\xff\xfe junk\nposition startpos moves \xc3\nd\nisready\n",
        std::time::Duration::from_secs(20),
    );
    let errs = errors(&out);
    assert_eq!(errs.len(), 2, "{out:#?}");
    assert!(errs.iter().all(|e| e.contains("not UTF-8")), "{errs:?}");
    assert_eq!(fens(&out), vec!["x5o/7/7/7/7/6x/o5x o 0 1"]);
    assert_eq!(out.last().unwrap(), "readyok", "the session goes on");
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_commands_during_a_search_keep_their_order() {
    let out = native::engine(
        &["uai"],
        b"go infinite\nposition startpos moves g2\nd\nisready\nbogus\nstop\nd\ngo depth 2\nisready\n",
        std::time::Duration::from_secs(20),
    );
    let at = |p: &str| out.iter().position(|l| l.starts_with(p)).unwrap();
    let ready = at("readyok");
    let first_best = at("bestmove");
    assert!(ready < first_best, "isready is answered at once: {out:#?}");
    // `position` and the `d` behind it wait for the search; the `d` then
    // shows the new position.
    let f = fens(&out);
    assert_eq!(f, vec!["x5o/7/7/7/7/6x/o5x o 0 1"; 2], "{out:#?}");
    assert!(
        out.iter()
            .position(|l| l.starts_with("info string fen"))
            .unwrap()
            > first_best
    );
    assert_eq!(errors(&out).len(), 1, "{out:#?}");
    // End of input stops the queued `go depth 2`, which still answers.
    assert_eq!(bestmoves(&out).len(), 2, "{out:#?}");
}

/// Issue 35's script, piped in at once: `quit` and the end of input take
/// their turn behind the queued commands, so the first search runs to its
/// depth, the bad lines get their errors, and the queued `go` answers too
/// (as Stockfish reads it). Before, `quit` jumped the queue: one
/// `bestmove`, stopped at depth 1, and the queued lines were dropped.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_quit_and_end_of_input_take_their_turn() {
    let script = "uai\n\
        position fen x5o/7/7/7/7/7/o5x x 0 1 moves f2 b2 g1e3\n\
        go depth 5\n\
        position fen x5o/7/7/7/7/7/o5x x 0 1 moves f2 f2\n\
        position fen x5o/7/7/7/7/7\n\
        isready\n\
        position fen 7/7/7/7/4ooo/4ooo/4oox x 0 1\n\
        go depth 3\n";
    let mut pos = Ataxx::from_text("x5o/7/7/7/7/7/o5x x 0 1", &Default::default()).unwrap();
    for m in ["f2", "b2", "g1e3"] {
        pos.play(pos.parse_move(m).unwrap()).unwrap();
    }
    for (tail, how) in [("quit\n", "quit"), ("", "end of input")] {
        let input = format!("{script}{tail}");
        let out = native::engine(
            &["uai"],
            input.as_bytes(),
            std::time::Duration::from_secs(20),
        );
        let best = bestmoves(&out);
        assert_eq!(best.len(), 2, "{how}: every go answers: {out:#?}");
        let first = out.iter().position(|l| l.starts_with("bestmove")).unwrap();
        assert!(
            out[..first].iter().any(|l| l.starts_with("info depth 5 ")),
            "{how}: the first search reaches its depth: {out:#?}"
        );
        assert!(
            pos.legal_moves()
                .contains(&pos.parse_move(&best[0]).unwrap()),
            "{how}: {best:?}"
        );
        // X is walled in at g1 and must pass.
        assert_eq!(best[1], "0000", "{how}: {out:#?}");
        assert_eq!(errors(&out).len(), 2, "{how}: both bad lines: {out:#?}");
        assert_eq!(
            out.iter().filter(|l| *l == "readyok").count(),
            1,
            "{how}: {out:#?}"
        );
    }
}

/// The native loop keeps one searcher per session: a repeated search of
/// the same position is answered from its transposition table (fewer
/// nodes), and a new game clears it (the same nodes as the first time).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_searcher_persists_between_moves_until_a_new_game() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("uai")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(l);
        }
    });
    // The nodes of the last `info depth` line before `bestmove`.
    let mut search = |cmds: &str| -> u64 {
        stdin.write_all(cmds.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let mut nodes = 0;
        loop {
            let l = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("bestmove within 60 s");
            if let Some(rest) = l.strip_prefix("info depth ") {
                let w: Vec<&str> = rest.split_whitespace().collect();
                let i = w.iter().position(|&x| x == "nodes").unwrap();
                nodes = w[i + 1].parse().unwrap();
            }
            if l.starts_with("bestmove") {
                return nodes;
            }
        }
    };
    let first = search("position startpos moves g2\ngo depth 5\n");
    let again = search("go depth 5\n");
    let fresh = search("uainewgame\nposition startpos moves g2\ngo depth 5\n");
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    // Without the kept table the second search repeats the first node for
    // node (as `fresh` shows). With it, far fewer: with the window network
    // (issue 35) 1,355 against 2,177 (62 %; with the pattern tables it
    // was under half), so at most 80 % here.
    assert!(again * 10 < first * 8, "TT kept: {again} vs {first}");
    assert_eq!(fresh, first, "a new game starts from an empty table");
}

// ---- Issue 12 point 5, case by case ----

/// `go` numbers out of range are clamped, with one `info string error`
/// each, and the search still runs; a value that is not a number refuses
/// the line. No input makes a `go` panic.
#[test]
fn go_numbers_out_of_range_are_clamped_and_noted() {
    use stoneplay::ai::uci::{Reply, Session};
    fn go<G: ProtocolGame>(dialect: Dialect, line: &str) -> Result<(u64, u32, u64), String> {
        match Session::<G>::new(dialect).handle(line) {
            Reply::Go(job) => {
                assert!(job.notes.len() <= 1, "{line}: {:?}", job.notes);
                let l = job.limits;
                Ok((
                    l.movetime_ms.unwrap_or(0),
                    l.depth.unwrap_or(0),
                    l.nodes.unwrap_or(0),
                ))
            }
            Reply::Output(lines) => Err(lines.join("\n")),
            other => panic!("{line}: {other:?}"),
        }
    }
    fn notes<G: ProtocolGame>(dialect: Dialect, line: &str) -> Vec<String> {
        match Session::<G>::new(dialect).handle(line) {
            Reply::Go(job) => job.notes,
            other => panic!("{line}: {other:?}"),
        }
    }
    // X moves first: its clock is btime under UAI.
    assert_eq!(go::<UaiAtaxx>(Dialect::Uai, "go btime -100"), Ok((1, 0, 0)));
    assert_eq!(
        notes::<UaiAtaxx>(Dialect::Uai, "go btime -100"),
        vec!["go btime: '-100' is below 0; read as 0"]
    );
    // Territory Duel's hard limit is an eighth of the clock less the
    // default 10 ms `MoveOverhead` (see
    // `go_clock_values_saturate_instead_of_overflowing`).
    assert_eq!(
        go::<UaiAtaxx>(Dialect::Uai, "go btime 99999999999999999999999"),
        Ok(((u64::MAX - 10) / 8, 0, 0))
    );
    assert_eq!(
        notes::<Stones>(Dialect::Uci, "go wtime 99999999999999999999999"),
        vec!["go wtime: '99999999999999999999999' is too large; read as 18446744073709551615"]
    );
    assert_eq!(go::<Mill>(Dialect::Uci, "go movetime -1"), Ok((1, 0, 0)));
    assert_eq!(go::<Mill>(Dialect::Uci, "go movetime -0"), Ok((1, 0, 0)));
    assert!(notes::<Mill>(Dialect::Uci, "go movetime -0").is_empty());
    assert!(notes::<Mill>(Dialect::Uci, "go movetime +250").is_empty());
    assert_eq!(
        go::<Mill>(Dialect::Uci, "go movetime +250"),
        Ok((250, 0, 0))
    );
    assert_eq!(go::<Stones>(Dialect::Uci, "go depth 0"), Ok((0, 1, 0)));
    assert_eq!(go::<Stones>(Dialect::Uci, "go depth -7"), Ok((0, 1, 0)));
    assert_eq!(go::<Stones>(Dialect::Uci, "go depth 65"), Ok((0, 64, 0)));
    assert_eq!(
        go::<Stones>(Dialect::Uci, "go depth 18446744073709551616"),
        Ok((0, 64, 0))
    );
    assert_eq!(
        notes::<Stones>(Dialect::Uci, "go depth 18446744073709551616"),
        vec!["go depth: '18446744073709551616' is outside 1 to 64; read as 64"]
    );
    assert!(notes::<Stones>(Dialect::Uci, "go depth 64").is_empty());
    assert_eq!(
        go::<UaiAtaxx>(Dialect::Uai, "go nodes 99999999999999999999 depth 2"),
        Ok((0, 2, u64::MAX))
    );
    assert_eq!(
        go::<Mill>(Dialect::Uci, "go movestogo -3 wtime 1000"),
        Ok((990 / 20, 0, 0))
    );
    // Not numbers: refused, one error each.
    for line in [
        "go wtime 12abc",
        "go depth 1.5",
        "go winc --5",
        "go btime +-3",
        "go movetime -",
        "go nodes 1e9",
        "go wtime",
        "go depth ٣",
    ] {
        let e = go::<Mill>(Dialect::Uci, line).expect_err(line);
        assert!(e.starts_with("info string error: go "), "{line}: {e}");
        assert_eq!(e.lines().count(), 1, "{line}: {e}");
    }
    // The notes come out as `info string error` lines, then the search.
    let out = run::<Stones>(Dialect::Uci, &["go wtime -5 winc -5", "go depth -1"]);
    assert_eq!(errors(&out).len(), 3, "{out:#?}");
    assert_eq!(bestmoves(&out).len(), 2, "{out:#?}");
    assert!(out[0].starts_with("info string error: go wtime: '-5'"));
}

/// At 100 plies without a clone the game-over line says so (not our
/// rule's "without captures").
#[test]
fn uai_move_limit_game_over_names_the_uai_rule() {
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &["position fen x5o/7/7/7/7/7/o5x x 100 60", "go depth 3"],
    );
    assert_eq!(
        lines_with(&out, "info string game over: "),
        vec!["info string game over: 100 plies were played since the last clone (the UAI move limit)"]
    );
    let out = run::<UaiAtaxx>(
        Dialect::Uai,
        &[
            "setoption name MoveLimit value territory-duel",
            "position fen x5o/7/7/7/7/7/o5x x 80 60",
            "go depth 3",
        ],
    );
    assert_eq!(
        lines_with(&out, "info string game over: "),
        vec!["info string game over: the move limit without captures was reached"]
    );
}

#[cfg(not(target_arch = "wasm32"))]
mod live {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Child, ChildStdin, Command, Stdio};
    use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
    use std::time::{Duration, Instant};

    /// An `engine` process fed line by line: its input stays open until
    /// [`Live::close`], so `stop` and `quit` are heard as commands, not
    /// as the end of input.
    pub struct Live {
        child: Child,
        stdin: Option<ChildStdin>,
        rx: Receiver<String>,
        stderr: Option<std::thread::JoinHandle<String>>,
        /// Every stdout line read so far.
        pub seen: Vec<String>,
    }

    impl Live {
        pub fn start(args: &[&str]) -> Live {
            let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("engine starts");
            let stdin = child.stdin.take();
            let stdout = child.stdout.take().unwrap();
            let mut err = child.stderr.take().unwrap();
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                    if tx.send(l).is_err() {
                        return;
                    }
                }
            });
            let stderr = std::thread::spawn(move || {
                let mut s = String::new();
                let _ = err.read_to_string(&mut s);
                s
            });
            Live {
                child,
                stdin,
                rx,
                stderr: Some(stderr),
                seen: Vec::new(),
            }
        }

        pub fn send(&mut self, bytes: &[u8]) {
            let stdin = self.stdin.as_mut().expect("input still open");
            stdin.write_all(bytes).unwrap();
            stdin.flush().unwrap();
        }

        /// Reads until a line starting with `prefix` (within `limit`) and
        /// returns the lines read, that one last.
        pub fn until(&mut self, prefix: &str, limit: Duration) -> Vec<String> {
            let end = Instant::now() + limit;
            let mut got = Vec::new();
            loop {
                let left = end.saturating_duration_since(Instant::now());
                match self.rx.recv_timeout(left) {
                    Ok(l) => {
                        self.seen.push(l.clone());
                        let hit = l.starts_with(prefix);
                        got.push(l);
                        if hit {
                            return got;
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {
                        panic!("no '{prefix}' within {limit:?}; read: {:#?}", self.seen)
                    }
                    Err(RecvTimeoutError::Disconnected) => {
                        panic!("engine ended before '{prefix}'; read: {:#?}", self.seen)
                    }
                }
            }
        }

        /// The lines that come within `wait` (none expected to end it).
        pub fn drain(&mut self, wait: Duration) -> Vec<String> {
            let end = Instant::now() + wait;
            let mut got = Vec::new();
            while let Ok(l) = self
                .rx
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                self.seen.push(l.clone());
                got.push(l);
            }
            got
        }

        /// Closes the input (end of input).
        pub fn close(&mut self) {
            self.stdin = None;
        }

        /// Waits for the process to exit within `limit`: it must exit with
        /// success and print nothing on stderr (no panic). Returns the
        /// stdout lines not read yet.
        pub fn exit(mut self, limit: Duration) -> Vec<String> {
            let t0 = Instant::now();
            loop {
                if let Some(status) = self.child.try_wait().unwrap() {
                    let err = self.stderr.take().unwrap().join().unwrap();
                    assert!(status.success(), "engine exited with {status}: {err}");
                    assert_eq!(err, "", "nothing on stderr");
                    break;
                }
                if t0.elapsed() > limit {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    panic!(
                        "engine still running after {limit:?}; read: {:#?}",
                        self.seen
                    );
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            // The process is gone: read what it wrote, to the end.
            let mut rest = Vec::new();
            while let Ok(l) = self.rx.recv_timeout(Duration::from_secs(2)) {
                self.seen.push(l.clone());
                rest.push(l);
            }
            rest
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
const GAMES: [(&[&str], &str); 3] = [
    (&["uai"], "uai"),
    (&["uci", "mill"], "uci"),
    (&["uci", "stones"], "uci"),
];

#[cfg(not(target_arch = "wasm32"))]
fn legal_for(args: &[&str], mv: &str) -> bool {
    match args {
        ["uai"] => Ataxx::default().parse_move(mv).is_ok(),
        ["uci", "mill"] => {
            let pos = Mill::start(&Default::default());
            pos.parse_move(mv)
                .is_ok_and(|m| pos.legal_moves().contains(&m))
        }
        _ => {
            let pos = Stones::start(&Default::default());
            pos.parse_move(mv)
                .is_ok_and(|m| pos.legal_moves().contains(&m))
        }
    }
}

/// `go infinite`, then `d` and `isready` during the search (answered at
/// once), no `bestmove` until `stop`, then `quit` ends the process while
/// its input is still open. For every game.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_go_infinite_d_isready_stop_quit_for_each_game() {
    use std::time::Duration;
    let s = Duration::from_secs(2);
    for (args, hello) in GAMES {
        let mut e = live::Live::start(args);
        e.send(format!("{hello}\nisready\n").as_bytes());
        e.until("readyok", s);
        e.send(b"go infinite\n");
        e.until("info depth 2 ", s);
        e.send(b"d\n");
        let got = e.until("info string fen ", s);
        assert!(got.iter().all(|l| !l.starts_with("bestmove")), "{got:#?}");
        e.send(b"isready\n");
        let got = e.until("readyok", s);
        assert!(got.iter().all(|l| !l.starts_with("bestmove")), "{got:#?}");
        let later = e.drain(Duration::from_millis(150));
        assert!(
            later.iter().all(|l| !l.starts_with("bestmove")),
            "{args:?}: go infinite answers only after stop: {later:#?}"
        );
        e.send(b"stop\n");
        let got = e.until("bestmove ", s);
        let mv = got.last().unwrap().strip_prefix("bestmove ").unwrap();
        assert!(legal_for(args, mv), "{args:?}: {mv}");
        e.send(b"quit\n");
        let rest = e.exit(s);
        assert!(rest.is_empty(), "{args:?}: nothing after quit: {rest:#?}");
    }
}

/// The issue's own line: `go infinite`, `d`, `stop`, `quit` piped in.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_piped_go_infinite_d_stop_quit_exits_for_each_game() {
    for (args, _) in GAMES {
        let t0 = std::time::Instant::now();
        let out = native::engine(
            args,
            b"go infinite\nd\nstop\nquit\n",
            std::time::Duration::from_secs(2),
        );
        assert!(t0.elapsed() < std::time::Duration::from_secs(2));
        assert_eq!(fens(&out).len(), 1, "{args:?}: {out:#?}");
        let best = bestmoves(&out);
        assert_eq!(best.len(), 1, "{args:?}: {out:#?}");
        assert!(legal_for(args, &best[0]), "{args:?}: {best:?}");
    }
}

/// End of input while `go depth 60` runs: the search stops, answers, and
/// the process exits, well within 2 s. For every game.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_end_of_input_during_go_depth_60_exits_within_2s() {
    use std::time::{Duration, Instant};
    for (args, _) in GAMES {
        let mut e = live::Live::start(args);
        e.send(b"go depth 60\n");
        e.until("info depth 3 ", Duration::from_secs(2));
        let t0 = Instant::now();
        e.close();
        let rest = e.exit(Duration::from_secs(2));
        assert!(t0.elapsed() < Duration::from_secs(2), "{args:?}");
        let best = bestmoves(&rest);
        assert_eq!(best.len(), 1, "{args:?}: {rest:#?}");
        assert!(legal_for(args, &best[0]), "{args:?}: {best:?}");
    }
    // Piped all at once, as `printf 'go depth 60\n' | engine uai` does.
    let t0 = Instant::now();
    let out = native::engine(&["uai"], b"go depth 60\n", Duration::from_secs(2));
    assert!(t0.elapsed() < Duration::from_secs(2));
    assert_eq!(bestmoves(&out).len(), 1, "{out:#?}");
}

/// A non-UTF-8 byte, between commands or during a search, gets one
/// `info string error` and the session goes on.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_non_utf8_byte_is_one_error_and_the_session_goes_on() {
    use std::time::Duration;
    let s = Duration::from_secs(2);
    for (args, _) in GAMES {
        let mut e = live::Live::start(args);
        e.send(b"\xff\nisready\n");
        let got = e.until("readyok", s);
        assert_eq!(
            got,
            vec![
                "info string error: the line is not UTF-8 text (1 bytes ignored)",
                "readyok"
            ],
            "{args:?}"
        );
        e.send(b"go infinite\n");
        e.until("info depth 1 ", s);
        e.send(b"go \x80depth 1\nisready\n");
        let got = e.until("readyok", s);
        let errs = errors(&got);
        assert_eq!(errs.len(), 1, "{args:?}: {got:#?}");
        assert!(errs[0].contains("not UTF-8 text (11 bytes ignored)"));
        e.send(b"stop\n");
        e.until("bestmove ", s);
        e.send(b"d\nquit\n");
        let rest = e.exit(s);
        assert_eq!(fens(&rest).len(), 1, "{args:?}: {rest:#?}");
        assert!(bestmoves(&rest).is_empty(), "the bad `go` never ran");
    }
}

/// A line over 1 MiB (or a stream with no line ends) is skipped with one
/// error, without holding it in memory; the session goes on.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_overlong_line_is_one_error() {
    let mut input = vec![b'x'; 3 << 20];
    input.extend_from_slice(b"\nisready\n");
    input.extend(std::iter::repeat_n(b'y', 2 << 20));
    let out = native::engine(
        &["uci", "stones"],
        &input,
        std::time::Duration::from_secs(5),
    );
    // Long lines cut for the failure message.
    let out: Vec<String> = out.iter().map(|l| l.chars().take(200).collect()).collect();
    assert_eq!(
        out,
        vec![
            format!(
                "info string error: the line is longer than 1048576 bytes ({} bytes ignored)",
                3 << 20
            ),
            "readyok".to_string(),
            format!(
                "info string error: the line is longer than 1048576 bytes ({} bytes ignored)",
                2 << 20
            ),
        ]
    );
}

/// Every kind of bad `go` number through the real binary: clamped ones
/// say so, search and answer; garbage is refused; nothing panics.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_go_numbers_never_panic() {
    use std::time::Duration;
    let s = Duration::from_secs(3);
    // (line, errors expected, whether it searches)
    let cases: [(&str, usize, bool); 12] = [
        (
            "go wtime 100 winc 18446744073709551615 btime 100 binc 18446744073709551615",
            0,
            true,
        ),
        ("go wtime -100 btime -100 winc -1 binc -1", 4, true),
        (
            "go wtime 99999999999999999999999 btime 99999999999999999999999 depth 2",
            2,
            true,
        ),
        ("go depth -5", 1, true),
        ("go depth 18446744073709551616 movetime 30", 1, true),
        ("go nodes 99999999999999999999 depth 2", 1, true),
        ("go movetime -1", 1, true),
        ("go movestogo -3 wtime 50 btime 50", 1, true),
        ("go wtime 12abc", 1, false),
        ("go depth", 1, false),
        ("go depth 1.5", 1, false),
        ("go movetime 0x10", 1, false),
    ];
    for (args, _) in GAMES {
        let mut e = live::Live::start(args);
        for (line, errs, searches) in cases {
            e.send(format!("{line}\n").as_bytes());
            let got = if searches {
                e.until("bestmove ", s)
            } else {
                e.send(b"isready\n");
                e.until("readyok", s)
            };
            assert_eq!(errors(&got).len(), errs, "{args:?} {line}: {got:#?}");
            if searches {
                let mv = got.last().unwrap().strip_prefix("bestmove ").unwrap();
                assert!(legal_for(args, mv), "{args:?} {line}: {mv}");
            } else {
                assert!(bestmoves(&got).is_empty(), "{args:?} {line}: {got:#?}");
            }
        }
        e.send(b"quit\n");
        let rest = e.exit(s);
        assert!(rest.is_empty(), "{rest:#?}");
    }
}

/// The first case through the real binary: halfmove 85 under the
/// UAI default plays a move; the MoveLimit option restores our 80-jump
/// rule, under which the same position is over.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_uai_halfmove_85_plays_and_the_option_restores_our_rule() {
    let d = std::time::Duration::from_secs(3);
    let out = native::engine(
        &["uai"],
        b"uai\nposition fen x5o/7/7/7/7/7/o5x x 85 60\ngo movetime 100\n",
        d,
    );
    assert!(out.contains(
        &"option name MoveLimit type combo default uai var uai var territory-duel".to_string()
    ));
    let best = bestmoves(&out);
    assert_eq!(best.len(), 1, "{out:#?}");
    assert!(Ataxx::default().parse_move(&best[0]).is_ok(), "{best:?}");
    assert!(errors(&out).is_empty(), "{out:#?}");
    let out = native::engine(
        &["uai"],
        b"setoption name MoveLimit value territory-duel\n\
          position fen x5o/7/7/7/7/7/o5x x 85 60\ngo movetime 100\n",
        d,
    );
    assert_eq!(bestmoves(&out), vec!["(none)"], "{out:#?}");
    assert_eq!(
        lines_with(&out, "info string game over: "),
        vec!["info string game over: the move limit without captures was reached"]
    );
}

/// A reader that stops early (`engine perft ataxx 6 | head -1`) ends the
/// command quietly with success: no "failed printing to stdout" panic.
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["perft", "ataxx", "6"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    // The reader is dropped here, with depths 2..6 still to be printed.
    assert!(first.starts_with("1 16 "), "{first}");
    let out = child.wait_with_output().expect("engine ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert_eq!(stderr, "");
}

/// A wrong command line gets the command's own usage (the same text as
/// `engine` alone prints for it, options included) or one clear error,
/// exits 2 and writes nothing.
#[test]
fn bad_command_lines_get_their_usage_and_change_nothing() {
    use std::process::Command;
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(args)
            .output()
            .expect("engine runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        String::from_utf8(out.stderr).expect("utf-8")
    };
    let all = {
        let out = Command::new(env!("CARGO_BIN_EXE_engine"))
            .output()
            .expect("engine runs");
        String::from_utf8(out.stderr).expect("utf-8")
    };
    for (args, wants) in [
        (
            &["duel", "a"][..],
            &["engine duel OLD NEW", "--nodes N", "[--margin MS]"][..],
        ),
        (
            &["datagen"],
            &["engine datagen GAME", "[--eval hand|WEIGHTS_FILE]"],
        ),
        (
            &["train", "chess"],
            &["engine train ataxx|stones", "[--lr R]"],
        ),
        (&["book"], &["engine book GAME"]),
        (&["match", "ataxx"], &["engine match GAME LEVEL_A"]),
        (&["uci", "chess"], &["engine uci mill|stones"]),
        (
            &["uci", "mill", "--depth", "3"],
            &["engine uci mill|stones [--eval hand|WEIGHTS_FILE]"],
        ),
        (
            &["uai", "extra"],
            &["engine uai [--eval hand|WEIGHTS_FILE]"],
        ),
    ] {
        let err = run(args);
        assert!(err.starts_with("error: usage: engine "), "{args:?}: {err}");
        for w in wants {
            assert!(err.contains(w), "{args:?} lacks {w}: {err}");
        }
        // Every line of it is a line of the full usage.
        for line in err.trim_start_matches("error: usage: ").lines() {
            assert!(
                all.contains(line.trim_end()),
                "{args:?}: {line:?} is not in\n{all}"
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("stoneplay-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("none.txt");
    let f = file.to_str().expect("path");
    let err = run(&["datagen", "ataxx", "--positions", "0", "--out", f]);
    assert_eq!(err.trim_end(), "error: --positions must be at least 1");
    assert!(!file.exists(), "datagen --positions 0 wrote {f}");
    let err = run(&["datagen", "ataxx", "--positions", "-3", "--out", f]);
    assert!(
        err.contains("--positions '-3' is not a whole number"),
        "{err}"
    );
    assert!(!file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `engine uci mill --eval FILE` plays with the file's weights: weights
/// that value losing pieces refuse a free mill that the built-in and the
/// hand-written weights take. A file that cannot be read or is not Mill's
/// stops the engine before it answers anything.
#[test]
fn the_eval_option_plays_with_the_given_weights() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use stoneplay::ai::eval::mill;
    let dir = std::env::temp_dir().join(format!("stoneplay-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut upside_down = vec![(0i16, 0i16); mill::FEATURES];
    upside_down[mill::MINE] = (-100, -100);
    upside_down[mill::THEIRS] = (100, 100);
    let file = dir.join("upside-down.bin");
    std::fs::write(&file, mill::weights_file(&upside_down)).expect("write weights");
    let best = |eval: Option<&str>| {
        let mut args = vec!["uci", "mill"];
        if let Some(e) = eval {
            args.extend(["--eval", e]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine runs");
        // White a7, d7; Black b2, d2: g7 closes a mill and removes a piece.
        // An engine refusing its weights may have ended before it reads:
        // the write may then fail, and the exit code says why.
        let _ = child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"position startpos moves a7 b2 d7 d2\ngo depth 2\n");
        let out = child.wait_with_output().expect("engine ends");
        let text = String::from_utf8(out.stdout).expect("utf-8");
        let err = String::from_utf8(out.stderr).expect("utf-8");
        let mv = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .map(str::to_string);
        (out.status.code(), mv, err)
    };
    assert_eq!(best(None).1.as_deref(), Some("g7"));
    assert_eq!(best(Some("hand")).1.as_deref(), Some("g7"));
    let (code, mv, _) = best(file.to_str());
    assert_eq!(code, Some(0));
    assert!(mv.is_some() && mv.as_deref() != Some("g7"), "{mv:?}");
    let missing = dir.join("missing.bin");
    let (code, mv, err) = best(missing.to_str());
    assert_eq!((code, mv), (Some(2), None));
    assert!(err.contains("cannot read"), "{err}");
    let stones = dir.join("stones.bin");
    std::fs::write(
        &stones,
        stoneplay::ai::eval::stones::weights_file(&stoneplay::ai::eval::stones::hand_weights()),
    )
    .expect("write");
    let (code, mv, err) = best(stones.to_str());
    assert_eq!((code, mv), (Some(2), None));
    assert!(err.contains("not a Mill weights file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
