//! An online game on screen, the same for every game: the board (your side
//! at the bottom), the server's clock, whose turn, the move list, pause,
//! draw offers, resign, the result and rematch, who is connected.
//!
//! Everything is derived from the session's last server state; the board
//! only sends moves (with the state's ply) through the [`Driver`]. The
//! server decides timeouts, forced passes and the result. This component is
//! the generic part (the record, the board, the game's words); what does
//! not depend on the game is [`Room`] and [`OnlinePanel`], and the shared
//! pieces of `ui/screen`.

use leptos::prelude::*;

use super::panel::OnlinePanel;
use super::socket::Driver;
use super::view::{Room, FLASH_MS};
use crate::client::moves::{move_rows, numbered};
use crate::client::online::session::Finished;
use crate::games::any::{restore, RestoreError};
use crate::games::{GameError, Illegal, Outcome, Record, Side};
use crate::protocol::online::{ClientMsg, Status};
use crate::t;
use crate::ui::address::server_param;
use crate::ui::board::BoardProps;
use crate::ui::clock::ClockFace;
use crate::ui::game::Resume;
use crate::ui::games::game_title;
use crate::ui::games::{describe_outcome, UiGame};
use crate::ui::link::query_for;
use crate::ui::page::{Nav, Page, Setup};
use crate::ui::screen::chips::ScoreChip;
use crate::ui::screen::moves::lookback_line;
use crate::ui::screen::result::{OnlinePaused, OnlineResult};
use crate::ui::screen::status::TurnLine;
use crate::ui::sound::{self, Sound};
use crate::ui::store::Settings;
use crate::ui::store::{self, OnlineOrigin, SavedGame};
use crate::ui::words::{illegal, position_why, Problem};

/// The game of `state` (plus a move in flight, if it replays) as a record,
/// with an ending decided outside the board (time, resignation, agreement,
/// the ply cap).
pub fn record_of<G: UiGame>(
    rules: &G::Rules,
    start: &str,
    moves: &[String],
    outcome: Option<Outcome>,
) -> Result<Record<G>, Problem> {
    let mut record = restore::<G, _>(rules, start, moves).map_err(|e| match e {
        RestoreError::Start(e) => Problem::BadPosition(start.to_string(), position_why(e.clone())),
        RestoreError::Moves(e) => e.into(),
    })?;
    if let Some(o) = outcome {
        if record.outcome().is_none() {
            match (o.winner, o.reason) {
                (_, crate::games::EndReason::PlyLimit) => record.ply_limit(),
                (None, _) => record.agree_draw(),
                (Some(w), crate::games::EndReason::Resignation) => record.resign(w.opponent()),
                _ => record.timeout(),
            }
        }
    }
    Ok(record)
}

/// One online game of `G` under `rules`.
pub fn online_game<G: UiGame>(driver: Driver, rules: &G::Rules) -> AnyView {
    view! { <OnlineGame<G> driver=driver start=G::start(rules)/> }.into_any()
}

/// The saved game (for Recent games and the review) of a finished online
/// game of `G`, played on `server` (the WebSocket address); `None` when
/// the server's moves do not replay.
fn saved_of<G: UiGame>(rules: &G::Rules, f: &Finished, server: &str) -> Option<SavedGame> {
    let record = record_of::<G>(rules, &f.start, &f.moves, Some(f.outcome)).ok()?;
    Some(SavedGame {
        id: f.saved_id(),
        query: query_for(&record),
        kind: G::KIND,
        clock_left_ms: None,
        plies: record.moves().len(),
        outcome: Some(f.outcome),
        updated: store::now_epoch_ms(),
        online: Some(OnlineOrigin {
            room: f.room.clone(),
            server: server_param(server),
            you: f.you,
            names: f.names.clone(),
        }),
    })
}

/// Opens a finished online game in review (issue 37: a game from a
/// player's page, sent by the server's `archive`): kept in Recent games
/// as watched (`you: None`), then shown like a finished local game.
/// `false` when the server's moves do not replay.
pub fn open_in_review(nav: Nav, f: &Finished, server: &str) -> bool {
    let Some(game) = crate::with_variant!(f.game, G, rules => saved_of::<G>(&rules, f, server))
    else {
        return false;
    };
    store::save_game(game.clone());
    nav.go(Page::Play(Setup {
        kind: game.kind,
        query: game.query,
        opponent: None,
        id: game.id,
        resume: Some(Resume {
            left_ms: None,
            outcome: game.outcome,
            online: game.online,
        }),
    }));
    true
}

