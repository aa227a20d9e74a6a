//! Who answers the gate's question: the [`Prompter`] trait the gate asks through, and
//! [`NoPrompter`] for unattended runs. The terminal prompter is the CLI's
//! (`cli/prompt.rs`); tests script their own.

/// Asks the user to type the drive's name (a terminal, or a script in tests).
pub trait Prompter {
    /// Shows `question` and returns the typed line, or `None` when nobody can answer.
    fn ask(&mut self, question: &str) -> Option<String>;
    /// True when the last [`Prompter::ask`] ended because the user pressed Ctrl-C (SIGINT).
    fn interrupted(&self) -> bool {
        false
    }
}

/// Nobody to ask (unattended runs): every question goes unanswered.
#[derive(Debug, Default)]
pub struct NoPrompter;

impl Prompter for NoPrompter {
    fn ask(&mut self, _question: &str) -> Option<String> {
        None
    }
}
