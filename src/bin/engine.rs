//! Native command line for the Stoneplay engines.
//!
//! ```text
//! engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]
//! engine uai [--eval hand|FILE]              (Territory Duel over UAI)
//! engine uci mill|stones [--eval hand|FILE]   (Sanmill-style UCI)
//! engine bench
//! engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--time-scale F] [--seed S]
//! engine duel OLD NEW --game GAME --tc 10+0.1 --games N --book FILE [...]
//! engine book GAME --plies N --count K --out FILE [...]
//! engine datagen GAME --positions N --out FILE [--nodes K] [--random-plies P] [--seed S] [--threads T] [--eval hand|FILE]
//! engine train ataxx|stones|mill --data FILE[,FILE...] --out FILE [--epochs E] [--lambda L] [--scale K] [--lr R] [--prior P] [--seed S]
//! ```
//! `perft` prints one line per depth, `DEPTH NODES MILLISECONDS`; with
//! `--divide` each root move with its count at DEPTH, then the total.
//! `uai`/`uci` read commands on stdin (see `stoneplay::ai::protocol`); a
//! `go` searches on a second thread so `stop` is heard at once. `bench`
//! searches fixed positions to a fixed depth and prints nodes per second;
//! `match` plays two levels against each other; `duel` plays two engine
//! binaries against each other (see `stoneplay::ai::duel`) and `book`
//! writes the balanced openings it plays from. Bad arguments get a
//! one-line error on stderr and exit code 2, never a panic.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use stoneplay::ai::duel::DuelGame;
use stoneplay::ai::protocol::{Action, Dialect, ProtocolGame, Session};
use stoneplay::ai::selfplay::{play_match, MatchConfig};
use stoneplay::ai::{InstantClock, Level, SearchControl, Searcher};
use stoneplay::games::ataxx::uai::UaiAtaxx;
use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{Mill, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{perft, perft_divide, Game};

const USAGE: &str = "usage: engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]
       engine uai [--eval hand|WEIGHTS_FILE]
                                       Territory Duel over UAI on stdin/stdout
       engine uci mill|stones [--eval hand|WEIGHTS_FILE]
                                       Mill or Stones! over UCI on stdin/stdout
       engine bench                    fixed-depth search speed per game
       engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--time-scale F] [--seed S]
       engine duel OLD NEW --game GAME --tc BASE+INC|--nodes N|--movetime MS --games N --book FILE
                   [--concurrency K] [--out FILE] [--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05]
                   [--margin MS] [--max-plies P] [--old-args ARGS] [--new-args ARGS]
                   [--old-option NAME=VALUE]... [--new-option NAME=VALUE]...
                                       match two engine binaries over UAI/UCI
       engine book GAME --plies N --count K --out FILE [--depth D] [--margin CP] [--seed S]
                                       balanced openings for duel
       engine datagen GAME --positions N --out FILE [--nodes K] [--random-plies P]
                   [--seed S] [--threads T] [--eval hand|WEIGHTS_FILE]
                                       self-play positions with score and result
                                       (appends; a stopped run resumes)
       engine train ataxx|stones|mill --data FILE[,FILE...] --out FILE [--epochs E] [--lambda L] [--scale K]
                   [--lr R] [--prior P] [--seed S]
                                       fit Territory Duel's, Stones!' or Mill's tables to datagen data
  GAME      ataxx | stones | mill
  LEVEL     beginner | casual | intermediate | strong | master
  PRESET    for mill: nine (default), twelve, morabaraba, lasker, russian, cheng-san-qi, da-san-qi
  DEPTH     plies to count, 0..=12
  POSITION  the game's position text (ataxx: a FEN such as \"x5o/7/7/7/7/7/o5x x 0 1\";
            stones: \"W:a1,b1 B:a8,b8 w\"; mill: Sanmill's FEN)";

/// One command's part of [`USAGE`] (its line and the option lines under
/// it), so a wrong call shows the same text as `engine` alone does.
fn usage(command: &str) -> String {
    let mut lines = USAGE.lines().skip_while(|l| {
        let l = l.trim_start().trim_start_matches("usage:").trim_start();
        l.strip_prefix("engine ")
            .is_none_or(|rest| rest.split_whitespace().next() != Some(command))
    });
    let Some(first) = lines.next() else {
        return USAGE.to_string();
    };
    let mut text = format!(
        "usage: {}",
        first.trim_start().trim_start_matches("usage:").trim_start()
    );
    for l in lines.take_while(|l| l.starts_with("                   [")) {
        text.push('\n');
        text.push_str(l);
    }
    text
}

