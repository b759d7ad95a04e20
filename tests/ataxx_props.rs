//! Property tests over seeded random playouts (a small xorshift PRNG, no
//! extra crates): move generation agrees with a naive reference and with
//! `play` (and with perft's move count), FEN and hash round-trip at every ply, piece counts add up, and
//! every game ends. Both no-move rules, standard and random gap layouts.

use stoneplay::games::ataxx::{Ataxx, AtaxxMove, AtaxxRules, NoMoveRule, Square};
use stoneplay::games::{EndReason, Game, GameError, Outcome, Record, Side};

/// xorshift64*: small, fast, good enough to drive playouts.
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
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn dist(a: Square, b: Square) -> u8 {
    (a / 7).abs_diff(b / 7).max((a % 7).abs_diff(b % 7))
}

/// What stands on each square, read once through the public accessors.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Empty,
    Gap,
    Piece(Side),
}

fn cells(p: &Ataxx) -> [Cell; 49] {
    let mut out = [Cell::Empty; 49];
    for (s, c) in out.iter_mut().enumerate() {
        let s = s as Square;
        *c = match (p.is_gap(s), p.piece_at(s)) {
            (true, _) => Cell::Gap,
            (false, Some(side)) => Cell::Piece(side),
            (false, None) => Cell::Empty,
        };
    }
    out
}

/// A naive reference generator: every square pair, by coordinates.
fn reference_moves(p: &Ataxx, board: &[Cell; 49]) -> Vec<AtaxxMove> {
    let own = Cell::Piece(p.side_to_move());
    let mut out = Vec::new();
    for to in 0..49u8 {
        if board[to as usize] == Cell::Empty
            && (0..49u8).any(|f| board[f as usize] == own && dist(f, to) == 1)
        {
            out.push(AtaxxMove::Clone { to });
        }
    }
    for from in 0..49u8 {
        if board[from as usize] != own {
            continue;
        }
        for to in 0..49u8 {
            if board[to as usize] == Cell::Empty && dist(from, to) == 2 {
                out.push(AtaxxMove::Jump { from, to });
            }
        }
    }
    out
}

fn side_can_move(board: &[Cell; 49], side: Side) -> bool {
    (0..49u8).any(|f| {
        board[f as usize] == Cell::Piece(side)
            && (0..49u8).any(|t| board[t as usize] == Cell::Empty && dist(f, t) <= 2)
    })
}

fn sorted(mut v: Vec<AtaxxMove>) -> Vec<String> {
    let mut s: Vec<String> = v.drain(..).map(|m| m.to_string()).collect();
    s.sort();
    s
}

