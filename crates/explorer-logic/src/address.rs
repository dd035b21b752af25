//! Where the Download Service is: the app's origin by default, overridden by the
//! deployer's `config.json`, then by the user's settings. And checking the addresses
//! a user types there, so a typo gets a clear message before it is saved rather than
//! a failed request later.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::text::t;

/// Where the user's choice of service is kept (localStorage).
pub const SAVED_SERVICE_KEY: &str = "download-explorer.service";
/// The deployer's choice of service: a file beside the app.
pub const DEPLOYED_CONFIG_FILE: &str = "config.json";

/// The two addresses the app talks to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceConfig {
    /// Base address of the Download Service, ending in `/v1`.
    pub api_base: String,
    /// Address of the token endpoint, ending in `/oauth2/token/v1`.
    pub token_url: String,
}

/// The deployer's overrides in `config.json`; each field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeployedConfig {
    pub api_base: Option<String>,
    pub token_url: Option<String>,
}

impl ServiceConfig {
    /// The addresses of a service served from `origin` (as our server does).
    pub fn for_origin(origin: &str) -> Self {
        let origin = origin.trim_end_matches('/');
        ServiceConfig {
            api_base: format!("{origin}/downloads/v1"),
            token_url: format!("{origin}/oauth2/token/v1"),
        }
    }

    /// The deployer's defaults: the origin's addresses, overridden by `config.json`.
    pub fn deployed(origin: &str, deployed: Option<DeployedConfig>) -> Self {
        let config = ServiceConfig::for_origin(origin);
        let Some(deployed) = deployed else {
            return config;
        };
        ServiceConfig {
            api_base: deployed.api_base.unwrap_or(config.api_base),
            token_url: deployed.token_url.unwrap_or(config.token_url),
        }
    }
}

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
    #[error("{}", t::errors::address_empty())]
    Empty,
    #[error("{}", t::errors::address_scheme())]
    Scheme,
    #[error("{}", t::errors::address_no_host(example))]
    NoHost { example: &'static str },
    #[error("{}", t::errors::address_spaces())]
    Spaces,
    #[error("{}", t::errors::address_credentials())]
    Credentials,
    #[error("{}", t::errors::address_query(.0))]
    QueryOrFragment(char),
    #[error("{}", t::errors::address_ending(ending, example))]
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
    fn config_json_overrides_the_origin_field_by_field() {
        let origin = "https://maps.example/";
        assert_eq!(
            ServiceConfig::deployed(origin, None),
            ServiceConfig {
                api_base: "https://maps.example/downloads/v1".into(),
                token_url: "https://maps.example/oauth2/token/v1".into(),
            }
        );
        let only_api = DeployedConfig {
            api_base: Some("https://api.example/v1".into()),
            token_url: None,
        };
        assert_eq!(
            ServiceConfig::deployed(origin, Some(only_api)),
            ServiceConfig {
                api_base: "https://api.example/v1".into(),
                token_url: "https://maps.example/oauth2/token/v1".into(),
            }
        );
    }

    /// index.html's script asks for the products before the app's code has arrived,
    /// so it finds the service itself: in the same order, under the same names, with
    /// the same default as the app.
    #[test]
    fn index_html_finds_the_service_as_the_app_does() {
        let page = include_str!("../../../index.html");
        let script = &page[page.find("<script>").unwrap()..page.find("</script>").unwrap()];
        let at = |what: &str| {
            script
                .find(what)
                .unwrap_or_else(|| panic!("index.html's script lacks {what}"))
        };
        let saved = at(&format!("localStorage.getItem(\"{SAVED_SERVICE_KEY}\")"));
        let saved_wins = at("saved && saved.apiBase");
        let deployed = at(&format!(
            "new URL(\"{DEPLOYED_CONFIG_FILE}\", document.baseURI)"
        ));
        let default = ServiceConfig::for_origin("https://origin.example").api_base;
        let path = default.strip_prefix("https://origin.example").unwrap();
        let origin = at(&format!("var origin = location.origin + \"{path}\";"));
        let fallback = at("(deployed && deployed.apiBase) || origin");
        assert!(origin < fallback);
        assert!(saved < saved_wins && saved_wins < deployed && deployed < fallback);
    }

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
