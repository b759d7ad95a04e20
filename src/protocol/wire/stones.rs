//! Stones!' rules on the wire: it has none, written `null` (read from
//! `null`, `{}` or `[]`, as serde reads a unit struct).

use super::WriteJson;
use crate::games::stones::StonesRules;
use crate::protocol::json::{self, FromJson, Json};

impl FromJson for StonesRules {
    fn from_json(v: &Json) -> Result<Self, String> {
        match v {
            Json::Null => Ok(StonesRules),
            Json::Obj(m) if m.is_empty() => Ok(StonesRules),
            Json::Arr(a) if a.is_empty() => Ok(StonesRules),
            v => Err(format!("expected null, found {}", json::kind(v))),
        }
    }
}

impl WriteJson for StonesRules {
    fn write_json(&self, out: &mut String) {
        out.push_str("null");
    }
}
