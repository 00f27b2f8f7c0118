//! The one way wellgen spreads work over cores (batch builds, the targets of a large service):
//! scoped threads pulling items from one queue, results in item order.
//!
//! Not rayon: on the same builds rayon's global pool was no faster (Stripe's description 0.32 s
//! against 0.31 s, OpenAI's 0.22 s against 0.22 s, 1,000 small services 1.94 s against 1.89 s;
//! 1-2% more instructions; docs/PERFORMANCE.md has the method and the commands), and it has no
//! form of [`map_with`]: its `map_init` makes a state per split of the work, not one per thread
//! handed back at the end, and the import's document forks are such states (each keeps the
//! expansions its thread remembered, and is freed beside the targets that reuse its memory).
//! Nor does it leave the calling thread to [`map`]'s `meanwhile`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// `f` of every item on `workers` threads, results in item order. `done` counts finished items
/// (a panicking one too, so a progress display never waits forever) and `meanwhile` runs on the
/// calling thread while the workers do. A panic in `f` is raised again once all have stopped.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    done: &AtomicUsize,
    f: impl Fn(&T) -> R + Sync,
    meanwhile: impl FnOnce(),
) -> Vec<R> {
    run(
        items,
        workers,
        done,
        || (),
        |_, item| f(item),
        Some(meanwhile),
    )
    .0
}

/// [`map`] with the calling thread as one of the workers: of a build's threads it is the one
/// whose memory the import just freed, which its allocations then take again instead of
/// touching fresh pages (each a page fault and a zeroing).
pub fn map_here<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let done = AtomicUsize::new(0);
    run(
        items,
        workers,
        &done,
        || (),
        |_, item| f(item),
        None::<fn()>,
    )
    .0
}

/// [`map_here`] where each worker makes a state of its own once (`init`, on its thread) and
/// hands it to `f` with every item it takes: a cache, or a view of shared data. The states
/// come back too, for the caller to drop where it suits (a large cache takes a while to free).
pub fn map_with<T: Sync, S: Send, R: Send>(
    items: &[T],
    workers: usize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> (Vec<R>, Vec<S>) {
    run(items, workers, &AtomicUsize::new(0), init, f, None::<fn()>)
}

fn run<T: Sync, S: Send, R: Send>(
    items: &[T],
    workers: usize,
    done: &AtomicUsize,
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
    meanwhile: Option<impl FnOnce()>,
) -> (Vec<R>, Vec<S>) {
    struct Count<'a>(&'a AtomicUsize);
    impl Drop for Count<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let work = || {
        let mut state = init();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(i) else { break };
            let _count = Count(done);
            let r = f(&mut state, item);
            *slots[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(r);
        }
        state
    };
    let workers = workers.clamp(1, items.len().max(1));
    // Without a `meanwhile`, the calling thread works too.
    let here = meanwhile.is_none();
    let states = std::thread::scope(|s| {
        let handles: Vec<_> = (usize::from(here)..workers)
            .map(|_| s.spawn(work))
            .collect();
        let mut states = Vec::with_capacity(workers);
        match meanwhile {
            Some(meanwhile) => meanwhile(),
            None => states.push(work()),
        }
        for h in handles {
            states.push(
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        states
    });
    let results = slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .expect("every item is mapped when no worker panicked")
        })
        .collect();
    (results, states)
}

/// Set once the process is known to end as soon as its one command is done (a single
/// `wellgen build`, `check` or `import`; never a batch, `serve` or a test), by the command
/// line, which alone decides when the process ends.
static EXITING: AtomicBool = AtomicBool::new(false);

/// Says that the process ends as soon as its command is done: from now on, what is released
/// is left for the exit to free.
pub fn exits_after_command() {
    EXITING.store(true, Ordering::Relaxed);
}

/// Lets go of `value`, known to be large: when the process ends as soon as its command is done
/// ([`exits_after_command`]), it is forgotten, and the exit returns its memory at once;
/// otherwise it is dropped aside ([`drop_aside`]). Freeing the model of GitHub's description
/// node by node cost a single build tens of milliseconds of CPU beside its writer, for memory
/// nothing would reuse.
pub fn release<T: Send + 'static>(value: T) {
    release_as(value, EXITING.load(Ordering::Relaxed));
}

fn release_as<T: Send + 'static>(value: T, exiting: bool) {
    if exiting {
        std::mem::forget(value);
    } else {
        drop_aside(value);
    }
}

