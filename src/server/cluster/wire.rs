//! What cluster nodes tell each other: JSON messages on each node's Redis
//! channel (`stoneplay:node:ID`) and, for the lobby, on one channel all
//! nodes follow (`stoneplay:lobby`). Ephemeral only: whatever must survive
//! is in PostgreSQL before anyone is told.

use serde::{Deserialize, Serialize};

use crate::server::lobby::Listing;
use crate::server::room::{Action, Attach};

/// What nodes tell each other (JSON on `stoneplay:node:ID`).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t")]
pub(super) enum Bus {
    /// To a room's referee: attach this node's connection `conn`.
    Attach {
        room: String,
        from: String,
        conn: u64,
        req: u64,
        how: Attach,
    },
    Act {
        room: String,
        from: String,
        conn: u64,
        action: Action,
    },
    Detach {
        room: String,
        from: String,
        conn: u64,
    },
    Ping {
        from: String,
        req: u64,
    },
    /// The referee's answer to `Attach`.
    Attached {
        req: u64,
        answer: Answer,
    },
    Pong {
        req: u64,
    },
    /// A frame for connection `conn` (of the node receiving this), from `room`.
    Frame {
        room: String,
        conn: u64,
        text: String,
    },
    /// Close connection `conn` (its room closed it).
    Close {
        room: String,
        conn: u64,
        code: u16,
        reason: String,
    },
    /// A quick match paired connection `conn`: this is its seat.
    Matched {
        conn: u64,
        room: String,
        token: String,
    },
    /// On the lobby channel (every node): node `from`'s own challenges
    /// and live games, sent on every change and every `BEAT`; an empty
    /// one when it stops.
    Lobby {
        from: String,
        listing: Listing,
    },
    /// To a challenge's node: take challenge `id` for a connection of
    /// node `from` (`taker`: its identity); answered with `Attached`
    /// (`Answer::Seat` or `Answer::Refused`).
    Take {
        from: String,
        req: u64,
        id: String,
        taker: Option<String>,
    },
}

#[derive(Debug, Serialize, Deserialize)]
pub(super) enum Answer {
    Ok,
    /// The room refused; the message as JSON.
    Refused(String),
    /// This node does not referee the room (any more): look again.
    NotHere,
    /// A challenge taken: the room and the taker's token.
    Seat {
        room: String,
        token: String,
    },
}
