//! A resource's answer on the page: the one way pages wait for the service.

use leptos::prelude::*;

use crate::api::{ServiceContext, ServiceError};
use crate::components::Errors;

/// What `resource` answered, once it has: `fallback` (or the `loading` line) while the
/// first answer is on its way (a reload keeps the last answer on screen), the error
/// with a "Try again" that asks anew when it failed, else `children` of the answer
/// (`let:answer`).
#[component]
pub fn Loaded<T, F, V>(
    resource: LocalResource<Result<T, ServiceError>>,
    #[prop(optional, into)] fallback: ViewFnOnce,
    /// A line saying what is on its way, in place of a `fallback`.
    #[prop(optional)]
    loading: Option<&'static str>,
    /// Shown above the error (the page's breadcrumbs, say).
    #[prop(optional, into)]
    above_error: Option<ViewFn>,
    /// No "Try again": asking anew would not help.
    #[prop(optional)]
    no_retry: bool,
    children: F,
) -> impl IntoView
where
    T: Clone + 'static,
    F: Fn(T) -> V + Clone + Send + 'static,
    V: IntoView + 'static,
{
    let retry = (!no_retry).then(|| Callback::new(move |()| resource.refetch()));
    // Refused for the session: asked again once the session has a new token.
    let service = expect_context::<ServiceContext>();
    Effect::new(move |_| {
        service.renewed.track();
        let refused = resource
            .read_untracked()
            .as_ref()
            .is_some_and(|answer| answer.as_ref().is_err_and(ServiceError::is_unauthorized));
        if refused {
            resource.refetch();
        }
    });
    let fallback = match loading {
        Some(text) => {
            ViewFnOnce::from(move || view! { <p class="loading" role="status">{text}</p> })
        }
        None => fallback,
    };
    view! {
        <Transition fallback>
            <ErrorBoundary fallback=move |errors| {
                view! {
                    {above_error.as_ref().map(ViewFn::run)}
                    <Errors errors retry />
                }
            }>
                {move || {
                    let children = children.clone();
                    Suspend::new(async move { resource.await.map(children) })
                }}
            </ErrorBoundary>
        </Transition>
    }
}
