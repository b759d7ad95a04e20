//! Search properties on all three games: a legal move in many random
//! positions, no move when the game is over (position or record), limits
//! and stop flag honoured, levels reproducible from their seed, and
//! repetitions along the path scored as the game decides them (Mill: a
//! draw; Territory Duel: by count, at the scale of a win or a loss).

use std::cell::Cell;
use std::sync::atomic::AtomicBool;

use stoneplay::ai::{
    think, think_record, Evaluate, Level, SearchControl, SearchLimits, SearchRequest, Searcher,
    SplitMix64, MATE_BOUND,
};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules, NoMoveRule};
use stoneplay::games::mill::{Mill, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{EndReason, Game, Outcome, Record, Side};

/// A deterministic fake clock: every reading advances it by `step` ms.
fn fake_clock(step: f64) -> impl Fn() -> f64 {
    let t = Cell::new(0.0);
    move || {
        t.set(t.get() + step);
        t.get()
    }
}

fn search<G: Game + Evaluate>(
    pos: &G,
    limits: SearchLimits,
    level: Level,
    seed: u64,
) -> Option<G::Move> {
    let clock = fake_clock(0.001);
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    let req = SearchRequest {
        position: pos,
        history: &[],
        game_ply: 20,
        limits,
        level,
        seed,
    };
    think(&req, &ctl, &mut |_| {}).best
}

/// Random playouts (seeded); at every few plies the search must return a
/// legal move, and exactly when the game is over it must return none.
fn legal_in_random_positions<G: Game + Evaluate>(start: G, games: u64, depth: u32) -> usize {
    let mut checked = 0;
    for g in 0..games {
        let mut rng = SplitMix64::new(0xC0FFEE + g);
        let mut pos = start.clone();
        for ply in 0..200 {
            let moves = pos.legal_moves();
            if ply % 5 == 0 || moves.is_empty() {
                let level = Level::ALL[(ply / 5) % 5];
                let best = search(&pos, SearchLimits::depth(depth), level, g);
                match best {
                    Some(mv) => assert!(moves.contains(&mv), "{mv} not legal in {}", pos.to_text()),
                    None => assert!(pos.outcome().is_some(), "no move in {}", pos.to_text()),
                }
                checked += 1;
            }
            if moves.is_empty() {
                assert!(pos.outcome().is_some());
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    checked
}

#[test]
fn ataxx_search_returns_legal_moves() {
    assert!(legal_in_random_positions(Ataxx::default(), 6, 2) > 60);
    let lose = AtaxxRules {
        no_move: NoMoveRule::Lose,
    };
    assert!(legal_in_random_positions(Ataxx::start(&lose), 3, 2) > 30);
}

#[test]
fn stones_search_returns_legal_moves() {
    assert!(legal_in_random_positions(Stones::start(&StonesRules), 6, 3) > 20);
}

#[test]
fn mill_search_returns_legal_moves() {
    for preset in [
        Preset::NineMensMorris,
        Preset::Morabaraba,
        Preset::LaskerMorris,
        Preset::DaSanQi,
    ] {
        assert!(legal_in_random_positions(Mill::start(&preset.rules()), 2, 2) > 10);
    }
}

#[test]
fn no_move_when_the_position_is_over() {
    // Stones! worked example 4: White has no move, the game is over.
    let stones = Stones::from_text("W:a8,c8,e8*,g3* B:b1,d1*,f5 w", &StonesRules).unwrap();
    assert!(stones.outcome().is_some());
    assert_eq!(
        search(&stones, SearchLimits::depth(3), Level::Master, 0),
        None
    );
    // Territory Duel: O has no pieces.
    let ataxx = Ataxx::from_text("x6/7/7/7/7/7/7 o 0 1", &AtaxxRules::default()).unwrap();
    assert!(ataxx.outcome().is_some());
    assert_eq!(
        search(&ataxx, SearchLimits::depth(3), Level::Beginner, 0),
        None
    );
}

#[test]
fn no_move_when_the_record_is_over() {
    let clock = fake_clock(0.001);
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    // Threefold repetition by capture-less jumps back and forth.
    let mut record = Record::new(Ataxx::default());
    for _ in 0..2 {
        for mv in ["a7a5", "a1a3", "a5a7", "a3a1"] {
            record.play_text(mv).unwrap();
        }
    }
    assert_eq!(
        record.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
    assert!(
        record.position().outcome().is_none(),
        "over by history only"
    );
    let r = think_record(
        &record,
        SearchLimits::depth(2),
        Level::Master,
        1,
        &ctl,
        &mut |_| {},
    );
    assert_eq!(r.best, None);

    // Resignation and timeout.
    let mut resigned = Record::new(Mill::start(&Preset::NineMensMorris.rules()));
    resigned.resign(Side::First);
    let r = think_record(
        &resigned,
        SearchLimits::depth(2),
        Level::Casual,
        1,
        &ctl,
        &mut |_| {},
    );
    assert_eq!(r.best, None);
    let mut timed_out = Record::new(Stones::start(&StonesRules));
    timed_out.timeout();
    let r = think_record(
        &timed_out,
        SearchLimits::depth(2),
        Level::Strong,
        1,
        &ctl,
        &mut |_| {},
    );
    assert_eq!(r.best, None);

    // A game in progress gets a legal move.
    let live = Record::new(Ataxx::default());
    let r = think_record(
        &live,
        SearchLimits::depth(2),
        Level::Master,
        1,
        &ctl,
        &mut |_| {},
    );
    assert!(live.position().legal_moves().contains(&r.best.unwrap()));
}

#[test]
fn stop_flag_node_limit_and_clock_end_the_search_with_a_legal_move() {
    let pos = Ataxx::default();
    let legal = pos.legal_moves();
    let clock = fake_clock(0.001);
    let stop = AtomicBool::new(true);
    let req = SearchRequest {
        position: &pos,
        history: &[],
        game_ply: 10,
        limits: SearchLimits {
            infinite: true,
            ..Default::default()
        },
        level: Level::Master,
        seed: 0,
    };
    let stopped = SearchControl {
        clock: &clock,
        stop: Some(&stop),
    };
    let r = think(&req, &stopped, &mut |_| {});
    assert!(legal.contains(&r.best.unwrap()));
    assert_eq!(
        r.depth, 1,
        "a stopped search keeps its first iteration only"
    );

    // Node budget.
    let free = SearchControl {
        clock: &clock,
        stop: None,
    };
    let req_nodes = SearchRequest {
        limits: SearchLimits {
            nodes: Some(5_000),
            ..Default::default()
        },
        ..req.clone()
    };
    let r = think(&req_nodes, &free, &mut |_| {});
    assert!(legal.contains(&r.best.unwrap()));
    assert!(r.nodes < 5_000 + 2_048, "nodes {}", r.nodes);

    // Movetime on a fake clock that gains 1 ms per reading.
    let slow = fake_clock(1.0);
    let timed = SearchControl {
        clock: &slow,
        stop: None,
    };
    let req_time = SearchRequest {
        limits: SearchLimits::movetime(50),
        ..req.clone()
    };
    let r = think(&req_time, &timed, &mut |_| {});
    assert!(legal.contains(&r.best.unwrap()));
    assert!(r.elapsed_ms < 200.0, "elapsed {}", r.elapsed_ms);
}

#[test]
fn info_is_reported_per_iteration_with_a_legal_pv() {
    let pos = Mill::start(&Preset::NineMensMorris.rules());
    let clock = fake_clock(0.001);
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    let req = SearchRequest {
        position: &pos,
        history: &[],
        game_ply: 50,
        limits: SearchLimits::depth(3),
        level: Level::Master,
        seed: 0,
    };
    let mut depths = Vec::new();
    let r = think(&req, &ctl, &mut |i| {
        depths.push(i.depth);
        // The PV is a legal line.
        let mut p = pos;
        for &mv in i.pv {
            assert!(p.legal_moves().contains(&mv), "pv move {mv}");
            p.play_unchecked(mv);
        }
    });
    assert_eq!(depths, vec![1, 2, 3]);
    assert_eq!(r.depth, 3);
    assert_eq!(r.pv.first(), r.best.as_ref());
}

#[test]
fn levels_are_named_parsed_and_reproducible() {
    for (i, level) in Level::ALL.into_iter().enumerate() {
        assert_eq!(level.slug().parse::<Level>(), Ok(level));
        assert_eq!(level.name().parse::<Level>(), Ok(level));
        assert_eq!((i + 1).to_string().parse::<Level>(), Ok(level));
    }
    assert!("grandmaster".parse::<Level>().is_err());
    assert!(Level::Beginner < Level::Master);

    // Same seed, same move; over many seeds Beginner varies its choice.
    let pos = Ataxx::default();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40 {
        let a = search(&pos, SearchLimits::default(), Level::Beginner, seed);
        let b = search(&pos, SearchLimits::default(), Level::Beginner, seed);
        assert_eq!(a, b);
        seen.insert(a.unwrap());
    }
    assert!(seen.len() >= 3, "Beginner chose only {seen:?}");
    // Master, past the opening, always plays its best move.
    let masters: std::collections::HashSet<_> = (0..10)
        .map(|seed| search(&pos, SearchLimits::depth(3), Level::Master, seed))
        .collect();
    assert_eq!(masters.len(), 1);
}

#[test]
fn repetition_in_the_search_path_is_a_draw() {
    // Mill, moving phase: White (6 pieces) against Black (3, flying).
    // Material says White is far ahead, so a draw is bad for White: put
    // the position after every legal move but one into the history, and
    // the search must play the one move that does not repeat, and score
    // it as more than a piece up (a repetition would score 0). The learned
    // weights give a flying side its due, so the margin is a piece (100),
    // not the three pieces of the material count.
    let rules = Preset::NineMensMorris.rules();
    let pos = Mill::from_text(
        "O*O*O*O*/@*@*****/O*O*@*** w m s 6 0 3 0 0 0 0 0 0 0 0 0 1",
        &rules,
    )
    .unwrap();
    let moves = pos.legal_moves();
    assert!(moves.len() > 3);
    let mut searcher = Searcher::<Mill>::new(12);
    let clock = fake_clock(0.001);
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    for keep in [0, moves.len() - 1] {
        let history: Vec<u64> = moves
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != keep)
            .map(|(_, &mv)| {
                let mut c = pos;
                c.play_unchecked(mv);
                c.hash()
            })
            .collect();
        let req = SearchRequest {
            position: &pos,
            history: &history,
            game_ply: 40,
            limits: SearchLimits::depth(1),
            level: Level::Master,
            seed: 0,
        };
        searcher.clear();
        let r = searcher.think(&req, &ctl, &mut |_| {});
        assert_eq!(r.best, Some(moves[keep]));
        assert!(
            r.score > 100 && r.score < MATE_BOUND,
            "{} scores {}",
            moves[keep],
            r.score
        );
    }
}

#[test]
fn self_play_finishes_games_and_varies_them() {
    use stoneplay::ai::selfplay::{play_match, MatchConfig};
    let clock = fake_clock(0.001);
    let mut lengths = Vec::new();
    let cfg = MatchConfig {
        games: 4,
        movetime_ms: Some(50),
        opening_plies: 2,
        seed: 3,
        time_scale: 1.0,
    };
    let score = play_match(
        &Stones::start(&StonesRules),
        Level::Casual,
        Level::Beginner,
        &cfg,
        &clock,
        &mut |_, _, _, plies| lengths.push(plies),
    );
    assert_eq!(score.wins + score.draws + score.losses, 4);
    assert!(lengths.iter().all(|&n| n > 2));
    let distinct: std::collections::HashSet<_> = lengths.iter().collect();
    assert!(distinct.len() > 1, "all games alike: {lengths:?}");
}

/// Issue 11's cycle, with a block of X pieces far away so that X is far
/// ahead: `a1c2` and `g3e2` flip d1 to and fro, `c2a1` and `e2g3` come
/// back. A repetition is decided by the piece count (issue 38), so X wants
/// it and O, who completes the cycle from the start, must avoid it.
const FLIP_CYCLE_FEN: &str = "xxxxxxx/xxxxxxx/7/7/6o/7/x2o3 x 0 1";
const FLIP_CYCLE: [&str; 4] = ["a1c2", "g3e2", "c2a1", "e2g3"];

fn fake_ctl_think<G: Game + Evaluate>(record: &Record<G>) -> stoneplay::ai::SearchResult<G::Move> {
    let clock = fake_clock(0.001);
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    think_record(
        record,
        SearchLimits::depth(3),
        Level::Master,
        1,
        &ctl,
        &mut |_| {},
    )
}

#[test]
fn the_side_behind_avoids_a_repetition_through_flipping_jumps() {
    let start = Ataxx::from_text(FLIP_CYCLE_FEN, &AtaxxRules::default()).unwrap();
    // Seven plies: the start has occurred twice and O's `e2g3` would bring
    // it back a third time, which O (2 pieces against 15) loses by count.
    let moves: Vec<&str> = FLIP_CYCLE.iter().chain(&FLIP_CYCLE[..3]).copied().collect();
    let record = Record::from_moves(start, &moves).unwrap();
    assert_eq!(record.outcome(), None);
    let history = stoneplay::ai::history_of(&record);
    assert!(
        history.contains(&start.hash()),
        "the history reaches back past the flipping jumps"
    );
    let r = fake_ctl_think(&record);
    assert_ne!(
        r.best.map(|m| m.to_string()).as_deref(),
        Some("e2g3"),
        "the repetition loses for O"
    );
    assert!(
        r.score < -500 && r.score > -MATE_BOUND,
        "O is far behind but not lost on the spot: {}",
        r.score
    );
    // And once played, the record is over, won by X: no move.
    let mut over = record.clone();
    over.play_text("e2g3").unwrap();
    assert_eq!(
        over.outcome(),
        Some(Outcome::win(Side::First, EndReason::Repetition))
    );
    assert_eq!(fake_ctl_think(&over).best, None);
}

/// The start of the cycle after X's `a1c2`: from here X completes the
/// cycle, so the eighth ply is X's.
fn flip_cycle_after_a1c2() -> Ataxx {
    let mut pos = Ataxx::from_text(FLIP_CYCLE_FEN, &AtaxxRules::default()).unwrap();
    pos.play(pos.parse_move("a1c2").unwrap()).unwrap();
    pos
}

#[test]
fn the_side_ahead_takes_a_repetition_that_wins() {
    // From the position after `a1c2`, seven plies of the cycle bring back
    // the start with X to move: `a1c2` now makes its third occurrence,
    // which X (17 pieces against 1 once d1 is flipped) wins on the spot.
    // No other move wins at once (O's d1 and g3 have no common
    // neighbour), and X's evaluation of anything else is far from a win.
    let start = flip_cycle_after_a1c2();
    let seven = ["g3e2", "c2a1", "e2g3", "a1c2", "g3e2", "c2a1", "e2g3"];
    let record = Record::from_moves(start, seven).unwrap();
    assert_eq!(record.outcome(), None);
    assert_eq!(record.position().side_to_move(), Side::First);
    let r = fake_ctl_think(&record);
    assert_eq!(
        r.best.map(|m| m.to_string()).as_deref(),
        Some("a1c2"),
        "Master steers into the winning repetition (score {})",
        r.score
    );
    assert!(r.score > MATE_BOUND, "a win on the spot: {}", r.score);
    // The same position without its history: a1c2 wins nothing at once.
    let fresh = fake_ctl_think(&Record::new(*record.position()));
    assert!(
        fresh.score > 500 && fresh.score < MATE_BOUND,
        "X is far ahead, nothing more: {}",
        fresh.score
    );
    let mut over = record.clone();
    over.play_text("a1c2").unwrap();
    assert_eq!(
        over.outcome(),
        Some(Outcome::win(Side::First, EndReason::Repetition))
    );
}

#[test]
fn under_the_uai_convention_a_repetition_is_a_draw_in_the_search() {
    // libataxx (and the match runners on it) have no repetition rule: a
    // cycle runs into the 100-ply draw, so under the default UAI
    // convention the winning repetition above is worth only a draw, and
    // X, far ahead, plays on; under `MoveLimit territory-duel` it takes it.
    use stoneplay::games::ataxx::uai::{MoveLimit, UaiAtaxx};
    let seven = ["g3e2", "c2a1", "e2g3", "a1c2", "g3e2", "c2a1", "e2g3"];
    for (limit, takes) in [(MoveLimit::Uai, false), (MoveLimit::TerritoryDuel, true)] {
        let start = UaiAtaxx::new(flip_cycle_after_a1c2(), 0, limit);
        let record = Record::from_moves(start, seven).unwrap();
        let r = fake_ctl_think(&record);
        let best = r.best.map(|m| m.to_string());
        assert_eq!(
            best.as_deref() == Some("a1c2"),
            takes,
            "{limit:?}: {best:?} {}",
            r.score
        );
        assert_eq!(r.score > MATE_BOUND, takes, "{limit:?}: {}", r.score);
        // And the record ends there as each convention says.
        let mut over = record.clone();
        over.play_text("a1c2").unwrap();
        let winner = over.outcome().expect("third occurrence").winner;
        assert_eq!(winner, takes.then_some(Side::First), "{limit:?}");
    }
}

/// The `Hash` option's table: the largest power of two of entries that
/// fits the MiB asked, so more than half of them are used.
#[test]
fn the_table_fits_the_megabytes_asked() {
    fn check<G: Game + Evaluate>() {
        for mb in [1usize, 2, 16, 32, 100] {
            let bytes = Searcher::<G>::with_megabytes(mb).table_bytes();
            assert!(bytes <= mb << 20, "{mb} MiB: {bytes} bytes");
            assert!(bytes > (mb << 20) / 2, "{mb} MiB: only {bytes} bytes");
        }
    }
    check::<Ataxx>();
    check::<Mill>();
    check::<Stones>();
}

#[test]
fn a_match_time_scale_keeps_the_levels_time_ratios() {
    use stoneplay::ai::selfplay::MatchConfig;
    let mut cfg = MatchConfig {
        games: 2,
        movetime_ms: None,
        opening_plies: 2,
        seed: 1,
        time_scale: 0.1,
    };
    assert_eq!(cfg.move_time(Level::Master), 250);
    assert_eq!(cfg.move_time(Level::Strong), 120);
    assert_eq!(cfg.move_time(Level::Beginner), 30);
    cfg.movetime_ms = Some(200);
    assert_eq!(cfg.move_time(Level::Master), 200, "--movetime caps it");
    assert_eq!(cfg.move_time(Level::Strong), 120);
    cfg.time_scale = 1.0;
    cfg.movetime_ms = None;
    assert_eq!(cfg.move_time(Level::Master), 2500);
}
