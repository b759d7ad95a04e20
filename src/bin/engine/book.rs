//! `engine book GAME …`: the balanced openings `duel` plays from.

use stoneplay::games::GameKind;

use crate::args::{number, options, usage};

pub fn book_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::duel::{self, BookConfig};
    let (rest, opts) = options(args, &["plies", "count", "out", "depth", "margin", "seed"])?;
    let [game] = &rest[..] else {
        return Err(usage("book"));
    };
    let game = GameKind::parse(game)?;
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
