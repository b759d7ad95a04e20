//! One SVG component per game, plus the geometry they share.

pub mod ataxx;

/// Size of one square (or grid step) in board units; boards are drawn in a
/// viewBox of `N * CELL` units and scale with the page.
pub const CELL: f64 = 100.0;

/// The grid cell `(column, row)` under a point in board units (row 0 at the
/// top), or `None` when the point is off an `n`×`n` board.
pub fn client_to_cell(x: f64, y: f64, n: u8) -> Option<(i32, i32)> {
    let size = f64::from(n) * CELL;
    if !(0.0..size).contains(&x) || !(0.0..size).contains(&y) {
        return None;
    }
    Some(((x / CELL) as i32, (y / CELL) as i32))
}
