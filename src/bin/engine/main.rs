//! Native command line for the Stoneplay engines.
//!
//! ```text
//! engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]
//! engine uai [--eval hand|FILE] [--net FILE|none]  (Territory Duel over UAI)
//! engine uci mill|stones [--eval hand|FILE]   (Sanmill-style UCI)
//! engine bench [--net FILE|none]
//! engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--time-scale F] [--seed S]
//! engine duel OLD NEW --game GAME --tc 10+0.1 --games N --book FILE [...]
//! engine book GAME --plies N --count K --out FILE [...]
//! engine datagen GAME --positions N --out FILE [--nodes K] [--random-plies P] [--seed S] [--threads T] [--eval hand|FILE] [--net FILE|none]
//! engine train ataxx|stones|mill --data FILE[,FILE...] --out FILE [--epochs E] [--lambda L] [--scale K] [--lr R] [--prior P] [--seed S]
//! engine nnue-train --data FILE[,FILE...] --out FILE [--inputs pieces|windows] [--compare NET[,NET...]] [--init NET] [--hidden H] [--tied yes|no] [--buckets B] [--epochs E] [--batch N] [--lr R] [--lambda L] [--scale K] [--validation V] [--positions N] [--threads T] [--seed S]
//! ```
//! `perft` prints one line per depth, `DEPTH NODES MILLISECONDS`; with
//! `--divide` each root move with its count at DEPTH, then the total.
//! `uai`/`uci` read commands on stdin (see `stoneplay::ai::uci`); a
//! `go` searches on a second thread so `stop` is heard at once. `bench`
//! searches fixed positions to a fixed depth and prints nodes per second;
//! `match` plays two levels against each other; `duel` plays two engine
//! binaries against each other (see `stoneplay::ai::duel`) and `book`
//! writes the balanced openings it plays from. Bad arguments get a
//! one-line error on stderr and exit code 2, never a panic.
//!
//! One module per command, each with its argument parsing and output;
//! this file only dispatches. The commands share [`args`] (the usage
//! text, `--key value` options) and [`net`] (`--net`, Territory Duel's
//! network), read a game's name with `GameKind::parse`
//! and run the generic code for it through `stoneplay::with_game!` (what
//! each game brings is `stoneplay::ai::engine::EngineGame`), and print
//! their results with `out!`.

use std::io::Write;
use std::process::ExitCode;

/// `println!` for the command's results, except that a reader who has gone
/// (`engine bench | head -1`) ends the process quietly with success, as
/// Unix tools do, instead of a panic; any other write error ends it with a
/// one-line message.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::say(format_args!($($arg)*))
    };
}

fn say(args: std::fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    let written = stdout
        .write_fmt(args)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

mod args;
mod bench;
mod book;
mod datagen;
mod duel;
mod net;
mod nnue_train;
mod perft;
mod selfplay;
mod train;
mod uci;

use args::USAGE;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("perft") => perft::perft_command(perft::parse_perft(&args[1..])?),
        Some("uai") => uci::uai(&args[1..]),
        Some("uci") => uci::uci(&args[1..]),
        Some("bench") => bench::bench_command(&args[1..]),
        Some("match") => selfplay::match_command(&args[1..]),
        Some("duel") => duel::duel_command(&args[1..]),
        Some("book") => book::book_command(&args[1..]),
        Some("datagen") => datagen::datagen_command(&args[1..]),
        Some("train") => train::train_command(&args[1..]),
        Some("nnue-train") => nnue_train::nnue_train_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            out!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
        None => Err(format!("no command given\n{USAGE}")),
    }
}
