//! Who is signed in: the session context, held in memory.
//!
//! The API secret stays in this tab's memory only, and only to renew tokens before
//! they expire. "Keep me signed in on this tab" (on by default) keeps the token
//! (never the secret) in sessionStorage, so a reload or a deep link stays signed in. Nothing here is ever written to a URL or the console.

use std::fmt;

use explorer_logic::session::{
    Credential, KeyAndSecretError, SignInError, check_key_and_secret, key_prefix,
    parse_pasted_token, renew_delay_ms, token_expiry_ms,
};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::components::Redirect;
use serde::{Deserialize, Serialize};

use crate::api::{Api, Credentials, ServiceContext, ServiceError};
use crate::routes::{Route, use_current_path};

/// sessionStorage key of a remembered token.
const STORAGE_KEY: &str = "download-explorer.session";

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

/// What may be shown about the session: never the secret or the token itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    pub method: SignInMethod,
    /// The first characters of the API key (none for a pasted token).
    pub key_prefix: Option<String>,
    /// When the token expires (ms since the epoch), when known.
    pub expires_at_ms: Option<u64>,
    /// Whether the app can renew the token by itself (it holds the secret).
    pub renews: bool,
}

/// The key and secret, kept in memory only to renew the token.
#[derive(Clone)]
struct HeldSecret {
    key: String,
    secret: String,
}

impl fmt::Debug for HeldSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HeldSecret(…)")
    }
}

/// What "remember me on this tab" keeps: the token, never the secret.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Remembered {
    token: String,
    method: SignInMethod,
    key_prefix: Option<String>,
    expires_at_ms: Option<u64>,
}

/// The signed-in session, provided to the whole app.
#[derive(Debug, Clone, Copy)]
pub struct Session {
    service: ServiceContext,
    info: RwSignal<Option<SessionInfo>>,
    /// Why the user has to sign in again, shown on the sign-in page.
    notice: RwSignal<Option<String>>,
    held: StoredValue<Option<HeldSecret>>,
    timer: StoredValue<Option<TimeoutHandle>>,
    remember: StoredValue<bool>,
    /// When a 401 last made the app renew the token (ms since the epoch).
    forced_renewal_ms: StoredValue<Option<u64>>,
}

/// The session context.
pub fn use_session() -> Session {
    expect_context::<Session>()
}

fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}

impl Session {
    /// Provides the session to the app below, restoring a token remembered on this tab.
    pub fn provide(service: ServiceContext) -> Session {
        let session = Session {
            service,
            info: RwSignal::new(None),
            notice: RwSignal::new(None),
            held: StoredValue::new(None),
            timer: StoredValue::new(None),
            remember: StoredValue::new(false),
            forced_renewal_ms: StoredValue::new(None),
        };
        provide_context(session);
        session.restore();
        session
    }

    /// What may be shown about the current session.
    pub fn info(&self) -> Option<SessionInfo> {
        self.info.get()
    }

    /// True when the app holds credentials.
    pub fn is_signed_in(&self) -> bool {
        self.service.credentials.with(Option::is_some)
    }

    /// Why the user was asked to sign in again, if they were.
    pub fn notice(&self) -> Option<String> {
        self.notice.get()
    }

    /// Exchanges a key and secret for a token; keeps the secret in memory to renew it.
    pub async fn sign_in_with_secret(
        &self,
        key: String,
        secret: String,
        remember: bool,
    ) -> Result<(), SignInError> {
        check_key_and_secret(&key, &secret)?;
        let api = self.service.api_untracked().with_credentials(None);
        let token = api
            .request_token(&key, &secret)
            .await
            .map_err(SignInError::token_refused)?;
        let expires_at_ms = token_expiry_ms(None, token.expires_in, now_ms());
        self.start(
            Credentials::Token(token.access_token),
            SessionInfo {
                method: SignInMethod::KeyAndSecret,
                key_prefix: Some(key_prefix(&key)),
                expires_at_ms: Some(expires_at_ms),
                renews: true,
            },
            Some(HeldSecret { key, secret }),
            remember,
            false,
        );
        Ok(())
    }

