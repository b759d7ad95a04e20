//! `engine duel`: a match between two engine binaries, each a child
//! process spoken to over UAI (Territory Duel) or our UCI dialect (Mill,
//! Stones!), and `engine book`: balanced opening books for it.
//!
//! The runner is the referee: every move is checked and played on a
//! [`Record`] under our rules (Territory Duel in pass mode with rule 5,
//! Mill's Nine Men's Morris, Stones!), which decides every ending,
//! repetition included (Territory Duel: by the piece count, as the rules
//! file says; Mill: a draw). An engine loses a game by running out of its clock
//! (with `margin_ms` of grace for the pipe and the scheduler), by an
//! illegal or unreadable move, by answering `bestmove (none)` in a live
//! position, or by crashing (its process ends); the game file names the
//! reason. Openings come from a book, each played twice with colours
//! swapped (a pair), so the Elo and the SPRT are computed from pairs
//! (pentanomial, see [`super::stats`]). Each game gets fresh processes.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::engine::EngineGame;
use super::stats::{elo, EloEstimate, Pentanomial, Sprt, Trinomial, Verdict};
use super::uci::ProtocolGame;
use super::{Evaluate, Level, SearchControl, SearchLimits, SearchRequest, SplitMix64};
use crate::games::{Game, GameKind, Record, Side};

/// The protocol words of one game.
#[derive(Clone, Copy, Debug)]
struct ProtocolWords {
    /// Arguments after the engine binary (`uai`, `uci mill`, …).
    args: &'static [&'static str],
    /// `uai` or `uci`; `…ok` and `…newgame` follow from it.
    hello: &'static str,
    /// Lines sent after the handshake.
    options: &'static [&'static str],
    /// The `go` keywords of the first and second player's clock.
    clocks: [(&'static str, &'static str); 2],
}

impl ProtocolWords {
    /// How the referee talks to an engine for `P` (from its protocol:
    /// [`ProtocolGame`]).
    fn of<P: ProtocolGame>() -> ProtocolWords {
        ProtocolWords {
            args: P::COMMAND,
            hello: P::DIALECT.word(),
            options: P::REFEREE_OPTIONS,
            clocks: [P::FIRST_CLOCK, P::SECOND_CLOCK],
        }
    }
}

/// A time control: a base per game and an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    /// Reads `BASE+INC` in seconds (`10+0.1`, `0.5+0.01`, `60`).
    pub fn parse(s: &str) -> Result<TimeControl, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<u64, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("--tc '{s}': '{t}' is not a number of seconds"))?;
            if !(0.0..=86_400.0).contains(&v) {
                return Err(format!("--tc '{s}': {t} s is out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let tc = TimeControl {
            base_ms: secs(base)?,
            inc_ms: secs(inc)?,
        };
        if tc.base_ms == 0 {
            return Err(format!("--tc '{s}': the base time must be above 0"));
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base_ms as f64 / 1000.0,
            self.inc_ms as f64 / 1000.0
        )
    }
}

/// Everything a duel needs.
#[derive(Clone, Debug)]
pub struct DuelConfig {
    pub game: GameKind,
    /// The engine binaries: `[old, new]`. Results are told from NEW's side.
    pub engines: [PathBuf; 2],
    pub tc: TimeControl,
    /// What bounds each move: the clock of `tc`, a number of nodes, or a
    /// fixed time.
    pub limit: MoveBudget,
    /// Games to play (rounded up to whole pairs).
    pub games: u32,
    /// Opening positions in the game's notation, one per pair.
    pub book: Vec<String>,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop early once the SPRT decides.
    pub sprt: Option<Sprt>,
    /// Grace on each move beyond the clock (pipe and scheduler delays).
    pub margin_ms: u64,
    /// A game still going after this many plies is adjudicated a draw.
    pub max_plies: usize,
    /// How each engine is started and set up, `[old, new]`.
    pub setup: [EngineSetup; 2],
}

/// What bounds each move of a duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBudget {
    /// Each side's clock of [`DuelConfig::tc`] (`go wtime … btime …`); a
    /// side whose clock runs out loses.
    Clock,
    /// A fixed number of nodes per move (`go nodes N`): a measure of the
    /// search that a loaded machine cannot skew, for changes that leave
    /// the speed per node alone. The clock then only catches an engine
    /// that hangs: each move may take the base time.
    Nodes(u64),
    /// A fixed time per move in milliseconds (`go movetime MS`), as public
    /// engines are often compared: each move may take it plus `margin_ms`,
    /// and there is no clock to run out.
    MoveTime(u64),
}

