//! Running one job on many drives at once, with a cap on concurrent jobs per HBA
//! (HBAs reset under many simultaneous low-level operations: Seagate/openSeaChest#162).

use std::collections::HashMap;
use std::sync::{Condvar, Mutex};

/// A counting semaphore per key (HBA).
struct PerKey {
    cap: usize,
    busy: Mutex<HashMap<String, usize>>,
    cv: Condvar,
}

impl PerKey {
    fn acquire(&self, key: &str) {
        let mut m = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        while m.get(key).copied().unwrap_or(0) >= self.cap {
            m = self.cv.wait(m).unwrap_or_else(|e| e.into_inner());
        }
        *m.entry(key.to_string()).or_insert(0) += 1;
    }

    fn release(&self, key: &str) {
        let mut m = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = m.get_mut(key) {
            *n = n.saturating_sub(1);
        }
        self.cv.notify_all();
    }
}

/// Runs `work` for every item on its own thread, at most `cap_per_hba` at a time for items
/// sharing an HBA key. Results come back in input order.
pub(crate) fn run<I, R, F>(items: Vec<(String, I)>, cap_per_hba: usize, work: F) -> Vec<R>
where
    I: Send,
    R: Send,
    F: Fn(I) -> R + Sync,
{
    let sem = PerKey {
        cap: cap_per_hba.max(1),
        busy: Mutex::new(HashMap::new()),
        cv: Condvar::new(),
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .into_iter()
            .map(|(key, item)| {
                let sem = &sem;
                let work = &work;
                s.spawn(move || {
                    sem.acquire(&key);
                    let r = work(item);
                    sem.release(&key);
                    r
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(r) => r,
                Err(p) => std::panic::resume_unwind(p),
            })
            .collect()
    })
}

/// The HBA key of a path: the SCSI host number of `H:C:T:L`; virtual drives each get their
/// own key (there is no shared adapter to overload).
pub(crate) fn hba_key(address: &str, hctl: Option<&str>) -> String {
    if crate::device::is_virtual_address(address) {
        return address.to_string();
    }
    match hctl.and_then(|h| h.split(':').next()) {
        Some(host) => format!("host{host}"),
        None => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn cap_per_hba_is_respected_and_order_kept() {
        let now = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let items: Vec<(String, usize)> = (0..8).map(|i| ("host0".to_string(), i)).collect();
        let out = run(items, 2, |i| {
            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(20));
            now.fetch_sub(1, Ordering::SeqCst);
            i * 10
        });
        assert_eq!(out, (0..8).map(|i| i * 10).collect::<Vec<_>>());
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn different_hbas_run_together() {
        let now = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let items: Vec<(String, usize)> = (0..4).map(|i| (format!("host{i}"), i)).collect();
        run(items, 1, |_| {
            let n = now.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(n, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(50));
            now.fetch_sub(1, Ordering::SeqCst);
        });
        assert!(peak.load(Ordering::SeqCst) >= 2);
        assert_eq!(hba_key("/dev/sg3", Some("4:0:1:0")), "host4");
        assert_eq!(hba_key("sim:a?serial=1", None), "sim:a?serial=1");
    }
}
