//! The local game's rules of play (src/client/local.rs), natively, with
//! the time injected: the clock, pause and a dialog over the board, moves,
//! undo/redo and review, timeouts, forced passes and resume.

use stoneplay::client::local::{LocalGame, Played, Refused, Step};
use stoneplay::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules};
use stoneplay::games::mill::{Mill, MillRules};
use stoneplay::games::{EndReason, Game, GameError, Outcome, Record, Side};

fn ataxx(moves: &[&str]) -> Record<Ataxx> {
    Record::from_moves(Ataxx::start(&AtaxxRules::default()), moves).unwrap()
}

fn mv<G: Game>(game: &LocalGame<G>, text: &str) -> G::Move {
    game.record().position().parse_move(text).unwrap()
}

fn play<G: Game>(game: &mut LocalGame<G>, text: &str, now: f64) -> Played {
    let m = mv(game, text);
    game.play(m, now).unwrap()
}

fn left<G: Game>(game: &LocalGame<G>, now: f64) -> Option<f64> {
    game.clock().left_at(now)
}

#[test]
fn every_turn_starts_with_the_full_time() {
    let mut g = LocalGame::new(ataxx(&[]), 30, None, 1_000.0);
    assert!(g.clock().is_running());
    assert_eq!(left(&g, 11_000.0), Some(20_000.0));
    assert_eq!(play(&mut g, "b6", 11_000.0), Played::NextTurn);
    assert_eq!(left(&g, 11_000.0), Some(30_000.0));
    assert_eq!(left(&g, 12_500.0), Some(28_500.0));
    // No clock: nothing runs, nothing to lose on.
    let mut off = LocalGame::new(ataxx(&[]), 0, None, 0.0);
    assert!(!off.clock().is_running());
    assert_eq!(left(&off, 1e9), None);
    assert_eq!(off.tick(1e9), None);
}

#[test]
fn a_mill_removal_is_the_same_turn_and_the_clock_runs_on() {
    let start = Mill::start(&MillRules::default());
    let record = Record::from_moves(start, ["a7", "a1", "d7", "d1"]).unwrap();
    let mut g = LocalGame::new(record, 30, None, 0.0);
    assert_eq!(play(&mut g, "g7", 5_000.0), Played::SameTurn);
    assert_eq!(g.to_move(), Side::First);
    assert_eq!(
        left(&g, 5_000.0),
        Some(25_000.0),
        "the mill's turn keeps its clock"
    );
    assert_eq!(play(&mut g, "xa1", 8_000.0), Played::NextTurn);
    assert_eq!(left(&g, 8_000.0), Some(30_000.0));
}

#[test]
fn a_dialog_over_the_board_stops_the_clock_and_keeps_its_time() {
    let mut g = LocalGame::new(ataxx(&["b6"]), 30, None, 0.0);
    g.set_covered(true, 10_000.0);
    assert!(!g.clock().is_running());
    assert!(g.is_covered());
    // A minute behind the settings panel: no time lost, no timeout.
    assert_eq!(g.tick(70_000.0), None);
    assert_eq!(left(&g, 70_000.0), Some(20_000.0));
    assert!(!g.is_over());
    g.set_covered(false, 70_000.0);
    assert!(g.clock().is_running());
    assert_eq!(left(&g, 75_000.0), Some(15_000.0));
    // A move made while covered (the computer's) starts a stopped turn.
    g.set_covered(true, 75_000.0);
    play(&mut g, "b2", 76_000.0);
    assert!(!g.clock().is_running());
    assert_eq!(left(&g, 90_000.0), Some(30_000.0));
}

#[test]
fn pause_stops_the_clock_and_the_board() {
    let mut g = LocalGame::new(ataxx(&[]), 30, None, 0.0);
    assert!(g.set_paused(true, 4_000.0));
    assert!(!g.board_enabled());
    let b6 = mv(&g, "b6");
    assert_eq!(g.play(b6, 5_000.0), Err(Refused::Paused));
    assert_eq!(g.record().moves().len(), 0);
    assert_eq!(g.forced_move(), None);
    assert_eq!(left(&g, 100_000.0), Some(26_000.0));
    // Closing a dialog does not resume a paused game.
    g.set_covered(true, 100_000.0);
    g.set_covered(false, 100_000.0);
    assert!(!g.clock().is_running());
    assert!(!g.set_paused(false, 100_000.0));
    assert_eq!(left(&g, 101_000.0), Some(25_000.0));
}

