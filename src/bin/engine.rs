//! Native command line for the engines (perft, bench, protocols).
fn main() {}
