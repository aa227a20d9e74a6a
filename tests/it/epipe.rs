//! A closed stdout pipe (`sgctl ... | head -1`) ends sgctl quietly with the command's own exit
//! status (0 for these): no panic (exit 101), nothing on stderr. The read end of the pipe is closed before sgctl writes, so every write
//! fails with EPIPE whatever the size of the output.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = crate::util::sgctl_cmd()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sgctl");
    drop(child.stdout.take());
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).expect("stderr");
    }
    (child.wait().expect("wait").code(), err)
}

#[test]
fn closed_stdout_is_a_quiet_exit_0() {
    for args in [
        &["vpd", "sim:px02smf080", "--page", "all"][..],
        &["--json", "logs", "sim:px02smf080?clock=virtual"][..],
        &["sim", "list"][..],
    ] {
        let (code, err) = with_closed_stdout(args);
        assert_eq!(code, Some(0), "sgctl {args:?}: stderr {err}");
        assert_eq!(err, "", "sgctl {args:?} printed on stderr");
    }
}

/// `| head -1` as a shell runs it: the first line arrives, sgctl exits 0.
#[test]
fn head_1_reads_one_line_and_sgctl_exits_0() {
    let mut child = crate::util::sgctl_cmd()
        .args(["--json", "opcodes", "sim:px02smf080", "-T"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sgctl");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("first line");
    assert_eq!(first, "{\n");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
