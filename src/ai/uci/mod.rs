//! The text protocols of the `engine` command line, as a state machine
//! that turns input lines into output lines, so tests run transcripts
//! without spawning processes.
//!
//! - Territory Duel speaks UAI (`uai`/`uaiok`, `uainewgame`), the Ataxx
//!   dialect of UCI; X is "black" there, so X's clock is `btime`/`binc`.
//! - Mill and Stones! speak UCI (`uci`/`uciok`, `ucinewgame`) in Sanmill's
//!   shape, with their own move and position notation; White's clock is
//!   `wtime`/`winc`.
//!
//! Every game also takes `setoption name Level value <slug>` (default
//! Master) and answers `d` with `info string fen <position>`. Bad input of
//! any kind gets one `info string error: …` line and changes nothing,
//! except a `go` number out of range: it is clamped, said so in one such
//! line, and the search runs (a tool waits for its `bestmove`).
//! A `go` becomes a [`GoJob`]: the caller runs it at once (tests, the
//! browser) or on a thread with a stop flag (the native command line).
//! Each game's [`ProtocolGame`] impl (its name, clocks and options) is in
//! its own file: `ataxx.rs`, `stones.rs`, `mill.rs`.

mod ataxx;
mod mill;
mod stones;

use super::{
    Clock, Evaluate, Level, SearchControl, SearchInfo, SearchLimits, SearchRequest, Searcher, MATE,
    MATE_BOUND,
};
use crate::games::{Game, Outcome, Record};

/// Which handshake words the session uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Ataxx's UAI: `uai`, `uaiok`, `uainewgame`.
    Uai,
    /// UCI: `uci`, `uciok`, `ucinewgame`.
    Uci,
}

impl Dialect {
    /// `uai` or `uci`; `…ok` and `…newgame` follow from it.
    pub fn word(self) -> &'static str {
        match self {
            Dialect::Uai => "uai",
            Dialect::Uci => "uci",
        }
    }
}

/// What a game adds to the protocol: its name, its clock names and its
/// rule options.
pub trait ProtocolGame: Game + Evaluate {
    /// The game's name in `id name`.
    const NAME: &'static str;
    /// The handshake words it speaks.
    const DIALECT: Dialect;
    /// The arguments after the engine binary that start this protocol
    /// (`uai`, `uci mill`): what `engine duel` runs.
    const COMMAND: &'static [&'static str];
    /// Lines the `engine duel` referee sends after the handshake.
    const REFEREE_OPTIONS: &'static [&'static str] = &[];
    /// The `go` keywords for the first player's time and increment.
    const FIRST_CLOCK: (&'static str, &'static str);
    /// The `go` keywords for the second player's time and increment.
    const SECOND_CLOCK: (&'static str, &'static str);

    /// Whether a `go` on the clock sets a soft limit (no new iteration
    /// past a twenty-fifth of the clock plus 60 % of the increment,
    /// scaled by how settled the best move is) under a hard one (an
    /// eighth of the clock plus the increment), instead of one limit (a
    /// twentieth plus three quarters of the increment). Territory Duel:
    /// measured with `engine duel` (docs/engine.md, "Engine changes and
    /// their matches"); Mill and Stones! keep the one limit.
    const SOFT_CLOCK: bool = false;

    /// `option name …` lines announced after `id`.
    fn option_lines(_rules: &Self::Rules) -> Vec<String> {
        Vec::new()
    }

    /// Why the game is over, for `info string game over: …`.
    fn end_text(&self, outcome: Outcome) -> String {
        outcome.reason.describe().to_string()
    }

    /// Applies `setoption name <name> value <value>` to `rules`; the rules
    /// are unchanged on error.
    fn set_rule_option(_rules: &mut Self::Rules, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
}

/// What the caller must do after a line.
#[derive(Debug)]
pub enum Reply<G: Game> {
    /// Print these lines.
    Output(Vec<String>),
    /// Run this search, printing its `info` lines and `bestmove`.
    Go(GoJob<G>),
    /// Stop a running search (it then prints its `bestmove`).
    Stop,
    /// End the session.
    Quit,
}

