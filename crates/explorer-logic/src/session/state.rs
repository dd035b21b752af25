//! The session's rules as a plain state type: events in, actions out.
//!
//! The web app feeds it what happened (a sign-in, a timer, a renewal's answer, a 401)
//! and carries out the [`Action`]s it returns (timers, storage, token requests). The
//! token and the secret never pass through here: the wiring holds them.

use serde::{Deserialize, Serialize};

use super::renew_delay_ms;
use crate::text::t;

/// How long before a token expires the user is told, when the app cannot renew it alone.
pub const WARN_BEFORE_MS: u64 = 60_000;
/// A token refused this soon after a renewal will not be fixed by another renewal.
const RENEWAL_LOOP_MS: u64 = 10_000;
/// How soon a renewal the service did not answer is tried again.
const RETRY_MS: u64 = 2_000;

/// How the user signed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SignInMethod {
    /// API key and secret, exchanged for a token.
    KeyAndSecret,
    /// An access token obtained elsewhere.
    PastedToken,
    /// The API key alone, sent in the `key` header.
    ApiKey,
}

/// What may be shown about a session: never the secret or the token itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionInfo {
    pub method: SignInMethod,
    /// The first characters of the API key (none for a pasted token).
    pub key_prefix: Option<String>,
    /// When the token expires (ms since the epoch), when known.
    pub expires_at_ms: Option<u64>,
}

/// What happened to the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The user signed in; `holds_secret` when the app keeps the secret to renew.
    SignedIn {
        info: SessionInfo,
        holds_secret: bool,
        remember: bool,
    },
    /// A session kept for this tab was found at start (its token only).
    Restored(SessionInfo),
    /// The timer asked for by [`Action::WakeAt`] went off.
    Wake,
    /// A renewal gave a token that expires at this time.
    Renewed { expires_at_ms: u64 },
    /// The user gave the key and secret again in place; the app holds the secret now.
    SecretGiven { expires_at_ms: u64 },
    /// The token endpoint refused the renewal (its words).
    RenewalRefused(String),
    /// The token endpoint did not answer the renewal.
    RenewalUnanswered,
    /// The user asked to stay signed in (renew now, with the held secret).
    StayRequested,
    /// The service refused the current credentials (its words).
    Unauthorized(String),
    /// The user signed out.
    SignedOut,
}

/// What the app has to do about an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Keep the token and [`SessionInfo`] for this tab (replacing what was kept).
    Store,
    /// Remove whatever was kept for this tab.
    ForgetStored,
    /// Send [`Event::Wake`] at this time (ms since the epoch), replacing any timer.
    WakeAt(u64),
    /// Cancel the timer.
    CancelTimer,
    /// Ask the token endpoint for a new token with the held secret.
    Renew,
    /// Fetch the pages' data again with the new token (the old one was refused).
    Refetch,
    /// Drop the credentials and the held secret.
    End,
}

/// Why a session ended, said to the user on the sign-in page.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Ended {
    #[error("{}", t::account::ended_expired())]
    Expired,
    #[error("{}", t::account::ended_not_accepted(.0))]
    NoLongerAccepted(String),
    #[error("{}", t::account::ended_renewal_refused(.0))]
    RenewalRefused(String),
    #[error("{}", t::account::ended_renewal_unanswered())]
    RenewalUnanswered,
}

/// What the header tells the user about a session that is ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reminder {
    /// The token expires in `left_ms`. `can_renew`: the app holds the secret (its own
    /// renewals have failed so far), so "Stay signed in" can try again.
    EndsSoon { left_ms: u64, can_renew: bool },
    /// The token expired; the page stays while the user gives the key and secret again.
    Expired,
}

impl Reminder {
    /// The reminder in words; `asks_secret` when the header asks for the key and
    /// secret (see [`SessionState::needs_secret`]).
    pub fn message(&self, asks_secret: bool) -> String {
        match *self {
            Reminder::Expired => t::account::reminder_expired().into(),
            Reminder::EndsSoon { left_ms, can_renew } => {
                let left = super::format_time_left(left_ms);
                if can_renew {
                    t::account::reminder_not_renewed(left)
                } else if asks_secret {
                    t::account::reminder_give_secret(left)
                } else {
                    t::account::reminder_token_ends(left)
                }
            }
        }
    }
}

