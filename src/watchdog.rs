//! A time bound on everything before a write: a pathological input must not hang a build or a
//! CI job. The work runs on its own thread; when the limit passes first, the caller gets
//! `None` and goes on (a batch build reports that service and builds the others). The thread
//! left behind only reads and computes, never writes, and ends with the process.

use std::sync::mpsc;
use std::time::Duration;

/// The work's result, or `None` if it took longer than `limit` seconds.
pub fn within<T: Send + 'static>(
    limit: u64,
    work: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (done, result) = mpsc::sync_channel(1);
    let spawned = std::thread::Builder::new()
        .name("wellgen-timed".into())
        .spawn(move || {
            let _ = done.send(work());
        });
    // A thread that cannot start is reported as work not done in time: nothing is written.
    if spawned.is_err() {
        return None;
    }
    result.recv_timeout(Duration::from_secs(limit)).ok()
}

/// The message for work that ran out of time, and its help.
pub fn gave_up(limit: u64, doing: &str) -> String {
    format!(
        "error: gave up after {limit} s {doing}; nothing was written\n  = help: the input is too large or too complex; raise the limit with `--time-limit`"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_within_the_limit_returns_its_result_and_late_work_returns_none() {
        assert_eq!(within(5, || 7), Some(7));
        let late = within(1, || std::thread::sleep(Duration::from_secs(30)));
        assert_eq!(late, None);
    }
}
