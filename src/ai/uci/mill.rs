//! Mill over UCI, in Sanmill's dialect (its presets and rule options).

use super::{Dialect, ProtocolGame};
use crate::games::mill::{Mill, Preset, OPTION_NAMES};

impl ProtocolGame for Mill {
    const NAME: &'static str = "Mill";
    const DIALECT: Dialect = Dialect::Uci;
    const COMMAND: &'static [&'static str] = &["uci", "mill"];
    const FIRST_CLOCK: (&'static str, &'static str) = ("wtime", "winc");
    const SECOND_CLOCK: (&'static str, &'static str) = ("btime", "binc");

    fn option_lines(rules: &Self::Rules) -> Vec<String> {
        let presets: Vec<String> = Preset::ALL
            .iter()
            .map(|p| format!("var {}", p.slug()))
            .collect();
        let mut out = vec![format!(
            "option name Preset type combo default nine {}",
            presets.join(" ")
        )];
        for name in OPTION_NAMES {
            let v = rules.get_option(name).unwrap_or_default();
            out.push(format!("option name {name} type string default {v}"));
        }
        out
    }

    fn set_rule_option(rules: &mut Self::Rules, name: &str, value: &str) -> Result<(), String> {
        if name.eq_ignore_ascii_case("preset") {
            let p = Preset::from_slug(value.trim()).ok_or_else(|| {
                let known: Vec<&str> = Preset::ALL.iter().map(|p| p.slug()).collect();
                format!(
                    "unknown preset '{value}' (expected one of {})",
                    known.join(", ")
                )
            })?;
            *rules = p.rules();
            return Ok(());
        }
        rules.set_option(name, value).map_err(|e| e.to_string())
    }
}