/// A search asked for by `go`: self-contained, so it can move to a thread.
#[derive(Clone, Debug)]
pub struct GoJob<G: Game> {
    /// The game so far (its current position is searched).
    pub record: Record<G>,
    /// The limits from the `go` line.
    pub limits: SearchLimits,
    /// The level set by `setoption name Level`.
    pub level: Level,
    /// The seed for the level's random choices.
    pub seed: u64,
    /// What was wrong with the `go` line though it still searches (a
    /// number out of range, clamped): each becomes one
    /// `info string error: …` before the search's own lines.
    pub notes: Vec<String>,
}

/// Formats a score the UCI way: `cp N` or `mate N` (moves, negative when losing).
pub fn score_text(score: i32) -> String {
    if score > MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        format!("mate -{}", (MATE + score + 1) / 2)
    } else {
        format!("cp {score}")
    }
}

impl<G: ProtocolGame> GoJob<G> {
    /// Runs the search, sending `info` lines after each iteration to
    /// `out`, and returns the `bestmove` line (`bestmove (none)` when the
    /// game is over). The caller prints it: after `go infinite` only once
    /// `stop` has come, as UCI asks.
    pub fn run(
        &self,
        searcher: &mut Searcher<G>,
        ctl: &SearchControl,
        out: &mut dyn FnMut(String),
    ) -> String {
        for n in &self.notes {
            out(format!("info string error: {n}"));
        }
        if let Some(o) = self.record.outcome() {
            out(format!(
                "info string game over: {}",
                self.record.position().end_text(o)
            ));
            return "bestmove (none)".into();
        }
        let history = super::history_of(&self.record);
        let req = SearchRequest {
            position: self.record.position(),
            history: &history,
            // Opening variety only from the usual start: a position set up
            // by `fen` gets the level's best move.
            game_ply: if self.record.start() == &G::start(self.record.position().rules()) {
                self.record.moves().len()
            } else {
                usize::MAX
            },
            limits: self.limits,
            level: self.level,
            seed: self.seed,
        };
        let mut on_info = |i: &SearchInfo<G::Move>| {
            let ms = i.elapsed_ms.max(0.0);
            let nps = if ms > 0.0 {
                (i.nodes as f64 * 1000.0 / ms) as u64
            } else {
                0
            };
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            out(format!(
                "info depth {} score {} nodes {} nps {nps} time {} pv {}",
                i.depth,
                score_text(i.score),
                i.nodes,
                ms as u64,
                pv.join(" ")
            ));
        };
        let result = searcher.think(&req, ctl, &mut on_info);
        match result.best {
            Some(mv) => format!("bestmove {mv}"),
            None => "bestmove (none)".into(),
        }
    }
}

/// The `Hash` option: the transposition table's size in MiB, as chess
/// engines offer it. 32 MiB holds 2^20 entries of every game.
pub const HASH_DEFAULT_MB: usize = 32;
/// The smallest and largest `Hash` accepted.
pub const HASH_RANGE_MB: (usize, usize) = (1, 1024);

/// The `MoveOverhead` option: milliseconds taken off the clock before a
/// move's time is worked out, for the time a move spends outside the
/// search (pipes, the referee, a busy machine), as chess engines offer it.
/// Standalone the engine answers within about a millisecond of its limit;
/// a referee on a shared machine may need more.
pub const MOVE_OVERHEAD_DEFAULT_MS: u64 = 10;
/// The largest `MoveOverhead` accepted.
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5000;

/// One protocol session: the rules, the game set up by `position`, the
/// level, the table size, and a searcher kept between moves.
pub struct Session<G: ProtocolGame> {
    dialect: Dialect,
    rules: G::Rules,
    record: Record<G>,
    level: Level,
    seed: u64,
    hash_mb: usize,
    move_overhead_ms: u64,
    /// The synchronous loop's searcher, made at its first `go` (a host
    /// with its own searcher never pays for this one).
    searcher: Option<Searcher<G>>,
}

