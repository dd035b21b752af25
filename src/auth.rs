//! Who is signed in: the session context, held in memory.
//!
//! The session's rules (expiry, renewal, the warning, what is kept) are
//! [`SessionState`]'s; this module carries out what it asks for with signals, timers
//! and sessionStorage. The API secret stays in this tab's memory only, and only to
//! renew tokens before they expire. "Keep me signed in on this tab" (on by default)
//! keeps the token (never the secret) in sessionStorage, so a reload or a deep link
//! stays signed in. Nothing here is ever written to a URL or the console.

use std::fmt;
use std::time::Duration;

use explorer_logic::session::{
    Action, Credential, Event, KeyAndSecretError, Reminder, SessionState, SignInError,
    check_key_and_secret, is_sendable_token, key_prefix, parse_pasted_token, token_expiry_ms,
};
pub use explorer_logic::session::{SessionInfo, SignInMethod};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::components::Redirect;
use serde::{Deserialize, Serialize};

use crate::api::{Api, Credentials, ServiceContext, ServiceError};
use crate::navigation::{Route, use_current_path};
use crate::time::now_ms;

/// sessionStorage key of a remembered token.
const STORAGE_KEY: &str = "download-explorer.session";

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

/// What "Keep me signed in on this tab" keeps: the token, never the secret.
#[derive(Serialize, Deserialize)]
struct Remembered {
    token: String,
    // Nested rather than flattened: serde's flatten costs kilobytes of wasm.
    info: SessionInfo,
}

/// The signed-in session, provided to the whole app.
#[derive(Debug, Clone, Copy)]
pub struct Session {
    service: ServiceContext,
    state: RwSignal<SessionState>,
    held: StoredValue<Option<HeldSecret>>,
    /// The API key last used, so the sign-in form keeps it after the session ends.
    last_key: StoredValue<Option<String>>,
    timer: StoredValue<Option<TimeoutHandle>>,
}

/// The session context.
pub fn use_session() -> Session {
    expect_context::<Session>()
}

impl Session {
    /// Provides the session to the app below, restoring a token remembered on this tab.
    pub fn provide(service: ServiceContext) -> Session {
        let session = Session {
            service,
            state: RwSignal::new(SessionState::default()),
            held: StoredValue::new(None),
            last_key: StoredValue::new(None),
            timer: StoredValue::new(None),
        };
        provide_context(session);
        session.restore();
        session
    }

    /// What may be shown about the current session.
    pub fn info(&self) -> Option<SessionInfo> {
        self.state.with(|state| state.info().cloned())
    }

    /// Whether the app renews the token by itself (it holds the secret).
    pub fn renews(&self) -> bool {
        self.state.with(SessionState::renews)
    }

    /// True when the app holds credentials.
    pub fn is_signed_in(&self) -> bool {
        self.service.credentials.with(Option::is_some)
    }

    /// Why the user was asked to sign in again, if they were.
    pub fn notice(&self) -> Option<String> {
        self.state
            .with(|state| state.ended().map(ToString::to_string))
    }

    /// What to tell the user about a session that is ending, at `now_ms`.
    pub fn reminder(&self, now_ms: u64) -> Option<Reminder> {
        self.state.with(|state| state.reminder(now_ms))
    }

    /// Whether going on needs the key and secret again (signed in with them, then reloaded).
    pub fn needs_secret(&self) -> bool {
        self.state.with(SessionState::needs_secret)
    }

    /// The API key last used in this tab, to fill the sign-in form again.
    pub fn last_key(&self) -> Option<String> {
        self.last_key.get_value()
    }

    /// Exchanges a key and secret for a token; keeps the secret in memory to renew it.
    pub async fn sign_in_with_secret(
        &self,
        key: String,
        secret: String,
        remember: bool,
    ) -> Result<(), SignInError> {
        let (token, expires_at_ms) = self.request_token(&key, &secret).await?;
        let info = SessionInfo {
            method: SignInMethod::KeyAndSecret,
            key_prefix: Some(key_prefix(&key)),
            expires_at_ms: Some(expires_at_ms),
        };
        self.held.set_value(Some(HeldSecret { key, secret }));
        self.begin(Credentials::Token(token), info, true, remember);
        Ok(())
    }

    /// Renews in place with the key and secret given again (after a reload the app
    /// holds the token only), keeping the page. Another key signs in afresh.
    pub async fn renew_with_secret(&self, key: String, secret: String) -> Result<(), SignInError> {
        let (token, expires_at_ms) = self.request_token(&key, &secret).await?;
        let prefix = key_prefix(&key);
        let same_user = self
            .info()
            .is_some_and(|info| info.key_prefix.as_deref() == Some(prefix.as_str()));
        self.held.set_value(Some(HeldSecret { key, secret }));
        if !same_user {
            let info = SessionInfo {
                method: SignInMethod::KeyAndSecret,
                key_prefix: Some(prefix),
                expires_at_ms: Some(expires_at_ms),
            };
            self.begin(Credentials::Token(token), info, true, true);
            return Ok(());
        }
        self.service
            .credentials
            .update_untracked(|current| *current = Some(Credentials::Token(token)));
        self.apply(Event::SecretGiven { expires_at_ms });
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
        let info = SessionInfo {
            method: SignInMethod::PastedToken,
            key_prefix: None,
            expires_at_ms: token.expires_at_ms,
        };
        self.held.set_value(None);
        self.begin(credentials, info, false, remember);
        Ok(())
    }

