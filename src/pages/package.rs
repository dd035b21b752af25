use download_api::DataPackage;
use explorer_logic::text::{format_date, t};
use explorer_logic::versions::{sort_newest_first, supply_type_label};
use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::api::use_api;
use crate::auth::use_session;
use crate::components::{Fact, Loaded};
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
            <nav class="breadcrumbs" aria-label=t::packages::breadcrumbs()>
                <A href=Route::Packages.href() exact=true>
                    {t::packages::title()}
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
                loading=t::packages::loading_package()
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
    let id = package.id.clone();
    set_page_title(&package.name);
    view! {
        <h1>{package.name}</h1>
        <dl class="facts">
            <Fact term=t::packages::package_id()>{id}</Fact>
            <Fact term=t::packages::product()>{package.product_name} " " <span class="muted">{package.product_id}</span></Fact>
            <Fact term=t::packages::created()>
                <time datetime=package.created_on.clone()>{format_date(&package.created_on)}</time>
            </Fact>
            <Fact term=t::packages::versions()>{count}</Fact>
        </dl>
        {(count > 0)
            .then(|| {
                view! {
                    <p>
                        <A href=latest_href attr:class="button">
                            {t::packages::open_latest()}
                        </A>
                    </p>
                }
            })}
        <h2>{t::packages::versions()}</h2>
        {if versions.is_empty() {
            view! { <p class="empty-state">{t::packages::no_versions()}</p> }.into_any()
        } else {
            view! {
                <div class="table-scroll">
                    <table class="data-table versions-table">
                        <thead>
                            <tr>
                                <th scope="col">{t::packages::version()}</th>
                                <th scope="col">{t::packages::created()}</th>
                                <th scope="col">{t::packages::reason()}</th>
                                <th scope="col">{t::packages::supply_type()}</th>
                                <th scope="col">{t::packages::product_version()}</th>
                                <th scope="col">{t::packages::format()}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {versions
                                .into_iter()
                                .map(|v| {
                                    let href = Route::version(&package.id, &v.id).href();
                                    let format = v.format.unwrap_or(v.product_format);
                                    let created = format_date(&v.created_on);
                                    view! {
                                        <tr>
                                            <td>
                                                <A href=href>{v.id}</A>
                                            </td>
                                            <td class="date">
                                                <time datetime=v.created_on>{created}</time>
                                            </td>
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
