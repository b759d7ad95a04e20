//! Territory Duel over UAI.

use super::{Dialect, ProtocolGame};
use crate::games::ataxx::uai::{MoveLimit, UaiAtaxx, HALFMOVE_LIMIT};
use crate::games::{EndReason, Game, Outcome};

/// Territory Duel under UAI follows the tournament convention by default
/// (the FEN's third field counts plies since the last clone; 100 is a
/// draw); `setoption name MoveLimit value territory-duel` switches to our
/// rule 5 (80 capture-less jumps, decided by count). See [`UaiAtaxx`].
impl ProtocolGame for UaiAtaxx {
    const NAME: &'static str = "Territory Duel";
    const DIALECT: Dialect = Dialect::Uai;
    const COMMAND: &'static [&'static str] = &["uai"];
    // The referee plays our rule 5; tell engines that know the option (an
    // engine that does not answers with an `info string`, which the
    // referee ignores).
    const REFEREE_OPTIONS: &'static [&'static str] =
        &["setoption name MoveLimit value territory-duel"];
    const FIRST_CLOCK: (&'static str, &'static str) = ("btime", "binc");
    const SECOND_CLOCK: (&'static str, &'static str) = ("wtime", "winc");
    const SOFT_CLOCK: bool = true;

    fn option_lines(_rules: &Self::Rules) -> Vec<String> {
        let vars: Vec<String> = MoveLimit::ALL
            .iter()
            .map(|m| format!("var {}", m.slug()))
            .collect();
        vec![format!(
            "option name MoveLimit type combo default {} {}",
            MoveLimit::default().slug(),
            vars.join(" ")
        )]
    }

    fn end_text(&self, outcome: Outcome) -> String {
        if outcome.reason == EndReason::MoveLimit && self.rules().move_limit == MoveLimit::Uai {
            format!("{HALFMOVE_LIMIT} plies were played since the last clone (the UAI move limit)")
        } else {
            outcome.reason.describe().to_string()
        }
    }

    fn set_rule_option(rules: &mut Self::Rules, name: &str, value: &str) -> Result<(), String> {
        if !name.eq_ignore_ascii_case("movelimit") {
            return Err(format!("unknown option '{name}'"));
        }
        rules.move_limit = MoveLimit::from_slug(value.trim()).ok_or_else(|| {
            let known: Vec<&str> = MoveLimit::ALL.iter().map(|m| m.slug()).collect();
            format!(
                "unknown MoveLimit '{value}' (expected one of {})",
                known.join(", ")
            )
        })?;
        Ok(())
    }
}
