//! Any one of the three games, chosen at run time (like shakmaty's
//! `Variant` and `VariantPosition`).
//!
//! Code that knows its game at compile time stays generic over
//! [`Game`](super::Game); code that learns it from data (a link, a stored
//! game, a message) holds a [`Variant`] (which game, with its rules) and
//! dispatches once, with a `match`.

use super::ataxx::AtaxxRules;
use super::mill::MillRules;
use super::stones::StonesRules;
use super::GameKind;

/// Which game, with its rules.
///
/// Stored by the server and sent on the wire (the AI worker's and the
/// online protocol's `game`): its serde form is `{"Ataxx":{…}}`,
/// `{"Stones":null}` or `{"Mill":{…}}` and must not change.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    Ataxx(AtaxxRules),
    Stones(StonesRules),
    Mill(MillRules),
}

impl Variant {
    /// The game this is.
    pub fn kind(&self) -> GameKind {
        match self {
            Variant::Ataxx(_) => GameKind::Ataxx,
            Variant::Stones(_) => GameKind::Stones,
            Variant::Mill(_) => GameKind::Mill,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
