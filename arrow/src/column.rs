//! The input side of every kernel: an Arrow array of bytes in one of its three layouts, and
//! the verdict (valid UTF-8 or not) of each of its rows.
//!
//! String arrays are taken as the binary arrays they share their buffers with (no copy):
//! Arrow promises they are valid, but an array built with `new_unchecked` may not be, and
//! Spark's functions check strings too. So `Utf8` is read as `Binary`, `LargeUtf8` as
//! `LargeBinary` and `Utf8View` as `BinaryView`, and each produces what its binary
//! counterpart produces.

use arrow_array::cast::AsArray;
use arrow_array::{Array, BinaryViewArray, GenericBinaryArray, OffsetSizeTrait};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer};
use arrow_data::{ByteView, MAX_INLINE_VIEW_LEN};
use arrow_schema::DataType;

use crate::error::Utf8ArrayError;
use vutf8::records::{Offset, RangeMap};

/// The longest value a view holds inline, in the view itself (Arrow's layout).
pub(crate) const MAX_INLINE: usize = MAX_INLINE_VIEW_LEN as usize;

/// An array of bytes, in one of Arrow's three layouts.
#[derive(Clone, Debug)]
pub(crate) enum ByteColumn {
    /// `Binary` (or `Utf8`): 32-bit offsets into one values buffer.
    Offsets32(GenericBinaryArray<i32>),
    /// `LargeBinary` (or `LargeUtf8`): 64-bit offsets.
    Offsets64(GenericBinaryArray<i64>),
    /// `BinaryView` (or `Utf8View`): 16-byte views, inline or into data buffers.
    Views(BinaryViewArray),
}

impl ByteColumn {
    /// The array as bytes, or an error naming its type if it holds neither bytes nor text.
    pub(crate) fn of(array: &dyn Array) -> Result<Self, Utf8ArrayError> {
        Ok(match array.data_type() {
            DataType::Binary => Self::Offsets32(array.as_binary::<i32>().clone()),
            DataType::LargeBinary => Self::Offsets64(array.as_binary::<i64>().clone()),
            DataType::BinaryView => Self::Views(array.as_binary_view().clone()),
            DataType::Utf8 => Self::Offsets32(array.as_string::<i32>().clone().into()),
            DataType::LargeUtf8 => Self::Offsets64(array.as_string::<i64>().clone().into()),
            DataType::Utf8View => Self::Views(array.as_string_view().clone().to_binary_view()),
            other => return Err(Utf8ArrayError::UnsupportedType(other.clone())),
        })
    }

    /// The number of rows.
    pub(crate) fn len(&self) -> usize {
        match self {
            Self::Offsets32(a) => a.len(),
            Self::Offsets64(a) => a.len(),
            Self::Views(a) => a.len(),
        }
    }

    /// The null rows.
    pub(crate) fn nulls(&self) -> Option<&NullBuffer> {
        match self {
            Self::Offsets32(a) => a.nulls(),
            Self::Offsets64(a) => a.nulls(),
            Self::Views(a) => a.nulls(),
        }
    }

    /// Whether row `i` is null.
    pub(crate) fn is_null(&self, i: usize) -> bool {
        self.nulls().is_some_and(|n| n.is_null(i))
    }

    /// The bytes of row `i` (whatever a null row holds).
    pub(crate) fn value(&self, i: usize) -> &[u8] {
        match self {
            Self::Offsets32(a) => a.value(i),
            Self::Offsets64(a) => a.value(i),
            Self::Views(a) => a.value(i),
        }
    }

    /// For each row, null or not, whether its bytes are valid UTF-8: one vutf8 pass over
    /// each buffer, then a constant-time rule per row (see [`vutf8::records::RangeMap`]).
    pub(crate) fn verdicts(&self) -> Verdicts {
        let valid = match self {
            Self::Offsets32(a) => offset_verdicts(a),
            Self::Offsets64(a) => offset_verdicts(a),
            Self::Views(a) => view_verdicts(a),
        };
        Verdicts { valid }
    }
}

/// Which rows hold valid UTF-8 (null rows included: their bytes matter to Arrow, which
/// requires a string array's whole values buffer to be valid).
#[derive(Clone, Debug)]
pub(crate) struct Verdicts {
    pub(crate) valid: BooleanBuffer,
}

impl Verdicts {
    /// Every row valid, null rows included.
    pub(crate) fn all_valid(&self) -> bool {
        self.valid.count_set_bits() == self.valid.len()
    }

    /// Whether row `i` is valid.
    #[inline]
    pub(crate) fn is_valid(&self, i: usize) -> bool {
        self.valid.value(i)
    }

    /// The first row that is invalid and not null.
    pub(crate) fn first_invalid(&self, nulls: Option<&NullBuffer>) -> Option<usize> {
        (0..self.valid.len()).find(|&i| !self.valid.value(i) && nulls.is_none_or(|n| n.is_valid(i)))
    }
}

/// Offset layouts: the bytes the rows cover, `values[offsets[0]..offsets[len]]`, are
/// searched once; then each row is two byte tests (and a search of the error list when
/// there were errors), in the core's loop over the offsets
/// ([`vutf8::records::verdict_bits`], a group of rows at a time while their bytes are in
/// the cache).
fn offset_verdicts<O: OffsetSizeTrait + Offset>(array: &GenericBinaryArray<O>) -> BooleanBuffer {
    if array.is_empty() {
        // (An empty slice may come with a values buffer that ends before its one offset,
        // as from Arrow's C interface.)
        return BooleanBuffer::new_unset(0);
    }
    let mut words = vec![0u64; array.len().div_ceil(64)];
    if vutf8::records::verdict_bits(array.value_data(), array.value_offsets(), &mut words).is_err()
    {
        // Offsets out of order or past the values: no row's bytes can be read. (Arrow's
        // own arrays never have them; one imported unchecked could.)
        return BooleanBuffer::new_unset(array.len());
    }
    BooleanBuffer::new(Buffer::from_vec(words), 0, array.len())
}

/// View layouts: inline values (at most 12 bytes) are checked where they lie; each data
/// buffer a view points into is searched once, when first needed.
fn view_verdicts(array: &BinaryViewArray) -> BooleanBuffer {
    let views = array.views();
    let buffers = array.data_buffers();
    let mut maps: Vec<Option<RangeMap<'_>>> = (0..buffers.len()).map(|_| None).collect();
    BooleanBuffer::collect_bool(array.len(), |i| {
        let view = views[i];
        let len = view as u32 as usize;
        if len <= MAX_INLINE {
            // The bytes follow the 4-byte length; ASCII if no high bit is set in them.
            let data = view >> 32;
            if data & 0x8080_8080_8080_8080_8080_8080 == 0 {
                return true;
            }
            let bytes = view.to_le_bytes();
            return vutf8::is_valid(&bytes[4..4 + len]);
        }
        let view = ByteView::from(view);
        let index = view.buffer_index as usize;
        let buffer = buffers[index].as_slice();
        let map = maps[index].get_or_insert_with(|| RangeMap::new(buffer));
        let start = view.offset as usize;
        match map.text() {
            Some(text) => text.is_char_boundary(start) && text.is_char_boundary(start + len),
            None => map.is_valid(start..start + len),
        }
    })
}
