//! `engine nnue-train --data … --out …`: trains Territory Duel's network
//! on `datagen` data ([`stoneplay::ai::nnue_train`]).

use std::time::Instant;

use crate::args::{number, options, usage};

pub fn nnue_train_command(args: &[String]) -> Result<(), String> {
    use stoneplay::ai::eval::nnue;
    use stoneplay::ai::nnue_train::{read_samples, train, NetConfig};
    let (rest, opts) = options(
        args,
        &[
            "data",
            "out",
            "inputs",
            "compare",
            "init",
            "hidden",
            "tied",
            "buckets",
            "epochs",
            "batch",
            "lr",
            "lambda",
            "scale",
            "validation",
            "threads",
            "seed",
            "positions",
        ],
    )?;
    if !rest.is_empty() {
        return Err(usage("nnue-train"));
    }
    let data = opts.get("data").ok_or("nnue-train needs --data")?;
    let path = opts.get("out").ok_or("nnue-train needs --out")?;
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
    let d = NetConfig::default();
    let inputs = match opts.get("inputs").map(String::as_str) {
        None | Some("pieces") => nnue::Inputs::Pieces,
        Some("windows") => nnue::Inputs::Windows,
        Some(other) => return Err(format!("--inputs '{other}': pieces or windows")),
    };
    // Other nets to score on the same held-out positions, read before the
    // long run so that a bad file fails at once.
    let compare: Vec<(String, Box<nnue::Net>)> = match opts.get("compare") {
        None => Vec::new(),
        Some(list) => list
            .split(',')
            .map(|f| {
                let bytes = std::fs::read(f).map_err(|e| format!("cannot read {f}: {e}"))?;
                let net = nnue::Net::from_bytes(&bytes).map_err(|e| format!("{f}: {e}"))?;
                Ok((f.to_string(), net))
            })
            .collect::<Result<_, String>>()?,
    };
    // A net to start from (a new generation fine-tuned from the last),
    // read before the long run so that a bad file fails at once.
    let init = match opts.get("init") {
        None => None,
        Some(f) => {
            let bytes = std::fs::read(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            Some(
                stoneplay::ai::nnue_train::FloatNet::from_file(&bytes)
                    .map_err(|e| format!("{f}: {e}"))?,
            )
        }
    };
    let tied = match opts.get("tied").map(String::as_str) {
        None | Some("yes") => true,
        Some("no") => false,
        Some(other) => return Err(format!("--tied '{other}': yes or no")),
    };
    let copies = if tied { 8 } else { 1 };
    let hidden: usize = number(&opts, "hidden")?.unwrap_or(nnue::HIDDEN);
    if hidden == 0 || !hidden.is_multiple_of(16 * copies) || hidden > 4096 {
        return Err(format!(
            "--hidden {hidden}: a multiple of {} from {} to 4096",
            16 * copies,
            16 * copies
        ));
    }
    let buckets: usize = number(&opts, "buckets")?.unwrap_or(d.buckets);
    if !(1..=nnue::MAX_BUCKETS).contains(&buckets) {
        return Err(format!("--buckets {buckets}: 1 to {}", nnue::MAX_BUCKETS));
    }
    let cfg = NetConfig {
        inputs,
        hidden: hidden / copies,
        tied,
        buckets,
        epochs: number(&opts, "epochs")?
            .unwrap_or(d.epochs)
            .clamp(1, 10_000),
        batch: number(&opts, "batch")?
            .unwrap_or(d.batch)
            .clamp(16, 1 << 22),
        lr: float("lr", 1e-7, 1.0)?.unwrap_or(d.lr),
        lambda: float("lambda", 0.0, 1.0)?.unwrap_or(d.lambda),
        scale: float("scale", 1.0, 100_000.0)?,
        validation: float("validation", 0.0, 0.5)?.unwrap_or(d.validation),
        symmetries: true,
        threads: number(&opts, "threads")?.unwrap_or(1usize).clamp(1, 256),
        seed: number(&opts, "seed")?.unwrap_or(d.seed),
    };
    if let Some(start) = &init {
        let l = start.layout;
        if (l.inputs, l.hidden, l.tied, l.buckets)
            != (cfg.inputs, cfg.hidden, cfg.tied, cfg.buckets)
        {
            return Err(format!(
                "--init: that net has {} inputs, {} free units, tied {}, {} buckets; this run asks for {}, {}, {}, {}",
                l.inputs.count(), l.hidden, l.tied, l.buckets,
                cfg.inputs.count(), cfg.hidden, cfg.tied, cfg.buckets
            ));
        }
    }
    let limit: Option<usize> = number(&opts, "positions")?;
    let started = Instant::now();
    let mut samples = Vec::new();
    for file in data.split(',') {
        let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
        read_samples(&text, &mut samples).map_err(|e| format!("{file}: {e}"))?;
    }
    if let Some(n) = limit {
        samples.truncate(n);
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
    let trained = train(&mut samples, &cfg, init.as_ref(), &mut |e| {
        eprintln!(
            "epoch {:>3}  train loss {:.6}  held-out loss {:.6} (results alone {:.6})  ({:.0} s)",
            e.epoch,
            e.train_loss,
            e.validation_loss,
            e.result_loss,
            started.elapsed().as_secs_f64()
        );
    });
    let held = &samples[samples.len() - trained.validation..];
    let tables =
        stoneplay::ai::nnue_train::mean_loss_of(held, cfg.lambda, trained.scale, |m, t| {
            use stoneplay::ai::eval::patterns;
            patterns::score(&patterns::features(m, t))
        });
    let tables_results =
        stoneplay::ai::nnue_train::mean_loss_of(held, 0.0, trained.scale, |m, t| {
            use stoneplay::ai::eval::patterns;
            patterns::score(&patterns::features(m, t))
        });
    eprintln!("the pattern tables' held-out loss: {tables:.6} (results alone {tables_results:.6})");
    for (name, net) in &compare {
        let loss = |lambda| {
            stoneplay::ai::nnue_train::mean_loss_of(held, lambda, trained.scale, |m, t| {
                net.evaluate_board(m, t)
            })
        };
        eprintln!(
            "{name}'s held-out loss: {:.6} (results alone {:.6})",
            loss(cfg.lambda),
            loss(0.0)
        );
    }
    let bytes = trained.net.quantised();
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {path}: {e}"))?;
    // How far the integers are from the floats, on the held-out positions.
    let mut note = String::new();
    if hidden == nnue::HIDDEN {
        let net = nnue::Net::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        let (mut sum, mut n) = (0f64, 0usize);
        for s in held.iter().take(20_000) {
            let float = trained.net.forward(s.mine, s.theirs) as f64 * nnue::SCALE as f64;
            let int = net.evaluate_board(s.mine, s.theirs) as f64;
            sum += (float - int).abs();
            n += 1;
        }
        note = format!(
            "; quantised scores within {:.2} on average of the floats",
            sum / n.max(1) as f64
        );
    }
    out!(
        "{path}: {} inputs, {} hidden units{}, {} buckets, trained on {} positions ({} held out), K = {:.1}, lambda = {}, {} epochs in {:.0} s{note}",
        inputs.count(),
        hidden,
        if tied {
            format!(" ({} free units, each under the 8 symmetries)", hidden / 8)
        } else {
            String::new()
        },
        cfg.buckets,
        trained.train,
        trained.validation,
        trained.scale,
        cfg.lambda,
        cfg.epochs,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
