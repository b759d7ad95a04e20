//! Tactical positions with known best moves, one set per game. Each
//! position is explained in its test; the expectations were worked out by
//! hand from the rules and are checked again by the test where cheap.

use std::cell::Cell;

use stoneplay::ai::{
    Evaluate, Level, SearchControl, SearchLimits, SearchRequest, SearchResult, Searcher, MATE_BOUND,
};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{Mill, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{Game, Side};

/// Searches to `depth` at `level` with a fresh searcher (past the opening,
/// so no opening variety) and returns the move and score.
fn best<G: Game + Evaluate>(pos: &G, depth: u32, level: Level) -> (G::Move, i32) {
    let r = search_with(&mut Searcher::default(), pos, depth, level);
    (r.best.expect("the game is not over"), r.score)
}

/// Searches to `depth` at `level` with `searcher` (which keeps what it
/// learnt between calls), past the opening.
fn search_with<G: Game + Evaluate>(
    searcher: &mut Searcher<G>,
    pos: &G,
    depth: u32,
    level: Level,
) -> SearchResult<G::Move> {
    let t = Cell::new(0.0);
    let clock = move || {
        t.set(t.get() + 0.001);
        t.get()
    };
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    let req = SearchRequest {
        position: pos,
        history: &[],
        game_ply: 30,
        limits: SearchLimits::depth(depth),
        level,
        seed: 7,
    };
    searcher.think(&req, &ctl, &mut |_| {})
}

/// Nine Men's Morris after the placements `moves`, from the start.
fn mill_after(moves: &[&str]) -> Mill {
    let rules = Preset::NineMensMorris.rules();
    let mut pos = Mill::start(&rules);
    for m in moves {
        pos.play(mv(&pos, m)).unwrap();
    }
    pos
}

fn mv<G: Game>(pos: &G, text: &str) -> G::Move {
    pos.parse_move(text).unwrap()
}

/// X on a1; O only on c3 and d3. The squares next to both O pieces are
/// c2, d2, c4 and d4; of those only c2 is within reach of a1 (a jump), so
/// `a1c2` flips both O pieces and wins at once (O has no pieces left).
/// Any other move leaves O alive. Expected: `a1c2`, scored as a win.
#[test]
fn territory_duel_takes_the_capture_that_wins_the_game() {
    let pos = Ataxx::from_text("7/7/7/7/2oo3/7/x6 x 0 1", &AtaxxRules::default()).unwrap();
    for depth in 1..=4 {
        for level in [Level::Intermediate, Level::Strong, Level::Master] {
            let (m, score) = best(&pos, depth, level);
            assert_eq!(m, mv(&pos, "a1c2"), "depth {depth} {level}");
            assert!(score > MATE_BOUND, "score {score}");
        }
    }
    // Check the claim: after a1c2 the game is won by X.
    let mut after = pos;
    after.play(mv(&pos, "a1c2")).unwrap();
    assert_eq!(after.outcome().unwrap().winner, Some(Side::First));
}

/// One empty square left, g1; X to move with 23 pieces against 25. The
/// neighbours of g1 are f1 (O), f2 (X) and g2 (O). Cloning into g1 (from
/// f2) fills the board and flips f1 and g2: 26 X against 22 O, a win on
/// the spot. A jump into g1 would empty its origin and the game would go
/// on. Expected: the clone `g1`, scored as a win.
#[test]
fn territory_duel_fills_the_board_when_that_wins() {
    // Ranks 7..1; X 23, O 25 before the move, g1 empty.
    let fen = "xxxxxxx/ooooooo/xxxxxxx/ooooooo/xxxxxxx/oooooxo/xooooo1 x 0 1";
    let pos = Ataxx::from_text(fen, &AtaxxRules::default()).unwrap();
    assert_eq!(pos.empty_count(), 1);
    assert_eq!((pos.count(Side::First), pos.count(Side::Second)), (23, 25));
    let (m, score) = best(&pos, 3, Level::Master);
    assert_eq!(m, mv(&pos, "g1"));
    let mut after = pos;
    after.play(m).unwrap();
    let o = after.outcome();
    assert_eq!(o.map(|o| o.winner), Some(Some(Side::First)), "move {m}");
    assert!(score > MATE_BOUND);
}

/// Placing phase. White a7, d7; Black b2, d2. White to move. Black
/// threatens f2 (mill b2-d2-f2, then a removal). Placing g7 closes
/// a7-d7-g7 at once and the removal that follows breaks Black's threat; a
/// block on f2 instead lets Black block g7 and nothing is won. Expected:
/// `g7`, then the removal takes b2 or d2 (the threat), not a harmless piece.
#[test]
fn mill_forms_a_mill_when_it_can() {
    let mut pos = mill_after(&["a7", "b2", "d7", "d2"]);
    for depth in 1..=4 {
        let (m, _) = best(&pos, depth, Level::Master);
        assert_eq!(m, mv(&pos, "g7"), "depth {depth}");
    }
    pos.play(mv(&pos, "g7")).unwrap();
    assert_eq!(pos.side_to_move(), Side::First, "White removes next");
    let (removal, _) = best(&pos, 3, Level::Master);
    assert!(
        [mv(&pos, "xb2"), mv(&pos, "xd2")].contains(&removal),
        "removed {removal}"
    );
}

/// Placing phase. White a7, g4; Black a1, d1. Black threatens g1 (mill
/// a1-d1-g1, then a removal). White has no two pieces on an open line, so
/// it cannot strike first: it must block on g1. Expected: `g1`.
#[test]
fn mill_blocks_an_open_mill() {
    let pos = mill_after(&["a7", "a1", "g4", "d1"]);
    for depth in 2..=4 {
        for level in [Level::Intermediate, Level::Master] {
            let (m, _) = best(&pos, depth, level);
            assert_eq!(m, mv(&pos, "g1"), "depth {depth} {level}");
        }
    }
}

/// The lower levels play Mill with the hand-written evaluation and Strong
/// and Master with the learned tables (`LevelParams::plain_eval`). One
/// searcher kept between moves (as the worker and `engine uci` keep it)
/// must not reuse one evaluation's scores for the other: after a Master
/// search of the same position, Intermediate finds what a fresh searcher
/// finds, and its score is not Master's.
#[test]
fn mill_levels_do_not_share_scores_across_evaluations() {
    let pos = mill_after(&["a7", "a1", "g4", "d1"]);
    assert_ne!(
        pos.evaluate(),
        pos.evaluate_plain(),
        "the two evaluations differ here"
    );
    let mut kept = Searcher::<Mill>::new(16);
    let master = search_with(&mut kept, &pos, 4, Level::Master);
    let after_master = search_with(&mut kept, &pos, 4, Level::Intermediate);
    let fresh = search_with(&mut Searcher::new(16), &pos, 4, Level::Intermediate);
    assert_eq!(
        (after_master.best, after_master.score, after_master.nodes),
        (fresh.best, fresh.score, fresh.nodes)
    );
    assert_ne!(master.score, fresh.score);
    assert_eq!(fresh.best, Some(mv(&pos, "g1")));
}

/// Moving phase. White d7, g7, a4 and f2 (four pieces: no flying); Black
/// d5, e4, d1 (three, flying). Sliding a4-a7 closes a7-d7-g7; the removal
/// then leaves Black with two pieces, which loses. No other slide closes
/// a mill. Expected: `a4-a7`, scored as a win.
#[test]
fn mill_slides_into_a_mill() {
    let rules = Preset::NineMensMorris.rules();
    // Outer ring from d7 clockwise: d7 g7 g4 g1 d1 a1 a4 a7.
    let pos = Mill::from_text(
        "@*@*****/***O****/OO**@*O* w m s 4 0 3 0 0 0 0 0 0 0 0 0 1",
        &rules,
    )
    .unwrap();
    assert!(!pos.can_fly(Side::First) && pos.can_fly(Side::Second));
    for depth in 1..=4 {
        let (m, score) = best(&pos, depth, Level::Master);
        assert_eq!(m, mv(&pos, "a4-a7"), "depth {depth}");
        assert!(score > MATE_BOUND, "depth {depth}: {score}");
    }
}

/// Stones! White: d7. Black: b8. White to move; its stone has two moves,
/// `d7-c8` and `d7-e8`, both onto the far rank. On c8 it stands next to
/// b8 with d8 empty behind it, so Black jumps it sideways (`b8xc8-d8`)
/// and pins it: White then has no move and the game ends 0-0, a draw. On
/// e8 no Black stone can ever jump it (d8 and f8 are empty and Black
/// stones never move up), Black's one move cannot reach rank 1, and
/// White, with no move left, wins 1-0. Expected: `d7-e8`, scored as a win.
#[test]
fn stones_does_not_walk_into_an_avoidable_pin() {
    let pos = Stones::from_text("W:d7 B:b8 w", &StonesRules).unwrap();
    let into_pin = mv(&pos, "d7-c8");
    let safe = mv(&pos, "d7-e8");
    assert_eq!(pos.legal_moves().len(), 2);
    // The claims, by the rules: c8 allows a pin, e8 does not.
    let pinnable = |m| {
        let mut p = pos;
        p.play(m).unwrap();
        p.legal_moves().into_iter().any(|reply| {
            let mut q = p;
            q.play_unchecked(reply);
            q.stone_at(reply.jumped.unwrap_or(64)) == Some((Side::First, true))
        })
    };
    assert!(pinnable(into_pin));
    assert!(!pinnable(safe));
    for depth in 2..=5 {
        let (m, score) = best(&pos, depth, Level::Master);
        assert_eq!(m, safe, "depth {depth}");
        assert!(score > MATE_BOUND, "depth {depth}: {score}");
    }
}

/// The same pin with more on the board, so the game goes on either way:
/// White d7 and a1, Black b8 and h8. Stepping to c8 lets b8 pin it
/// sideways (the pinned stone then scores nothing), while e8 is out of
/// reach of every Black stone for good. The search, to any depth, keeps
/// the stone that reaches the far rank free: whatever it plays, no Black
/// reply pins the d7 stone. `d7-e8` does that; so does a quiet move
/// elsewhere, after which d7 can still go to e8 (`a1-e5` at depth 4 with
/// the learned tables: b8 may pin e5 instead, and `engine uci stones`
/// scores the game a draw at depth 16 after `d7-e8` as after `a1-e5`).
/// Expected: not `d7-c8`, and the d7 stone never pinned in reply.
#[test]
fn stones_keeps_its_far_rank_stone_free() {
    let pos = Stones::from_text("W:d7,a1 B:b8,h8 w", &StonesRules).unwrap();
    let d7 = mv(&pos, "d7-e8").from;
    // A move after which some Black reply pins the stone from d7.
    let pins_d7 = |m: <Stones as Game>::Move| {
        let far = if m.from == d7 { m.to } else { d7 };
        let mut p = pos;
        p.play(m).unwrap();
        p.legal_moves().into_iter().any(|reply| {
            let mut q = p;
            q.play_unchecked(reply);
            reply.jumped == Some(far) && q.stone_at(far) == Some((Side::First, true))
        })
    };
    assert!(pins_d7(mv(&pos, "d7-c8")), "the claim: c8 can be pinned");
    assert!(!pins_d7(mv(&pos, "d7-e8")), "the claim: e8 cannot");
    for depth in 2..=5 {
        let (m, _) = best(&pos, depth, Level::Master);
        assert!(
            !pins_d7(m),
            "depth {depth}: {m} lets Black pin the d7 stone"
        );
    }
}
