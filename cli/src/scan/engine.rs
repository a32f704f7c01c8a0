//! Which validator runs ([`Engine`]) and how a scan goes ([`Settings`]).
//!
//! The scanners that take these settings are in the read layer (`read/`); what they
//! produce is in [`crate::scan::findings`].

use vutf8::{Backend, Utf8Error};

use crate::scan::bom::BomPolicy;
use crate::scan::position;

/// Which validator runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The one `vutf8` picks for this CPU.
    Auto,
    /// One backend, forced with `--backend`; the caller checked that the CPU can run it.
    Forced(Backend),
}

impl Engine {
    /// The validator `--backend` asks for (`None`: the best one), if this CPU can run it;
    /// otherwise the message to show.
    pub fn from_option(name: Option<&str>) -> Result<Engine, String> {
        let Some(name) = name else {
            return Ok(Engine::Auto);
        };
        let names = |list: &mut dyn Iterator<Item = Backend>| {
            list.map(Backend::name).collect::<Vec<_>>().join(", ")
        };
        match Backend::from_name(name) {
            None => Err(format!(
                "unknown backend '{name}' (known: {})",
                names(&mut Backend::ALL.into_iter())
            )),
            Some(backend) => match backend.unavailable_reason() {
                None => Ok(Engine::Forced(backend)),
                Some(why) => Err(format!(
                    "cannot use the {} backend: {why} (it can run: {})",
                    backend.name(),
                    names(&mut Backend::available())
                )),
            },
        }
    }

    /// The first error in `input`, like [`vutf8::from_utf8`].
    #[inline]
    pub fn validate(self, input: &[u8]) -> Result<(), Utf8Error> {
        match self {
            Engine::Auto => vutf8::from_utf8(input).map(|_| ()),
            Engine::Forced(backend) => backend.validate(input),
        }
    }

    /// The number of characters in `input` if it is valid (when `count`; else 0), or the
    /// first error.
    #[inline]
    pub fn validate_counting(self, input: &[u8], count: bool) -> Result<u64, Utf8Error> {
        match self {
            Engine::Auto if count => vutf8::validate_and_count(input).map(|n| n as u64),
            _ => {
                self.validate(input)?;
                Ok(if count {
                    position::count_chars(input)
                } else {
                    0
                })
            }
        }
    }

    /// Whether `input` is valid, the fastest way.
    #[inline]
    pub fn is_valid(self, input: &[u8]) -> bool {
        match self {
            Engine::Auto => vutf8::is_valid(input),
            Engine::Forced(backend) => backend.is_valid(input),
        }
    }
}

/// How to scan.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The validator.
    pub engine: Engine,
    /// Report every error, not only the first.
    pub all: bool,
    /// Count lines and columns (otherwise findings carry line 0, column 0).
    pub track: bool,
    /// Bytes per parallel chunk of a slice, and the size of a stream's buffer.
    pub chunk: usize,
    /// Count the characters of valid inputs.
    pub count: bool,
    /// What a leading UTF-8 signature `EF BB BF` is ([`crate::scan::bom`]).
    pub bom: BomPolicy,
}
