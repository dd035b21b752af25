//! The run's queue, carried out here: each file that ends frees a place the next one
//! takes at once, with no round trip through the page's thread. The queue's rules are
//! `explorer_logic::bulk::queue`'s; what it applied goes to the page as a log
//! (`explorer_logic::bulk::journal`), a few times a second and at once after an order
//! of the person's, so the page's copy of the queue shows the run.
//!
//! The page is asked only what needs it: a data package's fresh address (its
//! credentials stay on the page), a fresh listing, the words for a folder's refusal.
//! The words this queue makes itself (a file's reason for failing) are English and
//! never shown: the page's copy makes its own, in the page's language, from the same
//! steps.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use explorer_logic::bulk::file::FileId;
use explorer_logic::bulk::journal::{Journal, Order, Step};
use explorer_logic::bulk::queue::{Action, Event, FileState, Mode, Outcome, Queue};
use explorer_logic::bulk::worker::{Command, Reply, Setup};
use explorer_logic::bulk::zip::Part;
use gloo_timers::future::{TimeoutFuture, sleep};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::spawn_local;

use crate::beside::Beside;
use crate::folder::FolderRun;
use crate::news::Steering;
use crate::page::Page;
use crate::zip::ZipRun;

/// How long the steps applied wait before the page hears of them (unless something
/// it asked for, or another reply, tells them sooner): half the time between the
/// page's redraws of the run, so each redraw shows where the run was at most that
/// long ago.
const LOG_EVERY_MS: u32 = 500;

/// Where the run writes: what the queue's actions are carried out with.
enum Destination {
    Zip(Rc<ZipRun>),
    Folder(Rc<FolderRun>),
}

/// One run's queue and where its files go. The worker keeps it for as long as the
/// page keeps the worker.
pub struct Steer {
    /// Itself, for the timers it starts.
    me: Weak<Steer>,
    journal: RefCell<Journal>,
    /// Where each file is fetched from, where known for good; else the page is asked.
    addresses: Vec<Option<String>>,
    /// Set once, right after the run is made (the run reports to its steer).
    destination: RefCell<Option<Destination>>,
    page: Page,
    /// A telling of the log is due.
    due: Cell<bool>,
}

impl Steer {
    /// A zip run of `setup` into `parts`, its long files fetched and hashed by `beside`
    /// where given: ready at once.
    pub fn zip(
        setup: Setup,
        parts: Vec<Part>,
        beside: Option<Rc<Beside>>,
        page: Page,
    ) -> Rc<Steer> {
        let steer = Steer::new(setup.queue(Mode::Zip), setup.addresses, page);
        let run = ZipRun::new(setup.files, parts, beside, Rc::clone(&steer) as _);
        *steer.destination.borrow_mut() = Some(Destination::Zip(run));
        steer.tell(Reply::Ready);
        steer
    }

    /// A folder run of `setup` into `folder`: ready once the folder is listed.
    pub fn folder(setup: Setup, folder: JsValue, page: Page) -> Rc<Steer> {
        let steer = Steer::new(setup.queue(Mode::Folder), setup.addresses, page);
        let run = FolderRun::start(setup.files, folder.unchecked_into(), Rc::clone(&steer) as _);
        *steer.destination.borrow_mut() = Some(Destination::Folder(run));
        steer
    }

    fn new(queue: Queue, addresses: Vec<Option<String>>, page: Page) -> Rc<Steer> {
        Rc::new_cyclic(|me| Steer {
            me: me.clone(),
            journal: RefCell::new(Journal::new(queue)),
            addresses,
            destination: RefCell::default(),
            page,
            due: Cell::new(false),
        })
    }

    /// Carries out what the page asks once the run is set up.
    pub fn obey(&self, command: Command) {
        match command {
            Command::Order(order) => self.order(order),
            Command::Event(event) => {
                self.event(event);
                // The page waits for what it answered to show (a session ended).
                self.tell_log();
            }
            Command::Fetch { file, url, from } => self.fetch(file, &url, from),
            Command::SavePart { part, zip: opened } => {
                if let Some(Destination::Zip(zip)) = &*self.destination.borrow() {
                    zip.save_part(part, &opened);
                }
            }
            Command::Report { text } => {
                if let Some(Destination::Folder(folder)) = &*self.destination.borrow() {
                    folder.report(text);
                }
            }
            // A second run for one page: its mistake, dropped. (`Quit` is the page's.)
            Command::Zip { .. } | Command::Folder { .. } | Command::FetchBeside | Command::Quit => {
            }
        }
    }

    /// The page let the run go: every transfer stops (a zip's part being written
    /// fails), and the run lets go of its destination, which holds it in turn, so both
    /// go once their last tasks end.
    pub fn quit(&self) {
        self.stop_all();
        self.destination.borrow_mut().take();
    }

