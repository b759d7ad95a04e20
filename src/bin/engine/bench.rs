//! `engine bench`: the fixed search benchmark, nodes and speed per game.

use stoneplay::ai::InstantClock;

/// `engine bench`: the fixed bench of [`stoneplay::ai::bench`], one line per game.
pub fn bench() {
    let lines = stoneplay::ai::bench::run(&InstantClock::new());
    for l in &lines {
        out!(
            "{} {} nodes {} ms {} nps",
            l.game,
            l.nodes,
            l.ms as u64,
            l.nps()
        );
    }
    let total = stoneplay::ai::bench::total(&lines);
    out!("bench {} nodes {} nps", total.nodes, total.nps());
}
