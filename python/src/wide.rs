//! Valid UTF-8 into the characters of a PEP 393 string of two or four bytes a character
//! (UCS-2, UCS-4) with AVX2: Cyrillic, Greek, CJK and mostly ASCII text with a character
//! beyond Latin-1 into UCS-2, on every CPU with AVX2 (faster than simdutf's conversions into
//! UTF-16, its AVX2 one, which takes 12 bytes a step through a table of 12-bit patterns, and
//! its AVX-512 one); text with a character above U+FFFF (emoji, and the text that `replace`
//! and `surrogateescape` make of random bytes) into UCS-4 where simdutf has no AVX-512
//! kernel to run.
//!
//! Each step takes 16 bytes: each byte that starts a character becomes its code point in a
//! lane, computed from it and the bytes after it (read by more loads one, two and three
//! bytes further) as an ASCII byte or a lead of two, three or four bytes says; the lanes of
//! continuation bytes are then squeezed out, eight lanes at a time, by a shuffle from a
//! table of the 256 patterns of eight lanes (a byte shuffle of 16-bit lanes; a permutation
//! of 32-bit lanes). A character that starts near the end of a step is finished from the
//! next bytes; the next step drops those. 32 ASCII bytes at once are widened with no
//! shuffle.
//!
//! The conversions trust their input: valid UTF-8 (lone surrogates allowed, as WTF-8), of
//! characters that fit. The measurements are in docs/PYTHON.md ("The transcoder").
//!
//! Next: `decode.rs`, which chooses between these, simdutf and its own loop (`fill_valid`,
//! `loop_takes_sparse`).

/// Whether the conversions run as the CPU decides (`converts`), or, for the tests
/// (`_convert_avx2`), everywhere or nowhere.
static MODE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(AUTO);

/// [`MODE`]: as the CPU decides (`converts`).
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

/// Whether [`ucs2`] converts (else the caller converts another way): wherever the CPU has
/// AVX2, unless [`MODE`] says never. It is faster than simdutf's AVX-512 conversion into
/// UTF-16 too (docs/PYTHON.md, "The transcoder").
#[inline]
pub(crate) fn active() -> bool {
    converts(true)
}

/// Whether a conversion runs: [`MODE`], and the CPU's AVX2; by default into UCS-2
/// (`ucs2`) wherever it has AVX2, into UCS-4 where simdutf has no AVX-512 kernel to run,
/// whose conversion into UTF-32 is faster.
#[inline]
fn converts(ucs2: bool) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let wanted = match MODE.load(std::sync::atomic::Ordering::Relaxed) {
            AUTO => ucs2 || !simdutf_avx512(),
            ALWAYS => true,
            _ => false,
        };
        wanted && std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = ucs2;
        false
    }
}

/// Converts valid `src` into UCS-2 at `dst`, which has room for `room` characters, where
/// [`active`] says so; returns the characters written, or `None` when the caller is to
/// convert it another way.
///
/// # Safety
/// `src` is valid UTF-8 (lone surrogates allowed) without a sequence of four bytes; `dst`
/// is valid for `room` characters, exactly its characters.
#[inline]
pub(crate) unsafe fn ucs2(src: &[u8], dst: *mut u16, room: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if converts(true) {
        // SAFETY: the CPU has AVX2 (`converts`); the rest by the caller's promise.
        return Some(unsafe { to_ucs2(src, dst, room) });
    }
    let _ = (src, dst, room);
    None
}

/// [`ucs2`] into UCS-4, where `converts` says so.
///
/// # Safety
/// `src` is valid UTF-8 (lone surrogates allowed); `dst` is valid for `room` characters,
/// exactly its characters.
#[inline]
pub(crate) unsafe fn ucs4(src: &[u8], dst: *mut u32, room: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if converts(false) {
        // SAFETY: the CPU has AVX2 (`converts`); the rest by the caller's promise.
        return Some(unsafe { to_ucs4(src, dst, room) });
    }
    let _ = (src, dst, room);
    None
}

