//! Small data-parallel helpers on `std::thread::scope` (no thread pool crate): the per-drive
//! work a run does once before its jobs (opening and planning each drive) and once at its end
//! (certificate records, their text, their hashes, the report's values) spread over the
//! host's cores, results in input order so every output stays byte-identical.
//!
//! `SGCTL_THREADS=N` sets the number of threads (1: everything inline, on the calling
//! thread); the outputs are the same whatever it is (`tests/it/rack_purge.rs` checks it).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The environment variable that sets the thread count (default: the host's parallelism).
pub(crate) const THREADS_ENV: &str = "SGCTL_THREADS";

/// The number of threads the helpers use: `SGCTL_THREADS` when it is a number from 1, else
/// the host's parallelism.
pub(crate) fn threads() -> usize {
    std::env::var(THREADS_ENV)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n >= 1)
        .unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
}

/// How many threads to use for `n` items: [`threads`], never more than the items.
fn threads_for(n: usize) -> usize {
    threads().min(n).max(1)
}

/// `items.iter().map(f).collect()`, computed in contiguous chunks on scoped threads; the
/// results come back in input order. A single item (or a single core) runs inline.
pub(crate) fn map<T, R, F>(items: &[T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let threads = threads_for(items.len());
    if threads <= 1 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| s.spawn(move || c.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out = Vec::with_capacity(items.len());
        for h in handles {
            match h.join() {
                Ok(v) => out.extend(v),
                // A panic in `f` is a bug; carry it to the caller as the sequential map would.
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        out
    })
}

/// [`map`] for fallible work: the first error in input order, as the sequential
/// `collect::<Result<Vec<_>, _>>()` would report.
pub(crate) fn try_map<T, R, E, F>(items: &[T], f: F) -> Result<Vec<R>, E>
where
    T: Sync,
    R: Send,
    E: Send,
    F: Fn(&T) -> Result<R, E> + Sync,
{
    map(items, f).into_iter().collect()
}

/// `items.into_iter().map(f).collect()` with each item moved to the worker that takes it:
/// [`threads`] workers take the next item in input order from a shared queue (so one slow
/// item does not hold back a whole chunk), and the results come back in input order. A single
/// item (or a single thread) runs inline.
pub(crate) fn map_owned<T, R, F>(items: Vec<T>, f: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync,
{
    let threads = threads_for(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let n = items.len();
    let queue: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    let (queue, next, f) = (&queue, &next, &f);
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(slot) = queue.get(i) else { break };
                        let item = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                        if let Some(item) = item {
                            out.push((i, f(item)));
                        }
                    }
                    out
                })
            })
            .collect();
        let mut all = Vec::with_capacity(n);
        for h in handles {
            match h.join() {
                Ok(v) => all.extend(v),
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        all
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_input_order_for_any_count() {
        for n in [0usize, 1, 2, 3, 7, 64, 257] {
            let v: Vec<usize> = (0..n).collect();
            let got = map(&v, |x| x * 3 + 1);
            let want: Vec<usize> = v.iter().map(|x| x * 3 + 1).collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn map_owned_moves_each_item_once_and_keeps_order() {
        for n in [0usize, 1, 2, 5, 64, 257] {
            let v: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            let got = map_owned(v.clone(), |s| s + "!");
            let want: Vec<String> = v.into_iter().map(|s| s + "!").collect();
            assert_eq!(got, want, "n = {n}");
        }
        // Items of very different cost still come back in input order.
        let v: Vec<u64> = (0..16).collect();
        let got = map_owned(v, |x| {
            std::thread::sleep(std::time::Duration::from_millis(if x % 5 == 0 {
                20
            } else {
                1
            }));
            x * 2
        });
        assert_eq!(got, (0..16).map(|x| x * 2).collect::<Vec<_>>());
    }

    #[test]
    fn try_map_reports_the_first_error_in_order() {
        let v: Vec<i32> = (0..100).collect();
        let r: Result<Vec<i32>, i32> = try_map(&v, |&x| if x % 40 == 39 { Err(x) } else { Ok(x) });
        assert_eq!(r, Err(39));
        let ok: Result<Vec<i32>, i32> = try_map(&v, |&x| Ok(x));
        assert_eq!(ok.map(|v| v.len()), Ok(100));
    }
}
