//! What Linux's `/proc` says of a process, for the load and soak tools:
//! its resident memory and the CPU time it has used.

/// The process's resident memory (`VmRSS`), in KiB; 0 when unreadable.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// CPU time (user + system) the process has used, in milliseconds; 0 when
/// unreadable.
pub fn cpu_ms(pid: u32) -> f64 {
    // Fields 14 and 15 of /proc/PID/stat, in clock ticks (100 per second on Linux).
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let user: f64 = fields.get(11)?.parse().ok()?;
            let system: f64 = fields.get(12)?.parse().ok()?;
            Some((user + system) * 10.0)
        })
        .unwrap_or(0.0)
}
