//! Stones! perft: the engine's counts against a second, independent
//! square-by-square generator (`stones_ref`), since no published numbers
//! exist. Depths 1-4 from the start and from every worked-example position.
//!
//! Depth 5 from the start, with timing, is an ignored test meant for a
//! release build:
//! `cargo test --release --test stones_perft -- --ignored --nocapture`.

#[path = "stones_ref/mod.rs"]
mod stones_ref;

use std::time::Instant;

use stoneplay::games::stones::{Stones, StonesRules, START_POSITION};
use stoneplay::games::{perft, perft_divide, Game};
use stones_ref::{ref_perft, RefBoard};

/// The start and the worked examples of shared/rules/stones.md.
const POSITIONS: [&str; 7] = [
    START_POSITION,
    "W:a1,b2*,c1,c3,g2,h4 B:a5,e4*,f6,g5* w",
    "W:a8,c7,e8,f8*,g7,h8 B:b8,d8* w",
    "W:a8,c7,e8,f8*,g7,h8 B:b8,d8* b",
    "W:b1,c4,d1,d2* B:a2,c1,d5,e4*,h6 b",
    "W:a8,c8,e8*,g3* B:b1,d1*,f5 w",
    "W:a8,c8,e8*,g3* B:b1,d1*,f5,h1 w",
];

fn pos(text: &str) -> Stones {
    Stones::from_text(text, &StonesRules).expect("test position parses")
}

#[test]
fn perft_agrees_with_reference_generator_depth_1_to_4() {
    for text in POSITIONS {
        let engine = pos(text);
        let reference = RefBoard::parse(text);
        let mut counts = Vec::new();
        for depth in 1..=4 {
            let ours = perft(&engine, depth);
            let theirs = ref_perft(&reference, depth);
            assert_eq!(ours, theirs, "perft({depth}) of {text}");
            counts.push(ours);
        }
        println!("{text}: perft 1-4 = {counts:?}");
    }
}

#[test]
fn start_position_perft_1_to_4() {
    // Depth 1 by hand: each stone on rank 1 sees 7 squares on its forward
    // diagonals, less the far ends of the two long diagonals (a8, h8), which
    // hold Black stones that cannot be jumped (the landing is off the board).
    let start = Stones::start(&StonesRules);
    assert_eq!(perft(&start, 1), 8 * 7 - 2);
    // Deeper values as computed by both generators (see the test above),
    // kept so that a change to both at once still gets noticed.
    assert_eq!(perft(&start, 2), 2_838);
    assert_eq!(perft(&start, 3), 137_620);
    assert_eq!(perft(&start, 4), 6_490_676);
}

#[test]
fn perft_divide_sums_to_perft() {
    for text in POSITIONS {
        let p = pos(text);
        let divided: u64 = perft_divide(&p, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(divided, perft(&p, 3), "{text}");
    }
}

#[test]
fn finished_position_has_perft_zero() {
    // Worked example 4: White has no move.
    let p = pos(POSITIONS[5]);
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(perft(&p, 3), 0);
    assert_eq!(perft(&p, 0), 1);
}

#[test]
#[ignore = "slow in debug builds: run with --release -- --ignored --nocapture"]
fn perft_5_from_start_timed() {
    let start = Stones::start(&StonesRules);
    for depth in 1..=5 {
        let t = Instant::now();
        let n = perft(&start, depth);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "perft({depth}) = {n}  [{secs:.3} s, {:.1} Mnodes/s]",
            n as f64 / secs.max(1e-9) / 1e6
        );
    }
    let t = Instant::now();
    let reference = ref_perft(&RefBoard::parse(START_POSITION), 5);
    println!(
        "reference perft(5) = {reference}  [{:.3} s]",
        t.elapsed().as_secs_f64()
    );
    assert_eq!(perft(&start, 5), reference);
}
