//! Every English string of the online screens, in one place, named like
//! translation keys: constants for fixed text, functions for text with
//! values in it. The view code uses only these, so moving them into the
//! per-language tables is one file's work.

use crate::protocol::online::{ErrorCode, Event, Refusal};

// --- Links -----------------------------------------------------------------

pub fn link_bad_room(room: &str) -> String {
    format!("'{room}' is not a game code (codes are 16 letters and digits from an invite or watch link)")
}
pub fn link_bad_key(key: &str) -> String {
    format!("the invite key '{key}' is malformed: ask your friend for the link again")
}
pub fn link_bad_server(server: &str) -> String {
    format!("'{server}' is not an online server address (it must start with ws:// or wss://)")
}
pub const LINK_AMBIGUOUS: &str = "it asks both to play and to watch";

// --- Entry points (home, mode bar, settings) --------------------------------

pub const ONLINE_MODE_OPTION: &str = "Online (two devices)";
pub const ONLINE_HOME_TITLE: &str = "Play online";
pub const ONLINE_HOME_TEXT: &str =
    "Invite a friend on another device with a link, or get a quick match with the next player who is looking.";
pub const ONLINE_HOME_BUTTON: &str = "Play online";
pub const SETTINGS_ONLINE_SERVER: &str = "Online server";
pub const SETTINGS_ONLINE_SERVER_HELP: &str =
    "Leave empty to use the server this page comes from. For a copy of Stoneplay on a static host, enter the game server's address (wss://…).";
pub fn settings_online_server_default(url: &str) -> String {
    format!("default: {url}")
}
pub fn settings_online_server_bad(text: &str) -> String {
    format!("'{text}' is not a server address: it must start with ws:// or wss:// and name a host. The setting was not changed.")
}
pub const SETTINGS_ONLINE_SERVER_SAVED: &str = "Saved: new online games use this server.";

// --- Setup -----------------------------------------------------------------

pub const ONLINE_TITLE: &str = "Play online";
pub const ONLINE_INTRO: &str =
    "Play with someone on another device. Create a game and send your friend the invite link, or get a quick match.";
pub const ONLINE_GAME: &str = "Game";
pub const ONLINE_ATAXX_PASS_RULE: &str =
    "Online, Territory Duel uses the pass rule: a player without a move passes.";
pub const ONLINE_CLOCK: &str = "Clock ";
pub const ONLINE_CLOCK_LABEL: &str = "seconds per move";
pub fn online_clock_choice(secs: u32) -> String {
    if secs.is_multiple_of(60) {
        format!("{} min per move", secs / 60)
    } else {
        format!("{secs} s per move")
    }
}
pub const ONLINE_YOUR_SIDE: &str = "You play ";
pub const ONLINE_YOUR_SIDE_LABEL: &str = "your side";
pub fn online_side_first(name: &str) -> String {
    format!("{name} (first)")
}
pub fn online_side_second(name: &str) -> String {
    format!("{name} (second)")
}
pub const ONLINE_SIDE_RANDOM: &str = "random";
pub const ONLINE_CREATE_GAME: &str = "Create game";
pub const ONLINE_QUICK_MATCH: &str = "Quick match";
pub const ONLINE_QUICK_MATCH_HELP: &str =
    "Quick match pairs you with the next player asking for the same game, rules and clock; sides are drawn at random.";
pub fn online_server_line(url: &str) -> String {
    format!("Server: {url}")
}
pub const ONLINE_ACTIVE_GAMES: &str = "Your online games";
pub fn online_resume_title(game: &str, side: &str, plies: usize) -> String {
    if side.is_empty() {
        format!("{game} · {plies} moves")
    } else {
        format!("{game} · you play {side} · {plies} moves")
    }
}
pub const ONLINE_UNKNOWN_GAME: &str = "Online game";
pub const ONLINE_RESUME_GAME: &str = "Resume";
pub const ONLINE_FORGET: &str = "✕";
pub const ONLINE_FORGET_LABEL: &str = "forget this online game";

// --- Connecting, waiting ------------------------------------------------------

pub fn online_connecting(url: &str) -> String {
    format!("Connecting to the online server at {url}…")
}
pub fn online_unreachable(url: &str) -> String {
    format!("Can't reach the online server at {url}. Trying again…")
}
pub const ONLINE_RECONNECTING: &str =
    "Connection lost. Reconnecting… (the game goes on on the server; your clock keeps running)";
