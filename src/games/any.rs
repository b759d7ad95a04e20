//! Any one of the games, chosen at run time (like shakmaty's `Variant`
//! and `VariantPosition`), made from the one list of games
//! ([`crate::for_each_game!`]).
//!
//! Code that knows its game at compile time stays generic over [`Game`];
//! code that learns it from data (a link, a stored game, a message) holds
//! a [`Variant`] (which game, with its rules) or an [`AnyRecord`] (a
//! [`Record`] of that game) and dispatches once, with
//! [`crate::with_variant!`] or [`crate::with_record!`]. A game
//! is rebuilt from its start text and move texts in one place:
//! [`AnyRecord::restore`] (or [`restore`] when the game is known).

use std::fmt;

use super::{Game, GameError, GameKind, Mode, MoveListError, Outcome, Record, Side};

/// Generates [`Variant`], [`AnyRecord`] and the [`VariantGame`] impls from
/// the list ([`crate::for_each_game!`]).
macro_rules! define_any {
    (() $($Kind:ident: $module:ident::$Type:ident,)*) => {
        /// Which game, with its rules.
        ///
        /// Stored by the server and sent on the wire (the AI worker's and
        /// the online protocol's `game`): its serde form is
        /// `{"Ataxx":{…}}`, `{"Stones":null}` or `{"Mill":{…}}` and must
        /// not change.
        #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum Variant {
            $($Kind(<super::$module::$Type as Game>::Rules),)*
        }

        /// A game in progress, of whichever game: a [`Record`] of it.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyRecord {
            $($Kind(Record<super::$module::$Type>),)*
        }

        $(impl VariantGame for super::$module::$Type {
            const KIND: GameKind = GameKind::$Kind;
            fn variant(rules: &Self::Rules) -> Variant {
                Variant::$Kind(*rules)
            }
            fn into_any(record: Record<Self>) -> AnyRecord {
                AnyRecord::$Kind(record)
            }
        })*
    };
}

crate::for_each_game!(define_any!());

impl Variant {
    /// The game this is.
    pub fn kind(&self) -> GameKind {
        crate::with_variant!(self, G, _ => G::KIND)
    }

    /// The game `kind` under its default rules.
    pub fn default_for(kind: GameKind) -> Variant {
        crate::with_game!(kind, G => G::variant(&Default::default()))
    }

    /// The rules this game is played under in `mode` ([`Game::rules_for`]).
    pub fn for_mode(&self, mode: Mode) -> Variant {
        crate::with_variant!(self, G, rules => G::variant(&G::rules_for(mode, rules)))
    }

    /// Whether the rules make a playable game ([`Game::check_rules`]).
    pub fn check(&self) -> Result<(), GameError> {
        crate::with_variant!(self, G, rules => G::check_rules(rules))
    }
}

/// A game that has a place in [`Variant`] and [`AnyRecord`] (every game
/// of the list): what generic code needs to go to and from them.
pub trait VariantGame: Game {
    /// Which game this is.
    const KIND: GameKind;
    /// This game under `rules`.
    fn variant(rules: &Self::Rules) -> Variant;
    /// `record` as a record of any game.
    fn into_any(record: Record<Self>) -> AnyRecord;
}

impl<G: VariantGame> From<Record<G>> for AnyRecord {
    fn from(record: Record<G>) -> AnyRecord {
        G::into_any(record)
    }
}