impl<G: ProtocolGame> Session<G> {
    /// A session at the start position under the default rules.
    pub fn new(dialect: Dialect) -> Self {
        let rules = G::Rules::default();
        Session {
            dialect,
            record: Record::new(G::start(&rules)),
            rules,
            level: Level::Master,
            seed: 0,
            hash_mb: HASH_DEFAULT_MB,
            move_overhead_ms: MOVE_OVERHEAD_DEFAULT_MS,
            searcher: None,
        }
    }

    /// The transposition table size set by the `Hash` option, in MiB.
    pub fn hash_megabytes(&self) -> usize {
        self.hash_mb
    }

    /// The game as set up by the last `position` command.
    pub fn record(&self) -> &Record<G> {
        &self.record
    }

    fn err(msg: impl std::fmt::Display) -> Reply<G> {
        Reply::Output(vec![format!("info string error: {msg}")])
    }

    /// Interprets one input line.
    pub fn handle(&mut self, line: &str) -> Reply<G> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            return Reply::Output(Vec::new());
        };
        let hello = self.dialect.word();
        match cmd {
            c if c == hello => {
                let mut out = vec![
                    format!("id name Stoneplay {}", G::NAME),
                    "id author the Stoneplay authors".to_string(),
                    format!(
                        "option name Level type combo default master {}",
                        Level::ALL
                            .iter()
                            .map(|l| format!("var {}", l.slug()))
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                    format!(
                        "option name Hash type spin default {HASH_DEFAULT_MB} min {} max {}",
                        HASH_RANGE_MB.0, HASH_RANGE_MB.1
                    ),
                    format!(
                        "option name MoveOverhead type spin default {MOVE_OVERHEAD_DEFAULT_MS} min 0 max {MOVE_OVERHEAD_MAX_MS}"
                    ),
                ];
                out.extend(G::option_lines(&self.rules));
                out.push(format!("{hello}ok"));
                Reply::Output(out)
            }
            "isready" => Reply::Output(vec!["readyok".into()]),
            c if c == format!("{hello}newgame") => {
                self.record = Record::new(G::start(&self.rules));
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
                self.seed = self.seed.wrapping_add(1);
                Reply::Output(Vec::new())
            }
            "setoption" => self.setoption(&words[1..]),
            "position" => self.position(&words[1..]),
            "go" => match parse_go::<G>(
                &words[1..],
                self.record.position().side_to_move(),
                self.move_overhead_ms,
            ) {
                Ok((limits, notes)) => Reply::Go(GoJob {
                    record: self.record.clone(),
                    limits,
                    level: self.level,
                    seed: self.seed,
                    notes,
                }),
                Err(e) => Self::err(e),
            },
            "stop" => Reply::Stop,
            "quit" => Reply::Quit,
            "d" => Reply::Output(vec![format!(
                "info string fen {}",
                self.record.position().to_text()
            )]),
            _ => Self::err(format!("unknown command '{cmd}'")),
        }
    }

    fn setoption(&mut self, args: &[&str]) -> Reply<G> {
        // setoption name <name…> [value <value…>]
        if args.first() != Some(&"name") {
            return Self::err("expected 'setoption name <option> value <value>'");
        }
        let vpos = args.iter().position(|&w| w == "value");
        let name = args[1..vpos.unwrap_or(args.len())].join(" ");
        let value = vpos.map(|v| args[v + 1..].join(" ")).unwrap_or_default();
        if name.is_empty() {
            return Self::err("setoption needs an option name");
        }
        if name.eq_ignore_ascii_case("hash") {
            let (lo, hi) = HASH_RANGE_MB;
            return match value.parse::<usize>() {
                Ok(mb) if (lo..=hi).contains(&mb) => {
                    if mb != self.hash_mb {
                        self.hash_mb = mb;
                        self.searcher = None;
                    }
                    Reply::Output(Vec::new())
                }
                _ => Self::err(format!(
                    "Hash '{value}' is not a whole number of MiB from {lo} to {hi}; the table stays at {} MiB",
                    self.hash_mb
                )),
            };
        }
        // Stockfish spells it "Move Overhead".
        if name.replace(' ', "").eq_ignore_ascii_case("moveoverhead") {
            return match value.parse::<u64>() {
                Ok(ms) if ms <= MOVE_OVERHEAD_MAX_MS => {
                    self.move_overhead_ms = ms;
                    Reply::Output(Vec::new())
                }
                _ => Self::err(format!(
                    "MoveOverhead '{value}' is not a whole number of milliseconds from 0 to {MOVE_OVERHEAD_MAX_MS}; it stays at {} ms",
                    self.move_overhead_ms
                )),
            };
        }
        if name.eq_ignore_ascii_case("level") {
            return match value.parse::<Level>() {
                Ok(l) => {
                    self.level = l;
                    Reply::Output(Vec::new())
                }
                Err(e) => Self::err(e),
            };
        }
        let mut rules = self.rules.clone();
        match G::set_rule_option(&mut rules, &name, &value) {
            Ok(()) => {
                if rules != self.rules {
                    // New rules, new game (as Sanmill does).
                    self.rules = rules;
                    self.record = Record::new(G::start(&self.rules));
                }
                Reply::Output(Vec::new())
            }
            Err(e) => Self::err(e),
        }
    }

    fn position(&mut self, args: &[&str]) -> Reply<G> {
        let mpos = args.iter().position(|&w| w == "moves");
        let setup = &args[..mpos.unwrap_or(args.len())];
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => G::start(&self.rules),
            Some(&"startpos") => return Self::err("unexpected text after startpos"),
            Some(&"fen") if setup.len() > 1 => {
                match G::from_text(&setup[1..].join(" "), &self.rules) {
                    Ok(p) => p,
                    Err(e) => return Self::err(e),
                }
            }
            Some(&"fen") => return Self::err("position fen needs a position"),
            _ => return Self::err("expected 'position startpos|fen <fen> [moves …]'"),
        };
        let mut record = Record::new(start);
        if let Some(m) = mpos {
            for text in &args[m + 1..] {
                if let Err(e) = record.play_text(text) {
                    return Self::err(format!("move '{text}': {e}"));
                }
            }
        }
        self.record = record;
        Reply::Output(Vec::new())
    }

    /// Handles one line and, for `go`, runs the search at once with
    /// `clock`: the synchronous loop of tests and single-threaded hosts.
    /// Returns the output lines, and whether the session should end.
    pub fn handle_sync(&mut self, line: &str, clock: &dyn Clock) -> (Vec<String>, bool) {
        match self.handle(line) {
            Reply::Output(lines) => (lines, false),
            Reply::Stop => (Vec::new(), false),
            Reply::Quit => (Vec::new(), true),
            Reply::Go(job) => {
                let mut out = Vec::new();
                let ctl = SearchControl { clock, stop: None };
                let mb = self.hash_mb;
                let searcher = self
                    .searcher
                    .get_or_insert_with(|| Searcher::with_megabytes(mb));
                let best = job.run(searcher, &ctl, &mut |l| out.push(l));
                out.push(best);
                (out, false)
            }
        }
    }
}

