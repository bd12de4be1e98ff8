//! [`StoreError`]: why the store could not do what it was asked.

/// A store error, with SQLite's reason.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The writer could not make a write durable; SQLite's reason, as the
    /// writer thread told it.
    #[error("sqlite: {0}")]
    Write(String),
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
