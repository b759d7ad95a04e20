//! `engine duel OLD NEW …`: two engine binaries play each other over
//! UAI/UCI from an opening book ([`stoneplay::ai::duel`]), with the SPRT.

use std::io::Write;
use stoneplay::games::GameKind;

use crate::args::{number, options, usage};

pub fn duel_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::duel::{self, DuelConfig, EngineSetup, MoveBudget, TimeControl};
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
    let game = GameKind::parse(&need("game")?)?;
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
        (Some(n), _) => MoveBudget::Nodes(n),
        (None, Some(ms)) => MoveBudget::MoveTime(ms),
        (None, None) => MoveBudget::Clock,
    };
    // With --nodes the clock only catches a hung engine: 60 s a move
    // unless --tc says otherwise. With --movetime there is no clock.
    let tc = match (opts.get("tc"), limit) {
        (None, MoveBudget::Nodes(_) | MoveBudget::MoveTime(_)) => TimeControl::parse("60")?,
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
    if matches!(limit, MoveBudget::Nodes(_)) && u64::from(games) > 2 * book.len() as u64 {
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
        MoveBudget::Nodes(n) => (format!("{n} nodes a move"), format!("nodes {n}")),
        MoveBudget::MoveTime(ms) => (format!("{ms} ms a move"), format!("movetime {ms}")),
        MoveBudget::Clock => (format!("tc {tc}"), format!("tc {tc}")),
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
