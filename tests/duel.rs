//! `engine duel`: the statistics against known values, and the runner in
//! quick matches (the real engine against itself, and against scripted
//! engines that play an illegal move, crash or overstep the clock).
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};

use stoneplay::ai::duel::{
    self, DuelConfig, EngineSetup, Fault, GameResult, MoveBudget, TimeControl,
};
use stoneplay::ai::stats::{
    elo, elo_of_score, expected_score, Pentanomial, Sprt, Trinomial, Verdict,
};
use stoneplay::games::GameKind;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_of_known_scores() {
    // The logistic table every rating list uses: 64 % ≈ +100, 75 % ≈ +191.
    assert!(close(elo_of_score(0.5), 0.0, 1e-9));
    assert!(close(elo_of_score(0.64), 99.951, 1e-3));
    assert!(close(elo_of_score(0.75), 190.849, 1e-3));
    assert!(close(elo_of_score(0.25), -190.849, 1e-3));
    assert!(close(expected_score(190.849), 0.75, 1e-6));
    assert!(elo_of_score(1.0).is_infinite() && elo_of_score(0.0) < 0.0);
}

#[test]
fn trinomial_elo_and_error_bar() {
    // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16,
    // standard error 0.04 (values worked out by hand / in Python).
    let t = Trinomial {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    let m = t.moments().unwrap();
    assert!(close(m.mean, 0.7, 1e-12) && close(m.variance, 0.16, 1e-12));
    let e = elo(&m);
    assert!(close(e.elo, 147.191, 1e-3), "{e:?}");
    assert!(close(e.low, 86.225, 1e-3), "{e:?}");
    assert!(close(e.high, 218.252, 1e-3), "{e:?}");
    assert!(Trinomial::default().moments().is_none());
}

#[test]
fn pentanomial_elo_and_llr() {
    // 100 pairs: 5 lost both, 20 one loss one draw, 40 even, 25, 10 won both.
    let p = Pentanomial([5, 20, 40, 25, 10]);
    let m = p.moments().unwrap();
    assert!(close(m.mean, 0.5375, 1e-12) && close(m.variance, 0.064_218_75, 1e-12));
    let e = elo(&m);
    assert!(close(e.elo, 26.107, 1e-3), "{e:?}");
    assert!(close(e.low, -8.457, 1e-3), "{e:?}");
    assert!(close(e.high, 61.196, 1e-3), "{e:?}");
    let sprt = Sprt::default();
    assert!(close(sprt.llr(&m), 0.379_844, 1e-5), "{}", sprt.llr(&m));
    assert_eq!(sprt.verdict(sprt.llr(&m)), Verdict::Continue);
    // A symmetric result leans to H0 (elo0 = 0 is nearer).
    let sym = Pentanomial([10, 20, 40, 20, 10]).moments().unwrap();
    assert!(
        close(sprt.llr(&sym), -0.034_513, 1e-5),
        "{}",
        sprt.llr(&sym)
    );
    // Trinomial LLR of 60/20/20 over 100 games.
    let t = Trinomial {
        wins: 60,
        draws: 20,
        losses: 20,
    };
    assert!(close(sprt.llr(&t.moments().unwrap()), 0.883_207, 1e-5));
}

#[test]
fn sprt_bounds_verdicts_and_parsing() {
    let s = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
    let (lo, hi) = s.bounds();
    // ln(0.05/0.95) and ln(0.95/0.05).
    assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
    assert_eq!(s.verdict(3.0), Verdict::H1);
    assert_eq!(s.verdict(-3.0), Verdict::H0);
    assert_eq!(s.verdict(0.0), Verdict::Continue);
    // Many clean wins accept H1, many clean losses H0.
    let win = Pentanomial([0, 20, 80, 60, 40]).moments().unwrap();
    assert_eq!(s.verdict(s.llr(&win)), Verdict::H1);
    let loss = Pentanomial([40, 60, 80, 20, 0]).moments().unwrap();
    assert_eq!(s.verdict(s.llr(&loss)), Verdict::H0);
    let s2 = Sprt::parse("elo1=10,alpha=0.1").unwrap();
    assert_eq!(
        (s2.elo0, s2.elo1, s2.alpha, s2.beta),
        (0.0, 10.0, 0.1, 0.05)
    );
    for bad in ["elo0=5,elo1=0", "alpha=0", "gamma=1", "elo1", "elo1=x"] {
        assert!(Sprt::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn time_control_parsing() {
    assert_eq!(
        TimeControl::parse("10+0.1").unwrap(),
        TimeControl {
            base_ms: 10_000,
            inc_ms: 100
        }
    );
    assert_eq!(TimeControl::parse("60").unwrap().inc_ms, 0);
    for bad in ["", "0+1", "x+1", "10+-1", "1e9"] {
        assert!(TimeControl::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn books_are_checked_when_read() {
    assert!(duel::read_book(GameKind::Ataxx, "# only a comment\n\n").is_err());
    let err = duel::read_book(GameKind::Ataxx, "x5o/7/7/7/7/7/o5x x 0 1\nnonsense\n").unwrap_err();
    assert!(err.starts_with("book line 2:"), "{err}");
    let err = duel::read_book(GameKind::Ataxx, "x6/7/7/7/7/7/7 o 0 1\n").unwrap_err();
    assert!(err.contains("over"), "{err}");
    // The committed books read back, with enough openings for 400 games.
    for (game, file) in [
        (GameKind::Ataxx, "books/ataxx.txt"),
        (GameKind::Mill, "books/mill.txt"),
        (GameKind::Stones, "books/stones.txt"),
    ] {
        let text = std::fs::read_to_string(file).unwrap();
        let book = duel::read_book(game, &text).unwrap();
        assert!(book.len() >= 200, "{file}: {}", book.len());
        let distinct: std::collections::HashSet<&String> = book.iter().collect();
        assert_eq!(distinct.len(), book.len(), "{file} repeats a position");
    }
}

fn engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_engine"))
}

fn config(game: GameKind, old: PathBuf, new: PathBuf, book: Vec<String>, games: u32) -> DuelConfig {
    DuelConfig {
        game,
        engines: [old, new],
        tc: TimeControl::parse("0.2+0.01").unwrap(),
        limit: MoveBudget::Clock,
        games,
        book,
        concurrency: 2,
        sprt: Some(Sprt::default()),
        margin_ms: 1000,
        max_plies: 400,
        setup: Default::default(),
    }
}

#[test]
fn quick_match_of_the_engine_against_itself() {
    for (game, file) in [
        (GameKind::Ataxx, "books/ataxx.txt"),
        (GameKind::Stones, "books/stones.txt"),
        (GameKind::Mill, "books/mill.txt"),
    ] {
        let book = duel::read_book(game, &std::fs::read_to_string(file).unwrap()).unwrap();
        let cfg = config(game, engine(), engine(), book[..2].to_vec(), 3);
        let mut seen = Vec::new();
        let s = duel::run(&cfg, &mut |g, _| seen.push(g.clone()));
        // 3 games round up to 2 pairs; each opening is played with colours swapped.
        assert_eq!(seen.len(), 4, "{game:?}");
        seen.sort_by_key(|g| g.index);
        for g in &seen {
            assert_eq!(g.opening, g.index / 2);
            assert_eq!(g.new_first, g.index % 2 == 1);
            assert_eq!(g.fen, cfg.book[g.opening]);
            assert!(
                g.fault.is_none_or(|(f, _)| f == Fault::Time),
                "{game:?}: {g:?}"
            );
            // One tab-separated line per game: index, first, second,
            // opening, moves, result, reason.
            let line = g.line();
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[0], g.index.to_string());
            assert_eq!(fields[1], if g.new_first { "new" } else { "old" });
            assert_eq!(fields[3], g.fen);
            assert_eq!(fields[4].split(' ').count(), g.moves.len());
            assert_eq!(fields[5], g.result.text());
            assert!(!g.reason.is_empty());
        }
        assert_eq!(s.games.games(), 4);
        assert_eq!(s.pairs.pairs(), 2);
        assert!(s.llr.is_some());
        assert_eq!(s.crashes, [0, 0]);
        assert_eq!(s.illegal, [0, 0]);
    }
}

/// `--nodes`: every move is `go nodes N`, whatever the clock would say,
/// and the same engine plays the same games again.
#[test]
fn a_nodes_duel_sends_go_nodes_and_repeats() {
    let dir = std::env::temp_dir().join(format!("stoneplay-duel-nodes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("go.log");
    let _ = std::fs::remove_file(&log);
    // Logs each `go` line and plays b6 (legal as the first move of X).
    let logger = script(
        &dir,
        "nodes.sh",
        &format!("echo \"$line\" >> {}; echo 'bestmove b6'", log.display()),
    );
    let book = vec!["x5o/7/7/7/7/7/o5x x 0 1".to_string()];
    let mut cfg = config(GameKind::Ataxx, logger, engine(), book.clone(), 2);
    cfg.limit = MoveBudget::Nodes(777);
    let mut seen = Vec::new();
    duel::run(&cfg, &mut |g, _| seen.push(g.clone()));
    assert_eq!(seen.len(), 2);
    let first = seen.iter().find(|g| !g.new_first).unwrap();
    assert_eq!(
        first.moves.first().map(String::as_str),
        Some("b6"),
        "{first:?}"
    );
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(!sent.is_empty());
    for line in sent.lines() {
        assert_eq!(line, "go nodes 777");
    }
    // Fixed nodes make the real engine's games repeatable.
    let mut cfg = config(GameKind::Ataxx, engine(), engine(), book, 2);
    cfg.limit = MoveBudget::Nodes(3000);
    let play = |cfg: &DuelConfig| {
        let mut v = Vec::new();
        duel::run(cfg, &mut |g, _| v.push((g.index, g.moves.clone())));
        v.sort();
        v
    };
    let a = play(&cfg);
    assert!(a.iter().all(|(_, m)| m.len() > 10), "{a:?}");
    assert_eq!(a, play(&cfg));
}

/// A node limit makes games repeatable, so `engine duel --nodes` refuses
/// more games than two an opening (they would be copies that narrow the
/// error bar for nothing) and says why; with a time limit, where games
/// vary, it plays them.
#[test]
fn a_nodes_duel_refuses_more_games_than_the_book_holds() {
    let dir = std::env::temp_dir().join(format!("stoneplay-duel-cap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.txt");
    std::fs::write(&book, "x5o/7/7/7/7/7/o5x x 0 1\nx5o/7/7/7/7/7/o4xx o 0 1\n").unwrap();
    let _ = std::fs::remove_file(dir.join("games.tsv"));
    let e = engine();
    let run = |limit: &[&str], games: &str| {
        std::process::Command::new(&e)
            .arg("duel")
            .arg(&e)
            .arg(&e)
            .args(["--game", "ataxx", "--games", games, "--book"])
            .arg(&book)
            .args(limit)
            .arg("--out")
            .arg(dir.join("games.tsv"))
            .output()
            .unwrap()
    };
    let refused = run(&["--nodes", "500"], "5");
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("the book has 2 openings, so games past 4 would replay"),
        "{err}"
    );
    assert!(!dir.join("games.tsv").exists(), "nothing was played");
    let played = run(&["--nodes", "500"], "4");
    assert!(
        played.status.success(),
        "{}",
        String::from_utf8_lossy(&played.stderr)
    );
    let count = || {
        std::fs::read_to_string(dir.join("games.tsv"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .count()
    };
    assert_eq!(count(), 4);
    let timed = run(&["--movetime", "5"], "6");
    assert!(
        timed.status.success(),
        "{}",
        String::from_utf8_lossy(&timed.stderr)
    );
    assert_eq!(count(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes a scripted engine: it runs `start`, then reads lines, each
/// first passed to `each` (`$line`), keeping the last `position` line in
/// `$pos`; it shakes hands and answers `go` with `on_go`.
fn engine_script(dir: &Path, name: &str, start: &str, each: &str, on_go: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\n{start}\nwhile read -r line; do\n  {each}\n  case \"$line\" in\n    uai|uci) echo uaiok; echo uciok;;\n    isready) echo readyok;;\n    position*) pos=\"$line\";;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A scripted engine that shakes hands, then answers `go` with `on_go`.
fn script(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    engine_script(dir, name, ":", ":", on_go)
}

#[test]
fn faults_lose_with_a_clear_record() {
    let dir = std::env::temp_dir().join(format!("stoneplay-duel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = vec!["x5o/7/7/7/7/7/o5x x 0 1".to_string()];
    let cases = [
        (
            script(&dir, "illegal.sh", "echo 'bestmove a1a1'"),
            Fault::Illegal,
            "illegal move 'a1a1'",
        ),
        (
            script(&dir, "none.sh", "echo 'bestmove (none)'"),
            Fault::Illegal,
            "no move in a live position",
        ),
        (script(&dir, "crash.sh", "exit 3"), Fault::Crash, "crashed"),
        (
            script(&dir, "slow.sh", "sleep 30; echo 'bestmove b6'"),
            Fault::Time,
            "lost on time",
        ),
    ];
    for (path, fault, words) in cases {
        let mut cfg = config(GameKind::Ataxx, engine(), path.clone(), book.clone(), 2);
        // Time enough for the real engine's first move on a loaded
        // machine; the slow script still oversteps it by far.
        cfg.tc = TimeControl::parse("2+0").unwrap();
        cfg.margin_ms = 1500;
        cfg.sprt = None;
        let mut seen = Vec::new();
        let s = duel::run(&cfg, &mut |g, _| seen.push(g.clone()));
        assert_eq!(seen.len(), 2);
        for g in &seen {
            assert_eq!(g.fault, Some((fault, true)), "{path:?}: {g:?}");
            assert!(g.reason.contains(words), "{path:?}: {}", g.reason);
            let new_side_lost = if g.new_first {
                GameResult::SecondWins
            } else {
                GameResult::FirstWins
            };
            assert_eq!(g.result, new_side_lost, "{g:?}");
            assert!(g.line().ends_with(&g.reason));
        }
        assert_eq!((s.games.wins, s.games.losses), (0, 2), "{path:?}");
        let count = match fault {
            Fault::Time => s.time_losses,
            Fault::Crash => s.crashes,
            Fault::Illegal => s.illegal,
        };
        assert_eq!(count, [0, 2], "{path:?}");
        assert!(s.report(None).iter().any(|l| l.contains("W 0 D 0 L 2")));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A public engine as `engine duel` meets it: started without our
/// arguments, set up with `setoption`, given `go movetime`, and answering
/// the way Sanmill does (`info score N bestmove MOVE`).
#[test]
fn a_public_engine_gets_its_arguments_options_and_movetime() {
    let dir = std::env::temp_dir().join(format!("stoneplay-duel-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("in.log");
    let _ = std::fs::remove_file(&log);
    // Logs its arguments and every line it reads.
    let path = engine_script(
        &dir,
        "public.sh",
        &format!("echo \"args [$*]\" >> {}", log.display()),
        &format!("echo \"$line\" >> {}", log.display()),
        "echo 'info string not bestmove a1'; echo 'info score 3 bestmove b6'",
    );
    let book = vec!["x5o/7/7/7/7/7/o5x x 0 1".to_string()];
    let mut cfg = config(GameKind::Ataxx, path, engine(), book, 2);
    cfg.limit = MoveBudget::MoveTime(150);
    cfg.sprt = None;
    cfg.setup[0] = EngineSetup {
        args: Some(vec![]),
        options: vec![
            ("SkillLevel".into(), "30".into()),
            ("MoveTime".into(), "1".into()),
        ],
    };
    let mut seen = Vec::new();
    duel::run(&cfg, &mut |g, _| seen.push(g.clone()));
    assert_eq!(seen.len(), 2);
    let first = seen.iter().find(|g| !g.new_first).unwrap();
    assert_eq!(
        first.moves.first().map(String::as_str),
        Some("b6"),
        "{first:?}"
    );
    // It answers b6 to every `go`, so its second move is illegal: read,
    // not lost on time.
    for g in &seen {
        assert_eq!(g.fault, Some((Fault::Illegal, false)), "{g:?}");
        assert!(g.reason.contains("'b6'"), "{g:?}");
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    // Started with no arguments, twice (a fresh process a game).
    assert_eq!(
        lines.iter().filter(|l| **l == "args []").count(),
        2,
        "{sent}"
    );
    let set = lines
        .iter()
        .position(|l| *l == "setoption name SkillLevel value 30")
        .expect("the option was sent");
    assert_eq!(lines[set + 1], "setoption name MoveTime value 1");
    let gos: Vec<&&str> = lines.iter().filter(|l| l.starts_with("go")).collect();
    assert!(!gos.is_empty());
    assert!(gos.iter().all(|l| **l == "go movetime 150"), "{gos:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn answers_are_read_in_both_forms() {
    assert_eq!(duel::answer_move("bestmove b6"), Some("b6"));
    assert_eq!(duel::answer_move("bestmove a1-a4 ponder d7"), Some("a1-a4"));
    assert_eq!(
        duel::answer_move("info score -12 bestmove xd3"),
        Some("xd3")
    );
    assert_eq!(
        duel::answer_move("info score 3 aimovetype perfect bestmove d6"),
        Some("d6")
    );
    assert_eq!(duel::answer_move("bestmove"), Some(""));
    assert_eq!(duel::answer_move("info string bestmove a1"), None);
    assert_eq!(duel::answer_move("info depth 3 score cp 5 pv d6"), None);
    assert_eq!(duel::answer_move("readyok"), None);
}

/// In Mill the game ends on the removal that leaves two pieces, and the
/// remover is still to move then: the win is the remover's. (A script
/// outside the repository once scored these endings for the side to move
/// and so gave them to the loser.)
#[test]
fn a_mill_game_won_by_a_removal_goes_to_the_remover() {
    let dir = std::env::temp_dir().join(format!("stoneplay-duel-remove-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // White slides f4-g4 (closing a mill) and removes d3: Black is left
    // with two pieces.
    let remover = script(
        &dir,
        "remover.sh",
        "case \"$pos\" in *f4-g4*) echo 'bestmove xd3';; *) echo 'bestmove f4-g4';; esac",
    );
    let book = vec!["****@***/*OOO@**O/*O*O@O** w m s 7 0 3 0 0 0 0 0 0 0 0 0 18".to_string()];
    let mut cfg = config(GameKind::Mill, remover.clone(), remover, book, 2);
    cfg.sprt = None;
    let mut seen = Vec::new();
    let s = duel::run(&cfg, &mut |g, _| seen.push(g.clone()));
    assert_eq!(seen.len(), 2);
    for g in &seen {
        assert_eq!(g.moves, ["f4-g4", "xd3"], "{g:?}");
        assert_eq!(g.result, GameResult::FirstWins, "{g:?}");
        assert!(g.fault.is_none());
    }
    // Each side won the game it had White in.
    assert_eq!((s.games.wins, s.games.losses), (1, 1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 38: the referee decides a Territory Duel repetition by the piece
/// count, as the rules file does. Both engines go round issue 11's cycle
/// of flipping jumps; the start comes back a third time after eight plies
/// with X on one piece and O on two: O wins, whichever engine plays it.
#[test]
fn a_territory_duel_repetition_goes_to_the_side_with_more_pieces() {
    let dir = std::env::temp_dir().join(format!("stoneplay-duel-repeat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cycler = script(
        &dir,
        "cycler.sh",
        "case \"$pos\" in *a1c2) echo 'bestmove g3e2';; *g3e2) echo 'bestmove c2a1';; \
         *c2a1) echo 'bestmove e2g3';; *) echo 'bestmove a1c2';; esac",
    );
    let book = vec!["7/7/7/7/6o/7/x2o3 x 0 1".to_string()];
    let mut cfg = config(GameKind::Ataxx, cycler.clone(), cycler, book, 2);
    cfg.sprt = None;
    let mut seen = Vec::new();
    let s = duel::run(&cfg, &mut |g, _| seen.push(g.clone()));
    assert_eq!(seen.len(), 2);
    for g in &seen {
        let cycle = ["a1c2", "g3e2", "c2a1", "e2g3"];
        let eight: Vec<&str> = cycle.iter().chain(&cycle).copied().collect();
        assert_eq!(g.moves, eight, "{g:?}");
        assert_eq!(g.result, GameResult::SecondWins, "{g:?}");
        assert!(g.reason.contains("three times"), "{}", g.reason);
        assert!(g.fault.is_none());
    }
    // Each engine won the game it had O in.
    assert_eq!((s.games.wins, s.games.losses, s.games.draws), (1, 1, 0));
    let _ = std::fs::remove_dir_all(&dir);
}
