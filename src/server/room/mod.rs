//! One task per room, split by concern (issue 34: was one room.rs of
//! 1,318 lines, its rules tangled with members, broadcast and storage):
//!
//! - `table.rs`: the room's rules as a plain table with no I/O —
//!   [`Table::apply`] (moves, pause, draw offers, rematch, the ply cap)
//!   and [`Table::due`] (the clock's deadline, the end of a pause) at an
//!   injected `now`; tested from transcripts in tests/server_table.rs.
//! - `host.rs`: what a room needs of the hub ([`Host`], [`Settings`]) and
//!   the commands it takes ([`RoomCmd`], [`Attach`]).
//! - `task.rs`: the task: its loop, entering, acting, and the store
//!   (stored before announced, rolled back when a write fails).
//! - `members.rs`: who is in the room and what they are sent (full
//!   states, updates, presence).
//!
//! This file only declares them and names what the server uses.

mod host;
mod members;
pub mod table;
mod task;

pub use host::{Attach, Host, RoomCmd, Settings};
pub use table::{Action, Refused, Rules, Table};
pub use task::{spawn, NOT_STORED, RETRY};