    /// Uses the API key alone (sent in the `key` header), after checking it.
    pub async fn sign_in_with_key(&self, key: String) -> Result<(), SignInError> {
        let key = key.trim().to_owned();
        if key.is_empty() {
            return Err(KeyAndSecretError::NoKey.into());
        }
        // Sent in a header, which a line break or a character past U+00FF breaks.
        if !key.is_ascii() || key.contains(|c: char| c.is_ascii_control()) {
            return Err(KeyAndSecretError::NotAscii.into());
        }
        let credentials = Credentials::ApiKey(key.clone());
        self.check_accepted(&credentials, Credential::ApiKey)
            .await?;
        let info = SessionInfo {
            method: SignInMethod::ApiKey,
            key_prefix: Some(key_prefix(&key)),
            expires_at_ms: None,
        };
        self.held.set_value(None);
        self.last_key.set_value(Some(key));
        self.begin(credentials, info, false, false);
        Ok(())
    }

    /// Renews now with the held secret ("Stay signed in").
    pub fn stay_signed_in(&self) {
        self.apply(Event::StayRequested);
    }

    /// Forgets everything: credentials, the secret, the key, the remembered token.
    pub fn sign_out(&self) {
        self.last_key.set_value(None);
        self.apply(Event::SignedOut);
    }

    /// Looks at a data-package call's result: a 401 for the current credentials renews
    /// the token when the app holds the secret, else the session says what to do.
    pub fn guard<T>(&self, api: &Api, result: Result<T, ServiceError>) -> Result<T, ServiceError> {
        if let Err(error) = &result {
            let current = self.service.credentials.get_untracked();
            if error.is_unauthorized() && current.is_some() && api.credentials() == current.as_ref()
            {
                self.apply(Event::Unauthorized(error.to_string()));
            }
        }
        result
    }

    /// Calls the service with the session's credentials now, through
    /// [`Session::guard`]. A refusal that comes back after those credentials were
    /// renewed (while the call was under way) is asked again with the new ones: it says
    /// nothing of the session now, and taken as its end it would wait for a sign-in
    /// that has already happened.
    pub async fn ask<T>(
        &self,
        call: impl AsyncFn(&Api) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        let api = self.service.api_untracked();
        let answer = call(&api).await;
        let now = self.service.credentials.get_untracked();
        let renewed = now.is_some() && api.credentials() != now.as_ref();
        if renewed && answer.as_ref().is_err_and(ServiceError::is_unauthorized) {
            let api = self.service.api_untracked();
            let answer = call(&api).await;
            return self.guard(&api, answer);
        }
        self.guard(&api, answer)
    }

