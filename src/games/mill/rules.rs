//! Rule options (a value, not a code path per variant) and named presets.

use crate::games::GameError;

/// Which opponent pieces a mill may remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RemoveFromMills {
    /// A piece standing in a mill may be removed only when every opponent
    /// piece stands in a mill (the classic rule).
    OnlyIfAllInMills,
    /// Any opponent piece may be removed.
    Always,
}

/// What a mill formed during placing does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MillInPlacing {
    /// The removed point becomes empty at once and may be placed on again.
    RemoveNow,
    /// The removed point is marked (`X`) and may not be placed on until
    /// placing ends; then all marks are cleared (Da San Qi).
    MarkAndDelay,
}

/// What happens when placing fills all 24 points with pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum BoardFull {
    /// The first player (White) loses.
    FirstPlayerLoses,
    /// The game is drawn.
    Draw,
}

/// What happens when the side to move cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Stalemate {
    /// The blocked side loses.
    BlockedSideLoses,
    /// The turn passes to the opponent.
    TurnPasses,
}

/// The rule options of the Mill family. `Default` is Nine Men's Morris.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MillRules {
    /// Pieces per side (9–12).
    pub pieces: u8,
    /// The four corner diagonals are lines (and mills).
    pub diagonal_lines: bool,
    /// A side reduced to `fly_at` pieces may fly (move to any empty point).
    pub may_fly: bool,
    /// Flying is allowed with this many pieces or fewer on the board (and
    /// none in hand).
    pub fly_at: u8,
    /// A side with fewer pieces than this (in hand plus on board) loses.
    pub lose_below: u8,
    /// Which opponent pieces a mill may remove.
    pub remove_from_mills: RemoveFromMills,
    /// Remove at once, or mark and delay, when a mill is formed in placing.
    pub mill_in_placing: MillInPlacing,
    /// Lasker: during placing a side may slide a piece instead of placing.
    pub move_in_placing: bool,
    /// Forming two (or three) mills at once removes that many pieces.
    pub remove_multiple: bool,
    /// A mill removes only the first time its points form a mill for that
    /// side (Russian Mill).
    pub one_time_mill: bool,
    /// Result when placing fills the whole board.
    pub board_full: BoardFull,
    /// Result when the side to move is blocked.
    pub stalemate: Stalemate,
    /// Plies without a removal (or placement) before a draw; 0 = off.
    pub n_move_rule: u32,
    /// The third occurrence of a position is a draw (applied by `Record`).
    pub threefold_repetition: bool,
    /// The second player (Black) makes the first move of the moving phase.
    pub defender_first: bool,
}

impl Default for MillRules {
    fn default() -> Self {
        MillRules {
            pieces: 9,
            diagonal_lines: false,
            may_fly: true,
            fly_at: 3,
            lose_below: 3,
            remove_from_mills: RemoveFromMills::OnlyIfAllInMills,
            mill_in_placing: MillInPlacing::RemoveNow,
            move_in_placing: false,
            remove_multiple: false,
            one_time_mill: false,
            board_full: BoardFull::FirstPlayerLoses,
            stalemate: Stalemate::BlockedSideLoses,
            n_move_rule: 100,
            threefold_repetition: true,
            defender_first: false,
        }
    }
}

/// The names accepted by [`MillRules::set_option`] and [`MillRules::get_option`].
pub const OPTION_NAMES: [&str; 15] = [
    "pieces",
    "diagonal_lines",
    "may_fly",
    "fly_at",
    "lose_below",
    "remove_from_mills",
    "mill_in_placing",
    "move_in_placing",
    "remove_multiple",
    "one_time_mill",
    "board_full",
    "stalemate",
    "n_move_rule",
    "threefold_repetition",
    "defender_first",
];

fn parse_bool(name: &str, v: &str) -> Result<bool, GameError> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(GameError::BadRules(format!(
            "option {name} expects true or false, not '{v}'"
        ))),
    }
}

fn parse_num<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, GameError> {
    v.trim()
        .parse()
        .map_err(|_| GameError::BadRules(format!("option {name} expects a number, not '{v}'")))
}

fn norm(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace(['-', ' '], "_")
}

