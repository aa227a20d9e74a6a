//! `cargo run --release -p xtask -- sim-capacity [GIB...]`: the table of docs/sim-media.md
//! ("Capacity independence"): per profile and simulated capacity, 4 KiB random read and
//! steady-state 4 KiB random write IOPS measured through the drive's `sim:` address
//! (`sgctl::bench::sim_capacity`), beside the datasheet figures. Virtual-clock figures of the
//! model, deterministic; they time nothing on the host.

use sgctl::bench::sim_capacity::measure;
use sgctl::sim::media::profiles::PROFILES;

pub fn sim_capacity(args: &[&str]) -> Result<(), String> {
    let sizes: Vec<f64> = if args.is_empty() {
        vec![1.0, 4.0, 16.0, 64.0]
    } else {
        args.iter()
            .map(|a| {
                a.parse::<f64>()
                    .map_err(|_| format!("{a}: not a size in GiB"))
            })
            .collect::<Result<_, _>>()?
    };
    let k = |x: f64| format!("{:.1}k", x / 1000.0);
    let opt = |x: Option<u32>| x.map_or("–".to_string(), |v| k(f64::from(v)));
    println!("| profile | GiB | 4K random read IOPS | datasheet | steady-state 4K random write IOPS | datasheet | rounds |");
    println!("|---|---|---|---|---|---|---|");
    for p in PROFILES.iter().filter(|p| p.name != "exarraylock") {
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
