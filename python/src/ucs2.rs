//! Valid UTF-8 of characters up to U+FFFF into UCS-2 (a PEP 393 string of two-byte
//! characters) with AVX2, for CPUs where simdutf runs its AVX2 kernel: Cyrillic, Greek,
//! CJK and other text of two- and three-byte sequences, where simdutf's AVX2 conversion
//! takes 12 bytes a step through a table of 12-bit patterns.
//!
//! Each step takes 16 bytes: each byte that starts a character becomes its code point in a
//! 16-bit lane, computed from it and the two bytes after it (read by two more loads one and
//! two bytes further) as an ASCII byte, a two-byte or a three-byte lead says; the lanes of
//! continuation bytes are then squeezed out, eight lanes at a time, by a byte shuffle from a
//! table of the 256 patterns of eight lanes. A character that starts in the last two bytes
//! of a step is finished by the step from its next bytes; the next step drops those. 32
//! ASCII bytes at once are widened with no shuffle.
//!
//! The conversion trusts its input: valid UTF-8 (lone surrogates allowed, as WTF-8), no
//! sequence of four bytes. `decode.rs` chooses it (`Unit::transcode` for `u16`); the
//! measurements are in docs/PYTHON.md ("The transcoder").

/// Whether [`convert`] is used where simdutf's AVX-512 kernel is not (`_ucs2_avx2`): the
/// tests turn it on everywhere and off.
static MODE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(AUTO);

/// [`MODE`]: where simdutf has no AVX-512 kernel to run.
const AUTO: u8 = 0;
/// [`MODE`]: wherever the CPU has AVX2 (for the tests).
const ALWAYS: u8 = 1;
/// [`MODE`]: never (for the tests).
const NEVER: u8 = 2;

/// Whether simdutf runs its AVX-512 kernel (`icelake`) here: built in (the `avx512` feature
/// also leaves it in simdutf; `scripts/python-wheels.sh --no-avx512` takes it out of both)
/// and the CPU has what that kernel asks for.
#[cfg(target_arch = "x86_64")]
fn simdutf_avx512() -> bool {
    cfg!(feature = "avx512")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512cd")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512vbmi2")
        && std::is_x86_feature_detected!("avx512vpopcntdq")
        && std::is_x86_feature_detected!("bmi2")
}

/// Whether [`transcode`] converts (else the caller transcodes another way): [`MODE`], and
/// the CPU's AVX2.
#[inline]
pub(crate) fn active() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let wanted = match MODE.load(std::sync::atomic::Ordering::Relaxed) {
            AUTO => !simdutf_avx512(),
            ALWAYS => true,
            _ => false,
        };
        wanted && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Transcodes valid `src` to `dst`, which has room for `room` characters, where [`active`]
/// says so; returns the characters written, or `None` when the caller is to transcode it
/// another way.
///
/// # Safety
/// `src` is valid UTF-8 (lone surrogates allowed) without a sequence of four bytes; `dst`
/// is valid for `room` characters, exactly its characters.
#[inline]
pub(crate) unsafe fn transcode(src: &[u8], dst: *mut u16, room: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if active() {
        // SAFETY: the CPU has AVX2 (`active`); the rest by the caller's promise.
        return Some(unsafe { convert(src, dst, room) });
    }
    let _ = (src, dst, room);
    None
}

/// For the tests of both transcoders into UCS-2 on any CPU: `_ucs2_avx2(True)` uses this
/// file's wherever the CPU has AVX2, `_ucs2_avx2(False)` never, `_ucs2_avx2(None)` lets
/// the CPU decide (the default); returns the setting after the call (`None`: the CPU
/// decides).
#[pyo3::pyfunction]
#[pyo3(signature = (on = None))]
pub fn _ucs2_avx2(on: Option<bool>) -> Option<bool> {
    use std::sync::atomic::Ordering::Relaxed;
    MODE.store(
        match on {
            None => AUTO,
            Some(true) => ALWAYS,
            Some(false) => NEVER,
        },
        Relaxed,
    );
    match MODE.load(Relaxed) {
        ALWAYS => Some(true),
        NEVER => Some(false),
        _ => None,
    }
}

/// The shuffles that squeeze eight 16-bit lanes: entry `k` moves the lanes whose bit is set
/// in `k` to the front, in order (the rest of the register is left as it comes: the next
/// store writes over it, or it lies past what [`convert`] counts).
#[cfg(target_arch = "x86_64")]
static SQUEEZE: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut k = 0;
    while k < 256 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 8 {
            if k & (1 << lane) != 0 {
                t[k][2 * out] = 2 * lane as u8;
                t[k][2 * out + 1] = 2 * lane as u8 + 1;
                out += 1;
            }
            lane += 1;
        }
        k += 1;
    }
    t
};

