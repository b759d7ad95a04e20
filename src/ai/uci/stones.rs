//! Stones! over UCI.

use super::{Dialect, ProtocolGame};
use crate::games::stones::Stones;

impl ProtocolGame for Stones {
    const NAME: &'static str = "Stones!";
    const DIALECT: Dialect = Dialect::Uci;
    const COMMAND: &'static [&'static str] = &["uci", "stones"];
    const FIRST_CLOCK: (&'static str, &'static str) = ("wtime", "winc");
    const SECOND_CLOCK: (&'static str, &'static str) = ("btime", "binc");
}
