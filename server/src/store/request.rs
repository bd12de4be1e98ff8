//! [`Request`]: one [`Write`] queued for a backend's writer, and where its
//! outcome goes; [`queue`] sends one and waits for the answer.

use tabula_shared::protocol::RatingChange;
use tokio::sync::{mpsc, oneshot};

use super::StoreError;
use super::write::Write;

/// One write queued for a writer, and where its outcome goes.
pub(super) struct Request {
    /// What to write.
    pub(super) write: Write,
    /// Told once the write is committed (or failed): how ratings moved, or
    /// why it failed.
    pub(super) done: oneshot::Sender<Result<Vec<RatingChange>, String>>,
    /// Whether the write is dropped, unwritten, when its caller stopped
    /// waiting before the writer reached it (the caller was told it failed
    /// and undid the change, so writing it would save what nobody was told).
    pub(super) abandonable: bool,
}

impl Request {
    /// Whether this request's caller stopped waiting for it (a time-out) and
    /// the write may be dropped. Writers check before they begin a batch: a
    /// stalled disk then costs the callers their time-outs, not a late write
    /// of changes they were told failed.
    pub(super) fn abandoned(&self) -> bool {
        if self.abandonable && self.done.is_closed() {
            tracing::debug!("a write whose caller stopped waiting is dropped");
            return true;
        }
        false
    }
}

/// Queues `write` on `writes` now, when called (not when the future is
/// first polled), and returns its outcome once it has been committed, or
/// [`StoreError::TimedOut`] after `limit`. Writes are committed in the order
/// they are queued, so anything queued later is durable only once this is.
pub(super) fn queue(
    writes: &mpsc::UnboundedSender<Request>,
    write: Write,
    abandonable: bool,
    limit: std::time::Duration,
) -> impl Future<Output = Result<Vec<RatingChange>, StoreError>> + Send + 'static {
    let (done, wait) = oneshot::channel();
    let sent = writes.send(Request {
        write,
        done,
        abandonable,
    });
    async move {
        sent.map_err(|_| StoreError::Closed)?;
        let answer = tokio::time::timeout(limit, wait)
            .await
            .map_err(|_| StoreError::TimedOut(limit))?;
        match answer {
            Ok(Ok(changes)) => Ok(changes),
            Ok(Err(message)) => Err(StoreError::Write(message)),
            Err(_) => Err(StoreError::Closed),
        }
    }
}

/// What a batch's commit came to: each request's outcome, or why the whole
/// transaction failed.
pub(super) type BatchOutcome = Result<Vec<Result<Vec<RatingChange>, String>>, String>;

/// Answers every request of a committed (or failed) batch, logging failures.
pub(super) fn answer(batch: Vec<Request>, outcome: BatchOutcome) {
    match outcome {
        Ok(results) => {
            for (request, result) in batch.into_iter().zip(results) {
                if let Err(e) = &result {
                    tracing::error!(error = %e, "store write failed");
                }
                let _ = request.done.send(result);
            }
        }
        Err(e) => {
            tracing::error!(error = %e, "store commit failed");
            for request in batch {
                let _ = request.done.send(Err(e.clone()));
            }
        }
    }
}

/// A commit this slow (a stalled disk, a busy database) is logged as a warning.
const SLOW_COMMIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Warns when a commit of `requests` took longer than [`SLOW_COMMIT`]: every
/// room waiting on it was held up as long.
pub(super) fn warn_if_slow(took: std::time::Duration, requests: usize) {
    if took > SLOW_COMMIT {
        tracing::warn!(ms = took.as_millis() as u64, requests, "slow store commit");
    }
}

/// The most requests one transaction carries.
pub(super) const MAX_BATCH: usize = 512;

/// Whether `batch` ends with a [`Write::Close`] (nothing is taken after it).
pub(super) fn closes(batch: &[Request]) -> bool {
    matches!(batch.last(), Some(r) if matches!(r.write, Write::Close))
}

/// Adds to `batch` whatever is queued now, up to [`MAX_BATCH`] and up to a
/// close, leaving out requests whose callers stopped waiting.
pub(super) fn take_queued(rx: &mut mpsc::UnboundedReceiver<Request>, batch: &mut Vec<Request>) {
    while batch.len() < MAX_BATCH && !closes(batch) {
        match rx.try_recv() {
            Ok(request) if request.abandoned() => {}
            Ok(request) => batch.push(request),
            Err(_) => break,
        }
    }
}

/// A batch beginning with `first` (unless its caller stopped waiting) and
/// holding whatever else is queued now.
pub(super) fn batch_from(
    first: Request,
    rx: &mut mpsc::UnboundedReceiver<Request>,
) -> Vec<Request> {
    let mut batch = Vec::new();
    if !first.abandoned() {
        batch.push(first);
    }
    take_queued(rx, &mut batch);
    batch
}
