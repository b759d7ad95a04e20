//! The players' tables, for SQLite and PostgreSQL alike (same tables,
//! columns and keys; only the column types differ).
//!
//! - `players`: the public id, the sealed secret (SHA-256, never the
//!   secret), the name as shown and its two folded forms
//!   ([`super::name`]; each unique: the second `Bob` — or `B0B` — is
//!   refused by the database itself, so two nodes registering at once
//!   cannot both win), when it was made and last renamed (the rename
//!   limit).
//! - `ratings`: one row per player and game (`ataxx`, `stones`, `mill`:
//!   [`crate::games::GameKind::slug`]) with the Glicko-2 figures and the
//!   counts; written only with the game that changed it.
//! - `rating_history`: one point per rated game (the chart), keyed by the
//!   game, so a game is counted once.
//! - `games`: every finished online game (room and game number: a room's
//!   rematches are its games 2, 3, …), who played which side, the result
//!   as the server decided it, whether it was rated and each side's
//!   rating before and after. Its moves stay in `moves`, as played. The
//!   primary key makes recording a game twice fail, so a result is never
//!   applied to the ratings twice.

/// SQLite (the single server's `stoneplay.sqlite3`).
pub const SQLITE: &str = "
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    secret TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    name_shape TEXT NOT NULL UNIQUE,
    created_ms INTEGER NOT NULL,
    renamed_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    last_ms INTEGER NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, rating DESC);
CREATE TABLE IF NOT EXISTS rating_history (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    PRIMARY KEY (player, game, room, game_no)
);
CREATE INDEX IF NOT EXISTS rating_history_time ON rating_history (player, game, at_ms);
CREATE TABLE IF NOT EXISTS games (
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    game TEXT NOT NULL,
    spec TEXT NOT NULL,
    start TEXT NOT NULL,
    first TEXT,
    second TEXT,
    outcome TEXT NOT NULL,
    plies INTEGER NOT NULL,
    clock_ms INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    counted INTEGER NOT NULL,
    first_before REAL,
    first_after REAL,
    second_before REAL,
    second_after REAL,
    finished_ms INTEGER NOT NULL,
    PRIMARY KEY (room, game_no)
);
CREATE INDEX IF NOT EXISTS games_first ON games (first, finished_ms DESC);
CREATE INDEX IF NOT EXISTS games_second ON games (second, finished_ms DESC);
";

/// PostgreSQL (a single server with `--database`, or a cluster).
pub const POSTGRES: &str = "
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    secret TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    name_shape TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL,
    renamed_ms BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    losses INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    last_ms BIGINT NOT NULL,
    PRIMARY KEY (player, game)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, rating DESC);
CREATE TABLE IF NOT EXISTS rating_history (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    PRIMARY KEY (player, game, room, game_no)
);
CREATE INDEX IF NOT EXISTS rating_history_time ON rating_history (player, game, at_ms);
CREATE TABLE IF NOT EXISTS games (
    room TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    game TEXT NOT NULL,
    spec TEXT NOT NULL,
    start TEXT NOT NULL,
    first TEXT,
    second TEXT,
    outcome TEXT NOT NULL,
    plies INTEGER NOT NULL,
    clock_ms BIGINT NOT NULL,
    rated BOOLEAN NOT NULL,
    counted BOOLEAN NOT NULL,
    first_before DOUBLE PRECISION,
    first_after DOUBLE PRECISION,
    second_before DOUBLE PRECISION,
    second_after DOUBLE PRECISION,
    finished_ms BIGINT NOT NULL,
    PRIMARY KEY (room, game_no)
);
CREATE INDEX IF NOT EXISTS games_first ON games (first, finished_ms DESC);
CREATE INDEX IF NOT EXISTS games_second ON games (second, finished_ms DESC);
";

#[cfg(test)]
mod tests {
    /// The two dialects declare the same tables, columns and keys.
    #[test]
    fn both_dialects_have_the_same_tables_and_columns() {
        fn shape(sql: &str) -> Vec<String> {
            sql.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(|l| {
                    let l = l
                        .replace("DOUBLE PRECISION", "REAL")
                        .replace("BIGINT", "INTEGER")
                        .replace("BOOLEAN", "INTEGER");
                    l.split_whitespace().collect::<Vec<_>>().join(" ")
                })
                .collect()
        }
        assert_eq!(shape(super::SQLITE), shape(super::POSTGRES));
        assert!(super::SQLITE.contains("name_key TEXT NOT NULL UNIQUE"));
    }
}