    /// Uses a token obtained elsewhere, after checking the service accepts it.
    pub async fn sign_in_with_token(
        &self,
        pasted: String,
        remember: bool,
    ) -> Result<(), SignInError> {
        let token = parse_pasted_token(&pasted, now_ms())?;
        if token.expires_at_ms.is_some_and(|at| at <= now_ms()) {
            return Err(SignInError::TokenExpired);
        }
        let credentials = Credentials::Token(token.access_token);
        self.check_accepted(&credentials, Credential::AccessToken)
            .await?;
        self.start(
            credentials,
            SessionInfo {
                method: SignInMethod::PastedToken,
                key_prefix: None,
                expires_at_ms: token.expires_at_ms,
                renews: false,
            },
            None,
            remember,
            false,
        );
        Ok(())
    }

    /// Uses the API key alone (sent in the `key` header), after checking it.
    pub async fn sign_in_with_key(&self, key: String) -> Result<(), SignInError> {
        let key = key.trim().to_owned();
        if key.is_empty() {
            return Err(KeyAndSecretError::NoKey.into());
        }
        let credentials = Credentials::ApiKey(key.clone());
        self.check_accepted(&credentials, Credential::ApiKey)
            .await?;
        self.start(
            credentials,
            SessionInfo {
                method: SignInMethod::ApiKey,
                key_prefix: Some(key_prefix(&key)),
                expires_at_ms: None,
                renews: false,
            },
            None,
            false,
            false,
        );
        Ok(())
    }

    /// Forgets everything: credentials, the secret, the remembered token.
    pub fn sign_out(&self) {
        self.clear();
        self.notice.set(None);
    }

    /// Looks at a data-package call's result: a 401 for the current credentials renews
    /// the token when the app holds the secret, else asks the user to sign in again.
    pub fn guard<T>(&self, api: &Api, result: Result<T, ServiceError>) -> Result<T, ServiceError> {
        if let Err(error) = &result {
            let current = self.service.credentials.get_untracked();
            if error.is_unauthorized() && current.is_some() && api.credentials() == current.as_ref()
            {
                self.unauthorized(error);
            }
        }
        result
    }

    fn unauthorized(&self, error: &ServiceError) {
        // A token refused right after a renewal will not be fixed by another one.
        let recently_renewed = self
            .forced_renewal_ms
            .get_value()
            .is_some_and(|at| now_ms().saturating_sub(at) < 10_000);
        if self.held.with_value(Option::is_some) && !recently_renewed {
            self.forced_renewal_ms.set_value(Some(now_ms()));
            let session = *self;
            // The refused requests are made again once the new token is in.
            leptos::task::spawn_local(async move { session.renew(true).await });
        } else {
            self.expire(format!(
                "The service no longer accepts your sign-in ({}). Sign in again to continue where you were.",
                error
            ));
        }
    }

    async fn check_accepted(
        &self,
        credentials: &Credentials,
        credential: Credential,
    ) -> Result<(), SignInError> {
        let api = self
            .service
            .api_untracked()
            .with_credentials(Some(credentials.clone()));
        match api.data_packages().await {
            Ok(_) => Ok(()),
            Err(error) => Err(SignInError::check_failed(credential, error)),
        }
    }

    fn start(
        &self,
        credentials: Credentials,
        info: SessionInfo,
        held: Option<HeldSecret>,
        remember: bool,
        renewal: bool,
    ) {
        self.cancel_timer();
        self.remember.set_value(remember);
        if let Some(storage) = session_storage() {
            let _ = storage.remove_item(STORAGE_KEY);
        }
        if remember && let Credentials::Token(token) = &credentials {
            let remembered = Remembered {
                token: token.clone(),
                method: info.method,
                key_prefix: info.key_prefix.clone(),
                expires_at_ms: info.expires_at_ms,
            };
            if let (Some(storage), Ok(text)) =
                (session_storage(), serde_json::to_string(&remembered))
            {
                let _ = storage.set_item(STORAGE_KEY, &text);
            }
        }
        self.held.set_value(held);
        self.schedule(info.expires_at_ms);
        self.notice.set(None);
        self.info.set(Some(info));
        if renewal {
            // Same user, fresh token: requests from now on use it, but nothing on the
            // page needs to be fetched again.
            self.service
                .credentials
                .update_untracked(|current| *current = Some(credentials));
        } else {
            self.service.credentials.set(Some(credentials));
        }
    }

