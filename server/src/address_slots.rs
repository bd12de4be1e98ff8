//! [`AddressSlots`]: how many connections each client address holds at
//! once, half-open handshakes included, so that one address cannot take
//! every `--max-connections` slot. A slot is taken when the connection is
//! accepted (from the TCP peer) or, behind a trusted proxy, once the
//! request head names the client; it is given back when the connection ends.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// The connections held per address, and the most one address may hold.
#[derive(Debug)]
pub struct AddressSlots {
    held: Mutex<HashMap<IpAddr, usize>>,
    max: usize,
}

/// One connection's slot; given back when dropped.
#[derive(Debug)]
pub struct AddressSlot {
    slots: Arc<AddressSlots>,
    addr: IpAddr,
}

impl AddressSlots {
    /// At most `max` connections from one address.
    pub fn new(max: usize) -> Arc<AddressSlots> {
        Arc::new(AddressSlots {
            held: Mutex::new(HashMap::new()),
            max,
        })
    }

    /// A slot for a connection from `addr`, unless it already holds `max`.
    pub fn take(self: &Arc<Self>, addr: IpAddr) -> Option<AddressSlot> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let count = held.entry(addr).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            slots: self.clone(),
            addr,
        })
    }

    /// How many connections `addr` holds now.
    #[cfg(test)]
    pub fn held_by(&self, addr: IpAddr) -> usize {
        let held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.get(&addr).copied().unwrap_or(0)
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut held = self.slots.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = held.get_mut(&self.addr) {
            *count -= 1;
            if *count == 0 {
                // Addresses that left take no memory.
                held.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_slots_back() {
        let slots = AddressSlots::new(2);
        let one: IpAddr = "10.0.0.1".parse().unwrap();
        let two: IpAddr = "10.0.0.2".parse().unwrap();
        let a = slots.take(one).expect("first");
        let b = slots.take(one).expect("second");
        assert!(slots.take(one).is_none(), "a third from the same address");
        let c = slots.take(two).expect("another address is not affected");
        drop(a);
        let d = slots.take(one).expect("a slot given back is free again");
        drop((b, c, d));
        assert_eq!(slots.held_by(one), 0);
        assert!(slots.held.lock().unwrap().is_empty(), "nothing kept");
    }
}
