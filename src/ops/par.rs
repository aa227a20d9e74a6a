//! Small data-parallel helpers on `std::thread::scope` (no thread pool crate): the per-drive
//! work a run does once at its end (certificate records, their text, their hashes) spread over
//! the host's cores, results in input order so every output stays byte-identical.

/// How many threads to use for `n` items: the host's parallelism, never more than the items.
fn threads_for(n: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    cores.min(n).max(1)
}

/// `items.iter().map(f).collect()`, computed in contiguous chunks on scoped threads; the
/// results come back in input order. A single item (or a single core) runs inline.
pub fn map<T, R, F>(items: &[T], f: F) -> Vec<R>
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
pub fn try_map<T, R, E, F>(items: &[T], f: F) -> Result<Vec<R>, E>
where
    T: Sync,
    R: Send,
    E: Send,
    F: Fn(&T) -> Result<R, E> + Sync,
{
    map(items, f).into_iter().collect()
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
    fn try_map_reports_the_first_error_in_order() {
        let v: Vec<i32> = (0..100).collect();
        let r: Result<Vec<i32>, i32> = try_map(&v, |&x| if x % 40 == 39 { Err(x) } else { Ok(x) });
        assert_eq!(r, Err(39));
        let ok: Result<Vec<i32>, i32> = try_map(&v, |&x| Ok(x));
        assert_eq!(ok.map(|v| v.len()), Ok(100));
    }
}
