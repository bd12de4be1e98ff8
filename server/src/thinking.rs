//! [`Thinking`]: the server's engine work on the machine's cores, shared
//! between the AI seats, hints and game analyses so that the first come
//! first.
//!
//! - **AI seats never wait.** A seat's move starts at once and counts as
//!   a busy core while it thinks ([`Thinking::ai_move`]).
//! - **Hints and analyses use the idle cores.** They run one step at a
//!   time (one hint, or one position of an analysis) and a step starts only
//!   while fewer than `cores` steps and AI moves are running; hints go
//!   before analysis steps. An AI move that starts while a step runs waits
//!   for no more than the machine sharing a core with that step, and a
//!   flood of analyses only lengthens the queue.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// What a step is for, in the order waiting steps start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// A hint for a player who is waiting for it.
    Hint,
    /// One step of a game's analysis.
    Analysis,
}

/// The shared count of busy cores and the steps waiting for one.
pub struct Thinking {
    cores: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    busy: usize,
    hints: VecDeque<oneshot::Sender<()>>,
    analyses: VecDeque<oneshot::Sender<()>>,
}

impl Thinking {
    /// A pool of `cores` cores (at least one).
    pub fn new(cores: usize) -> Arc<Thinking> {
        Arc::new(Thinking {
            cores: cores.max(1),
            state: Mutex::new(State::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts an AI seat's move as a busy core until the guard is dropped.
    /// Never waits.
    pub fn ai_move(self: &Arc<Self>) -> Busy {
        self.lock().busy += 1;
        Busy(self.clone())
    }

    /// Waits for an idle core for one step of `work`; the core is the
    /// step's until the guard is dropped.
    pub async fn step(self: &Arc<Self>, work: Work) -> Busy {
        if let Some(rx) = self.enter(work) {
            // The core is counted for us by whoever sends; a dropped sender
            // (never done) would be a bug, and then we run anyway.
            let _ = rx.await;
        }
        Busy(self.clone())
    }

    /// [`Thinking::step`] from a blocking thread (an analysis between its
    /// positions).
    pub fn blocking_step(self: &Arc<Self>, work: Work) -> Busy {
        if let Some(rx) = self.enter(work) {
            let _ = rx.blocking_recv();
        }
        Busy(self.clone())
    }

    /// Takes an idle core for `work` (None), or queues it (the receiver
    /// hears when a core was counted for it).
    fn enter(&self, work: Work) -> Option<oneshot::Receiver<()>> {
        let mut state = self.lock();
        if state.busy < self.cores && state.hints.is_empty() && state.analyses.is_empty() {
            state.busy += 1;
            return None;
        }
        let (tx, rx) = oneshot::channel();
        match work {
            Work::Hint => state.hints.push_back(tx),
            Work::Analysis => state.analyses.push_back(tx),
        }
        Some(rx)
    }

    /// Busy cores now (AI moves and steps).
    #[cfg(test)]
    fn busy(&self) -> usize {
        self.lock().busy
    }

    /// A core came free: hand idle cores to waiting steps, hints first.
    fn release(&self) {
        let mut state = self.lock();
        state.busy = state.busy.saturating_sub(1);
        while state.busy < self.cores {
            let Some(next) = state
                .hints
                .pop_front()
                .or_else(|| state.analyses.pop_front())
            else {
                break;
            };
            // A waiter that gave up (its task was dropped) does not take
            // the core.
            if next.send(()).is_ok() {
                state.busy += 1;
            }
        }
    }
}

/// A busy core, counted until dropped.
pub struct Busy(Arc<Thinking>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ai_moves_never_wait_and_steps_use_only_idle_cores() {
        let pool = Thinking::new(1);
        let ai = pool.ai_move();
        let second_ai = pool.ai_move();
        assert_eq!(pool.busy(), 2, "AI moves start even past the cores");
        let step = tokio::spawn({
            let pool = pool.clone();
            async move { pool.step(Work::Analysis).await }
        });
        tokio::task::yield_now().await;
        assert!(!step.is_finished(), "no idle core for the step");
        drop(ai);
        tokio::task::yield_now().await;
        assert!(!step.is_finished(), "still one AI move on the one core");
        drop(second_ai);
        let busy = step.await.unwrap();
        assert_eq!(pool.busy(), 1);
        drop(busy);
        assert_eq!(pool.busy(), 0);
    }

    #[tokio::test]
    async fn a_waiting_hint_goes_before_waiting_analysis_steps() {
        let pool = Thinking::new(1);
        let ai = pool.ai_move();
        let (order_tx, mut order) = tokio::sync::mpsc::unbounded_channel();
        let mut tasks = Vec::new();
        for work in [Work::Analysis, Work::Analysis, Work::Hint] {
            let (pool, order_tx) = (pool.clone(), order_tx.clone());
            tasks.push(tokio::spawn(async move {
                let busy = pool.step(work).await;
                order_tx.send(work).unwrap();
                drop(busy);
            }));
            tokio::task::yield_now().await;
        }
        drop(ai);
        for t in tasks {
            t.await.unwrap();
        }
        let first = order.recv().await.unwrap();
        assert_eq!(first, Work::Hint, "the hint first");
        assert_eq!(pool.busy(), 0);
    }

    #[test]
    fn a_blocking_step_waits_for_a_core_from_another_thread() {
        let pool = Thinking::new(1);
        let ai = pool.ai_move();
        let waiting = std::thread::spawn({
            let pool = pool.clone();
            move || {
                let _busy = pool.blocking_step(Work::Analysis);
            }
        });
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(!waiting.is_finished(), "no idle core");
        drop(ai);
        waiting.join().unwrap();
        assert_eq!(pool.busy(), 0);
    }
}