/// A signed-in session.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Active {
    info: SessionInfo,
    holds_secret: bool,
    remember: bool,
    /// When the app renews next (with the secret held).
    renew_at_ms: Option<u64>,
    renewing: bool,
    /// The service did not answer the last renewal (the user is then told).
    renewal_failed: bool,
    /// Whether the renewal under way follows a refusal (pages then fetch again).
    refetch_after_renewal: bool,
    /// When a refusal last made the app renew.
    forced_renewal_ms: Option<u64>,
    /// The token expired and the secret is needed to go on.
    expired: bool,
}

/// The session: signed out (maybe with why) or signed in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionState {
    active: Option<Active>,
    ended: Option<Ended>,
}

impl SessionState {
    /// What may be shown about the session, while signed in.
    pub fn info(&self) -> Option<&SessionInfo> {
        self.active.as_ref().map(|a| &a.info)
    }

    /// Whether the app holds the secret and renews the token itself.
    pub fn renews(&self) -> bool {
        self.active.as_ref().is_some_and(|a| a.holds_secret)
    }

    /// Why the last session ended, if it did.
    pub fn ended(&self) -> Option<&Ended> {
        self.ended.as_ref()
    }

    /// Whether the session goes on only if the user gives the key and secret again
    /// (signed in with them, but the app no longer holds the secret, as after a reload).
    pub fn needs_secret(&self) -> bool {
        self.active.as_ref().is_some_and(|a| {
            a.info.method == SignInMethod::KeyAndSecret
                && !a.holds_secret
                && a.info.expires_at_ms.is_some()
        })
    }

    /// What to tell the user about a session ending at `now_ms`, if anything.
    pub fn reminder(&self, now_ms: u64) -> Option<Reminder> {
        let active = self.active.as_ref()?;
        if active.expired {
            return Some(Reminder::Expired);
        }
        // With the secret held, renewals are silent until one fails.
        if active.holds_secret && !active.renewal_failed {
            return None;
        }
        let left_ms = active.info.expires_at_ms?.saturating_sub(now_ms);
        (left_ms <= WARN_BEFORE_MS).then_some(Reminder::EndsSoon {
            left_ms,
            can_renew: active.holds_secret,
        })
    }

    /// Applies `event`, which happened at `now_ms`, and says what to do.
    pub fn handle(&mut self, event: Event, now_ms: u64) -> Vec<Action> {
        match event {
            Event::SignedIn {
                info,
                holds_secret,
                remember,
            } => self.start(info, holds_secret, remember, now_ms),
            Event::Restored(info) => {
                if info.expires_at_ms.is_some_and(|at| at <= now_ms) {
                    return vec![Action::ForgetStored];
                }
                self.start(info, false, true, now_ms)
            }
            Event::Wake => self.wake(now_ms),
            Event::Renewed { expires_at_ms } => self.renewed(expires_at_ms, false, now_ms),
            Event::SecretGiven { expires_at_ms } => self.renewed(expires_at_ms, true, now_ms),
            Event::RenewalRefused(why) => self.end(Ended::RenewalRefused(why)),
            Event::RenewalUnanswered => self.renewal_unanswered(now_ms),
            Event::StayRequested => match &mut self.active {
                Some(active) if active.holds_secret && !active.renewing => {
                    active.renewing = true;
                    vec![Action::Renew]
                }
                _ => Vec::new(),
            },
            Event::Unauthorized(why) => self.unauthorized(why, now_ms),
            Event::SignedOut => {
                self.active = None;
                self.ended = None;
                vec![Action::CancelTimer, Action::ForgetStored, Action::End]
            }
        }
    }

    fn start(
        &mut self,
        info: SessionInfo,
        holds_secret: bool,
        remember: bool,
        now_ms: u64,
    ) -> Vec<Action> {
        // An API key alone never expires, and is a credential of its own: never kept.
        let remember = remember && info.method != SignInMethod::ApiKey;
        let renew_at_ms = renew_time(&info, holds_secret, now_ms);
        self.ended = None;
        self.active = Some(Active {
            info,
            holds_secret,
            remember,
            renew_at_ms,
            renewing: false,
            renewal_failed: false,
            refetch_after_renewal: false,
            forced_renewal_ms: None,
            expired: false,
        });
        let keep = if remember {
            Action::Store
        } else {
            Action::ForgetStored
        };
        vec![keep, self.next_wake(now_ms)]
    }

