//! A time bound on everything before a write: a pathological input ends the process with exit 2
//! after `--time-limit` seconds. Every write holds [`WRITING`] shared and the watchdog takes it
//! whole before it ends the process, so no write (another service's, in a batch) is cut short.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

static WRITING: RwLock<()> = RwLock::new(());

/// Held while an output is written: the watchdog waits for it.
pub fn writing() -> RwLockReadGuard<'static, ()> {
    WRITING.read().unwrap_or_else(|e| e.into_inner())
}

/// Armed until dropped.
pub struct Watchdog(Arc<AtomicBool>);

impl Watchdog {
    /// Ends the process after `limit` seconds unless dropped first, saying it gave up `doing`
    /// (e.g. "reading and checking service.toml").
    pub fn start(limit: u64, doing: String) -> Self {
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(limit);
            while Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(100));
                if flag.load(Ordering::Relaxed) {
                    return;
                }
            }
            let _no_write_in_progress = WRITING.write().unwrap_or_else(|e| e.into_inner());
            if !flag.load(Ordering::Relaxed) {
                eprintln!(
                    "error: gave up after {limit} s {doing}; nothing was written\n  = help: the input is too large or too complex; raise the limit with `--time-limit`"
                );
                std::process::exit(i32::from(crate::cli::EXIT_USAGE));
            }
        });
        Self(done)
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
