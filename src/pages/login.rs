//! `/login`, signing in three ways; and the prompt for the key and secret that renews a
//! session in place, the same form, shown by the header's reminder.

use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::components::A;
use leptos_router::hooks::use_query_map;

use explorer_logic::routes::after_sign_in;
use explorer_logic::session::{Field, SignInError};
use explorer_logic::text::t;

use crate::auth::{SignInMethod, use_session};
use crate::components::{TextField, mark, with_elements};

use crate::navigation::{Href, Route, use_go_to};

/// The id of the sign-in error, which the fields it is about point at.
const ERROR_ID: &str = "login-error";

/// `/login?next=…`: sign in three ways, then go back to `next` (an app path).
#[component]
pub fn Login() -> impl IntoView {
    let session = use_session();
    let query = use_query_map();
    let go_to = use_go_to();

    let method = RwSignal::new(SignInMethod::KeyAndSecret);
    // The fields are plain in-memory signals; the inputs have no `name`, so even a form
    // submitted without this app's handler would send nothing.
    // The key last used in this tab stays, so signing in again only needs the secret.
    let key = RwSignal::new(session.last_key().unwrap_or_default());
    let secret = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    // On by default: a reload, a typed address or a deep link keeps the user signed in.
    let remember = RwSignal::new(true);
    let error = RwSignal::new(None::<SignInError>);

    let next = move || query.with(|q| after_sign_in(q.get_str("next")));

    let sign_in = Action::new_local(move |&(method, remember): &(SignInMethod, bool)| {
        let go_to = go_to.clone();
        async move {
            let result = match method {
                SignInMethod::KeyAndSecret => {
                    session
                        .sign_in_with_secret(key.get_untracked(), secret.get_untracked(), remember)
                        .await
                }
                SignInMethod::PastedToken => {
                    session
                        .sign_in_with_token(token.get_untracked(), remember)
                        .await
                }
                SignInMethod::ApiKey => session.sign_in_with_key(key.get_untracked()).await,
            };
            match result {
                Ok(()) => {
                    secret.set(String::new());
                    token.set(String::new());
                    let options = NavigateOptions {
                        replace: true,
                        ..NavigateOptions::default()
                    };
                    go_to(&next(), options);
                }
                Err(why) => {
                    error.set(Some(why));
                    show_error();
                }
            }
        }
    });
    let pending = sign_in.pending();

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        error.set(None);
        sign_in.dispatch_local((method.get_untracked(), remember.get_untracked()));
    };

    let choice = move |value: SignInMethod, label: &'static str, hint: &'static str| {
        view! {
            <label class="method-option">
                <input
                    type="radio"
                    name="sign-in-method"
                    prop:checked=move || method.get() == value
                    on:change=move |_| {
                        method.set(value);
                        error.set(None);
                    }
                />
                <span class="method-label">{label}</span>
                <span class="method-hint">{hint}</span>
            </label>
        }
    };

    view! {
        <section class="page login-page">
            <h1>{t::account::sign_in()}</h1>
            <p class="lead">{t::account::login_lead()}</p>
            {move || {
                session
                    .notice()
                    .map(|notice| {
                        view! {
                            <p class="session-notice" role="alert">
                                {notice}
                            </p>
                        }
                    })
            }}
            {move || {
                session
                    .info()
                    .map(|info| {
                        let who = info
                            .key_prefix
                            .unwrap_or_else(|| t::account::login_signed_in_token().into());
                        let note = t::account::login_signed_in(mark(0), mark(1));
                        let mut who = Some(who);
                        let note = with_elements(
                            &note,
                            |n| match n {
                                0 => {
                                    view! {
                                        <A href=Route::Packages.href()>
                                            {t::account::login_to_packages()}
                                        </A>
                                    }
                                        .into_any()
                                }
                                _ => view! { <strong>{who.take()}</strong> }.into_any(),
                            },
                        );
                        view! { <p class="signed-in-note">{note}</p> }
                    })
            }}
            <form class="login-form" method="post" autocomplete="off" on:submit=on_submit>
                <fieldset class="method-choice">
                    <legend>{t::account::login_how()}</legend>
                    {choice(
                        SignInMethod::KeyAndSecret,
                        t::account::method_secret(),
                        t::account::method_secret_hint(),
                    )}
                    {choice(
                        SignInMethod::PastedToken,
                        t::account::access_token(),
                        t::account::method_token_hint(),
                    )}
                    {choice(
                        SignInMethod::ApiKey,
                        t::account::method_key(),
                        t::account::method_key_hint(),
                    )}
                </fieldset>
                <Show when=move || method.get() != SignInMethod::PastedToken>
                    <TextField
                        id="login-key"
                        label=t::account::api_key()
                        value=key
                        invalid=about(error, Field::Key)
                        problem_id=ERROR_ID
                        required=true
                    />
                </Show>
                <Show when=move || method.get() == SignInMethod::KeyAndSecret>
                    <TextField
                        id="login-secret"
                        label=t::account::api_secret()
                        kind="password"
                        value=secret
                        invalid=about(error, Field::Secret)
                        problem_id=ERROR_ID
                        required=true
                    >
                        <p class="field-hint">{t::account::secret_hint()}</p>
                    </TextField>
                </Show>
                <Show when=move || method.get() == SignInMethod::PastedToken>
                    <TextField
                        id="login-token"
                        label=t::account::access_token()
                        kind="password"
                        value=token
                        invalid=about(error, Field::Token)
                        problem_id=ERROR_ID
                        required=true
                    />
                </Show>
                <Show when=move || method.get() != SignInMethod::ApiKey>
                    <div class="remember-option">
                        <label class="remember">
                            <input
                                id="login-keep"
                                type="checkbox"
                                aria-describedby="login-keep-hint"
                                bind:checked=remember
                            />
                            " "
                            {t::account::keep_signed_in()}
                        </label>
                        <p class="field-hint" id="login-keep-hint">
                            {t::account::keep_hint()}
                        </p>
                    </div>
                </Show>
                {refusal(error, ERROR_ID)}
                <button type="submit" class="button" disabled=move || pending.get()>
                    {move || {
                        if pending.get() { t::account::signing_in() } else { t::account::sign_in() }
                    }}
                </button>
            </form>
        </section>
    }
}

