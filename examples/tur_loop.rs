//! Benchmark helper (vm/bench.sh): N TEST UNIT READY commands through the library's transport,
//! like `sg_turs -n N`. Prints the elapsed time and the time per command.
//!
//!   tur_loop DEVICE [N]

use std::time::{Duration, Instant};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let Some(dev) = args.get(1) else {
        eprintln!("usage: tur_loop DEVICE [N]");
        return std::process::ExitCode::from(2);
    };
    let n: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let mut t = match sgctl::device::open(dev, sgctl::device::OpenOptions::default())
        .map(|o| o.transport)
    {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tur_loop: {e}");
            return std::process::ExitCode::from(e.exit_code());
        }
    };
    let cdb = sgctl::scsi::tur::TestUnitReadyCdb::new().build(); // SPC-6 6.47
    let start = Instant::now();
    for i in 0..n {
        if let Err(e) = sgctl::cmd::run_none(&mut *t, &cdb, Duration::from_secs(30)) {
            eprintln!("tur_loop: command {i}: {e}");
            return std::process::ExitCode::from(e.exit_code());
        }
    }
    let el = start.elapsed();
    println!(
        "{n} TEST UNIT READY in {:.3} s ({:.1} us each)",
        el.as_secs_f64(),
        el.as_secs_f64() * 1e6 / f64::from(n.max(1))
    );
    std::process::ExitCode::SUCCESS
}
