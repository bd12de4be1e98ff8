//! The writer: one task with the server's only writing connection to
//! PostgreSQL. It takes whatever requests are queued, runs them in one
//! transaction and then answers them all (group commit), as the SQLite
//! writer does: a commit waits for PostgreSQL's flush, so thousands of
//! moves a second cost a handful of flushes.

use std::pin::Pin;
use std::task::Poll;
use std::time::{Duration, Instant};

use tabula_shared::protocol::RatingChange;
use tokio::sync::mpsc;
use tokio_postgres::Client;

use super::apply::{append, apply};
use super::statements::Statements;
use super::{connect, reason, take_server_lock};
use crate::store::request::{
    MAX_BATCH, Request, answer, batch_from, closes, take_queued, warn_if_slow,
};
use crate::store::rows::AppendedAction;
use crate::store::write::Write;

/// The writer's connection and its prepared statements.
pub(super) struct Session {
    client: Client,
    statements: Statements,
}

impl Session {
    /// Prepares the writer's statements on `client` (which holds the
    /// server lock); a cluster node's writer names its `node` for the fence
    /// (see `schema.rs`, version 3).
    pub(super) async fn new(
        client: Client,
        node: Option<&str>,
    ) -> Result<Session, tokio_postgres::Error> {
        if let Some(node) = node {
            client
                .execute("SELECT set_config('tabula.node', $1, false)", &[&node])
                .await?;
        }
        let statements = Statements::prepare(&client).await?;
        Ok(Session { client, statements })
    }

    /// A new session after the connection broke: connects again and takes
    /// the server lock back (at once: another server holding it now means
    /// this one must not write).
    async fn reconnect(url: &str, node: Option<&str>) -> Result<Session, String> {
        let client = connect(url).await.map_err(|e| reason(&e))?;
        take_server_lock(&client, Duration::ZERO, node.is_some())
            .await
            .map_err(|e| e.to_string())?;
        Session::new(client, node).await.map_err(|e| reason(&e))
    }
}

/// A commit within this long of the previous one means the store is busy.
const BUSY: Duration = Duration::from_millis(2);
/// A batch this large means requests are piling up.
const BUSY_BATCH: usize = 2;
/// How long a busy writer waits for more requests before committing.
const LINGER: Duration = Duration::from_millis(1);

/// The writer task: group commit of everything queued, until a
/// [`Write::Close`] (answered once the connection is closed) or every
/// handle is gone.
pub(super) async fn writer(
    session: Session,
    url: String,
    node: Option<String>,
    mut rx: mpsc::UnboundedReceiver<Request>,
) {
    let mut session = Some(session);
    let mut last_commit = Instant::now();
    let mut last_batch = 0;
    while let Some(first) = rx.recv().await {
        let mut batch = batch_from(first, &mut rx);
        if batch.is_empty() {
            continue;
        }
        if batch.len() < MAX_BATCH && last_batch >= BUSY_BATCH && last_commit.elapsed() < BUSY {
            tokio::time::sleep(LINGER).await;
            take_queued(&mut rx, &mut batch);
        }
        let close = if closes(&batch) { batch.pop() } else { None };
        if !batch.is_empty() {
            if session.as_ref().is_none_or(|s| s.client.is_closed()) {
                session = match Session::reconnect(&url, node.as_deref()).await {
                    Ok(s) => Some(s),
                    Err(e) => {
                        tracing::error!(error = %e, "the store cannot reach PostgreSQL");
                        None
                    }
                };
            }
            let started = Instant::now();
            let outcome = match session.as_mut() {
                Some(s) => commit(s, &batch).await.map_err(|e| reason(&e)),
                None => Err("the store cannot reach PostgreSQL".to_string()),
            };
            warn_if_slow(started.elapsed(), batch.len());
            last_commit = Instant::now();
            last_batch = batch.len();
            answer(batch, outcome);
        }
        if let Some(close) = close {
            // Dropping the client closes the connection: the server lock goes.
            drop(session.take());
            let _ = close.done.send(Ok(Vec::new()));
            return;
        }
    }
}

/// Whether a write runs in a savepoint of its own: one that may fail alone
/// (a name already taken) or that is several statements (a finished game
/// and its ratings, the puzzles'). Every other write fails only when the database does,
/// and is one statement.
fn in_savepoint(write: &Write) -> bool {
    matches!(
        write,
        Write::Game(_)
            | Write::Account(_)
            | Write::ApiToken(_)
            | Write::Puzzles(_)
            | Write::PuzzleAnswer { .. }
    )
}

/// A write's future, as the writer pipelines them.
type Pending<'a> = Pin<Box<dyn Future<Output = Result<(), tokio_postgres::Error>> + Send + 'a>>;

/// One transaction carrying `batch`, in order. The writes outside
/// savepoints are pipelined: each is one statement, all are sent before the
/// first answer is awaited (PostgreSQL runs them in the order sent), and a
/// run of moves is one statement. A write in a savepoint waits for those
/// before it and goes alone, so that its failure is its own. Returns each
/// request's outcome.
async fn commit(
    session: &mut Session,
    batch: &[Request],
) -> Result<Vec<Result<Vec<RatingChange>, String>>, tokio_postgres::Error> {
    let st = &session.statements;
    let mut tx = session.client.transaction().await?;
    let mut results = Vec::with_capacity(batch.len());
    let mut i = 0;
    while i < batch.len() {
        let start = i;
        let mut pending: Vec<Pending<'_>> = Vec::new();
        while i < batch.len() && !in_savepoint(&batch[i].write) {
            let mut run: Vec<AppendedAction> = Vec::new();
            while let Some(Write::Action(a)) = batch.get(i + run.len()).map(|r| &r.write) {
                run.push((**a).clone());
            }
            if run.is_empty() {
                let write = &batch[i].write;
                let tx = &tx;
                pending.push(Box::pin(
                    async move { apply(tx, st, write).await.map(drop) },
                ));
                i += 1;
            } else {
                i += run.len();
                let tx = &tx;
                pending.push(Box::pin(async move { append(tx, st, &run).await }));
            }
        }
        pipeline(pending).await?;
        results.extend((start..i).map(|_| Ok(Vec::new())));
        let Some(request) = batch.get(i) else { break };
        let savepoint = tx.savepoint("one").await?;
        let result = match apply(&savepoint, st, &request.write).await {
            Ok(changes) => {
                savepoint.commit().await?;
                Ok(changes)
            }
            Err(e) => {
                savepoint.rollback().await?;
                Err(reason(&e))
            }
        };
        results.push(result);
        i += 1;
    }
    tx.commit().await?;
    Ok(results)
}

/// Sends every statement of `pending` in order (each future's first poll
/// sends its statement), then waits for all the answers.
async fn pipeline(mut pending: Vec<Pending<'_>>) -> Result<(), tokio_postgres::Error> {
    let mut done = Vec::with_capacity(pending.len());
    for future in &mut pending {
        let first = std::future::poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await;
        done.push(first);
    }
    for (future, first) in pending.into_iter().zip(done) {
        match first {
            Poll::Ready(result) => result?,
            Poll::Pending => future.await?,
        }
    }
    Ok(())
}