#[test]
fn time_up_loses_and_the_finished_game_stays_finished() {
    let mut g = LocalGame::new(ataxx(&["b6", "b2"]), 15, None, 0.0);
    assert_eq!(g.tick(14_999.0), None);
    assert_eq!(g.tick(15_000.0), Some(Side::First));
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, EndReason::Timeout))
    );
    assert!(!g.clock().is_running());
    assert_eq!(g.tick(99_000.0), None, "a timeout is called once");
    // No move, no pause, no clock after the end.
    let a7a5 = mv(&g, "a7a5");
    assert_eq!(g.play(a7a5, 16_000.0), Err(Refused::Over));
    assert!(!g.set_paused(true, 16_000.0));
    g.set_clock_secs(60);
    g.set_covered(true, 17_000.0);
    g.set_covered(false, 18_000.0);
    assert!(!g.clock().is_running());
    assert!(!g.board_enabled());
    // Undo after the end is review: the board steps back, the game stays over.
    assert!(g.can_undo());
    assert_eq!(g.undo(20_000.0), Step::Review(1));
    assert_eq!(g.undo(20_000.0), Step::Review(0));
    assert!(!g.can_undo());
    assert_eq!(g.undo(20_000.0), Step::Nothing);
    assert_eq!(g.shown().moves().len(), 0);
    assert_eq!(g.record().moves().len(), 2);
    assert!(g.is_over());
    assert!(!g.clock().is_running());
    assert!(g.can_redo());
    assert_eq!(g.redo(21_000.0), Step::Review(1));
    assert_eq!(g.redo(21_000.0), Step::Review(2));
    assert_eq!(g.viewing(), None);
    assert!(!g.can_redo());
    assert_eq!(g.redo(21_000.0), Step::Nothing);
    assert_eq!(
        g.record().outcome().map(|o| o.reason),
        Some(EndReason::Timeout)
    );
}

#[test]
fn a_clock_length_change_applies_from_the_next_move() {
    let mut g = LocalGame::new(ataxx(&[]), 15, None, 0.0);
    g.set_clock_secs(60);
    assert_eq!(g.clock_secs(), 60);
    assert_eq!(
        left(&g, 13_000.0),
        Some(2_000.0),
        "the running move keeps its time"
    );
    play(&mut g, "b6", 13_000.0);
    assert_eq!(left(&g, 13_000.0), Some(60_000.0));
    // Switched off: the move under way still runs out, the next has none.
    g.set_clock_secs(0);
    assert_eq!(g.tick(73_000.0), Some(Side::Second));
    let mut h = LocalGame::new(ataxx(&[]), 15, None, 0.0);
    h.set_clock_secs(0);
    play(&mut h, "b6", 1_000.0);
    assert_eq!(left(&h, 1e9), None);
    // A new game takes the new length.
    h.set_clock_secs(30);
    h.new_game(Ataxx::start(&AtaxxRules::default()), 2_000.0);
    assert_eq!(left(&h, 2_000.0), Some(30_000.0));
}

#[test]
fn undo_and_redo_with_two_players_and_against_the_computer() {
    let mut two = LocalGame::new(ataxx(&["b6", "b2"]), 30, None, 0.0);
    assert_eq!(two.undo(5_000.0), Step::Moves(1));
    assert_eq!(two.record().moves().len(), 1);
    assert_eq!(
        left(&two, 5_000.0),
        Some(30_000.0),
        "undo starts the turn afresh"
    );
    assert_eq!(two.redo(6_000.0), Step::Moves(1));
    assert_eq!(two.record().moves().len(), 2);
    assert!(!two.can_redo());
    // A new move after an undo clears what could be redone.
    two.undo(7_000.0);
    play(&mut two, "a1a3", 7_000.0);
    assert!(!two.can_redo());

    // The computer plays O: undo takes back your move and its reply.
    let mut vs = LocalGame::new(ataxx(&["b6", "b2", "a7a5"]), 30, Some(Side::Second), 0.0);
    assert!(vs.computer_to_move());
    assert!(!vs.board_enabled());
    assert_eq!(vs.undo(1_000.0), Step::Moves(1), "back to your turn");
    assert_eq!(vs.record().moves().len(), 2);
    assert_eq!(vs.undo(1_000.0), Step::Moves(2));
    assert_eq!(vs.record().moves().len(), 0);
    assert!(vs.board_enabled());
    assert!(!vs.can_undo());
    assert_eq!(vs.redo(2_000.0), Step::Moves(2));
    assert_eq!(vs.record().moves().len(), 2);
    // The computer moved first (you play O): its move alone is not yours to undo.
    let first = LocalGame::new(ataxx(&["b6"]), 30, Some(Side::First), 0.0);
    assert!(!first.can_undo());
}

