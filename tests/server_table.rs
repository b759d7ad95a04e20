//! The room's rules as a plain table (`server::room::Table`), tested with
//! no socket, no store and no task: transcripts of actions at given times
//! and the events or refusals they must give, plus the clock's edges to
//! the nanosecond and the ply cap (issue 34, point 2; the first three
//! tests were room.rs's unit tests of issue 33, which needed a store).
//!
//! A transcript is one step a line, `TIME WHO ACTION => RESULT`:
//! - TIME: milliseconds since the table was set up (`NNNns`: nanoseconds);
//!   never earlier than the step before.
//! - WHO: `first` or `second` (the side acting), or `-` for the table.
//! - ACTION: `move PLY TEXT`, `pause`, `unpause`, `resign`, `offer`,
//!   `accept`, `decline`, `rematch`, `sync`, `cancel`; for `-`: `due`
//!   (what the timers decide), `clock` (the time left), `status`,
//!   `outcome` (`none` or `REASON WINNER`), `offer` (who offers a draw).
//! - RESULT: the event (`moved`, `paused`, …, as the protocol names it),
//!   `refused CODE`, or the value read; for `due`, `none` when nothing is.
//!
//! After a refusal the table must be as it was (checked on every step).

use std::time::Duration;

use stoneplay::games::any::{AnyRecord, Variant};
use stoneplay::games::ataxx::AtaxxRules;
use stoneplay::games::mill::MillRules;
use stoneplay::games::{EndReason, Side};
use stoneplay::protocol::online::{Event, Refusal, Status, MAX_PLIES};
use stoneplay::server::room::{Action, Refused, Rules, Table};
use stoneplay::server::store::RoomMeta;
use tokio::time::Instant;

const RULES: Rules = Rules {
    auto_resume: Duration::from_millis(2000),
    pauses_per_player: 3,
};

/// The meta of a started game of `spec` (player 0, the creator, plays
/// First), as the store would hold it; `seated`: the friend has joined.
fn meta(spec: Variant, clock_ms: u64, seated: bool) -> RoomMeta {
    let live = AnyRecord::new(&spec);
    RoomMeta {
        spec,
        clock_ms,
        tokens: [Some("a".into()), seated.then(|| "b".into())],
        join_key: (!seated).then(|| "key".into()),
        creator_side: Side::First,
        game_no: 1,
        start: live.start_text(),
        outcome: None,
        remaining_ms: clock_ms,
        paused_by: None,
        pause_left_ms: 0,
        pauses_left: [3, 3],
        draw_offer: None,
        offered_at: [None, None],
        rematch: [false, false],
        created_ms: 0,
        clock_saved_ms: None,
        players: [None, None],
        rated: false,
        moved: [false, false],
    }
}

fn ataxx() -> Variant {
    Variant::Ataxx(AtaxxRules::default())
}

/// A Territory Duel table with `clock_ms` per move, set up at `t0`.
fn started(clock_ms: u64, t0: Instant) -> Table {
    Table::resume(
        meta(ataxx(), clock_ms, true),
        Vec::new(),
        RULES,
        (t0, 0),
        None,
    )
    .unwrap()
}

fn at(t0: Instant, ms: u64) -> Instant {
    t0 + Duration::from_millis(ms)
}

