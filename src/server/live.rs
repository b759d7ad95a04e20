//! A game in progress on the server: one [`Record`] of whichever game the
//! room plays, driven by move text, with the online rules applied.

use crate::games::any::Variant;
use crate::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules, NoMoveRule};
use crate::games::mill::Mill;
use crate::games::stones::Stones;
use crate::games::{Game, GameError, Outcome, Record, Side};

/// The game of a room.
#[derive(Clone, Debug)]
pub enum Live {
    Ataxx(Record<Ataxx>),
    Stones(Record<Stones>),
    Mill(Record<Mill>),
}

macro_rules! each {
    ($self:expr, $r:ident => $body:expr) => {
        match $self {
            Live::Ataxx($r) => $body,
            Live::Stones($r) => $body,
            Live::Mill($r) => $body,
        }
    };
}

/// The rules a game is played under online: Territory Duel always with the
/// pass rule; Mill's options must make a playable game.
pub fn online_spec(spec: Variant) -> Result<Variant, String> {
    match spec {
        Variant::Ataxx(_) => Ok(Variant::Ataxx(AtaxxRules {
            no_move: NoMoveRule::Pass,
        })),
        Variant::Mill(rules) => rules
            .validate()
            .map(|()| Variant::Mill(rules))
            .map_err(|e| e.to_string()),
        Variant::Stones(_) => Ok(spec),
    }
}

fn restore<G: Game>(rules: &G::Rules, start: &str, moves: &[String]) -> Result<Record<G>, String> {
    let pos = G::from_text(start, rules).map_err(|e| e.to_string())?;
    Record::from_moves(pos, moves).map_err(|e| e.to_string())
}

impl Live {
    /// A new game from the usual start.
    pub fn new(spec: &Variant) -> Live {
        match spec {
            Variant::Ataxx(r) => Live::Ataxx(Record::new(Ataxx::start(r))),
            Variant::Stones(r) => Live::Stones(Record::new(Stones::start(r))),
            Variant::Mill(r) => Live::Mill(Record::new(Mill::start(r))),
        }
    }

    /// A stored game: its start position and moves, replayed.
    pub fn restore(spec: &Variant, start: &str, moves: &[String]) -> Result<Live, String> {
        Ok(match spec {
            Variant::Ataxx(r) => Live::Ataxx(restore(r, start, moves)?),
            Variant::Stones(r) => Live::Stones(restore(r, start, moves)?),
            Variant::Mill(r) => Live::Mill(restore(r, start, moves)?),
        })
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

    /// Every legal move in the game's notation (the benchmark and tests
    /// pick from these).
    pub fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        each!(self, r => r.position().legal_moves().iter().map(|m| m.to_string()).collect())
    }

    /// Plays a move given as text, then any forced pass that follows.
    /// Returns the moves now on the record, in notation (the move as the
    /// game writes it, then `0000` for a forced pass).
    pub fn play_text(&mut self, text: &str) -> Result<Vec<String>, GameError> {
        let mv = each!(self, r => r.play_text(text).map(|m| m.to_string()))?;
        let mut played = vec![mv];
        if let Live::Ataxx(r) = self {
            while r.outcome().is_none() && r.position().must_pass() {
                r.play(AtaxxMove::Pass)?;
                played.push(AtaxxMove::Pass.to_string());
            }
        }
        Ok(played)
    }

    /// The side to move loses on time.
    pub fn timeout(&mut self) {
        each!(self, r => r.timeout())
    }

    pub fn resign(&mut self, side: Side) {
        each!(self, r => r.resign(side))
    }

    /// The game reached the online ply cap: a draw.
    pub fn ply_limit_draw(&mut self) {
        each!(self, r => r.ply_limit_draw())
    }

    pub fn agree_draw(&mut self) {
        each!(self, r => r.agree_draw())
    }
}
