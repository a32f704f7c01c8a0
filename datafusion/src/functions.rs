//! DataFusion scalar functions: Spark 4's four UTF-8 functions and two of vutf8's own, over
//! the [`crate::kernels`].
//!
//! | SQL | result | Spark 4 |
//! |---|---|---|
//! | `is_valid_utf8(x)` | `BOOLEAN` | same |
//! | `make_valid_utf8(x)` | string, invalid parts replaced by U+FFFD | same |
//! | `validate_utf8(x)` | string, or a query error naming the row, offset and reason | same (Spark's error class `INVALID_UTF8_STRING`) |
//! | `try_validate_utf8(x)` | string, `NULL` when invalid | same |
//! | `utf8_error_offset(x)` | `BIGINT`: the byte offset of the first error (std's `valid_up_to`), `NULL` when valid | vutf8's |
//! | `utf8_error_reason(x)` | string: why, e.g. `overlong encoding`; `NULL` when valid | vutf8's |
//!
//! `x` is `Binary`, `LargeBinary`, `BinaryView` or a string type; `NULL` in gives `NULL`
//! out. Any other type is a planning error naming the function and the type; a wrong
//! number of arguments is a planning error too. Where these differ from the
//! Spark-compatible functions that ship with DataFusion (`datafusion-spark`), they follow
//! Spark: see `docs/DATAFUSION.md`.

use std::sync::Arc;

use arrow::array::{Array, ArrayRef};
use arrow::datatypes::{DataType, Field, FieldRef};
use datafusion::common::{plan_err, Result, ScalarValue};
use datafusion::error::DataFusionError;
use datafusion::logical_expr::{
    ColumnarValue, ReturnFieldArgs, ScalarFunctionArgs, ScalarUDF, ScalarUDFImpl, Signature,
    Volatility,
};

use vutf8_arrow::{kernels, Utf8ArrayError};

/// The six functions, by what they compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Utf8Function {
    /// `is_valid_utf8`
    IsValid,
    /// `make_valid_utf8`
    MakeValid,
    /// `validate_utf8`
    Validate,
    /// `try_validate_utf8`
    TryValidate,
    /// `utf8_error_offset`
    ErrorOffset,
    /// `utf8_error_reason`
    ErrorReason,
}

impl Utf8Function {
    /// All of them.
    pub const ALL: [Utf8Function; 6] = [
        Utf8Function::IsValid,
        Utf8Function::MakeValid,
        Utf8Function::Validate,
        Utf8Function::TryValidate,
        Utf8Function::ErrorOffset,
        Utf8Function::ErrorReason,
    ];

    /// The SQL name.
    pub const fn name(self) -> &'static str {
        match self {
            Utf8Function::IsValid => "is_valid_utf8",
            Utf8Function::MakeValid => "make_valid_utf8",
            Utf8Function::Validate => "validate_utf8",
            Utf8Function::TryValidate => "try_validate_utf8",
            Utf8Function::ErrorOffset => "utf8_error_offset",
            Utf8Function::ErrorReason => "utf8_error_reason",
        }
    }

    /// The function, ready to register.
    pub fn udf(self) -> ScalarUDF {
        ScalarUDF::new_from_impl(Utf8Udf::new(self))
    }

    /// The result type for an argument of type `arg`.
    fn return_type_for(self, arg: &DataType) -> DataType {
        match self {
            Utf8Function::IsValid => DataType::Boolean,
            Utf8Function::ErrorOffset => DataType::Int64,
            Utf8Function::ErrorReason => DataType::Utf8,
            Utf8Function::MakeValid | Utf8Function::Validate | Utf8Function::TryValidate => {
                string_type_for(arg)
            }
        }
    }

    /// Runs the kernel over one array.
    fn run(self, array: &dyn Array) -> std::result::Result<ArrayRef, Utf8ArrayError> {
        Ok(match self {
            Utf8Function::IsValid => Arc::new(kernels::is_valid_utf8(array)?),
            Utf8Function::MakeValid => kernels::make_valid_utf8(array)?,
            Utf8Function::Validate => kernels::validate_utf8(array)?,
            Utf8Function::TryValidate => kernels::try_validate_utf8(array)?,
            Utf8Function::ErrorOffset => Arc::new(kernels::utf8_error_offsets(array)?),
            Utf8Function::ErrorReason => Arc::new(kernels::utf8_error_reasons(array)?),
        })
    }
}