/// Runs a transcript: every input line in order (stopping at `quit`),
/// collecting every output line. `go` searches synchronously.
pub fn transcript<G: ProtocolGame>(
    dialect: Dialect,
    lines: &[&str],
    clock: &dyn Clock,
) -> Vec<String> {
    let mut session = Session::<G>::new(dialect);
    let mut out = Vec::new();
    for line in lines {
        let (lines, quit) = session.handle_sync(line, clock);
        out.extend(lines);
        if quit {
            break;
        }
    }
    out
}

/// Reads a `go` number: a whole number, with an optional sign. Out of
/// range is not fatal (tournament tools send negative clocks when an
/// engine is over its time, and a refused `go` would never answer):
/// below 0 reads as 0 and above `u64::MAX` as `u64::MAX`, with a note
/// for the caller to print. Anything else is an error.
fn go_number(key: &str, text: Option<&&str>) -> Result<(u64, Option<String>), String> {
    let text = *text.ok_or_else(|| format!("go {key} needs a number"))?;
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("go {key}: '{text}' is not a whole number"));
    }
    if negative && digits.bytes().any(|b| b != b'0') {
        return Ok((0, Some(format!("go {key}: '{text}' is below 0; read as 0"))));
    }
    match digits.parse::<u64>() {
        Ok(v) => Ok((v, None)),
        Err(_) => Ok((
            u64::MAX,
            Some(format!(
                "go {key}: '{text}' is too large; read as {}",
                u64::MAX
            )),
        )),
    }
}

