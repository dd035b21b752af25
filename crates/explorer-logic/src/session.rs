//! The pure side of signing in: token lifetimes, what may be shown of a key, what a
//! pasted token looks like, why a sign-in did not work, and the session's rules
//! ([`SessionState`]).

use download_api::TokenResponse;

use crate::service_error::ServiceError;
use crate::text::t;

mod state;

pub use state::{
    Action, Ended, Event, Reminder, SessionInfo, SessionState, SignInMethod, WARN_BEFORE_MS,
};

/// How many characters of an API key are shown to say who is signed in.
const KEY_PREFIX_CHARS: usize = 8;

/// The start of an API key, enough to recognise it and too little to use it:
/// `alpha-demo-key` gives `alpha-de…`.
pub fn key_prefix(key: &str) -> String {
    let key = key.trim();
    let mut prefix: String = key.chars().take(KEY_PREFIX_CHARS).collect();
    if key.chars().count() > KEY_PREFIX_CHARS {
        prefix.push('…');
    }
    prefix
}

/// When a token expires, in milliseconds since the epoch (the app's clock).
///
/// `issued_at_ms` is the service's clock; when it is within a day of `now_ms` it is
/// trusted (a token pasted a while after it was issued has less time left), else the
/// lifetime is counted from now.
pub fn token_expiry_ms(issued_at_ms: Option<u64>, expires_in_s: u64, now_ms: u64) -> u64 {
    const DAY_MS: u64 = 24 * 60 * 60 * 1000;
    let start = issued_at_ms
        .filter(|issued| issued.abs_diff(now_ms) < DAY_MS)
        .unwrap_or(now_ms);
    start.saturating_add(expires_in_s.saturating_mul(1000))
}

/// How long to wait before renewing a token that lives `expires_in_s` seconds:
/// a fifth of its life early, at most a minute early, so a renewal has time to
/// finish before the token stops working.
pub fn renew_delay_ms(expires_in_s: u64) -> u64 {
    let life_ms = expires_in_s.saturating_mul(1000);
    let margin = (life_ms / 5).min(60_000);
    life_ms - margin
}

/// Time left on a token as people read it: `4 min 05 s`, `59 s`, `1 h 02 min`.
pub fn format_time_left(ms: u64) -> String {
    let secs = ms.div_ceil(1000);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    match (h, m) {
        (0, 0) => t::account::time_seconds(s),
        (0, _) => t::account::time_minutes(m, format!("{s:02}")),
        _ => t::account::time_hours(h, format!("{m:02}")),
    }
}

/// A token as the user pasted it, with its expiry when they pasted the token
/// endpoint's whole answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastedToken {
    pub access_token: String,
    /// Expiry in milliseconds since the epoch, when known.
    pub expires_at_ms: Option<u64>,
}

/// Why a pasted token cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PastedTokenError {
    #[error("{}", t::errors::token_empty())]
    Empty,
    #[error("{}", t::errors::token_unreadable_json())]
    UnreadableJson,
    #[error("{}", t::errors::token_spaces())]
    HasSpaces,
    #[error("{}", t::errors::token_odd_characters())]
    NotSendable,
}

/// Whether `token` can be sent as `Authorization: Bearer <token>`: one piece of
/// visible ASCII. A browser refuses a header with a line break or a character past
/// U+00FF outright, and a server reads other bytes as it pleases.
pub fn is_sendable_token(token: &str) -> bool {
    !token.is_empty() && token.chars().all(|c| c.is_ascii_graphic())
}

