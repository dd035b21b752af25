use download_api::DataPackage;
use explorer_logic::text::{format_date, t};
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
            <h1>{t::packages::title()}</h1>
            <Loaded
                resource=packages
                loading=t::packages::loading_list()
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
                <p class="empty-title">{t::packages::none_title()}</p>
                <p>{t::packages::none_text()}</p>
            </div>
        }
        .into_any();
    }
    let count = packages.len();
    view! {
        <p class="summary">
            {t::packages::count(count)}
        </p>
        <div class="table-scroll">
            <table class="data-table packages-table">
                <thead>
                    <tr>
                        <th scope="col">{t::packages::name()}</th>
                        <th scope="col">{t::packages::product()}</th>
                        <th scope="col">{t::packages::created()}</th>
                        <th scope="col" class="num">{t::packages::versions()}</th>
                        <th scope="col">{t::packages::latest_version()}</th>
                    </tr>
                </thead>
                <tbody>
                    {packages
                        .into_iter()
                        .map(|package| {
                            let href = Route::package(&package.id).href();
                            let latest = latest_created_on(&package.versions).map(str::to_owned);
                            let latest_href = Route::version(&package.id, "latest").href();
                            let created = format_date(&package.created_on);
                            view! {
                                <tr>
                                    <td class="package-name">
                                        <A href=href>{package.name}</A>
                                        <span class="muted id">{package.id}</span>
                                    </td>
                                    <td data-label=t::packages::product()>
                                        {package.product_name}
                                        <span class="muted id">{package.product_id}</span>
                                    </td>
                                    <td class="date" data-label=t::packages::created()>
                                        <time datetime=package.created_on>{created}</time>
                                    </td>
                                    <td class="num" data-label=t::packages::versions()>
                                        {package.versions.len()}
                                    </td>
                                    <td class="date" data-label=t::packages::latest_version()>
                                        {match latest {
                                            Some(latest) => {
                                                let shown = format_date(&latest);
                                                view! {
                                                    <A href=latest_href>
                                                        <time datetime=latest>{shown}</time>
                                                    </A>
                                                }
                                                    .into_any()
                                            }
                                            None => "—".into_any(),
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
