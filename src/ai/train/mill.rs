//! Mill's trainable tables: the term tables (Nine Men's Morris).

use super::TableModel;
use crate::ai::eval::mill as mill_tables;
use crate::games::mill::{Mill, Preset};
use crate::games::Game;

/// Mill's term tables (Nine Men's Morris positions).
pub struct MillTables;

impl TableModel for MillTables {
    type Features = mill_tables::Features;
    const FEATURES: usize = mill_tables::FEATURES;

    fn start_weights() -> Vec<(i16, i16)> {
        mill_tables::hand_weights()
    }

    fn read(fen: &str) -> Result<Option<Self::Features>, String> {
        let pos =
            Mill::from_text(fen, &Preset::NineMensMorris.rules()).map_err(|e| e.to_string())?;
        Ok(Some(mill_tables::features(&pos)))
    }

    fn opening_share(f: &Self::Features) -> f64 {
        f.opening_share()
    }

    fn active(f: &Self::Features, mut add: impl FnMut(usize, f64)) {
        for (i, &v) in f.values.iter().enumerate() {
            if v != 0 {
                add(i, v as f64);
            }
        }
    }

    /// Every term is a count the position always has: none is pulled.
    fn pulled(_feature: usize) -> bool {
        false
    }
}
