use std::sync::Arc;

use download_api::{DataPackage, DataPackageVersion};
use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::routes::version_title;
use explorer_logic::table_tools::TableQuery;
use explorer_logic::text::{format_date, t};
use explorer_logic::versions::{
    ChangedFile, Comparison, is_older, name_and_size, sort_newest_first, supply_type_label,
    version_id_from_url,
};
use leptos::prelude::*;
use leptos_router::NavigateOptions;
use leptos_router::components::A;
use leptos_router::hooks::{use_params_map, use_query_map};

use crate::api::{ServiceError, use_api};
use crate::auth::use_session;
use crate::components::bulk_export::{BulkExport, PackageVersion};
use crate::components::files_table::FilesTable;
use crate::components::virtual_list::BoxedList;
use crate::components::{Fact, Loaded, mark, with_elements};
use crate::navigation::{Href, Route, set_page_title, use_go_to};

/// `/packages/:id/versions/:version` (`latest` allowed): the files of one version,
/// links to the previous and next versions, bulk download and a comparison.
#[component]
pub fn Version() -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let params = use_params_map();
    let package_id = Memo::new(move |_| params.read().get("id").unwrap_or_default());
    let requested = Memo::new(move |_| params.read().get("version").unwrap_or_default());
    let version = LocalResource::new(move || {
        let (api, id, requested) = (api.get(), package_id.get(), requested.get());
        async move { session.guard(&api, api.version(&id, &requested).await) }
    });
    // The package's name, for the breadcrumbs and the title; its id until it arrives.
    let package = LocalResource::new(move || {
        let (api, id) = (api.get(), package_id.get());
        async move { session.guard(&api, api.data_package(&id).await) }
    });
    let package_name = Signal::derive(move || {
        package
            .get()
            .and_then(|loaded| loaded.ok().map(|p| p.name))
            .unwrap_or_else(|| package_id.get())
    });
    Effect::new(move |_| {
        let shown = version.get().and_then(Result::ok).map(|v| v.summary.id);
        let package = package_name.get();
        let title = match shown {
            Some(id) => version_title(&id, &package),
            None => version_title(&requested.get(), &package),
        };
        set_page_title(&title);
    });
    view! {
        <section class="page version-page">
            <Loaded
                resource=version
                loading=t::packages::loading_version()
                above_error=move || view! {
                    <Breadcrumbs package_id=package_id.get_untracked() package_name version_id=None />
                }
                let:version
            >
                <VersionView
                    version
                    package_id=package_id.get_untracked()
                    package
                    package_name
                    requested=requested.get_untracked()
                />
            </Loaded>
        </section>
    }
}

/// Data packages / the package (by name) / this version.
#[component]
fn Breadcrumbs(
    package_id: String,
    package_name: Signal<String>,
    version_id: Option<String>,
) -> impl IntoView {
    let href = Route::package(&package_id).href();
    view! {
        <nav class="breadcrumbs" aria-label=t::packages::breadcrumbs()>
            <A href=Route::Packages.href() exact=true>
                {t::packages::title()}
            </A>
            " / "
            <A href=href exact=true>
                {package_name}
            </A>
            {version_id
                .map(|id| {
                    view! {
                        " / "
                        <span aria-current="page">{t::packages::version_id(id)}</span>
                    }
                })}
        </nav>
    }
}

