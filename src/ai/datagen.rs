//! `engine datagen`: self-play positions for training an evaluation.
//!
//! Each game starts with a few uniformly random plies (for variety), then
//! Master plays both sides with a fixed node budget per move, so a game is
//! the same on every machine and under any load: game `i` depends only on
//! the seed, the settings and `i`. Every searched position is written with
//! the search score and the game's result, both from the side to move:
//!
//! ```text
//! # datagen ataxx nodes=5000 random-plies=8 seed=1
//! x5o/7/7/7/7/7/o5x x 0 1<TAB>12<TAB>0.5
//! ...
//! # game 0
//! ```
//!
//! A game's lines end with its `# game I` marker, and games are written in
//! order, so an interrupted file is resumed by cutting it after its last
//! marker and going on with the next game ([`resume_point`]).

use super::{Evaluate, Level, SearchControl, SearchLimits, SearchRequest, Searcher, SplitMix64};
use super::{InstantClock, MATE_BOUND};
use crate::games::{Game, Record, Side};

/// A game still running after this many plies is scored a draw.
pub const MAX_PLIES: usize = 600;

/// How positions are generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatagenConfig {
    /// Node budget of each move's search.
    pub nodes: u64,
    /// Uniformly random plies at the start of each game (not written).
    pub random_plies: usize,
    /// Seed of the random plies.
    pub seed: u64,
}

impl DatagenConfig {
    /// The file's first line: the settings a resumed run must share.
    pub fn header(&self, game: &str) -> String {
        format!(
            "# datagen {game} nodes={} random-plies={} seed={}",
            self.nodes, self.random_plies, self.seed
        )
    }
}

/// Where an existing file stops: the byte length of its complete games,
/// the next game's index and the positions already written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    /// Bytes up to and including the last `# game I` line.
    pub keep_bytes: usize,
    /// The game to play next.
    pub next_game: u64,
    /// Position lines in the kept part.
    pub positions: u64,
}

/// Reads an existing datagen file: checks its header against `header` and
/// finds where its last complete game ends. A partial game after it (a run
/// stopped while writing) is dropped by the caller.
pub fn resume_point(text: &str, header: &str) -> Result<ResumePoint, String> {
    let Some(first) = text.lines().next() else {
        return Ok(ResumePoint {
            keep_bytes: 0,
            next_game: 0,
            positions: 0,
        });
    };
    if first != header {
        return Err(format!(
            "the file was made with other settings ('{first}'; this run: '{header}')"
        ));
    }
    let mut keep = ResumePoint {
        keep_bytes: first.len() + 1,
        next_game: 0,
        positions: 0,
    };
    let mut offset = first.len() + 1;
    let mut pending = 0u64;
    for line in text[offset.min(text.len())..].split_inclusive('\n') {
        offset += line.len();
        if !line.ends_with('\n') {
            break;
        }
        let body = line.trim_end_matches('\n');
        if let Some(index) = body.strip_prefix("# game ") {
            let index: u64 = index
                .parse()
                .map_err(|_| format!("unreadable game marker '{body}'"))?;
            if index != keep.next_game {
                return Err(format!(
                    "game {index} follows game {} (games are written in order)",
                    keep.next_game as i64 - 1
                ));
            }
            keep = ResumePoint {
                keep_bytes: offset,
                next_game: index + 1,
                positions: keep.positions + pending,
            };
            pending = 0;
        } else {
            pending += 1;
        }
    }
    Ok(keep)
}

/// One position of a finished game: its text, the search score and the
/// result (1 win, 0.5 draw, 0 loss), both for the side to move.
pub fn position_line(text: &str, score: i32, result: f32) -> String {
    format!("{text}\t{score}\t{result}")
}