/// The vector loop runs while this many bytes are left to read and as many characters to
/// write: its widest read and its widest write (32 ASCII bytes); the rest goes a character
/// at a time.
#[cfg(target_arch = "x86_64")]
const VECTOR_FROM: usize = 32;

/// [`transcode`] with AVX2.
///
/// # Safety
/// The CPU has AVX2; `src` and `dst` as [`transcode`] says.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn convert(src: &[u8], dst: *mut u16, room: usize) -> usize {
    use std::arch::x86_64::*;
    let n = src.len();
    let p = src.as_ptr();
    let (mut i, mut o) = (0usize, 0usize);
    let low5 = _mm256_set1_epi16(0x1F);
    let low6 = _mm256_set1_epi16(0x3F);
    let ascii_below = _mm256_set1_epi16(0x80);
    let two_up_to = _mm256_set1_epi16(0xDF);
    let continuation_below = _mm_set1_epi8(-0x40);
    while i + VECTOR_FROM <= n && o + VECTOR_FROM <= room {
        // SAFETY: `i + 32 <= n`.
        let head = unsafe { _mm256_loadu_si256(p.add(i).cast()) };
        if _mm256_movemask_epi8(head) == 0 {
            // SAFETY: `o + 32 <= room` (`VECTOR_FROM`).
            unsafe {
                _mm256_storeu_si256(
                    dst.add(o).cast(),
                    _mm256_cvtepu8_epi16(_mm256_castsi256_si128(head)),
                );
                _mm256_storeu_si256(
                    dst.add(o + 16).cast(),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(head)),
                );
            }
            i += 32;
            o += 32;
            continue;
        }
        // SAFETY: `i + 18 <= n`.
        let (b0, b1, b2) = unsafe {
            (
                _mm_loadu_si128(p.add(i).cast()),
                _mm_loadu_si128(p.add(i + 1).cast()),
                _mm_loadu_si128(p.add(i + 2).cast()),
            )
        };
        let (x0, x1, x2) = (
            _mm256_cvtepu8_epi16(b0),
            _mm256_cvtepu8_epi16(b1),
            _mm256_cvtepu8_epi16(b2),
        );
        // A two-byte lead's character; shifted on by 6 bits with the third byte, a
        // three-byte lead's (whose fifth bit is 0, so the sixteen bits hold it).
        let two = _mm256_or_si256(
            _mm256_slli_epi16::<6>(_mm256_and_si256(x0, low5)),
            _mm256_and_si256(x1, low6),
        );
        let three = _mm256_or_si256(_mm256_slli_epi16::<6>(two), _mm256_and_si256(x2, low6));
        let is_ascii = _mm256_cmpgt_epi16(ascii_below, x0);
        let is_three = _mm256_cmpgt_epi16(x0, two_up_to);
        let chars = _mm256_blendv_epi8(_mm256_blendv_epi8(two, x0, is_ascii), three, is_three);
        let continuation = _mm_movemask_epi8(_mm_cmpgt_epi8(continuation_below, b0)) as u32;
        let keep = !continuation & 0xFFFF;
        let (low, high) = (keep & 0xFF, keep >> 8);
        let halves = [
            (_mm256_castsi256_si128(chars), low),
            (_mm256_extracti128_si256::<1>(chars), high),
        ];
        for (half, k) in halves {
            // SAFETY: `k < 256`.
            let shuffle =
                unsafe { _mm_loadu_si128(SQUEEZE.get_unchecked(k as usize).as_ptr().cast()) };
            // SAFETY: `o + 16 <= room` (the loop's bound, less the first half's 8 or fewer).
            unsafe { _mm_storeu_si128(dst.add(o).cast(), _mm_shuffle_epi8(half, shuffle)) };
            o += k.count_ones() as usize;
        }
        i += 16;
    }
    // The rest, after the continuation bytes of a character the last step finished, a
    // character at a time, by its bits.
    while i < n && (src[i] as i8) < -0x40 {
        i += 1;
    }
    while i < n {
        let lead = u16::from(src[i]);
        let (c, len) = if lead < 0x80 {
            (lead, 1)
        } else if lead < 0xE0 {
            ((lead & 0x1F) << 6 | u16::from(src[i + 1] & 0x3F), 2)
        } else {
            let c = (lead & 0x0F) << 12 | u16::from(src[i + 1] & 0x3F) << 6;
            (c | u16::from(src[i + 2] & 0x3F), 3)
        };
        assert!(o < room, "vutf8: more characters than measured");
        // SAFETY: `o < room`.
        unsafe { dst.add(o).write(c) };
        o += 1;
        i += len;
    }
    o
}
