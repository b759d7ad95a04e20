//! The rules of the three games, in pure Rust: no browser or UI types.
//!
//! Every game implements [`Game`]: a validated, cheap-to-clone position that
//! knows its side to move, its legal moves, how to play a move (checked or
//! unchecked) and whether the game is over. History-dependent rules
//! (threefold repetition) live in [`Record`], which wraps a position with
//! the moves played so far; search keeps its own path of hashes instead.

pub mod any;
pub mod bits;
pub mod error;
pub mod list;
pub mod zobrist;

// The games' own modules, one per line of the list (`list.rs`). Declared
// here rather than generated from the list so that rustfmt and the
// editor's tools still find their files.
pub mod ataxx;
pub mod mill;
pub mod stones;

pub use error::{Illegal, PositionError, PositionKind};
pub use zobrist::splitmix64;

use std::fmt;

/// One of the two players. `First` moves first (X in Territory Duel,
/// White in Stones! and Mill).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first player, 1 for the second: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Side::First => 0,
            Side::Second => 1,
        }
    }
}

/// Generates [`GameKind`] from the list ([`for_each_game!`]).
macro_rules! define_game_kind {
    (() $($Kind:ident: $module:ident::$Type:ident,)*) => {
        /// The games, as named in links and the picker: one per line of
        /// the list ([`for_each_game!`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum GameKind {
            $($Kind,)*
        }

        impl GameKind {
            /// Every game, in picker order.
            pub const ALL: [GameKind; [$(GameKind::$Kind),*].len()] = [$(GameKind::$Kind),*];

            /// The name players see (English; the page words it per
            /// language).
            pub fn title(self) -> &'static str {
                match self {
                    $(GameKind::$Kind => $module::TITLE,)*
                }
            }

            /// One line saying what the game is about (English).
            pub fn tagline(self) -> &'static str {
                match self {
                    $(GameKind::$Kind => $module::TAGLINE,)*
                }
            }

            /// The name in links (`?game=…`), file names and commands.
            pub fn slug(self) -> &'static str {
                match self {
                    $(GameKind::$Kind => $module::SLUG,)*
                }
            }

            /// Other names the command line accepts (`territory-duel`).
            fn other_names(self) -> &'static [&'static str] {
                match self {
                    $(GameKind::$Kind => $module::OTHER_NAMES,)*
                }
            }
        }
    };
}

crate::for_each_game!(define_game_kind!());

impl GameKind {
    /// Reads a link's game name.
    pub fn from_slug(s: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.slug() == s)
    }

    /// Reads a game's name on the command line: its slug or another name
    /// it goes by; the error names the games.
    pub fn parse(s: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.slug() == s || k.other_names().contains(&s))
            .ok_or_else(|| {
                let slugs: Vec<&str> = GameKind::ALL.iter().map(|k| k.slug()).collect();
                let (last, rest) = slugs.split_last().expect("the list has games");
                format!(
                    "unknown game '{s}' (expected {} or {last})",
                    rest.join(", ")
                )
            })
    }
}

/// Who plays a game, for the rules it is played under: the named presets
/// of [`Game::rules_for`] (Territory Duel against the computer: a player
/// who cannot move loses; online and two players: it passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Against the computer (the page's AI).
    Computer,
    /// Two players on one device.
    TwoPlayers,
    /// Two players through the game server.
    Online,
}

/// Why a game ended. One list for all games so the UI can name every ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EndReason {
    /// No empty square is left (Territory Duel; Mill when placing fills the board).
    BoardFull,
    /// A side has no pieces left (Territory Duel).
    NoPieces,
    /// Neither side has a legal move (Territory Duel in pass mode).
    NeitherCanMove,
    /// The side to move has no legal move (Territory Duel in lose mode,
    /// Stones! where the game is then scored, Mill where the blocked side loses).
    NoLegalMove,
    /// The same position occurred for the third time (Territory Duel:
    /// decided by the piece count; Mill: a draw).
    Repetition,
    /// Too many moves without a capture or removal (80 jumps in Territory
    /// Duel, the n-move rule in Mill).
    MoveLimit,
    /// A side fell below the minimum number of pieces (Mill).
    TooFewPieces,
    /// The side to move ran out of time on the move clock.
    Timeout,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw (online play).
    Agreement,
    /// An online game reached the server's ply cap (online play): decided
    /// like the game's other endings by count (Territory Duel, Stones!),
    /// a draw in Mill.
    PlyLimit,
}