    fn wake(&mut self, now_ms: u64) -> Vec<Action> {
        let needs_secret = self.needs_secret();
        let Some(active) = &mut self.active else {
            return Vec::new();
        };
        if active.holds_secret {
            if !active.renewing && active.renew_at_ms.is_some_and(|at| at <= now_ms) {
                active.renewing = true;
                return vec![Action::Renew];
            }
        } else if active.info.expires_at_ms.is_some_and(|at| at <= now_ms) {
            if needs_secret {
                // The page stays: the user may give the secret and carry on.
                active.expired = true;
                return vec![Action::CancelTimer];
            }
            return self.end(Ended::Expired);
        }
        vec![self.next_wake(now_ms)]
    }

    fn renewed(&mut self, expires_at_ms: u64, secret_given: bool, now_ms: u64) -> Vec<Action> {
        let Some(active) = &mut self.active else {
            return Vec::new();
        };
        let refetch = active.refetch_after_renewal || active.expired;
        active.info.expires_at_ms = Some(expires_at_ms);
        active.holds_secret |= secret_given;
        active.renewing = false;
        active.renewal_failed = false;
        active.refetch_after_renewal = false;
        active.expired = false;
        active.renew_at_ms = renew_time(&active.info, active.holds_secret, now_ms);
        let mut actions = Vec::new();
        if active.remember {
            actions.push(Action::Store);
        }
        if refetch {
            actions.push(Action::Refetch);
        }
        actions.push(self.next_wake(now_ms));
        actions
    }

    fn renewal_unanswered(&mut self, now_ms: u64) -> Vec<Action> {
        let Some(active) = &mut self.active else {
            return Vec::new();
        };
        active.renewing = false;
        active.renewal_failed = true;
        // Try again shortly while the token may still work.
        if active
            .info
            .expires_at_ms
            .is_some_and(|at| at > now_ms + RETRY_MS)
        {
            active.renew_at_ms = Some(now_ms + RETRY_MS);
            return vec![Action::WakeAt(now_ms + RETRY_MS)];
        }
        self.end(Ended::RenewalUnanswered)
    }

    fn unauthorized(&mut self, why: String, now_ms: u64) -> Vec<Action> {
        let needs_secret = self.needs_secret();
        let Some(active) = &mut self.active else {
            return Vec::new();
        };
        if active.renewing || active.expired {
            return Vec::new();
        }
        let recently_renewed = active
            .forced_renewal_ms
            .is_some_and(|at| now_ms.saturating_sub(at) < RENEWAL_LOOP_MS);
        if active.holds_secret && !recently_renewed {
            active.forced_renewal_ms = Some(now_ms);
            active.renewing = true;
            active.refetch_after_renewal = true;
            return vec![Action::Renew];
        }
        if needs_secret {
            active.expired = true;
            return vec![Action::CancelTimer];
        }
        self.end(Ended::NoLongerAccepted(why))
    }

    fn end(&mut self, why: Ended) -> Vec<Action> {
        self.active = None;
        self.ended = Some(why);
        vec![Action::CancelTimer, Action::ForgetStored, Action::End]
    }

    /// The one timer the session needs: the next renewal, the warning or the expiry.
    fn next_wake(&self, now_ms: u64) -> Action {
        let Some(active) = &self.active else {
            return Action::CancelTimer;
        };
        let Some(expires_at_ms) = active.info.expires_at_ms else {
            return Action::CancelTimer;
        };
        if active.holds_secret {
            return active
                .renew_at_ms
                .map_or(Action::CancelTimer, Action::WakeAt);
        }
        let warn_at_ms = expires_at_ms.saturating_sub(WARN_BEFORE_MS);
        if warn_at_ms > now_ms {
            Action::WakeAt(warn_at_ms)
        } else {
            Action::WakeAt(expires_at_ms)
        }
    }
}

