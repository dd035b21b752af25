//! Accepting and serving connections (HTTP/1.1) with limits, so that slow or idle
//! clients cannot hold the server: a deadline for a request's headers, one for a
//! kept-alive connection waiting for its next request, and a cap on open connections
//! that closes the connection idle the longest to make room for a new one.
//!
//! A connection is *idle* while no request on it is being answered: waiting for a
//! request, or receiving its headers. Closing an idle connection loses nothing, so it
//! is dropped at once; a busy one finishes its answer first.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use arc_swap::ArcSwap;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;
use tokio_util::task::{AbortOnDropHandle, TaskTracker};
use tower::ServiceExt;

use crate::protocol::HYPER_MAX_HEADER_FIELDS;

/// How long clients may take, and how many connections may be open.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// From a request's first byte to the end of its headers.
    pub header_timeout: Duration,
    /// From the end of an answer (or the connection's start) to the next request's
    /// first byte.
    pub idle_timeout: Duration,
    pub max_connections: usize,
}

/// Serves `app` on `listener` until `shutdown` completes, then lets each answer in
/// progress finish.
///
/// Connections are served by one single-threaded runtime per core, each accepting from
/// the same listening socket: the caller's runtime and a thread for each other core. A
/// connection stays on the runtime that accepted it, so its requests never move between
/// threads. Like nginx's workers, each runtime keeps its own share of the connection
/// limit and closes its own idle connections: making room never waits on another thread.
pub(crate) async fn serve(
    listener: TcpListener,
    app: App,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let stop = CancellationToken::new();
    // Also when this future is dropped unfinished, so that the other threads end.
    let _stop_workers = stop.clone().drop_guard();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut http = http1::Builder::new();
    http.max_headers(HYPER_MAX_HEADER_FIELDS);
    let worker = Worker {
        app,
        http,
        limits: Limits {
            max_connections: limits.max_connections.div_ceil(cores),
            ..limits
        },
        stop: stop.clone(),
    };

    let listener = listener.into_std()?;
    let mut threads = Vec::new();
    for index in 1..cores {
        let listener = listener.try_clone()?;
        let worker = worker.clone();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let thread = std::thread::Builder::new()
            .name(format!("serve-{index}"))
            .spawn(move || {
                runtime.block_on(async move {
                    match TcpListener::from_std(listener) {
                        Ok(listener) => worker.run(listener).await,
                        Err(err) => tracing::error!("worker {index} cannot listen: {err}"),
                    }
                });
            })?;
        threads.push(thread);
    }
    let mut serving = pin!(worker.run(TcpListener::from_std(listener)?));
    tokio::select! {
        () = serving.as_mut() => {}
        () = shutdown => stop.cancel(),
    }
    serving.await;
    // The other threads are finishing their answers too.
    tokio::task::spawn_blocking(move || {
        for thread in threads {
            let _ = thread.join();
        }
    })
    .await
    .map_err(io::Error::other)
}

/// The whole application, swapped for a new one when the catalogue changes: each
/// request takes the one current when it arrives.
pub(crate) type App = Arc<ArcSwap<Router>>;

/// What each runtime needs to accept and serve connections.
#[derive(Debug, Clone)]
struct Worker {
    app: App,
    http: http1::Builder,
    /// This runtime's share.
    limits: Limits,
    stop: CancellationToken,
}

impl Worker {
    /// Accepts connections from `listener` and serves them on this runtime until told
    /// to stop, then waits for their answers in progress.
    async fn run(self, listener: TcpListener) {
        let Worker {
            app,
            http,
            limits,
            stop,
        } = self;
        let open = Arc::new(Open::new(limits));
        let _sweeper = AbortOnDropHandle::new(tokio::spawn(sweep(Arc::clone(&open))));
        let tasks = TaskTracker::new();
        loop {
            let (stream, peer) = tokio::select! {
                accepted = accept(&listener) => accepted,
                () = stop.cancelled() => break,
            };
            let slot = tokio::select! {
                slot = open.slot() => slot,
                () = stop.cancelled() => break,
            };
            // Without TCP_NODELAY a streamed body (files, the web app) waits for the
            // client's delayed ACK of the headers, up to 40 ms a response.
            if let Err(err) = stream.set_nodelay(true) {
                tracing::debug!("cannot set TCP_NODELAY on a connection: {err}");
            }
            let (id, activity) = open.register();
            let connection = serve_connection(
                stream,
                peer,
                app.clone(),
                http.clone(),
                activity,
                stop.clone(),
            );
            let open = Arc::clone(&open);
            tasks.spawn(async move {
                connection.await;
                open.unregister(id);
                drop(slot);
            });
        }
        tasks.close();
        tasks.wait().await;
    }
}