/// How one engine is started and set up, for engines that are not ours.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSetup {
    /// The arguments after the binary; `None`: the game's own (`uai`, `uci
    /// mill`, `uci stones`). Some engines read their arguments as commands
    /// (Sanmill runs them and exits), so they need none: `Some(vec![])`.
    pub args: Option<Vec<String>>,
    /// `(name, value)` pairs sent as `setoption name NAME value VALUE`
    /// after the handshake, in order.
    pub options: Vec<(String, String)>,
}

/// The move of an engine's answer: `bestmove MOVE …`, or the form some Mill
/// engines answer with, `info score N … bestmove MOVE` (Sanmill). An
/// `info string` line is never an answer.
pub fn answer_move(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    match words.next()? {
        "bestmove" => Some(words.next().unwrap_or("")),
        "info" => {
            let mut words = words.peekable();
            if words.peek() == Some(&"string") {
                return None;
            }
            words.find(|w| *w == "bestmove")?;
            Some(words.next().unwrap_or(""))
        }
        _ => None,
    }
}

/// Who won a game, seen from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    FirstWins,
    SecondWins,
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2` (first player's score first).
    pub fn text(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(side: Side) -> GameResult {
        match side {
            Side::First => GameResult::FirstWins,
            Side::Second => GameResult::SecondWins,
        }
    }
}

/// How a game ended by a failure rather than by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Ran out of its clock.
    Time,
    /// Its process ended or never answered the handshake.
    Crash,
    /// An illegal or unreadable move, or no move in a live position.
    Illegal,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct DuelGameRecord {
    /// Number of the game, from 0; games `2k` and `2k + 1` are a pair.
    pub index: usize,
    /// Line of the opening in the book (from 0).
    pub opening: usize,
    /// Whether NEW had the first move.
    pub new_first: bool,
    /// The opening position.
    pub fen: String,
    /// The moves played from it.
    pub moves: Vec<String>,
    pub result: GameResult,
    /// Why the game ended, in words.
    pub reason: String,
    /// A failure that decided the game, and whether it was NEW's.
    pub fault: Option<(Fault, bool)>,
}

impl DuelGameRecord {
    /// NEW's score in half points: 0, 1 or 2.
    pub fn new_half_points(&self) -> usize {
        match (self.result, self.new_first) {
            (GameResult::Draw, _) => 1,
            (GameResult::FirstWins, true) | (GameResult::SecondWins, false) => 2,
            _ => 0,
        }
    }

    /// One line of the games file: tab-separated index, first player,
    /// second player, opening position, moves (space-separated), result,
    /// reason.
    pub fn line(&self) -> String {
        let (a, b) = if self.new_first {
            ("new", "old")
        } else {
            ("old", "new")
        };
        format!(
            "{}\t{a}\t{b}\t{}\t{}\t{}\t{}",
            self.index,
            self.fen,
            self.moves.join(" "),
            self.result.text(),
            self.reason
        )
    }
}

/// The header of the games file.
pub const GAMES_FILE_HEADER: &str = "# game\tfirst\tsecond\topening\tmoves\tresult\treason";

/// The tally of a duel, from NEW's side.
#[derive(Clone, Debug, Default)]
pub struct DuelSummary {
    pub games: Trinomial,
    /// Complete pairs only.
    pub pairs: Pentanomial,
    /// Games lost on time, `[old, new]`.
    pub time_losses: [u32; 2],
    /// Games lost by a crash, `[old, new]`.
    pub crashes: [u32; 2],
    /// Games lost by an illegal move or none, `[old, new]`.
    pub illegal: [u32; 2],
    /// The SPRT state after the last complete pair.
    pub llr: Option<f64>,
    pub verdict: Option<Verdict>,
}

impl DuelSummary {
    /// The Elo of NEW over OLD: from pairs when there are any, else from games.
    pub fn elo(&self) -> Option<(EloEstimate, &'static str)> {
        match self.pairs.moments() {
            Some(m) => Some((elo(&m), "pentanomial")),
            None => self.games.moments().map(|m| (elo(&m), "trinomial")),
        }
    }

    fn add(&mut self, g: &DuelGameRecord) {
        match g.new_half_points() {
            2 => self.games.wins += 1,
            1 => self.games.draws += 1,
            _ => self.games.losses += 1,
        }
        if let Some((fault, by_new)) = g.fault {
            let i = by_new as usize;
            match fault {
                Fault::Time => self.time_losses[i] += 1,
                Fault::Crash => self.crashes[i] += 1,
                Fault::Illegal => self.illegal[i] += 1,
            }
        }
    }

    /// The closing report, several lines.
    pub fn report(&self, sprt: Option<&Sprt>) -> Vec<String> {
        let t = self.games;
        let mut out = vec![format!(
            "new vs old: {} games, W {} D {} L {} (new's score {:.1} %)",
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.moments().map(|m| m.mean * 100.0).unwrap_or(0.0)
        )];
        let p = self.pairs.0;
        out.push(format!(
            "pairs (new's points 0, 0.5, 1, 1.5, 2): {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        ));
        if let Some((e, kind)) = self.elo() {
            out.push(format!(
                "Elo {} ± {} (95 %, {kind}; interval {} to {})",
                fmt_elo(e.elo),
                fmt_abs(e.error()),
                fmt_elo(e.low),
                fmt_elo(e.high)
            ));
        }
        if let (Some(s), Some(llr)) = (sprt, self.llr) {
            let (lo, hi) = s.bounds();
            let verdict = match self.verdict.unwrap_or(Verdict::Continue) {
                Verdict::H1 => "H1 accepted (new is stronger)",
                Verdict::H0 => "H0 accepted (no gain shown)",
                Verdict::Continue => "undecided",
            };
            out.push(format!(
                "SPRT elo0={} elo1={} alpha={} beta={} (pentanomial, normal approximation): LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict}",
                s.elo0, s.elo1, s.alpha, s.beta
            ));
        }
        out.push(format!(
            "losses on time: old {} new {}; crashes: old {} new {}; illegal moves: old {} new {}",
            self.time_losses[0],
            self.time_losses[1],
            self.crashes[0],
            self.crashes[1],
            self.illegal[0],
            self.illegal[1]
        ));
        out
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn fmt_abs(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".into()
    }
}

/// Reads a book: one position per line; empty lines and `#` comments are
/// skipped. Every position must be valid and not over.
pub fn read_book(game: GameKind, text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let check = crate::with_game!(game, G => check_opening::<G>(line, &Default::default()));
        check.map_err(|e| format!("book line {}: {e}", i + 1))?;
        out.push(line.to_string());
    }
    if out.is_empty() {
        return Err("the book has no positions".into());
    }
    Ok(out)
}