impl EndReason {
    /// A short English description, used by the command line and the page.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::BoardFull => "the board is full",
            EndReason::NoPieces => "a side has no pieces left",
            EndReason::NeitherCanMove => "neither side can move",
            EndReason::NoLegalMove => "the side to move has no legal move",
            EndReason::Repetition => "the same position occurred three times",
            EndReason::MoveLimit => "the move limit without captures was reached",
            EndReason::TooFewPieces => "a side has too few pieces left",
            EndReason::Timeout => "time ran out",
            EndReason::Resignation => "a player resigned",
            EndReason::Agreement => "the players agreed to a draw",
            EndReason::PlyLimit => "the game reached the online move limit",
        }
    }
}

/// The result of a finished game: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `side`.
    pub const fn win(side: Side, reason: EndReason) -> Self {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: EndReason) -> Self {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The side with more `counts` wins; equal counts draw.
    pub fn by_count(first: u32, second: u32, reason: EndReason) -> Self {
        use std::cmp::Ordering::*;
        match first.cmp(&second) {
            Greater => Outcome::win(Side::First, reason),
            Less => Outcome::win(Side::Second, reason),
            Equal => Outcome::draw(reason),
        }
    }
}

/// Everything that can go wrong with user input: a position text, a move
/// text or an illegal move. An illegal move and an unreadable position are
/// typed (see [`error`]) so that the page can word them in the player's
/// language; `Display` is English, for the command line and logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The position text could not be read.
    BadPosition(PositionError),
    /// The move text could not be read.
    BadMove(String),
    /// The move is well formed but not legal here: its game's reason.
    IllegalMove(Illegal),
    /// The game is already over.
    GameOver,
    /// A rules option or preset name was not understood.
    BadRules(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::BadPosition(m) => write!(f, "invalid position: {m}"),
            GameError::BadMove(m) => write!(f, "invalid move: {m}"),
            GameError::IllegalMove(m) => write!(f, "illegal move: {m}"),
            GameError::GameOver => write!(f, "the game is over"),
            GameError::BadRules(m) => write!(f, "invalid rules: {m}"),
        }
    }
}

impl std::error::Error for GameError {}

/// The first move of a move list that could not be played: its number
/// (from 1), its text and why. Typed so that the page can word it in the
/// player's language; `Display` gives the English "move 2 (b6): …".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveListError {
    pub number: usize,
    pub text: String,
    pub error: GameError,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({}): {}", self.number, self.text, self.error)
    }
}

impl std::error::Error for MoveListError {}

/// A two-player game position with its rules.
///
/// Positions are small values: search clones and applies (copy-make)
/// rather than undoing moves.
pub trait Game: Clone + PartialEq + fmt::Debug + Sized {
    /// A move: a small `Copy` value, written and read in the game's notation.
    type Move: Copy + PartialEq + Eq + fmt::Debug + fmt::Display;
    /// The rule options of this game (a value, not a code path per variant).
    type Rules: Clone + Default + PartialEq + fmt::Debug;

    /// Perft convention for a game that ends before the requested depth:
    /// `false` counts it as 0 (libataxx, Stones!), `true` as one leaf (Sanmill).
    const PERFT_FINISHED_IS_LEAF: bool = false;

    /// The usual starting position under `rules`.
    fn start(rules: &Self::Rules) -> Self;
    /// Reads a position from its text notation (FEN or the game's own).
    fn from_text(text: &str, rules: &Self::Rules) -> Result<Self, GameError>;
    /// Writes the position in its text notation; `from_text` reads it back.
    fn to_text(&self) -> String;
    /// The rules this position is played under.
    fn rules(&self) -> &Self::Rules;
    /// The rules a game is played under in `mode`, given the rules the
    /// player chose: the game's named presets per mode (Territory Duel
    /// against the computer: a player who cannot move loses; online: it
    /// passes). By default the chosen rules, in every mode.
    fn rules_for(_mode: Mode, chosen: &Self::Rules) -> Self::Rules {
        chosen.clone()
    }
    /// Whether `rules` make a playable game (Mill: 9 to 12 pieces, …); the
    /// error says what is wrong. Every rule value is playable by default.
    fn check_rules(_rules: &Self::Rules) -> Result<(), GameError> {
        Ok(())
    }
    /// The game's named rule presets, by slug (Mill's Nine Men's Morris,
    /// Morabaraba, …): `engine perft --rules`. None by default.
    fn presets() -> Vec<(&'static str, Self::Rules)> {
        Vec::new()
    }