/// For the tests of both ways of converting into UCS-2 and UCS-4 on any CPU:
/// `_convert_avx2(True)` uses this file's wherever the CPU has AVX2, `_convert_avx2(False)`
/// never, `_convert_avx2(None)` lets the CPU decide (the default); returns the setting
/// after the call (`None`: the CPU decides).
#[pyo3::pyfunction]
#[pyo3(signature = (on = None))]
pub fn _convert_avx2(on: Option<bool>) -> Option<bool> {
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

/// The lanes of eight whose bit is set in `k`, in order, then `0x80` (a lane a byte shuffle
/// zeroes): what every table that squeezes lanes out (here, and `latin1.rs`) is made of.
#[cfg(target_arch = "x86_64")]
pub(crate) const fn kept_lanes(k: usize) -> [u8; 8] {
    let mut lanes = [0x80u8; 8];
    let (mut out, mut lane) = (0, 0);
    while lane < 8 {
        if k & (1 << lane) != 0 {
            lanes[out] = lane as u8;
            out += 1;
        }
        lane += 1;
    }
    lanes
}

/// The shuffles that squeeze eight 16-bit lanes: entry `k` moves the lanes whose bit is set
/// in `k` to the front, in order ([`kept_lanes`]; the rest of the register is zero: the
/// next store writes over it, or it lies past what the conversion counts).
#[cfg(target_arch = "x86_64")]
static SQUEEZE16: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut k = 0;
    while k < 256 {
        let lanes = kept_lanes(k);
        let mut j = 0;
        while j < 8 && lanes[j] != 0x80 {
            t[k][2 * j] = 2 * lanes[j];
            t[k][2 * j + 1] = 2 * lanes[j] + 1;
            j += 1;
        }
        k += 1;
    }
    t
};

/// [`SQUEEZE16`] for eight 32-bit lanes: the permutation's lane numbers (lane 0 where none
/// is kept).
#[cfg(target_arch = "x86_64")]
static SQUEEZE32: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut k = 0;
    while k < 256 {
        let lanes = kept_lanes(k);
        let mut j = 0;
        while j < 8 && lanes[j] != 0x80 {
            t[k][j] = lanes[j] as u32;
            j += 1;
        }
        k += 1;
    }
    t
};

/// The vector loops run while this many bytes are left to read and as many characters to
/// write: their widest read and their widest write (32 ASCII bytes); the rest goes a
/// character at a time ([`rest`]).
#[cfg(target_arch = "x86_64")]
const VECTOR_FROM: usize = 32;

/// [`ucs2`] with AVX2.
///
/// # Safety
/// The CPU has AVX2; `src`, `dst` and `room` as [`ucs2`] says.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn to_ucs2(src: &[u8], dst: *mut u16, room: usize) -> usize {
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
                unsafe { _mm_loadu_si128(SQUEEZE16.get_unchecked(k as usize).as_ptr().cast()) };
            // SAFETY: `o + 16 <= room` (the loop's bound, less the first half's 8 or fewer).
            unsafe { _mm_storeu_si128(dst.add(o).cast(), _mm_shuffle_epi8(half, shuffle)) };
            o += k.count_ones() as usize;
        }
        i += 16;
    }
    // SAFETY: by the caller's promise.
    unsafe { rest(src, i, dst, o, room, |c| c as u16) }
}

