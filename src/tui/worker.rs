//! The background worker: long work (loading a file, searching a tree, generating one) runs on
//! a thread while the screen keeps redrawing; [`Worker::poll`] picks the result up and
//! [`Worker::cancel`] abandons it. A cancelled search stops at its next progress report (its
//! [`Control`] is set and it unwinds with [`Cancelled`]); a cancelled load or generation is left
//! to finish on its own thread and its result is dropped.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use prune::search::{Cancelled, Control};
use prune::tree::Tree;

use super::runs::RunView;

/// What a worker thread sends back.
pub enum Done {
    /// A tree loaded or generated, with where it came from; or the report of why not.
    Tree(Result<(Tree, String), String>),
    /// Runs finished, and the tree they ran on when it replaces the current one.
    Runs(Vec<Result<RunView, String>>, Option<(Tree, String)>),
}

struct Pending {
    what: String,
    started: Instant,
    rx: Receiver<Done>,
    /// Nodes visited so far by the search in progress, if it is one, and the request to stop.
    control: Arc<Control>,
}

/// At most one piece of work in progress.
#[derive(Default)]
pub struct Worker {
    pending: Option<Pending>,
}

/// The worker is busy with something else.
#[derive(Debug)]
pub struct Busy;

/// What came of polling.
pub enum Polled {
    Nothing,
    Done(Box<Done>),
    /// The worker thread ended without an answer (it panicked).
    Failed,
}

impl Worker {
    /// Starts `work` on a thread; a search publishes its node visits through the [`Control`]
    /// it is given, and stops when asked to there.
    pub fn start(
        &mut self,
        what: String,
        work: impl FnOnce(&Control) -> Done + Send + 'static,
    ) -> Result<(), Busy> {
        if self.pending.is_some() {
            return Err(Busy);
        }
        let (tx, rx) = mpsc::channel();
        let control = Arc::new(Control::default());
        let shared = Arc::clone(&control);
        std::thread::spawn(move || {
            match catch_unwind(AssertUnwindSafe(|| work(&shared))) {
                Ok(done) => {
                    let _ = tx.send(done);
                }
                // Cancelled: nobody waits for the result any more.
                Err(payload) if payload.is::<Cancelled>() => {}
                Err(payload) => resume_unwind(payload),
            }
        });
        self.pending = Some(Pending {
            what,
            started: Instant::now(),
            rx,
            control,
        });
        Ok(())
    }

    /// Abandons the work in progress and says what it was.
    pub fn cancel(&mut self) -> Option<String> {
        let p = self.pending.take()?;
        p.control.cancel.store(true, Ordering::Relaxed);
        Some(p.what)
    }

    pub fn is_busy(&self) -> bool {
        self.pending.is_some()
    }

    /// Work in progress: what, for how long, and the nodes a search has visited so far.
    pub fn progress(&self) -> Option<(&str, Duration, u64)> {
        self.pending.as_ref().map(|p| {
            let visits = p.control.visits.load(Ordering::Relaxed);
            (p.what.as_str(), p.started.elapsed(), visits)
        })
    }

    /// The finished work, if it is finished.
    pub fn poll(&mut self) -> Polled {
        let Some(p) = &self.pending else {
            return Polled::Nothing;
        };
        match p.rx.try_recv() {
            Ok(d) => {
                self.pending = None;
                Polled::Done(Box::new(d))
            }
            Err(TryRecvError::Empty) => Polled::Nothing,
            Err(TryRecvError::Disconnected) => {
                self.pending = None;
                Polled::Failed
            }
        }
    }
}
