//! The write side of one connection, shared by the connection's task and by
//! the rooms it is in.
//!
//! A room writes its frames straight into the client's socket: a move's
//! event reaches both players without waking either connection's task, so
//! a frame costs no task switch.
//!
//! Every byte to the client goes through one [`Outlet`], in order: frames
//! from rooms, the connection's own replies, and what tungstenite itself
//! writes (the handshake, pongs, the close) through [`WsStream`]. Frames are
//! queued whole: when the socket takes only part of one, the rest of it,
//! and everything after it, waits in `pending` until the connection's task
//! sees the socket writable again ([`Outlet::poll_drain`]).

use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use crate::backlogs::Backlogs;

/// How many bytes may wait for a slow client before rooms give up on it
/// (a spectator on a bad link; it resumes with `since` when it reconnects).
pub const PENDING_LIMIT: usize = 1024 * 1024;

/// Frames up to this many bytes (a move's event is about 150) are copied
/// into one buffer and written with one `send`.
const SMALL_FRAME: usize = 1024;

/// A drained backlog's buffer is kept up to this size, for the next one.
const KEEP_CAPACITY: usize = 64 * 1024;

/// A connection's write side; cheap to clone.
#[derive(Clone)]
pub struct Outlet(Kind);

#[derive(Clone)]
enum Kind {
    /// A client's socket on this server.
    Socket(Arc<Mutex<State>>),
    /// A client connected to another node of a cluster: its frames go
    /// there (see `cluster`).
    Relay(Arc<dyn Relay>),
}

/// Where a relayed connection's frames go: the node that holds its socket.
pub trait Relay: Send + Sync {
    /// Passes one text frame on.
    ///
    /// # Errors
    /// [`SendError::Gone`] when it cannot reach that node.
    fn send_text(&self, text: &str) -> Result<(), SendError>;
    /// Asks that node to close the connection with `code`.
    fn close(&self, code: CloseCode, reason: String);
}

struct State {
    /// The socket's write half; `None` once the connection is gone.
    io: Option<OwnedWriteHalf>,
    /// Bytes accepted but not yet written; `pending[written..]` is still to go.
    pending: Vec<u8>,
    written: usize,
    /// The connection's task, to write `pending` or to close.
    waker: Option<Waker>,
    /// A close asked for by a room, for the connection's task to carry out.
    close: Option<(CloseCode, String)>,
    /// Every connection's backlog added up, and its cap.
    backlogs: Arc<Backlogs>,
    /// This backlog as last added to `backlogs`.
    counted: usize,
}

impl Drop for State {
    fn drop(&mut self) {
        self.backlogs.changed(self.counted, 0);
    }
}

impl State {
    /// Tells `backlogs` how this backlog changed since it was last told.
    fn recount(&mut self) {
        let now = self.backlog();
        self.backlogs.changed(self.counted, now);
        self.counted = now;
    }

    fn backlog(&self) -> usize {
        self.pending.len() - self.written
    }

    fn wake(&mut self) {
        if let Some(waker) = self.waker.take() {
            waker.wake();
        }
    }

    /// Writes `parts` now if nothing is waiting, and queues what the socket
    /// did not take. `Err` when the connection is gone.
    fn write(&mut self, parts: &[&[u8]]) -> Result<(), ()> {
        let Some(io) = &self.io else {
            return Err(());
        };
        let total: usize = parts.iter().map(|p| p.len()).sum();
        let mut done = 0;
        if self.backlog() == 0 {
            let tried = if total <= SMALL_FRAME {
                // One plain `send` of one buffer: `writev` costs more in the
                // kernel than copying a small frame.
                let mut buf = [0u8; SMALL_FRAME];
                let mut at = 0;
                for part in parts {
                    buf[at..at + part.len()].copy_from_slice(part);
                    at += part.len();
                }
                io.try_write(&buf[..total])
            } else {
                let slices: Vec<IoSlice> = parts.iter().map(|p| IoSlice::new(p)).collect();
                io.try_write_vectored(&slices)
            };
            match tried {
                Ok(n) => done = n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => {
                    self.io = None;
                    self.wake();
                    return Err(());
                }
            }
            if done == total {
                return Ok(());
            }
            // The socket is full: the connection's task writes the rest
            // once it can take more.
            self.wake();
        }
        for part in parts {
            let skip = done.min(part.len());
            self.pending.extend_from_slice(&part[skip..]);
            done -= skip;
        }
        Ok(())
    }
}

/// Why [`Outlet::send_text`] did not take a frame.
#[derive(Debug, PartialEq, Eq)]
pub enum SendError {
    /// The connection is gone.
    Gone,
    /// The client is too far behind.
    Full,
}

/// What [`Outlet::poll_drain`] tells the connection's task.
pub enum Drained {
    /// A room asked for the connection to be closed.
    Close(CloseCode, String),
    /// The socket failed.
    Failed,
}