    /// Whose turn it is.
    fn side_to_move(&self) -> Side;
    /// Why `mv` is not legal here (asked only of a move that is not, while
    /// the game goes on): the reason [`Game::play`] refuses it with.
    fn why_illegal(&self, mv: Self::Move) -> Illegal;
    /// Appends every legal move to `out` (which is cleared first). Empty
    /// exactly when the game is over by the position alone.
    fn legal_moves_into(&self, out: &mut Vec<Self::Move>);
    /// Applies a move known to be legal (the fast path for search).
    fn play_unchecked(&mut self, mv: Self::Move);
    /// The result if the game is over by this position alone (repetition
    /// needs the history: see [`Record`]).
    fn outcome(&self) -> Option<Outcome>;
    /// A Zobrist-style hash of everything that decides the future of the game.
    fn hash(&self) -> u64;
    /// Reads a move in this game's notation, in the context of this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;
    /// A move the side to move must make without choosing, which the page,
    /// the server and [`any::AnyRecord::play_text`] make at once
    /// (Territory Duel's pass when the player has no move but the game
    /// goes on). None by default.
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }
    /// Whether positions before `mv` can never occur again after it (so the
    /// repetition history may be cleared).
    fn is_irreversible(&self, mv: Self::Move) -> bool;
    /// Whether the third occurrence of a position ends the game.
    fn repetition_ends_game(&self) -> bool {
        true
    }
    /// The result of a game stopped in this position by a rule outside the
    /// position: `reason` is [`EndReason::Repetition`] (the third
    /// occurrence, where [`Game::repetition_ends_game`]) or
    /// [`EndReason::PlyLimit`] (the online ply cap). The rules files decide
    /// it per game: Territory Duel by the piece count, Stones! by the
    /// unpinned stones home, Mill a draw (the default).
    fn adjudicate(&self, reason: EndReason) -> Outcome {
        Outcome::draw(reason)
    }

    /// The number of legal moves (`legal_moves().len()`): what perft needs
    /// at its last ply. The default fills `scratch` with the moves; a game
    /// with a cheaper count (popcounts of bitboards) ignores it.
    fn count_legal_moves(&self, scratch: &mut Vec<Self::Move>) -> u64 {
        self.legal_moves_into(scratch);
        scratch.len() as u64
    }

    /// Every legal move, in a new vector.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.legal_moves_into(&mut out);
        out
    }

    /// Plays `mv` if it is legal; otherwise returns an error and leaves the
    /// position unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        if !self.legal_moves().contains(&mv) {
            return Err(GameError::IllegalMove(self.why_illegal(mv)));
        }
        self.play_unchecked(mv);
        Ok(())
    }
}

/// Counts the move sequences of exactly `depth` plies. A game that ends
/// earlier counts 0 or 1 as [`Game::PERFT_FINISHED_IS_LEAF`] says, following
/// each game's reference program.
///
/// One move list per ply is allocated up front and reused, and the last ply
/// is counted, not played ([`Game::count_legal_moves`]).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut lists: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_with(pos, &mut lists)
}

/// [`perft`] to the depth `lists.len()`, with one move list per ply.
fn perft_with<G: Game>(pos: &G, lists: &mut [Vec<G::Move>]) -> u64 {
    let Some((moves, deeper)) = lists.split_first_mut() else {
        return 1; // depth 0
    };
    if deeper.is_empty() {
        return perft_last_ply(pos, moves);
    }
    pos.legal_moves_into(moves);
    if moves.is_empty() && G::PERFT_FINISHED_IS_LEAF {
        return 1;
    }
    let mut total = 0;
    if let [scratch] = deeper {
        // Depth 2, where most of the time goes: no call per child.
        for &mv in moves.iter() {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            total += perft_last_ply(&next, scratch);
        }
    } else {
        for &mv in moves.iter() {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            total += perft_with(&next, deeper);
        }
    }
    total
}

/// Perft at depth 1: the moves counted, not played.
#[inline]
fn perft_last_ply<G: Game>(pos: &G, scratch: &mut Vec<G::Move>) -> u64 {
    let n = pos.count_legal_moves(scratch);
    if n == 0 && G::PERFT_FINISHED_IS_LEAF {
        1
    } else {
        n
    }
}

/// Perft split by root move: each legal move with its count at `depth - 1`.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play_unchecked(mv);
            (mv, perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}

