//! The square boards' geometry (Territory Duel, Stones!): an `n`×`n`
//! grid, its centres, hit test and coordinate labels, flipped or not.

use leptos::prelude::*;

use super::props::CELL;

/// An `n`×`n` board of squares numbered `rank * n + file`, rank 1 at the
/// bottom (Territory Duel, Stones!), or at the top when `flipped`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub n: u8,
    pub flipped: bool,
}

impl Grid {
    /// Column and row on screen (row 0 at the top) of a square.
    fn screen(self, sq: u8) -> (u8, u8) {
        let n = self.n;
        let (file, rank) = (sq % n, sq / n);
        if self.flipped {
            (n - 1 - file, rank)
        } else {
            (file, n - 1 - rank)
        }
    }

    /// Top-left corner of a square in board units.
    pub fn origin(self, sq: u8) -> (f64, f64) {
        let (col, row) = self.screen(sq);
        (f64::from(col) * CELL, f64::from(row) * CELL)
    }

    /// Centre of a square in board units.
    pub fn centre(self, sq: u8) -> (f64, f64) {
        let (x, y) = self.origin(sq);
        (x + CELL / 2.0, y + CELL / 2.0)
    }

    /// The square under a point in board units.
    pub fn hit(self, x: f64, y: f64) -> Option<u8> {
        let n = self.n;
        cell_at(x, y, n, n).map(|(col, row)| {
            if self.flipped {
                row * n + (n - 1 - col)
            } else {
                (n - 1 - row) * n + col
            }
        })
    }

    /// Width (and height) of the board in board units.
    pub fn size(self) -> f64 {
        f64::from(self.n) * CELL
    }

    /// Whether square `sq` is dark in the checkered pattern (a1 is dark).
    pub fn is_dark(self, sq: u8) -> bool {
        (sq % self.n + sq / self.n).is_multiple_of(2)
    }

    /// The file letter along the bottom edge and the rank number along the
    /// left edge, drawn inside the edge squares (in a layer of their own, so
    /// a square's accessible name is just its label).
    pub fn coord_labels(self, sq: u8) -> impl IntoView {
        let n = self.n;
        let (x, y) = self.origin(sq);
        let (col, row) = self.screen(sq);
        let file = (row == n - 1).then(|| {
            let t = ((b'a' + sq % n) as char).to_string();
            view! { <text class="coord" x=x + CELL - 5.0 y=y + CELL - 5.0 text-anchor="end">{t}</text> }
        });
        let rank = (col == 0).then(|| {
            let t = (sq / n + 1).to_string();
            view! { <text class="coord" x=x + 5.0 y=y + 17.0>{t}</text> }
        });
        (file, rank)
    }
}

/// The grid cell `(column, row)` under a point in board units (row 0 at the
/// top), or `None` when the point is off a `cols`×`rows` grid.
pub fn cell_at(x: f64, y: f64, cols: u8, rows: u8) -> Option<(u8, u8)> {
    let (w, h) = (f64::from(cols) * CELL, f64::from(rows) * CELL);
    if !(0.0..w).contains(&x) || !(0.0..h).contains(&y) {
        return None;
    }
    Some(((x / CELL) as u8, (y / CELL) as u8))
}
