//! Signed links and access tokens: whatever a client sends is refused or genuine, and
//! whatever the server signs it accepts back.
//!
//! Input: a query string (`expires=…&signature=…`), then optionally a newline and a
//! bearer token.
#![no_main]

use download_api::QueryParams;
use download_server::signed_link::{LinkKind, SignedLink};
use download_server::signing::{Signer, TokenError};
use libfuzzer_sys::fuzz_target;

const LINK: SignedLink<'static> = SignedLink {
    kind: LinkKind::File,
    project: "Alpha",
    package: "0040046952",
    version: "110012",
    file_name: "SU_addresses.zip",
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let signer = Signer::new(b"fuzz-signing-key");
    let (query, token) = text.split_once('\n').unwrap_or((text, ""));

    if let Ok(params) = QueryParams::parse(query) {
        if LINK.verify(&signer, &params).is_ok() {
            // Only the server's own signature for this link passes.
            let expires: u64 = params.get("expires").unwrap().parse().unwrap();
            let signed = LINK.sign_until(&signer, expires);
            assert_eq!(
                signed,
                format!("expires={expires}&signature={}", params.get("signature").unwrap())
            );
        }
    }

    match signer.check_token(token, 0) {
        Ok(_) | Err(TokenError::Invalid) | Err(TokenError::Expired) => {}
    }
    // Any project name survives the round trip.
    let issued = signer.issue_token(token, u64::MAX);
    assert_eq!(
        signer.check_token(&issued, u64::MAX - 1),
        Ok(token.to_owned())
    );
    let other = Signer::new(b"another-key");
    assert_eq!(other.check_token(&issued, 0), Err(TokenError::Invalid));
});
