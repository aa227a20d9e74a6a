#![no_main]
use libfuzzer_sys::fuzz_target;

// A report.json is a file anyone can edit: the loader `bench compare` reads it through must
// refuse or accept without panicking, and whatever it accepts must summarise, line up and
// render (terminal summary, key figures, both HTML views) without panicking either.
fuzz_target!(|data: &[u8]| {
    let Ok((_, v)) = sgctl::bench::report::load::parse(data) else {
        return;
    };
    let _ = sgctl::bench::report::summary::text(&v);
    let _ = sgctl::bench::report::summary::key_figures(&v);
    let _ = sgctl::bench::report::page::render(&v);
});
