use std::time::Duration;

use explorer_logic::session::format_time_left;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::auth::{SignInMethod, use_session};
use crate::routes::{Route, use_current_path};

/// The header's sign-in state: who is signed in (the key's first characters), the
/// time left on a token, and a sign-out button; or a "Sign in" link.
#[component]
pub fn SessionBadge() -> impl IntoView {
    let session = use_session();
    let here = use_current_path();
    let now = RwSignal::new(js_sys::Date::now() as u64);
    if let Ok(handle) = set_interval_with_handle(
        move || now.set(js_sys::Date::now() as u64),
        Duration::from_secs(1),
    ) {
        on_cleanup(move || handle.clear());
    }

    let sign_in_href = move || Route::sign_in_from(&here.read()).path();

    move || match session.info() {
        None => view! {
            <A href=sign_in_href attr:class="session-badge signed-out">
                "Sign in"
            </A>
        }
        .into_any(),
        Some(info) => {
            let who = info
                .key_prefix
                .clone()
                .unwrap_or_else(|| "Access token".to_owned());
            let how = match info.method {
                SignInMethod::KeyAndSecret => {
                    "Signed in with API key and secret (renewed automatically)"
                }
                SignInMethod::PastedToken => "Signed in with an access token",
                SignInMethod::ApiKey => "Signed in with an API key",
            };
            let expires = info.expires_at_ms;
            let renews = info.renews;
            view! {
                <div class="session-badge signed-in" title=how>
                    <span class="session-who">
                        <span class="visually-hidden">"Signed in as "</span>
                        {who}
                    </span>
                    {expires
                        .map(|at| {
                            view! {
                                <span
                                    class="session-time"
                                    class:renews=renews
                                    title="Time left on the access token"
                                >
                                    {move || {
                                        // `now` ticks each second; the clock itself is read
                                        // so a fresh token never shows more than its life.
                                        now.track();
                                        let now = js_sys::Date::now() as u64;
                                        format!("{} left", format_time_left(at.saturating_sub(now)))
                                    }}
                                </span>
                            }
                        })}
                    <button
                        type="button"
                        class="session-sign-out"
                        on:click=move |_| session.sign_out()
                    >
                        "Sign out"
                    </button>
                </div>
            }
            .into_any()
        }
    }
}
