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

/// A labelled one-line box with its submit button (`button`), for a typed code or
/// name, and its `problem` below it while there is one (`problem_id` names that line,
/// which the input points at). `list` names a `<datalist>` of suggestions, given as
/// `children`; `on_focus` runs as the box takes the focus.
#[component]
pub fn CodeField(
    id: &'static str,
    label: &'static str,
    placeholder: &'static str,
    button: &'static str,
    value: RwSignal<String>,
    #[prop(optional)] problem: Option<RwSignal<Option<String>>>,
    #[prop(optional)] problem_id: Option<&'static str>,
    #[prop(optional)] list: Option<&'static str>,
    #[prop(optional)] on_focus: Option<Callback<()>>,
    #[prop(optional)] children: Option<Children>,
) -> impl IntoView {
    let wrong = move || problem.is_some_and(|problem| problem.with(Option::is_some));
    view! {
        <label for=id>{label}</label>
        <div class="typed-row">
            <input
                id=id
                type="text"
                list=list
                placeholder=placeholder
                autocomplete="off"
                spellcheck="false"
                aria-describedby=problem_id
                aria-invalid=move || wrong().then_some("true")
                on:focus=move |_| {
                    if let Some(on_focus) = on_focus {
                        on_focus.run(());
                    }
                }
                bind:value=value
            />
            {children.map(|suggestions| suggestions())}
            <button type="submit" class="button">{button}</button>
        </div>
        {problem_id.map(|problem_id| view! {
            <p id=problem_id class="field-problem" role="alert">
                {move || problem.and_then(|problem| problem.get())}
            </p>
        })}
    }
}
