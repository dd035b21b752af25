//! The middleware of optional rate limiting (`--rate-limit N`): a request uses the
//! allowance of its project (by its API key or access token), or of its client address
//! when it carries no valid credentials; beyond it, it is answered 429 with
//! `Retry-After`. The allowances themselves are kept by [`crate::limiter`].

use std::net::{Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::auth::authenticate;
use crate::error::ApiError;
use crate::limiter::Client;
use crate::state::SharedState;

/// Answers 429 to a request over its client's allowance, passes the others on.
pub(crate) async fn check(
    State(state): State<SharedState>,
    request: Request,
    next: Next,
) -> Response {
    let Some(limit) = &state.rate_limit else {
        return next.run(request).await;
    };
    let client = match authenticate(&state, request.headers(), request.uri().query()) {
        Ok(project) => Client::Project(project),
        Err(_) => Client::Address(
            request
                .extensions()
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(Ipv4Addr::UNSPECIFIED.into(), |ConnectInfo(peer)| peer.ip()),
        ),
    };
    match limit.take(&client) {
        Ok(()) => next.run(request).await,
        Err(wait) => ApiError::TooManyRequests {
            per_minute: limit.per_minute.get(),
            // Whole seconds, rounded up: a client retrying then gets through.
            retry_after: wait.as_secs() + u64::from(wait.subsec_nanos() > 0),
        }
        .into_response(),
    }
}
