//! Stateless credentials: access tokens here, and the signatures of signed links (the
//! `signed_link` module), both HMAC-SHA256 under the server's signing key, so any
//! server holding the same key accepts them and nothing needs to be stored.

use std::fmt;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Mints and checks access tokens and signed links.
#[derive(Clone)]
pub struct Signer {
    key: Arc<[u8]>,
}

/// Why an access token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    /// Not a token this service issues, or signed with another key.
    Invalid,
    /// Genuine, but past its expiry.
    Expired,
}

impl Signer {
    /// A signer with this key (any length; 32 random bytes or more is right).
    pub fn new(key: &[u8]) -> Signer {
        Signer { key: key.into() }
    }

    /// A signer with a fresh random key.
    pub fn random() -> Signer {
        let mut key = [0u8; 32];
        // Without an OS random source no key can be made safe: better to stop loudly.
        getrandom::fill(&mut key).expect("the operating system's random source failed");
        Signer::new(&key)
    }

    /// HMAC over length-prefixed parts, so no two different part lists collide.
    fn mac(&self, parts: &[&[u8]]) -> HmacSha256 {
        let mut mac =
            HmacSha256::new_from_slice(&self.key).expect("HMAC accepts keys of any length");
        for part in parts {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part);
        }
        mac
    }

    /// A token for `project`, valid until `expires_ms` (milliseconds since the epoch).
    pub fn issue_token(&self, project: &str, expires_ms: u64) -> String {
        let payload = format!("{expires_ms}:{project}");
        let tag = self
            .mac(&[b"token", payload.as_bytes()])
            .finalize()
            .into_bytes();
        format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(payload),
            URL_SAFE_NO_PAD.encode(tag)
        )
    }

    /// The project a token was issued to, if it is genuine and unexpired at `now_ms`.
    pub fn check_token(&self, token: &str, now_ms: u64) -> Result<String, TokenError> {
        let (payload, tag) = token.split_once('.').ok_or(TokenError::Invalid)?;
        let payload = URL_SAFE_NO_PAD
            .decode(payload)
            .map_err(|_| TokenError::Invalid)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| TokenError::Invalid)?;
        self.mac(&[b"token", &payload])
            .verify_slice(&tag)
            .map_err(|_| TokenError::Invalid)?;
        // Genuine from here on: only this server could have written the payload.
        let payload = String::from_utf8(payload).map_err(|_| TokenError::Invalid)?;
        let (expires, project) = payload.split_once(':').ok_or(TokenError::Invalid)?;
        let expires: u64 = expires.parse().map_err(|_| TokenError::Invalid)?;
        if now_ms >= expires {
            return Err(TokenError::Expired);
        }
        Ok(project.to_owned())
    }

    /// The base64url signature of `parts` (used by signed links).
    pub(crate) fn sign(&self, parts: &[&[u8]]) -> String {
        URL_SAFE_NO_PAD.encode(self.mac(parts).finalize().into_bytes())
    }

    /// Whether `signature` is the signature of `parts`, compared in constant time.
    pub(crate) fn verify(&self, parts: &[&[u8]], signature: &str) -> bool {
        URL_SAFE_NO_PAD
            .decode(signature)
            .is_ok_and(|tag| self.mac(parts).verify_slice(&tag).is_ok())
    }
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signer(<key redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_their_project_until_they_expire() {
        let signer = Signer::new(b"key");
        let token = signer.issue_token("Alpha", 2_000);
        assert_eq!(signer.check_token(&token, 1_999), Ok("Alpha".into()));
        assert_eq!(signer.check_token(&token, 2_000), Err(TokenError::Expired));
    }

    #[test]
    fn tokens_from_another_key_or_altered_are_invalid() {
        let token = Signer::new(b"key").issue_token("Alpha", 2_000);
        assert_eq!(
            Signer::new(b"other").check_token(&token, 0),
            Err(TokenError::Invalid)
        );
        let (_, tag) = token.split_once('.').unwrap();
        let forged = format!("{}.{tag}", URL_SAFE_NO_PAD.encode("9999999:Alpha"));
        assert_eq!(
            Signer::new(b"key").check_token(&forged, 0),
            Err(TokenError::Invalid)
        );
        for junk in ["", ".", "abc", "a.b", "!!.??"] {
            assert_eq!(
                Signer::new(b"key").check_token(junk, 0),
                Err(TokenError::Invalid)
            );
        }
    }

    #[test]
    fn debug_never_shows_the_key() {
        assert!(!format!("{:?}", Signer::new(b"secret-key")).contains("secret"));
    }
}
