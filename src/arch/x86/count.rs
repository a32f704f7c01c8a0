//! Counting characters with AVX2: a byte starts a character unless it is a continuation
//! byte `80..BF`. As signed bytes, the continuation bytes are exactly those below -64, so
//! one signed compare per 32 bytes (`-64 > v`, with `v` straight from memory) finds them,
//! and the count of characters is the length minus the count of continuation bytes.
//!
//! ```text
//! for each group of up to 127 iterations:
//!     c0..c3 = 0 (32 byte lanes each)
//!     for each 256 bytes (8 registers v0..v7):
//!         ci -= (-64 > v2i) + (-64 > v2i+1)    (a true compare is -1: adds 0, 1 or 2)
//!     continuation += horizontal sums of c0..c3 (vpsadbw against zero: 4 × u64 each)
//! the last 0..=255 bytes: one register at a time, then the last 0..=31 a word at a time
//! characters = length - continuation
//! ```
//!
//! Four counters keep the compares independent; a lane gains at most 2 per iteration, so
//! 127 iterations (254) never overflow a byte.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// Bytes per loop iteration: eight 32-byte registers.
const STEP: usize = 256;
/// Iterations before the byte counters are summed (each lane gains at most 2 each).
const SUM_EVERY: usize = 127;

/// The number of bytes in `bytes` that are not continuation bytes (`80..BF`).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn count_non_continuation(bytes: &[u8]) -> usize {
    // SAFETY: the caller guarantees AVX2; `count` is inlined here and compiled for it.
    unsafe { count(bytes) }
}

/// The algorithm of the module documentation, inlined into the `#[target_feature]`
/// function above (so its intrinsics are compiled for AVX2 on every toolchain).
///
/// # Safety
///
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn count(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(STEP);
    // SAFETY: the caller guarantees AVX2 (these two only make registers).
    let (limit, zero) = unsafe { (_mm256_set1_epi8(-64), _mm256_setzero_si256()) };
    let mut sums = zero; // 4 × u64
    loop {
        let (mut c0, mut c1, mut c2, mut c3) = (zero, zero, zero, zero);
        let mut n = 0;
        for chunk in chunks.by_ref().take(SUM_EVERY) {
            let p = chunk.as_ptr();
            // SAFETY: AVX2 (the caller). `chunk` has STEP = 256 readable bytes, so the
            // 32-byte loads at offsets 0, 32, ..., 224 stay inside it.
            unsafe {
                let cont = |offset: usize| {
                    _mm256_cmpgt_epi8(limit, _mm256_loadu_si256(p.add(offset).cast()))
                };
                c0 = _mm256_sub_epi8(c0, _mm256_add_epi8(cont(0), cont(32)));
                c1 = _mm256_sub_epi8(c1, _mm256_add_epi8(cont(64), cont(96)));
                c2 = _mm256_sub_epi8(c2, _mm256_add_epi8(cont(128), cont(160)));
                c3 = _mm256_sub_epi8(c3, _mm256_add_epi8(cont(192), cont(224)));
            }
            n += 1;
        }
        // SAFETY: AVX2 (the caller).
        sums = unsafe {
            let s01 = _mm256_add_epi64(_mm256_sad_epu8(c0, zero), _mm256_sad_epu8(c1, zero));
            let s23 = _mm256_add_epi64(_mm256_sad_epu8(c2, zero), _mm256_sad_epu8(c3, zero));
            _mm256_add_epi64(sums, _mm256_add_epi64(s01, s23))
        };
        if n < SUM_EVERY {
            break;
        }
    }
    // The last 0..=255 bytes: one register at a time (at most 7, so no lane overflows),
    // then the portable count for the last 0..=31.
    let mut registers = chunks.remainder().chunks_exact(32);
    let mut c = zero;
    for register in registers.by_ref() {
        // SAFETY: AVX2 (the caller), and `register` has 32 readable bytes.
        c = unsafe {
            let v = _mm256_loadu_si256(register.as_ptr().cast());
            _mm256_sub_epi8(c, _mm256_cmpgt_epi8(limit, v))
        };
    }
    // SAFETY: AVX2 (the caller).
    sums = unsafe { _mm256_add_epi64(sums, _mm256_sad_epu8(c, zero)) };
    let mut lanes = [0u64; 4];
    // SAFETY: AVX2 (the caller), and `lanes` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums) };
    let continuation = lanes.iter().sum::<u64>() as usize;
    let rest = registers.remainder();
    (bytes.len() - rest.len() - continuation) + crate::arch::portable::count_non_continuation(rest)
}