fn name<T: serde::Serialize>(value: T) -> String {
    serde_json::to_value(value)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

fn side(who: &str) -> Side {
    match who {
        "first" => Side::First,
        "second" => Side::Second,
        other => panic!("who is {other}?"),
    }
}

fn action(words: &[&str]) -> Action {
    match words {
        ["move", ply, mv] => Action::Move {
            ply: ply.parse().unwrap(),
            mv: (*mv).to_string(),
        },
        ["pause"] => Action::Pause,
        ["unpause"] => Action::Unpause,
        ["resign"] => Action::Resign,
        ["offer"] => Action::OfferDraw,
        ["accept"] => Action::AnswerDraw(true),
        ["decline"] => Action::AnswerDraw(false),
        ["rematch"] => Action::Rematch,
        ["sync"] => Action::Sync,
        ["cancel"] => Action::CancelInvite,
        other => panic!("unknown action {other:?}"),
    }
}

/// What the table shows, to compare before and after a refusal.
fn shown(table: &Table, now: Instant) -> String {
    format!(
        "{:?} {:?} {} {:?}",
        table.meta,
        table.moves,
        table.remaining(now),
        table.pause_until.map(|t| t.saturating_duration_since(now))
    )
}

/// Plays `transcript` on `table` (set up at `t0`); panics at the first
/// step whose result differs, naming the line.
fn play(mut table: Table, t0: Instant, transcript: &str) {
    let mut last = t0;
    for (n, line) in transcript.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (step, want) = line.split_once("=>").expect("TIME WHO ACTION => RESULT");
        let words: Vec<&str> = step.split_whitespace().collect();
        let now = match words[0].strip_suffix("ns") {
            Some(ns) => t0 + Duration::from_nanos(ns.parse().unwrap()),
            None => at(t0, words[0].parse().unwrap()),
        };
        assert!(now >= last, "line {}: time runs backwards", n + 1);
        last = now;
        let got = match (words[1], &words[2..]) {
            ("-", ["due"]) => table.due(now).map_or("none".into(), name),
            ("-", ["clock"]) => table.remaining(now).to_string(),
            ("-", ["status"]) => name(table.status()),
            ("-", ["offer"]) => match table.meta.draw_offer {
                Some(s) => format!("{s:?}").to_lowercase(),
                None => "none".into(),
            },
            ("-", ["outcome"]) => match table.meta.outcome {
                None => "none".into(),
                Some(o) => format!(
                    "{} {}",
                    format!("{:?}", o.reason).to_lowercase(),
                    o.winner
                        .map_or("draw".into(), |s| format!("{s:?}").to_lowercase())
                ),
            },
            (who, act) => {
                let before = shown(&table, now);
                match table.apply(side(who), action(act), now) {
                    Ok(event) => name(event),
                    Err(refused) => {
                        assert_eq!(
                            shown(&table, now),
                            before,
                            "line {}: a refusal changed the table",
                            n + 1
                        );
                        format!("refused {}", name(refused.code()))
                    }
                }
            }
        };
        assert_eq!(got, want.trim(), "line {}: {line}", n + 1);
    }
}

#[test]
fn moves_turns_and_the_clock_per_move() {
    let t0 = Instant::now();
    play(
        started(1000, t0),
        t0,
        "
        0    - status          => playing
        0    second move 0 a2  => refused not_your_turn
        0    first move 5 b6   => refused stale_ply
        0    first move 0 d4   => refused illegal_move
        0    first move 0 zz99 => refused illegal_move
        400  - clock           => 600
        400  first move 0 b6   => moved
        # a new turn: the clock starts afresh
        400  - clock           => 1000
        900  - clock           => 500
        900  second move 1 b1  => moved
        1000 - due             => none
        1900 - clock           => 0
        1900 - due             => timeout
        1900 - outcome         => timeout second
        1900 - status          => over
        5000 - due             => none
        5000 first move 2 b5   => refused game_over
        ",
    );
}

#[test]
fn pauses_are_limited_and_end_by_themselves() {
    let t0 = Instant::now();
    play(
        started(1000, t0),
        t0,
        "
        0    first unpause        => refused not_paused
        300  first pause          => paused
        300  first pause          => refused paused
        400  first move 0 b6      => refused paused
        400  second unpause       => refused not_your_pause
        # the clock is stopped while paused
        1500 - clock              => 700
        1500 first unpause        => unpaused
        2100 - clock              => 100
        2100 second pause         => paused
        2100 second pause         => refused paused
        # the pause ends by itself 2 s later, to the millisecond
        4099 - due                => none
        4100 - due                => auto_unpaused
        4100 - status             => playing
        4100 - clock              => 100
        4100 first pause          => paused
        4100 first unpause        => unpaused
        4100 first pause          => paused
        4100 first unpause        => unpaused
        4100 first pause          => refused no_pauses_left
        4200 - due                => timeout
        ",
    );
}

#[test]
fn draw_offers_lapse_decline_and_accept() {
    let t0 = Instant::now();
    play(
        started(60_000, t0),
        t0,
        "
        0  second accept       => refused no_draw_offer
        0  first offer         => draw_offered
        0  first offer         => refused draw_already_offered
        0  first accept        => refused no_draw_offer
        0  first decline       => refused no_draw_offer
        0  - offer             => first
        0  second decline      => draw_declined
        0  - offer             => none
        # one offer per own move
        0  first offer         => refused draw_already_offered
        10 first move 0 b6     => moved
        10 second offer        => draw_offered
        # the offerer's opponent moves: the offer lapses
        20 first move 1 b5     => refused not_your_turn
        20 second move 1 b1    => moved
        20 - offer             => second
        20 first move 2 b5     => moved
        20 - offer             => none
        30 first offer         => draw_offered
        30 second offer        => draw_agreed
        30 - outcome           => agreement draw
        30 second offer        => refused game_over
        ",
    );
}