/// [`ucs4`] with AVX2: [`to_ucs2`]'s steps in 32-bit lanes, eight bytes a register.
///
/// # Safety
/// The CPU has AVX2; `src`, `dst` and `room` as [`ucs4`] says.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn to_ucs4(src: &[u8], dst: *mut u32, room: usize) -> usize {
    use std::arch::x86_64::*;
    let n = src.len();
    let p = src.as_ptr();
    let (mut i, mut o) = (0usize, 0usize);
    let low5 = _mm256_set1_epi32(0x1F);
    let low6 = _mm256_set1_epi32(0x3F);
    let max = _mm256_set1_epi32(0x1F_FFFF);
    let ascii_below = _mm256_set1_epi32(0x80);
    let two_below = _mm256_set1_epi32(0xE0);
    let three_below = _mm256_set1_epi32(0xF0);
    let continuation_below = _mm_set1_epi8(-0x40);
    // Eight bytes from `at`, one a 32-bit lane.
    let widened = |at: usize| {
        // SAFETY: the caller reads within the input (below).
        _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(p.add(at).cast()) })
    };
    while i + VECTOR_FROM <= n && o + VECTOR_FROM <= room {
        // SAFETY: `i + 32 <= n`.
        let head = unsafe { _mm256_loadu_si256(p.add(i).cast()) };
        if _mm256_movemask_epi8(head) == 0 {
            for k in 0..4 {
                // SAFETY: `o + 32 <= room` (`VECTOR_FROM`); the 8 bytes are in `head`.
                unsafe { _mm256_storeu_si256(dst.add(o + 8 * k).cast(), widened(i + 8 * k)) };
            }
            i += 32;
            o += 32;
            continue;
        }
        // SAFETY: `i + 16 <= n`.
        let b0 = unsafe { _mm_loadu_si128(p.add(i).cast()) };
        let continuation = _mm_movemask_epi8(_mm_cmpgt_epi8(continuation_below, b0)) as u32;
        let keep = !continuation & 0xFFFF;
        for half in 0..2 {
            let at = i + 8 * half;
            // Bytes up to `at + 10 < i + 32 <= n`.
            let (x0, x1, x2, x3) = (
                widened(at),
                widened(at + 1),
                widened(at + 2),
                widened(at + 3),
            );
            // A two-byte lead's character; shifted on by 6 bits with the next byte, a
            // three-byte lead's, and again a four-byte lead's (whose lead's fifth bit, set,
            // lands above the 21 bits and is cut off).
            let two = _mm256_or_si256(
                _mm256_slli_epi32::<6>(_mm256_and_si256(x0, low5)),
                _mm256_and_si256(x1, low6),
            );
            let three = _mm256_or_si256(_mm256_slli_epi32::<6>(two), _mm256_and_si256(x2, low6));
            let four = _mm256_and_si256(
                _mm256_or_si256(_mm256_slli_epi32::<6>(three), _mm256_and_si256(x3, low6)),
                max,
            );
            let chars = _mm256_blendv_epi8(four, three, _mm256_cmpgt_epi32(three_below, x0));
            let chars = _mm256_blendv_epi8(chars, two, _mm256_cmpgt_epi32(two_below, x0));
            let chars = _mm256_blendv_epi8(chars, x0, _mm256_cmpgt_epi32(ascii_below, x0));
            let k = (keep >> (8 * half)) & 0xFF;
            // SAFETY: `k < 256`.
            let lanes =
                unsafe { _mm256_loadu_si256(SQUEEZE32.get_unchecked(k as usize).as_ptr().cast()) };
            // SAFETY: `o + 16 <= room` (the loop's bound, less the first half's 8 or fewer).
            unsafe {
                _mm256_storeu_si256(dst.add(o).cast(), _mm256_permutevar8x32_epi32(chars, lanes))
            };
            o += k.count_ones() as usize;
        }
        i += 16;
    }
    // SAFETY: by the caller's promise.
    unsafe { rest(src, i, dst, o, room, |c| c) }
}

/// The end of a conversion from byte `i` and character `o` on, a character at a time by
/// its bits, after the continuation bytes of a character the vector steps finished;
/// returns the characters written in all. A character that would not fit `room` panics.
///
/// # Safety
/// `src` is valid UTF-8 (lone surrogates allowed) whose characters fit `T` (`of` makes
/// one); `dst` is valid for `room` characters.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn rest<T>(
    src: &[u8],
    mut i: usize,
    dst: *mut T,
    mut o: usize,
    room: usize,
    of: impl Fn(u32) -> T,
) -> usize {
    let n = src.len();
    while i < n && (src[i] as i8) < -0x40 {
        i += 1;
    }
    while i < n {
        let lead = u32::from(src[i]);
        let next = |k: usize| u32::from(src[i + k] & 0x3F);
        let (c, len) = match lead {
            0..=0x7F => (lead, 1),
            0x80..=0xDF => ((lead & 0x1F) << 6 | next(1), 2),
            0xE0..=0xEF => ((lead & 0x0F) << 12 | next(1) << 6 | next(2), 3),
            _ => (
                (lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3),
                4,
            ),
        };
        assert!(o < room, "vutf8: more characters than measured");
        // SAFETY: `o < room`.
        unsafe { dst.add(o).write(of(c)) };
        o += 1;
        i += len;
    }
    o
}
