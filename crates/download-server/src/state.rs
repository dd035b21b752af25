//! What every handler shares.

use std::sync::Arc;

use crate::catalogue::Catalogue;
use crate::limiter::RateLimit;
use crate::links::Links;
use crate::signing::Signer;

/// The loaded catalogue and the means to write links and check credentials.
#[derive(Debug)]
pub(crate) struct AppState {
    pub catalogue: Catalogue,
    pub links: Links,
    pub signer: Signer,
    /// Lifetime of access tokens, in seconds.
    pub token_ttl: u64,
    /// Lifetime of signed download links, in seconds.
    pub link_lifetime: u64,
    /// How long a client may take to send a request body.
    pub body_timeout: std::time::Duration,
    /// `--rate-limit`, when given.
    pub rate_limit: Option<Arc<RateLimit>>,
}

/// The router's state.
pub(crate) type SharedState = Arc<AppState>;
