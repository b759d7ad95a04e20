//! A PostgreSQL error as the short message the stores log and refuse
//! with. Its own module so that the PostgreSQL store (`server::pg`) and the
//! players' operations it calls (`server::players::pg`) both use it without
//! importing each other.

use tokio_postgres::error::SqlState;

/// A database error as a short message ("UNIQUE" in it for a duplicate key,
/// which the hub reads as a room code drawn twice).
pub fn pg_error(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) if *d.code() == SqlState::UNIQUE_VIOLATION => {
            format!("UNIQUE constraint failed: {}", d.message())
        }
        Some(d) => format!("database error: {}", d.message()),
        None if e.is_closed() => "the database connection is closed".into(),
        None => format!("database error: {e}"),
    }
}