#[test]
fn an_illegal_move_changes_nothing() {
    let mut g = LocalGame::new(ataxx(&["b6"]), 30, None, 0.0);
    let before = g.clone();
    let illegal = AtaxxMove::Pass;
    assert!(matches!(
        g.play(illegal, 2_000.0),
        Err(Refused::Illegal(GameError::IllegalMove(_)))
    ));
    assert_eq!(g, before);
}

#[test]
fn a_forced_pass_is_offered_while_the_game_is_on() {
    let stuck = Ataxx::from_text(
        "o6/7/7/-------/-------/xxxxxxx/xxxxxxx x 0 1",
        &AtaxxRules::default(),
    )
    .unwrap();
    let mut g = LocalGame::new(Record::new(stuck), 30, None, 0.0);
    assert_eq!(g.forced_move(), Some(AtaxxMove::Pass));
    g.set_paused(true, 1.0);
    assert_eq!(g.forced_move(), None);
    g.set_paused(false, 2.0);
    assert_eq!(g.play(AtaxxMove::Pass, 3.0), Ok(Played::NextTurn));
    assert_eq!(g.forced_move(), None);
    assert_eq!(
        LocalGame::new(ataxx(&[]), 30, None, 0.0).forced_move(),
        None
    );
}

#[test]
fn a_saved_game_comes_back_paused_or_finished() {
    // In progress: paused, with the time that was left.
    let g = LocalGame::resumed(ataxx(&["b6"]), 30, None, Some(12_000.0), None);
    assert!(g.is_paused());
    assert!(!g.is_over());
    assert_eq!(left(&g, 1e6), Some(12_000.0));
    // Lost on time: the link has only the moves; the saved ending restores it.
    let timeout = Outcome::win(Side::First, EndReason::Timeout);
    let g = LocalGame::resumed(ataxx(&["b6"]), 30, None, Some(0.0), Some(timeout));
    assert_eq!(g.outcome(), Some(timeout));
    assert!(!g.is_paused());
    assert!(!g.clock().is_running());
    assert!(!g.board_enabled());
    // A resignation and an agreed draw too.
    let resigned = Outcome::win(Side::First, EndReason::Resignation);
    let g = LocalGame::resumed(ataxx(&["b6"]), 30, None, None, Some(resigned));
    assert_eq!(g.outcome(), Some(resigned));
    let agreed = Outcome::draw(EndReason::Agreement);
    let g = LocalGame::resumed(ataxx(&["b6"]), 30, None, None, Some(agreed));
    assert_eq!(g.outcome(), Some(agreed));
    // An online game stopped by the server's ply cap (issue 37: finished
    // online games open in review): decided by count as the server did,
    // X 3 pieces to O's 2 after b6.
    let capped = Outcome::win(Side::First, EndReason::PlyLimit);
    let g = LocalGame::resumed(ataxx(&["b6"]), 30, None, None, Some(capped));
    assert_eq!(g.outcome(), Some(capped));
    assert!(!g.is_paused());
    // A saved ending that does not fit (the wrong side lost on time, or a
    // rule ending the moves do not reach) is ignored: the game goes on, paused.
    for wrong in [
        Outcome::win(Side::Second, EndReason::Timeout),
        Outcome::win(Side::First, EndReason::BoardFull),
    ] {
        let g = LocalGame::resumed(ataxx(&["b6"]), 30, None, Some(5_000.0), Some(wrong));
        assert_eq!(g.outcome(), None, "{wrong:?}");
        assert!(g.is_paused());
    }
    // The snapshot keeps the time left and the ending.
    let mut g = LocalGame::new(ataxx(&[]), 30, None, 0.0);
    g.tick(30_000.0);
    let snap = g.snapshot(40_000.0);
    assert_eq!(snap.clock_left_ms, Some(0.0));
    assert_eq!(
        snap.record.outcome(),
        Some(Outcome::win(Side::Second, EndReason::Timeout))
    );
}

