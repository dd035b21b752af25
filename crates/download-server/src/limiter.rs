//! The allowances of `--rate-limit N`: at most N requests a minute for each client,
//! refilled steadily (one request every 60/N seconds), so no client can send 2N
//! requests across the turn of a minute. The state holds one; the `rate_limit`
//! middleware decides who the client is and answers 429.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::catalogue::ProjectId;

/// Whose allowance a request uses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Client {
    Project(ProjectId),
    Address(IpAddr),
}

/// How often allowances unused for a while are forgotten, so that many passing
/// clients do not grow memory.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// The allowances of every client.
#[derive(Debug)]
pub(crate) struct RateLimit {
    pub(crate) per_minute: NonZeroU32,
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
    pub(crate) fn take(&self, client: &Client) -> Result<(), Duration> {
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
