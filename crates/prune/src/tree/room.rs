//! A big load's memory, faulted in on the second core while the first reads the text.
//!
//! At 10⁸ nodes the kernel's share of a load is handing out fresh zeroed pages (about a second
//! a GB on a busy 2-core machine): the draft's reserved columns, then the arena's. Those are
//! known before the text is read, from the reader's node count, so a helper thread faults them
//! in (`memory::populate`) while the parser runs: the draft's first, in the order the parser
//! fills them, then the arena's, which [`super::Valid::layout_in`] takes over. The work is
//! the same and counts as system time all the same; it is off the load's critical path where a
//! core is free.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use super::{Columns, Draft};
use crate::memory::populate;

/// Nodes a draft is faulted in for at a time, across its columns.
const CHUNK: usize = 1 << 19;

/// The arena's columns for a load of up to a known number of nodes, being faulted in on
/// another thread (see the module documentation). Dropped unused (a load that failed), the
/// thread stops at its next chunk.
#[derive(Debug)]
pub struct Room {
    stop: Arc<AtomicBool>,
    arena: Option<JoinHandle<Option<Columns>>>,
}

impl Room {
    /// Starts faulting in `draft`'s reserved columns and an arena of `nodes` nodes. Where no
    /// thread can be started, there is no room made ahead, and the layout allocates as usual.
    pub fn prepare(draft: &Draft, nodes: usize) -> Room {
        let stop = Arc::new(AtomicBool::new(false));
        let columns = draft.reserved_columns();
        let halt = Arc::clone(&stop);
        let arena = std::thread::Builder::new()
            .name("room".into())
            .spawn(move || make_room(&columns, nodes, &halt))
            .ok();
        Room { stop, arena }
    }

    /// The arena's columns for `n` nodes, if they were made for at least as many.
    pub(super) fn take(mut self, n: usize) -> Option<Columns> {
        let mut columns = self.arena.take()?.join().ok()??;
        (columns.len() >= n).then(|| {
            columns.truncate(n);
            columns
        })
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The helper's work: the draft's columns (start and bytes a node each), chunk by chunk, then
/// an arena of `nodes` leaves, its columns faulted in whole.
fn make_room(draft: &[(usize, usize)], nodes: usize, stop: &AtomicBool) -> Option<Columns> {
    for chunk in (0..nodes).step_by(CHUNK) {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let count = CHUNK.min(nodes - chunk);
        for &(start, size) in draft {
            populate((start + chunk * size) as *mut u8, count * size);
        }
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut arena = Columns::leaves(nodes, None);
    arena.populate();
    Some(arena)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{DraftNode, Kind, Meta};

    /// A uniform tree of branching `b` and depth `d` in preorder, leaves numbered.
    fn push(draft: &mut Draft, b: u32, d: u32, next: &mut f64) {
        if d == 0 {
            *next += 1.0;
            draft.push(DraftNode::leaf(*next));
        } else {
            let kind = if d % 2 == 0 { Kind::Max } else { Kind::Min };
            draft.push(DraftNode::interior(kind, b));
            for _ in 0..b {
                push(draft, b, d - 1, next);
            }
        }
    }

    #[test]
    fn a_layout_in_room_made_ahead_is_the_layout() {
        let meta = Meta {
            players: 2,
            ..Meta::default()
        };
        let draft = |room_for: usize| {
            let mut d = Draft::with_capacity(meta.clone(), room_for);
            let room = Room::prepare(&d, room_for);
            push(&mut d, 3, 7, &mut 0.0);
            (d, room)
        };
        let (plain, _) = draft(4000);
        let expected = plain.validated().unwrap().layout();
        // Room for more nodes than the tree has (an estimate), for exactly as many, for fewer.
        for room_for in [4000, expected.len(), 100] {
            let (d, room) = draft(room_for);
            let tree = d.validated().unwrap().layout_in(room);
            assert_eq!(tree, expected, "room for {room_for}");
        }
        // A room given up before it was used.
        drop(draft(4000));
    }
}