/// `println!` for the command's results, except that a reader who has gone
/// (`engine bench | head -1`) ends the process quietly with success, as
/// Unix tools do, instead of a panic; any other write error ends it with a
/// one-line message.
macro_rules! out {
    ($($arg:tt)*) => {
        say(format_args!($($arg)*))
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
        Some("uai") => {
            protocol_eval(DuelGame::Ataxx, &args[1..], "uai")?;
            protocol_loop::<UaiAtaxx>(Dialect::Uai);
            Ok(())
        }
        Some("uci") => match args.get(1).map(String::as_str) {
            Some("mill") => {
                protocol_eval(DuelGame::Mill, &args[2..], "uci")?;
                protocol_loop::<Mill>(Dialect::Uci);
                Ok(())
            }
            Some("stones") => {
                protocol_eval(DuelGame::Stones, &args[2..], "uci")?;
                protocol_loop::<Stones>(Dialect::Uci);
                Ok(())
            }
            _ => Err(usage("uci")),
        },
        Some("bench") if args.len() == 1 => {
            bench();
            Ok(())
        }
        Some("match") => match_command(&args[1..]),
        Some("duel") => duel_command(&args[1..]),
        Some("book") => book_command(&args[1..]),
        Some("datagen") => datagen_command(&args[1..]),
        Some("train") => train_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            out!("{USAGE}");
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
            out!("{mv} {n}");
            total += n;
        }
        out!("total {total} {}", start.elapsed().as_millis());
    } else {
        for depth in 1..=a.depth {
            let start = Instant::now();
            let nodes = perft(&pos, depth);
            out!("{depth} {nodes} {}", start.elapsed().as_millis());
        }
    }
    Ok(())
}

/// What the protocol loop hears: an input line (or a line it cannot
/// read), the end of input, or the end of the running search.
enum Event {
    Line(Result<String, BadLine>),
    Eof,
    SearchDone,
}

/// An input line that is not a command: it gets one `info string error`.
enum BadLine {
    /// Not UTF-8 text; this many bytes.
    NotUtf8(usize),
    /// Longer than [`MAX_LINE`]; this many bytes (all skipped).
    TooLong(usize),
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadLine::NotUtf8(n) => write!(f, "the line is not UTF-8 text ({n} bytes ignored)"),
            BadLine::TooLong(n) => write!(
                f,
                "the line is longer than {MAX_LINE} bytes ({n} bytes ignored)"
            ),
        }
    }
}

/// The longest input line read: a `position … moves …` line of a game of
/// many thousand plies fits many times over, and a stream with no line
/// ends cannot fill the memory.
const MAX_LINE: usize = 1 << 20;

/// Reads stdin on its own thread, so input is heard while a search runs.
/// Lines end at `\n` (a `\r` before it is dropped; a last line without
/// one counts); a read error counts as the end of input.
fn read_input(tx: mpsc::Sender<Event>) {
    let mut input = std::io::stdin().lock();
    let mut buf = Vec::new();
    // Bytes of the current line, kept or not (past MAX_LINE).
    let mut len = 0usize;
    let send = |buf: &mut Vec<u8>, len: usize| {
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        let line = if len > MAX_LINE {
            Err(BadLine::TooLong(len))
        } else {
            String::from_utf8(std::mem::take(buf)).map_err(|e| BadLine::NotUtf8(e.as_bytes().len()))
        };
        buf.clear();
        tx.send(Event::Line(line)).is_ok()
    };
    loop {
        let chunk = match input.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(chunk) => chunk,
        };
        let (part, end) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        len = len.saturating_add(part.len());
        if len <= MAX_LINE {
            buf.extend_from_slice(part);
        } else {
            buf.clear();
        }
        let used = end.unwrap_or(chunk.len());
        input.consume(used);
        if end.is_some() {
            if !send(&mut buf, len) {
                return;
            }
            len = 0;
        }
    }
    if len > 0 && !send(&mut buf, len) {
        return;
    }
    let _ = tx.send(Event::Eof);
}

fn print_lines(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
}

/// Whether a command must wait for the running search to end (it changes
/// the game, the options or starts a search); every other command is
/// answered at once, even during a search.
fn waits_for_search(line: &str) -> bool {
    matches!(
        line.split_whitespace().next().unwrap_or(""),
        "go" | "position" | "setoption" | "uainewgame" | "ucinewgame"
    )
}

