use leptos::prelude::*;

use crate::api::ServiceError;

/// One error, readable: the service's own message and the links it offered.
#[component]
pub fn ErrorView(
    error: leptos::error::Error,
    /// Called by the "Try again" button, when retrying can help.
    #[prop(optional, into)]
    retry: Option<Callback<()>>,
) -> impl IntoView {
    let api_error = error.downcast_ref::<ServiceError>().cloned();
    let links: Vec<(String, String)> = api_error
        .as_ref()
        .and_then(ServiceError::body)
        .map(|body| {
            body.links()
                .map(|(label, url)| (label.to_owned(), url.to_owned()))
                .collect()
        })
        .unwrap_or_default();
    let title = api_error
        .as_ref()
        .map_or_else(|| "Something went wrong".to_owned(), ServiceError::title);
    view! {
        <div class="error-panel" role="alert">
            <p class="error-title">{title}</p>
            <p class="error-message">{error.to_string()}</p>
            {(!links.is_empty())
                .then(|| {
                    view! {
                        <ul class="error-links">
                            {links
                                .into_iter()
                                .map(|(label, url)| {
                                    view! {
                                        <li>
                                            <a href=url.clone()>{label}</a>
                                            " "
                                            <code>{url}</code>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            {retry
                .map(|retry| {
                    view! {
                        <button class="button" on:click=move |_| retry.run(())>
                            "Try again"
                        </button>
                    }
                })}
        </div>
    }
}

/// The errors caught by an `<ErrorBoundary>`, each shown with [`ErrorView`].
#[component]
pub fn Errors(
    errors: ArcRwSignal<leptos::error::Errors>,
    /// Passed on to each [`ErrorView`].
    #[prop(optional, into)]
    retry: Option<Callback<()>>,
) -> impl IntoView {
    move || {
        errors
            .get()
            .into_iter()
            .map(|(_, error)| match retry {
                Some(retry) => view! { <ErrorView error retry /> }.into_any(),
                None => view! { <ErrorView error /> }.into_any(),
            })
            .collect_view()
    }
}
