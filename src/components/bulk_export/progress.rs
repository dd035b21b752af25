//! A bulk download's progress, shared by the folder and the zip: a line per file
//! (windowed, following the files under way), the total, and the pace of redraws.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Duration;

use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::progress::{FileProgress, Rate};
use explorer_logic::bulk::queue::Queue;
use explorer_logic::virtual_list::{Viewport, Window};
use gloo_timers::future::sleep;
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::components::virtual_list::{BoxedList, Items};

/// How often progress is redrawn while bytes flow: once a second, as a file manager's
/// copy dialog is. The page shares the CPU with the download's workers, and each redraw
/// costs a frame: WebKit, which draws in software on this project's test machine, zipped
/// 200 small files in 1.19 s redrawing twice a second and in 0.93 s once a second
/// (`cargo xtask bench download`); redrawn every 150 ms, the zip took 5% longer in
/// Chromium than at 500 ms.
const REDRAW_MS: f64 = 1000.0;

/// Where a run is, as shown: each file's line, the transfer rate, and a trigger for
/// the summary, the buttons and the total, redrawn as a whole.
pub(super) struct Progress {
    /// Each file's line, redrawn only when it changes. (One trigger for every line
    /// made each redraw cost the square of the number of files: a list of thousands
    /// would freeze the page.)
    pub lines: Arc<Lines>,
    pub rate: RefCell<Rate>,
    pub changed: Trigger,
    last_redraw: Cell<f64>,
    /// A redraw is due at the end of the current interval.
    redraw_due: Cell<bool>,
}

impl Progress {
    /// The progress of `queue`, shown through `changed`.
    pub fn of(queue: &Queue, changed: Trigger) -> Progress {
        Progress {
            lines: Arc::new(Lines::of(queue)),
            rate: RefCell::default(),
            changed,
            last_redraw: Cell::new(0.0),
            redraw_due: Cell::new(false),
        }
    }

    /// Shows where `queue` is: `now`, or if the last redraw is [`REDRAW_MS`] old.
    pub fn redraw(&self, queue: &RefCell<Queue>, now: bool) {
        let time = js_sys::Date::now();
        if now || time - self.last_redraw.get() > REDRAW_MS {
            self.last_redraw.set(time);
            let queue = queue.borrow();
            self.rate.borrow_mut().sample(time as u64, queue.bytes().0);
            self.lines.update(&queue);
            drop(queue);
            self.changed.notify();
        }
    }

    /// Redraws now, or once at the end of the current interval if one just happened
    /// (`later` then redraws, through [`Progress::redraw_due`]): every redraw updates
    /// every file's line, so a redraw per event made a list of hundreds of small files
    /// quadratic (`cargo xtask bench download`).
    pub fn redraw_soon(&self, queue: &RefCell<Queue>, later: impl FnOnce() + 'static) {
        let wait = self.last_redraw.get() + REDRAW_MS - js_sys::Date::now();
        if wait <= 0.0 {
            self.redraw(queue, true);
        } else if !self.redraw_due.replace(true) {
            spawn_local(async move {
                sleep(Duration::from_millis(wait as u64 + 1)).await;
                later();
            });
        }
    }

    /// The redraw [`Progress::redraw_soon`] put off.
    pub fn redraw_due(&self, queue: &RefCell<Queue>) {
        self.redraw_due.set(false);
        self.redraw(queue, true);
    }
}

/// The progress list: a line per file, and where the run is.
#[derive(Debug)]
pub(super) struct Lines {
    each: Vec<FileLine>,
    /// The last file under way, which the list keeps in view.
    furthest: ArcRwSignal<Option<FileId>>,
}

impl Lines {
    /// A line for each file of `queue`.
    pub(super) fn of(queue: &Queue) -> Lines {
        Lines {
            each: (0..queue.len())
                .map(|file| FileLine {
                    name: queue.file(file).name.clone(),
                    progress: ArcRwSignal::new(queue.progress(file)),
                })
                .collect(),
            furthest: ArcRwSignal::new(None),
        }
    }

    /// Shows where each file of `queue` is, changing only the lines that moved.
    pub(super) fn update(&self, queue: &Queue) {
        for (file, line) in self.each.iter().enumerate() {
            let progress = queue.progress(file);
            if line.progress.with_untracked(|shown| *shown != progress) {
                line.progress.set(progress);
            }
        }
        let furthest = queue.furthest_under_way();
        if furthest.is_some() && furthest != self.furthest.get_untracked() {
            self.furthest.set(furthest);
        }
    }
}

/// A file's line in the progress list.
#[derive(Debug)]
struct FileLine {
    name: String,
    progress: ArcRwSignal<FileProgress>,
}

