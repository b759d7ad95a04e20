//! Territory Duel's trainable tables: the pattern tables.

use super::TableModel;
use crate::ai::eval::patterns::{self, FEATURES, MATERIAL};
use crate::games::ataxx::{Ataxx, AtaxxRules};
use crate::games::Game;

/// Territory Duel's pattern tables.
pub struct AtaxxTables;

impl TableModel for AtaxxTables {
    type Features = patterns::Features;
    const FEATURES: usize = FEATURES;

    /// 100 a piece, 8 a safe piece.
    fn start_weights() -> Vec<(i16, i16)> {
        patterns::hand_weights()
    }

    /// Positions with gaps are skipped: the tables are for the open board.
    fn read(fen: &str) -> Result<Option<Self::Features>, String> {
        let pos = Ataxx::from_text(fen, &AtaxxRules::default()).map_err(|e| e.to_string())?;
        if pos.gaps_bb() != 0 {
            return Ok(None);
        }
        let us = pos.side_to_move();
        Ok(Some(canonical_features(
            pos.pieces_bb(us),
            pos.pieces_bb(us.opponent()),
        )))
    }

    fn opening_share(f: &Self::Features) -> f64 {
        f.empties as f64 / patterns::PHASE_SQUARES as f64
    }

    fn active(f: &Self::Features, mut add: impl FnMut(usize, f64)) {
        for (i, &x) in f.scalars.iter().enumerate() {
            add(MATERIAL + i, x as f64);
        }
        for &p in &f.patterns {
            add(p as usize, 1.0);
        }
    }

    fn pulled(feature: usize) -> bool {
        feature < MATERIAL
    }

    fn canonical(feature: usize) -> usize {
        patterns::canonical(feature)
    }
}

/// The features with each pattern replaced by its canonical one, so that
/// mirror-image patterns train one shared weight.
pub(super) fn canonical_features(mine: u64, theirs: u64) -> patterns::Features {
    let mut f = patterns::features(mine, theirs);
    for p in f.patterns.iter_mut() {
        *p = patterns::canonical(*p as usize) as u32;
    }
    f
}