#[test]
fn resign_then_a_rematch_with_sides_swapped() {
    let t0 = Instant::now();
    let table = started(60_000, t0);
    play(
        table,
        t0,
        "
        0  first rematch       => refused not_over
        0  first cancel        => refused room_full
        5  second resign       => resigned
        5  - outcome           => resignation first
        5  second resign       => refused game_over
        5  first move 0 b6     => refused game_over
        6  first rematch       => rematch_offered
        6  first rematch       => refused already_asked
        7  second rematch      => rematch
        7  - status            => playing
        7  - outcome           => none
        7  - clock             => 60000
        7  first move 0 b6     => moved
        7  first sync          => sync
        ",
    );
    // The creator (player 0) played First, now Second.
    let mut table = started(60_000, t0);
    table.apply(Side::First, Action::Resign, t0).unwrap();
    table.apply(Side::First, Action::Rematch, t0).unwrap();
    table.apply(Side::Second, Action::Rematch, t0).unwrap();
    assert_eq!(table.side_of(0), Side::Second);
    assert_eq!(table.meta.game_no, 2);
    assert!(table.moves.is_empty());
    assert_eq!(table.meta.pauses_left, [3, 3]);
}

#[test]
fn a_room_waiting_for_the_friend() {
    let t0 = Instant::now();
    let table =
        Table::resume(meta(ataxx(), 1000, false), Vec::new(), RULES, (t0, 0), None).unwrap();
    play(
        table,
        t0,
        "
        0    - status        => waiting
        0    first move 0 b6 => refused not_started
        0    first pause     => refused not_started
        0    first offer     => refused not_started
        0    first rematch   => refused not_over
        # no clock runs before the friend sits down
        5000 - due           => none
        5000 first resign    => resigned
        5000 first rematch   => refused not_started
        ",
    );
    let mut table =
        Table::resume(meta(ataxx(), 1000, false), Vec::new(), RULES, (t0, 0), None).unwrap();
    table.seat_friend("sealed".into(), at(t0, 100));
    assert_eq!(table.status(), Status::Playing);
    assert_eq!(table.meta.join_key, None);
    assert_eq!(table.due(at(t0, 1099)), None);
    assert_eq!(table.due(at(t0, 1100)), Some(Event::Timeout));
}

/// A refusal names the game's own error for an illegal move, as the game
/// gave it (the protocol's code is `illegal_move`, its words the game's).
#[test]
fn an_illegal_move_carries_the_games_error() {
    let t0 = Instant::now();
    let mut table = started(1000, t0);
    let mut record = AnyRecord::new(&ataxx());
    let game_error = record.play_text("d4").unwrap_err();
    let refused = table
        .apply(
            Side::First,
            Action::Move {
                ply: 0,
                mv: "d4".into(),
            },
            t0,
        )
        .unwrap_err();
    assert_eq!(refused, Refused::Illegal(game_error.clone()));
    assert_eq!(refused.code(), Refusal::IllegalMove);
    assert_eq!(refused.reason(), game_error.to_string());
}

/// Every online game ends at the ply cap, decided as the game's rules say
/// (a draw in Mill, here without the n-move and repetition rules that
/// would end it sooner); no move comes after it.
#[test]
fn the_ply_cap_ends_the_game() {
    let spec = Variant::Mill(MillRules {
        n_move_rule: 0,
        threefold_repetition: false,
        ..MillRules::default()
    });
    let t0 = Instant::now();
    let mut table =
        Table::resume(meta(spec, 60_000, true), Vec::new(), RULES, (t0, 0), None).unwrap();
    let mut seed = 7_u64;
    while table.meta.outcome.is_none() {
        let live = &table.live;
        let moves = live.legal_moves();
        // A move that neither ends the game nor closes a mill.
        let lasting: Vec<&String> = moves
            .iter()
            .filter(|m| {
                let mut next = live.clone();
                next.play_text(m).is_ok()
                    && next.outcome().is_none()
                    && next.to_move() != live.to_move()
            })
            .collect();
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let pick = (seed >> 33) as usize;
        let mv = if lasting.is_empty() {
            moves[pick % moves.len()].clone()
        } else {
            lasting[pick % lasting.len()].clone()
        };
        let side = table.live.to_move();
        let ply = table.moves.len() as u32;
        assert!(ply < MAX_PLIES, "the game ran past the cap");
        assert_eq!(
            table.apply(side, Action::Move { ply, mv }, t0),
            Ok(Event::Moved)
        );
    }
    assert_eq!(table.moves.len(), MAX_PLIES as usize, "ended at the cap");
    let outcome = table.meta.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::PlyLimit);
    assert_eq!(outcome.winner, None, "a draw in Mill");
    assert_eq!(table.status(), Status::Over);
    let side = table.live.to_move();
    let after = table.apply(
        side,
        Action::Move {
            ply: MAX_PLIES,
            mv: "a1".into(),
        },
        t0,
    );
    assert_eq!(after.map_err(|r| r.code()), Err(Refusal::GameOver));
}

