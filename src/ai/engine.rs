//! What the engine tools need of each game of the list
//! ([`crate::games::list`]) beyond its search: the game as the text
//! protocols speak it, its trainable tables, its `--eval` weights, the
//! random plies `datagen` opens with and the `bench` positions. One trait,
//! implemented beside each game's evaluation (`ai/eval/<game>.rs`), so the
//! command line (`engine perft|bench|match|duel|book|datagen|train|uai|uci`)
//! and the duel referee call one generic function per command through
//! [`crate::with_game!`] instead of a `match` per game.
//!
//! Every engine tool plays a game's default rules (`Game::Rules::default()`:
//! Territory Duel with the pass rule, Nine Men's Morris, Stones!); `perft
//! --rules` picks a named preset ([`crate::games::Game::presets`]).

use super::train::TableModel;
use super::uci::ProtocolGame;
use super::Evaluate;
use crate::games::any::VariantGame;

/// A game the engine command line and the duel referee play.
pub trait EngineGame: Evaluate + VariantGame + Send + Sync + 'static {
    /// The game as `engine uai` / `engine uci GAME` speaks it (Territory
    /// Duel: [`crate::games::ataxx::uai::UaiAtaxx`], with the UAI move
    /// limit).
    type Speaks: ProtocolGame<Move: Send> + Send + 'static;
    /// The weight tables `engine train` fits.
    type Tables: TableModel;
    /// The random plies `engine datagen` plays before searching, by
    /// default.
    const DATAGEN_RANDOM_PLIES: usize;
    /// The depth `engine bench` searches each of
    /// [`EngineGame::bench_positions`] to.
    const BENCH_DEPTH: u32;

    /// The positions `engine bench` searches: the start and a few middle
    /// games.
    fn bench_positions() -> Vec<Self>;
    /// The built-in hand-written weights of the tables.
    fn hand_weights() -> Vec<(i16, i16)>;
    /// Reads a weights file (as `engine train` writes it).
    fn read_weights_file(bytes: &[u8]) -> Result<Vec<(i16, i16)>, String>;
    /// Writes `weights` as a weights file.
    fn weights_file(weights: &[(i16, i16)]) -> Vec<u8>;
    /// Makes `weights` this process's evaluation instead of the built-in
    /// ones.
    fn use_weights(weights: &[(i16, i16)]) -> Result<(), String>;
}

/// Makes `eval` ("hand" or a weights file) the evaluation of `G` for this
/// process instead of the built-in weights (`--eval` of `uai`, `uci` and
/// `datagen`).
pub fn use_eval<G: EngineGame>(eval: &str) -> Result<(), String> {
    if eval == "hand" {
        return G::use_weights(&G::hand_weights());
    }
    let bytes = std::fs::read(eval).map_err(|e| format!("cannot read {eval}: {e}"))?;
    let weights = G::read_weights_file(&bytes).map_err(|e| format!("{eval}: {e}"))?;
    G::use_weights(&weights)
}