pub const ONLINE_TRY_NOW: &str = "Try now";
pub const ONLINE_CANCEL: &str = "Cancel";
pub const ONLINE_JOINING_QUEUE: &str = "Joining the queue…";
pub const ONLINE_LOOKING_FOR_OPPONENT: &str = "Looking for an opponent…";
pub fn online_match_details(game: &str, clock_secs: u32) -> String {
    format!("{game}, {}", online_clock_choice(clock_secs))
}
pub const ONLINE_WAITING_FOR_FRIEND: &str = "Waiting for your friend…";
pub fn online_game_details(game: &str, clock_secs: u32, side: &str, first: bool) -> String {
    let order = if first { "first" } else { "second" };
    format!(
        "{game}, {}. You play {side} and move {order}.",
        online_clock_choice(clock_secs)
    )
}
pub const ONLINE_INVITE_LABEL: &str = "Invite link for your friend";
pub const ONLINE_WATCH_LABEL: &str = "Link for spectators (watch only)";
pub const ONLINE_INVITE_HELP: &str =
    "The game starts as soon as your friend opens the invite link. Only the invite link can take the free seat. If you leave this page, the game stays in “Your online games” on the home screen.";
pub const ONLINE_COPY: &str = "Copy";
pub const ONLINE_COPIED: &str = "Copied.";
pub const ONLINE_COPY_FAILED: &str = "Select the link and copy it.";
pub const ONLINE_NO_SEAT_WATCHING: &str =
    "You have no seat in this game on this device, so you are watching it.";

// --- Problems ----------------------------------------------------------------

pub const ONLINE_PROBLEM_TITLE: &str = "This online game could not be opened";
pub const ONLINE_NEW_GAME: &str = "New online game";
pub const ONLINE_WATCH_INSTEAD: &str = "Watch this game";
pub fn online_version(message: &str) -> String {
    format!("The online server runs another version of Stoneplay: reload the page. ({message})")
}

/// Why the server would not let this page in (or make the game).
pub fn refusal_to_enter(code: Refusal, reason: &str) -> String {
    match code {
        Refusal::NoSuchRoom => "There is no game with this code on the server: the link may be mistyped, or the game is gone.".to_string(),
        Refusal::BadToken => "Your seat in this game is no longer valid on the server.".to_string(),
        Refusal::BadKey => "This invite link is not valid for the game: ask your friend for the link again.".to_string(),
        Refusal::RoomFull => "This game already has two players. You can watch it instead.".to_string(),
        Refusal::BadGame => format!("The server does not accept these game settings: {reason}."),
        Refusal::Full => "The server is full right now: try again in a moment.".to_string(),
        _ => refusal(code, reason),
    }
}

/// A refused action in words.
pub fn refusal(code: Refusal, reason: &str) -> String {
    match code {
        Refusal::NotYourTurn => "It is not your turn.".to_string(),
        Refusal::StalePly => {
            "The game moved on before your move arrived: here is the current position.".to_string()
        }
        Refusal::IllegalMove => format!("The server refused the move: {reason}."),
        Refusal::Paused => "The game is paused: no moves until it resumes.".to_string(),
        Refusal::NotPaused => "The game is not paused.".to_string(),
        Refusal::NoPausesLeft => "You have no pauses left in this game.".to_string(),
        Refusal::NotYourPause => {
            "Only the player who paused can resume; the game resumes by itself soon.".to_string()
        }
        Refusal::NoDrawOffer => "There is no draw offer to answer.".to_string(),
        Refusal::DrawAlreadyOffered => {
            "You have already offered a draw since your last move.".to_string()
        }
        Refusal::GameOver => "The game is over.".to_string(),
        Refusal::NotOver => "A rematch can be asked for after the game.".to_string(),
        Refusal::AlreadyAsked => "You have already asked for a rematch.".to_string(),
        Refusal::NotStarted => "Your friend has not joined yet.".to_string(),
        Refusal::Spectator => "Spectators can only watch.".to_string(),
        Refusal::NotInRoom => "You are not in this game any more: reload the page.".to_string(),
        _ => format!("The server refused: {reason}."),
    }
}

/// A server error in words.
pub fn error(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::RateLimited => "Too many actions at once: slow down a little.".to_string(),
        ErrorCode::Server => "The server had a problem: try again.".to_string(),
        _ => format!("The server could not understand the page: {message}."),
    }
}

// --- The game ---------------------------------------------------------------

