//! Random playouts for every preset, checked against an independent
//! legality oracle written here from the rules file (not from the engine):
//! its own copy of the lines and the adjacency of `shared/rules/mill.md`,
//! and its own count of the removals a move owes.

use stoneplay::games::mill::{
    parse_point, Mill, MillMove, MillRules, Phase, Point, Preset, RemoveFromMills,
};
use stoneplay::games::{EndReason, Game, Outcome, Record, Side};

/// xorshift64*: a tiny seeded generator, no crates.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The rules file's 16 mills, then its 4 diagonal lines (an option).
const MILLS: [&str; 20] = [
    "a7-d7-g7", "b6-d6-f6", "c5-d5-e5", "a4-b4-c4", "e4-f4-g4", "c3-d3-e3", "b2-d2-f2", "a1-d1-g1",
    "a7-a4-a1", "b6-b4-b2", "c5-c4-c3", "d7-d6-d5", "d3-d2-d1", "e5-e4-e3", "f6-f4-f2", "g7-g4-g1",
    "a7-b6-c5", "g7-f6-e5", "a1-b2-c3", "g1-f2-e3",
];

/// The lines in play under `diagonals`, as points (read once).
fn lines(diagonals: bool) -> &'static [[Point; 3]] {
    static LINES: std::sync::OnceLock<Vec<[Point; 3]>> = std::sync::OnceLock::new();
    let all = LINES.get_or_init(|| {
        MILLS
            .iter()
            .map(|l| {
                let p: Vec<Point> = l.split('-').map(|s| parse_point(s).unwrap()).collect();
                [p[0], p[1], p[2]]
            })
            .collect()
    });
    &all[..if diagonals { 20 } else { 16 }]
}

/// "Two points are adjacent when they are neighbours on one of these lines."
fn adjacent(a: Point, b: Point, diagonals: bool) -> bool {
    lines(diagonals)
        .iter()
        .any(|l| (0..2).any(|i| (l[i], l[i + 1]) == (a, b) || (l[i], l[i + 1]) == (b, a)))
}

fn in_mill(pos: &Mill, p: Point, side: Side, r: &MillRules) -> bool {
    lines(r.diagonal_lines)
        .iter()
        .any(|l| l.contains(&p) && l.iter().all(|&q| pos.piece_at(q) == Some(side)))
}

/// The removals owed, counted here: how many mills a placement or slide
/// onto `to` closes, capped by the rules. With `one_time_mill` a mill
/// counts only if one of its points is outside every mill its side has
/// formed before (Sanmill's rule, which the rules file follows): `formed`
/// holds those points per side.
struct Owed {
    count: u8,
    formed: [u32; 2],
}

impl Owed {
    fn new() -> Self {
        Owed {
            count: 0,
            formed: [0, 0],
        }
    }

    /// Updates the count after `mover` played `mv`, giving `after`.
    fn after(&mut self, mv: MillMove, mover: Side, after: &Mill, r: &MillRules) {
        let opp = mover.opponent();
        match mv {
            MillMove::Place(to) | MillMove::Slide { to, .. } => {
                let mut new = 0u8;
                for &l in lines(r.diagonal_lines) {
                    if !l.contains(&to) || !l.iter().all(|&q| after.piece_at(q) == Some(mover)) {
                        continue;
                    }
                    if r.one_time_mill {
                        let points = l.iter().fold(0u32, |m, &q| m | 1 << q);
                        if self.formed[mover.index()] & points == points {
                            continue;
                        }
                        self.formed[mover.index()] |= points;
                    }
                    new += 1;
                }
                let owed = if r.remove_multiple { new } else { new.min(1) };
                self.count = owed.min(after.on_board(opp));
            }
            MillMove::Remove(_) => {
                self.count -= 1;
                if after.on_board(opp) == 0 {
                    self.count = 0;
                }
            }
        }
        if after.outcome().is_some() {
            self.count = after.must_remove();
        }
    }
}

