use download_api::DataPackage;
use explorer_logic::versions::{sort_newest_first, supply_type_label};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::api::use_api;
use crate::auth::use_session;
use crate::components::Loaded;
use crate::navigation::{Href, Route, set_page_title};

/// `/packages/:id`: one data package and its versions, newest first.
#[component]
pub fn Package() -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let params = use_params_map();
    let id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let package = LocalResource::new(move || {
        let (api, id) = (api.get(), id.get());
        async move { session.guard(&api, api.data_package(&id).await) }
    });
    view! {
        <section class="page package-page">
            <nav class="breadcrumbs" aria-label="Breadcrumbs">
                <A href=Route::Packages.href() exact=true>
                    "Data packages"
                </A>
                " / "
                <span aria-current="page">
                    {move || {
                        package
                            .get()
                            .and_then(|loaded| loaded.ok().map(|p| p.name))
                            .unwrap_or_else(|| id.get())
                    }}
                </span>
            </nav>
            <Loaded
                resource=package
                loading="Loading the data package…"
                let:package
            >
                <PackageView package />
            </Loaded>
        </section>
    }
}

#[component]
fn PackageView(package: DataPackage) -> impl IntoView {
    let mut versions = package.versions;
    sort_newest_first(&mut versions);
    let latest_href = Route::version(&package.id, "latest").href();
    let count = versions.len();
    set_page_title(&package.name);
    view! {
        <h1>{package.name}</h1>
        <dl class="facts">
            <div>
                <dt>"Package id"</dt>
                <dd>{package.id.clone()}</dd>
            </div>
            <div>
                <dt>"Product"</dt>
                <dd>{package.product_name} " " <span class="muted">{package.product_id}</span></dd>
            </div>
            <div>
                <dt>"Created"</dt>
                <dd>{package.created_on}</dd>
            </div>
            <div>
                <dt>"Versions"</dt>
                <dd>{count}</dd>
            </div>
        </dl>
        {(count > 0)
            .then(|| {
                view! {
                    <p>
                        <A href=latest_href attr:class="button">
                            "Open the latest version"
                        </A>
                    </p>
                }
            })}
        <h2>"Versions"</h2>
        {if versions.is_empty() {
            view! { <p class="empty-state">"This package has no versions yet."</p> }.into_any()
        } else {
            view! {
                <div class="table-scroll">
                    <table class="data-table versions-table">
                        <thead>
                            <tr>
                                <th scope="col">"Version"</th>
                                <th scope="col">"Created"</th>
                                <th scope="col">"Reason"</th>
                                <th scope="col">"Supply type"</th>
                                <th scope="col">"Product version"</th>
                                <th scope="col">"Format"</th>
                            </tr>
                        </thead>
                        <tbody>
                            {versions
                                .into_iter()
                                .map(|v| {
                                    let href = Route::version(&package.id, &v.id).href();
                                    let format = v.format.unwrap_or(v.product_format);
                                    view! {
                                        <tr>
                                            <td>
                                                <A href=href>{v.id}</A>
                                            </td>
                                            <td class="date">{v.created_on}</td>
                                            <td>{v.reason}</td>
                                            <td>{supply_type_label(&v.supply_type)}</td>
                                            <td>{v.product_version}</td>
                                            <td>{format}</td>
                                        </tr>
                                    }
                                })
                                .collect_view()}
                        </tbody>
                    </table>
                </div>
            }
                .into_any()
        }}
    }
}
