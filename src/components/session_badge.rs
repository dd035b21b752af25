//! The header's sign-in state, and the reminder when a session is about to end.

use std::time::Duration;

use explorer_logic::session::{Reminder, format_time_left};
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::auth::{SignInMethod, use_session};
use crate::navigation::{Href, Route, use_current_path};
use crate::time::now_ms;

/// A signal of the clock that ticks each second while the component lives.
fn use_clock() -> RwSignal<u64> {
    let now = RwSignal::new(now_ms());
    if let Ok(handle) = set_interval_with_handle(move || now.set(now_ms()), Duration::from_secs(1))
    {
        on_cleanup(move || handle.clear());
    }
    now
}

/// The header's sign-in state: who is signed in (the key's first characters), the
/// time left on a token, and a sign-out button; or a "Sign in" link.
#[component]
pub fn SessionBadge() -> impl IntoView {
    let session = use_session();
    let here = use_current_path();
    let now = use_clock();

    let sign_in_href = move || Route::sign_in_from(&here.read()).href();

    move || match session.info() {
        None => view! {
            <A href=sign_in_href attr:class="session-badge signed-out">
                {t::account::sign_in()}
            </A>
        }
        .into_any(),
        Some(info) => {
            let who = info
                .key_prefix
                .clone()
                .unwrap_or_else(|| t::account::access_token().to_owned());
            let how = match info.method {
                SignInMethod::KeyAndSecret => t::account::how_secret(),
                SignInMethod::PastedToken => t::account::how_token(),
                SignInMethod::ApiKey => t::account::how_key(),
            };
            let expires = info.expires_at_ms;
            view! {
                <div class="session-badge signed-in" title=how>
                    <span class="session-who">
                        <span class="visually-hidden">{t::account::signed_in_as()} " "</span>
                        {who}
                    </span>
                    {expires
                        .map(|at| {
                            view! {
                                <span
                                    class="session-time"
                                    class:renews=move || session.renews()
                                    title=t::account::time_left_title()
                                >
                                    {move || {
                                        // `now` ticks each second; the clock itself is read
                                        // so a fresh token never shows more than its life.
                                        now.track();
                                        t::account::time_left(format_time_left(at.saturating_sub(now_ms())))
                                    }}
                                </span>
                            }
                        })}
                    <button
                        type="button"
                        class="session-sign-out"
                        on:click=move |_| session.sign_out()
                    >
                        {t::account::sign_out()}
                    </button>
                </div>
            }
            .into_any()
        }
    }
}

/// Shown within a minute of the session's end: what is left and how to stay signed in
/// (try the renewal again, give the key and secret again in place, or sign in again).
/// The page underneath stays as it is.
#[component]
pub fn SessionReminder() -> impl IntoView {
    let session = use_session();
    let here = use_current_path();
    let now = use_clock();
    let reminder = Memo::new(move |_| session.reminder(now.get()));
    let asks_secret = Memo::new(move |_| reminder.read().is_some() && session.needs_secret());
    // Announced once per state, not each second as the time counts down.
    let announcement = move || match reminder.get() {
        Some(Reminder::Expired) => t::account::reminder_ended_status(),
        Some(Reminder::EndsSoon { .. }) => t::account::reminder_soon_status(),
        None => "",
    };

    view! {
        <p class="visually-hidden" role="status">
            {announcement}
        </p>
        <Show when=move || reminder.read().is_some()>
            <section class="session-reminder" aria-label=t::account::reminder_label()>
                <p class="session-reminder-text">
                    {move || {
                        reminder.get().map(|r| r.message(asks_secret.get())).unwrap_or_default()
                    }}
                </p>
                {move || match reminder.get() {
                    Some(Reminder::EndsSoon { can_renew: true, .. }) => {
                        view! {
                            <button
                                type="button"
                                class="button"
                                on:click=move |_| session.stay_signed_in()
                            >
                                {t::account::stay_signed_in()}
                            </button>
                        }
                            .into_any()
                    }
                    _ if asks_secret.get() => ().into_any(),
                    _ => {
                        view! {
                            <A
                                href=move || Route::sign_in_from(&here.read()).href()
                                attr:class="button"
                            >
                                {t::account::sign_in_again()}
                            </A>
                        }
                            .into_any()
                    }
                }}
                <Show when=move || asks_secret.get()>
                    {move || Suspend::new(crate::chunks::secret_prompt())}
                </Show>
            </section>
        </Show>
    }
}