/// Plays game `index` from `start` and returns its lines, the `# game`
/// marker last. Positions with a proven score (a forced win or loss found
/// by the search) are left out: their score is not a position's value.
pub fn play_game<G: Game + Evaluate>(
    start: &G,
    index: u64,
    cfg: &DatagenConfig,
    searcher: &mut Searcher<G>,
) -> Vec<String> {
    let mut rng = SplitMix64::new(cfg.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut record = Record::new(start.clone());
    for _ in 0..cfg.random_plies {
        if record.outcome().is_some() {
            break;
        }
        let moves = record.position().legal_moves();
        let mv = moves[rng.below(moves.len())];
        record.play(mv).expect("a generated move is legal");
    }
    searcher.clear();
    let clock = InstantClock::new();
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    let mut searched: Vec<(String, Side, i32)> = Vec::new();
    while record.outcome().is_none() && record.moves().len() < MAX_PLIES {
        let history = super::history_of(&record);
        let req = SearchRequest {
            position: record.position(),
            history: &history,
            game_ply: usize::MAX,
            limits: SearchLimits {
                nodes: Some(cfg.nodes),
                ..Default::default()
            },
            level: Level::Master,
            seed: 0,
        };
        let result = searcher.think(&req, &ctl, &mut |_| {});
        let Some(mv) = result.best else { break };
        let side = record.position().side_to_move();
        if result.score.abs() < MATE_BOUND {
            searched.push((record.position().to_text(), side, result.score));
        }
        if record.play(mv).is_err() {
            break;
        }
    }
    let winner = record.outcome().and_then(|o| o.winner);
    let mut lines: Vec<String> = searched
        .into_iter()
        .map(|(text, side, score)| {
            let result = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            position_line(&text, score, result)
        })
        .collect();
    lines.push(format!("# game {index}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ataxx::{Ataxx, AtaxxRules};

    const CFG: DatagenConfig = DatagenConfig {
        nodes: 300,
        random_plies: 6,
        seed: 3,
    };

    #[test]
    fn a_game_is_the_same_every_time_and_labels_every_position() {
        let start = Ataxx::start(&AtaxxRules::default());
        let mut s = Searcher::<Ataxx>::new(14);
        // Game 6: some random openings end the game within a few plies
        // (game 5, with the fifth network, after two labelled positions).
        let a = play_game(&start, 6, &CFG, &mut s);
        let b = play_game(&start, 6, &CFG, &mut Searcher::<Ataxx>::new(14));
        assert_eq!(a, b);
        assert_eq!(a.last().unwrap(), "# game 6");
        assert!(a.len() > 20, "a whole game: {} lines", a.len());
        for line in &a[..a.len() - 1] {
            let [text, score, result] = line.split('\t').collect::<Vec<_>>()[..] else {
                panic!("three fields: {line}")
            };
            Ataxx::from_text(text, &AtaxxRules::default()).expect("a readable position");
            assert!(score.parse::<i32>().unwrap().abs() < MATE_BOUND);
            assert!(["1", "0.5", "0"].contains(&result), "{line}");
        }
        // The side to move alternates (no passes at the start), so the
        // results of consecutive positions are opposite or both draws.
        let r: Vec<&str> = a[..2]
            .iter()
            .map(|l| l.rsplit('\t').next().unwrap())
            .collect();
        assert!(matches!(
            (r[0], r[1]),
            ("1", "0") | ("0", "1") | ("0.5", "0.5")
        ));
    }

    #[test]
    fn a_file_resumes_after_its_last_complete_game() {
        let header = CFG.header("ataxx");
        let text = format!("{header}\na\t1\t1\nb\t2\t0\n# game 0\nc\t3\t1\n# game 1\nd\t4\t0\n");
        let p = resume_point(&text, &header).unwrap();
        assert_eq!(p.next_game, 2);
        assert_eq!(p.positions, 3);
        assert_eq!(
            &text[..p.keep_bytes],
            format!("{header}\na\t1\t1\nb\t2\t0\n# game 0\nc\t3\t1\n# game 1\n")
        );
        // A cut marker line (no newline yet) does not count.
        let cut = format!("{header}\na\t1\t1\n# game 0\nb\t1\t1\n# game");
        assert_eq!(resume_point(&cut, &header).unwrap().next_game, 1);
        // An empty file starts from scratch; other settings are refused.
        assert_eq!(resume_point("", &header).unwrap().next_game, 0);
        let other = DatagenConfig { nodes: 1, ..CFG }.header("ataxx");
        assert!(resume_point(&text, &other)
            .unwrap_err()
            .contains("other settings"));
        let gap = format!("{header}\n# game 0\n# game 2\n");
        assert!(resume_point(&gap, &header).is_err());
    }
}