/// Reads what the user pasted: a bare token, `Bearer <token>`, or the token
/// endpoint's whole JSON answer (then the expiry is known too).
pub fn parse_pasted_token(text: &str, now_ms: u64) -> Result<PastedToken, PastedTokenError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(PastedTokenError::Empty);
    }
    if text.starts_with('{') {
        let response: TokenResponse =
            serde_json::from_str(text).map_err(|_| PastedTokenError::UnreadableJson)?;
        if response.access_token.trim().is_empty() {
            return Err(PastedTokenError::UnreadableJson);
        }
        if !is_sendable_token(response.access_token.trim()) {
            return Err(PastedTokenError::NotSendable);
        }
        return Ok(PastedToken {
            expires_at_ms: Some(token_expiry_ms(
                Some(response.issued_at),
                response.expires_in,
                now_ms,
            )),
            access_token: response.access_token.trim().to_owned(),
        });
    }
    let token = match text.split_once(char::is_whitespace) {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => rest.trim(),
        _ => text,
    };
    if token.contains(char::is_whitespace) {
        return Err(PastedTokenError::HasSpaces);
    }
    if !is_sendable_token(token) {
        return Err(PastedTokenError::NotSendable);
    }
    Ok(PastedToken {
        access_token: token.to_owned(),
        expires_at_ms: None,
    })
}

/// What is wrong with an API key and secret, found before they are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum KeyAndSecretError {
    #[error("{}", t::errors::key_missing())]
    NoKey,
    #[error("{}", t::errors::key_colon())]
    ColonInKey,
    #[error("{}", t::errors::secret_missing())]
    NoSecret,
    #[error("{}", t::errors::key_spaces())]
    Spaces,
    #[error("{}", t::errors::key_not_ascii())]
    NotAscii,
}

/// What is wrong with an API key and secret before they are sent, if anything.
///
/// Basic authentication joins them as `key:secret`, so a colon in the key would move
/// the split point: the commonest "not correctly separated" mistake is pasting
/// `key:secret` into the key field.
pub fn check_key_and_secret(key: &str, secret: &str) -> Result<(), KeyAndSecretError> {
    if key.trim().is_empty() {
        return Err(KeyAndSecretError::NoKey);
    }
    if key.contains(':') {
        return Err(KeyAndSecretError::ColonInKey);
    }
    if secret.is_empty() {
        return Err(KeyAndSecretError::NoSecret);
    }
    if key.trim() != key || secret.trim() != secret {
        return Err(KeyAndSecretError::Spaces);
    }
    if !key.is_ascii() || !secret.is_ascii() {
        return Err(KeyAndSecretError::NotAscii);
    }
    Ok(())
}

/// Which credential the service was asked to accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    AccessToken,
    ApiKey,
}

/// The service's refusal of `credential` (its words in `error`), with what to check.
fn refused_message(credential: Credential, error: &ServiceError) -> String {
    match credential {
        Credential::AccessToken => t::errors::token_refused(error),
        Credential::ApiKey => t::errors::key_refused(error),
    }
}

/// Why signing in did not work, in words that say what to do.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SignInError {
    #[error(transparent)]
    KeyAndSecret(#[from] KeyAndSecretError),
    #[error(transparent)]
    PastedToken(#[from] PastedTokenError),
    #[error("{}", t::errors::token_expired())]
    TokenExpired,
    /// The token endpoint's access token cannot be sent in a header.
    #[error("{}", t::errors::token_not_sendable())]
    TokenNotSendable,
    #[error("{}", t::errors::key_secret_refused(.0))]
    KeyAndSecretRefused(ServiceError),
    #[error("{}", refused_message(*credential, error))]
    Refused {
        credential: Credential,
        error: ServiceError,
    },
    #[error(transparent)]
    Service(ServiceError),
}

/// A field of the sign-in form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Key,
    Secret,
    Token,
}