/// A game in progress: the starting position, the moves played and the
/// current position, with threefold repetition (decided by
/// [`Game::adjudicate`]), timeout and resignation.
///
/// This is what the app keeps in its signals and what undo works on.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<G: Game> {
    start: G,
    moves: Vec<G::Move>,
    current: G,
    /// Hashes of the positions since the last irreversible move, current included.
    history: Vec<u64>,
    /// An ending decided outside the position: repetition, timeout, resignation.
    decided: Option<Outcome>,
}

impl<G: Game> Record<G> {
    /// A new game from `start`.
    pub fn new(start: G) -> Self {
        let history = vec![start.hash()];
        Record {
            current: start.clone(),
            start,
            moves: Vec::new(),
            history,
            decided: None,
        }
    }

    /// The game from `start` after `moves`, written in the game's notation.
    /// The error names the first move that fails (shown as "move 2 (b6): …").
    pub fn from_moves<S: AsRef<str>>(
        start: G,
        moves: impl IntoIterator<Item = S>,
    ) -> Result<Self, MoveListError> {
        let mut record = Record::new(start);
        for (i, m) in moves.into_iter().enumerate() {
            let m = m.as_ref();
            record.play_text(m).map_err(|error| MoveListError {
                number: i + 1,
                text: m.to_string(),
                error,
            })?;
        }
        Ok(record)
    }

    /// The position now.
    pub fn position(&self) -> &G {
        &self.current
    }

    /// The position the game started from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The result, if the game is over for any reason.
    pub fn outcome(&self) -> Option<Outcome> {
        self.decided.or_else(|| self.current.outcome())
    }

    /// Plays `mv` if the game is not over and the move is legal; otherwise
    /// returns an error and changes nothing.
    pub fn play(&mut self, mv: G::Move) -> Result<(), GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        let irreversible = self.current.is_irreversible(mv);
        self.current.play(mv)?;
        self.moves.push(mv);
        if irreversible {
            self.history.clear();
        }
        let hash = self.current.hash();
        self.history.push(hash);
        if self.current.outcome().is_none()
            && self.current.repetition_ends_game()
            && self.history.iter().filter(|&&h| h == hash).count() >= 3
        {
            self.decided = Some(self.current.adjudicate(EndReason::Repetition));
        }
        Ok(())
    }

    /// Reads a move in the game's notation and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, GameError> {
        let mv = self.current.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// The side to move loses on time (ignored if the game is already over).
    pub fn timeout(&mut self) {
        if self.outcome().is_none() {
            let loser = self.current.side_to_move();
            self.decided = Some(Outcome::win(loser.opponent(), EndReason::Timeout));
        }
    }

    /// `side` resigns (ignored if the game is already over).
    pub fn resign(&mut self, side: Side) {
        if self.outcome().is_none() {
            self.decided = Some(Outcome::win(side.opponent(), EndReason::Resignation));
        }
    }

    /// The game reached the online ply cap (ignored if already over): it
    /// ends as the game decides it ([`Game::adjudicate`]: by count in
    /// Territory Duel and Stones!, a draw in Mill).
    pub fn ply_limit(&mut self) {
        if self.outcome().is_none() {
            self.decided = Some(self.current.adjudicate(EndReason::PlyLimit));
        }
    }

    /// The players agree to a draw (ignored if the game is already over).
    pub fn agree_draw(&mut self) {
        if self.outcome().is_none() {
            self.decided = Some(Outcome::draw(EndReason::Agreement));
        }
    }

    /// Takes back the last `n` moves by replaying the rest from the start.
    /// Returns how many were taken back.
    pub fn undo(&mut self, n: usize) -> usize {
        let n = n.min(self.moves.len());
        *self = self.truncated(self.moves.len() - n);
        n
    }

    /// The game as it was after its first `ply` moves (history included).
    pub fn truncated(&self, ply: usize) -> Record<G> {
        let mut replay = Record::new(self.start.clone());
        for &mv in self.moves.iter().take(ply) {
            // These moves were legal when first played from the same start.
            replay
                .play(mv)
                .expect("a replayed move from the same start stays legal");
        }
        replay
    }

    /// The position after the first `ply` moves (0 = the start).
    pub fn position_at(&self, ply: usize) -> G {
        let mut pos = self.start.clone();
        for &mv in self.moves.iter().take(ply) {
            pos.play_unchecked(mv);
        }
        pos
    }
}
