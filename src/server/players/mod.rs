//! Players without accounts, their ratings and their finished games (issue
//! 37): the parts the store and the rooms share, with no I/O of their own.
//!
//! - [`identity`]: a device's secret (the server keeps its hash) and the
//!   public id;
//! - [`name`]: which display names are allowed and which look alike;
//! - [`glicko`]: Glicko-2, one game a rating period;
//! - [`pairing`]: which rated players quick match pairs, by rating and
//!   time waited;
//! - [`schema`]: the tables, for SQLite and PostgreSQL alike;
//! - [`sqlite`]: the operations on SQLite, each inside the caller's
//!   transaction, so a game's result and its ratings commit together;
//!   `pg` (feature `cluster`): the same on PostgreSQL.
//!
//! Which games are rated ([`unrated_because`]): a rated game of Territory
//! Duel, Stones! or Mill with the standard rules (Nine Men's Morris)
//! between two named players who are not the same identity, in which each
//! side has moved at least once. Anything else is stored as a finished
//! game with its result and changes no rating. The result is always the
//! room's own record (the server's rules and clock): no client message
//! carries a result, so none can forge one.

pub mod glicko;
pub mod identity;
pub mod name;
pub mod pairing;
#[cfg(feature = "cluster")]
pub mod pg;
pub mod schema;
pub mod sqlite;

use crate::games::any::Variant;
use crate::games::mill::MillRules;
use crate::games::{GameKind, Outcome, Side};
use crate::protocol::online::Refusal;
use glicko::{Rating, Score};

/// Names may change once in this long (a day).
pub const RENAME_EVERY_MS: u64 = 24 * 3600 * 1000;
/// The leaderboard lists players with a rated game in this long (30 days)…
pub const ACTIVE_MS: u64 = 30 * 24 * 3600 * 1000;
/// …at most this many per game.
pub const LEADERBOARD_ROWS: usize = 50;
/// The highest page number asked for that is looked up at all (a larger
/// one is refused before any query).
pub const MAX_PAGE: u32 = 10_000;
/// Rating history points sent for one player and game at most (the
/// latest ones): a chart of a few hundred games stays small.
pub const HISTORY_POINTS: u32 = 200;

/// Why a player operation was refused or failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The name is not allowed.
    Name(name::NameError),
    /// Another player has this name or one that looks like it.
    NameTaken,
    /// The name changed too recently: this long until it may.
    TooSoon {
        wait_ms: u64,
    },
    NoSuchPlayer,
    /// No finished game has this room and number.
    NoSuchGame,
    /// A page number past the last page (or past [`MAX_PAGE`]).
    BadPage,
    /// The database refused a write that breaks a key (a game recorded
    /// twice, a name taken at the same moment by another node).
    Conflict(String),
    /// The database failed.
    Db(String),
}

impl PlayerError {
    /// The refusal a client is sent (`None`: the server's own failure).
    pub fn refusal(&self) -> Option<(Refusal, String)> {
        let code = match self {
            PlayerError::Name(e) => match e {
                name::NameError::TooShort => Refusal::NameTooShort,
                name::NameError::TooLong => Refusal::NameTooLong,
                name::NameError::Character(_) => Refusal::NameCharacter,
                name::NameError::Separators => Refusal::NameSeparators,
                name::NameError::Marks => Refusal::NameMarks,
                name::NameError::MixedScripts => Refusal::NameMixedScripts,
                name::NameError::Reserved => Refusal::NameReserved,
            },
            PlayerError::NameTaken | PlayerError::Conflict(_) => Refusal::NameTaken,
            PlayerError::TooSoon { .. } => Refusal::RenameTooSoon,
            PlayerError::NoSuchPlayer => Refusal::NoSuchPlayer,
            PlayerError::NoSuchGame => Refusal::NoSuchGame,
            PlayerError::BadPage => Refusal::BadPage,
            PlayerError::Db(_) => return None,
        };
        Some((code, self.to_string()))
    }
}

impl std::fmt::Display for PlayerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerError::Name(e) => e.fmt(f),
            PlayerError::NameTaken => write!(f, "another player has this name or one like it"),
            PlayerError::TooSoon { wait_ms } => write!(
                f,
                "a name may change once a day: try again in {} minutes",
                wait_ms.div_ceil(60_000)
            ),
            PlayerError::NoSuchPlayer => write!(f, "no player has this id or name"),
            PlayerError::NoSuchGame => write!(f, "no finished game has this room and number"),
            PlayerError::BadPage => write!(f, "there is no such page"),
            PlayerError::Conflict(e) => write!(f, "already stored: {e}"),
            PlayerError::Db(e) => write!(f, "the database failed: {e}"),
        }
    }
}

/// The rating a game of this variant counts for, if any: each game's own,
/// and Mill's only with the standard rules.
pub fn rated_kind(spec: &Variant) -> Option<GameKind> {
    match spec {
        Variant::Ataxx(_) => Some(GameKind::Ataxx),
        Variant::Stones(_) => Some(GameKind::Stones),
        Variant::Mill(rules) => (*rules == MillRules::default()).then_some(GameKind::Mill),
    }
}

