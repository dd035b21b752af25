//! One fact in a list of facts (`<dl>`): a product card's, a package's, a version's.

use leptos::prelude::*;

/// A term and what it is, as one entry of a `<dl>`. Its children keep their own type
/// (no boxed view): product cards are the first load.
#[component]
pub fn Fact<V: IntoView + 'static>(
    term: &'static str,
    children: TypedChildren<V>,
) -> impl IntoView {
    let what = children.into_inner();
    view! {
        <div>
            <dt>{term}</dt>
            <dd>{what()}</dd>
        </div>
    }
}
