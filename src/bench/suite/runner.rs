//! The round loop, generic over `Driver` (the engine) and [`Control`] (purge, format): stages
//! that survive Ctrl-C and resume, the steady-state loop, progress with ETA on stderr, and the
//! report saved after every completed round.

use super::defs::{Amount, Stimulus};
use super::driver::{Driver, Measurement, RunSettings};
use super::purge::{self, PurgeMethod, PurgeRecord};
use super::steady::{Tracker, Verdict};
use crate::bench::report::suite::{Cell, Report, Round, SteadyState};
use crate::error::{Error, Result};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// What the suites need besides I/O: purge and FORMAT UNIT, through the gated jobs.
pub trait Control {
    /// Purges with `m` (resolved: not `Auto`, not `None`).
    fn purge(&mut self, m: PurgeMethod) -> Result<PurgeRecord>;
    /// FORMAT UNIT at the current block size to `pct` % of the maximum capacity (None: the
    /// maximum). Returns the new capacity in bytes and the job's record.
    fn format_capacity(&mut self, pct: Option<u8>) -> Result<(u64, PurgeRecord)>;
}

/// The error a stage returns when Ctrl-C stopped it (the completed rounds are saved).
pub fn interrupted() -> Error {
    Error::io(
        "interrupted",
        std::io::Error::from(std::io::ErrorKind::Interrupted),
    )
}

/// Whether `e` is [`interrupted`].
pub fn is_interrupted(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::Interrupted)
}

/// The tracking variable of a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Metric {
    /// I/O per second.
    Iops,
    /// Write MB/s.
    WriteMbps,
    /// Mean response time (ART), µs.
    MeanLatUs,
}

impl Metric {
    /// The value of a measurement.
    pub(crate) fn of(self, m: &Measurement) -> f64 {
        match self {
            Metric::Iops => m.iops,
            Metric::WriteMbps => m.write_mbps,
            Metric::MeanLatUs => m.mean_lat_us,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Metric::Iops => "iops",
            Metric::WriteMbps => "write MB/s",
            Metric::MeanLatUs => "ART µs",
        }
    }
}

/// When a series stage ends.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Until {
    /// After this many samples.
    pub samples: Option<u32>,
    /// After this many bytes written in the stage.
    pub write_bytes: Option<u64>,
    /// After this many drive seconds (already scaled).
    pub drive_s: Option<f64>,
}

/// Progress on stderr: stage, round, cell, elapsed and ETA; JSON Lines with `--progress-json`.
#[derive(Debug)]
pub struct Progress {
    /// JSON Lines instead of text.
    pub json: bool,
    /// Print nothing.
    pub quiet: bool,
    t0: Instant,
    cell_wall: Vec<f64>,
    round_wall: Vec<f64>,
}

