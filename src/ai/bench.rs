//! The fixed search benchmark: the same positions searched to the same
//! depth by `engine bench` natively and by the AI worker in the browser, so
//! the two speeds compare directly (`make bench`, `make bench-wasm`).

use super::{Clock, Level, SearchControl, SearchLimits, SearchRequest, Searcher};
use crate::games::ataxx::{Ataxx, AtaxxRules};
use crate::games::mill::{Mill, Preset};
use crate::games::stones::{Stones, StonesRules};
use crate::games::Game;
use crate::protocol::BenchLine;

/// Searches `positions` to `depth` at Master level with a fresh table each.
fn bench_game<G: super::Evaluate>(
    game: &str,
    positions: &[G],
    depth: u32,
    clock: &dyn Clock,
) -> BenchLine {
    let ctl = SearchControl { clock, stop: None };
    let mut nodes = 0;
    let start = clock.now_ms();
    for pos in positions {
        let mut searcher = Searcher::<G>::new(20);
        let req = SearchRequest {
            position: pos,
            history: &[],
            game_ply: 100,
            limits: SearchLimits::depth(depth),
            level: Level::Master,
            seed: 0,
        };
        nodes += searcher.think(&req, &ctl, &mut |_| {}).nodes;
    }
    BenchLine {
        game: game.to_string(),
        nodes,
        ms: clock.now_ms() - start,
    }
}

fn parse_all<G: Game>(texts: &[&str], rules: &G::Rules) -> Vec<G> {
    texts
        .iter()
        .map(|t| G::from_text(t, rules).expect("bench positions are valid"))
        .collect()
}

/// Runs the bench: the start and a few middle-game positions per game.
pub fn run(clock: &dyn Clock) -> Vec<BenchLine> {
    let ataxx: Vec<Ataxx> = parse_all(
        &[
            "x5o/7/7/7/7/7/o5x x 0 1",
            "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
            "7/7/2xxo2/2xoo2/2xxo2/7/7 x 0 1",
            "xxo4/xoo4/x2o3/7/3x3/4oo1/o4xx o 0 1",
            "7/1ox4/1oxx3/2oxo2/3ox2/4xo1/7 x 0 1",
        ],
        &AtaxxRules::default(),
    );
    let stones: Vec<Stones> = parse_all(
        &[
            "W:a1,b1,c1,d1,e1,f1,g1,h1 B:a8,b8,c8,d8,e8,f8,g8,h8 w",
            "W:a1,c3,d2,e1,f4,g1,h2,b4 B:a8,c6,d7,e5*,f8,g7,h6,b8 w",
            "W:a3,b2,c5,d4,e3,f2,g1,h4 B:a6,b7,c8,d5,e6,f7,g8,h5 b",
        ],
        &StonesRules,
    );
    let mill_rules = Preset::NineMensMorris.rules();
    let mut mill = vec![Mill::start(&mill_rules)];
    for line in ["d6 f4 d2 b4 b6 f6 a4 a1", "a7 d1 d7 g1 g7 xd1 a1 b2"] {
        let mut pos = Mill::start(&mill_rules);
        for text in line.split_whitespace() {
            let mv = pos.parse_move(text).expect("bench moves are valid");
            pos.play(mv).expect("bench moves are legal");
        }
        mill.push(pos);
    }
    vec![
        bench_game("ataxx", &ataxx, 7, clock),
        bench_game("stones", &stones, 9, clock),
        bench_game("mill", &mill, 11, clock),
    ]
}

/// The sum of the lines, named `bench`.
pub fn total(lines: &[BenchLine]) -> BenchLine {
    BenchLine {
        game: "bench".to_string(),
        nodes: lines.iter().map(|l| l.nodes).sum(),
        ms: lines.iter().map(|l| l.ms).sum(),
    }
}
