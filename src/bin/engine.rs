//! Native command line for the Stoneplay engines.
//!
//! ```text
//! engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]
//! engine uai                 (Territory Duel over UAI)
//! engine uci mill|stones     (Sanmill-style UCI)
//! engine bench
//! engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--seed S]
//! ```
//! `perft` prints one line per depth, `DEPTH NODES MILLISECONDS`; with
//! `--divide` each root move with its count at DEPTH, then the total.
//! `uai`/`uci` read commands on stdin (see `stoneplay::ai::protocol`); a
//! `go` searches on a second thread so `stop` is heard at once. `bench`
//! searches fixed positions to a fixed depth and prints nodes per second;
//! `match` plays two levels against each other. Bad arguments get a
//! one-line error on stderr and exit code 2, never a panic.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use stoneplay::ai::protocol::{Action, Dialect, ProtocolGame, Session};
use stoneplay::ai::selfplay::{play_match, MatchConfig};
use stoneplay::ai::{InstantClock, Level, SearchControl, Searcher};
use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{Mill, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{perft, perft_divide, Game};

const USAGE: &str = "usage: engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]
       engine uai                      Territory Duel over UAI on stdin/stdout
       engine uci mill|stones          Mill or Stones! over UCI on stdin/stdout
       engine bench                    fixed-depth search speed per game
       engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--seed S]
  GAME      ataxx | stones | mill
  LEVEL     beginner | casual | intermediate | strong | master
  PRESET    for mill: nine (default), twelve, morabaraba, lasker, russian, cheng-san-qi, da-san-qi
  DEPTH     plies to count, 0..=12
  POSITION  the game's position text (ataxx: a FEN such as \"x5o/7/7/7/7/7/o5x x 0 1\";
            stones: \"W:a1,b1 B:a8,b8 w\"; mill: Sanmill's FEN)";

/// Deepest perft the command accepts: beyond it a run would take days.
const MAX_DEPTH: u32 = 12;

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

/// Parsed `perft` arguments.
struct PerftArgs {
    game: String,
    depth: u32,
    position: Option<String>,
    divide: bool,
    rules: Option<String>,
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("perft") => perft_command(parse_perft(&args[1..])?),
        Some("uai") if args.len() == 1 => {
            protocol_loop::<Ataxx>(Dialect::Uai);
            Ok(())
        }
        Some("uci") => match args.get(1).map(String::as_str) {
            Some("mill") if args.len() == 2 => {
                protocol_loop::<Mill>(Dialect::Uci);
                Ok(())
            }
            Some("stones") if args.len() == 2 => {
                protocol_loop::<Stones>(Dialect::Uci);
                Ok(())
            }
            _ => Err("usage: engine uci mill|stones".into()),
        },
        Some("bench") if args.len() == 1 => {
            bench();
            Ok(())
        }
        Some("match") => match_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
        None => Err(format!("no command given\n{USAGE}")),
    }
}

fn parse_perft(args: &[String]) -> Result<PerftArgs, String> {
    let mut divide = false;
    let mut rules = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--divide" => divide = true,
            "--rules" => rules = Some(it.next().ok_or("--rules needs a preset name")?.to_string()),
            flag if flag.starts_with("--") => return Err(format!("unknown option '{flag}'")),
            _ => rest.push(a.as_str()),
        }
    }
    let game = rest
        .first()
        .ok_or("perft needs a game and a depth")?
        .to_string();
    let depth_text = rest.get(1).ok_or("perft needs a depth")?;
    let depth: u32 = depth_text
        .parse()
        .map_err(|_| format!("depth '{depth_text}' is not a whole number"))?;
    if depth > MAX_DEPTH {
        return Err(format!("depth {depth} is above the maximum of {MAX_DEPTH}"));
    }
    let position = (rest.len() > 2).then(|| rest[2..].join(" "));
    Ok(PerftArgs {
        game,
        depth,
        position,
        divide,
        rules,
    })
}

fn perft_command(a: PerftArgs) -> Result<(), String> {
    match a.game.as_str() {
        "ataxx" | "territory-duel" => {
            if let Some(r) = &a.rules {
                return Err(format!("ataxx has no rule presets (got '{r}')"));
            }
            run_perft::<Ataxx>(&a, &AtaxxRules::default())
        }
        "stones" => {
            if let Some(r) = &a.rules {
                return Err(format!("stones has no rule presets (got '{r}')"));
            }
            run_perft::<Stones>(&a, &StonesRules)
        }
        "mill" => {
            let preset = match &a.rules {
                Some(name) => Preset::from_slug(name).ok_or_else(|| {
                    let known: Vec<&str> = Preset::ALL.iter().map(|p| p.slug()).collect();
                    format!(
                        "unknown Mill preset '{name}' (expected one of {})",
                        known.join(", ")
                    )
                })?,
                None => Preset::NineMensMorris,
            };
            run_perft::<Mill>(&a, &preset.rules())
        }
        other => Err(format!(
            "unknown game '{other}' (expected ataxx, stones or mill)"
        )),
    }
}

fn run_perft<G: Game>(a: &PerftArgs, rules: &G::Rules) -> Result<(), String> {
    let pos = match &a.position {
        Some(text) => G::from_text(text, rules).map_err(|e| e.to_string())?,
        None => G::start(rules),
    };
    if a.divide {
        let start = Instant::now();
        let mut total = 0;
        for (mv, n) in perft_divide(&pos, a.depth.max(1)) {
            println!("{mv} {n}");
            total += n;
        }
        println!("total {total} {}", start.elapsed().as_millis());
    } else {
        for depth in 1..=a.depth {
            let start = Instant::now();
            let nodes = perft(&pos, depth);
            println!("{depth} {nodes} {}", start.elapsed().as_millis());
        }
    }
    Ok(())
}

