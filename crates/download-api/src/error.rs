use thiserror::Error;

/// Why a value sent to or by the service could not be understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// A boolean query parameter had a value other than none, `true` or `false`.
    #[error("query parameter '{name}' must be empty, 'true' or 'false', not '{value}'")]
    InvalidFlag { name: String, value: String },
    /// A query string was not valid percent-encoded UTF-8.
    #[error("query parameter '{name}' is not valid UTF-8 once decoded")]
    InvalidEncoding { name: String },
}
