//! Perft: the rules file's start-position table and the libataxx suite
//! (`tests/data/ataxx_perft.txt`), all in pass mode.
//!
//! Every depth of every position is checked (a couple of seconds even in a
//! debug build: leaves are counted by move-list length).

use stoneplay::games::ataxx::{Ataxx, AtaxxRules, START_FEN};
use stoneplay::games::{perft, Game};

struct Case {
    line: usize,
    fen: String,
    counts: Vec<u64>,
}

fn suite() -> Vec<Case> {
    let text = include_str!("data/ataxx_perft.txt");
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().expect("a FEN").trim().to_string();
        let counts: Vec<u64> = parts
            .map(|p| {
                p.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("line {}: bad count '{p}'", i + 1))
            })
            .collect();
        assert!(!counts.is_empty(), "line {}: no counts", i + 1);
        cases.push(Case {
            line: i + 1,
            fen,
            counts,
        });
    }
    cases
}

#[test]
fn perft_suite() {
    let cases = suite();
    assert_eq!(cases.len(), 20, "the libataxx suite has 20 positions");
    let mut checked = 0;
    for case in &cases {
        let pos = Ataxx::from_text(&case.fen, &AtaxxRules::default())
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        assert_eq!(perft(&pos, 0), 1);
        for (i, &expected) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(
                perft(&pos, depth),
                expected,
                "line {}: {} at depth {depth}",
                case.line,
                case.fen
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 96, "(position, depth) pairs in the suite");
}

#[test]
fn start_position_table_from_rules_file() {
    let pos = Ataxx::start(&AtaxxRules::default());
    assert_eq!(pos.to_text(), START_FEN);
    let table = [16u64, 256, 6460, 155_888];
    for (i, &n) in table.iter().enumerate() {
        assert_eq!(perft(&pos, i as u32 + 1), n, "depth {}", i + 1);
    }
}

#[test]
fn start_position_depth5_from_rules_file() {
    let pos = Ataxx::start(&AtaxxRules::default());
    assert_eq!(perft(&pos, 5), 4_752_668);
}
