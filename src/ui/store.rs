//! What the app remembers across visits, in `localStorage`: settings, the
//! saved games (for resume and the recent list) and the results against
//! the computer. Values are serde types stored as JSON; anything unreadable
//! (an older format, a hand-edited value) is ignored, never fatal.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::ai::Level;
use crate::games::mill::MillRules;
use crate::games::{GameKind, Outcome, Side};
use crate::i18n::Lang;
use crate::protocol::online::SideChoice;

const SETTINGS: &str = "stoneplay.settings";
const GAMES: &str = "stoneplay.games";
const STATS: &str = "stoneplay.stats";
/// How many games the recent list keeps.
pub const MAX_SAVED: usize = 12;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Reads a JSON value; `None` when absent or unreadable.
pub fn load<T: DeserializeOwned>(key: &str) -> Option<T> {
    load_from(&storage()?, key)
}

/// Reads a JSON value from `area` (`localStorage` or `sessionStorage`).
pub fn load_from<T: DeserializeOwned>(area: &web_sys::Storage, key: &str) -> Option<T> {
    let text = area.get_item(key).ok().flatten()?;
    let value = js_sys::JSON::parse(&text).ok()?;
    serde_wasm_bindgen::from_value(value).ok()
}

/// Writes a JSON value (silently skipped when storage is unavailable or full).
pub fn save<T: Serialize>(key: &str, value: &T) {
    if let Some(s) = storage() {
        save_to(&s, key, value);
    }
}

/// Writes a JSON value to `area` (skipped when it is full).
pub fn save_to<T: Serialize>(area: &web_sys::Storage, key: &str, value: &T) {
    let Ok(js) = value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) else {
        return;
    };
    let Ok(text) = js_sys::JSON::stringify(&js) else {
        return;
    };
    if let Some(text) = text.as_string() {
        let _ = area.set_item(key, &text);
    }
}

/// Light, dark, or whatever the system prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

/// The player's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Seconds per move in local and single-player games (0 = no clock).
    pub clock_secs: u32,
    /// The computer's level for new single-player games.
    pub level: Level,
    /// The side you play against the computer.
    pub human_side: Side,
    /// Whether new games are against the computer.
    pub vs_computer: bool,
    /// Rules for new Mill games.
    pub mill_rules: MillRules,
    pub sounds: bool,
    pub animations: bool,
    /// Draw the board from the second player's side.
    pub flip_board: bool,
    pub theme: Theme,
    /// Show legal-move hints when a piece is selected.
    pub hints: bool,
    /// The page's language; `None` until the player picks one, meaning
    /// "as the browser prefers" (see [`Lang::from_browser`]).
    pub lang: Option<Lang>,
    /// The online server's WebSocket address (`wss://…`); empty: the
    /// deployer's `<meta name=stoneplay-server>` or the page's own host.
    pub online_server: String,
    /// The game, clock and side last chosen for online play.
    pub online_game: GameKind,
    pub online_clock_secs: u32,
    pub online_side: SideChoice,
    /// Rated (issue 37): quick match and invites are casual unless chosen.
    pub online_rated: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            clock_secs: 30,
            level: Level::Intermediate,
            human_side: Side::First,
            vs_computer: false,
            mill_rules: MillRules::default(),
            sounds: true,
            animations: true,
            flip_board: false,
            theme: Theme::System,
            hints: true,
            lang: None,
            online_server: String::new(),
            online_game: GameKind::Ataxx,
            online_clock_secs: crate::protocol::online::DEFAULT_CLOCK_SECS,
            online_side: SideChoice::Random,
            online_rated: false,
        }
    }
}

/// The stored settings, or the defaults.
pub fn load_settings() -> Settings {
    load(SETTINGS).unwrap_or_default()
}

/// Stores the settings.
pub fn save_settings(s: &Settings) {
    save(SETTINGS, s);
}

/// A game kept for resuming: its link and the clock when last seen. Only
/// data, no words: the recent list words it in the language of the day.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Identifies the game across saves (random, made when it starts).
    pub id: u32,
    /// The query string that reopens it (`?game=…`).
    pub query: String,
    pub kind: GameKind,
    /// Milliseconds left on the move clock of the side to move.
    pub clock_left_ms: Option<f64>,
    /// Plies played (every action, a Mill removal too). The recent list
    /// shows the count the move list numbers, read from `query`.
    pub plies: usize,
    /// How the game ended, once it is over (a timeout is not in the link).
    pub outcome: Option<Outcome>,
    /// `Date.now()` of the last change.
    pub updated: f64,
    /// Played online (issue 37): kept when the game ends there, opened in
    /// review like a local game. Older saves have none.
    #[serde(default)]
    pub online: Option<OnlineOrigin>,
}

/// Where a finished online game was played: its room (whose spectator
/// link shows it for good: the server keeps finished rooms) and your side
/// in it (`None`: you watched).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnlineOrigin {
    pub room: String,
    /// The server's address when it is not the page's own (`wss://…`).
    pub server: Option<String>,
    pub you: Option<Side>,
    /// The players' names, first side then second, where they had one
    /// (older saves have none).
    #[serde(default)]
    pub names: [Option<String>; 2],
}

/// The saved games, most recent first.
pub fn saved_games() -> Vec<SavedGame> {
    let mut games: Vec<SavedGame> = load(GAMES).unwrap_or_default();
    games.sort_by(|a, b| b.updated.total_cmp(&a.updated));
    games
}

/// Saves (or updates) a game, keeping the newest [`MAX_SAVED`].
pub fn save_game(mut game: SavedGame) {
    let mut games = saved_games();
    // Reviewing a finished online game saves it as the game screen sees
    // it (a local record): where it was played stays.
    if let Some(old) = games.iter().find(|g| g.id == game.id) {
        game.online = game.online.or_else(|| old.online.clone());
    }
    games.retain(|g| g.id != game.id);
    games.insert(0, game);
    games.truncate(MAX_SAVED);
    save(GAMES, &games);
}

/// Forgets a saved game.
pub fn forget_game(id: u32) {
    let mut games = saved_games();
    games.retain(|g| g.id != id);
    save(GAMES, &games);
}

/// Wins, draws and losses against one level in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// One line of the statistics: a game, a level and its tally.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatLine {
    pub kind: GameKind,
    pub level: Level,
    pub tally: Tally,
}

/// Results against the computer, per game and level.
pub fn stats() -> Vec<StatLine> {
    load(STATS).unwrap_or_default()
}

/// Counts a finished game against the computer for the player on `human`.
pub fn record_result(kind: GameKind, level: Level, human: Side, outcome: Outcome) {
    let mut all = stats();
    let idx = match all.iter().position(|l| l.kind == kind && l.level == level) {
        Some(i) => i,
        None => {
            all.push(StatLine {
                kind,
                level,
                tally: Tally::default(),
            });
            all.len() - 1
        }
    };
    let t = &mut all[idx].tally;
    match outcome.winner {
        Some(w) if w == human => t.wins += 1,
        Some(_) => t.losses += 1,
        None => t.draws += 1,
    }
    save(STATS, &all);
}

/// Milliseconds since the epoch, for ordering saved games.
pub fn now_epoch_ms() -> f64 {
    js_sys::Date::now()
}
