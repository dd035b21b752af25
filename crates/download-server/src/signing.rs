//! Stateless credentials: access tokens and signed download links, both HMAC-SHA256
//! under the server's signing key, so any server holding the same key accepts them
//! and nothing needs to be stored.

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

/// Why a signed link was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkError {
    /// The signature does not match the link (altered, or another key).
    Invalid,
    /// Genuine, but past its expiry.
    Expired,
}

/// What a link signature authorises: one file of one data package version, either
/// through the API's downloads endpoint or directly at its file address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link<'a> {
    /// Whether this signs an API (`downloads?fileName=…`) or a direct file address; a
    /// signature for one is not accepted for the other.
    pub kind: LinkKind,
    /// Name of the project owning the package.
    pub project: &'a str,
    pub package: &'a str,
    pub version: &'a str,
    pub file_name: &'a str,
}

/// The two addresses a link signature can be made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `…/dataPackages/{p}/versions/{v}/downloads?fileName=…`
    Api,
    /// `/files/packages/{p}/{v}/{fileName}`
    File,
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

    fn link_mac(&self, link: &Link<'_>, expires: u64) -> HmacSha256 {
        let kind: &[u8] = match link.kind {
            LinkKind::Api => b"api-link",
            LinkKind::File => b"file-link",
        };
        self.mac(&[
            kind,
            link.project.as_bytes(),
            link.package.as_bytes(),
            link.version.as_bytes(),
            link.file_name.as_bytes(),
            &expires.to_be_bytes(),
        ])
    }

    /// The signature authorising `link` until `expires` (seconds since the epoch).
    pub fn sign_link(&self, link: &Link<'_>, expires: u64) -> String {
        URL_SAFE_NO_PAD.encode(self.link_mac(link, expires).finalize().into_bytes())
    }

    /// Whether `signature` authorises `link` until `expires`, checked at `now` (seconds).
    pub fn check_link(
        &self,
        link: &Link<'_>,
        expires: u64,
        signature: &str,
        now: u64,
    ) -> Result<(), LinkError> {
        let tag = URL_SAFE_NO_PAD
            .decode(signature)
            .map_err(|_| LinkError::Invalid)?;
        self.link_mac(link, expires)
            .verify_slice(&tag)
            .map_err(|_| LinkError::Invalid)?;
        if now >= expires {
            return Err(LinkError::Expired);
        }
        Ok(())
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

    const LINK: Link<'static> = Link {
        kind: LinkKind::Api,
        project: "Alpha",
        package: "0040046952",
        version: "110012",
        file_name: "SU_addresses.zip",
    };

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
    fn link_signatures_bind_every_part() {
        let signer = Signer::new(b"key");
        let signature = signer.sign_link(&LINK, 100);
        assert_eq!(signer.check_link(&LINK, 100, &signature, 99), Ok(()));
        assert_eq!(
            signer.check_link(&LINK, 100, &signature, 100),
            Err(LinkError::Expired)
        );
        assert_eq!(
            signer.check_link(&LINK, 101, &signature, 0),
            Err(LinkError::Invalid)
        );
        let altered = [
            Link {
                kind: LinkKind::File,
                ..LINK
            },
            Link {
                project: "Beta",
                ..LINK
            },
            Link {
                package: "0040046953",
                ..LINK
            },
            Link {
                version: "110013",
                ..LINK
            },
            Link {
                file_name: "other.zip",
                ..LINK
            },
        ];
        for link in altered {
            assert_eq!(
                signer.check_link(&link, 100, &signature, 0),
                Err(LinkError::Invalid),
                "{link:?}"
            );
        }
        assert_eq!(
            signer.check_link(&LINK, 100, "not base64!", 0),
            Err(LinkError::Invalid)
        );
    }

    #[test]
    fn debug_never_shows_the_key() {
        assert!(!format!("{:?}", Signer::new(b"secret-key")).contains("secret"));
    }
}