#[component]
fn VersionView(
    version: DataPackageVersion,
    package_id: String,
    /// The package, for its name and its other versions.
    package: LocalResource<Result<DataPackage, ServiceError>>,
    package_name: Signal<String>,
    requested: String,
) -> impl IntoView {
    let summary = version.summary.clone();
    let id = summary.id.clone();
    let route_of = |url: &Option<String>| {
        url.as_deref()
            .and_then(version_id_from_url)
            .map(|id| (Route::version(&package_id, &id).href(), id))
    };
    let previous = route_of(&version.previous_version_url);
    let next = route_of(&version.next_version_url);
    let is_latest = next.is_none();
    let asked_latest = requested == "latest";
    let format = summary
        .format
        .clone()
        .unwrap_or(summary.product_format.clone());
    let title = t::packages::export_title(&package_id, &id);
    let files = version.downloads.clone();
    let bulk_files: Vec<BulkDownload> = files.iter().cloned().map(BulkDownload::from).collect();
    // The files' filter and order live in the address, next to the comparison.
    let query = use_query_map();
    let files_query = query.with_untracked(|q| {
        TableQuery::from_params(q.get("filter").as_deref(), q.get("sort").as_deref())
    });
    let on_files_query = {
        let go_to = use_go_to();
        let (package_id, requested) = (package_id.clone(), requested.clone());
        Callback::new(move |files: TableQuery| {
            let route = Route::Version {
                package_id: package_id.clone(),
                version: requested.clone(),
                compare: query
                    .with_untracked(|q| q.get("compare"))
                    .filter(|c| !c.is_empty()),
                files,
            };
            let options = NavigateOptions {
                replace: true,
                scroll: false,
                ..NavigateOptions::default()
            };
            go_to(&route, options);
        })
    };

    view! {
        <Breadcrumbs package_id=package_id.clone() package_name version_id=Some(id.clone()) />
        <div class="version-heading">
            <h1>
                {t::packages::version_id(&id)}
                // Read and copied as "Version 131866, latest", not "131866latest".
                {is_latest
                    .then(|| {
                        view! {
                            <span class="visually-hidden">", "</span>
                            <span class="tag latest">{t::packages::latest_tag()}</span>
                        }
                    })}
            </h1>
            <nav class="version-nav" aria-label=t::packages::other_versions()>
                {match previous {
                    Some((href, prev)) => {
                        view! {
                            <A href=href attr:class="button secondary" attr:rel="prev">
                                {t::packages::older(prev)}
                            </A>
                        }
                            .into_any()
                    }
                    None => view! { <span class="muted">{t::packages::oldest()}</span> }.into_any(),
                }}
                {match next {
                    Some((href, newer)) => {
                        view! {
                            <A href=href attr:class="button secondary" attr:rel="next">
                                {t::packages::newer(newer)}
                            </A>
                        }
                            .into_any()
                    }
                    None => view! { <span class="muted">{t::packages::newest()}</span> }.into_any(),
                }}
            </nav>
        </div>
        {asked_latest
            .then(|| {
                let permalink = Route::version(&package_id, &id).href();
                let mut resolved = Some(view! { <strong class="resolved-id">{id.clone()}</strong> });
                view! {
                    <p class="resolved-note">
                        {with_elements(&t::packages::latest_is(mark(0)), |_| resolved.take().into_any())} " "
                        <A href=permalink>{t::packages::exact_link()}</A>
                    </p>
                }
            })}
        <dl class="facts">
            <Fact term=t::packages::created()>
                <time datetime=summary.created_on.clone()>{format_date(&summary.created_on)}</time>
            </Fact>
            <Fact term=t::packages::reason()>{summary.reason.clone()}</Fact>
            <Fact term=t::packages::supply_type()>{supply_type_label(&summary.supply_type)}</Fact>
            <Fact term=t::packages::product_version()>{summary.product_version.clone()}</Fact>
            <Fact term=t::packages::format()>{format}</Fact>
        </dl>
        <h2>{t::packages::files()}</h2>
        <BulkExport files=bulk_files title package=PackageVersion { package_id: package_id.clone(), version_id: id.clone() } />
        {if files.is_empty() {
            view! { <p class="empty-state">{t::packages::no_files()}</p> }.into_any()
        } else {
            view! {
                <FilesTable
                    files
                    package_id=package_id.clone()
                    version_id=id.clone()
                    query=files_query
                    on_query=on_files_query
                />
            }
                .into_any()
        }}
        <VersionCompare package_id package version requested />
    }
}

