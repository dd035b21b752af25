use leptos::prelude::*;
use leptos_router::components::A;

use crate::api::use_api;
use crate::components::Errors;

/// `/`: the catalogue of open products.
#[component]
pub fn Gallery() -> impl IntoView {
    let api = use_api();
    let products = LocalResource::new(move || {
        let api = api.get();
        async move { api.products().await }
    });
    view! {
        <section class="page">
            <h1>"Products"</h1>
            <Transition fallback=|| view! { <p class="loading">"Loading products…"</p> }>
                <ErrorBoundary fallback=move |errors| {
                    view! { <Errors errors retry=move |_| products.refetch() /> }
                }>
                    {move || Suspend::new(async move {
                        products
                            .await
                            .map(|products| {
                                view! {
                                    <ul class="product-list">
                                        {products
                                            .into_iter()
                                            .map(|product| {
                                                let href = format!("/products/{}", product.id);
                                                view! {
                                                    <li>
                                                        <A href=href>{product.name}</A>
                                                    </li>
                                                }
                                            })
                                            .collect_view()}
                                    </ul>
                                }
                            })
                    })}
                </ErrorBoundary>
            </Transition>
        </section>
    }
}