/// Legality straight from the rules file, using only observers of the
/// board and hands, with the removals owed counted by [`Owed`].
fn oracle(pos: &Mill, owed: u8, mv: MillMove) -> bool {
    let r = *pos.rules();
    let me = pos.side_to_move();
    let opp = me.opponent();
    if pos.outcome().is_some() {
        return false;
    }
    let free = |p: Point| pos.piece_at(p).is_none() && !pos.is_marked(p);
    if owed > 0 {
        return match mv {
            MillMove::Remove(p) => {
                pos.piece_at(p) == Some(opp)
                    && (r.remove_from_mills == RemoveFromMills::Always
                        || !in_mill(pos, p, opp, &r)
                        || (0..24)
                            .all(|q| pos.piece_at(q) != Some(opp) || in_mill(pos, q, opp, &r)))
            }
            _ => false,
        };
    }
    let hand = pos.in_hand(me);
    match mv {
        MillMove::Remove(_) => false,
        MillMove::Place(p) => pos.phase() == Phase::Placing && hand > 0 && free(p),
        MillMove::Slide { from, to } => {
            let may_slide = pos.phase() == Phase::Moving || hand == 0 || r.move_in_placing;
            let flies = r.may_fly && hand == 0 && pos.on_board(me) <= r.fly_at;
            may_slide
                && pos.piece_at(from) == Some(me)
                && free(to)
                && (flies || adjacent(from, to, r.diagonal_lines))
        }
    }
}

fn all_candidates() -> Vec<MillMove> {
    let mut v = Vec::new();
    for p in 0..24 {
        v.push(MillMove::Place(p));
        v.push(MillMove::Remove(p));
        for q in 0..24 {
            if p != q {
                v.push(MillMove::Slide { from: p, to: q });
            }
        }
    }
    v
}

fn check_position(pos: &Mill, owed: u8, rules: &MillRules, cands: &[MillMove], rng: &mut Rng) {
    assert_eq!(
        pos.must_remove(),
        owed,
        "removals owed in {}",
        pos.to_text()
    );
    let legal = pos.legal_moves();
    // Perft's count agrees with the list.
    assert_eq!(
        pos.count_legal_moves(&mut Vec::new()),
        legal.len() as u64,
        "count_legal_moves in {}",
        pos.to_text()
    );
    // Generated moves are exactly the oracle's legal moves, without duplicates.
    let mut sorted = legal.iter().map(|m| format!("{m}")).collect::<Vec<_>>();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        legal.len(),
        "duplicate moves in {}",
        pos.to_text()
    );
    for &c in cands {
        assert_eq!(
            oracle(pos, owed, c),
            legal.contains(&c),
            "move {c} in {} (oracle vs generator)",
            pos.to_text()
        );
    }
    // Checked play agrees: every generated move plays, sampled others fail
    // and leave the position unchanged.
    for &m in &legal {
        let mut p = *pos;
        assert!(p.play(m).is_ok());
    }
    for _ in 0..16 {
        let c = cands[rng.below(cands.len())];
        let mut p = *pos;
        assert_eq!(
            p.play(c).is_ok(),
            legal.contains(&c),
            "play {c} in {}",
            pos.to_text()
        );
        if !legal.contains(&c) {
            assert_eq!(p, *pos);
        }
    }
    // FEN round trip, with the same hash.
    let text = pos.to_text();
    let back = Mill::from_text(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back, *pos, "{text}");
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.to_text(), text);
    // Piece accounting and phase invariants.
    for s in [Side::First, Side::Second] {
        assert_eq!(
            pos.on_board(s) + pos.in_hand(s) + pos.removed(s),
            rules.pieces,
            "{text}"
        );
    }
    if pos.phase() == Phase::Moving {
        assert_eq!(pos.in_hand(Side::First) + pos.in_hand(Side::Second), 0);
        assert!((0..24).all(|p| !pos.is_marked(p)));
    }
    assert_eq!(legal.is_empty(), pos.outcome().is_some(), "{text}");
}

fn playout(preset: Preset, seed: u64, cands: &[MillMove]) -> (usize, Outcome) {
    let rules = preset.rules();
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut rec = Record::new(Mill::start(&rules));
    let mut owed = Owed::new();
    let mut removed_by_us = [0u8; 2];
    let mut plies = 0;
    while rec.outcome().is_none() {
        let pos = *rec.position();
        check_position(&pos, owed.count, &rules, cands, &mut rng);
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        let mover = pos.side_to_move();
        rec.play(mv).expect("generated move is legal");
        let after = rec.position();
        owed.after(mv, mover, after, &rules);
        if let MillMove::Remove(_) = mv {
            removed_by_us[mover.opponent().index()] += 1;
        }
        // A move that closes a mill keeps the turn for the removal.
        if after.must_remove() > 0 {
            assert_eq!(after.side_to_move(), mover);
        }
        for s in [Side::First, Side::Second] {
            assert_eq!(after.removed(s), removed_by_us[s.index()]);
        }
        plies += 1;
        assert!(plies < 3000, "{preset:?} seed {seed} did not terminate");
    }
    check_position(rec.position(), owed.count, &rules, cands, &mut rng);
    (
        plies,
        rec.outcome().expect("loop ends when the game is over"),
    )
}