/// Pick another version of the package and see which files were added, removed or
/// changed. The choice is kept in the address (`?compare=<version>`).
#[component]
fn VersionCompare(
    package_id: String,
    package: LocalResource<Result<DataPackage, ServiceError>>,
    version: DataPackageVersion,
    /// The version as the address names it (`latest` or an id).
    requested: String,
) -> impl IntoView {
    let api = use_api();
    let session = use_session();
    let query = use_query_map();
    let go_to = use_go_to();
    let current = StoredValue::new(version);
    let other_id = Memo::new(move |_| query.read().get("compare").filter(|v| !v.is_empty()));

    let other = {
        let package_id = package_id.clone();
        LocalResource::new(move || {
            let (api, id, other) = (api.get(), package_id.clone(), other_id.get());
            async move {
                match other {
                    Some(other) => session
                        .guard(&api, api.version(&id, &other).await)
                        .map(Some),
                    None => Ok(None),
                }
            }
        })
    };

    let on_change = {
        let package_id = package_id.clone();
        move |ev: leptos::ev::Event| {
            // The address keeps what was asked for: `latest` stays `latest`.
            let route = Route::Version {
                package_id: package_id.clone(),
                version: requested.clone(),
                compare: Some(event_target_value(&ev)).filter(|other| !other.is_empty()),
                files: query.with_untracked(|q| {
                    TableQuery::from_params(q.get("filter").as_deref(), q.get("sort").as_deref())
                }),
            };
            let options = NavigateOptions {
                replace: true,
                scroll: false,
                ..NavigateOptions::default()
            };
            go_to(&route, options);
        }
    };

    let current_id = current.with_value(|v| v.summary.id.clone());
    view! {
        <section class="compare" aria-labelledby="compare-heading">
            <h2 id="compare-heading">{t::packages::compare_title()}</h2>
            <Loaded
                resource=package
                loading=t::packages::loading_versions()
                no_retry=true
                children={move |package: DataPackage| {
                    let mut versions = package.versions;
                    sort_newest_first(&mut versions);
                    let selected = other_id.get_untracked().unwrap_or_default();
                    let options = versions
                        .into_iter()
                        .filter(|v| v.id != current_id)
                        .map(|v| {
                            let label =
                                format!("{} — {} ({})", v.id, format_date(&v.created_on), v.reason);
                            let is_selected = v.id == selected;
                            view! { <option value=v.id selected=is_selected>{label}</option> }
                        })
                        .collect_view();
                    view! {
                        <label for="compare-select">{t::packages::other_version()}</label>
                        " "
                        <select id="compare-select" on:change=on_change.clone()>
                            <option value="" selected=selected.is_empty()>{t::packages::choose_version()}</option>
                            {options}
                        </select>
                    }
                }}
            />
            <Loaded
                resource=other
                loading=t::packages::comparing()
                no_retry=true
                children={move |other: Option<DataPackageVersion>| {
                    other.map(|other| current.with_value(|current| comparison_view(&other, current)))
                }}
            />
        </section>
    }
}

fn comparison_view(a: &DataPackageVersion, b: &DataPackageVersion) -> AnyView {
    // Always read from the older version to the newer one.
    let (older, newer) = if is_older(&b.summary, &a.summary) {
        (b, a)
    } else {
        (a, b)
    };
    let result = Comparison::between(&older.downloads, &newer.downloads);
    let list = |title: &'static str, class: &'static str, files: Vec<String>| {
        (!files.is_empty()).then(|| view! { <CompareList title class files /> })
    };
    let added = result.added.iter().map(|d| name_and_size(d)).collect();
    let removed = result.removed.iter().map(|d| name_and_size(d)).collect();
    let changed = result.changed.iter().map(ChangedFile::describe).collect();
    let counts = result.counts();
    let summary = if result.is_identical() {
        t::packages::compare_same(mark(0), mark(1), mark(2))
    } else {
        t::packages::compare_summary(mark(0), mark(1), mark(2))
    };
    let mut elements = [
        Some(view! { <span class="compare-counts">{counts}</span> }.into_any()),
        Some(view! { <strong>{newer.summary.id.clone()}</strong> }.into_any()),
        Some(view! { <strong>{older.summary.id.clone()}</strong> }.into_any()),
    ];
    view! {
        <div class="compare-result" role="status">
            <p class="compare-summary">
                {with_elements(&summary, |n| {
                    elements.get_mut(usize::from(n)).and_then(Option::take).into_any()
                })}
            </p>
            {list(t::packages::added(), "added", added)}
            {list(t::packages::removed(), "removed", removed)}
            {list(t::packages::changed(), "changed", changed)}
        </div>
    }
    .into_any()
}

/// One list of a comparison (added, removed or changed files), windowed in a box of
/// its own that scrolls once the list is long.
#[component]
fn CompareList(title: &'static str, class: &'static str, files: Vec<String>) -> impl IntoView {
    let total = files.len();
    let files: Arc<[String]> = files.into();
    view! {
        <div class=format!("compare-list {class}")>
            <h3>{title}</h3>
            <BoxedList total class="name-box" item=move |pos| files[pos].clone() />
        </div>
    }
}
