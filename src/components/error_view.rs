use download_api::is_web_address;
use explorer_logic::text::t;
use leptos::either::Either;
use leptos::prelude::*;

use crate::api::ServiceError;

/// The one panel for something that did not come: what went wrong in a line and in
/// words, the links the service offered, and ways on: "Try again" when `retry` is
/// given, then `children` (in a row of actions with it).
#[component]
pub fn ErrorPanel(
    /// A class besides `error-panel`, naming what did not come.
    #[prop(optional)]
    class: &'static str,
    title: String,
    message: String,
    /// `(label, address)` of each link the service offered.
    #[prop(optional)]
    links: Vec<(String, String)>,
    #[prop(optional_no_strip)] retry: Option<Callback<()>>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let class = if class.is_empty() {
        "error-panel".to_owned()
    } else {
        format!("error-panel {class}")
    };
    let retry = retry.map(|retry| {
        view! { <button type="button" class="button" on:click=move |_| retry.run(())>{t::errors::try_again()}</button> }
    });
    // `Either`, not `into_any`: each any-view costs the wasm a few hundred bytes.
    let actions = match children {
        Some(more) => Either::Left(view! { <p class="problem-actions">{retry}{more()}</p> }),
        None => Either::Right(retry),
    };
    view! {
        <div class=class role="alert">
            <p class="error-title">{title}</p>
            <p class="error-message">{message}</p>
            {links_list(links)}
            {actions}
        </div>
    }
}

/// The links a panel offers, each with its address shown; nothing when there are none.
fn links_list(links: Vec<(String, String)>) -> Option<impl IntoView> {
    (!links.is_empty()).then(|| {
        view! {
            <ul class="error-links">
                // Only a web address becomes a link: a `javascript:` one is shown as text.
                {links.into_iter().map(|(label, url)| {
                    let label = if is_web_address(&url) {
                        Either::Left(view! { <a href=url.clone()>{label}</a> })
                    } else {
                        Either::Right(view! { <span class="not-a-link">{label}</span> })
                    };
                    view! { <li>{label} " " <code>{url}</code></li> }
                }).collect_view()}
            </ul>
        }
    })
}

/// The links the service's error body offered, `(label, address)`.
pub fn service_links(error: &ServiceError) -> Vec<(String, String)> {
    error
        .body()
        .map(|body| {
            body.links()
                .map(|(label, url)| (label.to_owned(), url.to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// One error, readable: the service's own message and the links it offered. Its own
/// markup, the same as [`ErrorPanel`]'s: it is in the first load, where calling that
/// panel cost the gallery about half a kilobyte.
#[component]
pub fn ErrorView(
    error: leptos::error::Error,
    /// Called by the "Try again" button, when retrying can help.
    #[prop(optional_no_strip)]
    retry: Option<Callback<()>>,
) -> impl IntoView {
    let service_error = error.downcast_ref::<ServiceError>();
    let links = service_error.map(service_links).unwrap_or_default();
    let title = service_error.map_or_else(
        || t::errors::something_wrong().to_owned(),
        ServiceError::title,
    );
    view! {
        <div class="error-panel" role="alert">
            <p class="error-title">{title}</p>
            <p class="error-message">
                {service_error.map_or_else(|| error.to_string(), ServiceError::plain_message)}
            </p>
            {links_list(links)}
            {retry.map(|retry| view! {
                <button type="button" class="button" on:click=move |_| retry.run(())>{t::errors::try_again()}</button>
            })}
        </div>
    }
}

/// The errors caught by an `<ErrorBoundary>`, each shown with [`ErrorView`].
#[component]
pub fn Errors(
    errors: ArcRwSignal<leptos::error::Errors>,
    /// Passed on to each [`ErrorView`].
    #[prop(optional_no_strip)]
    retry: Option<Callback<()>>,
) -> impl IntoView {
    move || {
        errors
            .get()
            .into_iter()
            .map(|(_, error)| view! { <ErrorView error retry /> })
            .collect_view()
    }
}
