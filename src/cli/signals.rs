//! The signals that stop a job's watching (and a prompt's wait) like Ctrl-C.

/// The signals that stop a job's watching like Ctrl-C: SIGINT, SIGTERM (systemd stop,
/// `timeout`, an orchestrator's timeout) and SIGHUP (a lost terminal or SSH session). The
/// drive goes on; the record says `interrupted` and how to finish (`sgctl wait`).
pub(crate) const STOP_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Sets `flag` on any of [`STOP_SIGNALS`] (instead of the default action, which would end
/// the process without an end record); returns the registrations.
pub(crate) fn register_stop_signals(
    flag: &std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> Vec<signal_hook::SigId> {
    STOP_SIGNALS
        .iter()
        .filter_map(|s| signal_hook::flag::register(*s, flag.clone()).ok())
        .collect()
}