impl Outlet {
    /// Splits `stream` into the read half, for tungstenite, and the outlet,
    /// whose backlog counts in `backlogs`.
    pub fn new(stream: TcpStream, backlogs: Arc<Backlogs>) -> (OwnedReadHalf, Outlet) {
        let (read, write) = stream.into_split();
        let state = State {
            io: Some(write),
            pending: Vec::new(),
            written: 0,
            waker: None,
            close: None,
            backlogs,
            counted: 0,
        };
        (read, Outlet(Kind::Socket(Arc::new(Mutex::new(state)))))
    }

    /// The outlet of a connection another node holds.
    pub fn relay(relay: Arc<dyn Relay>) -> Outlet {
        Outlet(Kind::Relay(relay))
    }

    /// The socket's state; `None` for a relay.
    fn lock(&self) -> Option<MutexGuard<'_, State>> {
        match &self.0 {
            Kind::Socket(state) => Some(lock(state)),
            Kind::Relay(_) => None,
        }
    }

    /// Sends one text frame (written now when the socket can take it).
    ///
    /// # Errors
    /// [`SendError::Gone`] when the connection is closed, [`SendError::Full`]
    /// when more than [`PENDING_LIMIT`] bytes are already waiting, or when
    /// all connections' backlogs are over their cap and this one is among
    /// the slowest.
    pub fn send_text(&self, text: &str) -> Result<(), SendError> {
        if let Kind::Relay(relay) = &self.0 {
            return relay.send_text(text);
        }
        let Some(mut state) = self.lock() else {
            return Err(SendError::Gone);
        };
        let header = text_header(text.len());
        let backlog = state.backlog();
        if backlog > PENDING_LIMIT || state.backlogs.refuses(backlog) {
            return Err(SendError::Full);
        }
        let written = state
            .write(&[&header.bytes[..header.len], text.as_bytes()])
            .map_err(|()| SendError::Gone);
        state.recount();
        written
    }

    /// Asks the connection's task to close the connection with `code`
    /// after what is already queued.
    pub fn close(&self, code: CloseCode, reason: impl Into<String>) {
        if let Kind::Relay(relay) = &self.0 {
            return relay.close(code, reason.into());
        }
        let Some(mut state) = self.lock() else {
            return;
        };
        state.close.get_or_insert((code, reason.into()));
        state.wake();
    }

    /// For the connection's task: writes what is waiting and registers to be
    /// woken for more. Ready only when there is something to do about it.
    pub fn poll_drain(&self, cx: &mut Context<'_>) -> Poll<Drained> {
        let Some(mut state) = self.lock() else {
            return Poll::Pending;
        };
        if !state
            .waker
            .as_ref()
            .is_some_and(|w| w.will_wake(cx.waker()))
        {
            state.waker = Some(cx.waker().clone());
        }
        let flushed = state.poll_flush(cx);
        state.recount();
        match flushed {
            Poll::Ready(Err(_)) => return Poll::Ready(Drained::Failed),
            Poll::Ready(Ok(())) | Poll::Pending => {}
        }
        match state.close.take() {
            Some((code, reason)) => Poll::Ready(Drained::Close(code, reason)),
            None => Poll::Pending,
        }
    }

    /// For the connection's task, when it ends: nothing more is written and
    /// the socket's write half is closed.
    pub fn shut(&self) {
        let Some(mut state) = self.lock() else {
            return;
        };
        state.io = None;
        state.pending = Vec::new();
        state.written = 0;
        state.recount();
    }
}

/// Locks a socket's state.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic while holding the lock leaves plain bytes behind; go on.
    state.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    /// Writes `pending` until it is empty or the socket is full (then the
    /// task in `cx` is woken when it can take more).
    fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.backlog() > 0 {
            let Some(io) = &mut self.io else {
                return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
            };
            match Pin::new(io).poll_write(cx, &self.pending[self.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.written += n,
                Poll::Ready(Err(e)) => {
                    self.io = None;
                    return Poll::Ready(Err(e));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
        self.written = 0;
        if self.pending.capacity() > KEEP_CAPACITY {
            // A client that fell behind does not keep its backlog's memory.
            self.pending = Vec::new();
        } else {
            self.pending.clear();
        }
        Poll::Ready(Ok(()))
    }
}

/// A text frame's header: server frames are not masked.
struct Header {
    bytes: [u8; 10],
    len: usize,
}

fn text_header(len: usize) -> Header {
    let mut bytes = [0u8; 10];
    bytes[0] = 0x81; // FIN, text
    let len = if len < 126 {
        bytes[1] = len as u8;
        2
    } else if let Ok(short) = u16::try_from(len) {
        bytes[1] = 126;
        bytes[2..4].copy_from_slice(&short.to_be_bytes());
        4
    } else {
        bytes[1] = 127;
        bytes[2..10].copy_from_slice(&(len as u64).to_be_bytes());
        10
    };
    Header { bytes, len }
}

/// The stream tungstenite runs on: reads from the socket, writes through
/// the [`Outlet`] (so its frames keep their place among the rooms').
pub struct WsStream {
    read: OwnedReadHalf,
    state: Arc<Mutex<State>>,
}

impl WsStream {
    /// Tungstenite's side of a connection: `outlet` is the one
    /// [`Outlet::new`] made with `read`.
    pub fn new(read: OwnedReadHalf, outlet: Outlet) -> WsStream {
        let Kind::Socket(state) = outlet.0 else {
            unreachable!("a relayed connection has no socket here");
        };
        WsStream { read, state }
    }
}

impl AsyncRead for WsStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.read).poll_read(cx, buf)
    }
}