    /// Renews the token a little before it expires, or signs out when it does.
    fn schedule(&self, expires_at_ms: Option<u64>) {
        self.cancel_timer();
        let Some(expires_at_ms) = expires_at_ms else {
            return;
        };
        let left_ms = expires_at_ms.saturating_sub(now_ms());
        let session = *self;
        let handle = if self.held.with_value(Option::is_some) {
            let delay = renew_delay_ms(left_ms / 1000);
            set_timeout_with_handle(
                move || leptos::task::spawn_local(async move { session.renew(false).await }),
                std::time::Duration::from_millis(delay),
            )
        } else {
            set_timeout_with_handle(
                move || {
                    session.expire(
                        "Your access token has expired. Sign in again to continue where you were."
                            .into(),
                    )
                },
                std::time::Duration::from_millis(left_ms),
            )
        };
        self.timer.set_value(handle.ok());
    }

    /// Gets a new token with the held secret; `refetch` makes the pages fetch again.
    async fn renew(&self, refetch: bool) {
        let Some(held) = self.held.get_value() else {
            return;
        };
        let api = self.service.api_untracked().with_credentials(None);
        match api.request_token(&held.key, &held.secret).await {
            // Signed out (or in as someone else) while the request was on its way.
            _ if self
                .held
                .with_value(|h| h.as_ref().map(|h| &h.key) != Some(&held.key)) => {}
            Ok(token) => {
                let expires_at_ms = token_expiry_ms(None, token.expires_in, now_ms());
                let info = self.info.get_untracked().map(|info| SessionInfo {
                    expires_at_ms: Some(expires_at_ms),
                    ..info
                });
                let remember = self.remember.get_value();
                if let Some(info) = info {
                    self.start(
                        Credentials::Token(token.access_token),
                        info,
                        Some(held),
                        remember,
                        !refetch,
                    );
                }
            }
            Err(error) if error.is_unauthorized() || error.status() == Some(400) => {
                self.expire(format!(
                    "The service refused to renew your sign-in ({error}). Sign in again to continue where you were."
                ));
            }
            Err(_) => {
                // Network trouble: try again shortly while the token may still work.
                let expires = self.info.get_untracked().and_then(|i| i.expires_at_ms);
                let session = *self;
                if expires.is_some_and(|at| at > now_ms() + 2_000) {
                    let handle = set_timeout_with_handle(
                        move || {
                            leptos::task::spawn_local(async move { session.renew(false).await })
                        },
                        std::time::Duration::from_secs(2),
                    );
                    self.timer.set_value(handle.ok());
                } else {
                    self.expire("Your sign-in expired and could not be renewed (the service did not answer). Sign in again to continue where you were.".into());
                }
            }
        }
    }

    /// Ends the session and says why; pages that need sign-in send the user to it.
    fn expire(&self, why: String) {
        self.clear();
        self.notice.set(Some(why));
    }

    fn clear(&self) {
        self.cancel_timer();
        self.held.set_value(None);
        self.remember.set_value(false);
        if let Some(storage) = session_storage() {
            let _ = storage.remove_item(STORAGE_KEY);
        }
        self.info.set(None);
        self.service.credentials.set(None);
    }

    fn cancel_timer(&self) {
        if let Some(handle) = self.timer.try_update_value(Option::take).flatten() {
            handle.clear();
        }
    }

    fn restore(&self) {
        let Some(storage) = session_storage() else {
            return;
        };
        let remembered = storage
            .get_item(STORAGE_KEY)
            .ok()
            .flatten()
            .and_then(|text| serde_json::from_str::<Remembered>(&text).ok());
        let Some(remembered) = remembered else {
            return;
        };
        if remembered.expires_at_ms.is_some_and(|at| at <= now_ms()) {
            let _ = storage.remove_item(STORAGE_KEY);
            return;
        }
        self.start(
            Credentials::Token(remembered.token),
            SessionInfo {
                method: remembered.method,
                key_prefix: remembered.key_prefix,
                expires_at_ms: remembered.expires_at_ms,
                renews: false,
            },
            None,
            true,
            false,
        );
    }
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Shows `children` to a signed-in user; anyone else goes to the sign-in page, which
/// brings them back here afterwards.
#[component]
pub fn RequireSignIn(children: ChildrenFn) -> impl IntoView {
    let session = use_session();
    let here = use_current_path();
    view! {
        <Show
            when=move || session.is_signed_in()
            fallback=move || {
                let options = NavigateOptions {
                    replace: true,
                    ..NavigateOptions::default()
                };
                view! { <Redirect path=Route::login(&here.get_untracked()).path() options /> }
            }
        >
            {children()}
        </Show>
    }
}
