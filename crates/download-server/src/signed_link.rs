//! Signed links: an address of one data package file that is its own credential for
//! a while (`--link-lifetime`, an hour unless told), so a client can fetch it as listed,
//! with no key or token.
//!
//! The signature (HMAC under the server's signing key) binds which address it is for,
//! the project, package, version and file name, and the expiry; it travels in the
//! query as `expires=…&signature=…`.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use download_api::QueryParams;

use crate::signing::Signer;

/// The two addresses a link can be signed for; a signature for one does not open the
/// other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// The API's `…/dataPackages/{p}/versions/{v}/downloads?fileName=…`, as a version
    /// lists it.
    Api,
    /// The file's direct address `/files/packages/{p}/{v}/{fileName}`, where the API
    /// redirects.
    File,
}

/// One file of one data package version, as a link signs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignedLink<'a> {
    pub kind: LinkKind,
    /// Name of the project owning the package.
    pub project: &'a str,
    pub package: &'a str,
    pub version: &'a str,
    pub file_name: &'a str,
}

/// Why a signed link was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkError {
    /// Forged, altered, incomplete, signed with another key, or for a package that
    /// does not exist.
    Invalid(LinkKind),
    /// Genuine, but past its expiry.
    Expired(LinkKind),
}

impl SignedLink<'_> {
    /// The query (`expires=…&signature=…`) that makes this link work for
    /// `lifetime_secs` from now.
    pub fn sign(&self, signer: &Signer, lifetime_secs: u64) -> String {
        self.sign_until(signer, now_secs() + lifetime_secs)
    }

    /// The query that makes this link work until `expires` (seconds since the epoch).
    pub fn sign_until(&self, signer: &Signer, expires: u64) -> String {
        let signature = signer.sign(&self.parts(&expires.to_be_bytes()));
        // Base64url needs no encoding in a query.
        format!("expires={expires}&signature={signature}")
    }

    /// Checks the `expires` and `signature` parameters of a request's query against
    /// this link, now.
    pub fn verify(&self, signer: &Signer, query: &QueryParams) -> Result<(), LinkError> {
        self.verify_at(signer, query, now_secs())
    }

    fn verify_at(&self, signer: &Signer, query: &QueryParams, now: u64) -> Result<(), LinkError> {
        let invalid = LinkError::Invalid(self.kind);
        let expires: u64 = query
            .get("expires")
            .and_then(|e| e.parse().ok())
            .ok_or(invalid)?;
        let signature = query.get("signature").ok_or(invalid)?;
        if !signer.verify(&self.parts(&expires.to_be_bytes()), signature) {
            return Err(invalid);
        }
        if now >= expires {
            return Err(LinkError::Expired(self.kind));
        }
        Ok(())
    }

    fn parts<'p>(&'p self, expires: &'p [u8; 8]) -> [&'p [u8]; 6] {
        let kind: &[u8] = match self.kind {
            LinkKind::Api => b"api-link",
            LinkKind::File => b"file-link",
        };
        [
            kind,
            self.project.as_bytes(),
            self.package.as_bytes(),
            self.version.as_bytes(),
            self.file_name.as_bytes(),
            expires,
        ]
    }
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, remedy) = match self {
            LinkError::Invalid(LinkKind::Api) | LinkError::Expired(LinkKind::Api) => (
                "download link",
                "list the data package version again for fresh links",
            ),
            LinkError::Invalid(LinkKind::File) | LinkError::Expired(LinkKind::File) => (
                "file address",
                "ask the data package downloads endpoint for a fresh one",
            ),
        };
        match self {
            LinkError::Invalid(_) => write!(
                f,
                "This {what} is not valid (altered, incomplete or from another server): {remedy}."
            ),
            LinkError::Expired(_) => {
                write!(f, "This {what} has expired: {remedy}.")
            }
        }
    }
}

impl std::error::Error for LinkError {}

/// Seconds since the epoch, by this machine's clock.
pub(crate) fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINK: SignedLink<'static> = SignedLink {
        kind: LinkKind::Api,
        project: "Alpha",
        package: "0040046952",
        version: "110012",
        file_name: "SU_addresses.zip",
    };

    fn query(text: &str) -> QueryParams {
        QueryParams::parse(text).unwrap()
    }

    #[test]
    fn links_work_until_they_expire() {
        let signer = Signer::new(b"key");
        let signed = query(&LINK.sign_until(&signer, 100));
        assert_eq!(LINK.verify_at(&signer, &signed, 99), Ok(()));
        assert_eq!(
            LINK.verify_at(&signer, &signed, 100),
            Err(LinkError::Expired(LinkKind::Api))
        );
        let fresh = query(&LINK.sign(&signer, 3600));
        assert_eq!(LINK.verify(&signer, &fresh), Ok(()));
    }

    #[test]
    fn signatures_bind_every_part() {
        let signer = Signer::new(b"key");
        let signed = query(&LINK.sign_until(&signer, 100));
        let invalid = Err(LinkError::Invalid(LinkKind::Api));
        let altered = [
            SignedLink {
                project: "Beta",
                ..LINK
            },
            SignedLink {
                package: "0040046953",
                ..LINK
            },
            SignedLink {
                version: "110013",
                ..LINK
            },
            SignedLink {
                file_name: "other.zip",
                ..LINK
            },
        ];
        for link in altered {
            assert_eq!(link.verify_at(&signer, &signed, 0), invalid, "{link:?}");
        }
        let file = SignedLink {
            kind: LinkKind::File,
            ..LINK
        };
        assert_eq!(
            file.verify_at(&signer, &signed, 0),
            Err(LinkError::Invalid(LinkKind::File))
        );
        let signature = signed.get("signature").unwrap();
        for forged in [
            format!("expires=101&signature={signature}"),
            "expires=100&signature=not base64!".to_owned(),
            format!("signature={signature}"),
            "expires=100".to_owned(),
        ] {
            assert_eq!(
                LINK.verify_at(&signer, &query(&forged), 0),
                invalid,
                "{forged}"
            );
        }
        let other_key = Signer::new(b"other");
        assert_eq!(LINK.verify_at(&other_key, &signed, 0), invalid);
    }
}
