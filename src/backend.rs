//! [`Backend`]: the names of the implementations this crate has. Plain data, imported by
//! the table of backends (`crate::arch`); what a backend can do on this CPU (whether it
//! runs here, running it) is the second `impl Backend` block, in `crate::engine`.

/// One implementation of UTF-8 validation.
///
/// Every variant exists on every target; [`Backend::is_available`] says whether this CPU can
/// run it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// The scalar reference decoder ([`crate::scalar`]); runs everywhere.
    Scalar,
    /// x86 / x86-64 with SSE4.2: 128-bit registers.
    Sse42,
    /// x86 / x86-64 with AVX2: 256-bit registers.
    Avx2,
    /// x86 / x86-64 with AVX512F and AVX512BW: 512-bit registers; where the CPU has
    /// AVX512VBMI too, its nibble lookups use it (the same answers, fewer instructions). In
    /// builds with the cargo feature `avx512`, which is on by default (docs/AVX512.md);
    /// without it, never available.
    Avx512,
    /// aarch64 with NEON: 128-bit registers.
    Neon,
    /// wasm32 built with `-C target-feature=+simd128`: 128-bit registers.
    Simd128,
}

impl Backend {
    /// Every backend, in order from the plainest to the widest.
    pub const ALL: [Backend; 6] = [
        Backend::Scalar,
        Backend::Sse42,
        Backend::Avx2,
        Backend::Avx512,
        Backend::Neon,
        Backend::Simd128,
    ];

    /// The backend's name in lower case: `"scalar"`, `"sse4.2"`, `"avx2"`, `"avx512"`,
    /// `"neon"`, `"simd128"`.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Sse42 => "sse4.2",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
            Backend::Simd128 => "simd128",
        }
    }

    /// The backend with this [`name`](Backend::name) (case-insensitive; `"sse42"` is also
    /// accepted), whether or not this CPU can run it.
    pub fn from_name(name: &str) -> Option<Backend> {
        if name.eq_ignore_ascii_case("sse42") {
            return Some(Backend::Sse42);
        }
        Self::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
