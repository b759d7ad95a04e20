//! Stones! property tests over random playouts (seeded xorshift, so every
//! run plays the same games): the engine's moves are exactly the legal ones
//! (checked against the independent reference generator and by trying
//! `play` on every from/to/jumped combination), position text round-trips,
//! stones are never lost, pins change only on jumped stones, the hash agrees
//! with a reparsed position, perft's move count agrees with the move list,
//! and every game ends.

#[path = "stones_ref/mod.rs"]
mod stones_ref;

use std::collections::BTreeSet;

use stoneplay::games::stones::{square_name, Square, Stones, StonesMove, StonesRules};
use stoneplay::games::{Game, GameError, Outcome, Side};
use stones_ref::{move_text, RefBoard};

/// xorshift64*: small, seeded, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A proven bound on the length of a game from the start. Every diagonal
/// move takes a stone at least one rank forward: at most 16 stones x 7
/// ranks = 112 of them. A sideways jump reads and writes one rank only, and
/// one rank allows at most 4 sideways jumps in a row (stones_rules.rs,
/// `sideways_jumps_alone_never_repeat_a_rank`, checks all 5^8 rank
/// contents). A diagonal move changes at most 3 ranks (left, entered, and
/// the jumped stone's), each of which may then see 4 more sideways jumps.
/// So: 112 + 8 x 4 + 112 x 3 x 4 = 1488 plies.
const MAX_PLIES: usize = 112 + 8 * 4 + 112 * 3 * 4;

fn texts(moves: &[StonesMove]) -> BTreeSet<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Candidate jumped squares for a landing square: none, or any neighbour.
fn jumped_options(to: Square) -> Vec<Option<Square>> {
    let mut out = vec![None];
    let (f, r) = ((to % 8) as i32, (to / 8) as i32);
    for df in -1..=1 {
        for dr in -1..=1 {
            let (nf, nr) = (f + df, r + dr);
            if (df, dr) != (0, 0) && (0..8).contains(&nf) && (0..8).contains(&nr) {
                out.push(Some((nr * 8 + nf) as Square));
            }
        }
    }
    out
}

/// `play` succeeds exactly for the generated moves, for every combination
/// of a `from` in `froms`, any `to` and any plausible jumped square; a
/// refused move leaves the position unchanged.
fn check_play_iff_generated(p: &Stones, froms: impl Iterator<Item = Square>) {
    let legal: BTreeSet<(Square, Square, Option<Square>)> = p
        .legal_moves()
        .iter()
        .map(|m| (m.from, m.to, m.jumped))
        .collect();
    for from in froms {
        for to in 0..64 {
            // Off every line through `from`, no move can exist: try just two
            // options there (a slide and one jump) to keep the test quick.
            let df = (to % 8) as i32 - (from % 8) as i32;
            let dr = (to / 8) as i32 - (from / 8) as i32;
            let mut options = jumped_options(to);
            if !(dr == 0 || df.abs() == dr.abs()) {
                options.truncate(2);
            }
            for jumped in options {
                let mv = StonesMove { from, to, jumped };
                let mut q = *p;
                let ok = q.play(mv).is_ok();
                assert_eq!(
                    ok,
                    legal.contains(&(from, to, jumped)),
                    "{} in {}",
                    mv,
                    p.to_text()
                );
                if !ok {
                    assert_eq!(q, *p, "a refused {mv} changed the position");
                }
            }
        }
    }
}

/// Checks the engine's moves against the reference generator.
fn check_against_reference(p: &Stones) {
    let reference = RefBoard::parse(&p.to_text());
    let ours = texts(&p.legal_moves());
    let theirs: BTreeSet<String> = reference.moves().into_iter().map(move_text).collect();
    assert_eq!(ours, theirs, "moves of {}", p.to_text());
    assert_eq!(p.legal_moves().len(), theirs.len(), "no duplicates");
    // moves_from, square by square, is the same list.
    let per_square: Vec<StonesMove> = (0..64).flat_map(|s| p.moves_from(s)).collect();
    assert_eq!(texts(&per_square), ours);
    assert_eq!(per_square.len(), ours.len());
}

fn stone_count(p: &Stones, side: Side) -> usize {
    (0..64)
        .filter(|&s| matches!(p.stone_at(s), Some((o, _)) if o == side))
        .count()
}