impl MillRules {
    /// Checks that the options make a playable game: 9–12 pieces,
    /// `lose_below` and `fly_at` at most `pieces`.
    pub fn validate(&self) -> Result<(), GameError> {
        if !(9..=12).contains(&self.pieces) {
            return Err(GameError::BadRules(format!(
                "pieces must be 9 to 12, not {}",
                self.pieces
            )));
        }
        if self.lose_below > self.pieces {
            return Err(GameError::BadRules(format!(
                "lose_below ({}) cannot exceed pieces ({})",
                self.lose_below, self.pieces
            )));
        }
        if self.fly_at > self.pieces {
            return Err(GameError::BadRules(format!(
                "fly_at ({}) cannot exceed pieces ({})",
                self.fly_at, self.pieces
            )));
        }
        Ok(())
    }

    /// Sets one option by name (`pieces`, `diagonal_lines`, ... as in
    /// [`OPTION_NAMES`]; `-` and `_` are interchangeable) from a text value:
    /// numbers, `true`/`false`, or the enum values `only-if-all-in-mills` /
    /// `always`, `remove-now` / `mark-and-delay`, `first-player-loses` /
    /// `draw`, `blocked-side-loses` / `turn-passes`. The rules stay
    /// unchanged on error, including when the result would be invalid.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), GameError> {
        let mut r = *self;
        let v = norm(value);
        let bad = |what: &str| {
            GameError::BadRules(format!("option {name} expects {what}, not '{value}'"))
        };
        match norm(name).as_str() {
            "pieces" => r.pieces = parse_num(name, value)?,
            "diagonal_lines" => r.diagonal_lines = parse_bool(name, value)?,
            "may_fly" => r.may_fly = parse_bool(name, value)?,
            "fly_at" => r.fly_at = parse_num(name, value)?,
            "lose_below" => r.lose_below = parse_num(name, value)?,
            "remove_from_mills" => {
                r.remove_from_mills = match v.as_str() {
                    "only_if_all_in_mills" => RemoveFromMills::OnlyIfAllInMills,
                    "always" => RemoveFromMills::Always,
                    _ => return Err(bad("only-if-all-in-mills or always")),
                }
            }
            "mill_in_placing" => {
                r.mill_in_placing = match v.as_str() {
                    "remove_now" => MillInPlacing::RemoveNow,
                    "mark_and_delay" => MillInPlacing::MarkAndDelay,
                    _ => return Err(bad("remove-now or mark-and-delay")),
                }
            }
            "move_in_placing" => r.move_in_placing = parse_bool(name, value)?,
            "remove_multiple" => r.remove_multiple = parse_bool(name, value)?,
            "one_time_mill" => r.one_time_mill = parse_bool(name, value)?,
            "board_full" => {
                r.board_full = match v.as_str() {
                    "first_player_loses" => BoardFull::FirstPlayerLoses,
                    "draw" => BoardFull::Draw,
                    _ => return Err(bad("first-player-loses or draw")),
                }
            }
            "stalemate" => {
                r.stalemate = match v.as_str() {
                    "blocked_side_loses" => Stalemate::BlockedSideLoses,
                    "turn_passes" => Stalemate::TurnPasses,
                    _ => return Err(bad("blocked-side-loses or turn-passes")),
                }
            }
            "n_move_rule" => r.n_move_rule = parse_num(name, value)?,
            "threefold_repetition" => r.threefold_repetition = parse_bool(name, value)?,
            "defender_first" => r.defender_first = parse_bool(name, value)?,
            _ => {
                return Err(GameError::BadRules(format!(
                    "unknown option '{name}' (known: {})",
                    OPTION_NAMES.join(", ")
                )))
            }
        }
        r.validate()?;
        *self = r;
        Ok(())
    }

    /// The current value of an option as text that [`MillRules::set_option`]
    /// accepts; `None` for an unknown name.
    pub fn get_option(&self, name: &str) -> Option<String> {
        let s = match norm(name).as_str() {
            "pieces" => self.pieces.to_string(),
            "diagonal_lines" => self.diagonal_lines.to_string(),
            "may_fly" => self.may_fly.to_string(),
            "fly_at" => self.fly_at.to_string(),
            "lose_below" => self.lose_below.to_string(),
            "remove_from_mills" => match self.remove_from_mills {
                RemoveFromMills::OnlyIfAllInMills => "only-if-all-in-mills".into(),
                RemoveFromMills::Always => "always".into(),
            },
            "mill_in_placing" => match self.mill_in_placing {
                MillInPlacing::RemoveNow => "remove-now".into(),
                MillInPlacing::MarkAndDelay => "mark-and-delay".into(),
            },
            "move_in_placing" => self.move_in_placing.to_string(),
            "remove_multiple" => self.remove_multiple.to_string(),
            "one_time_mill" => self.one_time_mill.to_string(),
            "board_full" => match self.board_full {
                BoardFull::FirstPlayerLoses => "first-player-loses".into(),
                BoardFull::Draw => "draw".into(),
            },
            "stalemate" => match self.stalemate {
                Stalemate::BlockedSideLoses => "blocked-side-loses".into(),
                Stalemate::TurnPasses => "turn-passes".into(),
            },
            "n_move_rule" => self.n_move_rule.to_string(),
            "threefold_repetition" => self.threefold_repetition.to_string(),
            "defender_first" => self.defender_first.to_string(),
            _ => return None,
        };
        Some(s)
    }
}

