//! The progress bar on stderr: bytes done, throughput and time left.
//!
//! It is shown only when stderr is a terminal, `-q` is not given, and the work is large:
//! at least [`LARGE`] bytes known in advance, or, on a stream of unknown length, once that
//! many bytes have gone by. Otherwise [`Progress`] is an empty shell that costs nothing.
//!
//! The scanners move it through the check engine's [`Meter`], which it implements, so
//! the read layer never names it; `commands/check.rs` makes one and keeps it out of the
//! way of the findings ([`Progress::suspend`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::scan::findings::Meter;

/// The amount of work that earns a progress bar.
pub const LARGE: u64 = 256 << 20;

/// A progress bar, possibly hidden or absent. Cheap to clone and to share between threads.
#[derive(Clone, Default)]
pub struct Progress {
    bar: Option<ProgressBar>,
    /// For a stream: whether the bar has been made visible yet.
    shown: Option<Arc<AtomicBool>>,
}

impl Progress {
    /// No bar at all.
    pub fn none() -> Self {
        Progress::default()
    }

    /// A bar for `total` bytes if there are that many (`Some`), or for a stream of unknown
    /// length (`None`) that appears after [`LARGE`] bytes. `enabled` is the caller's
    /// verdict on the terminal and `-q`.
    pub fn new(total: Option<u64>, enabled: bool) -> Self {
        if !enabled {
            return Progress::none();
        }
        match total {
            Some(total) if total >= LARGE => {
                let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template(
                        "{wide_bar} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} ETA {eta}",
                    )
                    .expect("a valid template"),
                );
                bar.enable_steady_tick(Duration::from_millis(200));
                Progress {
                    bar: Some(bar),
                    shown: None,
                }
            }
            Some(_) => Progress::none(),
            None => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
                bar.set_style(
                    ProgressStyle::with_template(
                        "{spinner} {binary_bytes} {binary_bytes_per_sec} {elapsed}",
                    )
                    .expect("a valid template"),
                );
                Progress {
                    bar: Some(bar),
                    shown: Some(Arc::new(AtomicBool::new(false))),
                }
            }
        }
    }

    /// Runs `f` (which writes to the terminal) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar from the screen.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl Meter for Progress {
    /// Counts `bytes` more as done.
    #[inline]
    fn inc(&self, bytes: u64) {
        let Some(bar) = &self.bar else { return };
        bar.inc(bytes);
        if let Some(shown) = &self.shown {
            if !shown.load(Ordering::Relaxed)
                && bar.position() >= LARGE
                && !shown.swap(true, Ordering::Relaxed)
            {
                bar.set_draw_target(ProgressDrawTarget::stderr());
                bar.enable_steady_tick(Duration::from_millis(200));
            }
        }
    }
}