#[test]
fn random_playouts_every_preset() {
    let cands = all_candidates();
    let mut games = 0;
    let mut total_plies = 0;
    let mut reasons = std::collections::HashMap::new();
    for preset in Preset::ALL {
        for seed in 1..=40u64 {
            let (plies, outcome) = playout(preset, seed * 7919 + preset as u64, &cands);
            total_plies += plies;
            *reasons.entry(outcome.reason).or_insert(0) += 1;
            games += 1;
        }
    }
    eprintln!("endings: {reasons:?}");
    assert_eq!(games, 280);
    // Random play reaches the usual endings.
    assert!(reasons.contains_key(&EndReason::TooFewPieces));
    assert!(
        reasons.contains_key(&EndReason::Repetition) || reasons.contains_key(&EndReason::MoveLimit)
    );
    assert!(total_plies > games * 20);
}

/// Options that no preset turns on (turn passes, draw on full board) and
/// the n-move rule off (repetition ends the game).
#[test]
fn random_playouts_unusual_options() {
    let cands = all_candidates();
    let mut variants = Vec::new();
    for (name, value) in [
        ("stalemate", "turn-passes"),
        ("board_full", "draw"),
        ("n_move_rule", "0"),
        ("mill_in_placing", "mark-and-delay"),
        ("remove_from_mills", "always"),
        ("fly_at", "4"),
    ] {
        for preset in [
            Preset::NineMensMorris,
            Preset::Morabaraba,
            Preset::LaskerMorris,
        ] {
            let mut r = preset.rules();
            r.set_option(name, value).unwrap();
            variants.push(r);
        }
    }
    for (i, rules) in variants.iter().enumerate() {
        for seed in 0..8u64 {
            let mut rng = Rng(((i as u64 * 1000 + seed) * 0x9E37_79B9) | 1);
            let mut rec = Record::new(Mill::start(rules));
            let mut owed = Owed::new();
            let mut plies = 0;
            while rec.outcome().is_none() {
                let pos = *rec.position();
                check_position(&pos, owed.count, rules, &cands, &mut rng);
                let legal = pos.legal_moves();
                let mv = legal[rng.below(legal.len())];
                rec.play(mv).unwrap();
                owed.after(mv, pos.side_to_move(), rec.position(), rules);
                plies += 1;
                assert!(plies < 5000, "variant {i} seed {seed} did not terminate");
            }
        }
    }
}

/// Mutated position texts and random move texts never panic; whatever is
/// accepted is a consistent position.
#[test]
fn mutated_input_never_panics() {
    let alphabet: Vec<char> = "O@*X/ -0123456789wbrpmosx\u{e9}".chars().collect();
    let mut rng = Rng(0xDEAD_BEEF);
    let mut accepted = 0;
    for preset in Preset::ALL {
        let rules = preset.rules();
        let mut pos = Mill::start(&rules);
        for _ in 0..120 {
            if pos.outcome().is_some() {
                pos = Mill::start(&rules);
            }
            let text = pos.to_text();
            for _ in 0..20 {
                let mut chars: Vec<char> = text.chars().collect();
                for _ in 0..=rng.below(3) {
                    let i = rng.below(chars.len());
                    match rng.below(3) {
                        0 => chars[i] = alphabet[rng.below(alphabet.len())],
                        1 => {
                            chars.remove(i);
                        }
                        _ => chars.insert(i, alphabet[rng.below(alphabet.len())]),
                    }
                }
                let mutated: String = chars.into_iter().collect();
                if let Ok(m) = Mill::from_text(&mutated, &rules) {
                    accepted += 1;
                    let again = Mill::from_text(&m.to_text(), &rules).unwrap();
                    assert_eq!(again, m, "{mutated}");
                    assert_eq!(
                        m.legal_moves().is_empty(),
                        m.outcome().is_some(),
                        "{mutated}"
                    );
                    for mv in m.legal_moves() {
                        let mut n = m;
                        n.play(mv).unwrap();
                    }
                }
                let prefix: String = mutated
                    .chars()
                    .skip(rng.below(4))
                    .take(rng.below(7))
                    .collect();
                let _ = pos.parse_move(&prefix);
            }
            let legal = pos.legal_moves();
            pos.play(legal[rng.below(legal.len())]).unwrap();
        }
    }
    assert!(accepted > 0, "some mutations are valid positions");
}
