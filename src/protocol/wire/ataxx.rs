//! Territory Duel's rules on the wire: `{"no_move":"Pass"}`.

use super::WriteJson;
use crate::games::ataxx::{AtaxxRules, NoMoveRule};
use crate::protocol::json::{json_names, Fields, FromJson, Json, JsonName as _, ObjWriter};

json_names!(NoMoveRule { Pass = "Pass", Lose = "Lose" });

impl FromJson for AtaxxRules {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(AtaxxRules {
            no_move: f.req("no_move")?,
        })
    }
}

impl WriteJson for AtaxxRules {
    fn write_json(&self, out: &mut String) {
        ObjWriter::new(out)
            .str("no_move", self.no_move.json_name())
            .end();
    }
}
