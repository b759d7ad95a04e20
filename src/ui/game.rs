//! A game screen, the same for every game: board, score chips, whose turn,
//! what to do, the move clock, pause, new game, the move list and the result.
//!
//! What happens (moves, undo/redo, the clock rules, forced moves, timeouts,
//! resume) is decided by [`LocalGame`], held in one signal; [`play`] passes
//! it the time and talks to the computer, and this component draws it with
//! the shared, non-generic pieces of `ui/screen`.

mod play;

use leptos::prelude::*;

use super::ai::Ai;
use super::board::BoardProps;
use super::clock::{now_ms, ticker, ClockView};
use super::games::game_title;
use super::games::{describe_outcome, UiGame};
use super::review::ReviewArgs;
use super::screen::chips::ScoreChip;
use super::screen::controls::{GameText, LocalControls};
use super::screen::moves::{lookback_line, LookBack, MoveList, MoveNav};
use super::screen::result::{LocalPaused, LocalResult};
use super::screen::status::{ThinkingLine, TurnLine};
use super::share;
use super::store::OnlineOrigin;
use super::store::Settings;
use super::words::use_lang;
use super::{notation, words::Text};
use crate::ai::Level;
use crate::client::local::LocalGame;
pub use crate::client::local::SavePoint;
use crate::client::moves::{move_rows, numbered};
use crate::games::{Outcome, Record, Side};
use crate::t;
use play::Play;

use super::screen::controls::DEFAULT_CLOCK_SECS;

/// A saved game coming back: the time that was left and how it ended, if
/// it did (a timeout or a resignation is not in the link).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resume {
    pub left_ms: Option<f64>,
    pub outcome: Option<Outcome>,
    /// A game played online (issue 37): your side is drawn at the bottom,
    /// as it was there, and the chips name the players.
    pub online: Option<OnlineOrigin>,
}

/// Whether a dialog or panel is over the board (settings, new game): a
/// local game's clock stops meanwhile. Provided by the app.
#[derive(Clone, Copy)]
pub struct BoardCover(pub Signal<bool>);

/// The computer's seat in a single-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The side the computer plays.
    pub side: Side,
    pub level: Level,
}

/// The side drawn at the bottom of the board: the first player's, your
/// side against the computer, turned round by the setting.
pub fn bottom_side(opponent: Option<Opponent>, turned: bool) -> Side {
    let own = opponent.map_or(Side::First, |o| o.side.opponent());
    if turned {
        own.opponent()
    } else {
        own
    }
}

