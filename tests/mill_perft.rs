//! Perft from the rules file (Sanmill's counting: a removal is its own ply).

use stoneplay::games::mill::{Mill, MillRules, Preset};
use stoneplay::games::{perft, perft_divide, Game};

/// Nine Men's Morris from the start position: (depth, leaf count).
const NINE_MENS_MORRIS: [(u32, u64); 6] = [
    (1, 24),
    (2, 552),
    (3, 12_144),
    (4, 255_024),
    (5, 5_100_480),
    (6, 96_223_680),
];

#[test]
fn nine_mens_morris_start_perft_to_depth_5() {
    let pos = Mill::start(&MillRules::default());
    for &(depth, expected) in NINE_MENS_MORRIS.iter().filter(|(d, _)| *d <= 5) {
        assert_eq!(perft(&pos, depth), expected, "depth {depth}");
    }
}

/// Slow in debug builds: run with `cargo test --release -- --ignored`.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn nine_mens_morris_start_perft_depth_6() {
    let pos = Mill::start(&MillRules::default());
    let (depth, expected) = NINE_MENS_MORRIS[5];
    let start = std::time::Instant::now();
    assert_eq!(perft(&pos, depth), expected);
    eprintln!("perft 6: {:?}", start.elapsed());
}

#[test]
fn divide_sums_to_perft() {
    let pos = Mill::start(&MillRules::default());
    let split = perft_divide(&pos, 3);
    assert_eq!(split.len(), 24);
    assert!(split.iter().all(|&(_, n)| n == 23 * 22));
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 12_144);
}

/// Placing without removals gives falling factorials of the empty points;
/// from depth 5 on, a mill by the first player adds removal plies.
#[test]
fn other_presets_small_perft() {
    for preset in Preset::ALL
        .into_iter()
        .filter(|&p| p != Preset::LaskerMorris)
    {
        let pos = Mill::start(&preset.rules());
        assert_eq!(perft(&pos, 1), 24, "{preset:?}");
        assert_eq!(perft(&pos, 3), 24 * 23 * 22, "{preset:?}");
        assert_eq!(perft(&pos, 4), 24 * 23 * 22 * 21, "{preset:?}");
    }
}

/// Depth 6 with the first player's mill at ply 5: `mills × 3! × 21 × 20`
/// sequences where the sixth ply is one of two removals instead of one of
/// 19 placements.
#[test]
fn depth_6_mill_correction_matches_line_count() {
    for preset in [Preset::NineMensMorris, Preset::TwelveMensMorris] {
        let rules = preset.rules();
        let mills = stoneplay::games::mill::lines(rules.diagonal_lines).len() as u64;
        let mill_paths = mills * 6 * 21 * 20;
        let d5 = 24 * 23 * 22 * 21 * 20;
        let expected = (d5 - mill_paths) * 19 + mill_paths * 2;
        if preset == Preset::NineMensMorris {
            assert_eq!(expected, 96_223_680);
        } else if !cfg!(debug_assertions) {
            assert_eq!(perft(&Mill::start(&rules), 6), expected);
        }
    }
}

/// Lasker Morris may slide during placing: at ply 3 White either places
/// (22 ways) or slides its piece to an empty neighbour. Summed over all
/// first two placements that is `24·23·22 + 22·Σdeg` with `Σdeg = 2·32`
/// (16 lines, two edges each).
#[test]
fn lasker_slides_in_placing_perft() {
    let pos = Mill::start(&Preset::LaskerMorris.rules());
    assert_eq!(perft(&pos, 1), 24);
    assert_eq!(perft(&pos, 2), 24 * 23);
    assert_eq!(perft(&pos, 3), 24 * 23 * 22 + 22 * 64);
}