fn hms(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

impl Progress {
    /// A progress printer.
    pub fn new(json: bool, quiet: bool) -> Progress {
        Progress {
            json,
            quiet,
            t0: Instant::now(),
            cell_wall: Vec::new(),
            round_wall: Vec::new(),
        }
    }

    fn emit(&self, v: serde_json::Value, text: String) {
        if self.quiet {
            return;
        }
        let mut e = std::io::stderr().lock();
        if self.json {
            let _ = writeln!(e, "{v}");
        } else {
            let _ = writeln!(e, "sgctl: bench {}", crate::escape::terminal_safe(&text));
        }
    }

    /// A stage starts.
    pub fn stage(&mut self, test: &str, stage: &str, what: &str) {
        self.cell_wall.clear();
        self.round_wall.clear();
        self.emit(
            serde_json::json!({"event":"stage","test":test,"stage":stage,"what":what,
                               "elapsed_s":self.t0.elapsed().as_secs_f64()}),
            format!(
                "{test}: {stage}: {what} [elapsed {}]",
                hms(self.t0.elapsed().as_secs_f64())
            ),
        );
    }

    fn cell_done(&mut self, wall: f64) {
        self.cell_wall.push(wall);
    }

    /// A round ended; `left` = rounds left to the cap, `cells` per round.
    #[allow(clippy::too_many_arguments)]
    fn round(
        &mut self,
        test: &str,
        stage: &str,
        round: u32,
        max: u32,
        tracking: Option<(&str, f64)>,
        verdict: &str,
        wall: f64,
    ) {
        self.round_wall.push(wall);
        let avg = self.round_wall.iter().sum::<f64>() / self.round_wall.len() as f64;
        let eta = avg * f64::from(max.saturating_sub(round));
        let tr = tracking
            .map(|(n, v)| format!(" {n} {v:.1};"))
            .unwrap_or_default();
        self.emit(
            serde_json::json!({"event":"round","test":test,"stage":stage,"round":round,
                "max_rounds":max,"tracking":tracking.map(|t| t.1),"verdict":verdict,
                "round_wall_s":wall,"eta_to_cap_s":eta,
                "elapsed_s":self.t0.elapsed().as_secs_f64()}),
            format!(
                "{test}: {stage}: round {round}/{max}:{tr} {verdict} [round {}, elapsed {}, ETA ≤ {} to the {max}-round cap]",
                hms(wall),
                hms(self.t0.elapsed().as_secs_f64()),
                hms(eta)
            ),
        );
    }

    /// A sample of a long series (printed every `every`-th).
    fn sample(&mut self, test: &str, stage: &str, n: u32, value: f64, frac_done: Option<f64>) {
        if n % 10 != 1 {
            return;
        }
        let el = self.t0.elapsed().as_secs_f64();
        let eta = frac_done
            .filter(|f| *f > 0.0)
            .map(|f| self.cell_wall.iter().sum::<f64>() * (1.0 - f) / f);
        self.emit(
            serde_json::json!({"event":"sample","test":test,"stage":stage,"sample":n,
                "value":value,"done":frac_done,"eta_s":eta,"elapsed_s":el}),
            format!(
                "{test}: {stage}: sample {n}: {value:.1}{} [elapsed {}{}]",
                frac_done
                    .map(|f| format!(" ({:.0} %)", f * 100.0))
                    .unwrap_or_default(),
                hms(el),
                eta.map(|e| format!(", ETA {}", hms(e))).unwrap_or_default()
            ),
        );
    }

    /// A free-form note.
    pub fn note(&self, test: &str, msg: &str) {
        self.emit(
            serde_json::json!({"event":"note","test":test,"message":msg}),
            format!("{test}: {msg}"),
        );
    }
}

/// One run of the suites on one drive.
pub struct Suite<'a> {
    /// The engine.
    pub driver: &'a mut dyn Driver,
    /// Purge and format.
    pub control: &'a mut dyn Control,
    /// The report (loaded when resuming).
    pub report: Report,
    /// Where it is saved.
    pub dir: PathBuf,
    /// TC/QD/range/time scale.
    pub run: RunSettings,
    /// Cap on WDPC rounds.
    pub max_rounds: u32,
    /// Purge method (resolved; `None` = no purge).
    pub purge: PurgeMethod,
    /// Set by SIGINT.
    pub interrupted: Arc<AtomicBool>,
    /// Progress printer.
    pub progress: Progress,
    last_save: Instant,
    save_cost: f64,
}

