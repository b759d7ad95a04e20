//! The words of the online screens that depend on the protocol's values:
//! refusals, server errors, presence changes and the events
//! a state reports, each mapped to a key of the language tables (the
//! `online.*` section of `src/i18n/en.txt`), plus the few texts built from
//! several values. The views look up their fixed texts with `t!` directly.

use crate::i18n::{text, Lang};
use crate::protocol::online::{ErrorCode, Event, Refusal};
use crate::{key, t, tn};

/// A per-move clock choice: "1 min per move", "30 s per move".
pub fn clock_choice(lang: Lang, secs: u32) -> String {
    if secs > 0 && secs.is_multiple_of(60) {
        tn!(lang, "online.clock_minutes", secs / 60)
    } else {
        tn!(lang, "online.clock_seconds", secs)
    }
}

/// The title of an unfinished online game kept on this device.
pub fn resume_title(lang: Lang, game: &str, side: Option<&str>, plies: usize) -> String {
    match side {
        Some(side) => tn!(
            lang,
            "online.resume_title_side",
            plies,
            game = game,
            side = side
        ),
        None => tn!(lang, "online.resume_title", plies, game = game),
    }
}

/// The game waiting for a friend: game, clock, your side and turn order.
pub fn game_details(lang: Lang, game: &str, clock_secs: u32, side: &str, first: bool) -> String {
    let clock = clock_choice(lang, clock_secs);
    if first {
        t!(
            lang,
            "online.game_details_first",
            game = game,
            clock = clock,
            side = side
        )
    } else {
        t!(
            lang,
            "online.game_details_second",
            game = game,
            clock = clock,
            side = side
        )
    }
}

/// Why the server would not let this page in (or make the game).
pub fn refusal_to_enter(lang: Lang, code: Refusal, reason: &str) -> String {
    let key = match code {
        Refusal::NoSuchRoom => key!("online.refusal.no_such_room"),
        Refusal::BadToken => key!("online.refusal.bad_token"),
        Refusal::BadKey => key!("online.refusal.bad_key"),
        Refusal::RoomFull => key!("online.refusal.room_full"),
        Refusal::BadGame => return t!(lang, "online.refusal.bad_game", reason = reason),
        Refusal::Full => key!("online.refusal.full"),
        _ => return refusal(lang, code, reason),
    };
    text(lang, key).to_string()
}

/// A refused action in words.
pub fn refusal(lang: Lang, code: Refusal, reason: &str) -> String {
    let key = match code {
        Refusal::NotYourTurn => key!("online.refusal.not_your_turn"),
        Refusal::StalePly => key!("online.refusal.stale_ply"),
        Refusal::IllegalMove => return t!(lang, "online.refusal.illegal_move", reason = reason),
        Refusal::Paused => key!("online.refusal.paused"),
        Refusal::NotPaused => key!("online.refusal.not_paused"),
        Refusal::NoPausesLeft => key!("online.refusal.no_pauses_left"),
        Refusal::NotYourPause => key!("online.refusal.not_your_pause"),
        Refusal::NoDrawOffer => key!("online.refusal.no_draw_offer"),
        Refusal::DrawAlreadyOffered => key!("online.refusal.draw_already_offered"),
        Refusal::GameOver => key!("online.refusal.game_over"),
        Refusal::NotOver => key!("online.refusal.not_over"),
        Refusal::AlreadyAsked => key!("online.refusal.already_asked"),
        Refusal::NotStarted => key!("online.refusal.not_started"),
        Refusal::Spectator => key!("online.refusal.spectator"),
        Refusal::NotInRoom => key!("online.refusal.not_in_room"),
        Refusal::BadIdentity => key!("online.refusal.bad_identity"),
        Refusal::NoIdentity => key!("online.refusal.no_identity"),
        Refusal::NameTooShort => key!("online.refusal.name_too_short"),
        Refusal::NameTooLong => key!("online.refusal.name_too_long"),
        Refusal::NameCharacter => key!("online.refusal.name_character"),
        Refusal::NameSeparators => key!("online.refusal.name_separators"),
        Refusal::NameMarks => key!("online.refusal.name_marks"),
        Refusal::NameMixedScripts => key!("online.refusal.name_mixed_scripts"),
        Refusal::NameReserved => key!("online.refusal.name_reserved"),
        Refusal::NameTaken => key!("online.refusal.name_taken"),
        Refusal::RenameTooSoon => key!("online.refusal.rename_too_soon"),
        Refusal::NoSuchPlayer => key!("online.refusal.no_such_player"),
        Refusal::BadPage => key!("online.refusal.bad_page"),
        Refusal::NoSuchGame => key!("online.refusal.no_such_game"),
        Refusal::NoSuchChallenge => key!("online.refusal.no_such_challenge"),
        Refusal::OwnChallenge => key!("online.refusal.own_challenge"),
        Refusal::TooMany => key!("online.refusal.too_many"),
        _ => return t!(lang, "online.refusal.other", reason = reason),
    };
    text(lang, key).to_string()
}

/// A server error in words.
pub fn error(lang: Lang, code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::RateLimited => t!(lang, "online.error.rate_limited").to_string(),
        ErrorCode::Server => t!(lang, "online.error.server").to_string(),
        _ => t!(lang, "online.error.other", message = message),
    }
}

/// A seated player left or came back; `as_player` when this page has a
/// seat (the other one is then "your opponent").
pub fn presence(lang: Lang, side: &str, as_player: bool, connected: bool) -> String {
    match (as_player, connected) {
        (true, false) => t!(lang, "online.opponent_disconnected").to_string(),
        (true, true) => t!(lang, "online.opponent_reconnected").to_string(),
        (false, false) => t!(lang, "online.side_disconnected", side = side),
        (false, true) => t!(lang, "online.side_reconnected", side = side),
    }
}

/// A line for what the last state reports, when it is not a move (a draw
/// offer has its own banner); `player` says whether this page has a seat.
pub fn event(lang: Lang, event: Event, player: bool) -> Option<&'static str> {
    let key = match event {
        Event::Started => key!("online.event.started"),
        Event::Unpaused => key!("online.event.unpaused"),
        Event::AutoUnpaused => key!("online.event.auto_unpaused"),
        Event::Timeout => key!("online.event.timeout"),
        Event::DrawDeclined if player => key!("online.event.draw_declined_yours"),
        Event::DrawDeclined => key!("online.event.draw_declined"),
        Event::DrawAgreed => key!("online.event.draw_agreed"),
        Event::Rematch => key!("online.event.rematch"),
        _ => return None,
    };
    Some(text(lang, key))
}

/// A wait in words, rounded up: "23 h 5 min", "4 min", "30 s".
pub fn wait(lang: Lang, secs: u64) -> String {
    let (h, m) = (secs / 3600, secs.div_ceil(60) % 60);
    if h > 0 {
        t!(lang, "online.wait_hours", h = h, m = m)
    } else if secs >= 60 {
        t!(lang, "online.wait_minutes", m = secs.div_ceil(60))
    } else {
        t!(lang, "online.wait_seconds", s = secs)
    }
}

/// A player as lists and chips show them: "Ana 1500?" (no rating: the name).
pub fn player(tag: &crate::protocol::online::PlayerTag) -> String {
    match crate::client::online::identity::rating_text(tag) {
        Some(r) => format!("{} {r}", tag.name),
        None => tag.name.clone(),
    }
}
