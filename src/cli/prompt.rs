//! The terminal prompter: the gate's question on stderr, the answer from stdin (only when
//! stdin is a terminal), Ctrl-C ending the wait.

use super::signals::register_stop_signals;
use sgctl::ops::gate::Prompter;
use std::io::{BufRead, Write};

/// Prompts on stderr, reads stdin — only when stdin is a terminal.
///
/// Ctrl-C at the prompt ends it (the question goes unanswered and [`Prompter::interrupted`]
/// says why), also when the caller has a SIGINT handler installed with `SA_RESTART`, which
/// would otherwise restart the blocked read and swallow the Ctrl-C: the prompt registers its
/// own flag for the time it waits and polls stdin.
#[derive(Debug, Default)]
pub(crate) struct TtyPrompter {
    interrupted: bool,
}

impl Prompter for TtyPrompter {
    fn ask(&mut self, question: &str) -> Option<String> {
        use std::io::IsTerminal;
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        self.interrupted = false;
        if !std::io::stdin().is_terminal() {
            return None;
        }
        let flag = Arc::new(AtomicBool::new(false));
        let ids = register_stop_signals(&flag);
        {
            // A closed stderr must not panic; the question names a drive (escaped).
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "{}", sgctl::escape::terminal_safe(question));
            let _ = e.flush();
        }
        let line = read_line_unless(&flag);
        for id in ids {
            signal_hook::low_level::unregister(id);
        }
        if flag.load(Ordering::SeqCst) {
            let _ = writeln!(std::io::stderr());
            self.interrupted = true;
            return None;
        }
        line.map(|l| l.trim().to_string())
    }

    fn interrupted(&self) -> bool {
        self.interrupted
    }
}

/// A [`TtyPrompter`] that asks in words of its own: a command that changes the drive without
/// erasing it (a stop, a foreground self-test, a reassignment, a counter reset) says what it
/// does instead of the gate's question, which talks about erasing data.
#[derive(Debug)]
pub(crate) struct WordedPrompter {
    tty: TtyPrompter,
    what: &'static str,
}

impl WordedPrompter {
    /// Asks with `what` (what the command does to the drive, `sgctl: ...`), then for the
    /// drive's serial number or WWN.
    pub(crate) fn new(what: &'static str) -> WordedPrompter {
        WordedPrompter {
            tty: TtyPrompter::default(),
            what,
        }
    }

    /// The question it shows.
    pub(crate) fn question(&self) -> String {
        format!("{}\nType its serial number or WWN to continue: ", self.what)
    }
}

impl Prompter for WordedPrompter {
    fn ask(&mut self, _question: &str) -> Option<String> {
        let q = self.question();
        self.tty.ask(&q)
    }

    fn interrupted(&self) -> bool {
        self.tty.interrupted()
    }
}

/// Reads one line from stdin, waiting in poll() a tenth of a second at a time so that `stop`
/// (set by a signal handler) ends the wait. `None` on end of file, error or `stop`.
fn read_line_unless(stop: &std::sync::atomic::AtomicBool) -> Option<String> {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    use std::os::fd::AsFd;
    use std::sync::atomic::Ordering;
    let stdin = std::io::stdin();
    loop {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, PollTimeout::from(100u16)) {
            Ok(0) | Err(nix::errno::Errno::EINTR) => continue,
            Ok(_) => break,
            Err(_) => return None,
        }
    }
    let mut line = String::new();
    match stdin.lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgctl::ops::gate::Prompter;

    /// A command's own words replace the gate's question, followed by the one request the
    /// gate checks (the drive's name); no terminal, no answer.
    #[test]
    fn worded_prompter_asks_in_its_own_words() {
        let mut p = WordedPrompter::new("sgctl: power --stop stops the drive.");
        assert_eq!(
            p.question(),
            "sgctl: power --stop stops the drive.\nType its serial number or WWN to continue: "
        );
        if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
            assert_eq!(p.ask("Erase all data on X?"), None);
            assert!(!p.interrupted());
        }
    }
}