#[test]
fn the_move_list_view_and_new_games() {
    let mut g = LocalGame::new(ataxx(&["b6", "b2", "a7a5"]), 30, None, 0.0);
    g.view(Some(1));
    assert_eq!(g.viewing(), Some(1));
    assert!(!g.board_enabled());
    assert_eq!(g.shown().moves().len(), 1);
    g.view(Some(3));
    assert_eq!(g.viewing(), None, "the last ply is the live game");
    g.view(Some(99));
    assert_eq!(g.viewing(), None);
    g.view(Some(0));
    play(&mut g, "a1a3", 1_000.0);
    assert_eq!(g.viewing(), None, "a move returns to the live game");
    g.set_paused(true, 2_000.0);
    g.new_game(Ataxx::start(&AtaxxRules::default()), 3_000.0);
    assert!(!g.is_paused());
    assert_eq!(g.record().moves().len(), 0);
    assert_eq!(left(&g, 4_000.0), Some(29_000.0));
    // An imported game keeps the pause.
    g.set_paused(true, 4_000.0);
    g.import(ataxx(&["b6"]), 5_000.0);
    assert!(g.is_paused());
    assert!(!g.clock().is_running());
    assert_eq!(g.record().moves().len(), 1);
}

#[test]
fn a_game_only_opened_is_not_kept_for_the_recent_games() {
    let keep = |g: &LocalGame<Ataxx>| g.snapshot(0.0).keep;
    // A new game, or a shared link, opened and left alone: not kept, also
    // while paused or under a dialog.
    let mut g = LocalGame::new(ataxx(&[]), 30, None, 0.0);
    assert!(!keep(&g));
    g.set_paused(true, 1_000.0);
    g.set_paused(false, 2_000.0);
    g.set_covered(true, 2_000.0);
    g.set_covered(false, 3_000.0);
    assert!(!keep(&g));
    assert!(!keep(&LocalGame::new(ataxx(&["b6"]), 30, None, 0.0)));
    // An illegal move is not a move.
    let a1 = mv(&g, "a1");
    assert!(g.play(a1, 3_000.0).is_err());
    assert!(!keep(&g));
    // A move makes it a recent game; a new game (Rematch) is another game,
    // saved on its own, and starts unkept.
    play(&mut g, "b6", 4_000.0);
    assert!(keep(&g));
    assert_eq!(g.snapshot(0.0).game_no, 0);
    g.new_game(Ataxx::start(&AtaxxRules::default()), 5_000.0);
    assert!(!keep(&g));
    assert_eq!(g.snapshot(0.0).game_no, 1);
    play(&mut g, "b6", 6_000.0);
    g.import(ataxx(&["b6", "b2"]), 7_000.0);
    assert_eq!(g.snapshot(0.0).game_no, 1, "an import replaces the game");
    g.new_game(Ataxx::start(&AtaxxRules::default()), 8_000.0);
    assert_eq!(g.snapshot(0.0).game_no, 2);
    // The computer's move counts as well as yours.
    let mut vs = LocalGame::new(ataxx(&[]), 30, Some(Side::First), 0.0);
    play(&mut vs, "b6", 1_000.0);
    assert!(keep(&vs));
    // A game that ended (here on time before any move) is kept finished.
    let mut t = LocalGame::new(ataxx(&[]), 30, None, 0.0);
    assert_eq!(t.tick(30_000.0), Some(Side::First));
    assert!(keep(&t));
    // An import, and a game resumed from the recent games, are kept.
    let mut i = LocalGame::new(ataxx(&[]), 30, None, 0.0);
    i.import(ataxx(&["b6"]), 1_000.0);
    assert!(keep(&i));
    assert!(keep(&LocalGame::resumed(ataxx(&[]), 30, None, None, None)));
}