impl SignInError {
    /// The fields the user has to correct (none when the service itself failed).
    pub fn fields(&self) -> &'static [Field] {
        match self {
            SignInError::KeyAndSecret(KeyAndSecretError::NoKey | KeyAndSecretError::ColonInKey) => {
                &[Field::Key]
            }
            SignInError::KeyAndSecret(KeyAndSecretError::NoSecret) => &[Field::Secret],
            SignInError::KeyAndSecret(_) | SignInError::KeyAndSecretRefused(_) => {
                &[Field::Key, Field::Secret]
            }
            SignInError::PastedToken(_) | SignInError::TokenExpired => &[Field::Token],
            SignInError::Refused { credential, .. } => match credential {
                Credential::AccessToken => &[Field::Token],
                Credential::ApiKey => &[Field::Key],
            },
            SignInError::Service(_) | SignInError::TokenNotSendable => &[],
        }
    }

    /// The token endpoint did not give a token for a key and secret.
    pub fn token_refused(error: ServiceError) -> Self {
        match error.status() {
            Some(400 | 401 | 403) => SignInError::KeyAndSecretRefused(error),
            _ => SignInError::Service(error),
        }
    }

    /// Checking a token or key against the service failed.
    pub fn check_failed(credential: Credential, error: ServiceError) -> Self {
        if error.is_unauthorized() {
            SignInError::Refused { credential, error }
        } else {
            SignInError::Service(error)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::assert_counts;

    #[test]
    fn key_prefix_shows_only_the_first_characters() {
        assert_eq!(key_prefix("alpha-demo-key"), "alpha-de…");
        assert_eq!(key_prefix("  short "), "short");
        assert_eq!(key_prefix("ééééééééé"), "éééééééé…");
    }

    #[test]
    fn expiry_counts_from_issue_time_when_clocks_agree() {
        let now = 1_700_000_000_000;
        assert_eq!(
            token_expiry_ms(Some(now - 100_000), 299, now),
            now + 199_000
        );
        // A service clock days away, or no issue time: count from now.
        assert_eq!(token_expiry_ms(Some(5), 299, now), now + 299_000);
        assert_eq!(token_expiry_ms(None, 3, now), now + 3_000);
    }

    #[test]
    fn renewal_comes_before_expiry() {
        assert_eq!(renew_delay_ms(300), 240_000);
        assert_eq!(renew_delay_ms(3_600), 3_540_000);
        assert_eq!(renew_delay_ms(3), 2_400);
        assert_eq!(renew_delay_ms(0), 0);
    }

    #[test]
    fn time_left_reads_naturally() {
        assert_eq!(format_time_left(245_000), "4 min 05 s");
        assert_eq!(format_time_left(58_001), "59 s");
        assert_eq!(format_time_left(3_720_000), "1 h 02 min");
        assert_eq!(format_time_left(0), "0 s");
    }

    #[test]
    fn pasted_tokens_may_be_bare_bearer_or_json() {
        let now = 1_700_000_000_000;
        assert_eq!(
            parse_pasted_token("  abc.def \n", now),
            Ok(PastedToken {
                access_token: "abc.def".into(),
                expires_at_ms: None
            })
        );
        assert_eq!(
            parse_pasted_token("Bearer abc.def", now)
                .unwrap()
                .access_token,
            "abc.def"
        );
        let json = format!(
            r#"{{"access_token":"tok","expires_in":"299","issued_at":"{now}","token_type":"Bearer"}}"#
        );
        assert_eq!(
            parse_pasted_token(&json, now + 1_000),
            Ok(PastedToken {
                access_token: "tok".into(),
                expires_at_ms: Some(now + 299_000)
            })
        );
    }

    #[test]
    fn unusable_pastes_say_why() {
        assert_eq!(parse_pasted_token(" ", 0), Err(PastedTokenError::Empty));
        assert_eq!(
            parse_pasted_token("{\"token\":1}", 0),
            Err(PastedTokenError::UnreadableJson)
        );
        assert_eq!(
            parse_pasted_token("abc def", 0),
            Err(PastedTokenError::HasSpaces)
        );
        for odd in [
            "tök€n",
            "a\u{7}b",
            r#"{"access_token":"a\nb","expires_in":1,"issued_at":1,"token_type":"Bearer"}"#,
        ] {
            assert_eq!(
                parse_pasted_token(odd, 0),
                Err(PastedTokenError::NotSendable),
                "{odd:?}"
            );
        }
    }

    #[test]
    fn only_visible_ascii_is_sent_as_a_token() {
        assert!(is_sendable_token("eyJhbGciOi.J9-_~+/=="));
        for odd in ["", "a b", "a\nb", "a\rb", "tök", "a\u{0}b", "\u{2028}"] {
            assert!(!is_sendable_token(odd), "{odd:?}");
        }
        let message = SignInError::TokenNotSendable.to_string();
        assert!(message.contains("cannot be sent"), "{message}");
        assert!(
            crate::text::in_welsh(|| SignInError::TokenNotSendable.to_string())
                .contains("thocyn mynediad")
        );
    }

    #[test]
    fn key_and_secret_are_checked_for_separation_mistakes() {
        assert_eq!(check_key_and_secret("k", "s"), Ok(()));
        let colon = check_key_and_secret("k:s", "").unwrap_err();
        assert_eq!(colon, KeyAndSecretError::ColonInKey);
        assert!(colon.to_string().contains("':'"));
        assert_eq!(check_key_and_secret("", "s"), Err(KeyAndSecretError::NoKey));
        assert_eq!(
            check_key_and_secret("k", ""),
            Err(KeyAndSecretError::NoSecret)
        );
        assert!(
            check_key_and_secret("k ", "s")
                .unwrap_err()
                .to_string()
                .contains("space")
        );
        assert_eq!(
            check_key_and_secret("k", "sé"),
            Err(KeyAndSecretError::NotAscii)
        );
    }

    #[test]
    fn refusals_say_what_to_check_other_failures_say_what_happened() {
        let refused =
            ServiceError::from_token_answer("t", 401, "", None, r#"{"error":"invalid_client"}"#);
        let refused = SignInError::token_refused(refused);
        let message = refused.to_string();
        assert!(message.contains("\u{201c}invalid_client\u{201d}") && message.contains("swapped"));
        // One sentence, and both fields marked.
        assert!(!message.contains(". "), "{message}");
        assert!(message.ends_with('.'));
        assert_eq!(refused.fields(), [Field::Key, Field::Secret]);
        let down = ServiceError::Unreachable {
            url: "u".into(),
            endpoint: crate::service_error::Endpoint::Token,
        };
        assert_eq!(
            SignInError::token_refused(down.clone()),
            SignInError::Service(down.clone())
        );
        let unauthorized =
            ServiceError::from_answer("u", 401, "", None, r#"{"message":"Bad token"}"#);
        let message = SignInError::check_failed(Credential::AccessToken, unauthorized).to_string();
        assert!(message.starts_with("The service did not accept this access token: Bad token"));
        assert_eq!(
            SignInError::check_failed(Credential::ApiKey, down.clone()),
            SignInError::Service(down.clone())
        );
        assert_eq!(SignInError::Service(down).fields(), []);
        assert_eq!(
            SignInError::from(KeyAndSecretError::NoSecret).fields(),
            [Field::Secret]
        );
    }

    #[test]
    fn the_connection_counts_open_products_in_both_languages() {
        let connected = |n| t::account::connected(n);
        assert_eq!(connected(1), "Connected: the service lists 1 open product.");
        assert_eq!(
            connected(1_000_000),
            "Connected: the service lists 1,000,000 open products."
        );
        crate::text::in_welsh(|| {
            let lists = |n: &str| format!("Wedi cysylltu: mae'r gwasanaeth yn rhestru {n}.");
            assert_counts(
                connected,
                [
                    "Wedi cysylltu: nid yw'r gwasanaeth yn rhestru unrhyw gynhyrchion agored.",
                    &lists("1 cynnyrch agored"),
                    &lists("2 gynnyrch agored"),
                    &lists("3 chynnyrch agored"),
                    &lists("6 chynnyrch agored"),
                    &lists("20 cynnyrch agored"),
                    &lists("1,000,000 cynnyrch agored"),
                ],
            );
        });
    }

    #[test]
    fn times_and_sign_in_errors_are_said_in_welsh() {
        crate::text::in_welsh(|| {
            assert_eq!(format_time_left(245_000), "4 mun 05 eiliad");
            assert_eq!(format_time_left(3_720_000), "1 awr 02 mun");
            assert_eq!(
                KeyAndSecretError::NoKey.to_string(),
                "Rhowch allwedd API eich prosiect."
            );
            let unauthorized =
                ServiceError::from_answer("u", 401, "", None, r#"{"message":"Bad token"}"#);
            let message = SignInError::check_failed(Credential::ApiKey, unauthorized).to_string();
            assert!(
                message.starts_with("Ni dderbyniodd y gwasanaeth yr allwedd API hon: Bad token"),
                "{message}"
            );
        });
        assert_eq!(format_time_left(245_000), "4 min 05 s");
    }
}
