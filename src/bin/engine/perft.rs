//! `engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]`:
//! move-path counts from a position, one line per depth
//! (`DEPTH NODES MILLISECONDS`), or each root move's count with
//! `--divide`.

use std::time::Instant;

use stoneplay::games::ataxx::{Ataxx, AtaxxRules};
use stoneplay::games::mill::{Mill, Preset};
use stoneplay::games::stones::{Stones, StonesRules};
use stoneplay::games::{perft, perft_divide, Game};

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
