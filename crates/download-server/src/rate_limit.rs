//! Optional rate limiting (`--rate-limit N`): at most N requests a minute for each
//! project (by its API key or access token), or for each client address when a request
//! carries no valid credentials. Beyond it a request is answered 429 with
//! `Retry-After`. The allowance refills steadily (one request every 60/N seconds), so
//! no client can send 2N requests across the turn of a minute.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::auth::{Caller, authenticate};
use crate::catalogue::ProjectId;
use crate::error::ApiError;
use crate::routes::SharedState;

/// Whose allowance a request uses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Client {
    Project(ProjectId),
    Address(IpAddr),
}

/// How often allowances unused for a while are forgotten, so that many passing
/// clients do not grow memory.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The allowances of every client.
#[derive(Debug)]
pub(crate) struct RateLimit {
    per_minute: NonZeroU32,
    limiter: DefaultKeyedRateLimiter<Client>,
    last_forgotten: Mutex<Instant>,
}

impl RateLimit {
    pub(crate) fn new(per_minute: NonZeroU32) -> RateLimit {
        RateLimit {
            per_minute,
            limiter: RateLimiter::keyed(Quota::per_minute(per_minute)),
            last_forgotten: Mutex::new(Instant::now()),
        }
    }

    /// Takes one request from `client`'s allowance, or says how long until there is one.
    fn take(&self, client: &Client) -> Result<(), Duration> {
        self.forget_idle();
        self.limiter
            .check_key(client)
            .map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }

    fn forget_idle(&self) {
        let mut last = self
            .last_forgotten
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if last.elapsed() >= FORGET_EVERY {
            *last = Instant::now();
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
    }
}

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
        Ok(Caller(project)) => Client::Project(project),
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