/// A finished online game, as the room hands it to the store.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub room: String,
    pub game_no: u32,
    pub spec: Variant,
    pub start: String,
    /// How many moves were played (forced passes count).
    pub plies: u32,
    /// The identity (public id) playing each side, `[First, Second]`;
    /// `None` for a player without one.
    pub players: [Option<String>; 2],
    pub outcome: Outcome,
    /// Whether the game was set up as rated (lobby, quick match or invite).
    pub rated: bool,
    /// Whether each side made at least one move of its own (a forced
    /// pass made by the server is not one).
    pub moved: [bool; 2],
    pub clock_ms: u64,
    pub finished_ms: u64,
}

/// Why a finished game changes no rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// Set up as casual.
    Casual,
    /// A game or rules without a rating (a Mill variant).
    Variant,
    /// A player had no identity.
    Anonymous,
    /// One identity on both sides.
    Themselves,
    /// Over before each side had moved (an abort).
    Aborted,
}

/// Whether `game` changes ratings: `None` when it does.
pub fn unrated_because(game: &FinishedGame) -> Option<Unrated> {
    if !game.rated {
        return Some(Unrated::Casual);
    }
    if rated_kind(&game.spec).is_none() {
        return Some(Unrated::Variant);
    }
    let [Some(a), Some(b)] = &game.players else {
        return Some(Unrated::Anonymous);
    };
    if a == b {
        return Some(Unrated::Themselves);
    }
    if game.moved != [true, true] {
        return Some(Unrated::Aborted);
    }
    None
}

/// The first side's score in `outcome`.
pub fn first_score(outcome: &Outcome) -> Score {
    match outcome.winner {
        Some(Side::First) => Score::Win,
        Some(Side::Second) => Score::Loss,
        None => Score::Draw,
    }
}

/// Both sides' ratings after the game, `[First, Second]`, from the
/// ratings before it (each already widened for idle time).
pub fn settle(before: [Rating; 2], outcome: &Outcome) -> [Rating; 2] {
    let (a, b) = glicko::game(before[0], before[1], first_score(outcome));
    [a, b]
}

/// Ratings as players see them: whole points.
pub fn shown(r: f64) -> i32 {
    r.round().clamp(0.0, 10_000.0) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::AtaxxRules;
    use crate::games::mill::Preset;
    use crate::games::stones::StonesRules;
    use crate::games::EndReason;

    fn game() -> FinishedGame {
        FinishedGame {
            room: "abcdefghabcdefgh".into(),
            game_no: 1,
            spec: Variant::Stones(StonesRules),
            start: String::new(),
            plies: 10,
            players: [
                Some("aaaaaaaaaaaaaaaa".into()),
                Some("bbbbbbbbbbbbbbbb".into()),
            ],
            outcome: Outcome::win(Side::First, EndReason::Resignation),
            rated: true,
            moved: [true, true],
            clock_ms: 30_000,
            finished_ms: 0,
        }
    }

    #[test]
    fn which_games_are_rated() {
        assert_eq!(unrated_because(&game()), None);
        let casual = FinishedGame {
            rated: false,
            ..game()
        };
        assert_eq!(unrated_because(&casual), Some(Unrated::Casual));
        let aborted = FinishedGame {
            moved: [true, false],
            plies: 1,
            ..game()
        };
        assert_eq!(unrated_because(&aborted), Some(Unrated::Aborted));
        let nobody_moved = FinishedGame {
            moved: [false, false],
            plies: 0,
            ..game()
        };
        assert_eq!(unrated_because(&nobody_moved), Some(Unrated::Aborted));
        let anonymous = FinishedGame {
            players: [Some("aaaaaaaaaaaaaaaa".into()), None],
            ..game()
        };
        assert_eq!(unrated_because(&anonymous), Some(Unrated::Anonymous));
        let alone = FinishedGame {
            players: [
                Some("aaaaaaaaaaaaaaaa".into()),
                Some("aaaaaaaaaaaaaaaa".into()),
            ],
            ..game()
        };
        assert_eq!(unrated_because(&alone), Some(Unrated::Themselves));
        let lasker = FinishedGame {
            spec: Variant::Mill(Preset::LaskerMorris.rules()),
            ..game()
        };
        assert_eq!(unrated_because(&lasker), Some(Unrated::Variant));
        let standard = FinishedGame {
            spec: Variant::Mill(Preset::NineMensMorris.rules()),
            ..game()
        };
        assert_eq!(unrated_because(&standard), None);
        assert_eq!(
            rated_kind(&Variant::Ataxx(AtaxxRules::default())),
            Some(GameKind::Ataxx)
        );
    }

    #[test]
    fn the_winner_gains_what_the_loser_loses() {
        let [a, b] = settle(
            [Rating::default(), Rating::default()],
            &Outcome::win(Side::Second, EndReason::Timeout),
        );
        assert!(b.rating > 1500.0 && a.rating < 1500.0);
        assert_eq!(shown(b.rating) - 1500, 1500 - shown(a.rating));
        assert_eq!(shown(f64::NAN), 0);
    }
}
