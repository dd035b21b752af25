//! Labelled text inputs that say when what was typed is wrong (`aria-invalid`) and
//! point at the words saying why (`aria-describedby`).

use leptos::prelude::*;

/// A labelled input in a form's column of fields. While `invalid`, it points at
/// `problem_id`, the form's message saying what is wrong. `children` follow the input
/// (a hint).
#[component]
pub fn TextField(
    id: &'static str,
    label: &'static str,
    value: RwSignal<String>,
    #[prop(into)] invalid: Signal<bool>,
    problem_id: &'static str,
    /// The input's `type`: `text` or `password`.
    #[prop(default = "text")]
    kind: &'static str,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input
                id=id
                type=kind
                autocomplete="off"
                autocapitalize="off"
                spellcheck="false"
                required
                aria-invalid=move || if invalid.get() { "true" } else { "false" }
                aria-describedby=move || invalid.get().then_some(problem_id)
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