/// Plays one random game from the start, checking every property at every
/// ply; returns its length.
fn random_game(seed: u64, exhaustive: bool) -> usize {
    let mut rng = Rng::new(seed);
    let mut p = Stones::start(&StonesRules);
    let mut reference = RefBoard::parse(&p.to_text());
    for ply in 0..MAX_PLIES {
        // Text round-trip, hash consistent with the reparsed position.
        let text = p.to_text();
        let reparsed = Stones::from_text(&text, &StonesRules).unwrap();
        assert_eq!(reparsed, p);
        assert_eq!(reparsed.to_text(), text);
        assert_eq!(reparsed.hash(), p.hash());
        // The engine's position equals the reference's after the same moves.
        assert_eq!(text, reference.text(), "seed {seed} ply {ply}");
        // Eight stones a side, always.
        assert_eq!(stone_count(&p, Side::First), 8);
        assert_eq!(stone_count(&p, Side::Second), 8);

        check_against_reference(&p);
        if exhaustive || ply % 40 == 0 {
            check_play_iff_generated(&p, (0..64).filter(|&s| p.stone_at(s).is_some()));
        }

        let moves = p.legal_moves();
        assert_eq!(p.count_legal_moves(&mut Vec::new()), moves.len() as u64);
        if moves.is_empty() {
            let expected = Outcome::by_count(
                p.score(Side::First),
                p.score(Side::Second),
                stoneplay::games::EndReason::NoLegalMove,
            );
            assert_eq!(p.outcome(), Some(expected));
            let mut q = p;
            let any = StonesMove {
                from: 0,
                to: 9,
                jumped: None,
            };
            assert_eq!(q.play(any), Err(GameError::GameOver));
            return ply;
        }
        assert_eq!(p.outcome(), None);

        let mv = moves[rng.below(moves.len())];
        // Notation round-trip through the position's parser.
        assert_eq!(p.parse_move(&mv.to_string()), Ok(mv));
        assert_eq!(
            p.is_irreversible(mv),
            mv.from / 8 != mv.to / 8,
            "irreversible iff the move goes forward"
        );

        let before = p;
        let mover = before.stone_at(mv.from).unwrap();
        assert_eq!(
            mover,
            (before.side_to_move(), false),
            "only unpinned stones of the side to move move"
        );
        p.play(mv).unwrap();
        reference = reference.after((mv.from, mv.to, mv.jumped));

        // Pins change only on the jumped stone, as the rules say; the mover
        // arrives unchanged; nothing else moves.
        for s in 0..64u8 {
            let (old, new) = (before.stone_at(s), p.stone_at(s));
            if s == mv.from {
                assert_eq!(new, None);
            } else if s == mv.to {
                assert_eq!(old, None);
                assert_eq!(new, Some(mover));
            } else if Some(s) == mv.jumped {
                let (owner, _) = old.expect("a jumped square holds a stone");
                let pinned = owner != before.side_to_move();
                assert_eq!(new, Some((owner, pinned)), "jumped {}", square_name(s));
                assert_ne!(old, new, "a jump always changes the jumped stone's pin");
            } else {
                assert_eq!(old, new, "{} changed on {mv}", square_name(s));
            }
        }
        assert_eq!(p.side_to_move(), before.side_to_move().opponent());
    }
    panic!("seed {seed}: the game did not end within {MAX_PLIES} plies");
}

#[test]
fn random_playouts_from_the_start() {
    let mut longest = 0;
    let mut total = 0;
    let games = 300;
    for seed in 0..games {
        let plies = random_game(seed, seed < 3);
        longest = longest.max(plies);
        total += plies;
    }
    println!(
        "{games} games, {total} plies, longest {longest}, average {:.1}",
        total as f64 / games as f64
    );
    assert!(total > games as usize * 10, "the games actually got played");
}