/// A start: the standard one, or random gaps with a few random pieces.
fn random_start(rng: &mut Rng, rules: AtaxxRules) -> Ataxx {
    if rng.below(4) == 0 {
        return Ataxx::start(&rules);
    }
    let gap_chance = rng.below(30); // percent
    let mut cells = [b'.'; 49];
    for c in cells.iter_mut() {
        if rng.below(100) < gap_chance {
            *c = b'-';
        }
    }
    for piece in [b'x', b'o'] {
        for _ in 0..1 + rng.below(3) {
            let s = rng.below(49) as usize;
            cells[s] = piece;
        }
    }
    let mut fen = String::new();
    for rank in (0..7).rev() {
        let mut run = 0;
        for file in 0..7 {
            match cells[rank * 7 + file] {
                b'.' => run += 1,
                c => {
                    if run > 0 {
                        fen.push_str(&run.to_string());
                        run = 0;
                    }
                    fen.push(c as char);
                }
            }
        }
        if run > 0 {
            fen.push_str(&run.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if rng.below(2) == 0 { " x" } else { " o" });
    Ataxx::from_text(&fen, &rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every candidate move (pass, 49 clones, 49×49 jump pairs): `play`
/// succeeds exactly for the generated ones, and gives the same position as
/// `play_unchecked`.
fn check_play_matches_generation(p: &Ataxx, legal: &[AtaxxMove]) {
    let mut candidates = vec![AtaxxMove::Pass];
    for to in 0..49u8 {
        candidates.push(AtaxxMove::Clone { to });
        for from in 0..49u8 {
            candidates.push(AtaxxMove::Jump { from, to });
        }
    }
    for m in candidates {
        let mut q = *p;
        let result = q.play(m);
        if legal.contains(&m) {
            assert_eq!(result, Ok(()), "{m} in {}", p.to_text());
            let mut r = *p;
            r.play_unchecked(m);
            assert_eq!(q, r);
        } else {
            assert!(
                matches!(
                    result,
                    Err(GameError::IllegalMove(_)) | Err(GameError::GameOver)
                ),
                "{m} in {}: {result:?}",
                p.to_text()
            );
            assert_eq!(q, *p, "a rejected move changes nothing");
        }
    }
}

struct Stats {
    games: u32,
    plies: u64,
    passes: u64,
    full_checks: u64,
    reasons: Vec<EndReason>,
}

fn playout(seed: u64, rules: AtaxxRules, full_check_every: u64, stats: &mut Stats) {
    let mut rng = Rng::new(seed);
    let start = random_start(&mut rng, rules);
    let mut rec = Record::new(start);
    let mut legal = Vec::new();
    let mut ply = 0u64;
    loop {
        let p = *rec.position();
        // FEN and hash round-trip.
        let text = p.to_text();
        let back = Ataxx::from_text(&text, &rules).unwrap();
        assert_eq!(back, p, "{text}");
        assert_eq!(back.hash(), p.hash(), "{text}");
        // Counts add up.
        let gaps = cells(&p).iter().filter(|&&c| c == Cell::Gap).count() as u32;
        assert_eq!(
            p.count(Side::First) + p.count(Side::Second) + gaps + p.empty_count(),
            49,
            "{text}"
        );
        // Generation against the reference; perft's count agrees with the list.
        p.legal_moves_into(&mut legal);
        assert_eq!(
            p.count_legal_moves(&mut Vec::new()),
            legal.len() as u64,
            "{text}: count_legal_moves"
        );
        let board = cells(&p);
        let reference = reference_moves(&p, &board);
        let over = p.outcome();
        if over.is_some() {
            assert!(legal.is_empty(), "{text}: moves after the end");
        } else if reference.is_empty() {
            assert_eq!(rules.no_move, NoMoveRule::Pass, "{text}");
            assert_eq!(legal, vec![AtaxxMove::Pass], "{text}");
        } else {
            assert_eq!(sorted(legal.clone()), sorted(reference.clone()), "{text}");
            assert_eq!(legal.len(), reference.len(), "{text}: duplicates");
        }
        for side in [Side::First, Side::Second] {
            assert_eq!(p.has_moves(side), side_can_move(&board, side), "{text}");
        }
        // UI helpers agree with the move list.
        if over.is_none() {
            let mut clone_union = 0u64;
            let mut jumps_from = [0u64; 49];
            for m in &legal {
                match *m {
                    AtaxxMove::Clone { to } => clone_union |= 1 << to,
                    AtaxxMove::Jump { from, to } => jumps_from[from as usize] |= 1 << to,
                    AtaxxMove::Pass => {}
                }
            }
            let mut union = 0;
            for from in 0..49u8 {
                assert_eq!(p.jump_targets(from), jumps_from[from as usize], "{text}");
                union |= p.clone_targets(from);
            }
            assert_eq!(union, clone_union, "{text}");
        }
        if ply.is_multiple_of(full_check_every) {
            check_play_matches_generation(&p, &legal);
            stats.full_checks += 1;
        }
        if let Some(outcome) = rec.outcome() {
            if outcome.reason != EndReason::Repetition {
                assert_eq!(Some(outcome), over);
            } else {
                // The third occurrence is decided by count (rule 4).
                let (x, o) = (p.count(Side::First), p.count(Side::Second));
                assert_eq!(outcome, Outcome::by_count(x, o, EndReason::Repetition));
            }
            stats.reasons.push(outcome.reason);
            break;
        }
        assert!(ply < 3000, "seed {seed}: the game did not end");

        // Play a random legal move and check its effect.
        let m = legal[rng.below(legal.len() as u64) as usize];
        let flips = p.flips(m).count_ones();
        let us = p.side_to_move();
        let them = us.opponent();
        rec.play(m).unwrap();
        let q = *rec.position();
        let (du, dt) = match m {
            AtaxxMove::Pass => (0, 0),
            AtaxxMove::Clone { .. } => (1 + flips as i64, -(flips as i64)),
            AtaxxMove::Jump { .. } => (flips as i64, -(flips as i64)),
        };
        assert_eq!(q.count(us) as i64 - p.count(us) as i64, du, "{text} {m}");
        assert_eq!(
            q.count(them) as i64 - p.count(them) as i64,
            dt,
            "{text} {m}"
        );
        assert!(
            (0..49u8).all(|s| q.is_gap(s) == p.is_gap(s)),
            "gaps never change"
        );
        let expected_jumps = match m {
            AtaxxMove::Pass => p.jump_counter(),
            AtaxxMove::Clone { .. } => 0,
            AtaxxMove::Jump { .. } if flips > 0 => 0,
            AtaxxMove::Jump { .. } => p.jump_counter() + 1,
        };
        assert_eq!(q.jump_counter(), expected_jumps, "{text} {m}");
        let expected_full = p.fullmove() + u32::from(us == Side::Second);
        assert_eq!(q.fullmove(), expected_full, "{text} {m}");
        assert_eq!(q.side_to_move(), them);
        // Only a clone adds a piece (and nothing removes one): jumps, even
        // flipping ones, and passes can be undone by later moves.
        assert_eq!(
            p.is_irreversible(m),
            q.count(us) + q.count(them) > p.count(us) + p.count(them)
        );
        assert_eq!(p.is_irreversible(m), matches!(m, AtaxxMove::Clone { .. }));
        if m == AtaxxMove::Pass {
            stats.passes += 1;
        }
        ply += 1;
    }
    stats.games += 1;
    stats.plies += ply;
}

fn run(rules: AtaxxRules, seeds: std::ops::Range<u64>) -> Stats {
    let mut stats = Stats {
        games: 0,
        plies: 0,
        passes: 0,
        full_checks: 0,
        reasons: Vec::new(),
    };
    for seed in seeds {
        // The first games check all 2 451 candidate moves at every ply;
        // later ones every 150th ply (the check costs ~2 400 `play` calls).
        let every = if seed % 100 == 0 { 1 } else { 150 };
        playout(seed, rules, every, &mut stats);
    }
    stats
}

#[test]
fn random_playouts_pass_mode() {
    let rules = AtaxxRules {
        no_move: NoMoveRule::Pass,
    };
    let stats = run(rules, 0..200);
    assert_eq!(stats.games, 200);
    assert!(stats.plies > 10_000, "{} plies", stats.plies);
    assert!(stats.full_checks > 200, "{} full checks", stats.full_checks);
    assert!(stats.passes > 0, "some games must exercise passing");
    assert!(stats.reasons.contains(&EndReason::BoardFull));
    assert!(stats.reasons.contains(&EndReason::NoPieces));
    assert!(!stats.reasons.contains(&EndReason::NoLegalMove));
}

#[test]
fn random_playouts_lose_mode() {
    let rules = AtaxxRules {
        no_move: NoMoveRule::Lose,
    };
    let stats = run(rules, 1000..1200);
    assert_eq!(stats.games, 200);
    assert_eq!(stats.passes, 0, "no passes in lose mode");
    assert!(stats.reasons.contains(&EndReason::NoLegalMove));
}
