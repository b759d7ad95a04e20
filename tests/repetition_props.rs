//! Repetition, for every game: the game record's end by repetition (which
//! keeps only the positions since the last irreversible move) must agree
//! with a naive count over the whole history of positions, compared by
//! their text without the move counters, and its result with the rules
//! files read off the position's text (Territory Duel: more pieces wins,
//! equal counts draw; Mill: a draw). Random games with fixed seeds,
//! biased towards moves that bring back a position already seen (and, in
//! Territory Duel, towards jumps) so that repetitions happen often.
//!
//! Checked at every ply:
//! - the record ends by repetition exactly when the current position has
//!   occurred three times in the whole game (and the rules have the
//!   repetition rule and the position is not over by itself), with the
//!   winner the game's verdict names;
//! - no position from before an irreversible move ever occurs after it;
//! - two positions of a game have the same hash exactly when they are the
//!   same position.

use std::collections::HashMap;

use stoneplay::ai::SplitMix64;
use stoneplay::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules, NoMoveRule};
use stoneplay::games::mill::{Mill, MillRules, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{EndReason, Game, Record, Side};

/// The position's identity: its text without the counters that the rules
/// leave out of "the same position" (Territory Duel: the jump counter and
/// move number; Mill: the n-move counter and move number).
fn key<G: Game>(pos: &G, counters: usize) -> String {
    let text = pos.to_text();
    let fields: Vec<&str> = text.split_whitespace().collect();
    fields[..fields.len() - counters].join(" ")
}

#[derive(Default, Debug)]
struct Tally {
    games: usize,
    plies: usize,
    repetitions: usize,
    /// Repetitions that someone won (the rest were draws).
    won: usize,
    irreversible: usize,
    /// The most times one position occurred in one game.
    max_count: usize,
}

/// How likely a move is in the random games: the position, the move and
/// the moves played so far.
type Weight<G> = dyn Fn(&G, <G as Game>::Move, &[<G as Game>::Move]) -> u64;

/// The winner of a game ended by repetition, read off the position's text
/// as the rules file says (`None`: a draw).
type Verdict = dyn Fn(&str) -> Option<Side>;

/// Territory Duel: the side with more pieces on the board (the FEN's first
/// field) wins; equal counts draw.
fn more_pieces(text: &str) -> Option<Side> {
    let board = text.split(' ').next().unwrap();
    let count = |c| board.chars().filter(|&ch| ch == c).count();
    let (x, o) = (count('x'), count('o'));
    match x.cmp(&o) {
        std::cmp::Ordering::Greater => Some(Side::First),
        std::cmp::Ordering::Less => Some(Side::Second),
        std::cmp::Ordering::Equal => None,
    }
}

/// Mill (and any game where the count decides nothing): a draw.
fn draw(_: &str) -> Option<Side> {
    None
}

/// Plays one seeded game from `start`. `weight` scores a move for the
/// random choice (0 = never), given the moves so far; moves back to a
/// position already seen get four times their weight.
fn play_game<G: Game>(
    start: &G,
    seed: u64,
    counters: usize,
    max_plies: usize,
    weight: &Weight<G>,
    verdict: &Verdict,
    tally: &mut Tally,
) {
    let mut rng = SplitMix64::new(seed);
    let mut record = Record::new(start.clone());
    let mut keys = vec![key(start, counters)];
    let mut hashes = vec![start.hash()];
    // Ply index of each irreversible move (played from position i).
    let mut cuts: Vec<usize> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    seen.insert(keys[0].clone(), 1);
    let repetition_rule = start.repetition_ends_game();
    for _ in 0..max_plies {
        if record.outcome().is_some() {
            break;
        }
        let pos = record.position().clone();
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "a game in progress has a move");
        let weights: Vec<u64> = moves
            .iter()
            .map(|&mv| {
                let mut next = pos.clone();
                next.play_unchecked(mv);
                let w = weight(&pos, mv, record.moves());
                if seen.contains_key(&key(&next, counters)) {
                    w * 4
                } else {
                    w
                }
            })
            .collect();
        let total: u64 = weights.iter().sum();
        let mv = if total == 0 {
            moves[rng.below(moves.len())]
        } else {
            let mut x = rng.next_u64() % total;
            let mut i = 0;
            while x >= weights[i] {
                x -= weights[i];
                i += 1;
            }
            moves[i]
        };
        if pos.is_irreversible(mv) {
            cuts.push(keys.len() - 1);
            tally.irreversible += 1;
        }
        record.play(mv).expect("a legal move");
        let now = record.position();
        let k = key(now, counters);
        let count = {
            let c = seen.entry(k.clone()).or_insert(0);
            *c += 1;
            *c
        };
        let naive = keys.iter().filter(|&old| *old == k).count() + 1;
        assert_eq!(count, naive);
        tally.max_count = tally.max_count.max(naive);
        // Same position, same hash; different positions, different hashes.
        for (old, &h) in keys.iter().zip(&hashes) {
            assert_eq!(
                *old == k,
                h == now.hash(),
                "seed {seed}: hash and position disagree: {old} / {k}"
            );
        }
        // Nothing from before an irreversible move comes back.
        for &cut in &cuts {
            assert!(
                !keys[..=cut].contains(&k),
                "seed {seed}, ply {}: {k} recurs after the irreversible move at ply {}",
                keys.len(),
                cut + 1
            );
        }
        let expected = repetition_rule && naive >= 3 && now.outcome().is_none();
        let ended = record.outcome().map(|o| o.reason) == Some(EndReason::Repetition);
        assert_eq!(
            ended,
            expected,
            "seed {seed}, ply {}: {k} occurred {naive} times; record says {:?}",
            keys.len(),
            record.outcome()
        );
        if ended {
            tally.repetitions += 1;
            let winner = record.outcome().and_then(|o| o.winner);
            assert_eq!(
                winner,
                verdict(&now.to_text()),
                "seed {seed}, ply {}: the repetition of {k} is decided wrongly",
                keys.len()
            );
            tally.won += usize::from(winner.is_some());
        }
        keys.push(k);
        hashes.push(now.hash());
        tally.plies += 1;
    }
    tally.games += 1;
}