fn check_opening<G: Game>(text: &str, rules: &G::Rules) -> Result<(), String> {
    let pos = G::from_text(text, rules).map_err(|e| e.to_string())?;
    if pos.outcome().is_some() {
        return Err("the game is already over in this position".into());
    }
    Ok(())
}

/// A running engine: its process, its input, and its output lines as
/// they arrive (read on a thread).
struct EngineProc {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

/// Why no awaited line came.
enum Wait {
    TimedOut,
    Ended,
}

impl EngineProc {
    fn start(path: &PathBuf, args: &[&str]) -> Result<EngineProc, String> {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProc {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> bool {
        writeln!(self.stdin, "{line}").is_ok() && self.stdin.flush().is_ok()
    }

    /// The first line that `want` accepts, within `timeout`.
    fn wait_for(&mut self, want: impl Fn(&str) -> bool, timeout: Duration) -> Result<String, Wait> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) if want(&l) => return Ok(l),
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => return Err(Wait::TimedOut),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(Wait::Ended),
            }
        }
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Time an engine gets to start and answer the handshake.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Plays one game between `first` and `second` (engine paths) from `fen`.
/// Returns the moves, the result and the reason, and a fault with the side
/// that made it.
fn play_one<G: EngineGame>(
    cfg: &DuelConfig,
    rules: &G::Rules,
    fen: &str,
    players: [(&PathBuf, &EngineSetup); 2],
) -> (Vec<String>, GameResult, String, Option<(Fault, Side)>) {
    let dialect = ProtocolWords::of::<G::Speaks>();
    let start = G::from_text(fen, rules).expect("book positions are checked when read");
    let mut record = Record::new(start);
    let mut moves: Vec<String> = Vec::new();
    let lose = |side: Side, fault: Fault, why: String| {
        (
            GameResult::win_for(side.opponent()),
            why,
            Some((fault, side)),
        )
    };
    // Start both engines and shake hands.
    let mut procs = Vec::with_capacity(2);
    for (i, (path, setup)) in players.iter().enumerate() {
        let side = if i == 0 { Side::First } else { Side::Second };
        let ok_word = format!("{}ok", dialect.hello);
        let args: Vec<&str> = match &setup.args {
            Some(a) => a.iter().map(String::as_str).collect(),
            None => dialect.args.to_vec(),
        };
        let p = EngineProc::start(path, &args).and_then(|mut p| {
            p.send(dialect.hello);
            p.wait_for(|l| l == ok_word, HANDSHAKE)
                .map_err(|_| format!("no '{ok_word}' within {} s", HANDSHAKE.as_secs()))?;
            for o in dialect.options {
                p.send(o);
            }
            for (name, value) in &setup.options {
                p.send(&format!("setoption name {name} value {value}"));
            }
            p.send(&format!("{}newgame", dialect.hello));
            p.send("isready");
            p.wait_for(|l| l == "readyok", HANDSHAKE)
                .map_err(|_| "no 'readyok'".to_string())?;
            Ok(p)
        });
        match p {
            Ok(p) => procs.push(p),
            Err(e) => {
                let (r, why, f) = lose(side, Fault::Crash, format!("engine failed to start: {e}"));
                return (moves, r, why, f);
            }
        }
    }
    let mut clock = [cfg.tc.base_ms; 2];
    loop {
        if let Some(o) = record.outcome() {
            let r = match o.winner {
                Some(s) => GameResult::win_for(s),
                None => GameResult::Draw,
            };
            return (moves, r, o.reason.describe().to_string(), None);
        }
        if moves.len() >= cfg.max_plies {
            return (
                moves,
                GameResult::Draw,
                format!("adjudicated a draw after {} plies", cfg.max_plies),
                None,
            );
        }
        let side = record.position().side_to_move();
        let p = &mut procs[side.index()];
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        let [(t1, i1), (t2, i2)] = dialect.clocks;
        // The `go` line, and the time this move may take.
        let (go, left) = match cfg.limit {
            MoveBudget::Nodes(n) => (format!("go nodes {n}"), cfg.tc.base_ms),
            MoveBudget::MoveTime(ms) => (format!("go movetime {ms}"), ms),
            MoveBudget::Clock => (
                format!(
                    "go {t1} {} {t2} {} {i1} {} {i2} {}",
                    clock[0], clock[1], cfg.tc.inc_ms, cfg.tc.inc_ms
                ),
                clock[side.index()],
            ),
        };
        let t0 = Instant::now();
        let sent = p.send(&position) && p.send(&go);
        let allowed = Duration::from_millis(left + cfg.margin_ms);
        let answer = if sent {
            p.wait_for(|l| answer_move(l).is_some(), allowed)
        } else {
            Err(Wait::Ended)
        };
        let used = t0.elapsed();
        let line = match answer {
            Ok(l) => l,
            Err(Wait::TimedOut) => {
                let (r, why, f) = lose(side, Fault::Time, "lost on time (no move)".into());
                return (moves, r, why, f);
            }
            Err(Wait::Ended) => {
                let (r, why, f) = lose(side, Fault::Crash, "the engine crashed".into());
                return (moves, r, why, f);
            }
        };
        if used > allowed {
            let allowance = match cfg.limit {
                MoveBudget::MoveTime(ms) => format!("{ms} ms a move"),
                _ => format!("{} ms left", clock[side.index()]),
            };
            let why = format!("lost on time ({} ms used, {allowance})", used.as_millis());
            let (r, why, f) = lose(side, Fault::Time, why);
            return (moves, r, why, f);
        }
        let text = answer_move(&line).unwrap_or("").to_string();
        if let Err(e) = record.play_text(&text) {
            let why = if text == "(none)" || text.is_empty() {
                "no move in a live position".to_string()
            } else {
                format!("illegal move '{text}': {e}")
            };
            let (r, why, f) = lose(side, Fault::Illegal, why);
            return (moves, r, why, f);
        }
        moves.push(text);
        if cfg.limit == MoveBudget::Clock {
            let c = &mut clock[side.index()];
            *c = c.saturating_sub(used.as_millis() as u64) + cfg.tc.inc_ms;
        }
    }
}

fn play_game(cfg: &DuelConfig, index: usize) -> DuelGameRecord {
    let opening = (index / 2) % cfg.book.len();
    let fen = cfg.book[opening].clone();
    let new_first = index % 2 == 1;
    let [old, new] = &cfg.engines;
    let [old_setup, new_setup] = &cfg.setup;
    let (old, new) = ((old, old_setup), (new, new_setup));
    let players = if new_first { [new, old] } else { [old, new] };
    let (moves, result, reason, fault) =
        crate::with_game!(cfg.game, G => play_one::<G>(cfg, &Default::default(), &fen, players));
    let fault = fault.map(|(f, side)| (f, (side == Side::First) == new_first));
    DuelGameRecord {
        index,
        opening,
        new_first,
        fen,
        moves,
        result,
        reason,
        fault,
    }
}

/// Plays the duel: `cfg.games` games (whole pairs), `cfg.concurrency` at a
/// time, stopping early once the SPRT decides. Calls `on_game` as each
/// game ends (in the order they end) with the game and the tally so far.
pub fn run(
    cfg: &DuelConfig,
    on_game: &mut dyn FnMut(&DuelGameRecord, &DuelSummary),
) -> DuelSummary {
    let total = (cfg.games as usize).div_ceil(2) * 2;
    let next = Arc::new(AtomicUsize::new(0));
    let decided = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<DuelGameRecord>();
    let workers = cfg.concurrency.clamp(1, total.max(1));
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (cfg, next, decided, tx) = (cfg.clone(), next.clone(), decided.clone(), tx.clone());
        handles.push(std::thread::spawn(move || loop {
            if decided.load(Ordering::Relaxed) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= total {
                break;
            }
            if tx.send(play_game(&cfg, i)).is_err() {
                break;
            }
        }));
    }
    drop(tx);
    let mut summary = DuelSummary::default();
    let mut half: HashMap<usize, usize> = HashMap::new();
    for g in rx {
        summary.add(&g);
        let pair = g.index / 2;
        if let Some(other) = half.remove(&pair) {
            summary.pairs.add(other + g.new_half_points());
            if let (Some(s), Some(m)) = (&cfg.sprt, summary.pairs.moments()) {
                let llr = s.llr(&m);
                summary.llr = Some(llr);
                summary.verdict = Some(s.verdict(llr));
                if s.verdict(llr) != Verdict::Continue {
                    // Running games finish; no new game starts.
                    decided.store(true, Ordering::Relaxed);
                }
            }
        } else {
            half.insert(pair, g.new_half_points());
        }
        on_game(&g, &summary);
    }
    for h in handles {
        let _ = h.join();
    }
    summary
}

