//! The note above a list of files when the service sent something unusable for some
//! of them: which files, what was wrong, and what the app does instead.

use download_api::{Field, Flaw};
use explorer_logic::flaws;
use explorer_logic::text::t;
use leptos::prelude::*;

use crate::words::WithWords;

/// The note for `notes` (see [`flaws::notes`]); nothing when no file has a flaw.
/// Its words load later (`t::flaws`), so `notes` is read again once they are here:
/// pass a derived signal, not a memo made before.
#[component]
pub fn ListingFlaws(#[prop(into)] notes: Signal<(usize, Vec<String>)>) -> impl IntoView {
    let any = move || notes.with(|(files, _)| *files > 0);
    view! {
        <Show when=any>
            <WithWords>
                {move || {
                    let (files, lines) = notes.get();
                    view! {
                        <div class="listing-flaws warning-banner" role="note">
                            <p>{t::flaws::flaws_heading(files)}</p>
                            <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
                        </div>
                    }
                }}
            </WithWords>
        </Show>
    }
}

/// A cell's value, or "unknown", marked, when the service sent something unusable
/// for `field`; `None` (a dash or nothing, as the cell has it) when none was sent.
pub fn flawed(flaws: &[Flaw], field: Field) -> Option<impl IntoView + use<>> {
    flaws::has(flaws, field).then(|| {
        // Its words are compiled in, not loaded later: one loader per cell would weigh
        // more in the first load than these few words.
        view! {
            <span class="flaw" title=t::product::flaw_marked()>
                "⚠ " {t::product::flaw_unknown()}
                <span class="visually-hidden">" (" {t::product::flaw_marked()} ")"</span>
            </span>
        }
    })
}
