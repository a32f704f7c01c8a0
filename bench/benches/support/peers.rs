//! The validators the benchmarks compare, and the header every report starts with: the CPU
//! model and features, and the backend each side runs on this CPU.

use std::sync::OnceLock;

/// A validator: name and a function that says whether the bytes are valid UTF-8. (simdutf
/// is a peer on x86 only: see Cargo.toml.)
pub type Contender = (&'static str, fn(&[u8]) -> bool);

/// The backend `--backend NAME` forces on vutf8 (else its own choice).
static FORCED: OnceLock<vutf8::Backend> = OnceLock::new();

/// Makes vutf8's contenders run `backend` instead of the one it selects.
pub fn force_backend(backend: vutf8::Backend) {
    FORCED.set(backend).expect("force_backend: called twice");
}

/// Whether `--backend` forced a backend on vutf8's contenders.
pub fn is_forced() -> bool {
    FORCED.get().is_some()
}

/// The vutf8 backend the contenders run.
pub fn vutf8_backend() -> vutf8::Backend {
    FORCED
        .get()
        .copied()
        .unwrap_or_else(vutf8::Backend::selected)
}

/// vutf8's `is_valid`, on the forced backend if there is one.
pub fn vutf8_is_valid(b: &[u8]) -> bool {
    match FORCED.get() {
        Some(backend) => backend.is_valid(b),
        None => vutf8::is_valid(b),
    }
}

/// vutf8's `from_utf8` (exact errors), on the forced backend if there is one.
pub fn vutf8_from_utf8_ok(b: &[u8]) -> bool {
    match FORCED.get() {
        Some(backend) => backend.validate(b).is_ok(),
        None => vutf8::from_utf8(b).is_ok(),
    }
}

/// Yes-or-no validators: vutf8's fastest answer (first) against each peer's.
pub const IS_VALID: &[Contender] = &[
    ("vutf8 is_valid", vutf8_is_valid),
    ("simdutf8 basic", |b| simdutf8::basic::from_utf8(b).is_ok()),
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    ("simdutf validate_utf8", simdutf::validate_utf8),
    ("std", |b| core::str::from_utf8(b).is_ok()),
];

/// Validators that give the exact position of the first error (vutf8's first).
pub const EXACT: &[Contender] = &[
    ("vutf8 from_utf8", vutf8_from_utf8_ok),
    ("simdutf8 compat", |b| {
        simdutf8::compat::from_utf8(b).is_ok()
    }),
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    ("simdutf validate_utf8_with_errors", |b| {
        simdutf::validate_utf8_with_errors(b).error == simdutf::ErrorCode::Success
    }),
    ("std", |b| core::str::from_utf8(b).is_ok()),
];

/// The CPU's model name (`/proc/cpuinfo`), or what the OS calls the architecture.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The x86 features that decide which code each validator runs, present on this CPU.
pub fn cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut out = Vec::new();
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        macro_rules! probe {
            ($($f:tt),*) => {$(
                if std::arch::is_x86_feature_detected!($f) {
                    out.push($f);
                }
            )*};
        }
        probe!(
            "sse4.2",
            "avx2",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512dq",
            "avx512cd",
            "avx512vbmi",
            "avx512vbmi2",
            "avx512vpopcntdq"
        );
    }
    out
}

/// simdutf's own variable that names the implementation it runs instead of its choice
/// (read once, at its first call).
const SIMDUTF_FORCE: &str = "SIMDUTF_FORCE_IMPLEMENTATION";