/// Why a game could not be rebuilt from its texts. `Display` gives the
/// English message ("invalid position: …", "move 2 (b6): …").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// The start position could not be read.
    Start(GameError),
    /// A move could not be played.
    Moves(MoveListError),
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::Start(e) => e.fmt(f),
            RestoreError::Moves(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RestoreError {}

/// A game of `G` from its start position and moves, in the game's notation:
/// what [`AnyRecord::restore`] does once it knows the game.
pub fn restore<G: Game, S: AsRef<str>>(
    rules: &G::Rules,
    start: &str,
    moves: impl IntoIterator<Item = S>,
) -> Result<Record<G>, RestoreError> {
    let pos = G::from_text(start, rules).map_err(RestoreError::Start)?;
    Record::from_moves(pos, moves).map_err(RestoreError::Moves)
}

/// Runs `$body` with `$r` bound to the record inside `$any`, whatever the game.
macro_rules! each {
    ($any:expr, $r:ident => $body:expr) => {
        crate::with_record!($any, G, $r => $body)
    };
}

impl AnyRecord {
    /// A new game of `variant` from the usual start.
    pub fn new(variant: &Variant) -> AnyRecord {
        crate::with_variant!(variant, G, r => G::into_any(Record::new(G::start(r))))
    }

    /// A game of `variant` from its start position and moves, in the game's
    /// notation (a stored game, a worker request, an online state).
    pub fn restore<S: AsRef<str>>(
        variant: &Variant,
        start: &str,
        moves: impl IntoIterator<Item = S>,
    ) -> Result<AnyRecord, RestoreError> {
        Ok(crate::with_variant!(variant, G, r => G::into_any(restore::<G, S>(r, start, moves)?)))
    }

    /// Which game this is.
    pub fn kind(&self) -> GameKind {
        crate::with_record!(self, G, _ => G::KIND)
    }

    /// The game and its rules.
    pub fn variant(&self) -> Variant {
        crate::with_record!(self, G, r => G::variant(r.position().rules()))
    }

    /// The start position in the game's notation.
    pub fn start_text(&self) -> String {
        each!(self, r => r.start().to_text())
    }

    pub fn to_move(&self) -> Side {
        each!(self, r => r.position().side_to_move())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, r => r.outcome())
    }

    /// Every legal move in the game's notation (none once the game is over).
    pub fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        each!(self, r => r.position().legal_moves().iter().map(|m| m.to_string()).collect())
    }

    /// Plays a move given as text, then any forced pass that follows (a
    /// Territory Duel player without a move under the pass rule). Returns
    /// the moves now on the record, in notation: the move as the game
    /// writes it, then `0000` for each forced pass.
    pub fn play_text(&mut self, text: &str) -> Result<Vec<String>, GameError> {
        let mv = each!(self, r => r.play_text(text).map(|m| m.to_string()))?;
        let mut played = vec![mv];
        each!(self, r => {
            while r.outcome().is_none() {
                let Some(forced) = r.position().forced_move() else { break };
                r.play(forced)?;
                played.push(forced.to_string());
            }
        });
        Ok(played)
    }

    /// The side to move loses on time.
    pub fn timeout(&mut self) {
        each!(self, r => r.timeout())
    }

    pub fn resign(&mut self, side: Side) {
        each!(self, r => r.resign(side))
    }

    /// The game reached the online ply cap: decided by count in Territory
    /// Duel and Stones!, a draw in Mill ([`crate::games::Game::adjudicate`]).
    pub fn ply_limit(&mut self) {
        each!(self, r => r.ply_limit())
    }

    pub fn agree_draw(&mut self) {
        each!(self, r => r.agree_draw())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::AtaxxRules;
    use crate::games::mill::{Mill, MillRules};
    use crate::games::stones::StonesRules;

    /// The game and rules are stored by the server and sent on the wire
    /// (worker and online protocol): their JSON must not change. These are
    /// the strings `protocol::GameSpec` wrote before it became `Variant`.
    #[test]
    fn variant_json_is_unchanged() {
        let cases = [
            (
                Variant::Ataxx(AtaxxRules::default()),
                r#"{"Ataxx":{"no_move":"Pass"}}"#,
            ),
            (Variant::Stones(StonesRules), r#"{"Stones":null}"#),
            (
                Variant::Mill(MillRules::default()),
                concat!(
                    r#"{"Mill":{"pieces":9,"diagonal_lines":false,"may_fly":true,"#,
                    r#""fly_at":3,"lose_below":3,"remove_from_mills":"OnlyIfAllInMills","#,
                    r#""mill_in_placing":"RemoveNow","move_in_placing":false,"#,
                    r#""remove_multiple":false,"one_time_mill":false,"#,
                    r#""board_full":"FirstPlayerLoses","stalemate":"BlockedSideLoses","#,
                    r#""n_move_rule":100,"threefold_repetition":true,"defender_first":false}}"#
                ),
            ),
        ];
        for (variant, json) in cases {
            assert_eq!(serde_json::to_string(&variant).unwrap(), json);
            assert_eq!(serde_json::from_str::<Variant>(json).unwrap(), variant);
        }
    }

    #[test]
    fn restore_replays_and_names_what_fails() {
        let v = Variant::Ataxx(AtaxxRules::default());
        let start = AnyRecord::new(&v).start_text();
        let r = AnyRecord::restore(&v, &start, ["b6", "a1a3"]).unwrap();
        assert_eq!(r.variant(), v);
        assert_eq!(r.kind(), GameKind::Ataxx);
        assert_eq!(r.start_text(), start);
        let AnyRecord::Ataxx(ref a) = r else {
            panic!("{r:?} is not Territory Duel")
        };
        assert_eq!(a.moves().len(), 2);
        assert_eq!(r.to_move(), Side::First);

        let bad = AnyRecord::restore(&v, &start, ["b6", "b6"]).unwrap_err();
        assert!(matches!(bad, RestoreError::Moves(ref e) if e.number == 2));
        assert!(bad.to_string().starts_with("move 2 (b6): "), "{bad}");
        let bad = AnyRecord::restore(&v, "not a position", [""; 0]).unwrap_err();
        assert!(matches!(bad, RestoreError::Start(_)));
        assert!(bad.to_string().starts_with("invalid position"), "{bad}");
    }

    /// Issue 38 and the rules files: the online ply cap is decided by the
    /// piece count in Territory Duel, by the unpinned stones home in
    /// Stones!, and is a draw in Mill, whatever the count.
    #[test]
    fn the_ply_cap_is_decided_as_each_game_says() {
        use crate::games::{EndReason, Outcome};
        let cases = [
            // X 1 piece, O 2: O wins.
            (
                Variant::Ataxx(AtaxxRules::default()),
                "7/7/7/7/6o/7/x2o3 x 0 1",
                Some(Side::Second),
            ),
            // Equal counts: a draw.
            (
                Variant::Ataxx(AtaxxRules::default()),
                "x5o/7/7/7/7/7/o5x x 0 1",
                None,
            ),
            // The rules file's worked example 2: White 3 home, Black 0.
            (
                Variant::Stones(StonesRules),
                "W:a8,c7,e8,f8*,g7,h8 B:b8,d8* w",
                Some(Side::First),
            ),
            // Mill: White 6 on the board, Black 3, still a draw.
            (
                Variant::Mill(MillRules::default()),
                "O*O*O*O*/@*@*****/O*O*@*** w m s 6 0 3 0 0 0 0 0 0 0 0 0 1",
                None,
            ),
        ];
        for (variant, start, winner) in cases {
            let mut r = AnyRecord::restore(&variant, start, [""; 0]).unwrap();
            assert_eq!(r.outcome(), None, "{start}");
            r.ply_limit();
            assert_eq!(
                r.outcome(),
                Some(Outcome {
                    winner,
                    reason: EndReason::PlyLimit
                }),
                "{start}"
            );
            // Once over, nothing changes it.
            r.ply_limit();
            r.agree_draw();
            assert_eq!(r.outcome().map(|o| o.winner), Some(winner), "{start}");
        }
    }

    #[test]
    fn a_record_of_a_known_game_converts() {
        let r = Record::new(Mill::start(&MillRules::default()));
        let any = AnyRecord::from(r.clone());
        assert_eq!(any, AnyRecord::Mill(r));
        assert_eq!(any, AnyRecord::new(&Mill::variant(&MillRules::default())));
    }
}