/// The string type a byte type is validated into.
fn string_type_for(arg: &DataType) -> DataType {
    match arg {
        DataType::LargeBinary | DataType::LargeUtf8 => DataType::LargeUtf8,
        DataType::BinaryView | DataType::Utf8View => DataType::Utf8View,
        _ => DataType::Utf8,
    }
}

/// Whether the functions take `t` as it is.
fn is_bytes(t: &DataType) -> bool {
    matches!(
        t,
        DataType::Binary
            | DataType::LargeBinary
            | DataType::BinaryView
            | DataType::Utf8
            | DataType::LargeUtf8
            | DataType::Utf8View
    )
}

/// One of the six functions as a DataFusion scalar UDF.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Utf8Udf {
    function: Utf8Function,
    signature: Signature,
}

impl Utf8Udf {
    /// The UDF of `function`.
    pub fn new(function: Utf8Function) -> Self {
        Utf8Udf {
            function,
            signature: Signature::user_defined(Volatility::Immutable),
        }
    }
}

impl ScalarUDFImpl for Utf8Udf {
    fn name(&self) -> &str {
        self.function.name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let name = self.name();
        match arg_types {
            [t] if is_bytes(t) => Ok(vec![t.clone()]),
            // An untyped NULL literal: checked as an (empty) binary value.
            [DataType::Null] => Ok(vec![DataType::Binary]),
            [t] => plan_err!(
                "{name} expects a binary or string argument (Binary, LargeBinary, BinaryView, \
                 Utf8, LargeUtf8, Utf8View), got {t}"
            ),
            _ => plan_err!(
                "{name} takes exactly 1 argument (binary or string), got {}",
                arg_types.len()
            ),
        }
    }

    fn return_type(&self, arg_types: &[DataType]) -> Result<DataType> {
        match arg_types {
            [t] => Ok(self.function.return_type_for(t)),
            _ => plan_err!("{} takes exactly 1 argument", self.name()),
        }
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs) -> Result<FieldRef> {
        let [arg] = args.arg_fields else {
            return plan_err!("{} takes exactly 1 argument", self.name());
        };
        let nullable = match self.function {
            Utf8Function::IsValid | Utf8Function::MakeValid | Utf8Function::Validate => {
                arg.is_nullable()
            }
            _ => true,
        };
        Ok(Arc::new(Field::new(
            self.name(),
            self.function.return_type_for(arg.data_type()),
            nullable,
        )))
    }

    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let [arg] = args.args.as_slice() else {
            return plan_err!("{} takes exactly 1 argument", self.name());
        };
        let run = |array: &dyn Array| -> Result<ArrayRef> {
            self.function.run(array).map_err(|e| match e {
                Utf8ArrayError::InvalidRow(row) if self.function == Utf8Function::Validate => {
                    DataFusionError::Execution(format!(
                        "[INVALID_UTF8_STRING] validate_utf8: {row} (rows are counted from 0 \
                         within each record batch)"
                    ))
                }
                other @ Utf8ArrayError::UnsupportedType(_) => {
                    DataFusionError::Plan(other.to_string()).context(self.name())
                }
                other => DataFusionError::Execution(other.to_string()).context(self.name()),
            })
        };
        match arg {
            ColumnarValue::Array(array) => Ok(ColumnarValue::Array(run(array.as_ref())?)),
            ColumnarValue::Scalar(scalar) => {
                let array = scalar.to_array_of_size(1)?;
                let result = run(array.as_ref())?;
                Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(
                    result.as_ref(),
                    0,
                )?))
            }
        }
    }
}

/// The six functions, as UDFs.
pub fn all() -> Vec<Arc<ScalarUDF>> {
    Utf8Function::ALL
        .into_iter()
        .map(|f| Arc::new(f.udf()))
        .collect()
}