/// Holds simdutf to the width vutf8 runs: where vutf8 runs AVX2 (the AVX2 build on an
/// AVX-512 CPU, or `--backend avx2`) or SSE4.2 and simdutf would pick a wider
/// implementation, simdutf is told to run `haswell` or `westmere`, what it runs on a CPU
/// without the wider instructions, so that both sides of a ratio run the same width.
/// Every benchmark that times simdutf calls this after its options and before simdutf's
/// first call; a `SIMDUTF_FORCE_IMPLEMENTATION` set by the user wins.
pub fn hold_simdutf_to_vutf8() {
    if std::env::var_os(SIMDUTF_FORCE).is_some() {
        return;
    }
    let held = match vutf8_backend() {
        vutf8::Backend::Avx2 if detected_simdutf_backend() == ICELAKE => "haswell",
        vutf8::Backend::Sse42 if detected_simdutf_backend() != WESTMERE => "westmere",
        _ => return,
    };
    // Called from `main` before any thread is started, so nothing reads the environment
    // at the same time.
    std::env::set_var(SIMDUTF_FORCE, held);
}

const ICELAKE: &str = "icelake (AVX-512)";
const HASWELL: &str = "haswell (AVX2)";
const WESTMERE: &str = "westmere (SSE4.2)";
const FALLBACK: &str = "fallback (scalar)";

/// The implementation simdutf runs: the one `SIMDUTF_FORCE_IMPLEMENTATION` names (see
/// [`hold_simdutf_to_vutf8`]), else its run-time dispatch's choice on this CPU.
pub fn simdutf_backend() -> &'static str {
    match std::env::var(SIMDUTF_FORCE).as_deref() {
        Ok("icelake") => ICELAKE,
        Ok("haswell") => "haswell (AVX2, held to vutf8's width)",
        Ok("westmere") => "westmere (SSE4.2, held to vutf8's width)",
        Ok("fallback") => FALLBACK,
        Ok(_) => "unknown (SIMDUTF_FORCE_IMPLEMENTATION)",
        Err(_) => detected_simdutf_backend(),
    }
}

/// The implementation simdutf's run-time dispatch picks on this CPU. The crate does not
/// expose the name, so this follows simdutf's own rule: `icelake` needs AVX-512 F, DQ, CD,
/// BW, VL, VBMI2 and VPOPCNTDQ (and BMI2); `haswell` needs AVX2 and BMI2; `westmere`
/// SSE4.2; else `fallback`.
fn detected_simdutf_backend() -> &'static str {
    let f = cpu_features();
    let has = |names: &[&str]| names.iter().all(|n| f.contains(n));
    if has(&[
        "avx512f",
        "avx512dq",
        "avx512cd",
        "avx512bw",
        "avx512vl",
        "avx512vbmi2",
        "avx512vpopcntdq",
        "bmi2",
    ]) {
        ICELAKE
    } else if has(&["avx2", "bmi2"]) {
        HASWELL
    } else if has(&["sse4.2"]) {
        WESTMERE
    } else {
        FALLBACK
    }
}

/// The implementation simdutf8 0.1's run-time dispatch picks: AVX2, else SSE4.2, else std.
pub fn simdutf8_backend() -> &'static str {
    let f = cpu_features();
    if f.contains(&"avx2") {
        "AVX2"
    } else if f.contains(&"sse4.2") {
        "SSE4.2"
    } else {
        "std (scalar)"
    }
}

/// The lines every report starts with (printed once per process).
pub fn header(title: &str) -> String {
    static ONCE: OnceLock<()> = OnceLock::new();
    let first = ONCE.set(()).is_ok();
    let mut s = format!("{title}\n\n");
    if first {
        s += &format!("- CPU: {} ({} threads)\n", cpu_model(), num_threads());
        s += &format!("- CPU features: {}\n", cpu_features().join(" "));
        let forced = if FORCED.get().is_some() {
            " (forced)"
        } else {
            ""
        };
        let b = vutf8_backend();
        s += &format!(
            "- vutf8: {}{forced}, code {}\n",
            b.name(),
            b.variant().unwrap_or("?")
        );
        s += &format!("- simdutf8 0.1: {}\n", simdutf8_backend());
        if cfg!(any(target_arch = "x86", target_arch = "x86_64")) {
            s += &format!("- simdutf 0.7 (C++): {}\n", simdutf_backend());
        }
        s += "- std: core::str::from_utf8 (scalar)\n\n";
    }
    s
}

fn num_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