/// The next connection. Errors that concern one connection are skipped; others (out
/// of file descriptors) are logged and retried after a pause, as axum's `serve` does.
async fn accept(listener: &TcpListener) -> (TcpStream, SocketAddr) {
    loop {
        match listener.accept().await {
            Ok(accepted) => return accepted,
            Err(err)
                if matches!(
                    err.kind(),
                    io::ErrorKind::ConnectionAborted
                        | io::ErrorKind::ConnectionReset
                        | io::ErrorKind::ConnectionRefused
                ) => {}
            Err(err) => {
                tracing::error!("cannot accept a connection: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn serve_connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: App,
    http: http1::Builder,
    activity: Arc<Activity>,
    stop: CancellationToken,
) {
    let io = TokioIo::new(Watched::new(stream, Arc::clone(&activity)));
    let service = {
        let activity = Arc::clone(&activity);
        hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let busy = activity.begin();
            // The client's address, for the rate limit.
            request.extensions_mut().insert(ConnectInfo(peer));
            // The router of the current catalogue, one for the whole request.
            let answer = Router::clone(&app.load()).oneshot(request.map(Body::new));
            async move {
                let response = answer.await?;
                // Busy until the body's end is handed to the connection.
                Ok::<_, Infallible>(response.map(|body| {
                    body.map_frame(move |frame| {
                        let _busy = &busy;
                        frame
                    })
                }))
            }
        })
    };
    let mut connection = pin!(http.serve_connection(io, service));
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(err) = result {
                tracing::debug!("connection ended: {err}");
            }
            return;
        }
        () = activity.close.notified() => {}
        () = stop.cancelled() => {}
    }
    if activity.is_idle() {
        return;
    }
    connection.as_mut().graceful_shutdown();
    if let Err(err) = connection.await {
        tracing::debug!("connection ended: {err}");
    }
}

/// Closes the connections past their deadline, a few times per shortest timeout.
async fn sweep(open: Arc<Open>) {
    let limits = open.limits;
    let period = (limits.header_timeout.min(limits.idle_timeout) / 4)
        .clamp(Duration::from_millis(50), Duration::from_secs(1));
    let mut ticks = tokio::time::interval(period);
    loop {
        ticks.tick().await;
        let now = open.now();
        for activity in open.connections().values() {
            if activity.expired(now, &limits) {
                activity.close.notify_one();
            }
        }
    }
}

/// The open connections, and room for more.
#[derive(Debug)]
struct Open {
    limits: Limits,
    /// Times are kept as milliseconds since this instant.
    epoch: Instant,
    slots: Arc<Semaphore>,
    /// Told whenever a connection becomes idle (it may now be closed for a new one).
    became_idle: Arc<Notify>,
    connections: Mutex<HashMap<u64, Arc<Activity>>>,
    next_id: AtomicU64,
}

impl Open {
    fn new(limits: Limits) -> Open {
        Open {
            limits,
            epoch: Instant::now(),
            slots: Arc::new(Semaphore::new(limits.max_connections)),
            became_idle: Arc::new(Notify::new()),
            connections: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
        }
    }

    fn now(&self) -> u64 {
        millis(self.epoch.elapsed())
    }