    /// A token for a key and secret, with its expiry.
    async fn request_token(&self, key: &str, secret: &str) -> Result<(String, u64), SignInError> {
        check_key_and_secret(key, secret)?;
        self.last_key.set_value(Some(key.to_owned()));
        let api = self.service.api_untracked().with_credentials(None);
        let token = api
            .request_token(key, secret)
            .await
            .map_err(SignInError::token_refused)?;
        // A header the browser refuses would fail every request: refuse the token.
        if !is_sendable_token(&token.access_token) {
            return Err(SignInError::TokenNotSendable);
        }
        let expires_at_ms = token_expiry_ms(None, token.expires_in, now_ms());
        Ok((token.access_token, expires_at_ms))
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

    /// A new sign-in: the pages fetch with the new credentials.
    fn begin(
        &self,
        credentials: Credentials,
        info: SessionInfo,
        holds_secret: bool,
        remember: bool,
    ) {
        self.service.credentials.set(Some(credentials));
        self.apply(Event::SignedIn {
            info,
            holds_secret,
            remember,
        });
    }

    /// Feeds `event` to the session's rules and carries out what they ask for.
    fn apply(&self, event: Event) {
        let Some(actions) = self.state.try_update(|state| state.handle(event, now_ms())) else {
            return;
        };
        for action in actions {
            match action {
                Action::Store => self.store(),
                Action::ForgetStored => {
                    if let Some(storage) = session_storage() {
                        let _ = storage.remove_item(STORAGE_KEY);
                    }
                }
                Action::WakeAt(at_ms) => {
                    self.cancel_timer();
                    let session = *self;
                    let delay = Duration::from_millis(at_ms.saturating_sub(now_ms()));
                    let handle = set_timeout_with_handle(move || session.apply(Event::Wake), delay);
                    self.timer.set_value(handle.ok());
                }
                Action::CancelTimer => self.cancel_timer(),
                Action::Renew => {
                    let session = *self;
                    leptos::task::spawn_local(async move { session.renew().await });
                }
                // The refused requests are made again with the new token.
                Action::Refetch => self.service.renewed.notify(),
                Action::End => {
                    self.held.set_value(None);
                    self.service.credentials.set(None);
                }
            }
        }
    }

    /// Gets a new token with the held secret.
    async fn renew(&self) {
        let Some(held) = self.held.get_value() else {
            return;
        };
        let api = self.service.api_untracked().with_credentials(None);
        let result = api.request_token(&held.key, &held.secret).await;
        // Signed out (or in as someone else) while the request was on its way.
        if self
            .held
            .with_value(|h| h.as_ref().map(|h| &h.key) != Some(&held.key))
        {
            return;
        }
        match result {
            Ok(token) if !is_sendable_token(&token.access_token) => {
                self.apply(Event::RenewalRefused(
                    SignInError::TokenNotSendable.to_string(),
                ));
            }
            Ok(token) => {
                let expires_at_ms = token_expiry_ms(None, token.expires_in, now_ms());
                // Same user, fresh token: requests from now on use it, and nothing on
                // the page is fetched again unless the session says so.
                self.service.credentials.update_untracked(|current| {
                    *current = Some(Credentials::Token(token.access_token))
                });
                self.apply(Event::Renewed { expires_at_ms });
            }
            Err(error) if error.is_unauthorized() || error.status() == Some(400) => {
                self.apply(Event::RenewalRefused(error.to_string()));
            }
            Err(_) => self.apply(Event::RenewalUnanswered),
        }
    }

    /// Keeps the current token and what may be shown about it for this tab.
    fn store(&self) {
        let token = match self.service.credentials.get_untracked() {
            Some(Credentials::Token(token)) => token,
            _ => return,
        };
        let Some(info) = self.state.with_untracked(|s| s.info().cloned()) else {
            return;
        };
        if let (Some(storage), Ok(text)) = (
            session_storage(),
            serde_json::to_string(&Remembered { token, info }),
        ) {
            let _ = storage.set_item(STORAGE_KEY, &text);
        }
    }

    fn cancel_timer(&self) {
        if let Some(handle) = self.timer.try_update_value(Option::take).flatten() {
            handle.clear();
        }
    }

    fn restore(&self) {
        let remembered = session_storage()
            .and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten())
            .and_then(|text| serde_json::from_str::<Remembered>(&text).ok());
        let Some(Remembered { token, info }) = remembered else {
            return;
        };
        self.service
            .credentials
            .set(Some(Credentials::Token(token)));
        self.apply(Event::Restored(info));
        if self.state.with_untracked(|s| s.info().is_none()) {
            self.service.credentials.set(None);
        }
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

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use std::cell::{Cell, RefCell};

    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::config::ServiceConfig;

    /// A session signed in with the token "old", the service context it reads, and
    /// their owner (they live as long as it does).
    fn signed_in_with_old_token() -> (Owner, ServiceContext, Session) {
        let owner = Owner::new();
        let (service, session) = owner.with(|| {
            let service = ServiceContext::provide(ServiceConfig {
                api_base: "https://service.invalid/downloads/v1".into(),
                token_url: "https://service.invalid/oauth2/token/v1".into(),
            });
            (service, Session::provide(service))
        });
        service.credentials.set(Some(token("old")));
        (owner, service, session)
    }

    fn token(token: &str) -> Credentials {
        Credentials::Token(token.into())
    }

    fn refused() -> ServiceError {
        ServiceError::Status {
            status: 401,
            status_text: "Unauthorized".into(),
        }
    }

    #[wasm_bindgen_test]
    async fn a_refusal_of_credentials_renewed_meanwhile_is_asked_again_with_the_new_ones() {
        let (_owner, service, session) = signed_in_with_old_token();
        let asked = RefCell::new(Vec::new());
        let answer = session
            .ask(async |api| {
                asked.borrow_mut().push(api.credentials().cloned());
                if api.credentials() == Some(&token("old")) {
                    // The session is renewed while this call is on its way.
                    service.credentials.set(Some(token("new")));
                    return Err(refused());
                }
                Ok("listed")
            })
            .await;
        assert_eq!(answer.ok(), Some("listed"));
        assert!(*asked.borrow() == [Some(token("old")), Some(token("new"))]);
    }

    #[wasm_bindgen_test]
    async fn a_refusal_of_the_credentials_in_use_is_not_asked_again() {
        let (_owner, _, session) = signed_in_with_old_token();
        let asked = Cell::new(0);
        let answer: Result<(), _> = session
            .ask(async |_| {
                asked.set(asked.get() + 1);
                Err(refused())
            })
            .await;
        assert!(answer.is_err_and(|error| error.is_unauthorized()));
        assert_eq!(asked.get(), 1);
    }
}
