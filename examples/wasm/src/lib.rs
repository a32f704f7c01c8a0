//! vutf8 for JavaScript: a WebAssembly module (built for `wasm32-unknown-unknown` with
//! `+simd128` by `scripts/wasm-compare.sh`) that exports
//!
//! - `alloc(len) -> ptr` and `dealloc(ptr, len)`: a buffer in the module's memory, for
//!   JavaScript to copy bytes into (`new Uint8Array(memory.buffer, ptr, len).set(bytes)`);
//!   allocating may grow the memory, which detaches earlier views of `memory.buffer`;
//! - `validate(ptr, len) -> i32`: 1 if the `len` bytes at `ptr` are valid UTF-8, else 0;
//! - `valid_up_to(ptr, len) -> i32`: -1 if they are valid, else the length of the longest
//!   valid prefix (`Utf8Error::valid_up_to`);
//! - `backend() -> i32`: 1 when the simd128 backend was compiled in, 0 for the scalar one.
//!
//! Lengths and positions are `i32` because wasm32 memory is at most 4 GiB and JavaScript
//! numbers hold them exactly; inputs are far smaller than 2 GiB here.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

/// The bytes `ptr..ptr + len` as a slice.
///
/// # Safety
/// `ptr` was returned by [`alloc`] for at least `len` bytes (or `len` is 0), and the bytes
/// are initialized.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller guarantees `len` initialized bytes at `ptr`, inside one allocation.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

/// A buffer of `len` bytes (zeroed) in the module's memory; free it with [`dealloc`].
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut v: Vec<u8> = Vec::new();
    v.resize(len.max(1), 0);
    let ptr = v.as_mut_ptr();
    core::mem::forget(v);
    ptr
}

/// Frees a buffer returned by [`alloc`] with the same `len`.
///
/// # Safety
/// `ptr` and `len` come from one call of [`alloc`], and the buffer is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    let cap = len.max(1);
    // SAFETY: `alloc` made this vector with exactly this length and capacity and forgot it.
    drop(unsafe { Vec::from_raw_parts(ptr, cap, cap) });
}

/// 1 if the `len` bytes at `ptr` are valid UTF-8, else 0.
///
/// # Safety
/// `ptr` is a buffer from [`alloc`] of at least `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn validate(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: the caller's guarantee.
    vutf8::is_valid(unsafe { bytes(ptr, len) }) as i32
}

/// -1 if the `len` bytes at `ptr` are valid UTF-8, else the length of the longest valid
/// prefix.
///
/// # Safety
/// `ptr` is a buffer from [`alloc`] of at least `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn valid_up_to(ptr: *const u8, len: usize) -> i32 {
    // SAFETY: the caller's guarantee.
    match vutf8::from_utf8(unsafe { bytes(ptr, len) }) {
        Ok(_) => -1,
        Err(e) => e.valid_up_to() as i32,
    }
}

/// 1 when the simd128 backend is the one in use, 0 when it is the scalar one.
#[no_mangle]
pub extern "C" fn backend() -> i32 {
    (vutf8::Backend::selected() == vutf8::Backend::Simd128) as i32
}
