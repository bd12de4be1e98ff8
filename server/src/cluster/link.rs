//! The node's link to Redis: a publisher task that sends what the node
//! queues, in order, and a subscription to the node's channels. Redis
//! delivers at most once: what is queued while it is unreachable is
//! dropped (the node then closes the connections it could not serve, and
//! their clients resume with `since`).

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use redis::aio::PubSubStream;
use tokio::sync::mpsc;

/// How long a Redis command or connection attempt may take.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the publisher waits before it tries an unreachable Redis again.
const RETRY: Duration = Duration::from_millis(100);
/// Most messages sent in one pipeline.
const BATCH: usize = 512;

/// Where the node queues messages for Redis; cheap to clone.
#[derive(Clone)]
pub struct Link {
    out: mpsc::UnboundedSender<Out>,
}

/// What the publisher is asked.
enum Out {
    /// Publish `payload` on `channel`.
    Publish(String, String),
    /// Redis went away (the subscription ended): connect afresh before the
    /// next message rather than finding out by losing it.
    Reconnect,
}

impl Link {
    /// Starts the publisher for `client`.
    pub fn start(client: redis::Client) -> Link {
        let (out, rx) = mpsc::unbounded_channel();
        tokio::spawn(publisher(client, rx));
        Link { out }
    }

    /// Queues `payload` for `channel`. Fails only when the publisher has
    /// stopped (the server is stopping).
    pub fn publish(&self, channel: String, payload: String) -> Result<(), ()> {
        self.out
            .send(Out::Publish(channel, payload))
            .map_err(|_| ())
    }

    /// Tells the publisher that Redis went away.
    pub fn reconnect(&self) {
        let _ = self.out.send(Out::Reconnect);
    }
}

/// Sends everything queued, a pipeline at a time. When Redis is away, a
/// batch waits for it up to [`REDIS_TIMEOUT`] (a restart), then is dropped.
async fn publisher(client: redis::Client, mut rx: mpsc::UnboundedReceiver<Out>) {
    let mut connection = None;
    let mut batch = Vec::new();
    while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        while let Some(out) = next.take() {
            match out {
                Out::Publish(channel, payload) => batch.push((channel, payload)),
                Out::Reconnect => connection = None,
            }
            if batch.len() < BATCH {
                next = rx.try_recv().ok();
            }
        }
        if batch.is_empty() {
            continue;
        }
        tracing::debug!(messages = batch.len(), "publishing");
        let mut pipe = redis::pipe();
        for (channel, payload) in batch.drain(..) {
            pipe.cmd("PUBLISH").arg(channel).arg(payload).ignore();
        }
        let give_up = Instant::now() + REDIS_TIMEOUT;
        loop {
            if connection.is_none() {
                connection =
                    tokio::time::timeout(REDIS_TIMEOUT, client.get_multiplexed_async_connection())
                        .await
                        .ok()
                        .and_then(Result::ok);
            }
            if let Some(c) = connection.as_mut() {
                match tokio::time::timeout(REDIS_TIMEOUT, pipe.query_async::<()>(c)).await {
                    Ok(Ok(())) => {
                        tracing::debug!("published");
                        break;
                    }
                    Ok(Err(e)) => tracing::warn!(error = %e, "publishing to Redis failed"),
                    Err(_) => tracing::warn!("publishing to Redis timed out"),
                }
                connection = None;
            }
            if Instant::now() >= give_up {
                tracing::warn!("Redis unreachable: messages dropped");
                break;
            }
            tokio::time::sleep(RETRY).await;
        }
    }
}

/// Subscribes to `channels`.
///
/// # Errors
/// When Redis cannot be reached.
pub async fn subscribe(
    client: &redis::Client,
    channels: &[String],
) -> Result<PubSubStream, String> {
    let attempt = async {
        let mut pubsub = client.get_async_pubsub().await?;
        for channel in channels {
            pubsub.subscribe(channel).await?;
        }
        Ok::<_, redis::RedisError>(pubsub.into_on_message())
    };
    match tokio::time::timeout(REDIS_TIMEOUT, attempt).await {
        Ok(subscribed) => subscribed.map_err(|e| e.to_string()),
        Err(_) => Err("timed out subscribing to Redis".into()),
    }
}

/// The next message's channel and payload; `None` when the subscription
/// ended (Redis went away).
pub async fn next(stream: &mut PubSubStream) -> Option<(String, String)> {
    loop {
        let message = stream.next().await?;
        if let Ok(payload) = message.get_payload::<String>() {
            return Some((message.get_channel_name().to_string(), payload));
        }
    }
}