#[test]
fn territory_duel_repetition_matches_a_naive_count() {
    // Jumps are much likelier than clones, so that flips come and go, and
    // jumping back to where the mover's last jump came from likelier still.
    let weight = |_: &Ataxx, mv: AtaxxMove, played: &[AtaxxMove]| {
        let back = match (played.len().checked_sub(2).map(|i| played[i]), mv) {
            (Some(AtaxxMove::Jump { from, to }), AtaxxMove::Jump { from: f, to: t }) => {
                (f, t) == (to, from)
            }
            _ => false,
        };
        match mv {
            AtaxxMove::Jump { .. } if back => 120,
            AtaxxMove::Jump { .. } => 12,
            _ => 1,
        }
    };
    let mut tally = Tally::default();
    let starts = [
        // The standard start, and issue 11's small cycle position.
        "x5o/7/7/7/7/7/o5x x 0 1",
        "7/7/7/7/6o/7/x2o3 x 0 1",
        // Few pieces on a board cut down by gaps.
        "-------/-------/--x1o--/--3--/--o1x--/-------/------- x 0 1",
        "7/7/2xo3/7/3ox2/7/7 x 0 1",
    ];
    for no_move in [NoMoveRule::Pass, NoMoveRule::Lose] {
        let rules = AtaxxRules { no_move };
        for (i, fen) in starts.iter().enumerate() {
            let start = Ataxx::from_text(fen, &rules).unwrap();
            for seed in 0..40 {
                play_game(
                    &start,
                    seed * 7 + i as u64,
                    2,
                    400,
                    &weight,
                    &more_pieces,
                    &mut tally,
                );
            }
        }
    }
    assert!(tally.repetitions >= 50, "too few repetitions: {tally:?}");
    // Both kinds of verdict occur: a win for the side with more pieces,
    // and a draw on equal counts.
    assert!(tally.won >= 10, "too few decisive repetitions: {tally:?}");
    assert!(
        tally.repetitions - tally.won >= 10,
        "too few drawn repetitions: {tally:?}"
    );
    assert!(tally.irreversible > 0, "{tally:?}");
}

#[test]
fn mill_repetition_matches_a_naive_count() {
    let weight = |_: &Mill, _, _: &[_]| 1;
    let mut tally = Tally::default();
    for (i, preset) in Preset::ALL.iter().enumerate() {
        let start = Mill::start(&preset.rules());
        for seed in 0..20 {
            play_game(
                &start,
                seed * 5 + i as u64,
                2,
                600,
                &weight,
                &draw,
                &mut tally,
            );
        }
    }
    assert!(tally.repetitions >= 20, "too few repetitions: {tally:?}");
    assert_eq!(tally.won, 0, "a repetition is a draw in Mill");
    // Without the repetition rule, no game ends by it, and positions may
    // occur more than three times.
    let rules = MillRules {
        threefold_repetition: false,
        ..MillRules::default()
    };
    let mut off = Tally::default();
    let start = Mill::start(&rules);
    for seed in 0..20 {
        play_game(&start, seed, 2, 600, &weight, &draw, &mut off);
    }
    assert_eq!(off.repetitions, 0);
    assert!(off.max_count >= 3, "{off:?}");
}

#[test]
fn stones_positions_never_recur() {
    // The rules file: no repetition rule is needed, because no position can
    // occur twice (diagonal moves go forward, sideways jumps cannot cycle).
    let weight = |_: &Stones, _, _: &[_]| 1;
    let mut tally = Tally::default();
    let start = Stones::start(&StonesRules);
    for seed in 0..60 {
        play_game(&start, seed, 0, 2000, &weight, &draw, &mut tally);
    }
    assert_eq!(tally.max_count, 1, "{tally:?}");
    assert_eq!(tally.repetitions, 0);
}
