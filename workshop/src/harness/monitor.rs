//! Per-clock protocol monitors for valid/ready streams and AXI channels.
//!
//! Feed one `observe` per clock with the values sampled just before the
//! rising edge. A monitor panics on the first violation with the stream name
//! and clock: `valid` dropped before `ready`, or payload changed while
//! `valid && !ready` (SPEC section 2, AXI A3.2.1).

/// Monitor for one valid/ready stream with a payload of any comparable type.
#[derive(Debug)]
pub struct StreamMonitor<P: PartialEq + std::fmt::Debug + Clone> {
    name: String,
    pending: Option<P>,
    /// Completed transfers so far.
    pub transfers: u64,
}

impl<P: PartialEq + std::fmt::Debug + Clone> StreamMonitor<P> {
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            pending: None,
            transfers: 0,
        }
    }

    /// Checks one clock; returns the payload when a transfer happens.
    pub fn observe(&mut self, clock: u64, valid: bool, ready: bool, payload: P) -> Option<P> {
        if let Some(held) = self.pending.take() {
            assert!(
                valid,
                "{}: valid dropped before ready at clock {clock}",
                self.name
            );
            assert_eq!(
                held, payload,
                "{}: payload changed while valid && !ready at clock {clock}",
                self.name
            );
        }
        if valid && ready {
            self.transfers += 1;
            return Some(payload);
        }
        if valid {
            self.pending = Some(payload);
        }
        None
    }
}
