//! `--cpu-latency US`: a PM QoS request on the CPUs' wake-up latency for the length of a run.
//!
//! An idle CPU enters an idle state, and waking it from a deep one takes time: tens to
//! hundreds of microseconds for a server's package C-states, and on a virtual machine whose
//! idle vCPUs halt (cpuidle `haltpoll` with `guest_halt_poll_ns=0`) about 1.4 ms on this
//! workplace's machines. At a low queue depth the I/O thread and the driver's worker go idle
//! between I/Os, so those wake-ups are part of every latency measured: at QD1 on a loop device
//! they set the IOPS (10–19k for sgctl and fio alike, against 89–111k with the CPUs kept
//! awake; docs/bench-engine.md, "Idle CPUs"). Writing a limit to `/dev/cpu_dma_latency` and
//! keeping the file open asks cpuidle to use only the states that wake within it (0: idle
//! CPUs poll); the request ends when the file is closed — when the run ends or the process
//! exits by any path. cyclictest holds 0 by default, rtla has `--dma-latency`, tuned's
//! latency-performance profile holds 1 (Documentation/power/pm_qos_interface.rst).

use std::fs::File;
use std::io::Write;

use super::BenchError;

/// The PM QoS device: a 4-byte native-endian s32 in microseconds.
pub const CPU_DMA_LATENCY: &str = "/dev/cpu_dma_latency";

/// A held request: the limit applies until this is dropped.
#[derive(Debug)]
pub(crate) struct CpuLatency {
    _file: File,
    limit_us: u32,
}

impl CpuLatency {
    /// `--cpu-latency` for a run or a suite: `None` when not asked; refused (a bad option,
    /// exit 2) when the run is on a virtual clock, where idle CPUs change nothing; else the
    /// request on [`CPU_DMA_LATENCY`], held until the returned value is dropped.
    pub(crate) fn for_run(
        limit_us: Option<u32>,
        virtual_clock: bool,
    ) -> Result<Option<CpuLatency>, BenchError> {
        match limit_us {
            None => Ok(None),
            Some(_) if virtual_clock => Err(BenchError::InvalidArgument(
                "--cpu-latency: a sim: drive runs on a virtual clock; idle CPUs do not change \
                 its figures"
                    .into(),
            )),
            Some(us) => CpuLatency::hold(CPU_DMA_LATENCY, us).map(Some),
        }
    }

    /// Opens `path` (normally [`CPU_DMA_LATENCY`]) and writes the limit. Fails (not
    /// supported, exit 7) when the device is absent or not writable (it is root's only).
    pub(crate) fn hold(path: &str, limit_us: u32) -> Result<CpuLatency, BenchError> {
        let v = i32::try_from(limit_us).map_err(|_| {
            BenchError::InvalidArgument(format!(
                "--cpu-latency {limit_us}: at most {} microseconds",
                i32::MAX
            ))
        })?;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| {
                BenchError::Unsupported(format!(
                    "--cpu-latency: cannot open {path}: {e}{}",
                    if e.kind() == std::io::ErrorKind::PermissionDenied {
                        " (the PM QoS device is root's only); run without --cpu-latency"
                    } else {
                        "; run without --cpu-latency"
                    }
                ))
            })?;
        f.write_all(&v.to_ne_bytes())
            .map_err(|e| BenchError::Unsupported(format!("--cpu-latency: writing {path}: {e}")))?;
        Ok(CpuLatency { _file: f, limit_us })
    }

    /// The note the run's result carries.
    pub(crate) fn note(&self) -> String {
        let (poll, idle) = match self.limit_us {
            0 => ("; idle CPUs poll", "do not sleep"),
            _ => ("", "sleep no deeper than that"),
        };
        format!(
            "CPU wake-up latency limited to {} us for the run ({CPU_DMA_LATENCY}, a PM QoS \
             request{poll}): the figures are those of a machine whose idle CPUs {idle}",
            self.limit_us
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_limit_as_four_native_bytes_and_names_it() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("qos");
        std::fs::write(&p, b"").unwrap();
        let q = CpuLatency::hold(p.to_str().unwrap(), 7).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), 7i32.to_ne_bytes());
        assert!(q.note().contains("limited to 7 us"), "{}", q.note());
        let q0 = CpuLatency::hold(p.to_str().unwrap(), 0).unwrap();
        assert!(q0.note().contains("idle CPUs poll"), "{}", q0.note());
    }

    #[test]
    fn an_absent_device_or_a_limit_too_large_is_refused_clearly() {
        let e = CpuLatency::hold("/nonexistent/cpu_dma_latency", 0).unwrap_err();
        assert!(matches!(e, BenchError::Unsupported(_)), "{e:?}");
        assert!(e.to_string().contains("run without --cpu-latency"), "{e}");
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("qos");
        std::fs::write(&p, b"").unwrap();
        let e = CpuLatency::hold(p.to_str().unwrap(), u32::MAX).unwrap_err();
        assert!(matches!(e, BenchError::InvalidArgument(_)), "{e:?}");
    }

    #[test]
    fn for_run_asks_nothing_when_not_asked_and_refuses_a_virtual_clock() {
        assert!(CpuLatency::for_run(None, true).unwrap().is_none());
        assert!(CpuLatency::for_run(None, false).unwrap().is_none());
        let e = CpuLatency::for_run(Some(0), true).unwrap_err();
        assert!(matches!(e, BenchError::InvalidArgument(_)), "{e:?}");
        assert!(e.to_string().contains("virtual clock"), "{e}");
    }
}
