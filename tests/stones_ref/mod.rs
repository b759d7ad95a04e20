//! A deliberately simple, independent Stones! move generator for tests.
//!
//! It shares no code with the engine: the board is an array of 64 squares
//! read from the position text by its own parser, and a move is legal when
//! a predicate written straight from the rules file says so, tried for
//! every (from, to) pair instead of walking rays.

#![allow(dead_code)]

/// A stone: white or not, pinned or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stone {
    pub white: bool,
    pub pinned: bool,
}

/// The reference board: squares indexed rank * 8 + file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    pub squares: [Option<Stone>; 64],
    pub white_to_move: bool,
}

/// A move as a plain tuple: from, to, jumped.
pub type RefMove = (u8, u8, Option<u8>);

fn name_to_index(name: &str) -> u8 {
    let b = name.as_bytes();
    assert_eq!(b.len(), 2, "reference parser: bad square {name}");
    (b[1] - b'1') * 8 + (b[0] - b'a')
}

pub fn index_to_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// Writes a move in the rules file's notation.
pub fn move_text(m: RefMove) -> String {
    match m.2 {
        None => format!("{}-{}", index_to_name(m.0), index_to_name(m.1)),
        Some(j) => format!(
            "{}x{}-{}",
            index_to_name(m.0),
            index_to_name(j),
            index_to_name(m.1)
        ),
    }
}

impl RefBoard {
    /// Reads canonical position text (as written by the engine or the rules file).
    pub fn parse(text: &str) -> RefBoard {
        let mut squares = [None; 64];
        let mut white_to_move = true;
        for field in text.split_whitespace() {
            if let Some(list) = field.strip_prefix("W:").or(field.strip_prefix("B:")) {
                let white = field.starts_with('W');
                for item in list.split(',').filter(|s| !s.is_empty()) {
                    let pinned = item.ends_with('*');
                    let sq = name_to_index(item.trim_end_matches('*'));
                    squares[sq as usize] = Some(Stone { white, pinned });
                }
            } else {
                white_to_move = field == "w";
            }
        }
        RefBoard {
            squares,
            white_to_move,
        }
    }

    fn at(&self, file: i32, rank: i32) -> Option<Stone> {
        self.squares[(rank * 8 + file) as usize]
    }

    fn on_board(file: i32, rank: i32) -> bool {
        (0..8).contains(&file) && (0..8).contains(&rank)
    }

    /// Whether the stone `t` may be jumped by a stone of the side to move.
    fn jumpable(&self, t: Stone) -> bool {
        let ally = t.white == self.white_to_move;
        (ally && t.pinned) || (!ally && !t.pinned)
    }

    /// Whether moving the stone on `from` to `to`, jumping `jumped`, is
    /// legal: the rules file, checked literally.
    pub fn is_legal(&self, from: u8, to: u8, jumped: Option<u8>) -> bool {
        let Some(mover) = self.squares[from as usize] else {
            return false;
        };
        if mover.white != self.white_to_move || mover.pinned {
            return false;
        }
        if self.squares[to as usize].is_some() {
            return false;
        }
        let (ff, fr) = ((from % 8) as i32, (from / 8) as i32);
        let (tf, tr) = ((to % 8) as i32, (to / 8) as i32);
        let forward = if self.white_to_move { 1 } else { -1 };
        let (df, dr) = (tf - ff, tr - fr);
        match jumped {
            None => {
                // Slide: forward diagonal, every square on the way empty.
                if dr * forward <= 0 || df.abs() != dr.abs() {
                    return false;
                }
                let n = dr.abs();
                let (sf, sr) = (df.signum(), dr.signum());
                (1..n).all(|k| self.at(ff + k * sf, fr + k * sr).is_none())
            }
            Some(j) => {
                let (jf, jr) = ((j % 8) as i32, (j / 8) as i32);
                let Some(t) = self.at(jf, jr) else {
                    return false;
                };
                if !self.jumpable(t) {
                    return false;
                }
                if dr == 0 {
                    // Sideways: the adjacent stone, landing two files away.
                    df.abs() == 2 && jr == fr && jf == ff + df / 2
                } else {
                    // Diagonal: slide over empty squares to the first stone,
                    // which is directly before the landing square.
                    if dr * forward <= 0 || df.abs() != dr.abs() || dr.abs() < 2 {
                        return false;
                    }
                    let (sf, sr) = (df.signum(), dr.signum());
                    let n = dr.abs();
                    if jf != ff + (n - 1) * sf || jr != fr + (n - 1) * sr {
                        return false;
                    }
                    (1..n - 1).all(|k| self.at(ff + k * sf, fr + k * sr).is_none())
                }
            }
        }
    }

    /// Every legal move, found by trying every from, to and jumped square
    /// that could possibly matter (the jumped square is any neighbour of `to`).
    pub fn moves(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in 0..64u8 {
            match self.squares[from as usize] {
                Some(s) if s.white == self.white_to_move && !s.pinned => {}
                _ => continue,
            }
            for to in 0..64u8 {
                // Only squares on a line with `from` can be reached at all.
                let df = (to % 8) as i32 - (from % 8) as i32;
                let dr = (to / 8) as i32 - (from / 8) as i32;
                if self.squares[to as usize].is_some() || !(df.abs() == dr.abs() || dr == 0) {
                    continue;
                }
                if self.is_legal(from, to, None) {
                    out.push((from, to, None));
                }
                let (tf, tr) = ((to % 8) as i32, (to / 8) as i32);
                for nf in -1..=1 {
                    for nr in -1..=1 {
                        if (nf, nr) != (0, 0) && Self::on_board(tf + nf, tr + nr) {
                            let j = ((tr + nr) * 8 + tf + nf) as u8;
                            if j != from && self.is_legal(from, to, Some(j)) {
                                out.push((from, to, Some(j)));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Plays a move (assumed legal) on a copy.
    pub fn after(&self, m: RefMove) -> RefBoard {
        let mut next = self.clone();
        let mover = next.squares[m.0 as usize].take();
        next.squares[m.1 as usize] = mover;
        if let Some(j) = m.2 {
            if let Some(t) = next.squares[j as usize].as_mut() {
                // Opponent: pinned; ally: unpinned.
                t.pinned = t.white != self.white_to_move;
            }
        }
        next.white_to_move = !next.white_to_move;
        next
    }

    /// Writes canonical position text, for comparing with the engine.
    pub fn text(&self) -> String {
        let list = |white: bool| {
            (0..64u8)
                .filter_map(|sq| match self.squares[sq as usize] {
                    Some(s) if s.white == white => Some(format!(
                        "{}{}",
                        index_to_name(sq),
                        if s.pinned { "*" } else { "" }
                    )),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        format!(
            "W:{} B:{} {}",
            list(true),
            list(false),
            if self.white_to_move { "w" } else { "b" }
        )
    }
}

/// Perft by the reference generator: a finished game counts 0 below the root.
pub fn ref_perft(board: &RefBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| ref_perft(&board.after(m), depth - 1))
        .sum()
}