impl AsyncWrite for WsStream {
    /// Takes all of `buf` (tungstenite hands over whole frames), writing
    /// what the socket takes now and queueing the rest.
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let mut state = lock(&self.state);
        let written = state.write(&[buf]);
        state.recount();
        match written {
            Ok(()) => Poll::Ready(Ok(buf.len())),
            Err(()) => Poll::Ready(Err(io::ErrorKind::BrokenPipe.into())),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut state = lock(&self.state);
        let flushed = state.poll_flush(cx);
        state.recount();
        flushed
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let mut state = lock(&self.state);
        let flushed = state.poll_flush(cx);
        state.recount();
        if flushed?.is_pending() {
            return Poll::Pending;
        }
        match &mut state.io {
            Some(io) => Pin::new(io).poll_shutdown(cx),
            None => Poll::Ready(Ok(())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[test]
    fn headers_use_the_shortest_length_form() {
        let h = text_header(125);
        assert_eq!(&h.bytes[..h.len], &[0x81, 125]);
        let h = text_header(126);
        assert_eq!(&h.bytes[..h.len], &[0x81, 126, 0, 126]);
        let h = text_header(65_536);
        assert_eq!(&h.bytes[..h.len], &[0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
    }

    /// A client that does not read: frames queue whole and in order, the
    /// limit refuses more, and draining delivers every byte once it reads.
    #[tokio::test]
    async fn a_full_socket_queues_whole_frames_in_order() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let mut client = TcpStream::connect(addr).await.expect("connect");
        let (server, _) = listener.accept().await.expect("accept");
        let (_read, outlet) = Outlet::new(server, Arc::new(Backlogs::new(usize::MAX)));
        let frame = "x".repeat(60_000);
        let mut sent = 0;
        while outlet.send_text(&frame).is_ok() {
            sent += 1;
        }
        assert_eq!(outlet.send_text("more"), Err(SendError::Full));
        assert!(outlet.lock().expect("a socket").backlog() > PENDING_LIMIT);
        let drain = {
            let outlet = outlet.clone();
            tokio::spawn(async move {
                std::future::poll_fn(|cx| match outlet.poll_drain(cx) {
                    Poll::Ready(_) => Poll::Ready(()),
                    Poll::Pending if outlet.lock().expect("a socket").backlog() == 0 => {
                        Poll::Ready(())
                    }
                    Poll::Pending => Poll::Pending,
                })
                .await
            })
        };
        let mut received = vec![0u8; sent * (4 + 60_000)];
        client.read_exact(&mut received).await.expect("read");
        drain.await.expect("drain");
        assert_eq!(
            outlet.lock().expect("a socket").pending.capacity(),
            0,
            "the backlog's memory is given back"
        );
        for chunk in received.chunks(4 + 60_000) {
            assert_eq!(&chunk[..4], &[0x81, 126, 0xEA, 0x60]);
            assert!(chunk[4..].iter().all(|&b| b == b'x'));
        }
        outlet.shut();
        assert_eq!(outlet.send_text("late"), Err(SendError::Gone));
    }

    /// Sockets that never read, with a small cap on all backlogs together:
    /// past it the slowest is refused first, a client that keeps up is
    /// never refused, and the total goes back to zero when they are gone.
    #[tokio::test]
    async fn past_the_total_cap_the_slowest_are_refused_first() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let backlogs = Arc::new(Backlogs::new(600_000));
        let mut clients = Vec::new();
        let mut outlets = Vec::new();
        for _ in 0..3 {
            clients.push(TcpStream::connect(addr).await.expect("connect"));
            let (server, _) = listener.accept().await.expect("accept");
            outlets.push(Outlet::new(server, backlogs.clone()).1);
        }
        let frame = "x".repeat(50_000);
        // The first falls far behind, the second a little; neither reads.
        while outlets[0].lock().expect("a socket").backlog() < 500_000 {
            outlets[0].send_text(&frame).expect("under the cap");
        }
        while outlets[1].lock().expect("a socket").backlog() < 200_000 {
            outlets[1].send_text(&frame).expect("under the cap");
        }
        assert!(backlogs.total() > 600_000);
        // Over the cap: the slowest is refused, the other may still queue,
        // and one with nothing waiting sends as ever.
        assert_eq!(outlets[0].send_text(&frame), Err(SendError::Full));
        assert_eq!(outlets[1].send_text("small"), Ok(()));
        assert_eq!(outlets[2].send_text("hello"), Ok(()));
        for outlet in &outlets {
            outlet.shut();
        }
        drop(outlets);
        assert_eq!(backlogs.total(), 0);
    }
}
