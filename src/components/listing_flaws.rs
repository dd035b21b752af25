//! The note above a list of files when the service sent something unusable for some
//! of them: which files, what was wrong, and what the app does instead.

use download_api::{Field, Flaw};
use explorer_logic::flaws;
use explorer_logic::text::t;
use leptos::prelude::*;

/// The note for `notes` (see [`flaws::notes`]); nothing when no file has a flaw.
#[component]
pub fn ListingFlaws(#[prop(into)] notes: Signal<(usize, Vec<String>)>) -> impl IntoView {
    move || {
        notes.with(|(files, lines)| {
            (*files > 0).then(|| {
                let lines = lines.clone();
                view! {
                    <div class="listing-flaws warning-banner" role="note">
                        <p>{t::product::flaws_heading(*files)}</p>
                        <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
                    </div>
                }
            })
        })
    }
}

/// A cell's value, or "unknown", marked, when the service sent something unusable
/// for `field`; `None` (a dash or nothing, as the cell has it) when none was sent.
pub fn flawed(flaws: &[Flaw], field: Field) -> Option<impl IntoView + use<>> {
    flaws::has(flaws, field).then(|| {
        view! {
            <span class="flaw" title=t::product::flaw_marked()>
                "⚠ " {t::product::flaw_unknown()}
                <span class="visually-hidden">" (" {t::product::flaw_marked()} ")"</span>
            </span>
        }
    })
}