/// Reads protocol commands on this thread; a `go` searches on a spawned
/// thread with a stop flag, so `stop`, `isready` and `quit` are answered
/// while it runs. Any other command first waits for the running search.
fn protocol_loop<G: ProtocolGame + Send + 'static>(dialect: Dialect)
where
    G::Move: Send,
{
    let mut session = Session::<G>::new(dialect);
    let stop = Arc::new(AtomicBool::new(false));
    let mut running: Option<std::thread::JoinHandle<()>> = None;
    let mut infinite = false;
    let print = |lines: &[String]| {
        let mut out = std::io::stdout().lock();
        for l in lines {
            let _ = writeln!(out, "{l}");
        }
        let _ = out.flush();
    };
    let finish = |running: &mut Option<std::thread::JoinHandle<()>>, stop: &AtomicBool| {
        if let Some(h) = running.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = h.join();
        }
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let cmd = line.split_whitespace().next().unwrap_or("");
        // Other commands wait for a running search to finish on its own
        // (as a queue: `go depth 9` then `position …` keeps the search);
        // `stop` and `quit` end it at once.
        if matches!(cmd, "quit") {
            finish(&mut running, &stop);
        } else if !matches!(cmd, "isready" | "stop" | "") {
            if let Some(h) = running.take() {
                let _ = h.join();
            }
        }
        match session.handle(&line) {
            Action::Output(lines) => print(&lines),
            Action::Stop => finish(&mut running, &stop),
            Action::Quit => break,
            Action::Go(job) => {
                stop.store(false, Ordering::Relaxed);
                infinite = job.limits.infinite;
                let flag = Arc::clone(&stop);
                running = Some(std::thread::spawn(move || {
                    let clock = InstantClock::new();
                    let ctl = SearchControl {
                        clock: &clock,
                        stop: Some(&flag),
                    };
                    let mut searcher = Searcher::<G>::new(20);
                    let best = job.run(&mut searcher, &ctl, &mut |l| print(&[l]));
                    // `go infinite` answers only after `stop` (or `quit`).
                    while job.limits.infinite && !flag.load(Ordering::Relaxed) {
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    print(&[best]);
                }));
            }
        }
    }
    // End of input: a timed search may finish; an infinite one is stopped.
    if infinite {
        finish(&mut running, &stop);
    } else if let Some(h) = running.take() {
        let _ = h.join();
    }
}

/// `engine bench`: the fixed bench of [`stoneplay::ai::bench`], one line per game.
fn bench() {
    let lines = stoneplay::ai::bench::run(&InstantClock::new());
    for l in &lines {
        println!(
            "{} {} nodes {} ms {} nps",
            l.game,
            l.nodes,
            l.ms as u64,
            l.nps()
        );
    }
    let total = stoneplay::ai::bench::total(&lines);
    println!("bench {} nodes {} nps", total.nodes, total.nps());
}

fn match_command(args: &[String]) -> Result<(), String> {
    let mut rest = Vec::new();
    let mut movetime = None;
    let mut seed = 1u64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--movetime" => {
                let v = it.next().ok_or("--movetime needs milliseconds")?;
                movetime = Some(
                    v.parse::<u64>()
                        .map_err(|_| format!("--movetime '{v}' is not a whole number"))?,
                );
            }
            "--seed" => {
                let v = it.next().ok_or("--seed needs a number")?;
                seed = v
                    .parse()
                    .map_err(|_| format!("--seed '{v}' is not a whole number"))?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option '{flag}'")),
            _ => rest.push(a.as_str()),
        }
    }
    let [game, a, b, n] = rest[..] else {
        return Err("usage: engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--seed S]".into());
    };
    let a: Level = a.parse()?;
    let b: Level = b.parse()?;
    let games: u32 = n
        .parse()
        .map_err(|_| format!("N '{n}' is not a whole number"))?;
    let cfg = MatchConfig {
        games,
        movetime_ms: movetime,
        opening_plies: 2,
        seed,
    };
    let clock = InstantClock::new();
    let mut report = |i: u32, a_first: bool, a_won: Option<bool>, plies: usize| {
        let first = if a_first { a.slug() } else { b.slug() };
        let result = match a_won {
            None => "draw".to_string(),
            Some(true) => format!("{} wins", a.slug()),
            Some(false) => format!("{} wins", b.slug()),
        };
        println!("game {} ({first} first): {result} in {plies} plies", i + 1);
    };
    let score = match game {
        "ataxx" | "territory-duel" => {
            play_match(&Ataxx::default(), a, b, &cfg, &clock, &mut report)
        }
        "stones" => play_match(
            &Stones::start(&StonesRules),
            a,
            b,
            &cfg,
            &clock,
            &mut report,
        ),
        "mill" => play_match(
            &Mill::start(&Preset::NineMensMorris.rules()),
            a,
            b,
            &cfg,
            &clock,
            &mut report,
        ),
        other => {
            return Err(format!(
                "unknown game '{other}' (expected ataxx, mill or stones)"
            ))
        }
    };
    println!(
        "{} vs {}: {} wins, {} draws, {} losses",
        a.name(),
        b.name(),
        score.wins,
        score.draws,
        score.losses
    );
    Ok(())
}
