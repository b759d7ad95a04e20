//! The player's identity kept on this device (issue 37), one per server:
//! `localStorage` `stoneplay.identity` holds each server's secret with
//! the id and name the server last confirmed. The secret is the only key
//! to the identity (the server keeps its hash), so it is removed only
//! when the player asks, after being told what is lost.

use super::super::store;
use crate::client::online::identity::KeptIdentity;

const KEY: &str = "stoneplay.identity";
/// Servers whose identities are kept (a page talks to one or two).
const MAX_KEPT: usize = 8;

fn all() -> Vec<KeptIdentity> {
    store::load(KEY).unwrap_or_default()
}

/// The identity kept for `server`, if any.
pub fn kept(server: &str) -> Option<KeptIdentity> {
    all().into_iter().find(|k| k.server == server)
}

/// Keeps (or updates) the identity for `server`, newest first.
pub fn keep(identity: KeptIdentity) {
    let mut list = all();
    list.retain(|k| k.server != identity.server);
    list.insert(0, identity);
    list.truncate(MAX_KEPT);
    store::save(KEY, &list);
}

/// Forgets this device's identity for `server`.
pub fn forget(server: &str) {
    let mut list = all();
    list.retain(|k| k.server != server);
    store::save(KEY, &list);
}
