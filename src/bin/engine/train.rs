//! `engine train GAME --data … --out …`: fits a game's evaluation tables
//! to `datagen` data ([`stoneplay::ai::train`]).

use std::time::Instant;

use stoneplay::ai::engine::EngineGame;
use stoneplay::games::GameKind;

use crate::args::{number, options, usage};

pub fn train_command(args: &[String]) -> Result<(), String> {
    let (rest, opts) = options(
        args,
        &[
            "data", "out", "epochs", "lambda", "scale", "lr", "prior", "seed",
        ],
    )?;
    let [game] = &rest[..] else {
        return Err(usage("train"));
    };
    let kind = GameKind::parse(game).map_err(|_| usage("train"))?;
    stoneplay::with_game!(kind, G => train_game::<G>(&opts))
}

/// Fits `G`'s tables.
fn train_game<G: EngineGame>(
    opts: &std::collections::HashMap<String, String>,
) -> Result<(), String> {
    train_run::<G::Tables>(opts, G::weights_file)
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