impl<'a> Suite<'a> {
    /// A suite run.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        driver: &'a mut dyn Driver,
        control: &'a mut dyn Control,
        report: Report,
        dir: PathBuf,
        run: RunSettings,
        max_rounds: u32,
        purge: PurgeMethod,
        interrupted: Arc<AtomicBool>,
        progress: Progress,
    ) -> Suite<'a> {
        Suite {
            driver,
            control,
            report,
            dir,
            run,
            max_rounds,
            purge,
            interrupted,
            progress,
            last_save: Instant::now(),
            save_cost: 0.0,
        }
    }

    /// Saves the report now.
    pub fn save(&mut self) -> Result<()> {
        let t = Instant::now();
        let r = self.report.save(&self.dir);
        self.save_cost = t.elapsed().as_secs_f64();
        self.last_save = Instant::now();
        r
    }

    /// Saves a series stage now and then: every 2 s, or less often when saving is slow (at
    /// most ~5 % of the wall time goes to saving).
    fn save_soon(&mut self) -> Result<()> {
        if self.last_save.elapsed().as_secs_f64() > (20.0 * self.save_cost).max(2.0) {
            self.save()
        } else {
            Ok(())
        }
    }

    fn check_interrupt(&self) -> Result<()> {
        if self.interrupted.load(Ordering::Relaxed) {
            Err(interrupted())
        } else {
            Ok(())
        }
    }

    /// Whether a stage of a test is complete.
    pub(crate) fn stage_done(&mut self, test: &str, stage: &str) -> bool {
        self.report
            .test_mut(test)
            .stage(stage)
            .is_some_and(|s| s.done)
    }

    fn finish_stage(&mut self, test: &str, stage: &str) -> Result<()> {
        self.report.test_mut(test).stage_mut(stage).done = true;
        self.save()
    }

    /// Fills the operator's TC/QD into a stimulus.
    pub fn resolve(&self, s: &Stimulus) -> Stimulus {
        let mut s = s.clone();
        s.tc.get_or_insert(self.run.tc);
        s.qd.get_or_insert(self.run.qd);
        s
    }

    /// Runs one stimulus.
    pub fn cell(&mut self, s: &Stimulus) -> Result<Cell> {
        self.check_interrupt()?;
        let s = self.resolve(s);
        let t = Instant::now();
        let m = self.driver.run(&s, &self.run)?;
        self.progress.cell_done(t.elapsed().as_secs_f64());
        self.check_interrupt()?;
        Ok(Cell { stimulus: s, m })
    }

    /// The purge stage (skipped when done; `--purge none` records NOT PURGED).
    pub(crate) fn purge_stage(&mut self, test: &str, stage: &str) -> Result<()> {
        if self.stage_done(test, stage) {
            return Ok(());
        }
        self.check_interrupt()?;
        let rec = if self.purge == PurgeMethod::None {
            purge::not_purged(PurgeMethod::None, "--purge none")
        } else {
            self.progress
                .stage(test, stage, &format!("purge ({})", self.purge.name()));
            self.control.purge(self.purge)?
        };
        if !rec.purged {
            self.progress
                .note(test, &format!("{stage}: {}", rec.status));
        }
        self.report.test_mut(test).stage_mut(stage).purge = Some(rec);
        self.finish_stage(test, stage)
    }

    /// A stage of one stimulus (WIPC, a capture): skipped when done.
    pub(crate) fn single_stage(&mut self, test: &str, stage: &str, s: &Stimulus) -> Result<Cell> {
        if let Some(c) = self
            .report
            .test_mut(test)
            .stage(stage)
            .filter(|s| s.done)
            .and_then(|s| s.rounds.first())
            .and_then(|r| r.cells.first())
        {
            return Ok(c.clone());
        }
        self.progress.stage(test, stage, &describe(s, &self.run));
        let t = Instant::now();
        let c = self.cell(s)?;
        let round = Round {
            round: 1,
            cells: vec![c.clone()],
            tracking: None,
            wall_s: t.elapsed().as_secs_f64(),
            drive_s: c.m.elapsed_s,
            write_bytes: c.m.write_bytes,
        };
        let st = self.report.test_mut(test).stage_mut(stage);
        st.rounds = vec![round];
        self.finish_stage(test, stage)?;
        Ok(c)
    }

    /// WDPC in rounds until steady state on `track` (cell label) / `metric`, at most
    /// `max_rounds`. Resumes after the last completed round. `round_of(r)` gives round r's
    /// cells (1-based).
    pub(crate) fn rounds_stage(
        &mut self,
        test: &str,
        stage: &str,
        round_of: &dyn Fn(u32) -> Vec<Stimulus>,
        track: &str,
        metric: Metric,
        min_rounds: u32,
    ) -> Result<SteadyState> {
        let max = self.max_rounds.max(min_rounds);
        let label = format!("{track} {}", metric.name());
        let mut tracker = Tracker::new(max);
        tracker.min_rounds = min_rounds;
        {
            let st = self.report.test_mut(test).stage_mut(stage);
            tracker.values = st.rounds.iter().filter_map(|r| r.tracking).collect();
            if st.done {
                if let Some(ss) = &st.steady_state {
                    return Ok(ss.clone());
                }
            }
        }
        let outcome = |tracker: &Tracker, v: &Verdict| SteadyState {
            tracking: label.clone(),
            reached: matches!(v, Verdict::Reached(_)),
            rounds: tracker.values.len() as u32,
            max_rounds: max,
            window: match v {
                Verdict::Reached(w) | Verdict::NotReached(w) => Some(w.clone()),
                Verdict::Continue(w) => w.clone(),
                Verdict::TooFewRounds => None,
            },
        };
        let mut verdict = tracker.verdict();
        if tracker.values.is_empty() {
            verdict = Verdict::Continue(None);
        }
        let cells0 = round_of(1).len();
        self.progress.stage(
            test,
            stage,
            &format!(
                "rounds of {cells0} cells until steady state on {label} (max {max}; {} done)",
                tracker.values.len()
            ),
        );
        while matches!(verdict, Verdict::Continue(_)) {
            let r = tracker.values.len() as u32 + 1;
            let t = Instant::now();
            let mut cells = Vec::new();
            for s in round_of(r) {
                cells.push(self.cell(&s)?);
            }
            let value = cells
                .iter()
                .find(|c| c.stimulus.label == track)
                .map(|c| metric.of(&c.m))
                .ok_or_else(|| crate::error::Invalid::NoTrackingCell {
                    cell: track.to_string(),
                })?;
            verdict = tracker.push(value);
            let round = Round {
                round: r,
                tracking: Some(value),
                wall_s: t.elapsed().as_secs_f64(),
                drive_s: cells.iter().map(|c| c.m.elapsed_s).sum(),
                write_bytes: cells.iter().map(|c| c.m.write_bytes).sum(),
                cells,
            };
            let wall = round.wall_s;
            let ss = outcome(&tracker, &verdict);
            let st = self.report.test_mut(test).stage_mut(stage);
            st.rounds.push(round);
            // Only the last 5 rounds can be in the final window: older rounds keep their
            // figures but drop the engine's full results (histograms) to bound the report.
            let n = st.rounds.len();
            if n > super::steady::WINDOW {
                for c in &mut st.rounds[n - super::steady::WINDOW - 1].cells {
                    strip_histogram(&mut c.m);
                }
            }
            st.steady_state = Some(ss);
            let vtext = match &verdict {
                Verdict::Reached(w) => format!(
                    "STEADY STATE (rounds {}-{}, avg {:.1})",
                    w.start_round, w.stop_round, w.average
                ),
                Verdict::NotReached(_) => "steady state NOT reached at the cap".into(),
                Verdict::Continue(Some(w)) => format!(
                    "not steady (data {:.1} %, slope {:.1} % of avg)",
                    100.0 * w.largest_data_excursion / w.average.max(1e-12),
                    100.0 * w.largest_slope_excursion / w.average.max(1e-12)
                ),
                _ => "window filling".into(),
            };
            self.progress
                .round(test, stage, r, max, Some((track, value)), &vtext, wall);
            self.save()?;
        }
        let ss = outcome(&tracker, &verdict);
        self.report.test_mut(test).stage_mut(stage).steady_state = Some(ss.clone());
        self.finish_stage(test, stage)?;
        Ok(ss)
    }

    /// A series of samples of one stimulus (WSAT, XSR segments, HIR bursts and baselines)
    /// until `until`; `between` runs after each sample (HIR idle). Resumes after the last
    /// saved sample.
    pub(crate) fn series_stage(
        &mut self,
        test: &str,
        stage: &str,
        s: &Stimulus,
        until: Until,
        idle_after_s: Option<f64>,
    ) -> Result<()> {
        if self.stage_done(test, stage) {
            return Ok(());
        }
        let (mut n, mut bytes, mut drive) = {
            let st = self.report.test_mut(test).stage_mut(stage);
            (
                st.rounds.len() as u32,
                st.rounds.iter().map(|r| r.write_bytes).sum::<u64>(),
                st.rounds.iter().map(|r| r.drive_s).sum::<f64>(),
            )
        };
        self.progress.stage(test, stage, &describe(s, &self.run));
        let done = |n: u32, bytes: u64, drive: f64| {
            until.samples.is_some_and(|m| n >= m)
                || until.write_bytes.is_some_and(|m| bytes >= m)
                || until.drive_s.is_some_and(|m| drive >= m)
        };
        while !done(n, bytes, drive) {
            let t = Instant::now();
            let mut c = self.cell(s)?;
            keep_intervals_only(&mut c.m);
            if let Some(idle) = idle_after_s {
                // Idle scales like the burst before it (which may have hit MIN_CELL_S).
                let k = match s.amount {
                    Amount::Seconds(x) if x > 0.0 => {
                        super::driver::scaled_seconds(x, self.run.time_scale) / x
                    }
                    _ => self.run.time_scale,
                };
                self.driver.idle(idle * k)?;
            }
            n += 1;
            bytes += c.m.write_bytes;
            drive += c.m.elapsed_s;
            let frac = [
                until.samples.map(|m| f64::from(n) / f64::from(m.max(1))),
                until.write_bytes.map(|m| bytes as f64 / m.max(1) as f64),
                until.drive_s.map(|m| drive / m.max(1e-12)),
            ]
            .into_iter()
            .flatten()
            .fold(None, |a: Option<f64>, f| Some(a.map_or(f, |a| a.max(f))));
            self.progress.sample(test, stage, n, c.m.iops, frac);
            let round = Round {
                round: n,
                tracking: None,
                wall_s: t.elapsed().as_secs_f64(),
                drive_s: c.m.elapsed_s,
                write_bytes: c.m.write_bytes,
                cells: vec![c],
            };
            self.report
                .test_mut(test)
                .stage_mut(stage)
                .rounds
                .push(round);
            self.save_soon()?;
        }
        self.finish_stage(test, stage)
    }
}

/// Keeps only the per-interval series of the engine's result (series samples: the figures
/// are in the measurement; thousands of full results would make the report huge).
pub(crate) fn keep_intervals_only(m: &mut Measurement) {
    let iv = m.run.get("intervals").cloned();
    m.run = match iv {
        Some(v) => serde_json::json!({ "intervals": v }),
        None => serde_json::Value::Null,
    };
}

/// Drops the engine's histogram and per-interval series from a measurement (kept: figures).
pub(crate) fn strip_histogram(m: &mut Measurement) {
    if let Some(o) = m.run.as_object_mut() {
        o.remove("histogram");
    }
}

/// One line describing a stimulus for the progress output.
pub fn describe(s: &Stimulus, run: &RunSettings) -> String {
    let amount = match s.amount {
        Amount::Seconds(x) => format!(
            "{:.3} s of drive time",
            super::driver::scaled_seconds(x, run.time_scale)
        ),
        Amount::Capacities(c) => format!("{c} × the ActiveRange"),
    };
    format!(
        "{} ({} % read, TC{} QD{}) for {amount}",
        s.label,
        s.read_pct,
        s.tc.unwrap_or(run.tc),
        s.qd.unwrap_or(run.qd)
    )
}
