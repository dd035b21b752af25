//! Reading the service's answers to requests for a file: why one did not give it
//! ([`Failure`]), where the bytes of one that did start ([`Answer`]), and which address
//! to fetch a data-package file from ([`fetch_address`]).

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use crate::service_error::ServiceError;
use crate::text::t;

/// Why a request for a file did not give it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Failure {
    /// No answer at all: the network, or the service's files refusing this site (CORS).
    Unreachable,
    /// The answer broke off part-way (a dropped connection).
    Dropped,
    /// The service answered with an error status.
    Status {
        /// The HTTP status, e.g. 503.
        status: u16,
        /// How long the answer asked to wait (`Retry-After`).
        retry_after: Option<Duration>,
    },
    /// The service sent another part of the file than the one asked for.
    OtherPart,
    /// The service sent more bytes than it listed.
    TooManyBytes,
    /// Anything else (the folder refused a write), said plainly.
    Other(String),
}

impl Failure {
    /// Whether the file's address was refused (401, 403): a signed link past its
    /// expiry answers so (ours with 401 or 403, the real service's storage with 403
    /// and an XML body), as does a session that ended.
    pub(crate) fn is_refused(&self) -> bool {
        matches!(
            self,
            Failure::Status {
                status: 401 | 403,
                ..
            }
        )
    }

    /// Whether trying again later may work: network trouble, 408, 429 and 5xx.
    pub(crate) fn is_transient(&self) -> bool {
        match self {
            Failure::Unreachable | Failure::Dropped => true,
            Failure::Status { status, .. } => matches!(status, 408 | 429 | 500..=599),
            Failure::OtherPart | Failure::TooManyBytes | Failure::Other(_) => false,
        }
    }

    /// What a user reads in the summary.
    pub fn describe(&self) -> String {
        match self {
            Failure::Unreachable => t::bulk::unreachable().into(),
            Failure::Dropped => t::bulk::dropped().into(),
            Failure::Status { status: 429, .. } => t::bulk::too_many_requests().into(),
            Failure::Status {
                status: status @ (401 | 403),
                ..
            } => t::bulk::refused(status),
            Failure::Status { status, .. } => t::bulk::answered(status),
            Failure::OtherPart => t::bulk::other_part().into(),
            Failure::TooManyBytes => t::bulk::too_many_bytes().into(),
            Failure::Other(reason) => reason.clone(),
        }
    }
}

impl From<ServiceError> for Failure {
    /// A failed request for a file's address: its status, or no answer, or said plainly.
    fn from(error: ServiceError) -> Failure {
        match error {
            ServiceError::Answered { status, .. } | ServiceError::Status { status, .. } => {
                Failure::Status {
                    status,
                    retry_after: None,
                }
            }
            ServiceError::Unreachable { .. } => Failure::Unreachable,
            other => Failure::Other(other.to_string()),
        }
    }
}

/// Where to fetch a data-package file, from the service's answer to "its direct
/// address": that address, or the `listed` (signed) one when the service only
/// redirects.
pub fn fetch_address(
    answer: Result<String, ServiceError>,
    listed: &str,
) -> Result<String, Failure> {
    match answer {
        Ok(url) => Ok(url),
        Err(ServiceError::OnlyRedirects) => Ok(listed.to_owned()),
        Err(error) => Err(error.into()),
    }
}

/// The head of the service's answer to a request for a file from byte `from`.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    pub status: u16,
    pub content_range: Option<&'a str>,
    pub retry_after: Option<&'a str>,
}

impl Answer<'_> {
    /// Where the answer's bytes start in the file: 0 for a whole file (200), `from`
    /// for the part asked for (206 with a matching `Content-Range`); any other part or
    /// status is a [`Failure`]. `now` dates a `Retry-After` given as an HTTP date.
    pub fn start(&self, from: u64, now: SystemTime) -> Result<u64, Failure> {
        match self.status {
            200 => Ok(0),
            206 if self.content_range.and_then(content_range_start) == Some(from) => Ok(from),
            206 => Err(Failure::OtherPart),
            status => Err(Failure::Status {
                status,
                retry_after: self.retry_after.and_then(|value| retry_after(value, now)),
            }),
        }
    }
}