/// Whether `line` is a `quit` command.
fn is_quit(line: &str) -> bool {
    line.split_whitespace().next() == Some("quit")
}

/// The native protocol loop. One searcher serves the session (its
/// transposition table carries over between moves; a new game clears
/// it). Input is read on its own thread and never
/// blocks: while a search runs (on a spawned thread with a stop flag),
/// `stop`, `isready`, `d`, bad lines and (with nothing queued) `quit` are
/// answered at once, and commands that change the game or start a search
/// are queued until the search ends (`go depth 9` then `position …` keeps
/// the search). Once a
/// command is queued, every later one but `stop` and `isready` queues
/// behind it, `quit` included, so commands run in the order they came
/// and every `go` before a `quit` answers (as Stockfish reads a piped
/// script). End of input means `quit` after the last line. A `quit`
/// stops the search running when its turn comes, which prints its
/// `bestmove`, and the process exits. A line that is not UTF-8, or longer
/// than [`MAX_LINE`], gets one `info string error: …` and changes nothing.
/// A search's `bestmove` is printed here, when its thread has ended, so a
/// line that answers it never finds the search still running.
fn protocol_loop<G: ProtocolGame + Send + 'static>(dialect: Dialect)
where
    G::Move: Send,
{
    let mut session = Session::<G>::new(dialect);
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Event>();
    {
        let tx = tx.clone();
        std::thread::spawn(move || read_input(tx));
    }
    let mut running: Option<Search> = None;
    let mut queue: VecDeque<String> = VecDeque::new();
    // One searcher for the session: its transposition table and history
    // carry over from move to move (cleared by a new game).
    // Its table takes the `Hash` option's size (made again when it changes).
    let searcher = Arc::new(Mutex::new(Searcher::<G>::with_megabytes(
        session.hash_megabytes(),
    )));
    // Ends the running search now and prints its `bestmove` (then the
    // loop exits, so its SearchDone left in the channel is never read).
    let finish = |running: &mut Option<Search>| {
        if let Some(h) = running.take() {
            stop.store(true, Ordering::Relaxed);
            answer(h);
        }
    };
    loop {
        // Queued commands run once no search is running; a queued `quit`
        // (or the end of input) runs when its turn comes, stopping the
        // search started just before it, which still answers.
        loop {
            let quit_next = queue.front().is_some_and(|l| is_quit(l));
            if running.is_some() && !quit_next {
                break;
            }
            let Some(line) = queue.pop_front() else { break };
            if run_command(&mut session, &line, &stop, &mut running, &tx, &searcher) {
                return;
            }
        }
        let Ok(event) = rx.recv() else { return };
        match event {
            Event::SearchDone => {
                // The search is over: its `bestmove` is printed here, so
                // every line read after it (a GUI answers the move) finds
                // no search running.
                if let Some(h) = running.take() {
                    answer(h);
                }
            }
            Event::Eof => {
                // As if `quit` followed the last line, in its turn: with
                // nothing queued the running search stops now (it answers
                // with what it found); otherwise the queued commands run
                // first, each search to its own limits, and the last one
                // started is stopped when the `quit` comes up.
                if queue.is_empty() {
                    finish(&mut running);
                    return;
                }
                queue.push_back("quit".to_string());
            }
            Event::Line(Err(bad)) => print_lines(&[format!("info string error: {bad}")]),
            Event::Line(Ok(line)) => {
                // `stop` and `isready` are never queued; other commands
                // (`quit` too) keep their order behind queued ones, so
                // every `go` before a `quit` answers its `bestmove`.
                let urgent = matches!(line.split_whitespace().next(), Some("stop" | "isready"));
                if running.is_some() && (waits_for_search(&line) || (!queue.is_empty() && !urgent))
                {
                    queue.push_back(line);
                } else if run_command(&mut session, &line, &stop, &mut running, &tx, &searcher) {
                    finish(&mut running);
                    return;
                }
            }
        }
    }
}

/// A running search: its thread returns the `bestmove` line.
type Search = std::thread::JoinHandle<String>;

/// Waits for a search thread that ended or was told to stop, and prints
/// its `bestmove` line.
fn answer(h: Search) {
    let best = h.join().unwrap_or_else(|_| "bestmove (none)".to_string());
    print_lines(&[best]);
}

