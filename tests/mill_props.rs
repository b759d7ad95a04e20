//! Random playouts for every preset, checked against an independent
//! legality oracle written here from the rules file (not from the engine).

use stoneplay::games::mill::{
    adjacent, lines, Mill, MillMove, MillRules, Phase, Point, Preset, RemoveFromMills,
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

fn in_mill(pos: &Mill, p: Point, side: Side, r: &MillRules) -> bool {
    lines(r.diagonal_lines)
        .iter()
        .any(|l| l.contains(&p) && l.iter().all(|&q| pos.piece_at(q) == Some(side)))
}

/// Legality straight from the rules file, using only observers.
fn oracle(pos: &Mill, mv: MillMove) -> bool {
    let r = *pos.rules();
    let me = pos.side_to_move();
    let opp = me.opponent();
    if pos.outcome().is_some() {
        return false;
    }
    let free = |p: Point| pos.piece_at(p).is_none() && !pos.is_marked(p);
    if pos.must_remove() > 0 {
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
                && (flies || adjacent(from, r.diagonal_lines).contains(&to))
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

fn check_position(pos: &Mill, rules: &MillRules, cands: &[MillMove], rng: &mut Rng) {
    let legal = pos.legal_moves();
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
            oracle(pos, c),
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
    let mut removed_by_us = [0u8; 2];
    let mut plies = 0;
    while rec.outcome().is_none() {
        let pos = *rec.position();
        check_position(&pos, &rules, cands, &mut rng);
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        let mover = pos.side_to_move();
        rec.play(mv).expect("generated move is legal");
        let after = rec.position();
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
    check_position(rec.position(), &rules, cands, &mut rng);
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
            let mut plies = 0;
            while rec.outcome().is_none() {
                let pos = *rec.position();
                check_position(&pos, rules, &cands, &mut rng);
                let legal = pos.legal_moves();
                rec.play(legal[rng.below(legal.len())]).unwrap();
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