/// One line per file: its name, its progress bar and where it is, windowed in a box
/// of its own. The box follows the files under way, until the person scrolls it
/// themselves.
#[component]
pub(super) fn FileLines(lines: Arc<Lines>) -> impl IntoView {
    let total = lines.each.len();
    let scroller = NodeRef::<leptos::html::Div>::new();
    // Where the box was last scrolled to by following; any other scroll is the person's.
    let followed_to = StoredValue::new(None::<i32>);
    let following = StoredValue::new(true);
    // Lines are equally tall: their height, by the list's rule, measured once.
    let lines_window = StoredValue::new(None::<Window>);
    let furthest = lines.furthest.clone();
    Effect::new(move |_| {
        let Some(file) = furthest.get() else { return };
        // Where the lines are is read in the next frame, which lays the page out
        // anyway: read now, right after the lines changed, it cost a second layout of
        // the whole page each redraw (the page's longest task during a zip).
        // By then the person may have left the page, and the lines with it.
        request_animation_frame(move || {
            let Some(Some(scroller)) = scroller.try_get_untracked() else {
                return;
            };
            if following.try_get_value() == Some(true)
                && let Some(top) = scroll_to_show(&scroller, file, lines_window)
            {
                followed_to.try_set_value(Some(top));
                scroller.set_scroll_top(top);
            }
        });
    });
    let on_scroll = Callback::new(move |()| {
        let here = scroller.get_untracked().map(|s| s.scroll_top());
        let ours = followed_to.get_value();
        if !matches!((ours, here), (Some(ours), Some(here)) if (ours - here).abs() <= 1) {
            following.set_value(false);
        }
    });
    let line = move |file: FileId| {
        let line = &lines.each[file];
        let progress = line.progress.clone();
        let percent = Signal::derive(move || progress.read().percent);
        let progress = line.progress.clone();
        view! {
            <span class="bulk-file-name">{line.name.clone()}</span>
            <Bar label=line.name.clone() percent />
            <span class="bulk-file-state">{move || progress.read().text.clone()}</span>
        }
    };
    view! {
        <BoxedList
            total
            class="bulk-files"
            items=Items::PROGRESS_LINES
            item_class="bulk-file"
            item=line
            scroller
            on_scroll
        />
    }
}

/// The `scrollTop` that shows line `file` whole in `scroller` with the least scrolling,
/// or `None` when it shows already. Lines are equally tall, and the list's padding stands
/// in for those not drawn, so line `file` starts `file` lines down the list. Their height
/// is taken by the list's own rule (`Window::remeasured` on the lines drawn, once:
/// `lines`): measured here but estimated there (the two within half a pixel), line 300
/// was 60 px off.
fn scroll_to_show(
    scroller: &web_sys::Element,
    file: FileId,
    lines: StoredValue<Option<Window>>,
) -> Option<i32> {
    let window = match lines.try_get_value()? {
        Some(measured) => measured,
        None => {
            let drawn = scroller.first_element_child()?.children();
            let tops: Vec<f64> = (0..drawn.length())
                .filter_map(|i| drawn.item(i))
                .map(|line| line.get_bounding_client_rect().top())
                .collect();
            let measured = Window::estimated(Items::PROGRESS_LINES).remeasured(&tops);
            // Not laid out yet (hidden): measured next time.
            let laid_out = tops.windows(2).any(|pair| pair[1] > pair[0]);
            lines.try_set_value(laid_out.then_some(measured));
            measured
        }
    };
    let view = Viewport {
        scrolled: f64::from(scroller.scroll_top()),
        height: f64::from(scroller.client_height()),
    };
    let scrolled = window.scroll_to_show(file, view)?;
    Some(scrolled.round() as i32)
}

/// A labelled progress bar.
#[component]
pub(super) fn Bar(label: String, percent: Signal<u64>) -> impl IntoView {
    view! {
        <div
            class="bar"
            role="progressbar"
            aria-label=label
            aria-valuemin="0"
            aria-valuemax="100"
            aria-valuenow=move || percent.get().to_string()
        >
            <div class="bar-fill" style:width=move || format!("{}%", percent.get())></div>
        </div>
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;
    use crate::browser_tests::{count, find, next_frame, stage, until};

    /// Whether the line of `name` shows whole in the box.
    fn in_view(stage: &web_sys::HtmlElement, name: &str) -> bool {
        let scroller = find(stage, ".bulk-files").get_bounding_client_rect();
        let names = stage
            .query_selector_all(".bulk-file-name")
            .expect("a valid selector");
        (0..names.length())
            .filter_map(|i| names.item(i))
            .filter(|line| line.text_content().as_deref() == Some(name))
            .filter_map(|line| line.parent_element())
            .map(|line| line.get_bounding_client_rect())
            .any(|line| line.top() >= scroller.top() && line.bottom() <= scroller.bottom())
    }

    #[wasm_bindgen_test]
    async fn the_lines_follow_the_run_until_the_person_scrolls_them() {
        let stage = stage(include_str!("../../../public/bulk.css"));
        let lines = Arc::new(Lines {
            each: (0..500)
                .map(|file| FileLine {
                    name: format!("file-{file}.zip"),
                    progress: ArcRwSignal::new(FileProgress::default()),
                })
                .collect(),
            furthest: ArcRwSignal::new(None),
        });
        let furthest = lines.furthest.clone();
        let _mounted =
            leptos::mount::mount_to(stage.clone(), move || view! { <FileLines lines /> });
        until("the first lines show", || in_view(&stage, "file-0.zip")).await;
        assert!(count(&stage, ".bulk-file") < 100, "500 lines are windowed");

        furthest.set(Some(300));
        until("the box follows the run to line 300", || {
            in_view(&stage, "file-300.zip")
        })
        .await;

        let scroller = find(&stage, ".bulk-files");
        scroller.set_scroll_top(0);
        until("the person's scroll shows the top", || {
            in_view(&stage, "file-0.zip")
        })
        .await;
        furthest.set(Some(400));
        // Had the box still followed, it would have within a frame: it stays put.
        next_frame().await;
        next_frame().await;
        assert_eq!(scroller.scroll_top(), 0);
        assert!(in_view(&stage, "file-0.zip"));
    }
}
