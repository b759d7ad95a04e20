//! Stones!' trainable tables: the stone tables.

use super::TableModel;
use crate::ai::eval::stones as stone_tables;
use crate::games::stones::{Stones, StonesRules};
use crate::games::Game;

/// Stones!' stone tables.
pub struct StonesTables;

impl TableModel for StonesTables {
    type Features = stone_tables::Features;
    const FEATURES: usize = stone_tables::FEATURES;

    fn start_weights() -> Vec<(i16, i16)> {
        stone_tables::hand_weights()
    }

    fn read(fen: &str) -> Result<Option<Self::Features>, String> {
        let pos = Stones::from_text(fen, &StonesRules).map_err(|e| e.to_string())?;
        Ok(Some(stone_tables::features(&pos)))
    }

    fn opening_share(f: &Self::Features) -> f64 {
        f.opening_share()
    }

    fn active(f: &Self::Features, mut add: impl FnMut(usize, f64)) {
        for &i in f.stones() {
            add(i as usize, 1.0);
        }
        add(stone_tables::TEMPO, 1.0);
    }

    fn pulled(feature: usize) -> bool {
        feature != stone_tables::TEMPO
    }
}
