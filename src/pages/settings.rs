//! `/settings`: which Download Service the app talks to.

use std::fmt;

use explorer_logic::address::{AddressKind, check_address};
use explorer_logic::text::t;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::api::{ServiceContext, use_api};
use crate::auth::use_session;
use crate::components::{Loaded, TextField, mark, with_elements};
use crate::config::{self, ServiceConfig};

/// What the last Save or Reset did; `signed_out` when a sign-in had to end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Changed {
    Saved { signed_out: bool },
    Reset { signed_out: bool },
}

impl fmt::Display for Changed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Changed::Saved { signed_out: true } => t::account::saved_signed_out(),
            Changed::Saved { signed_out: false } => t::account::saved(),
            Changed::Reset { signed_out: true } => t::account::reset_signed_out(),
            Changed::Reset { signed_out: false } => t::account::reset_done(),
        })
    }
}

/// `/settings`: the service address and token address, kept in this browser.
#[component]
pub fn Settings() -> impl IntoView {
    let context = expect_context::<ServiceContext>();
    let session = use_session();
    let current = context.config.get_untracked();
    let api_base = RwSignal::new(current.api_base);
    let token_url = RwSignal::new(current.token_url);
    // Errors show once the user has tried to save, then follow the typing.
    let submitted = RwSignal::new(false);
    let notice = RwSignal::new(None::<Changed>);
    let custom = RwSignal::new(config::saved().is_some());
    let defaults = LocalResource::new(config::deployed);

    // True when the address changed and a sign-in had to end.
    let apply = move |config: ServiceConfig| -> bool {
        api_base.set(config.api_base.clone());
        token_url.set(config.token_url.clone());
        if context.config.get_untracked() == config {
            return false;
        }
        // A sign-in (token, key, the secret kept for renewal) belongs to the service it
        // was made for: never send it to another address.
        let signed_in = session.is_signed_in();
        session.sign_out();
        context.config.set(config);
        signed_in
    };

    let save = move |ev: SubmitEvent| {
        ev.prevent_default();
        submitted.set(true);
        let checked = (
            check_address(&api_base.get_untracked(), AddressKind::ApiBase),
            check_address(&token_url.get_untracked(), AddressKind::TokenUrl),
        );
        let (Ok(api_base), Ok(token_url)) = checked else {
            notice.set(None);
            focus_first_invalid();
            return;
        };
        let config = ServiceConfig {
            api_base,
            token_url,
        };
        // Saving the defaults is the same as not choosing: later deployer changes then apply.
        let is_default = defaults
            .read()
            .as_ref()
            .is_some_and(|defaults| *defaults == config);
        if is_default {
            config::forget();
        } else {
            config::save(&config);
        }
        custom.set(!is_default);
        let signed_out = apply(config);
        submitted.set(false);
        notice.set(Some(Changed::Saved { signed_out }));
    };

    let reset = move |_| {
        spawn_local(async move {
            config::forget();
            let defaults = config::deployed().await;
            custom.set(false);
            submitted.set(false);
            let signed_out = apply(defaults);
            notice.set(Some(Changed::Reset { signed_out }));
        });
    };

    view! {
        <section class="page settings">
            <header class="page-header">
                <h1>{t::account::settings_title()}</h1>
                <p class="lead">{t::account::settings_lead()}</p>
            </header>
            <form class="panel settings-form" novalidate on:submit=save>
                <h2>{t::account::service_address()}</h2>
                <p class="hint">
                    {move || {
                        if custom.get() {
                            t::account::own_address()
                        } else {
                            t::account::default_address()
                        }
                    }}
                </p>
                <AddressField
                    id="settings-api-base"
                    label=t::account::api_base_label()
                    hint=t::account::api_base_hint()
                    kind=AddressKind::ApiBase
                    value=api_base
                    submitted
                />
                <AddressField
                    id="settings-token-url"
                    label=t::account::token_url_label()
                    hint=t::account::token_url_hint()
                    kind=AddressKind::TokenUrl
                    value=token_url
                    submitted
                />
                <div class="form-actions">
                    <button type="submit" class="button">
                        {t::account::save()}
                    </button>
                    <button type="button" class="button secondary" on:click=reset>
                        {t::account::reset()}
                    </button>
                    <p class="form-notice" role="status" aria-live="polite">
                        {move || notice.get().map(|changed| changed.to_string())}
                    </p>
                </div>
                <Transition>
                    {move || {
                        defaults
                            .get()
                            .map(|defaults| {
                                let text = t::account::defaults(mark(0), mark(1));
                                let mut addresses = [Some(defaults.api_base), Some(defaults.token_url)];
                                let text = with_elements(
                                    &text,
                                    |n| {
                                        let address = addresses
                                            .get_mut(usize::from(n))
                                            .and_then(Option::take);
                                        view! { <code>{address}</code> }.into_any()
                                    },
                                );
                                view! { <p class="hint defaults">{text}</p> }
                            })
                    }}
                </Transition>
            </form>
            <ConnectionCheck />
        </section>
    }
}

/// One address input with its label, hint and error.
#[component]
fn AddressField(
    id: &'static str,
    label: &'static str,
    hint: &'static str,
    kind: AddressKind,
    value: RwSignal<String>,
    /// Whether the user has tried to save: errors show from then on, following the typing.
    submitted: RwSignal<bool>,
) -> impl IntoView {
    let error = Signal::derive(move || {
        let error = submitted
            .get()
            .then(|| check_address(&value.read(), kind).err());
        error.flatten().map(|e| e.to_string())
    });
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    view! {
        <TextField
            id
            label
            value
            kind="url"
            inputmode="url"
            class="field address-field"
            placeholder=kind.example()
            invalid=Signal::derive(move || error.read().is_some())
            problem_id=error_id.clone()
            hint_id=hint_id.clone()
        >
            <p class="hint" id=hint_id>
                {hint}
            </p>
            <p class="field-error" id=error_id>
                {move || error.get()}
            </p>
        </TextField>
    }
}

/// Whether the current service answers, so a wrong address shows here at once.
#[component]
fn ConnectionCheck() -> impl IntoView {
    let api = use_api();
    let products = LocalResource::new(move || {
        let api = api.get();
        async move { api.products().await.map(|products| products.len()) }
    });
    view! {
        <section class="panel connection" aria-labelledby="connection-title">
            <h2 id="connection-title">{t::account::connection()}</h2>
            <p class="hint">
                {with_elements(
                    &t::account::connection_asking(mark(0)),
                    |_| view! { <code>{move || api.read().urls().products(true)}</code> }.into_any(),
                )}
            </p>
            <Loaded
                resource=products
                fallback=|| {
                    view! { <p class="connection-status">{t::account::connection_checking()}</p> }
                }
                let:count
            >
                <p class="connection-status ok">{t::account::connected(count)}</p>
            </Loaded>
        </section>
    }
}

/// Moves focus to the first field with an error, so keyboard and screen-reader
/// users land on what needs fixing.
fn focus_first_invalid() {
    // The error attributes update in the same tick; look after they have.
    request_animation_frame(|| {
        let field = document()
            .query_selector(".settings-form [aria-invalid=\"true\"]")
            .ok()
            .flatten();
        if let Some(field) =
            field.and_then(|f| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(f).ok())
        {
            let _ = field.focus();
        }
    });
}
