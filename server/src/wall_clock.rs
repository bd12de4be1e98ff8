//! The wall clock, read in one place: rooms, connections and the store stamp
//! what they save with Unix milliseconds.

/// Unix milliseconds now (0 if the system clock is before 1970).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
