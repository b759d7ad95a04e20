//! `engine datagen GAME …`: self-play positions with their score and the
//! game's result, appended to a file (a stopped run resumes).

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Instant;

use stoneplay::ai::engine::{use_eval, EngineGame};
use stoneplay::ai::Searcher;
use stoneplay::games::{Game, GameKind};

use crate::args::{number, options, usage};
use crate::net::use_net;

pub fn datagen_command(args: &[String]) -> Result<(), String> {
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
            "net",
        ],
    )?;
    let [game] = &rest[..] else {
        return Err(usage("datagen"));
    };
    let game = GameKind::parse(game)?;
    if let Some(net) = opts.get("net") {
        if game != GameKind::Ataxx {
            return Err("--net is for ataxx (Territory Duel's network)".into());
        }
        use_net(net)?;
    }
    let positions: u64 = number(&opts, "positions")?.ok_or("datagen needs --positions")?;
    if positions == 0 {
        return Err("--positions must be at least 1".into());
    }
    let path = opts.get("out").ok_or("datagen needs --out")?.clone();
    let default_plies = stoneplay::with_game!(game, G => G::DATAGEN_RANDOM_PLIES);
    let cfg = DatagenConfig {
        nodes: number(&opts, "nodes")?
            .unwrap_or(5000u64)
            .clamp(1, 100_000_000),
        random_plies: number(&opts, "random-plies")?.unwrap_or(default_plies),
        seed: number(&opts, "seed")?.unwrap_or(1),
    };
    let threads: usize = number(&opts, "threads")?.unwrap_or(1usize).clamp(1, 256);
    let eval_name = match (opts.get("eval"), opts.get("net")) {
        (Some(eval), Some(net)) => format!("{eval} net={net}"),
        (Some(eval), None) => eval.clone(),
        (None, Some(net)) => format!("built-in net={net}"),
        (None, None) => "built-in".to_string(),
    };
    let eval_name = eval_name.as_str();
    if let Some(eval) = opts.get("eval") {
        stoneplay::with_game!(game, G => use_eval::<G>(eval))?;
    }
    stoneplay::with_game!(game, G => datagen_run(
        G::start(&Default::default()),
        game.slug(),
        &cfg,
        positions,
        &path,
        threads,
        eval_name,
    ))
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
    G: EngineGame,
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
