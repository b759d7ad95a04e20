//! `--eval hand|FILE` (for `uai`, `uci` and `datagen`) and `--net
//! FILE|none` (Territory Duel's `uai` and `datagen`): the weights this
//! process plays with instead of the built-in ones.

use stoneplay::ai::duel::DuelGame;

/// Makes `eval` ("hand" or a weights file) the evaluation of `game` for
/// this process instead of the built-in weights.
pub fn use_eval(game: DuelGame, eval: &str) -> Result<(), String> {
    use stoneplay::ai::eval::{mill, patterns, stones};
    type Parse = fn(&[u8]) -> Result<Vec<(i16, i16)>, String>;
    let read = |parse: Parse| {
        let bytes = std::fs::read(eval).map_err(|e| format!("cannot read {eval}: {e}"))?;
        parse(&bytes).map_err(|e| format!("{eval}: {e}"))
    };
    match game {
        DuelGame::Ataxx if eval == "hand" => patterns::use_weights(&patterns::hand_weights()),
        DuelGame::Ataxx => patterns::use_weights(&read(patterns::read_weights_file)?),
        DuelGame::Stones if eval == "hand" => stones::use_weights(&stones::hand_weights()),
        DuelGame::Stones => stones::use_weights(&read(stones::read_weights_file)?),
        DuelGame::Mill if eval == "hand" => mill::use_weights(&mill::hand_weights()),
        DuelGame::Mill => mill::use_weights(&read(mill::read_weights_file)?),
    }
}

/// Makes `net` (a net file, or `none` for the pattern tables) Territory
/// Duel's evaluation at Strong and Master for this process.
pub fn use_net(net: &str) -> Result<(), String> {
    use stoneplay::ai::eval::nnue;
    if net == "none" {
        nnue::disable();
        return Ok(());
    }
    let bytes = std::fs::read(net).map_err(|e| format!("cannot read {net}: {e}"))?;
    nnue::use_net(&bytes).map_err(|e| format!("{net}: {e}"))
}
