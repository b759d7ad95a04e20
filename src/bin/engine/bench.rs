//! `engine bench`: the fixed search benchmark, nodes and speed per game.

use stoneplay::ai::InstantClock;

use crate::args::{options, usage};
use crate::net::use_net;

/// `engine bench [--net FILE|none]`: the fixed bench of
/// [`stoneplay::ai::bench`], one line per game; `--net` plays Territory
/// Duel with another network, or with the pattern tables (`none`), so one
/// build measures both evaluations.
pub fn bench_command(args: &[String]) -> Result<(), String> {
    let (rest, opts) = options(args, &["net"]).map_err(|_| usage("bench"))?;
    if !rest.is_empty() {
        return Err(usage("bench"));
    }
    if let Some(net) = opts.get("net") {
        use_net(net)?;
    }
    bench();
    Ok(())
}

fn bench() {
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