/// Handles one command; returns `true` for `quit`. `go` starts a search
/// thread (which prints its `info` lines, sends [`Event::SearchDone`] and
/// returns its `bestmove` line for the loop to print); `stop` and `quit`
/// set the stop flag of the running one.
fn run_command<G: ProtocolGame + Send + 'static>(
    session: &mut Session<G>,
    line: &str,
    stop: &Arc<AtomicBool>,
    running: &mut Option<Search>,
    tx: &mpsc::Sender<Event>,
    searcher: &Arc<Mutex<Searcher<G>>>,
) -> bool
where
    G::Move: Send,
{
    if matches!(
        line.split_whitespace().next(),
        Some("uainewgame" | "ucinewgame")
    ) {
        // No search runs now: new-game commands wait for it.
        searcher.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
    let hash_mb = session.hash_megabytes();
    let action = session.handle(line);
    if session.hash_megabytes() != hash_mb {
        // `setoption` waits for a running search, so the table is free.
        *searcher.lock().unwrap_or_else(|e| e.into_inner()) =
            Searcher::with_megabytes(session.hash_megabytes());
    }
    match action {
        Action::Output(lines) => print_lines(&lines),
        Action::Stop => stop.store(true, Ordering::Relaxed),
        Action::Quit => {
            stop.store(true, Ordering::Relaxed);
            if let Some(h) = running.take() {
                answer(h);
            }
            return true;
        }
        Action::Go(job) => {
            stop.store(false, Ordering::Relaxed);
            let flag = Arc::clone(stop);
            let tx = tx.clone();
            let searcher = Arc::clone(searcher);
            *running = Some(std::thread::spawn(move || {
                let clock = InstantClock::new();
                let ctl = SearchControl {
                    clock: &clock,
                    stop: Some(&flag),
                };
                let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                let best = job.run(&mut searcher, &ctl, &mut |l| print_lines(&[l]));
                drop(searcher);
                // `go infinite` answers only after `stop` (or `quit`).
                while job.limits.infinite && !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                let _ = tx.send(Event::SearchDone);
                best
            }));
        }
    }
    false
}

/// `engine bench`: the fixed bench of [`stoneplay::ai::bench`], one line per game.
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

fn match_command(args: &[String]) -> Result<(), String> {
    let mut rest = Vec::new();
    let mut movetime = None;
    let mut seed = 1u64;
    let mut time_scale = 1.0f64;
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
            "--time-scale" => {
                let v = it.next().ok_or("--time-scale needs a factor")?;
                time_scale = v
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && *f > 0.0 && *f <= 100.0)
                    .ok_or_else(|| {
                        format!("--time-scale '{v}' is not a factor above 0 and up to 100")
                    })?;
            }
            flag if flag.starts_with("--") => return Err(format!("unknown option '{flag}'")),
            _ => rest.push(a.as_str()),
        }
    }
    let [game, a, b, n] = rest[..] else {
        return Err(usage("match"));
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
        time_scale,
    };
    let clock = InstantClock::new();
    let mut report = |i: u32, a_first: bool, a_won: Option<bool>, plies: usize| {
        let first = if a_first { a.slug() } else { b.slug() };
        let result = match a_won {
            None => "draw".to_string(),
            Some(true) => format!("{} wins", a.slug()),
            Some(false) => format!("{} wins", b.slug()),
        };
        out!("game {} ({first} first): {result} in {plies} plies", i + 1);
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
    out!(
        "{} vs {}: {} wins, {} draws, {} losses",
        a.name(),
        b.name(),
        score.wins,
        score.draws,
        score.losses
    );
    Ok(())
}

/// Splits `--key value` options from positional arguments.
fn options(
    args: &[String],
    known: &[&str],
) -> Result<(Vec<String>, std::collections::HashMap<String, String>), String> {
    let mut rest = Vec::new();
    let mut opts = std::collections::HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(key) = a.strip_prefix("--") {
            if !known.contains(&key) {
                return Err(format!("unknown option '{a}'"));
            }
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            opts.insert(key.to_string(), v.clone());
        } else {
            rest.push(a.clone());
        }
    }
    Ok((rest, opts))
}

fn number<T: std::str::FromStr>(
    opts: &std::collections::HashMap<String, String>,
    key: &str,
) -> Result<Option<T>, String> {
    opts.get(key)
        .map(|v| {
            v.parse()
                .map_err(|_| format!("--{key} '{v}' is not a whole number"))
        })
        .transpose()
}