/// Issue 33 (a): the side to move loses exactly at its deadline, not a
/// moment later (`<` in `due` fails this), and not a nanosecond before.
#[test]
fn the_clock_runs_out_exactly_at_the_deadline() {
    let t0 = Instant::now();
    let mut table = started(1000, t0);
    assert_eq!(table.status(), Status::Playing);
    assert_eq!(table.remaining(at(t0, 400)), 600);
    let just_before = at(t0, 1000) - Duration::from_nanos(1);
    assert_eq!(table.due(just_before), None);
    assert_eq!(table.status(), Status::Playing);
    assert_eq!(table.due(at(t0, 1000)), Some(Event::Timeout));
    assert_eq!(table.status(), Status::Over);
    let outcome = table.meta.outcome.unwrap();
    assert_eq!(outcome.reason, EndReason::Timeout);
    assert_eq!(outcome.winner, Some(Side::Second));
    assert_eq!(table.meta.remaining_ms, 0);
    assert_eq!(table.due(at(t0, 5000)), None, "one verdict");

    // A pause ends by itself exactly when its time is up, too; the
    // clock then starts from the time left when it was paused.
    let mut table = started(1000, t0);
    assert_eq!(
        table.apply(Side::First, Action::Pause, at(t0, 300)),
        Ok(Event::Paused)
    );
    let ends = at(t0, 300 + 2000);
    assert_eq!(table.due(ends - Duration::from_nanos(1)), None);
    assert_eq!(table.status(), Status::Paused);
    assert_eq!(table.due(ends), Some(Event::AutoUnpaused));
    assert_eq!(table.status(), Status::Playing);
    assert_eq!(table.remaining(ends), 700);
    // The same to the nanosecond in a transcript.
    play(
        started(1000, t0),
        t0,
        "
        999999999ns  - due => none
        1000000000ns - due => timeout
        ",
    );
}

/// Issue 33 (b): the side that offered a draw can neither accept nor
/// decline its own offer; the game and the offer stay as they were.
#[test]
fn the_offerer_cannot_answer_its_own_draw_offer() {
    let t0 = Instant::now();
    let mut table = started(60_000, t0);
    assert_eq!(
        table.apply(Side::First, Action::OfferDraw, t0),
        Ok(Event::DrawOffered)
    );
    for accept in [true, false] {
        let refused = table
            .apply(Side::First, Action::AnswerDraw(accept), t0)
            .unwrap_err();
        assert_eq!(refused.code(), Refusal::NoDrawOffer, "accept: {accept}");
        assert_eq!(table.meta.draw_offer, Some(Side::First));
        assert_eq!(table.meta.outcome, None);
        assert_eq!(table.status(), Status::Playing);
        assert!(table.moves.is_empty());
    }
    assert_eq!(
        table.apply(Side::Second, Action::AnswerDraw(true), t0),
        Ok(Event::DrawAgreed)
    );
    assert_eq!(table.meta.outcome.unwrap().reason, EndReason::Agreement);
}

/// A clock saved running is charged, when loaded, the time its server
/// ran after the save; a clock already out is a verdict at once.
#[test]
fn a_loaded_clock_is_charged_the_time_its_server_ran() {
    let t0 = Instant::now();
    let wall = 10_000_000;
    let load = |m: RoomMeta, ran_until: Option<u64>| {
        Table::resume(m, Vec::new(), RULES, (t0, wall), ran_until).unwrap()
    };
    // Saved by this server 100 ms ago.
    let mut m = meta(ataxx(), 1000, true);
    m.clock_saved_ms = Some(wall - 100);
    assert_eq!(load(m, None).remaining(t0), 900);
    // Saved by a server that ran 300 ms more, then was down for an
    // hour: charged the 300 ms only.
    let mut m = meta(ataxx(), 1000, true);
    m.clock_saved_ms = Some(wall - 3_600_300);
    assert_eq!(load(m, Some(wall - 3_600_000)).remaining(t0), 700);
    // That server ran past the deadline: out of time when loaded.
    let mut m = meta(ataxx(), 1000, true);
    m.clock_saved_ms = Some(wall - 5000);
    let mut table = load(m, Some(wall - 3000));
    assert_eq!(table.remaining(t0), 0);
    assert_eq!(table.due(t0), Some(Event::Timeout));
    // A paused game: its pause timer likewise.
    let mut m = meta(ataxx(), 1000, true);
    m.paused_by = Some(Side::First);
    m.pause_left_ms = 2000;
    m.clock_saved_ms = Some(wall - 5000);
    let mut table = load(m, Some(wall - 4500));
    assert_eq!(table.due(at(t0, 1499)), None);
    assert_eq!(table.due(at(t0, 1500)), Some(Event::AutoUnpaused));
    assert_eq!(
        table.remaining(at(t0, 1500)),
        1000,
        "the move clock was stopped"
    );
}