/// A complete game: two people on one device, or one against the computer.
#[component]
pub fn GameScreen<G: UiGame>(
    /// The game to start from (a new game, a shared link, or a test position).
    initial: Record<G>,
    /// Seconds per move (0 = no clock).
    #[prop(default = DEFAULT_CLOCK_SECS)]
    clock_secs: u32,
    /// Resuming a saved game: it comes back paused with the time that was
    /// left, or finished as it ended.
    #[prop(default = None)]
    resume: Option<Resume>,
    /// Called after every change of the game, on pause and when the page is
    /// hidden (the app keeps the link and the saved game in step).
    #[prop(optional)]
    on_change: Option<Callback<SavePoint<G>>>,
    /// Called once when the game ends.
    #[prop(optional)]
    on_finish: Option<Callback<Outcome>>,
    /// The computer's side and level; `None` for two players on one device.
    #[prop(default = None)]
    opponent: Option<Opponent>,
    /// Opens the "New game" dialog (the app's); without it, New game and
    /// Rematch start the same game again at once.
    #[prop(optional)]
    on_new_game: Option<Callback<()>>,
    /// Draws the review panel of a game against the computer once it is
    /// over (the app's draws it from its own chunk, fetched then).
    review: Callback<ReviewArgs<G>, AnyView>,
) -> impl IntoView {
    let settings = use_context::<RwSignal<Settings>>();
    let setting =
        move |f: fn(&Settings) -> bool, default: bool| settings.map_or(default, |s| s.with(f));
    let ai = use_context::<Ai>();
    let lang = use_lang();
    let opponent = opponent.filter(|_| ai.is_some());
    let computer = opponent.map(|o| o.side);
    let online = resume.as_ref().and_then(|r| r.online.clone());
    let game = match resume {
        Some(r) => LocalGame::resumed(initial, clock_secs, computer, r.left_ms, r.outcome),
        None => LocalGame::new(initial, clock_secs, computer, now_ms()),
    };
    let welcome_back = game.is_paused();
    let play = Play::new(
        game,
        ai,
        Signal::derive(move || setting(|s| s.sounds, false)),
    );
    if welcome_back {
        play.say(|l| t!(l, "notice.welcome_back"));
    }
    let Play {
        game,
        record,
        notice,
        ..
    } = play;
    let over = Memo::new(move |_| game.with(|g| g.outcome()));
    let paused = Memo::new(move |_| game.with(|g| g.is_paused()));
    let clock = Memo::new(move |_| game.with(|g| *g.clock()));
    let now = ticker(Signal::derive(move || clock.with(|c| c.is_running())));
    // The board shows the live game, or an earlier position from the move list.
    let viewing = Memo::new(move |_| game.with(|g| g.viewing()));
    let shown = Signal::derive(move || match viewing.get() {
        Some(_) => game.with(|g| g.shown()),
        None => record.get(),
    });
    let live = Signal::derive(move || viewing.get().is_none());
    let shown_ply = Signal::derive(move || game.with(|g| g.shown_ply()));
    // The move list's rows: every move number on this screen comes from them.
    let rows = Memo::new(move |_| record.with(move_rows));
    let cells = Memo::new(move |_| rows.with(|r| numbered(r)));
    let step = Callback::new(move |to: Option<usize>| game.update(|g| g.view(to)));
    // Looking back: which numbered move the board shows, as the list names it.
    let lookback = Signal::derive(move || {
        let ply = viewing.get()?;
        let lang = lang.get();
        record.with(|r| rows.with(|rows| cells.with(|c| lookback_line(lang, r, rows, c, ply))))
    });
    let is_over = Signal::derive(move || over.get().is_some());
    let clock_active = Signal::derive(move || !paused.get() && !is_over.get());
    // The review's better move and the ply of the position it is for.
    let review_mark = RwSignal::new(None::<(usize, G::Move)>);
    // The game-over card can be closed to see the final position.
    let card_closed = RwSignal::new(false);

    play.report(paused, on_change, on_finish);
    play.drive(opponent, clock, now);
    // A new position clears the hint and the review's move.
    Effect::new(move |_| {
        record.track();
        play.hint.set(None);
        review_mark.set(None);
    });
    Effect::new(move |_| {
        if !is_over.get() {
            card_closed.set(false);
        }
    });

    // Your side at the bottom against the computer; the setting turns it round.
    let online_side = online.as_ref().and_then(|o| o.you);
    let played_online = online.is_some();
    let names = online.map(|o| o.names).unwrap_or_default();
    let bottom = Memo::new(move |_| {
        let turned = setting(|s| s.flip_board, false);
        match online_side {
            Some(you) if turned => you.opponent(),
            Some(you) => you,
            None => bottom_side(opponent, turned),
        }
    });
    let chip = move |side: Side| {
        let name = names[side.index()].clone();
        let label = move || {
            let lang = lang.get();
            let seat = match (opponent, &name) {
                (Some(o), _) if o.side == side => format!("{} · ", t!(lang, "chip.computer")),
                (Some(_), _) => format!("{} · ", t!(lang, "chip.you")),
                // A game played online: who played it.
                (None, Some(name)) => format!("{name} · "),
                (None, None) => String::new(),
            };
            let detail = shown.with(|r| r.position().chip_detail(lang, side));
            seat + &detail.unwrap_or_else(|| G::score_label(lang).to_string())
        };
        view! {
            <ScoreChip side=side side_class=G::side_class(side) side_name=G::side_name
                bottom=Signal::derive(move || bottom.get() == side)
                count=Signal::derive(move || shown.with(|r| r.position().score(side)))
                count_label=G::score_label to_move=|l| t!(l, "chip.to_move")
                turn=Signal::derive(move || {
                    // Looking back: whose turn it was in the position shown.
                    let active = if live.get() { clock_active.get() } else { true };
                    active && shown.with(|r| r.position().side_to_move()) == side
                })
                label=Signal::derive(label)/>
        }
    };
    // The status of the position shown: looking back, the earlier
    // position's (whose turn it was), not the live game's pause or result.
    let status = Signal::derive(move || {
        let lang = lang.get();
        let live = live.get();
        shown.with(|r| match if live { over.get() } else { r.outcome() } {
            Some(o) => describe_outcome(lang, r.position(), o),
            None if live && paused.get() => t!(lang, "status.paused").to_string(),
            None => r.position().prompt(lang).unwrap_or_else(|| {
                t!(
                    lang,
                    "status.to_move",
                    side = G::side_name(lang, r.position().side_to_move())
                )
            }),
        })
    });
    // A press on a piece that cannot move says why on the notice line.
    let on_stuck = Callback::new(move |spot: u8| {
        let pos = shown.with_untracked(|r| r.position().clone());
        notice.set(Some(Text::new(move |l| pos.why_stuck(l, spot).to_string())));
    });
    // The hint is drawn on the live position, the review's better move on
    // the position it was found for.
    let marked = Signal::derive(move || {
        let mv = match viewing.get() {
            None => play.hint.get(),
            Some(ply) => review_mark
                .get()
                .filter(|&(at, _)| at == ply)
                .map(|(_, mv)| mv),
        };
        mv.map(G::mark)
    });
    let board = move || {
        G::board(BoardProps {
            record: shown,
            enabled: Signal::derive(move || game.with(|g| g.board_enabled())),
            hints: Signal::derive(move || setting(|s| s.hints, true)),
            on_move: Callback::new(move |mv| play.play(mv)),
            flipped: bottom.get() == Side::Second,
            on_stuck,
            marked,
            read_only: None,
        })
    };
    let restart = Callback::new(move |()| play.restart());

    view! {
        <section class=format!("game play-screen local-game game-{}", G::KIND.slug()) aria-label=move || game_title(lang.get(), G::KIND)>
            {chip(Side::First)}
            <div class="board-wrap" class:paused=move || paused.get() class:viewing=move || !live.get()>
                {board}
                <LocalPaused paused=paused on_resume=Callback::new(move |()| play.toggle_pause())/>
                <LocalResult open=Signal::derive(move || is_over.get() && live.get() && !card_closed.get())
                    text=status on_close=Callback::new(move |()| card_closed.set(true)) on_rematch=restart/>
            </div>
            {chip(Side::Second)}
            <TurnLine status=status>
                <ClockView clock=clock now=now active=clock_active over=is_over/>
            </TurnLine>
            <aside class="panel">
                <ThinkingLine thinking=play.thinking line=play.engine_line
                    side=Signal::derive(move || G::side_name(lang.get(), record.with(|r| r.position().side_to_move())).to_string())/>
                <LocalControls on_new_game=on_new_game.unwrap_or(restart) paused=paused over=is_over
                    on_pause=Callback::new(move |()| play.toggle_pause())
                    can_undo=Signal::derive(move || game.with(|g| g.can_undo()))
                    can_redo=Signal::derive(move || game.with(|g| g.can_redo()))
                    on_step=Callback::new(move |undo| play.step_game(undo))
                    on_share=Callback::new(move |()| share::copy_location(notice))
                    on_hint=ai.map(|_| Callback::new(move |()| play.ask_hint()))
                    hint_enabled=Signal::derive(move || game.with(|g| g.board_enabled()))
                    result_closed=card_closed
                    on_show_result=Callback::new(move |()| { step.run(None); card_closed.set(false) })
                    clock_secs=Signal::derive(move || game.with(|g| g.clock_secs()))
                    on_clock=Callback::new(move |secs| play.set_clock(secs))
                    clock_choice=!played_online/>
                <p class="notice" aria-live="polite" data-testid="notice">{move || notice.get().map(|n| n.get(lang.get()))}</p>
                // Above the list and its arrows, where looking back starts.
                <LookBack line=lookback on_live=Callback::new(move |()| step.run(None))/>
                <MoveNav shown=shown_ply stops=Signal::derive(move || cells.with(|c| c.iter().map(|m| m.last_ply).collect::<Vec<_>>()))
                    live=live on_step=step/>
                <MoveList rows=rows current=shown_ply
                    aria=|l| t!(l, "movelist.aria") on_step=Callback::new(move |p| step.run(Some(p)))/>
                {move || (is_over.get() && ai.is_some()).then(|| review.run(ReviewArgs {
                    record: record.into(),
                    viewing: viewing.into(),
                    on_view: step,
                    on_mark: Callback::new(move |m| review_mark.set(m)),
                }))}
                <GameText text=Signal::derive(move || record.with(notation::export))
                    on_import=Callback::new(move |text| play.import(text))/>
            </aside>
        </section>
    }
}