/// Settings of `engine book`.
#[derive(Clone, Copy, Debug)]
pub struct BookConfig {
    /// Random plies from the start.
    pub plies: usize,
    /// Positions to find.
    pub count: usize,
    /// Depth of the balancing search.
    pub depth: u32,
    /// Largest |score| (centipawn-like, 100 = a piece) kept.
    pub margin: i32,
    pub seed: u64,
}

/// A balanced book: `count` distinct positions reached by `plies` random
/// legal moves from the start, each scored within `margin` of 0 by a
/// `depth`-ply search. Errors if too few are found in many tries.
pub fn make_book(game: GameKind, cfg: &BookConfig) -> Result<Vec<String>, String> {
    crate::with_game!(game, G => book_for::<G>(&Default::default(), cfg))
}

fn book_for<G: Game + Evaluate>(rules: &G::Rules, cfg: &BookConfig) -> Result<Vec<String>, String> {
    let mut rng = SplitMix64::new(cfg.seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let clock = super::InstantClock::new();
    let ctl = SearchControl {
        clock: &clock,
        stop: None,
    };
    let mut searcher = super::Searcher::<G>::new(16);
    let tries = cfg.count * 500 + 1000;
    for _ in 0..tries {
        if out.len() >= cfg.count {
            break;
        }
        let mut record = Record::new(G::start(rules));
        for _ in 0..cfg.plies {
            if record.outcome().is_some() {
                break;
            }
            let moves = record.position().legal_moves();
            let mv = moves[rng.below(moves.len())];
            record.play(mv).expect("a generated move is legal");
        }
        if record.outcome().is_some() || record.moves().len() < cfg.plies {
            continue;
        }
        let text = record.position().to_text();
        if !seen.insert(text.clone()) {
            continue;
        }
        let req = SearchRequest {
            position: record.position(),
            history: &[],
            game_ply: usize::MAX,
            limits: SearchLimits::depth(cfg.depth),
            level: Level::Master,
            seed: 0,
        };
        searcher.clear();
        let r = searcher.think(&req, &ctl, &mut |_| {});
        if r.score.abs() <= cfg.margin {
            out.push(text);
        }
    }
    if out.len() < cfg.count {
        return Err(format!(
            "found only {} balanced positions of {} (try a larger --margin or fewer --plies)",
            out.len(),
            cfg.count
        ));
    }
    Ok(out)
}