    fn connections(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Activity>>> {
        // The map stays consistent whatever panicked while holding it.
        self.connections
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot for a new connection: a free one, or the one of the connection idle the
    /// longest, closed for it. When every connection is busy, waits for one to end or
    /// become idle.
    async fn slot(&self) -> OwnedSemaphorePermit {
        loop {
            if let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() {
                return slot;
            }
            if self.close_longest_idle() {
                // Its task gives the slot back as it ends.
                return self.acquire().await;
            }
            tokio::select! {
                slot = self.acquire() => return slot,
                () = self.became_idle.notified() => {}
            }
        }
    }

    async fn acquire(&self) -> OwnedSemaphorePermit {
        Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .expect("the connection slots are never closed")
    }

    /// Closes the connection idle the longest, if any is idle.
    fn close_longest_idle(&self) -> bool {
        let connections = self.connections();
        let longest = connections
            .values()
            .filter(|activity| activity.is_idle())
            .min_by_key(|activity| activity.idle_since.load(Ordering::Relaxed));
        if let Some(activity) = longest {
            activity.close.notify_one();
        }
        longest.is_some()
    }

    fn register(&self) -> (u64, Arc<Activity>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let activity = Arc::new(Activity {
            epoch: self.epoch,
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(self.now()),
            request_started: AtomicU64::new(NOT_STARTED),
            close: Notify::new(),
            became_idle: Arc::clone(&self.became_idle),
        });
        self.connections().insert(id, Arc::clone(&activity));
        (id, activity)
    }

    fn unregister(&self, id: u64) {
        self.connections().remove(&id);
    }
}

const NOT_STARTED: u64 = u64::MAX;

/// What one connection is doing, as its deadlines need it.
#[derive(Debug)]
struct Activity {
    epoch: Instant,
    /// Requests being answered.
    in_flight: AtomicUsize,
    /// When the connection last became idle (ms since the epoch).
    idle_since: AtomicU64,
    /// When the first byte of the next request arrived while idle, or [`NOT_STARTED`].
    request_started: AtomicU64,
    /// Asks the connection's task to close it.
    close: Notify,
    became_idle: Arc<Notify>,
}

impl Activity {
    fn is_idle(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0
    }

    /// A request's headers are in: the connection is busy until the guard drops.
    fn begin(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.request_started.store(NOT_STARTED, Ordering::Relaxed);
        Busy(Arc::clone(self))
    }

    fn bytes_arrived(&self) {
        if self.is_idle() && self.request_started.load(Ordering::Relaxed) == NOT_STARTED {
            let now = millis(self.epoch.elapsed());
            // Only the first byte counts; a request that began meanwhile reset it.
            let _ = self.request_started.compare_exchange(
                NOT_STARTED,
                now,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
    }

    fn expired(&self, now: u64, limits: &Limits) -> bool {
        if !self.is_idle() {
            return false;
        }
        let (since, timeout) = match self.request_started.load(Ordering::Relaxed) {
            NOT_STARTED => (self.idle_since.load(Ordering::Relaxed), limits.idle_timeout),
            started => (started, limits.header_timeout),
        };
        now.saturating_sub(since) >= millis(timeout)
    }
}

/// A request being answered on a connection.
#[derive(Debug)]
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        let activity = &self.0;
        activity
            .idle_since
            .store(millis(activity.epoch.elapsed()), Ordering::Relaxed);
        if activity.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            activity.became_idle.notify_one();
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// How long a closing connection keeps reading what the client still sends.
const LINGER_TIME: Duration = Duration::from_secs(2);
/// How much of it is read at most.
const LINGER_BYTES: usize = 1024 * 1024;

/// A connection's socket, noting when the bytes of a request start to arrive, and
/// closing it gently.
///
/// Closing a socket with unread bytes makes the kernel send a reset, which can reach
/// the client before it has read our last answer (a 413 for a body left unread, say) and
/// make it lose that answer. So the write side is shut down first, and what the client
/// still sends is read and dropped (as nginx's `lingering_close` does) until it closes
/// too, or for a bounded time and number of bytes.
#[derive(Debug)]
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
    /// Set once the write side is shut down: when to stop reading, and how much may
    /// still be read.
    linger: Option<(Pin<Box<tokio::time::Sleep>>, usize)>,
}

impl Watched {
    fn new(stream: TcpStream, activity: Arc<Activity>) -> Watched {
        Watched {
            stream,
            activity,
            linger: None,
        }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.bytes_arrived();
        }
        read
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.linger.is_none() {
            ready!(Pin::new(&mut this.stream).poll_shutdown(cx))?;
            this.linger = Some((Box::pin(tokio::time::sleep(LINGER_TIME)), LINGER_BYTES));
        }
        let Some((deadline, left)) = &mut this.linger else {
            unreachable!("set above");
        };
        let mut scratch = [0; 4096];
        loop {
            if deadline.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Ok(()));
            }
            let mut buf = ReadBuf::new(&mut scratch);
            match ready!(Pin::new(&mut this.stream).poll_read(cx, &mut buf)) {
                Ok(()) if !buf.filled().is_empty() && buf.filled().len() < *left => {
                    *left -= buf.filled().len();
                }
                // The client closed too (or is past its allowance): close now.
                _ => return Poll::Ready(Ok(())),
            }
        }
    }
}