/// One online game.
#[component]
pub fn OnlineGame<G: UiGame>(
    driver: Driver,
    /// The usual start under the room's rules (the rules come from it).
    start: G,
) -> impl IntoView {
    let settings = expect_context::<RwSignal<Settings>>();
    let room = Room::new(driver, G::side_name);
    let (lang, session, state, you, now) =
        (room.lang, driver.session, room.state, room.you, room.now);
    let rules = StoredValue::new(start.rules().clone());

    // The record on the board: the server's moves plus a move in flight.
    let built = Memo::new(move |_| {
        session.with(|s| {
            let st = s.state.as_ref()?;
            let make = |moves: &[String]| {
                rules.with_value(|r| record_of::<G>(r, &st.start, moves, st.outcome))
            };
            Some(make(&s.shown_moves()).or_else(|_| make(&st.moves)))
        })
    });
    let broken =
        Memo::new(move |_| built.with(|b| b.as_ref().and_then(|r| r.as_ref().err().cloned())));
    let record = Signal::derive(move || {
        built.with(|b| match b {
            Some(Ok(r)) => r.clone(),
            _ => Record::new(rules.with_value(|r| G::start(r))),
        })
    });

    // A sound for every move and the end, as in local games.
    Effect::new(move |prev: Option<(u32, usize, bool)>| {
        let now_key = state.with(|s| {
            s.as_ref().map_or((0, 0, false), |s| {
                (s.game_no, s.moves.len(), s.status == Status::Over)
            })
        });
        if let Some(prev) = prev {
            let sounds = settings.with_untracked(|s| s.sounds);
            if sounds && prev.0 == now_key.0 {
                if now_key.2 && !prev.2 {
                    sound::play(Sound::End);
                } else if now_key.1 > prev.1 {
                    let r = record.get_untracked();
                    let ply = r.moves().len();
                    if ply > 0 {
                        let before = r.position_at(ply - 1);
                        sound::play(G::sound_of(&before, r.moves()[ply - 1]));
                    }
                }
            }
        }
        now_key
    });

    // After the end: looking back at an earlier position (`None`: the
    // final one), as on a finished local game.
    let viewing = RwSignal::new(None::<usize>);
    let total = Signal::derive(move || record.with(|r| r.moves().len()));
    let shown = Signal::derive(move || match viewing.get() {
        Some(ply) => record.with(|r| r.truncated(ply)),
        None => record.get(),
    });
    let shown_ply = Signal::derive(move || viewing.get().unwrap_or_else(|| total.get()));
    let rows = Memo::new(move |_| record.with(move_rows));
    let cells = Memo::new(move |_| rows.with(|r| numbered(r)));
    let step = Callback::new(move |to: Option<usize>| {
        let last = total.get_untracked();
        viewing.set(to.filter(|&p| p < last && room.over()));
    });
    let lookback = Signal::derive(move || {
        let ply = viewing.get()?;
        let lang = lang.get();
        record.with(|r| rows.with(|rows| cells.with(|c| lookback_line(lang, r, rows, c, ply))))
    });
    Effect::new(move |_| {
        if !room.over() {
            viewing.set(None);
        }
    });

    // A finished game you played is kept in Recent games (once: a reload
    // finds it there); Review opens it on the local game's screen, whose
    // review (graph, better moves), Share and export it then has.
    let finished = Memo::new(move |_| session.with(|s| s.finished()));
    let server = driver.url.get_value();
    let saved = {
        let server = server.clone();
        move |f: &Finished| rules.with_value(|r| saved_of::<G>(r, f, &server))
    };
    let keep = saved.clone();
    Effect::new(move |_| {
        let Some(f) = finished.get().filter(|f| f.you.is_some()) else {
            return;
        };
        let id = f.saved_id();
        if !store::saved_games().iter().any(|g| g.id == id) {
            if let Some(game) = keep(&f) {
                store::save_game(game);
            }
        }
    });
    let nav = expect_context::<Nav>();
    let review = Callback::new(move |()| {
        let Some(f) = finished.get_untracked() else {
            return;
        };
        // Kept (again) as the server has it; a game you watched is kept
        // only now.
        let Some(game) = saved(&f) else { return };
        store::save_game(game.clone());
        nav.go(Page::Play(Setup {
            kind: G::KIND,
            query: game.query,
            opponent: None,
            id: game.id,
            resume: Some(Resume {
                left_ms: None,
                outcome: game.outcome,
                online: game.online,
            }),
        }));
    });

    // The board.
    let flipped = match you.get_untracked() {
        Some(side) => side == Side::Second,
        None => settings.with_untracked(|s| s.flip_board),
    };
    // A press on a piece that cannot move says why, for a few seconds.
    let stuck = RwSignal::new(None::<(u8, f64)>);
    // A press where the piece cannot go says why, as long, without asking
    // the server (which would refuse it with the same typed reason).
    let refused_here = RwSignal::new(None::<(Illegal, f64)>);
    let board = G::board(BoardProps {
        record: shown,
        enabled: Signal::derive(move || viewing.get().is_none() && session.with(|s| s.can_move())),
        hints: Signal::derive(move || settings.with(|s| s.hints)),
        on_move: Callback::new(move |mv: G::Move| {
            let mut after = record.with_untracked(|r| r.position().clone());
            match after.play(mv) {
                Err(GameError::IllegalMove(why)) => {
                    stuck.set(None);
                    refused_here.set(Some((why, now.get_untracked())));
                }
                _ => driver.play(mv.to_string()),
            }
        }),
        flipped,
        on_stuck: Callback::new(move |spot: u8| {
            refused_here.set(None);
            stuck.set(Some((spot, now.get_untracked())));
        }),
        // Online there is no hint to show.
        marked: Signal::stored(None),
        read_only: None,
    });

    // The game's words, in the language of the moment.
    let result_line = Signal::derive(move || {
        let o = state.with(|s| s.as_ref().and_then(|s| s.outcome))?;
        let lang = lang.get();
        Some(record.with(|r| describe_outcome(lang, r.position(), o)))
    });
    let status_line = move || {
        result_line
            .get()
            .or_else(|| room.status_word())
            .unwrap_or_else(|| {
                let lang = lang.get();
                record.with(|r| {
                    r.position().prompt(lang).unwrap_or_else(|| {
                        let side = G::side_name(lang, r.position().side_to_move());
                        t!(lang, "online.side_to_move", side = side)
                    })
                })
            })
    };
    let last_move_line = move || {
        let lang = lang.get();
        record.with(|r| {
            let ply = r.moves().len();
            (ply > 0).then(|| G::describe_move(lang, &r.position_at(ply - 1), r.moves()[ply - 1]))
        })
    };
    let stuck_line = move || {
        let (spot, at) = stuck.get()?;
        (now.get() - at < FLASH_MS)
            .then(|| record.with(|r| G::why_stuck(r.position(), lang.get(), spot).to_string()))
    };
    let refused_line = move || {
        let (why, at) = refused_here.get()?;
        (now.get() - at < FLASH_MS).then(|| illegal(lang.get(), &why))
    };
    let notice = move || {
        stuck_line()
            .or_else(refused_line)
            .or_else(move || room.flash_line())
            .or_else(move || room.event_line())
            .or_else(last_move_line)
            .unwrap_or_default()
    };

    let hide_result = RwSignal::new(false);
    // A new game (a rematch) shows its result card again when it ends.
    Effect::new(move |_| {
        if !room.over() {
            hide_result.set(false);
        }
    });
    let (bottom, top) = match you.get_untracked() {
        Some(y) => (y, y.opponent()),
        None => (Side::First, Side::Second),
    };
    let chip = move |side: Side| {
        view! {
            <ScoreChip side=side side_class=G::side_class(side) side_name=G::side_name
                bottom=Signal::stored(side == bottom)
                count=Signal::derive(move || shown.with(|r| r.position().score(side)))
                count_label=G::score_label to_move=|l| t!(l, "online.chip_to_move")
                turn=Signal::derive(move || room.turn_of(side))
                label=Signal::derive(move || room.seat(side))
                away=Signal::derive(move || !room.connected(side))/>
        }
    };
    let paused = Signal::derive(move || room.paused());
    let over = Signal::derive(move || room.over());

    view! {
        <section class=format!("game play-screen online-game game-{}", G::KIND.slug()) aria-label=move || game_title(lang.get(), G::KIND)>
            {chip(top)}
            <div class="board-wrap" class:paused=paused>
                {board}
                <OnlinePaused paused=paused title=Signal::derive(move || room.pause_title())
                    auto_resume=Signal::derive(move || room.auto_resume())
                    can_resume=Signal::derive(move || room.my_pause())
                    on_resume=Callback::new(move |()| driver.control(ClientMsg::Unpause))/>
                <OnlineResult open=Signal::derive(move || over.get() && !hide_result.get())
                    title=Signal::derive(move || room.personal_result()) line=result_line
                    player=Signal::derive(move || you.get().is_some())
                    rematch_word=Signal::derive(move || room.rematch_word())
                    rematch_disabled=Signal::derive(move || room.rematch_disabled())
                    on_rematch=Callback::new(move |()| driver.control(ClientMsg::Rematch))
                    note=Signal::derive(move || room.rematch_note())
                    on_close=Callback::new(move |()| hide_result.set(true)) on_review=review/>
            </div>
            {chip(bottom)}
            <TurnLine status=Signal::derive(status_line) turn=Signal::derive(move || room.turn_line())>
                <ClockFace text=Signal::derive(move || room.clock_text())
                    fraction=Signal::derive(move || room.clock_fraction())
                    low=Signal::derive(move || room.clock_low())
                    idle=Signal::derive(move || !room.clock_running()) over=over
                    label=Signal::derive(move || room.clock_label())/>
            </TurnLine>
            <OnlinePanel room=room notice=Signal::derive(notice) broken=broken
                rows=rows total=total result_closed=hide_result
                shown=shown_ply stops=Signal::derive(move || cells.with(|c| c.iter().map(|m| m.last_ply).collect::<Vec<_>>()))
                live=Signal::derive(move || viewing.get().is_none()) lookback=lookback on_step=step on_review=review/>
        </section>
    }
}
