//! "Verify files": files the user already has (picked, dropped, or a whole folder chosen
//! or dropped, its sub-folders included) checked against the listing by md5, computed
//! in the browser as each file streams. The same in every browser: the folder comes
//! from a folder input or the entries of a drop (`crate::dropped`), not the File System
//! Access API's picker, which only Chromium has.

use std::collections::BTreeSet;
use std::sync::Arc;

use explorer_logic::bulk::export::BulkDownload;
use explorer_logic::bulk::file::ListedFile;
use explorer_logic::bulk::progress::percent;
use explorer_logic::bulk::verify::{Found, Verification};
use explorer_logic::format_size;
use explorer_logic::text::t;
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;
use web_sys::{File, FileList};

use crate::components::virtual_list::BoxedList;
use crate::components::{mark, with_elements};
use crate::dropped::{files_of, take_dropped};
use crate::fs_access::md5_of;

/// Where a verification is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Check {
    Idle,
    /// Hashing: bytes done of the total.
    Hashing {
        done: u64,
        total: u64,
    },
    Done(Verification),
    Failed(String),
}

/// Pick files (input, drop or folder) to compare with the listing.
#[component]
pub fn VerifyFiles(files: Signal<Vec<BulkDownload>>) -> impl IntoView {
    let check = RwSignal::new(Check::Idle);
    let dragging = RwSignal::new(false);
    let verify = move |picked: Vec<File>| {
        let listed = files.with_untracked(|f| ListedFile::all_of(f));
        spawn_local(async move {
            // Only a listed name is compared; a folder's other files are named, not read.
            // A basket's sub-folders are not part of a name: files are found by their own.
            let names: BTreeSet<&str> = listed.iter().map(ListedFile::file_name).collect();
            let (picked, others): (Vec<File>, Vec<File>) = picked
                .into_iter()
                .partition(|file| names.contains(file.name().as_str()));
            let mut found: Vec<Found> = others
                .iter()
                .map(|file| Found {
                    name: file.name(),
                    size: file.size() as u64,
                    md5: String::new(),
                })
                .collect();
            let total = picked.iter().map(|f| f.size() as u64).sum();
            check.set(Check::Hashing { done: 0, total });
            let mut done = 0;
            for file in picked {
                let progress = |bytes| {
                    done += bytes;
                    check.set(Check::Hashing { done, total });
                };
                match md5_of(&file, progress).await {
                    Ok(md5) => found.push(Found {
                        name: file.name(),
                        size: file.size() as u64,
                        md5,
                    }),
                    Err(error) => {
                        check.set(Check::Failed(t::bulk::verify_read_failed(
                            error,
                            file.name(),
                        )));
                        return;
                    }
                }
            }
            check.set(Check::Done(Verification::of(&listed, &found)));
        });
    };
    let from_list = move |list: Option<FileList>| {
        let list = list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect());
        verify(list.unwrap_or_default());
    };
    let from_input = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        from_list(input.as_ref().and_then(|i| i.files()));
    };
    let from_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging.set(false);
        // Taken now: the browser empties the drop's data once the event is handled.
        let dropped = ev
            .data_transfer()
            .map(|d| take_dropped(&d))
            .unwrap_or_default();
        spawn_local(async move {
            match files_of(dropped).await {
                Ok(picked) => verify(picked),
                Err(error) => check.set(Check::Failed(t::bulk::verify_folder_failed(error))),
            }
        });
    };
    view! {
        <details class="verify-files">
            <summary>{t::bulk::verify_title()}</summary>
            <div
                class="drop-zone"
                class:dragging=move || dragging.get()
                on:dragover=move |ev| {
                    ev.prevent_default();
                    dragging.set(true);
                }
                on:dragleave=move |_| dragging.set(false)
                on:drop=from_drop
            >
                <p>{t::bulk::verify_drop()} " "</p>
                <label class="button secondary">
                    {t::bulk::verify_choose_files()}
                    <input type="file" multiple class="visually-hidden verify-files-input" on:change=from_input />
                </label>
                <label class="button secondary">
                    {t::bulk::verify_choose_folder()}
                    <input
                        type="file"
                        prop:webkitdirectory=true
                        class="visually-hidden verify-folder-input"
                        on:change=from_input
                    />
                </label>
            </div>
            <div class="verify-result" aria-live="polite">{move || result_view(check.get())}</div>
        </details>
    }
}

fn result_view(check: Check) -> AnyView {
    match check {
        Check::Idle => ().into_any(),
        Check::Hashing { done, total } => {
            let percent = percent(done, total);
            view! {
                <div class="bar" role="progressbar" aria-label=t::bulk::verify_computing() aria-valuemin="0"
                    aria-valuemax="100" aria-valuenow=percent.to_string()>
                    <div class="bar-fill" style:width=format!("{percent}%")></div>
                </div>
                <p>{t::bulk::verify_computing_progress(format_size(done), format_size(total))}</p>
            }
            .into_any()
        }
        Check::Failed(reason) => view! { <p class="notice" role="alert">{reason}</p> }.into_any(),
        Check::Done(result) => {
            let names = |class: &'static str, title: String, names: Vec<String>| {
                (!names.is_empty()).then(|| {
                    view! {
                        <div class=format!("verify-list {class}")>
                            <h4>{title}</h4>
                            <NameBox names />
                        </div>
                    }
                })
            };
            let differs = (!result.differs.is_empty()).then(|| {
                let rows = result
                    .differs
                    .iter()
                    .map(|d| {
                        view! { <li>{differs_line(&d.name, &d.expected, &d.actual)}</li> }
                    })
                    .collect_view();
                view! {
                    <div class="verify-list differs">
                        <h4>{t::bulk::verify_differs(result.differs.len())}</h4>
                        <ul>{rows}</ul>
                    </div>
                }
            });
            let verdict = if result.all_match() {
                t::bulk::verify_all_match()
            } else {
                t::bulk::verify_some_differ()
            };
            view! {
                <p class="verify-verdict">{verdict}</p>
                {names("matches", t::bulk::verify_matches(result.matches.len()), result.matches.clone())}
                {differs}
                {names("missing", t::bulk::verify_missing(result.missing.len()), result.missing.clone())}
                {names("not-listed", t::bulk::verify_not_listed(result.not_listed.len()), result.not_listed.clone())}
            }
            .into_any()
        }
    }
}

/// `a.zip listed <md5>, yours <md5>`, worded as the language has it: the name in bold,
/// the two values as code.
fn differs_line(name: &str, expected: &str, actual: &str) -> AnyView {
    let text = t::bulk::verify_differs_line(mark(0), mark(1), mark(2));
    with_elements(&text, |n| match n {
        0 => view! { <code>{actual.to_owned()}</code> }.into_any(),
        1 => view! { <code>{expected.to_owned()}</code> }.into_any(),
        _ => view! { <strong>{name.to_owned()}</strong> }.into_any(),
    })
    .into_any()
}

/// File names, windowed in a box of their own.
#[component]
fn NameBox(names: Vec<String>) -> impl IntoView {
    let total = names.len();
    let names: Arc<[String]> = names.into();
    view! { <BoxedList total class="name-box" item=move |pos| names[pos].clone() /> }
}
