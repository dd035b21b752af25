//! Labelled text inputs that say when what was typed is wrong (`aria-invalid`) and
//! point at the words saying why (`aria-describedby`).

use leptos::prelude::*;

/// A labelled one-line input: the label, the input, then `children` (a hint, a
/// message), in a `div` of `class`. What is typed here is a key, a code or an
/// address, not words: the browser's completion, capitals and spelling stay off.
/// While `invalid`, it points at `problem_id`, the words saying what is wrong; it
/// always points at `hint_id`.
#[component]
pub fn TextField(
    id: &'static str,
    #[prop(into)] label: String,
    value: RwSignal<String>,
    /// The input's `type`: `text`, `password` or `url`.
    #[prop(default = "text")]
    kind: &'static str,
    #[prop(default = "field")] class: &'static str,
    #[prop(optional, into)] placeholder: Option<String>,
    /// The keyboard a phone shows, for `url`.
    #[prop(optional)]
    inputmode: Option<&'static str>,
    #[prop(optional)] required: bool,
    #[prop(optional, into)] invalid: Signal<bool>,
    #[prop(optional, into)] problem_id: Option<String>,
    #[prop(optional, into)] hint_id: Option<String>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let described_by = move || {
        let problem = problem_id.as_deref().filter(|_| invalid.get());
        match (hint_id.as_deref(), problem) {
            (Some(hint), Some(problem)) => Some(format!("{hint} {problem}")),
            (hint, problem) => hint.or(problem).map(str::to_owned),
        }
    };
    view! {
        <div class=class>
            <label for=id>{label}</label>
            <input
                id=id
                type=kind
                placeholder=placeholder
                inputmode=inputmode
                autocomplete="off"
                autocapitalize="off"
                spellcheck="false"
                required=required
                aria-invalid=move || if invalid.get() { "true" } else { "false" }
                aria-describedby=described_by
                bind:value=value
            />
            {children.map(|hint| hint())}
        </div>
    }
}

/// A labelled one-line box with its submit button (`button`), for typed codes, and
/// its `problem` below it while there is one.
#[component]
pub fn CodeField(
    id: &'static str,
    label: &'static str,
    placeholder: &'static str,
    button: &'static str,
    value: RwSignal<String>,
    problem: RwSignal<Option<String>>,
    /// The id of the problem's line, which the input points at.
    problem_id: &'static str,
) -> impl IntoView {
    view! {
        <label for=id>{label}</label>
        <div class="typed-row">
            <input
                id=id
                type="text"
                placeholder=placeholder
                autocomplete="off"
                spellcheck="false"
                aria-describedby=problem_id
                aria-invalid=move || problem.with(Option::is_some).then_some("true")
                bind:value=value
            />
            <button type="submit" class="button">{button}</button>
        </div>
        <p id=problem_id class="field-problem" role="alert">
            {move || problem.get()}
        </p>
    }
}
