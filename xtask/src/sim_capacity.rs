//! `cargo run --release -p xtask -- sim-capacity [GIB...] [PROFILE...]`: the table of
//! docs/benchmarks/sim-capacity.md: per profile and simulated capacity, 4 KiB random read and
//! steady-state 4 KiB random write IOPS measured through the drive's `sim:` address
//! (`sgctl::bench::sim_capacity`), beside the datasheet figures. Virtual-clock figures of the
//! model, deterministic; they time nothing on the host.

use sgctl::bench::sim_capacity::measure;
use sgctl::sim::media::profiles::PROFILES;

pub(crate) fn sim_capacity(args: &[&str]) -> Result<(), String> {
    // Arguments: sizes in GiB and profile names, in any order (default: every profile at 1, 4,
    // 16 and 64 GiB).
    let (names, nums): (Vec<&str>, Vec<&str>) = args
        .iter()
        .partition(|a| a.starts_with(|c: char| c.is_ascii_alphabetic()));
    let mut sizes: Vec<f64> = nums
        .iter()
        .map(|a| {
            a.parse::<f64>()
                .map_err(|_| format!("{a}: not a size in GiB"))
        })
        .collect::<Result<_, _>>()?;
    if sizes.is_empty() {
        sizes = vec![1.0, 4.0, 16.0, 64.0];
    }
    for n in &names {
        if !PROFILES.iter().any(|p| p.name == *n) {
            return Err(format!("{n}: no such profile"));
        }
    }
    let k = |x: f64| format!("{:.1}k", x / 1000.0);
    let opt = |x: Option<u32>| x.map_or("–".to_string(), |v| k(f64::from(v)));
    println!("| profile | GiB | 4K random read IOPS | datasheet | steady-state 4K random write IOPS | datasheet | rounds |");
    println!("|---|---|---|---|---|---|---|");
    for p in PROFILES
        .iter()
        .filter(|p| p.name != "exarraylock" && (names.is_empty() || names.contains(&p.name)))
    {
        for &g in &sizes {
            let t = std::time::Instant::now();
            let f = measure(p.name, g).map_err(|e| format!("{} at {g} GiB: {e}", p.name))?;
            eprintln!("{} {g} GiB: {:.1} s", p.name, t.elapsed().as_secs_f64());
            println!(
                "| {} | {g} | {} | {} | {} | {} | {}{} |",
                p.name,
                k(f.read_iops),
                opt(p.reference.read_iops),
                k(f.ss_write_iops),
                opt(p.reference.write_iops),
                f.rounds,
                if f.steady { "" } else { " (not steady)" },
            );
        }
    }
    Ok(())
}