/// When the app renews a token it holds the secret for.
fn renew_time(info: &SessionInfo, holds_secret: bool, now_ms: u64) -> Option<u64> {
    let expires_at_ms = info.expires_at_ms.filter(|_| holds_secret)?;
    let left_s = expires_at_ms.saturating_sub(now_ms) / 1000;
    Some(now_ms + renew_delay_ms(left_s))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 1_700_000_000_000;

    fn info(method: SignInMethod, expires_in_ms: Option<u64>) -> SessionInfo {
        SessionInfo {
            method,
            key_prefix: Some("alpha-de…".into()),
            expires_at_ms: expires_in_ms.map(|ms| NOW + ms),
        }
    }

    /// The reminder that the session ends in `left_ms`.
    fn ends_soon(left_ms: u64, can_renew: bool) -> Option<Reminder> {
        Some(Reminder::EndsSoon { left_ms, can_renew })
    }

    fn signed_in_with_secret(remember: bool) -> SessionState {
        let mut state = SessionState::default();
        state.handle(
            Event::SignedIn {
                info: info(SignInMethod::KeyAndSecret, Some(300_000)),
                holds_secret: true,
                remember,
            },
            NOW,
        );
        state
    }

    #[test]
    fn a_held_secret_renews_a_minute_early_and_keeps_going() {
        let mut state = signed_in_with_secret(true);
        assert!(state.renews());
        // Renewals are silent: nothing to tell, even in the token's last minute.
        assert_eq!(state.reminder(NOW), None);
        assert_eq!(state.reminder(NOW + 250_000), None);
        // Renewal is due at 240 s; a timer firing early does nothing but wait.
        assert_eq!(
            state.handle(Event::Wake, NOW + 1_000),
            [Action::WakeAt(NOW + 240_000)]
        );
        assert_eq!(state.handle(Event::Wake, NOW + 240_000), [Action::Renew]);
        // One renewal at a time.
        assert_eq!(state.handle(Event::StayRequested, NOW + 240_001), []);
        let later = NOW + 241_000;
        assert_eq!(
            state.handle(
                Event::Renewed {
                    expires_at_ms: later + 300_000
                },
                later
            ),
            [Action::Store, Action::WakeAt(later + 240_000)]
        );
        assert_eq!(state.info().unwrap().expires_at_ms, Some(later + 300_000));
    }

    #[test]
    fn an_unremembered_session_is_never_stored() {
        let mut state = signed_in_with_secret(false);
        state.handle(Event::Wake, NOW + 240_000);
        let actions = state.handle(
            Event::Renewed {
                expires_at_ms: NOW + 600_000,
            },
            NOW + 240_000,
        );
        assert!(!actions.contains(&Action::Store), "{actions:?}");
        let mut key_only = SessionState::default();
        let actions = key_only.handle(
            Event::SignedIn {
                info: info(SignInMethod::ApiKey, None),
                holds_secret: false,
                remember: true,
            },
            NOW,
        );
        assert_eq!(actions, [Action::ForgetStored, Action::CancelTimer]);
    }

    #[test]
    fn a_renewal_the_service_does_not_answer_is_retried_then_warned_about() {
        let mut state = signed_in_with_secret(true);
        state.handle(Event::Wake, NOW + 240_000);
        assert_eq!(
            state.handle(Event::RenewalUnanswered, NOW + 241_000),
            [Action::WakeAt(NOW + 243_000)]
        );
        // Within the last minute, with the secret held: "Stay signed in" tries now.
        assert_eq!(state.reminder(NOW + 250_000), ends_soon(50_000, true));
        assert_eq!(
            state.handle(Event::StayRequested, NOW + 250_000),
            [Action::Renew]
        );
        // Unanswered right up to the end: signed out, and told why.
        let actions = state.handle(Event::RenewalUnanswered, NOW + 299_000);
        assert_eq!(
            actions,
            [Action::CancelTimer, Action::ForgetStored, Action::End]
        );
        assert_eq!(state.ended(), Some(&Ended::RenewalUnanswered));
        assert_eq!(state.info(), None);
    }

    #[test]
    fn a_refused_renewal_ends_the_session_with_the_services_words() {
        let mut state = signed_in_with_secret(true);
        state.handle(Event::Wake, NOW + 240_000);
        state.handle(
            Event::RenewalRefused("invalid_client".into()),
            NOW + 240_100,
        );
        let why = state.ended().unwrap().to_string();
        assert!(why.contains("(invalid_client)") && why.contains("Sign in again"));
    }

    #[test]
    fn a_refusal_renews_once_and_refetches_then_gives_up() {
        let mut state = signed_in_with_secret(true);
        assert_eq!(
            state.handle(Event::Unauthorized("Bad token".into()), NOW + 5_000),
            [Action::Renew]
        );
        // Other refusals of the same token while the renewal is under way change nothing.
        assert_eq!(
            state.handle(Event::Unauthorized("Bad token".into()), NOW + 5_001),
            []
        );
        let actions = state.handle(
            Event::Renewed {
                expires_at_ms: NOW + 305_000,
            },
            NOW + 6_000,
        );
        assert!(actions.contains(&Action::Refetch), "{actions:?}");
        // Refused again straight after: another renewal would not help.
        state.handle(Event::Unauthorized("Bad token".into()), NOW + 7_000);
        assert_eq!(
            state.ended(),
            Some(&Ended::NoLongerAccepted("Bad token".into()))
        );
    }

    #[test]
    fn a_pasted_token_warns_a_minute_before_and_ends_on_time() {
        let mut state = SessionState::default();
        let actions = state.handle(
            Event::SignedIn {
                info: info(SignInMethod::PastedToken, Some(300_000)),
                holds_secret: false,
                remember: true,
            },
            NOW,
        );
        assert_eq!(actions, [Action::Store, Action::WakeAt(NOW + 240_000)]);
        assert_eq!(state.reminder(NOW + 239_999), None);
        assert_eq!(
            state.handle(Event::Wake, NOW + 240_000),
            [Action::WakeAt(NOW + 300_000)]
        );
        assert_eq!(state.reminder(NOW + 240_000), ends_soon(60_000, false));
        assert!(!state.needs_secret());
        let actions = state.handle(Event::Wake, NOW + 300_000);
        assert!(actions.contains(&Action::End));
        assert_eq!(state.ended(), Some(&Ended::Expired));
    }

    #[test]
    fn after_a_reload_the_secret_is_asked_for_and_the_page_stays() {
        let mut state = SessionState::default();
        // A session kept for this tab: the token only, so the secret is needed to renew.
        let actions = state.handle(
            Event::Restored(info(SignInMethod::KeyAndSecret, Some(30_000))),
            NOW,
        );
        assert_eq!(actions, [Action::Store, Action::WakeAt(NOW + 30_000)]);
        assert!(state.needs_secret() && !state.renews());
        assert_eq!(state.reminder(NOW), ends_soon(30_000, false));
        // Expiry does not sign out: the page stays until the user answers.
        assert_eq!(
            state.handle(Event::Wake, NOW + 30_000),
            [Action::CancelTimer]
        );
        assert_eq!(state.reminder(NOW + 30_000), Some(Reminder::Expired));
        assert!(state.info().is_some());
        assert_eq!(
            state.handle(Event::Unauthorized("expired".into()), NOW + 31_000),
            []
        );
        // The key and secret given in place: renewed, pages fetch again, secret held.
        let actions = state.handle(
            Event::SecretGiven {
                expires_at_ms: NOW + 332_000,
            },
            NOW + 32_000,
        );
        assert_eq!(
            actions,
            [
                Action::Store,
                Action::Refetch,
                Action::WakeAt(NOW + 272_000)
            ]
        );
        assert!(state.renews() && !state.needs_secret());
        assert_eq!(state.reminder(NOW + 32_000), None);
    }

    #[test]
    fn reminders_say_how_long_is_left_and_what_to_do() {
        let soon = |can_renew| Reminder::EndsSoon {
            left_ms: 45_000,
            can_renew,
        };
        assert_eq!(
            soon(true).message(false),
            "Your sign-in ends in 45 s: the service has not renewed it yet."
        );
        assert!(
            soon(false)
                .message(true)
                .contains("Enter your API key and secret")
        );
        assert!(soon(false).message(false).contains("Sign in again"));
        assert!(
            Reminder::Expired
                .message(true)
                .starts_with("Your sign-in has ended.")
        );
    }

    #[test]
    fn an_expired_kept_session_is_dropped_at_start() {
        let mut state = SessionState::default();
        let actions = state.handle(
            Event::Restored(info(SignInMethod::PastedToken, Some(0))),
            NOW,
        );
        assert_eq!(actions, [Action::ForgetStored]);
        assert_eq!(state.info(), None);
        assert_eq!(state.ended(), None);
    }

    #[test]
    fn signing_out_forgets_everything_and_says_nothing() {
        let mut state = signed_in_with_secret(true);
        assert_eq!(
            state.handle(Event::SignedOut, NOW),
            [Action::CancelTimer, Action::ForgetStored, Action::End]
        );
        assert_eq!(state, SessionState::default());
        // A new sign-in clears why the last one ended.
        let mut state = SessionState::default();
        state.handle(
            Event::Restored(info(SignInMethod::PastedToken, Some(1_000))),
            NOW,
        );
        state.handle(Event::Wake, NOW + 1_000);
        assert!(state.ended().is_some());
        state.handle(
            Event::SignedIn {
                info: info(SignInMethod::ApiKey, None),
                holds_secret: false,
                remember: false,
            },
            NOW + 2_000,
        );
        assert_eq!(state.ended(), None);
    }

    #[test]
    fn session_info_is_kept_as_camel_case_json() {
        let json = serde_json::to_string(&info(SignInMethod::KeyAndSecret, None)).unwrap();
        assert_eq!(
            json,
            r#"{"method":"KeyAndSecret","keyPrefix":"alpha-de…","expiresAtMs":null}"#
        );
    }
}
