//! `engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]`:
//! move-path counts from a position, one line per depth
//! (`DEPTH NODES MILLISECONDS`), or each root move's count with
//! `--divide`.

use std::time::Instant;

use stoneplay::games::{perft, perft_divide, Game, GameKind};

/// Deepest perft the command accepts: beyond it a run would take days.
const MAX_DEPTH: u32 = 12;

/// Parsed `perft` arguments.
pub struct PerftArgs {
    game: String,
    depth: u32,
    position: Option<String>,
    divide: bool,
    rules: Option<String>,
}

pub fn parse_perft(args: &[String]) -> Result<PerftArgs, String> {
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

pub fn perft_command(a: PerftArgs) -> Result<(), String> {
    let kind = GameKind::parse(&a.game)?;
    stoneplay::with_game!(kind, G => {
        let rules = match &a.rules {
            None => Default::default(),
            Some(name) => preset::<G>(kind, name)?,
        };
        run_perft::<G>(&a, &rules)
    })
}

/// The rules of `G`'s preset `name` (`--rules`); an error names the
/// presets, or says the game has none.
fn preset<G: Game>(kind: GameKind, name: &str) -> Result<G::Rules, String> {
    let presets = G::presets();
    if presets.is_empty() {
        return Err(format!(
            "{} has no rule presets (got '{name}')",
            kind.slug()
        ));
    }
    let known: Vec<&str> = presets.iter().map(|(slug, _)| *slug).collect();
    presets
        .into_iter()
        .find(|(slug, _)| *slug == name)
        .map(|(_, rules)| rules)
        .ok_or_else(|| {
            format!(
                "unknown {} preset '{name}' (expected one of {})",
                kind.title(),
                known.join(", ")
            )
        })
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