/// Brings the error message into view once it is shown (it sits below the fields,
/// maybe off screen on a phone).
fn show_error() {
    request_animation_frame(|| {
        if let Some(message) = document().get_element_by_id(ERROR_ID) {
            // Aligned to the bottom: the fields above it stay in view too.
            message.scroll_into_view_with_bool(false);
        }
    });
}

/// Whether the sign-in `error` is about `field`: its box is marked, pointing at the
/// message.
fn about(error: RwSignal<Option<SignInError>>, field: Field) -> Signal<bool> {
    Signal::derive(move || {
        error
            .read()
            .as_ref()
            .is_some_and(|why| why.fields().contains(&field))
    })
}

/// Why the sign-in was refused, as the form's message (`id`, which its marked boxes
/// point at), while there is one.
fn refusal(error: RwSignal<Option<SignInError>>, id: &'static str) -> impl IntoView {
    move || {
        error.get().map(|why| {
            view! { <p id=id class="form-error" role="alert">{why.to_string()}</p> }
        })
    }
}

/// The prompt's message, which its fields point at while it is about them.
const PROBLEM_ID: &str = "session-prompt-error";

/// The key and secret asked for in place; they renew the token without leaving the page.
/// Shown by the header's reminder (`components::SessionReminder`), loaded on demand with
/// this page (`chunks::secret_prompt`).
#[component]
pub fn SecretPrompt() -> impl IntoView {
    let session = use_session();
    let key = RwSignal::new(session.last_key().unwrap_or_default());
    let secret = RwSignal::new(String::new());
    let error = RwSignal::new(None::<SignInError>);
    let pending = RwSignal::new(false);

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if pending.get_untracked() {
            return;
        }
        pending.set(true);
        error.set(None);
        leptos::task::spawn_local(async move {
            let result = session
                .renew_with_secret(key.get_untracked(), secret.get_untracked())
                .await;
            pending.set(false);
            match result {
                Ok(()) => secret.set(String::new()),
                Err(why) => error.set(Some(why)),
            }
        });
    };

    view! {
        <form class="session-prompt" autocomplete="off" on:submit=on_submit>
            <TextField
                id="prompt-key"
                label=t::account::api_key()
                value=key
                invalid=about(error, Field::Key)
                problem_id=PROBLEM_ID
            />
            <TextField
                id="prompt-secret"
                label=t::account::api_secret()
                kind="password"
                value=secret
                invalid=about(error, Field::Secret)
                problem_id=PROBLEM_ID
            />
            <button type="submit" class="button" disabled=move || pending.get()>
                {move || {
                    if pending.get() { t::account::renewing() } else { t::account::stay_signed_in() }
                }}
            </button>
            {refusal(error, PROBLEM_ID)}
        </form>
    }
}
