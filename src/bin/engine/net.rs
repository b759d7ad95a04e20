//! `--net FILE|none` (Territory Duel's `uai`, `datagen` and `bench`): the
//! network this process plays with instead of the built-in one.

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
