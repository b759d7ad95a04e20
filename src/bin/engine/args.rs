//! What the commands share in reading their arguments: the usage text
//! (all of it for `engine` alone, one command's part for a wrong call)
//! and the `--key value` options with their numbers.

use std::collections::HashMap;

pub const USAGE: &str = "usage: engine perft GAME DEPTH [POSITION] [--divide] [--rules PRESET]
       engine uai [--eval hand|WEIGHTS_FILE] [--net NET_FILE|none]
                                       Territory Duel over UAI on stdin/stdout
       engine uci mill|stones [--eval hand|WEIGHTS_FILE]
                                       Mill or Stones! over UCI on stdin/stdout
       engine bench [--net NET_FILE|none]
                                       fixed-depth search speed per game
       engine match GAME LEVEL_A LEVEL_B N [--movetime MS] [--time-scale F] [--seed S]
       engine duel OLD NEW --game GAME --tc BASE+INC|--nodes N|--movetime MS --games N --book FILE
                   [--concurrency K] [--out FILE] [--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05]
                   [--margin MS] [--max-plies P] [--old-args ARGS] [--new-args ARGS]
                   [--old-option NAME=VALUE]... [--new-option NAME=VALUE]...
                                       match two engine binaries over UAI/UCI
       engine book GAME --plies N --count K --out FILE [--depth D] [--margin CP] [--seed S]
                                       balanced openings for duel
       engine datagen GAME --positions N --out FILE [--nodes K] [--random-plies P]
                   [--seed S] [--threads T] [--eval hand|WEIGHTS_FILE] [--net NET_FILE|none]
                                       self-play positions with score and result
                                       (appends; a stopped run resumes)
       engine train ataxx|stones|mill --data FILE[,FILE...] --out FILE [--epochs E] [--lambda L] [--scale K]
                   [--lr R] [--prior P] [--seed S]
                                       fit Territory Duel's, Stones!' or Mill's tables to datagen data
       engine nnue-train --data FILE[,FILE...] --out FILE [--hidden H] [--buckets B] [--epochs E]
                   [--tied yes|no] [--batch N] [--lr R] [--lambda L] [--scale K] [--validation V] [--positions N]
                   [--threads T] [--seed S] [--inputs pieces|windows] [--compare NET[,NET...]]
                   [--init NET]
                                       train Territory Duel's network on datagen data
  GAME      ataxx | stones | mill
  LEVEL     beginner | casual | intermediate | strong | master
  PRESET    for mill: nine (default), twelve, morabaraba, lasker, russian, cheng-san-qi, da-san-qi
  DEPTH     plies to count, 0..=12
  POSITION  the game's position text (ataxx: a FEN such as \"x5o/7/7/7/7/7/o5x x 0 1\";
            stones: \"W:a1,b1 B:a8,b8 w\"; mill: Sanmill's FEN)";

/// One command's part of [`USAGE`] (its line and the option lines under
/// it), so a wrong call shows the same text as `engine` alone does.
pub fn usage(command: &str) -> String {
    let mut lines = USAGE.lines().skip_while(|l| {
        let l = l.trim_start().trim_start_matches("usage:").trim_start();
        l.strip_prefix("engine ")
            .is_none_or(|rest| rest.split_whitespace().next() != Some(command))
    });
    let Some(first) = lines.next() else {
        return USAGE.to_string();
    };
    let mut text = format!(
        "usage: {}",
        first.trim_start().trim_start_matches("usage:").trim_start()
    );
    for l in lines.take_while(|l| l.starts_with("                   [")) {
        text.push('\n');
        text.push_str(l);
    }
    text
}

/// Splits `--key value` options from positional arguments.
pub fn options(
    args: &[String],
    known: &[&str],
) -> Result<(Vec<String>, HashMap<String, String>), String> {
    let mut rest = Vec::new();
    let mut opts = HashMap::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(key) = a.strip_prefix("--") {
            if !known.contains(&key) {
                return Err(format!("unknown option '{a}'"));
            }
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            opts.insert(key.to_string(), v.clone());
        } else {
            rest.push(a.clone());
        }
    }
    Ok((rest, opts))
}

pub fn number<T: std::str::FromStr>(
    opts: &HashMap<String, String>,
    key: &str,
) -> Result<Option<T>, String> {
    opts.get(key)
        .map(|v| {
            v.parse()
                .map_err(|_| format!("--{key} '{v}' is not a whole number"))
        })
        .transpose()
}
