//! Checking the service addresses a user types in the app's settings, so a typo gets
//! a clear message before it is saved rather than a failed request later.

use thiserror::Error;

/// Which of the two service addresses is being checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressKind {
    /// The Download Service base address (ends in `/v1`).
    ApiBase,
    /// The token endpoint (ends in `/oauth2/token/v1`).
    TokenUrl,
}

impl AddressKind {
    /// The path ending the spec gives this address.
    pub fn ending(self) -> &'static str {
        match self {
            AddressKind::ApiBase => "/v1",
            AddressKind::TokenUrl => "/oauth2/token/v1",
        }
    }

    /// A well-formed example, for hints and messages.
    pub fn example(self) -> &'static str {
        match self {
            AddressKind::ApiBase => "https://example.com/downloads/v1",
            AddressKind::TokenUrl => "https://example.com/oauth2/token/v1",
        }
    }
}

/// Why a typed address cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AddressError {
    #[error("Enter an address.")]
    Empty,
    #[error("Start the address with http:// or https://.")]
    Scheme,
    #[error("Add the server's name after the //, as in {example}.")]
    NoHost { example: &'static str },
    #[error("Remove the spaces from the address.")]
    Spaces,
    #[error(
        "Leave the user name and password out of the address: sign in on the data packages page instead."
    )]
    Credentials,
    #[error("Leave out the part from '{0}' on: the app adds its own query.")]
    QueryOrFragment(char),
    #[error("The address must end in {ending}, as in {example}.")]
    Ending {
        ending: &'static str,
        example: &'static str,
    },
}

/// Checks a typed address and returns it tidied (trimmed, no trailing `/`).
pub fn check_address(input: &str, kind: AddressKind) -> Result<String, AddressError> {
    let address = input.trim().trim_end_matches('/');
    if address.is_empty() {
        return Err(AddressError::Empty);
    }
    if address.chars().any(char::is_whitespace) {
        return Err(AddressError::Spaces);
    }
    let rest = ["http://", "https://"]
        .into_iter()
        .find_map(|scheme| {
            let prefix = address.get(..scheme.len())?;
            prefix
                .eq_ignore_ascii_case(scheme)
                .then(|| &address[scheme.len()..])
        })
        .ok_or(AddressError::Scheme)?;
    if let Some(mark) = address.chars().find(|c| matches!(c, '?' | '#')) {
        return Err(AddressError::QueryOrFragment(mark));
    }
    let authority = rest.split('/').next().unwrap_or_default();
    if authority.contains('@') {
        return Err(AddressError::Credentials);
    }
    if authority.is_empty() || authority.starts_with(':') {
        return Err(AddressError::NoHost {
            example: kind.example(),
        });
    }
    if !address.ends_with(kind.ending()) || !rest.contains('/') {
        return Err(AddressError::Ending {
            ending: kind.ending(),
            example: kind.example(),
        });
    }
    Ok(address.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use AddressKind::{ApiBase, TokenUrl};

    #[test]
    fn good_addresses_are_tidied() {
        assert_eq!(
            check_address("  https://api.example.com/downloads/v1/ ", ApiBase),
            Ok("https://api.example.com/downloads/v1".to_owned())
        );
        assert_eq!(
            check_address("HTTP://127.0.0.1:8080/oauth2/token/v1", TokenUrl),
            Ok("HTTP://127.0.0.1:8080/oauth2/token/v1".to_owned())
        );
    }

    #[test]
    fn bad_addresses_say_what_to_fix() {
        let cases = [
            ("", AddressError::Empty),
            ("   ", AddressError::Empty),
            ("example.com/downloads/v1", AddressError::Scheme),
            ("ftp://example.com/downloads/v1", AddressError::Scheme),
            ("https://exa mple.com/v1", AddressError::Spaces),
            (
                "https:///downloads/v1",
                AddressError::NoHost {
                    example: ApiBase.example(),
                },
            ),
            (
                "https://:8080/downloads/v1",
                AddressError::NoHost {
                    example: ApiBase.example(),
                },
            ),
            ("https://me:pw@example.com/v1", AddressError::Credentials),
            (
                "https://example.com/v1?key=x",
                AddressError::QueryOrFragment('?'),
            ),
            (
                "https://example.com/downloads",
                AddressError::Ending {
                    ending: "/v1",
                    example: ApiBase.example(),
                },
            ),
        ];
        for (input, error) in cases {
            assert_eq!(check_address(input, ApiBase), Err(error), "{input:?}");
        }
        assert!(matches!(
            check_address("https://example.com/downloads/v1", TokenUrl),
            Err(AddressError::Ending { .. })
        ));
        // A host that happens to end in the path ending is still missing the path.
        assert!(matches!(
            check_address("https://v1", ApiBase),
            Err(AddressError::Ending { .. })
        ));
    }

    #[test]
    fn messages_read_as_advice() {
        let error = check_address("https://example.com", TokenUrl).unwrap_err();
        assert_eq!(
            error.to_string(),
            "The address must end in /oauth2/token/v1, as in https://example.com/oauth2/token/v1."
        );
    }
}