/// Parses the words after `go` into limits and notes: a number out of
/// range is clamped (see [`go_number`]; a depth to 1..=[`super::MAX_DEPTH`])
/// and noted, so every `go` made of known words and numbers searches and
/// answers `bestmove`. An unknown word or a missing or non-numeric value
/// refuses the line. The mover's clock is read as `overhead` ms shorter
/// (the `MoveOverhead` option; never below 1 ms).
fn parse_go<G: ProtocolGame>(
    args: &[&str],
    mover: crate::games::Side,
    overhead: u64,
) -> Result<(SearchLimits, Vec<String>), String> {
    let mut limits = SearchLimits::default();
    let mut notes = Vec::new();
    let (mut time, mut inc) = (None, 0u64);
    let (my_time, my_inc) = match mover {
        crate::games::Side::First => G::FIRST_CLOCK,
        crate::games::Side::Second => G::SECOND_CLOCK,
    };
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        if key == "infinite" {
            limits.infinite = true;
            i += 1;
            continue;
        }
        if !matches!(
            key,
            "depth" | "movetime" | "nodes" | "movestogo" | "wtime" | "btime" | "winc" | "binc"
        ) {
            return Err(format!("go: unknown parameter '{key}'"));
        }
        let (v, note) = go_number(key, args.get(i + 1))?;
        if key == "depth" {
            let max = super::MAX_DEPTH;
            let d = v.clamp(1, u64::from(max)) as u32;
            if note.is_some() || u64::from(d) != v {
                notes.push(format!(
                    "go depth: '{}' is outside 1 to {max}; read as {d}",
                    args[i + 1]
                ));
            }
            limits.depth = Some(d);
        } else {
            notes.extend(note);
            match key {
                "movetime" => limits.movetime_ms = Some(v.max(1)),
                "nodes" => limits.nodes = Some(v),
                _ if key == my_time => time = Some(v),
                _ if key == my_inc => inc = v,
                _ => {}
            }
        }
        i += 2;
    }
    if let (Some(t), None) = (time, limits.movetime_ms) {
        let t = t.saturating_sub(overhead).max(1);
        if !G::SOFT_CLOCK {
            // A twentieth of the clock plus most of the increment, never
            // more than half of what is left (saturating: any u64 is
            // accepted).
            let ms = (t / 20).saturating_add(inc / 4 * 3).min(t / 2).max(1);
            limits.movetime_ms = Some(ms);
            return Ok((limits, notes));
        }
        // No new iteration past a twenty-fifth of the clock plus 60 % of
        // the increment (scaled by how settled the best move is, see
        // `SearchLimits::soft_ms`); a running one may go on to an eighth
        // of the clock plus the increment, never more than half of what
        // is left (saturating: any u64 is accepted).
        let soft = (t / 25).saturating_add(inc / 5 * 3).min(t / 2).max(1);
        let hard = (t / 8).saturating_add(inc).min(t / 2).max(1);
        limits.movetime_ms = Some(hard);
        limits.soft_ms = Some(soft);
    }
    Ok((limits, notes))
}