    /// What the person asked: the transfers it ends stop first, then the queue
    /// applies it, and the page hears at once.
    fn order(&self, order: Order) {
        let all = 0..self.addresses.len();
        match (&order, &*self.destination.borrow()) {
            (Order::Pause, Some(Destination::Zip(zip))) => zip.stop(&all),
            (Order::Pause, Some(Destination::Folder(folder))) => folder.stop(&all),
            (Order::Cancel, _) => self.stop_all(),
            (Order::SetAside { files, .. }, Some(Destination::Zip(zip))) => zip.stop(files),
            (Order::Restart { files }, Some(Destination::Zip(zip))) => zip.forget(files),
            _ => {}
        }
        let actions = self.journal.borrow_mut().apply(Step::Order(order));
        self.carry_out(actions);
        self.tell_log();
    }

    /// Carries out the queue's actions.
    fn carry_out(&self, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Inspect { file } => self.inspect(file),
                Action::Fetch { file, range_from } => match &self.addresses[file] {
                    Some(url) => self.fetch(file, url, range_from),
                    None => self.tell(Reply::Address {
                        file,
                        from: range_from,
                    }),
                },
                Action::Retry { file, after } => {
                    let steer = self.me.clone();
                    spawn_local(async move {
                        sleep(after).await;
                        if let Some(steer) = steer.upgrade() {
                            steer.event(Event::RetryDue { file });
                        }
                    });
                }
                Action::Refresh { file } => self.tell(Reply::Refresh { file }),
                // The page reads why in its copy of the queue.
                Action::Stop { .. } => self.stop_all(),
            }
        }
    }

    /// Every transfer stops, for good: the run is cancelled (a zip's part being
    /// written fails).
    fn stop_all(&self) {
        match &*self.destination.borrow() {
            Some(Destination::Zip(zip)) => zip.cancel(),
            Some(Destination::Folder(folder)) => folder.stop(&(0..self.addresses.len())),
            None => {}
        }
    }

    /// Looks for what there is of `file` already.
    fn inspect(&self, file: FileId) {
        let zip = match &*self.destination.borrow() {
            Some(Destination::Zip(zip)) => Some(zip.received(file)),
            Some(Destination::Folder(folder)) => {
                folder.inspect(file);
                None
            }
            None => None,
        };
        // What the zip holds of it: the bytes received so far.
        if let Some(size) = zip {
            self.found(file, size);
        }
    }

    fn fetch(&self, file: FileId, url: &str, from: u64) {
        match &*self.destination.borrow() {
            Some(Destination::Zip(zip)) => zip.fetch(file, url.to_owned(), from),
            Some(Destination::Folder(folder)) => folder.fetch(file, url.to_owned(), from),
            None => {}
        }
    }

    /// A zip waits for each of its files: one the queue gave up ends its part.
    fn tell_zip_if_given_up(&self, file: FileId) {
        let given_up = matches!(
            self.journal.borrow().queue().state(file),
            FileState::Done(Outcome::Failed(_) | Outcome::Cancelled)
        );
        if let (true, Some(Destination::Zip(zip))) = (given_up, &*self.destination.borrow()) {
            zip.given_up(file);
        }
    }

    /// Tells the page the steps applied, in a moment.
    fn tell_log_soon(&self) {
        if !self.due.replace(true) {
            let steer = self.me.clone();
            spawn_local(async move {
                TimeoutFuture::new(LOG_EVERY_MS).await;
                if let Some(steer) = steer.upgrade() {
                    steer.tell_log();
                }
            });
        }
    }

    fn tell_log(&self) {
        self.due.set(false);
        if self.journal.borrow().has_news() {
            let steps = self.journal.borrow_mut().take();
            self.page.post(&Reply::Log(steps));
        }
    }
}

impl Steering for Steer {
    /// What a transfer, an inspection or the page saw: applied to the queue, and
    /// what follows carried out.
    fn event(&self, event: Event) {
        let file = event.file();
        let chunk = matches!(event, Event::Chunk { .. });
        let actions = self.journal.borrow_mut().apply(Step::Event(event));
        if chunk {
            // Bytes, a thousand times a second: they change nothing else.
            return self.tell_log_soon();
        }
        self.tell_zip_if_given_up(file);
        self.carry_out(actions);
        if self.journal.borrow().queue().is_finished() {
            self.tell_log();
        } else {
            self.tell_log_soon();
        }
    }

    /// `size` bytes of `file` are there already: hashed first when the queue needs
    /// their md5 to decide.
    fn found(&self, file: FileId, size: u64) {
        let hash = {
            let journal = self.journal.borrow();
            let queue = journal.queue();
            queue.mode() == Mode::Folder && queue.wants_md5_of_existing(file, size)
        };
        match (&*self.destination.borrow(), hash) {
            (Some(Destination::Folder(folder)), true) => folder.hash(file),
            _ => {
                let md5 = None;
                self.event(Event::Existing { file, size, md5 })
            }
        }
    }

    /// Tells the page `reply`, after the steps it has not heard.
    fn tell(&self, reply: Reply) {
        self.tell_log();
        self.page.post(&reply);
    }
}