fn duel_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::duel::{self, DuelConfig, EngineSetup, MoveLimit, TimeControl};
    // `--old-option` and `--new-option` may be given many times; the other
    // options once.
    let mut setup = [EngineSetup::default(), EngineSetup::default()];
    let mut args = args.to_vec();
    let mut i = 0;
    while i < args.len() {
        let side = match args[i].as_str() {
            "--old-option" => 0,
            "--new-option" => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        let flag = args.remove(i);
        if i >= args.len() {
            return Err(format!("{flag} needs a value"));
        }
        let v = args.remove(i);
        let (name, value) = v
            .split_once('=')
            .filter(|(n, _)| !n.trim().is_empty())
            .ok_or_else(|| format!("{flag} '{v}': expected NAME=VALUE"))?;
        setup[side]
            .options
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    let (rest, opts) = options(
        &args,
        &[
            "game",
            "tc",
            "games",
            "book",
            "concurrency",
            "out",
            "sprt",
            "margin",
            "max-plies",
            "nodes",
            "movetime",
            "old-args",
            "new-args",
        ],
    )?;
    for (side, key) in ["old-args", "new-args"].into_iter().enumerate() {
        if let Some(a) = opts.get(key) {
            setup[side].args = Some(a.split_whitespace().map(str::to_string).collect());
        }
    }
    let [old, new] = &rest[..] else {
        return Err(usage("duel"));
    };
    let need = |k: &str| {
        opts.get(k)
            .cloned()
            .ok_or_else(|| format!("duel needs --{k}"))
    };
    let game = DuelGame::parse(&need("game")?)?;
    let nodes: Option<u64> = number(&opts, "nodes")?;
    if nodes == Some(0) {
        return Err("--nodes must be at least 1".into());
    }
    let movetime: Option<u64> = number(&opts, "movetime")?;
    if movetime == Some(0) {
        return Err("--movetime must be at least 1".into());
    }
    if movetime.is_some() && (opts.contains_key("tc") || nodes.is_some()) {
        return Err("--movetime goes without --tc and --nodes".into());
    }
    let limit = match (nodes, movetime) {
        (Some(n), _) => MoveLimit::Nodes(n),
        (None, Some(ms)) => MoveLimit::MoveTime(ms),
        (None, None) => MoveLimit::Clock,
    };
    // With --nodes the clock only catches a hung engine: 60 s a move
    // unless --tc says otherwise. With --movetime there is no clock.
    let tc = match (opts.get("tc"), limit) {
        (None, MoveLimit::Nodes(_) | MoveLimit::MoveTime(_)) => TimeControl::parse("60")?,
        _ => TimeControl::parse(&need("tc")?)?,
    };
    let games: u32 = number(&opts, "games")?.ok_or("duel needs --games")?;
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    let book_path = need("book")?;
    let book_text = std::fs::read_to_string(&book_path)
        .map_err(|e| format!("cannot read the book {book_path}: {e}"))?;
    let book = duel::read_book(game, &book_text)?;
    // Under a node limit our engines (and most others) play an opening's
    // two games the same way every time: games past two an opening would be
    // copies, and counting them would narrow the error bar for nothing.
    if matches!(limit, MoveLimit::Nodes(_)) && u64::from(games) > 2 * book.len() as u64 {
        return Err(format!(
            "--games {games} with --nodes: the book has {} openings, so games past {} would replay \
             the same games (a node limit makes them repeatable); use a larger book or fewer games",
            book.len(),
            2 * book.len()
        ));
    }
    let engines = [std::path::PathBuf::from(old), std::path::PathBuf::from(new)];
    for e in &engines {
        if !e.is_file() {
            return Err(format!("no engine binary at {}", e.display()));
        }
    }
    let sprt = opts
        .get("sprt")
        .map(|s| stoneplay::ai::stats::Sprt::parse(s))
        .transpose()?;
    let cfg = DuelConfig {
        game,
        engines,
        tc,
        limit,
        games,
        book,
        concurrency: number(&opts, "concurrency")?.unwrap_or(1usize).max(1),
        sprt,
        margin_ms: number(&opts, "margin")?.unwrap_or(100),
        max_plies: number(&opts, "max-plies")?.unwrap_or(2000),
        setup,
    };
    // The limit as the summary says it and as the games file's header
    // repeats the command line.
    let (limit_text, limit_flag) = match limit {
        MoveLimit::Nodes(n) => (format!("{n} nodes a move"), format!("nodes {n}")),
        MoveLimit::MoveTime(ms) => (format!("{ms} ms a move"), format!("movetime {ms}")),
        MoveLimit::Clock => (format!("tc {tc}"), format!("tc {tc}")),
    };
    let mut out = match opts.get("out") {
        Some(path) => {
            let mut f =
                std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?;
            let _ = writeln!(f, "{}", duel::GAMES_FILE_HEADER);
            let _ = writeln!(
                f,
                "# duel {} {} --game {} --{} --games {}{}",
                old,
                new,
                game.slug(),
                limit_flag,
                games,
                setup_flags(&cfg.setup)
            );
            Some(f)
        }
        None => None,
    };
    out!(
        "duel: new {new} vs old {old}, {}, {limit_text}, {} games from {} openings ({book_path}), concurrency {}",
        game.slug(),
        games.div_ceil(2) * 2,
        cfg.book.len(),
        cfg.concurrency
    );
    let summary = duel::run(&cfg, &mut |g, s| {
        if let Some(f) = out.as_mut() {
            let _ = writeln!(f, "{}", g.line());
            let _ = f.flush();
        }
        let t = s.games;
        let who = if g.new_first { "new-old" } else { "old-new" };
        out!(
            "game {} ({who}, opening {}): {} {} in {} plies | new W {} D {} L {}",
            g.index + 1,
            g.opening + 1,
            g.result.text(),
            g.reason,
            g.moves.len(),
            t.wins,
            t.draws,
            t.losses
        );
    });
    for l in summary.report(cfg.sprt.as_ref()) {
        out!("{l}");
    }
    Ok(())
}

/// The engine set-up flags of a duel, as the games file's header repeats
/// them (empty for our own engines).
fn setup_flags(setup: &[stoneplay::ai::duel::EngineSetup; 2]) -> String {
    let mut s = String::new();
    for (side, e) in ["old", "new"].iter().zip(setup) {
        if let Some(a) = &e.args {
            s += &format!(" --{side}-args '{}'", a.join(" "));
        }
        for (n, v) in &e.options {
            s += &format!(" --{side}-option '{n}={v}'");
        }
    }
    s
}

fn book_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::duel::{self, BookConfig};
    let (rest, opts) = options(args, &["plies", "count", "out", "depth", "margin", "seed"])?;
    let [game] = &rest[..] else {
        return Err(usage("book"));
    };
    let game = DuelGame::parse(game)?;
    let cfg = BookConfig {
        plies: number(&opts, "plies")?.ok_or("book needs --plies")?,
        count: number(&opts, "count")?.ok_or("book needs --count")?,
        depth: number(&opts, "depth")?.unwrap_or(4u32).clamp(1, 12),
        margin: number(&opts, "margin")?.unwrap_or(50),
        seed: number(&opts, "seed")?.unwrap_or(1),
    };
    let path = opts.get("out").ok_or("book needs --out")?;
    let book = duel::make_book(game, &cfg)?;
    let mut text = format!(
        "# {} openings: {} random plies, |score| <= {} at depth {}, seed {} (engine book {} --plies {} --count {} --depth {} --margin {} --seed {})\n",
        game.slug(),
        cfg.plies,
        cfg.margin,
        cfg.depth,
        cfg.seed,
        game.slug(),
        cfg.plies,
        cfg.count,
        cfg.depth,
        cfg.margin,
        cfg.seed
    );
    for l in &book {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
    out!("{} openings written to {path}", book.len());
    Ok(())
}

/// The options of `uai` and `uci GAME`: `--eval hand|FILE` plays with
/// those weights instead of the built-in ones (to try trained weights in
/// `duel` without a new build). Anything else is a usage error.
fn protocol_eval(game: DuelGame, args: &[String], command: &str) -> Result<(), String> {
    let (rest, opts) = options(args, &["eval"]).map_err(|_| usage(command))?;
    if !rest.is_empty() {
        return Err(usage(command));
    }
    match opts.get("eval") {
        Some(eval) => use_eval(game, eval),
        None => Ok(()),
    }
}

/// Makes `eval` ("hand" or a weights file) the evaluation of `game` for
/// this process instead of the built-in weights.
fn use_eval(game: DuelGame, eval: &str) -> Result<(), String> {
    use stoneplay::ai::eval::{mill, patterns, stones};
    type Parse = fn(&[u8]) -> Result<Vec<(i16, i16)>, String>;
    let read = |parse: Parse| {
        let bytes = std::fs::read(eval).map_err(|e| format!("cannot read {eval}: {e}"))?;
        parse(&bytes).map_err(|e| format!("{eval}: {e}"))
    };
    match game {
        DuelGame::Ataxx if eval == "hand" => patterns::use_weights(&patterns::hand_weights()),
        DuelGame::Ataxx => patterns::use_weights(&read(patterns::read_weights_file)?),
        DuelGame::Stones if eval == "hand" => stones::use_weights(&stones::hand_weights()),
        DuelGame::Stones => stones::use_weights(&read(stones::read_weights_file)?),
        DuelGame::Mill if eval == "hand" => mill::use_weights(&mill::hand_weights()),
        DuelGame::Mill => mill::use_weights(&read(mill::read_weights_file)?),
    }
}

fn datagen_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::datagen::DatagenConfig;
    let (rest, opts) = options(
        args,
        &[
            "positions",
            "out",
            "nodes",
            "random-plies",
            "seed",
            "threads",
            "eval",
        ],
    )?;
    let [game] = &rest[..] else {
        return Err(usage("datagen"));
    };
    let game = DuelGame::parse(game)?;
    let positions: u64 = number(&opts, "positions")?.ok_or("datagen needs --positions")?;
    if positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    let path = opts.get("out").ok_or("datagen needs --out")?.clone();
    let default_plies = match game {
        DuelGame::Ataxx => 4,
        DuelGame::Mill => 6,
        DuelGame::Stones => 8,
    };
    let cfg = DatagenConfig {
        nodes: number(&opts, "nodes")?
            .unwrap_or(5000u64)
            .clamp(1, 100_000_000),
        random_plies: number(&opts, "random-plies")?.unwrap_or(default_plies),
        seed: number(&opts, "seed")?.unwrap_or(1),
    };
    let threads: usize = number(&opts, "threads")?.unwrap_or(1usize).clamp(1, 256);
    let eval_name = opts.get("eval").map_or("built-in", String::as_str);
    if let Some(eval) = opts.get("eval") {
        use_eval(game, eval)?;
    }
    match game {
        DuelGame::Ataxx => datagen_run(
            Ataxx::start(&AtaxxRules::default()),
            game.slug(),
            &cfg,
            positions,
            &path,
            threads,
            eval_name,
        ),
        DuelGame::Mill => datagen_run(
            Mill::start(&Preset::NineMensMorris.rules()),
            game.slug(),
            &cfg,
            positions,
            &path,
            threads,
            eval_name,
        ),
        DuelGame::Stones => datagen_run(
            Stones::start(&StonesRules),
            game.slug(),
            &cfg,
            positions,
            &path,
            threads,
            eval_name,
        ),
    }
}

