//! The aarch64 backend: NEON (128-bit), always present on aarch64 and enabled at compile
//! time by every aarch64 target, so nothing is detected at run time.

pub(crate) mod neon;