/// A new value for the rest of the command, in `slot` (dropped with it) unless the process ends
/// after its command ([`exits_after_command`]): then leaked, for the exit to free. For a large
/// value that borrows what lives on, and so cannot be [`release`]d.
pub fn for_the_command<T: Default>(slot: &mut Option<T>) -> &T {
    if EXITING.load(Ordering::Relaxed) {
        Box::leak(Box::default())
    } else {
        slot.insert(T::default())
    }
}

/// Drops `value` on a thread of its own: freeing a large document's millions of nodes takes
/// tens of milliseconds that nothing waits for. For values known to be large; a small one is
/// cheaper to drop than a thread is to start.
pub fn drop_aside<T: Send + 'static>(value: T) {
    // If no thread can be started, the closure, and `value` with it, is dropped right here.
    let _ = std::thread::Builder::new()
        .name("wellgen-drop".into())
        .spawn(move || drop(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_item_order_whatever_the_workers() {
        let items: Vec<u64> = (0..200).collect();
        for workers in [0, 1, 2, 7, 500] {
            let done = AtomicUsize::new(0);
            let out = map(&items, workers, &done, |n| n * n, || {});
            assert_eq!(out, items.iter().map(|n| n * n).collect::<Vec<_>>());
            assert_eq!(done.load(Ordering::Relaxed), items.len());
            let here = std::thread::current().id();
            let out = map_here(&items, workers, |n| (n * n, std::thread::current().id()));
            assert_eq!(
                out.iter().map(|(sq, _)| *sq).collect::<Vec<_>>(),
                items.iter().map(|n| n * n).collect::<Vec<_>>()
            );
            // The calling thread works too: alone, it does everything.
            if workers <= 1 {
                assert!(out.iter().all(|(_, t)| *t == here));
            }
        }
        assert!(map(&[] as &[u8], 4, &AtomicUsize::new(0), |_| 0, || {}).is_empty());
    }

    #[test]
    fn each_worker_keeps_its_own_state() {
        let items: Vec<u64> = (0..100).collect();
        let made = AtomicUsize::new(0);
        let (out, states) = map_with(
            &items,
            3,
            || {
                made.fetch_add(1, Ordering::Relaxed);
                Vec::new()
            },
            |seen: &mut Vec<u64>, n| {
                seen.push(*n);
                (n * 2, seen.len())
            },
        );
        assert_eq!(
            out.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
            items.iter().map(|n| n * 2).collect::<Vec<_>>()
        );
        let workers = made.load(Ordering::Relaxed);
        assert!((1..=3).contains(&workers));
        assert_eq!(states.len(), workers);
        assert_eq!(states.iter().map(Vec::len).sum::<usize>(), items.len());
        // Each item was the k-th of its worker's, its state carried from item to item: one
        // first item per worker that took any.
        let firsts = out.iter().filter(|(_, k)| *k == 1).count();
        assert!((1..=workers).contains(&firsts));
        assert!(out.iter().any(|(_, k)| *k > 1));
    }

    #[test]
    fn a_value_dropped_aside_is_dropped() {
        struct Flag(std::sync::mpsc::Sender<()>);
        impl Drop for Flag {
            fn drop(&mut self) {
                let _ = self.0.send(());
            }
        }
        let (tx, rx) = std::sync::mpsc::channel();
        drop_aside(Flag(tx));
        rx.recv_timeout(std::time::Duration::from_secs(10))
            .expect("dropped on its own thread");
    }

    #[test]
    fn a_value_released_is_forgotten_only_when_the_process_is_exiting() {
        let value = std::sync::Arc::new(());
        release_as(value.clone(), true);
        assert_eq!(
            std::sync::Arc::strong_count(&value),
            2,
            "forgotten: never dropped"
        );
        release_as(value.clone(), false);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while std::sync::Arc::strong_count(&value) > 2 {
            assert!(std::time::Instant::now() < deadline, "dropped aside");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    #[test]
    fn a_panic_is_counted_and_raised_again() {
        let done = AtomicUsize::new(0);
        let result =
            std::panic::catch_unwind(|| map(&[1, 2, 3], 2, &done, |&n| assert_ne!(n, 2), || {}));
        assert!(result.is_err());
        assert_eq!(done.load(Ordering::Relaxed), 3);
    }
}
