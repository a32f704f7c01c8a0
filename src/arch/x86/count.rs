//! Counting characters with AVX2: a byte starts a character unless it is a continuation
//! byte `80..BF`, i.e. unless it is below `C0` as a signed byte and negative. As signed
//! bytes, the non-continuation bytes are exactly those greater than -65.
//!
//! ```text
//! for each group of up to 63 iterations:
//!     counts = 0 (32 byte lanes)
//!     for each 128 bytes (4 registers): counts -= (v > -65) for each register
//!                                       (a true compare is -1, so this adds 1)
//!     total += horizontal sum of counts (vpsadbw against zero: 4 × u64)
//! ```
//!
//! A lane grows by at most 4 per iteration, so 63 iterations (252) never overflow a byte.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// Bytes per loop iteration: four 32-byte registers.
const STEP: usize = 128;
/// Iterations before the byte counters are summed (4 × 63 = 252 < 256).
const GROUP: usize = 63;

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
    // SAFETY (every block below): the caller guarantees AVX2; the loads are checked
    // one by one.
    let (threshold, zero) = unsafe { (_mm256_set1_epi8(-65), _mm256_setzero_si256()) };
    let mut sums = zero; // 4 × u64
    loop {
        let mut counts = zero;
        let mut n = 0;
        for chunk in chunks.by_ref().take(GROUP) {
            let p = chunk.as_ptr();
            // SAFETY: AVX2 (the caller), and `chunk` has STEP = 128 readable bytes, so the
            // 32-byte loads at offsets 0, 32, 64 and 96 stay inside it.
            unsafe {
                let a = _mm256_loadu_si256(p.cast());
                let b = _mm256_loadu_si256(p.add(32).cast());
                let c = _mm256_loadu_si256(p.add(64).cast());
                let d = _mm256_loadu_si256(p.add(96).cast());
                counts = _mm256_sub_epi8(counts, _mm256_cmpgt_epi8(a, threshold));
                counts = _mm256_sub_epi8(counts, _mm256_cmpgt_epi8(b, threshold));
                counts = _mm256_sub_epi8(counts, _mm256_cmpgt_epi8(c, threshold));
                counts = _mm256_sub_epi8(counts, _mm256_cmpgt_epi8(d, threshold));
            }
            n += 1;
        }
        // SAFETY: AVX2 (the caller).
        sums = unsafe { _mm256_add_epi64(sums, _mm256_sad_epu8(counts, zero)) };
        if n < GROUP {
            break;
        }
    }
    let mut lanes = [0u64; 4];
    // SAFETY: AVX2 (the caller), and `lanes` is 32 writable bytes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums) };
    let vector_total = lanes.iter().sum::<u64>() as usize;
    vector_total + crate::count::count_portable(chunks.remainder())
}
