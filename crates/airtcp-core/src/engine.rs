//! The event queue: one binary heap ordered by (time, insertion sequence), FIFO on ties.
//!
//! Events are small `Copy` values. Timers are cancelled by bumping a generation counter held
//! by their owner; a popped event whose generation is stale is skipped (ns-3 `EventId::Cancel`,
//! nexosim `step_to_next`), so cancellation never searches the heap.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::time::{Dur, SimTime};

struct Entry<E> {
    at: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap, we pop the earliest (time, seq).
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

/// A discrete-event scheduler over events of type `E`.
pub struct Scheduler<E> {
    heap: BinaryHeap<Entry<E>>,
    now: SimTime,
    seq: u64,
    popped: u64,
}

impl<E: Copy> Scheduler<E> {
    pub fn new() -> Self {
        Scheduler { heap: BinaryHeap::with_capacity(1024), now: SimTime::ZERO, seq: 0, popped: 0 }
    }

    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedule `event` at absolute time `at` (never earlier than now).
    pub fn at(&mut self, at: SimTime, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let at = at.max(self.now);
        self.heap.push(Entry { at, seq: self.seq, event });
        self.seq += 1;
    }

    /// Take the next insertion sequence number without scheduling anything: an event placed
    /// later with it ([`Scheduler::at_seq`]) pops where one scheduled now would have.
    #[inline(always)]
    pub fn reserve(&mut self) -> u64 {
        self.seq += 1;
        self.seq - 1
    }

    /// Take `n` consecutive sequence numbers at once (the first is returned): what `n` calls
    /// of [`Scheduler::reserve`] in a row would have given.
    #[inline(always)]
    pub fn reserve_n(&mut self, n: u64) -> u64 {
        self.seq += n;
        self.seq - n
    }

    /// The sequence number the next event scheduled (or reserved) will take.
    #[inline(always)]
    pub fn next_seq(&self) -> u64 {
        self.seq
    }

    /// Schedule `event` at `at` with the sequence number `seq` from [`Scheduler::reserve`].
    #[inline(always)]
    pub fn at_seq(&mut self, at: SimTime, seq: u64, event: E) {
        debug_assert!(seq < self.seq, "a sequence number not yet reserved");
        self.heap.push(Entry { at: at.max(self.now), seq, event });
    }

    /// Schedule `event` after `delay`.
    pub fn after(&mut self, delay: Dur, event: E) {
        self.at(self.now + delay, event);
    }

    /// Pop the next event, advancing `now`; `None` when the queue is empty or the next event
    /// lies after `horizon`.
    pub fn pop_until(&mut self, horizon: SimTime) -> Option<E> {
        let next_at = self.heap.peek()?.at;
        if next_at > horizon {
            return None;
        }
        let entry = self.heap.pop()?;
        self.now = entry.at;
        self.popped += 1;
        Some(entry.event)
    }

    /// Move the clock to `t` once every event up to `t` has been popped (an outside caller
    /// acting at `t`, `World::advance`); never backwards, never past a pending event.
    pub fn advance_to(&mut self, t: SimTime) {
        debug_assert!(self.heap.peek().is_none_or(|e| e.at > t), "events pending before the new time");
        self.now = self.now.max(t);
    }

    /// Events popped so far (including stale timers that handlers then skipped).
    pub fn popped(&self) -> u64 {
        self.popped
    }

    pub fn pending(&self) -> usize {
        self.heap.len()
    }
}

impl<E: Copy> Default for Scheduler<E> {
    fn default() -> Self {
        Self::new()
    }
}

/// A cancellable timer slot: scheduling bumps the generation, so older events become stale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timer {
    gen: u32,
    armed_at: Option<SimTime>,
}

impl Timer {
    /// Arm the timer for `at`; returns the generation the event must carry.
    pub fn arm(&mut self, at: SimTime) -> u32 {
        self.gen = self.gen.wrapping_add(1);
        self.armed_at = Some(at);
        self.gen
    }
    /// Cancel: any event carrying an older generation is ignored when popped.
    pub fn cancel(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        self.armed_at = None;
    }
    /// Whether an event with generation `gen` is the live one; consumes it if so.
    pub fn fire(&mut self, gen: u32) -> bool {
        if self.armed_at.is_some() && gen == self.gen {
            self.armed_at = None;
            true
        } else {
            false
        }
    }
    pub fn deadline(&self) -> Option<SimTime> {
        self.armed_at
    }
    /// Arm the timer for `at` and schedule `event(generation)`: the earlier event, if any,
    /// goes stale even when it was due at the same time.
    pub fn schedule<E: Copy>(&mut self, at: SimTime, sched: &mut Scheduler<E>, event: impl FnOnce(u32) -> E) {
        let gen = self.arm(at);
        sched.at(at, event(gen));
    }
    /// Make the timer due at `at`, or stop it (None); a timer already due then is left alone.
    pub fn set<E: Copy>(
        &mut self,
        at: Option<SimTime>,
        sched: &mut Scheduler<E>,
        event: impl FnOnce(u32) -> E,
    ) {
        match at {
            None => self.cancel(),
            Some(at) if self.armed_at == Some(at) => {}
            Some(at) => self.schedule(at, sched, event),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_in_insertion_order() {
        let mut s: Scheduler<u32> = Scheduler::new();
        s.at(SimTime(10), 1);
        s.at(SimTime(5), 2);
        s.at(SimTime(10), 3);
        s.at(SimTime(5), 4);
        let order: Vec<u32> = std::iter::from_fn(|| s.pop_until(SimTime::MAX)).collect();
        assert_eq!(order, vec![2, 4, 1, 3]);
        assert_eq!(s.now(), SimTime(10));
    }

    #[test]
    fn horizon_stops_before_later_events() {
        let mut s: Scheduler<u32> = Scheduler::new();
        s.at(SimTime(10), 1);
        s.at(SimTime(20), 2);
        assert_eq!(s.pop_until(SimTime(15)), Some(1));
        assert_eq!(s.pop_until(SimTime(15)), None);
        assert_eq!(s.pending(), 1);
    }

    #[test]
    fn cancelled_timer_generation_is_stale() {
        let mut t = Timer::default();
        let g1 = t.arm(SimTime(5));
        t.cancel();
        let g2 = t.arm(SimTime(7));
        assert!(!t.fire(g1));
        assert!(t.fire(g2));
        assert!(!t.fire(g2), "a timer fires once");
    }
}
