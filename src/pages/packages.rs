use download_api::DataPackage;
use explorer_logic::counted;
use explorer_logic::versions::latest_created_on;
use leptos::prelude::*;
use leptos_router::components::A;

use crate::api::use_api;
use crate::auth::use_session;
use crate::components::Loaded;
use crate::navigation::{Href, Route};

/// `/packages`: the signed-in project's data packages.
#[component]
pub fn Packages() -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let packages = LocalResource::new(move || {
        let api = api.get();
        async move { session.guard(&api, api.data_packages().await) }
    });
    view! {
        <section class="page packages-page">
            <h1>"Data packages"</h1>
            <Loaded
                resource=packages
                loading="Loading your data packages…"
                let:packages
            >
                <PackageTable packages />
            </Loaded>
        </section>
    }
}

#[component]
fn PackageTable(packages: Vec<DataPackage>) -> impl IntoView {
    if packages.is_empty() {
        return view! {
            <div class="empty-state">
                <p class="empty-title">"No data packages yet"</p>
                <p>
                    "Data packages are not made here: they are created for your project in its "
                    "project portal, where you choose the product, the area and the format. "
                    "Once a package is ready it appears in this list."
                </p>
            </div>
        }
        .into_any();
    }
    let count = packages.len();
    view! {
        <p class="summary">
            {counted(count, "data package", "data packages")}
        </p>
        <div class="table-scroll">
            <table class="data-table packages-table">
                <thead>
                    <tr>
                        <th scope="col">"Name"</th>
                        <th scope="col">"Product"</th>
                        <th scope="col">"Created"</th>
                        <th scope="col" class="num">"Versions"</th>
                        <th scope="col">"Latest version"</th>
                    </tr>
                </thead>
                <tbody>
                    {packages
                        .into_iter()
                        .map(|package| {
                            let href = Route::package(&package.id).href();
                            let latest = latest_created_on(&package.versions)
                                .map(str::to_owned)
                                .unwrap_or_else(|| "—".into());
                            let latest_href = Route::version(&package.id, "latest").href();
                            let has_versions = !package.versions.is_empty();
                            view! {
                                <tr>
                                    <td class="package-name">
                                        <A href=href>{package.name}</A>
                                        <span class="muted id">{package.id}</span>
                                    </td>
                                    <td data-label="Product">
                                        {package.product_name}
                                        <span class="muted id">{package.product_id}</span>
                                    </td>
                                    <td class="date" data-label="Created">
                                        {package.created_on}
                                    </td>
                                    <td class="num" data-label="Versions">
                                        {package.versions.len()}
                                    </td>
                                    <td class="date" data-label="Latest version">
                                        {if has_versions {
                                            view! { <A href=latest_href>{latest}</A> }.into_any()
                                        } else {
                                            latest.into_any()
                                        }}
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
    .into_any()
}
