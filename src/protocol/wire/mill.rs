//! Mill's rules on the wire: an object with every `MillRules` field.

use super::WriteJson;
use crate::games::mill::{BoardFull, MillInPlacing, MillRules, RemoveFromMills, Stalemate};
use crate::protocol::json::{json_names, Fields, FromJson, Json, JsonName as _, ObjWriter};

json_names!(RemoveFromMills { OnlyIfAllInMills = "OnlyIfAllInMills", Always = "Always" });
json_names!(MillInPlacing { RemoveNow = "RemoveNow", MarkAndDelay = "MarkAndDelay" });
json_names!(BoardFull { FirstPlayerLoses = "FirstPlayerLoses", Draw = "Draw" });
json_names!(Stalemate { BlockedSideLoses = "BlockedSideLoses", TurnPasses = "TurnPasses" });

impl FromJson for MillRules {
    fn from_json(v: &Json) -> Result<Self, String> {
        let f = Fields::of(v)?;
        Ok(MillRules {
            pieces: f.req("pieces")?,
            diagonal_lines: f.req("diagonal_lines")?,
            may_fly: f.req("may_fly")?,
            fly_at: f.req("fly_at")?,
            lose_below: f.req("lose_below")?,
            remove_from_mills: f.req("remove_from_mills")?,
            mill_in_placing: f.req("mill_in_placing")?,
            move_in_placing: f.req("move_in_placing")?,
            remove_multiple: f.req("remove_multiple")?,
            one_time_mill: f.req("one_time_mill")?,
            board_full: f.req("board_full")?,
            stalemate: f.req("stalemate")?,
            n_move_rule: f.req("n_move_rule")?,
            threefold_repetition: f.req("threefold_repetition")?,
            defender_first: f.req("defender_first")?,
        })
    }
}

impl WriteJson for MillRules {
    fn write_json(&self, out: &mut String) {
        let r = self;
        let mut w = ObjWriter::new(out);
        w.num("pieces", r.pieces.into())
            .bool("diagonal_lines", r.diagonal_lines)
            .bool("may_fly", r.may_fly)
            .num("fly_at", r.fly_at.into())
            .num("lose_below", r.lose_below.into())
            .str("remove_from_mills", r.remove_from_mills.json_name())
            .str("mill_in_placing", r.mill_in_placing.json_name())
            .bool("move_in_placing", r.move_in_placing)
            .bool("remove_multiple", r.remove_multiple)
            .bool("one_time_mill", r.one_time_mill)
            .str("board_full", r.board_full.json_name())
            .str("stalemate", r.stalemate.json_name())
            .num("n_move_rule", r.n_move_rule.into())
            .bool("threefold_repetition", r.threefold_repetition)
            .bool("defender_first", r.defender_first)
            .end();
    }
}
