//! `engine uai` and `engine uci mill|stones`: the native loop around
//! the text protocols' state machine ([`stoneplay::ai::uci`]): input on
//! its own thread, a `go` searching on a second thread with a stop flag,
//! the commands that must wait queued behind the running search.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use stoneplay::ai::engine::{use_eval, EngineGame};
use stoneplay::ai::uci::{Dialect, ProtocolGame, Reply, Session};
use stoneplay::ai::{InstantClock, SearchControl, Searcher};
use stoneplay::games::ataxx::Ataxx;
use stoneplay::games::GameKind;

use crate::args::{options, usage};
use crate::net::use_net;

/// `engine uai [--eval …]`: Territory Duel over UAI.
pub fn uai(args: &[String]) -> Result<(), String> {
    protocol::<Ataxx>(args, "uai")
}

/// `engine uci mill|stones [--eval …]`: Mill or Stones! over UCI (a game
/// of the list whose protocol is UCI).
pub fn uci(args: &[String]) -> Result<(), String> {
    let kind = args
        .first()
        .and_then(|name| GameKind::parse(name).ok())
        .ok_or_else(|| usage("uci"))?;
    stoneplay::with_game!(kind, G => protocol::<G>(&args[1..], "uci"))
}

/// Reads the options of `command` (`--eval`), then runs `G`'s protocol on
/// stdin and stdout.
fn protocol<G: EngineGame>(args: &[String], command: &str) -> Result<(), String> {
    if G::Speaks::DIALECT.word() != command {
        return Err(usage(command));
    }
    protocol_eval::<G>(args, command)?;
    protocol_loop::<G::Speaks>(G::Speaks::DIALECT);
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
        Reply::Output(lines) => print_lines(&lines),
        Reply::Stop => stop.store(true, Ordering::Relaxed),
        Reply::Quit => {
            stop.store(true, Ordering::Relaxed);
            if let Some(h) = running.take() {
                answer(h);
            }
            return true;
        }
        Reply::Go(job) => {
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
/// The options of `uai` and `uci GAME`: `--eval hand|FILE` plays with
/// those weights instead of the built-in ones (to try trained weights in
/// `duel` without a new build), and for `uai` `--net FILE|none` with that
/// network (or the pattern tables) at Strong and Master. Anything else is
/// a usage error.
fn protocol_eval<G: EngineGame>(args: &[String], command: &str) -> Result<(), String> {
    let known: &[&str] = match G::KIND {
        GameKind::Ataxx => &["eval", "net"],
        _ => &["eval"],
    };
    let (rest, opts) = options(args, known).map_err(|_| usage(command))?;
    if !rest.is_empty() {
        return Err(usage(command));
    }
    if let Some(net) = opts.get("net") {
        use_net(net)?;
    }
    match opts.get("eval") {
        Some(eval) => use_eval::<G>(eval),
        None => Ok(()),
    }
}
