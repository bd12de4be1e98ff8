//! [`StoreError`]: why the store could not do what it was asked.

/// A store error, with the database's reason.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL refused, or could not be reached.
    #[error("postgres: {}", super::postgres::reason(.0))]
    Postgres(#[from] tokio_postgres::Error),
    /// The writer could not make a write durable; the database's reason, as
    /// the writer told it.
    #[error("store: {0}")]
    Write(String),
    /// Another server holds the database (PostgreSQL's server lock).
    #[error("{0}")]
    InUse(String),
    /// A cluster was asked of the SQLite file (it needs PostgreSQL).
    #[error("a cluster needs PostgreSQL (--database postgres://...)")]
    NoCluster,
    /// The data directory could not be created.
    #[error("data directory: {0}")]
    Io(#[from] std::io::Error),
    /// The store did not answer in time (a frozen or stalled disk). A write
    /// may still be made durable later.
    #[error("the store did not answer within {0:?}")]
    TimedOut(std::time::Duration),
    /// The writer thread is gone (the server is shutting down).
    #[error("store closed")]
    Closed,
}
