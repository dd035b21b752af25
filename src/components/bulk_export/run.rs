//! What a folder run and a zip run share: a queue whose actions each carries out in
//! its own way, steered while it runs by the panel's "Files at once" and by the
//! session (a run held up because the sign-in ended goes on once signed in again).

use std::cell::RefCell;
use std::rc::Rc;

use explorer_logic::bulk::queue::{Action, Queue};
use leptos::prelude::*;

use crate::api::ServiceContext;

/// A download run: its queue, and how it carries out the queue's actions.
pub(super) trait QueueRun: 'static {
    fn queue(&self) -> &RefCell<Queue>;
    fn apply(self: &Rc<Self>, actions: Vec<Action>);
}

/// Keeps the run under way in step with `parallel` and with the session.
pub(super) fn steer<R: QueueRun>(
    run: RwSignal<Option<Rc<R>>, LocalStorage>,
    parallel: RwSignal<usize>,
    service: ServiceContext,
) {
    Effect::new(move |_| {
        let n = parallel.get();
        if let Some(run) = run.get_untracked() {
            let actions = run.queue().borrow_mut().set_parallel(n);
            run.apply(actions);
        }
    });
    // A new sign-in sets the credentials; a renewal after a refusal fires `renewed`.
    Effect::new(move |_| {
        service.renewed.track();
        if !service.credentials.with(Option::is_some) {
            return;
        }
        if let Some(run) = run.get_untracked()
            && run.queue().borrow().is_awaiting_sign_in()
        {
            let actions = run.queue().borrow_mut().signed_in();
            run.apply(actions);
        }
    });
}

/// Says the run waits for the person to sign in again, while it does.
#[component]
pub(super) fn SignInEnded(#[prop(into)] when: Signal<bool>) -> impl IntoView {
    view! {
        <Show when=move || when.get()>
            <p class="notice" role="alert">
                "Your sign-in has ended. Sign in again and the download goes on where it stopped."
            </p>
        </Show>
    }
}
