//! A player's rating history as a small SVG line (issue 37): the points
//! `[ms, rating]` the server sends (oldest first, at most 200 a game),
//! spread evenly left to right (one step a rated game, as lichess draws
//! its small charts: a burst of games in one evening stays readable) and
//! scaled between the lowest and highest rating, with a margin so a flat
//! history is a line across the middle.

/// The chart's drawing: an SVG path in a `width` × `height` box and the
/// rating range it spans (for the axis labels).
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// `M x y L x y …`, one vertex a point.
    pub path: String,
    /// The last point (drawn as a dot).
    pub last: (f64, f64),
    pub low: u64,
    pub high: u64,
}

/// The chart of `points` in a `width` × `height` box (`pad` inside each
/// edge); `None` when there is nothing to draw.
pub fn rating_chart(points: &[[u64; 2]], width: f64, height: f64, pad: f64) -> Option<Chart> {
    let first = points.first()?;
    let (mut low, mut high) = (first[1], first[1]);
    for p in points {
        low = low.min(p[1]);
        high = high.max(p[1]);
    }
    // At least 100 points of rating shown, centred on the history.
    if high - low < 100 {
        let mid = (high + low) / 2;
        low = mid.saturating_sub(50);
        high = low + 100;
    }
    let span = (high - low) as f64;
    let (w, h) = (width - 2.0 * pad, height - 2.0 * pad);
    let step = if points.len() > 1 {
        w / (points.len() - 1) as f64
    } else {
        0.0
    };
    let at = |i: usize, r: u64| {
        let x = pad
            + if points.len() > 1 {
                step * i as f64
            } else {
                w / 2.0
            };
        let y = pad + h - (r.saturating_sub(low)) as f64 / span * h;
        (x, y)
    };
    let mut path = String::new();
    for (i, p) in points.iter().enumerate() {
        let (x, y) = at(i, p[1]);
        path.push_str(&format!("{}{x:.1} {y:.1}", if i == 0 { "M" } else { " L" }));
    }
    let last = at(points.len() - 1, points[points.len() - 1][1]);
    Some(Chart {
        path,
        last,
        low,
        high,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_spans_the_box_from_its_lowest_to_its_highest_rating() {
        let c = rating_chart(&[[1, 1500], [2, 1662], [3, 1400]], 100.0, 60.0, 5.0).unwrap();
        assert_eq!((c.low, c.high), (1400, 1662));
        assert_eq!(c.path, "M5.0 35.9 L50.0 5.0 L95.0 55.0");
        assert_eq!(c.last, (95.0, 55.0));
    }

    #[test]
    fn one_point_or_a_flat_line_sits_in_the_middle_and_nothing_draws_nothing() {
        let c = rating_chart(&[[1, 1500]], 100.0, 60.0, 5.0).unwrap();
        assert_eq!((c.low, c.high), (1450, 1550));
        assert_eq!(c.path, "M50.0 30.0");
        let c = rating_chart(&[[1, 1500], [2, 1500]], 100.0, 60.0, 5.0).unwrap();
        assert_eq!(c.path, "M5.0 30.0 L95.0 30.0");
        assert_eq!(rating_chart(&[], 100.0, 60.0, 5.0), None);
        // A rating near 0 does not wrap.
        let c = rating_chart(&[[1, 10]], 100.0, 60.0, 5.0).unwrap();
        assert_eq!((c.low, c.high), (0, 100));
    }
}