/// A `Retry-After` header in seconds (`120`) or as an HTTP date, counted from `now`
/// (a date gone by is no wait).
fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    value.parse().ok().map(Duration::from_secs).or_else(|| {
        let at = httpdate::parse_http_date(value).ok()?;
        Some(at.duration_since(now).unwrap_or_default())
    })
}

/// Where the part a `Content-Range` (`bytes 100-199/200`) describes starts.
fn content_range_start(value: &str) -> Option<u64> {
    let range = value.trim().strip_prefix("bytes ")?;
    range.split_once('-')?.0.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, content_range: Option<&str>) -> Answer<'_> {
        Answer {
            status,
            content_range,
            retry_after: None,
        }
    }

    #[test]
    fn a_whole_file_restarts_and_only_the_part_asked_for_resumes() {
        let now = SystemTime::UNIX_EPOCH;
        assert_eq!(answer(200, None).start(100, now), Ok(0));
        let part = answer(206, Some("bytes 100-199/200"));
        assert_eq!(part.start(100, now), Ok(100));
        assert!(matches!(part.start(50, now), Err(Failure::OtherPart)));
        let unreadable = answer(206, Some("bytes */200"));
        assert!(matches!(
            unreadable.start(100, now),
            Err(Failure::OtherPart)
        ));
        assert_eq!(
            answer(404, None).start(0, now),
            Err(Failure::Status {
                status: 404,
                retry_after: None
            })
        );
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_as_a_date() {
        let now = httpdate::parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        let wait = |value| {
            let answer = Answer {
                status: 503,
                content_range: None,
                retry_after: Some(value),
            };
            match answer.start(0, now) {
                Err(Failure::Status { retry_after, .. }) => retry_after,
                other => panic!("not a status failure: {other:?}"),
            }
        };
        assert_eq!(wait(" 120"), Some(Duration::from_secs(120)));
        assert_eq!(
            wait("Wed, 21 Oct 2015 07:29:30 GMT"),
            Some(Duration::from_secs(90))
        );
        assert_eq!(wait("Wed, 21 Oct 2015 07:00:00 GMT"), Some(Duration::ZERO));
        assert_eq!(wait("soon"), None);
    }

    #[test]
    fn a_file_address_falls_back_to_the_listed_one_only_when_the_service_redirects() {
        let listed = "https://files.example/a.zip?sig=1";
        assert_eq!(
            fetch_address(Ok("https://direct/a.zip".into()), listed),
            Ok("https://direct/a.zip".into())
        );
        assert_eq!(
            fetch_address(Err(ServiceError::OnlyRedirects), listed),
            Ok(listed.into())
        );
        let busy = ServiceError::Status {
            status: 503,
            status_text: "Service Unavailable".into(),
        };
        assert_eq!(
            fetch_address(Err(busy), listed),
            Err(Failure::Status {
                status: 503,
                retry_after: None
            })
        );
        let unreachable = ServiceError::Unreachable {
            url: "https://api.example".into(),
            endpoint: crate::service_error::Endpoint::Api,
        };
        assert_eq!(
            fetch_address(Err(unreachable), listed),
            Err(Failure::Unreachable)
        );
        let refused = ServiceError::Request("no".into());
        assert!(matches!(
            fetch_address(Err(refused), listed),
            Err(Failure::Other(_))
        ));
    }

    #[test]
    fn a_refusal_is_told_apart_from_trouble_worth_a_retry() {
        let status = |status| Failure::Status {
            status,
            retry_after: None,
        };
        assert!(status(401).is_refused() && status(403).is_refused());
        assert!(!status(404).is_refused() && !Failure::Unreachable.is_refused());
        for transient in [
            Failure::Unreachable,
            Failure::Dropped,
            status(408),
            status(429),
            status(503),
        ] {
            assert!(transient.is_transient(), "{transient:?}");
        }
        for lasting in [status(403), status(404), Failure::Other("disk full".into())] {
            assert!(!lasting.is_transient(), "{lasting:?}");
        }
        assert_eq!(status(503).describe(), "the service answered 503");
        assert_eq!(Failure::Other("disk full".into()).describe(), "disk full");
    }
}
