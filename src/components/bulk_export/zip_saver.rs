//! A zip handed to the browser's own download manager while it is written: the app's
//! small service worker (`public/download-worker.js`) answers a download address with a
//! stream the zip's run writes into as the browser takes the bytes. The run is the bulk
//! worker's wasm (`crates/bulk-worker`), loaded by that same service worker: [`engine`]
//! hands it a port the page steers the run through, so the files are fetched, hashed
//! and zipped on the thread that answers the download, with no port or process between
//! (Firefox runs service workers in a process of their own, and passes every port's
//! message through its parent process). The page only steers and opens the download.
//! The service worker script is registered only when a zip starts; nothing of it loads
//! before.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use explorer_logic::text::t;
use js_sys::{Array, Function, Object, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{JsFuture, spawn_local};

use crate::fs_access::describe;
use crate::navigation::base_path;
use crate::time::within;

/// The worker script, beside `index.html` (Trunk.toml and the release build copy it).
const WORKER: &str = "download-worker.js";
/// Where under the worker's scope a zip's address lies (the worker knows it too).
const PREFIX: &str = "download-zip/";
/// How long each step of starting a download may take before it is given up.
pub(super) const START_LIMIT: Duration = Duration::from_secs(15);
/// How often the page tells the worker it is still needed: within the shortest idle
/// time a browser gives it (30 s; the tests give Firefox's 8 s), so it is never let go
/// while a zip's run lives.
const PING_MS: u32 = 5_000;

// The browser's service worker calls go through `Reflect` rather than web-sys
// bindings: each binding is an import of the main module, and these would have grown
// the gallery's first load for a feature used rarely.

/// `target[name]`, or `undefined`.
pub(super) fn field(target: &JsValue, name: &str) -> JsValue {
    Reflect::get(target, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// Calls the method `name` of `target` with `arguments`.
fn call(target: &JsValue, name: &str, arguments: &[&JsValue]) -> Result<JsValue, String> {
    let method: Function = field(target, name)
        .dyn_into()
        .map_err(|_| t::bulk::no_method(name))?;
    let arguments: Array = arguments.iter().collect();
    Reflect::apply(&method, target, &arguments).map_err(|e| describe(&e))
}

/// A message `{type, id, …fields}` for the worker.
fn message(kind: &str, id: &str, fields: &[(&str, JsValue)]) -> JsValue {
    let message = Object::new();
    let _ = Reflect::set(&message, &"type".into(), &kind.into());
    let _ = Reflect::set(&message, &"id".into(), &id.into());
    for (key, value) in fields {
        let _ = Reflect::set(&message, &(*key).into(), value);
    }
    message.into()
}

/// The browser's service worker container, where it has one: not in Firefox's private
/// windows, nor outside a secure context.
fn service_workers() -> Option<JsValue> {
    let window = web_sys::window()?;
    if !field(&window, "isSecureContext").is_truthy() {
        return None;
    }
    Some(field(&window.navigator(), "serviceWorker")).filter(|c| c.is_object())
}

/// Whether this browser may stream a zip at all.
pub fn can_stream_zip() -> bool {
    service_workers().is_some()
}

/// `path` beside the app's `index.html` (`crate::navigation::base_path`), as a whole
/// address: the browser names a worker's script and scope so.
fn beside(path: &str) -> Result<String, String> {
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .ok_or(t::bulk::no_base())?;
    Ok(format!("{origin}{}", base_path().file(path)))
}

/// The worker's script as the page registers it: its address carries the script's own
/// version and the bulk worker's it imports (its loader names its files by their
/// hashes), so a registration of this very script and engine is known by its address
/// alone. An error: the bulk worker is not there.
async fn script() -> Result<String, String> {
    /// The script as built into this app.
    const VERSION: u64 = fnv(include_bytes!("../../../public/download-worker.js"));
    thread_local! {
        /// The engine's loader, read once a page.
        static ENGINE: std::cell::OnceCell<u64> = const { std::cell::OnceCell::new() };
    }
    let engine = match ENGINE.with(|engine| engine.get().copied()) {
        Some(engine) => engine,
        None => {
            let loader = crate::navigation::fetch_beside(super::worker::LOADER)
                .await
                .map_err(|_| t::bulk::file_worker_stopped())?;
            let engine = fnv(loader.as_bytes());
            ENGINE.with(|cell| *cell.get_or_init(|| engine))
        }
    };
    Ok(format!("{}?v={VERSION:x}-{engine:x}", beside(WORKER)?))
}

/// FNV-1a of `bytes`: a version that changes with them.
const fn fnv(bytes: &[u8]) -> u64 {
    let (mut hash, mut i) = (0xcbf2_9ce4_8422_2325_u64, 0);
    while i < bytes.len() {
        hash = (hash ^ bytes[i] as u64).wrapping_mul(0x100_0000_01b3);
        i += 1;
    }
    hash
}

/// The app's worker, registered (once) and active.
async fn worker() -> Result<JsValue, String> {
    let container = service_workers().ok_or(t::bulk::no_workers_here())?;
    let (scope, script) = (beside(PREFIX)?, script().await?);
    // This script active already: used as it is. Registering it again waited behind
    // the browser's own checks of the worker, up to 2 s in Chromium.
    let finding = call(&container, "getRegistration", &[&scope.as_str().into()])?;
    if let Ok(found) = JsFuture::from(Promise::resolve(&finding)).await {
        let active = field(&found, "active");
        if field(&active, "scriptURL").as_string().as_deref() == Some(script.as_str()) {
            return Ok(active);
        }
    }
    // Its scope is the zips' addresses alone: with the app's folder as its scope it
    // controlled the app's pages and their workers, so every request they made (each
    // file of a download too) passed through it.
    let options = Object::new();
    let _ = Reflect::set(&options, &"scope".into(), &scope.into());
    let registering = call(&container, "register", &[&script.into(), &options])?;
    let registration =
        match within(START_LIMIT, JsFuture::from(Promise::resolve(&registering))).await {
            Some(Ok(registration)) => registration,
            Some(Err(error)) => return Err(describe(&error)),
            None => return Err(t::bulk::worker_unregistered().into()),
        };
    for _ in 0..150 {
        // A newer script (the app was updated since the last zip) is taken once it is
        // active: the one before may speak another protocol.
        let active = field(&registration, "active");
        let newer = ["installing", "waiting"].map(|state| field(&registration, state).is_object());
        if active.is_object() && newer == [false, false] {
            return Ok(active);
        }
        gloo_timers::future::sleep(Duration::from_millis(100)).await;
    }
    Err(t::bulk::worker_inactive().into())
}

/// Unregisters the worker where an older version of the app registered it with the app's
/// folder as its scope (see [`worker`]), once a zip starts; pages it controls are let go when they next load.
fn forget_the_folder_scope(container: &JsValue) {
    let (Ok(folder), Ok(finding)) = (beside(""), call(container, "getRegistration", &[])) else {
        return;
    };
    let finding = JsFuture::from(Promise::resolve(&finding));
    spawn_local(async move {
        let Ok(registration) = finding.await else {
            return;
        };
        let script = field(&field(&registration, "active"), "scriptURL").as_string();
        if field(&registration, "scope").as_string() == Some(folder)
            && script.is_some_and(|script| script.ends_with(WORKER))
        {
            let _ = call(&registration, "unregister", &[]);
        }
    });
}

/// A zip's run in the app's service worker, from the page's side: the port the page
/// steers it through (the conversation of `explorer_logic::bulk::worker`), and the
/// worker kept alive for as long as the page keeps the run. An error says why the
/// worker could not take the run.
pub(super) async fn engine() -> Result<(web_sys::MessagePort, KeptAlive), String> {
    if let Some(container) = service_workers() {
        forget_the_folder_scope(&container);
    }
    let worker = worker().await.map_err(t::bulk::worker_failed)?;
    let channel = web_sys::MessageChannel::new().map_err(|e| describe(&e))?;
    let run = message("engine", "", &[]);
    call(
        &worker,
        "postMessage",
        &[&run, &Array::of1(&channel.port1())],
    )?;
    let ping = message("ping", "", &[]);
    let keep = gloo_timers::callback::Interval::new(PING_MS, move || {
        let _ = call(&worker, "postMessage", &[&ping]);
    });
    Ok((channel.port2(), KeptAlive { _pinging: keep }))
}

/// Keeps the service worker alive while a run there lives: browsers stop a worker no
/// event has come to for a while (30 s), and a port's messages are no such event.
pub(super) struct KeptAlive {
    _pinging: gloo_timers::callback::Interval,
}

/// What the worker said about this zip so far.
#[derive(Default)]
struct Heard {
    ready: bool,
    started: bool,
    /// The person cancelled the download in the browser.
    cancelled: bool,
    /// Wakes whoever waits for the next message.
    wake: Option<Function>,
}

/// One zip being saved.
pub struct ZipSaver {
    id: String,
    worker: JsValue,
    container: JsValue,
    heard: Rc<RefCell<Heard>>,
    _on_message: Closure<dyn FnMut(JsValue)>,
    frame: web_sys::Element,
}

impl ZipSaver {
    /// Starts the browser's download of `name`, `length` bytes long when known. Only
    /// once the browser has asked for the bytes is the saver handed back: an error
    /// means nothing started, and so does dropping the future (the person cancelled
    /// while the browser opened it): a download the browser opens later fails at once.
    pub async fn open(name: &str, length: Option<u64>) -> Result<ZipSaver, String> {
        let worker = worker().await.map_err(t::bulk::worker_failed)?;
        let container = service_workers().ok_or(t::bulk::no_workers())?;
        // Unique enough among this page's zips: the worker forgets each once answered.
        let id = format!("{:x}", (js_sys::Date::now() * 1000.0) as u64);
        let heard = Rc::new(RefCell::new(Heard::default()));
        let on_message = {
            let (heard, id) = (Rc::clone(&heard), id.clone());
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                let data = field(&event, "data");
                if field(&data, "id").as_string().as_deref() != Some(id.as_str()) {
                    return;
                }
                let mut heard = heard.borrow_mut();
                match field(&data, "type").as_string().as_deref() {
                    Some("ready") => heard.ready = true,
                    Some("started") => heard.started = true,
                    Some("cancelled") => heard.cancelled = true,
                    _ => {}
                }
                if let Some(wake) = heard.wake.take() {
                    let _ = wake.call0(&JsValue::UNDEFINED);
                }
            })
        };
        // `onmessage`, not a listener: setting it lets the worker's messages through.
        let _ = Reflect::set(&container, &"onmessage".into(), on_message.as_ref());
        let window = web_sys::window().ok_or(t::bulk::no_window())?;
        let document = window.document().ok_or(t::bulk::no_document())?;
        let frame = document
            .create_element("iframe")
            .map_err(|e| describe(&e))?;
        let saver = ZipSaver {
            id,
            worker,
            container,
            heard,
            _on_message: on_message,
            frame,
        };
        let length = length.map_or(JsValue::NULL, |l| JsValue::from_f64(l as f64));
        let zip = message(
            "zip",
            &saver.id,
            &[("name", name.into()), ("length", length)],
        );
        call(&saver.worker, "postMessage", &[&zip])?;
        let unopened = AbortUnlessOpened(&saver);
        if !saver.wait(|h| h.ready).await {
            return Err(t::bulk::worker_silent().into());
        }
        let address = beside(&format!(
            "{PREFIX}{}/{}",
            saver.id,
            js_sys::encode_uri_component(name)
        ))?;
        let _ = saver.frame.set_attribute("hidden", "");
        let _ = saver.frame.set_attribute("title", t::bulk::zip_frame());
        let _ = saver.frame.set_attribute("src", &address);
        let body = document.body().ok_or(t::bulk::no_body())?;
        body.append_child(&saver.frame).map_err(|e| describe(&e))?;
        let started = saver.wait(|h| h.started).await;
        // Said once: opened, or not started with its own reason.
        std::mem::forget(unopened);
        if !started {
            let why = t::bulk::not_started();
            saver.abort(why);
            return Err(why.into());
        }
        Ok(saver)
    }

    fn post(&self, message: JsValue) -> Result<(), String> {
        call(&self.worker, "postMessage", &[&message]).map(drop)
    }

    /// What the service worker knows this zip by: the run writes into it by this name.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Waits until `test` holds of what was heard (or the person cancelled); false
    /// after [`START_LIMIT`] without it.
    async fn wait(&self, test: impl Fn(&Heard) -> bool) -> bool {
        within(START_LIMIT, self.until(test)).await.is_some()
    }

    /// Waits, however long, until `test` holds or the person cancelled.
    async fn until(&self, test: impl Fn(&Heard) -> bool) {
        loop {
            let promise = {
                let mut heard = self.heard.borrow_mut();
                if heard.cancelled || test(&heard) {
                    return;
                }
                let mut wake = None;
                let promise = Promise::new(&mut |resolve, _| wake = Some(resolve));
                heard.wake = wake;
                promise
            };
            let _ = JsFuture::from(promise).await;
        }
    }

    /// The zip cannot be completed: the browser's download fails, saying `reason`.
    pub fn abort(&self, reason: &str) {
        let _ = self.post(message("abort", &self.id, &[("reason", reason.into())]));
    }
}

/// Aborts a zip the service worker was told of but the browser has not yet opened, unless
/// forgotten once it has: [`ZipSaver::open`] dropped half-way leaves nothing waiting.
struct AbortUnlessOpened<'a>(&'a ZipSaver);

impl Drop for AbortUnlessOpened<'_> {
    fn drop(&mut self) {
        self.0.abort(t::bulk::cancelled());
    }
}

impl Drop for ZipSaver {
    fn drop(&mut self) {
        let _ = Reflect::set(&self.container, &"onmessage".into(), &JsValue::NULL);
        // The download belongs to the browser by now; the frame goes a while later,
        // once the worker has surely handed over the last bytes.
        let frame = self.frame.clone();
        gloo_timers::callback::Timeout::new(60_000, move || frame.remove()).forget();
    }
}
