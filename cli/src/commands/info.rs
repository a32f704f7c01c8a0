//! `vutf8 info`: what this CPU offers and what `vutf8` does with it.
//!
//! Lists the SIMD features the CPU reports (as the standard library's runtime detection
//! sees them), the validators ([`vutf8::Backend`]) this CPU can run and those it cannot,
//! and the one that checking uses, with the code it runs on this CPU
//! ([`vutf8::Backend::variant`]).

use std::io::{self, Write};

use vutf8::Backend;

use crate::scan::engine::Engine;

/// The CPU features that matter to UTF-8 validation on this architecture, and whether each
/// is present.
fn cpu_features() -> Vec<(&'static str, bool)> {
    #[allow(unused_mut)]
    let mut list = Vec::new();
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        macro_rules! detect {
            ($($name:tt),*) => { $( list.push(($name, std::is_x86_feature_detected!($name))); )* };
        }
        detect!(
            "sse2",
            "sse3",
            "ssse3",
            "sse4.1",
            "sse4.2",
            "popcnt",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "lzcnt",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512vbmi"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! detect {
            ($($name:tt),*) => { $( list.push(($name, std::arch::is_aarch64_feature_detected!($name))); )* };
        }
        detect!("neon", "sve", "sve2");
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    list.push(("simd128", true));
    list
}

fn names(list: impl Iterator<Item = &'static str>) -> String {
    let v: Vec<&str> = list.collect();
    if v.is_empty() {
        "(none)".into()
    } else {
        v.join(" ")
    }
}

/// Writes the report to stdout.
pub fn run(engine: Engine) -> io::Result<()> {
    let features = cpu_features();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "vutf8 {} on {}, {} threads",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH,
        rayon::current_num_threads()
    )?;
    writeln!(
        out,
        "CPU features:    {}",
        names(features.iter().filter(|f| f.1).map(|f| f.0))
    )?;
    writeln!(
        out,
        "  not present:   {}",
        names(features.iter().filter(|f| !f.1).map(|f| f.0))
    )?;
    writeln!(
        out,
        "backends:        {}",
        names(Backend::available().map(Backend::name))
    )?;
    writeln!(
        out,
        "  not available: {}",
        names(
            Backend::ALL
                .into_iter()
                .filter(|b| b.is_built() && !b.is_available())
                .map(Backend::name)
        )
    )?;
    writeln!(
        out,
        "  not built:     {}",
        names(
            Backend::ALL
                .into_iter()
                .filter(|b| !b.is_built())
                .map(Backend::name)
        )
    )?;
    let (chosen, forced) = match engine {
        Engine::Auto => (Backend::selected(), String::new()),
        Engine::Forced(b) => (
            b,
            format!(
                " (forced with --backend; the best here is {})",
                Backend::selected().name()
            ),
        ),
    };
    writeln!(out, "chosen:          {}{forced}", chosen.name())?;
    // Which of the backend's codes this CPU runs (AVX2 has one for CPUs whose AVX2 runs on
    // 128-bit units; AVX-512 one for CPUs with VBMI): what a measurement ran.
    writeln!(
        out,
        "  code:          {}",
        chosen.variant().unwrap_or("(cannot run here)")
    )?;
    out.flush()
}