pub fn online_you_play(side: &str) -> String {
    format!("Online · you play {side}")
}
pub const ONLINE_WATCHING: &str = "Watching";
pub fn online_spectators(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => "1 spectator".to_string(),
        n => format!("{n} spectators"),
    }
}
pub const ONLINE_CHIP_YOU: &str = "you";
pub fn online_chip_opponent(connected: bool) -> String {
    if connected {
        "opponent"
    } else {
        "opponent · away"
    }
    .to_string()
}
pub fn online_chip_player(present: bool) -> String {
    if present { "player" } else { "player · away" }.to_string()
}
pub const ONLINE_CHIP_TO_MOVE: &str = "to move";
pub const ONLINE_STATUS_WAITING_FOR_PLAYER: &str = "Waiting for the second player";
pub const ONLINE_STATUS_PAUSED: &str = "Paused";
pub fn online_side_to_move(side: &str) -> String {
    format!("{side} to move")
}
pub const ONLINE_TURN_YOURS: &str = "Your turn";
pub const ONLINE_TURN_THEIRS: &str = "Your opponent's turn";
pub const ONLINE_TURN_SENDING: &str = "Sending your move…";
pub fn online_clock_label(left: &str, side: &str) -> String {
    format!("time left for {side}'s move: {left}")
}
pub const ONLINE_OPPONENT_AWAY: &str =
    "Your opponent is disconnected. Their clock keeps running; they can come back.";
pub fn presence(side: &str, as_player: bool, connected: bool) -> String {
    match (as_player, connected) {
        (true, false) => "Your opponent disconnected.".to_string(),
        (true, true) => "Your opponent reconnected.".to_string(),
        (false, false) => format!("{side} disconnected."),
        (false, true) => format!("{side} reconnected."),
    }
}
pub const ONLINE_PAUSED_BY_YOU: &str = "You paused the game";
pub const ONLINE_PAUSED_BY_OPPONENT: &str = "Your opponent paused the game";
pub fn online_paused_by(side: &str) -> String {
    format!("{side} paused the game")
}
pub fn online_auto_resume_in(left: &str) -> String {
    format!("It resumes by itself in {left}.")
}
pub const ONLINE_RESUME: &str = "Resume";
pub fn online_pause(left: u8) -> String {
    format!("Pause ({left} left)")
}
pub fn online_pauses_left(you: u8, opponent: u8) -> String {
    format!("Pauses left: you {you}, your opponent {opponent}.")
}
pub const ONLINE_OFFER_DRAW: &str = "Offer a draw";
pub const ONLINE_DRAW_OFFER_SENT: &str = "Draw offered";
pub const ONLINE_DRAW_OFFERED_TO_YOU: &str = "Your opponent offers a draw.";
pub fn online_draw_offered_by(side: &str) -> String {
    format!("{side} offers a draw.")
}
pub const ONLINE_DRAW_OFFER_WAITING: &str = "You offered a draw: waiting for the answer.";
pub const ONLINE_ACCEPT_DRAW: &str = "Accept draw";
pub const ONLINE_DECLINE_DRAW: &str = "Decline";
pub const ONLINE_RESIGN: &str = "Resign";
pub const ONLINE_RESIGN_CONFIRM: &str = "Resign this game?";
pub const ONLINE_RESIGN_YES: &str = "Yes, resign";
pub const ONLINE_RESIGN_NO: &str = "Keep playing";
pub const ONLINE_RESULT_YOU_WON: &str = "You won!";
pub const ONLINE_RESULT_YOU_LOST: &str = "You lost.";
pub const ONLINE_RESULT_DRAW: &str = "Draw.";
pub fn online_result_winner(side: &str) -> String {
    format!("{side} won.")
}
pub const ONLINE_REMATCH: &str = "Rematch";
pub const ONLINE_ACCEPT_REMATCH: &str = "Accept rematch";
pub const ONLINE_REMATCH_WAITING: &str = "Rematch asked: waiting for your opponent.";
pub const ONLINE_REMATCH_OFFERED: &str = "Your opponent wants a rematch (sides swap).";
pub const ONLINE_LOOK_AT_BOARD: &str = "Look at the board";
pub const ONLINE_MOVES_LABEL: &str = "moves";
pub const ONLINE_NO_MOVE: &str = "…";
pub fn online_broken_state(e: &str) -> String {
    format!("The server's game could not be shown on this page ({e}): reload the page.")
}

/// A line for what the last state reports, when it is not a move; `mine`
/// says whether this player caused it (where that can be told), `player`
/// whether this page has a seat.
pub fn online_event(event: Event, mine: bool, player: bool) -> Option<String> {
    let line = match event {
        Event::Started => "The game has started.",
        Event::Unpaused => "The game goes on.",
        Event::AutoUnpaused => "The pause ran out: the game goes on.",
        Event::Timeout => "Time ran out.",
        Event::DrawDeclined if player => "The draw offer was declined.",
        Event::DrawDeclined => "A draw offer was declined.",
        Event::DrawOffered if player && mine => ONLINE_DRAW_OFFER_WAITING,
        Event::DrawOffered if player => ONLINE_DRAW_OFFERED_TO_YOU,
        Event::DrawAgreed => "The players agreed to a draw.",
        Event::Rematch => "Rematch: a new game with sides swapped.",
        _ => return None,
    };
    Some(line.to_string())
}
