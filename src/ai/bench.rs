//! The fixed search benchmark: the same positions searched to the same
//! depth by `engine bench` natively and by the AI worker in the browser, so
//! the two speeds compare directly (`make bench`, `make bench-wasm`).

use super::engine::EngineGame;
use super::{Clock, Level, SearchControl, SearchLimits, SearchRequest, Searcher};
use crate::games::GameKind;
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

/// Runs the bench: the start and a few middle-game positions per game
/// ([`EngineGame::bench_positions`]), the games in the list's order.
pub fn run(clock: &dyn Clock) -> Vec<BenchLine> {
    GameKind::ALL
        .into_iter()
        .map(|kind| {
            crate::with_game!(kind, G => {
                bench_game(kind.slug(), &G::bench_positions(), G::BENCH_DEPTH, clock)
            })
        })
        .collect()
}

/// The sum of the lines, named `bench`.
pub fn total(lines: &[BenchLine]) -> BenchLine {
    BenchLine {
        game: "bench".to_string(),
        nodes: lines.iter().map(|l| l.nodes).sum(),
        ms: lines.iter().map(|l| l.ms).sum(),
    }
}