/// The named rule sets of the rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Preset {
    /// The default: 9 pieces, no diagonals, flying at 3.
    NineMensMorris,
    /// 12 pieces with the diagonal lines.
    TwelveMensMorris,
    /// 12 pieces, diagonals, two mills at once remove two pieces.
    Morabaraba,
    /// 10 pieces; a side may slide instead of placing.
    LaskerMorris,
    /// Each mill removes only the first time it is formed.
    RussianMill,
    /// No flying.
    ChengSanQi,
    /// 12 pieces, diagonals, no flying, mark-and-delay removal in placing,
    /// the defender starts the moving phase, any piece may be removed.
    DaSanQi,
}

impl Preset {
    /// Every preset, in menu order.
    pub const ALL: [Preset; 7] = [
        Preset::NineMensMorris,
        Preset::TwelveMensMorris,
        Preset::Morabaraba,
        Preset::LaskerMorris,
        Preset::RussianMill,
        Preset::ChengSanQi,
        Preset::DaSanQi,
    ];

    /// The display name, e.g. "Nine Men's Morris".
    pub fn name(self) -> &'static str {
        match self {
            Preset::NineMensMorris => "Nine Men's Morris",
            Preset::TwelveMensMorris => "Twelve Men's Morris",
            Preset::Morabaraba => "Morabaraba",
            Preset::LaskerMorris => "Lasker Morris",
            Preset::RussianMill => "Russian Mill",
            Preset::ChengSanQi => "Cheng San Qi",
            Preset::DaSanQi => "Da San Qi",
        }
    }

    /// A short identifier for URLs, settings and the command line.
    pub fn slug(self) -> &'static str {
        match self {
            Preset::NineMensMorris => "nine",
            Preset::TwelveMensMorris => "twelve",
            Preset::Morabaraba => "morabaraba",
            Preset::LaskerMorris => "lasker",
            Preset::RussianMill => "russian",
            Preset::ChengSanQi => "cheng-san-qi",
            Preset::DaSanQi => "da-san-qi",
        }
    }

    /// The preset with this slug (exact match).
    pub fn from_slug(s: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.slug() == s)
    }

    /// The rule values of this preset (Nine Men's Morris plus the
    /// differences listed in the rules file).
    pub fn rules(self) -> MillRules {
        let base = MillRules::default();
        match self {
            Preset::NineMensMorris => base,
            Preset::TwelveMensMorris => MillRules {
                pieces: 12,
                diagonal_lines: true,
                ..base
            },
            Preset::Morabaraba => MillRules {
                pieces: 12,
                diagonal_lines: true,
                remove_multiple: true,
                ..base
            },
            Preset::LaskerMorris => MillRules {
                pieces: 10,
                move_in_placing: true,
                ..base
            },
            Preset::RussianMill => MillRules {
                one_time_mill: true,
                ..base
            },
            Preset::ChengSanQi => MillRules {
                may_fly: false,
                ..base
            },
            Preset::DaSanQi => MillRules {
                pieces: 12,
                diagonal_lines: true,
                may_fly: false,
                mill_in_placing: MillInPlacing::MarkAndDelay,
                defender_first: true,
                remove_from_mills: RemoveFromMills::Always,
                ..base
            },
        }
    }
}
