//! `engine match GAME LEVEL_A LEVEL_B N`: two of our levels play each
//! other in one process ([`stoneplay::ai::selfplay`]).

use stoneplay::ai::selfplay::{play_match, MatchConfig};
use stoneplay::ai::{InstantClock, Level};
use stoneplay::games::{Game, GameKind};

use crate::args::usage;

pub fn match_command(args: &[String]) -> Result<(), String> {
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
    let kind = GameKind::parse(game)?;
    let score = stoneplay::with_game!(kind, G => {
        play_match(&G::start(&Default::default()), a, b, &cfg, &clock, &mut report)
    });
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