/// A random position: stones anywhere, some pinned, either side to move.
fn random_position(rng: &mut Rng) -> Stones {
    let mut white = Vec::new();
    let mut black = Vec::new();
    let density = 4 + rng.below(40);
    for s in 0..64u8 {
        if rng.below(100) < density {
            let name = format!(
                "{}{}",
                square_name(s),
                if rng.below(3) == 0 { "*" } else { "" }
            );
            if rng.below(2) == 0 {
                white.push(name);
            } else {
                black.push(name);
            }
        }
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let text = format!("W:{} B:{} {side}", white.join(","), black.join(","));
    let p = Stones::from_text(&text, &StonesRules).unwrap();
    assert_eq!(p.to_text(), text, "random text is canonical");
    p
}

#[test]
fn random_positions_generate_exactly_the_legal_moves() {
    let mut rng = Rng::new(0xD1CE);
    let mut with_jumps = 0;
    for i in 0..400 {
        let p = random_position(&mut rng);
        check_against_reference(&p);
        if i < 40 {
            check_play_iff_generated(&p, 0..64);
        }
        if p.legal_moves().iter().any(|m| m.jumped.is_some()) {
            with_jumps += 1;
        }
        // Outcome is decided by the side to move alone; perft's count agrees.
        assert_eq!(p.outcome().is_none(), !p.legal_moves().is_empty());
        assert_eq!(
            p.count_legal_moves(&mut Vec::new()),
            p.legal_moves().len() as u64
        );
        // Hash agrees with a reparsed copy and changes with the side.
        let again = Stones::from_text(&p.to_text(), &StonesRules).unwrap();
        assert_eq!(again.hash(), p.hash());
        let text = p.to_text();
        let (lists, side) = text.split_at(text.len() - 1);
        let flipped = format!("{lists}{}", if side == "w" { "b" } else { "w" });
        let other = Stones::from_text(&flipped, &StonesRules).unwrap();
        assert_ne!(other.hash(), p.hash());
        // Play a few plies from it against the reference.
        let mut q = p;
        let mut reference = RefBoard::parse(&q.to_text());
        for _ in 0..30 {
            let moves = q.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            q.play(mv).unwrap();
            reference = reference.after((mv.from, mv.to, mv.jumped));
            assert_eq!(q.to_text(), reference.text());
            check_against_reference(&q);
        }
    }
    assert!(with_jumps > 100, "jumps got exercised: {with_jumps}");
}

/// Applies a few random character edits (delete, insert, replace).
fn mangle(rng: &mut Rng, text: &str, alphabet: &[char]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(chars.len() + 1);
        let c = alphabet[rng.below(alphabet.len())];
        match rng.below(3) {
            0 if at < chars.len() => {
                chars.remove(at);
            }
            1 if at < chars.len() => chars[at] = c,
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mangled_text_never_panics() {
    // Valid texts with random edits: an error or a value, never a panic;
    // whatever is accepted round-trips.
    let mut rng = Rng::new(42);
    let alphabet: Vec<char> = "WBwbx-*:, a1h8i9\u{e9}0\t".chars().collect();
    let positions = [
        stoneplay::games::stones::START_POSITION,
        "W:a1,b2*,c3 B:e5,f6* w",
        "W: B:a8 b",
    ];
    let moves = ["c3-e5", "c3xf6-g7", "d4xe4-f4"];
    let start = Stones::start(&StonesRules);
    let (mut positions_ok, mut positions_bad, mut moves_ok, mut moves_bad) = (0, 0, 0, 0);
    for i in 0..20_000 {
        let text = mangle(&mut rng, positions[i % positions.len()], &alphabet);
        match Stones::from_text(&text, &StonesRules) {
            Ok(p) => {
                positions_ok += 1;
                assert_eq!(Stones::from_text(&p.to_text(), &StonesRules), Ok(p));
            }
            Err(e) => {
                positions_bad += 1;
                assert!(
                    matches!(e, GameError::BadPosition(ref m) if !m.detail.is_empty()),
                    "{text:?}"
                );
            }
        }
        let text = mangle(&mut rng, moves[i % moves.len()], &alphabet);
        match start.parse_move(&text) {
            Ok(mv) => {
                moves_ok += 1;
                assert_eq!(mv.to_string().parse::<StonesMove>(), Ok(mv));
                let mut q = start;
                let _ = q.play(mv);
            }
            Err(e) => {
                moves_bad += 1;
                assert!(
                    matches!(e, GameError::BadMove(ref m) if !m.is_empty()),
                    "{text:?}"
                );
            }
        }
    }
    println!(
        "positions {positions_ok} ok / {positions_bad} bad, moves {moves_ok} ok / {moves_bad} bad"
    );
    assert!(positions_ok > 100 && positions_bad > 100 && moves_ok > 100 && moves_bad > 100);
}
