//! [`Backend`]: the implementations this crate has, which of them this CPU can run, and a
//! way to run a particular one (for tests, benchmarks and `vutf8 --backend`).

use crate::arch;
use crate::error::Utf8Error;

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
    /// x86 / x86-64 with AVX512F and AVX512BW: 512-bit registers. In builds with the cargo
    /// feature `avx512`, which is on by default (docs/AVX512.md); without it, never
    /// available.
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

    /// The backend that [`crate::from_utf8`] and [`crate::is_valid`] use on this CPU for
    /// the inputs that reach a backend (see `src/tiers.rs`: not those under 8 bytes, nor
    /// ASCII up to 64 bytes).
    pub fn selected() -> Backend {
        arch::selected()
    }

    /// Every backend this CPU can run, in the order of [`Backend::ALL`].
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// Whether this CPU (and this build) can run this backend.
    pub fn is_available(self) -> bool {
        arch::is_available(self)
    }

    /// Whether this build has the backend's code at all, whatever the CPU: the right target
    /// architecture, and for [`Backend::Avx512`] the cargo feature `avx512`. A built backend
    /// is [available](Backend::is_available) where the CPU has its instructions.
    pub fn is_built(self) -> bool {
        arch::is_built(self)
    }

    /// Why this backend cannot run here, in words (`None` when it
    /// [can](Backend::is_available)): `"not built: it needs the cargo feature avx512"`,
    /// `"not built: it is for another target"`, or `"this CPU lacks its instructions"`.
    /// For messages such as the CLI's `--backend` errors and the test suite's list of
    /// backends not run.
    pub fn unavailable_reason(self) -> Option<&'static str> {
        if self.is_available() {
            None
        } else if !self.is_built() {
            Some(arch::not_built_reason(self))
        } else {
            Some("this CPU lacks its instructions")
        }
    }

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

    /// Validates `input` with this backend, whatever its length (short inputs go through
    /// the vector code too: AVX-512 loads inputs under 64 bytes with one masked load, AVX2
    /// hands those under 32 bytes to SSE4.2, and the 128-bit backends pack inputs under 16
    /// bytes into one register; see `src/tiers.rs`), with the
    /// same result as [`crate::from_utf8`].
    ///
    /// # Panics
    /// If this CPU cannot run the backend (see [`Backend::is_available`]).
    pub fn validate(self, input: &[u8]) -> Result<(), Utf8Error> {
        let Some(raw) = arch::raw(self) else {
            panic!(
                "vutf8: the {} backend cannot run on this CPU or target (available: see Backend::available())",
                self.name()
            )
        };
        // SAFETY: `arch::raw` returns only validators that this CPU can run.
        match unsafe { raw(input, 0) } {
            Ok(()) => Ok(()),
            Err(pos) => Err(crate::exact_error(input, pos)),
        }
    }

    /// Like [`validate`](Backend::validate) but only says whether the input is valid.
    ///
    /// # Panics
    /// If this CPU cannot run the backend.
    pub fn is_valid(self, input: &[u8]) -> bool {
        let Some(raw) = arch::raw(self) else {
            panic!(
                "vutf8: the {} backend cannot run on this CPU or target",
                self.name()
            )
        };
        // SAFETY: `arch::raw` returns only validators that this CPU can run.
        unsafe { raw(input, 0) }.is_ok()
    }
}

impl core::fmt::Display for Backend {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