/// Plays games on `threads` threads until the file holds `positions`
/// positions, writing whole games in order (so the file is the same for
/// any thread count, and a stopped run resumes where it was).
fn datagen_run<G>(
    start: G,
    slug: &str,
    cfg: &stoneplay::ai::datagen::DatagenConfig,
    positions: u64,
    path: &str,
    threads: usize,
    eval: &str,
) -> Result<(), String>
where
    G: Game + stoneplay::ai::Evaluate + Send + Sync + 'static,
{
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicU64;
    use stoneplay::ai::datagen::{play_game, resume_point};
    let header = format!("{} eval={eval}", cfg.header(slug));
    let existing = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| format!("{path} is not text"))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {path}: {e}")),
    };
    let point = resume_point(&existing, &header).map_err(|e| format!("{path}: {e}"))?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {path}: {e}"))?;
    file.set_len(point.keep_bytes as u64)
        .map_err(|e| format!("cannot cut {path} after its last whole game: {e}"))?;
    let mut file = std::io::BufWriter::new(file);
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| format!("cannot append to {path}: {e}"))?;
    if point.keep_bytes == 0 {
        writeln!(file, "{header}").map_err(|e| format!("cannot write {path}: {e}"))?;
    }
    let mut written = point.positions;
    if written >= positions {
        out!("{path} already holds {written} positions");
        return Ok(());
    }
    if point.next_game > 0 {
        eprintln!(
            "resuming {path}: {written} positions in {} games",
            point.next_game
        );
    }
    let next = Arc::new(AtomicU64::new(point.next_game));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(u64, Vec<String>)>();
    let mut workers = Vec::new();
    for _ in 0..threads {
        let (next, stop, tx, start, cfg) =
            (next.clone(), stop.clone(), tx.clone(), start.clone(), *cfg);
        workers.push(std::thread::spawn(move || {
            let mut searcher = Searcher::<G>::new(18);
            while !stop.load(Ordering::Relaxed) {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let lines = play_game(&start, index, &cfg, &mut searcher);
                if tx.send((index, lines)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let started = Instant::now();
    let mut pending: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut want = point.next_game;
    let mut games = 0u64;
    let mut last_report = Instant::now();
    'outer: for (index, lines) in rx.iter() {
        pending.insert(index, lines);
        while let Some(lines) = pending.remove(&want) {
            let mut block = String::new();
            for l in &lines {
                block.push_str(l);
                block.push('\n');
            }
            file.write_all(block.as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| format!("cannot write {path}: {e}"))?;
            written += lines.len() as u64 - 1;
            games += 1;
            want += 1;
            if last_report.elapsed().as_secs() >= 30 {
                last_report = Instant::now();
                eprintln!(
                    "{written}/{positions} positions, {games} games in {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
            if written >= positions {
                break 'outer;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    drop(rx);
    for w in workers {
        let _ = w.join();
    }
    out!(
        "{path}: {written} positions ({games} new games in {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn train_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::train::{AtaxxTables, MillTables, StonesTables};
    let (rest, opts) = options(
        args,
        &[
            "data", "out", "epochs", "lambda", "scale", "lr", "prior", "seed",
        ],
    )?;
    match &rest[..] {
        [game] if game == "ataxx" || game == "territory-duel" => {
            train_run::<AtaxxTables>(&opts, stoneplay::ai::eval::patterns::weights_file)
        }
        [game] if game == "stones" => {
            train_run::<StonesTables>(&opts, stoneplay::ai::eval::stones::weights_file)
        }
        [game] if game == "mill" => {
            train_run::<MillTables>(&opts, stoneplay::ai::eval::mill::weights_file)
        }
        _ => Err(usage("train")),
    }
}

fn train_run<M: stoneplay::ai::train::TableModel>(
    opts: &std::collections::HashMap<String, String>,
    weights_file: fn(&[(i16, i16)]) -> Vec<u8>,
) -> Result<(), String> {
    use stoneplay::ai::train::{read_samples, train, TrainConfig};
    let data = opts.get("data").ok_or("train needs --data")?;
    let path = opts.get("out").ok_or("train needs --out")?;
    let float = |key: &str, lo: f64, hi: f64| -> Result<Option<f64>, String> {
        opts.get(key)
            .map(|v| {
                v.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite() && *x >= lo && *x <= hi)
                    .ok_or_else(|| format!("--{key} '{v}' is not a number from {lo} to {hi}"))
            })
            .transpose()
    };
    let defaults = TrainConfig::default();
    let cfg = TrainConfig {
        epochs: number(opts, "epochs")?
            .unwrap_or(defaults.epochs)
            .clamp(1, 1000),
        lambda: float("lambda", 0.0, 1.0)?.unwrap_or(defaults.lambda),
        scale: float("scale", 1.0, 100_000.0)?,
        lr: float("lr", 1e-6, 1000.0)?.unwrap_or(defaults.lr),
        prior: float("prior", 0.0, 1e6)?.unwrap_or(defaults.prior),
        seed: number(opts, "seed")?.unwrap_or(defaults.seed),
        ..defaults
    };
    let started = Instant::now();
    let mut samples = Vec::new();
    for file in data.split(',') {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        samples.extend(read_samples::<M>(&text).map_err(|e| format!("{file}: {e}"))?);
    }
    if samples.len() < 1000 {
        return Err(format!(
            "only {} positions in {data}: too few to train on",
            samples.len()
        ));
    }
    eprintln!(
        "{} positions read in {:.1} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    let trained = train::<M>(&mut samples, &cfg, &mut |r| {
        eprintln!(
            "epoch {:>3}  train loss {:.5}  held-out loss {:.5}  ({:.0} s)",
            r.epoch,
            r.train_loss,
            r.validation_loss,
            started.elapsed().as_secs_f64()
        );
    });
    std::fs::write(path, weights_file(&trained.weights))
        .map_err(|e| format!("cannot write {path}: {e}"))?;
    out!(
        "{path}: trained on {} positions ({} held out), K = {:.1}, lambda = {}, {} epochs; held-out loss from {:.5} (the hand-written weights)",
        trained.train,
        trained.validation,
        trained.scale,
        cfg.lambda,
        cfg.epochs,
        trained.start_validation_loss
    );
    Ok(())
}
