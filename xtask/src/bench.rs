//! `cargo xtask bench`: how fast our server answers next to nginx serving the very same
//! bytes (the team's goal: as fast as nginx).
//!
//! The release server runs with the demo catalogue (and the built web app when `dist/`
//! exists). A representative set of its responses is saved into a temporary directory,
//! one file per URL path, and nginx serves those files at the same paths. Both servers
//! must return byte-identical bodies before `wrk` times them, one after the other, on
//! this machine. Every process started here is stopped and the directory removed on
//! every way out, errors included.

use std::fmt::Write as _;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use crate::bundle;
use crate::exec::{Result, capture, cargo, run};
use crate::server::{DEMO_PRODUCT, Server, demo_file_paths, find_program, free_port, start_ours};
use crate::tools::apt_install;

/// wrk's load: one client thread (the machine is small) keeping 32 connections busy.
pub(crate) const WRK_THREADS: u32 = 1;
pub(crate) const WRK_CONNECTIONS: u32 = 32;
pub(crate) const WARM_UP: &str = "1s";
pub(crate) const MEASURE: &str = "5s";
/// Each path is timed this many times on each server, alternating, so that a burst of
/// other work on the machine weighs on both; the table shows medians.
pub(crate) const ROUNDS: usize = 3;

/// Below this share of nginx's requests per second, a path is called out (as is one
/// whose 99th percentile latency is above nginx's).
const GOAL: f64 = 0.9;

/// From this body size up, uncompressed, a path is also timed on nginx without
/// `sendfile`: nginx hands a file to the kernel, which sends it from the page cache
/// without copying it; a server answering from its memory (ours) must copy each body
/// into the socket, and for a large body that copy is most of the work.
const COPY_MATTERS: u64 = 32 * 1024;

/// Runs the whole comparison and prints the table.
pub fn bench() -> Result {
    let tools = Tools::ensure()?;
    run(cargo().args(["build", "--release", "-p", "download-server"]))?;

    // Removed when dropped, last, after both servers (locals drop in reverse order).
    // Readable by all: nginx started as root serves files as `nobody`.
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-")
        .permissions(fs::Permissions::from_mode(0o755))
        .tempdir()
        .map_err(|error| format!("cannot create a temporary directory: {error}"))?;
    let dist = bundle::dist();
    let web_root = dist.join("index.html").is_file().then_some(dist);
    if web_root.is_none() {
        println!("no dist/index.html: the web app page is left out (`cargo xtask size` builds it)");
    }
    let ours = start_ours("release", web_root.as_deref(), &[])?;
    let ours_processes = vec![ours.pid()];
    let targets = save_responses(&ours.base, web_root.is_some(), &work.path().join("www"))?;
    let nginx = start_nginx(&tools.nginx, work.path(), &targets, true)?;
    let nginx_processes = with_children(nginx.pid());
    let copying_dir = work.path().join("copying");
    fs::create_dir_all(&copying_dir)?;
    let copying = start_nginx(&tools.nginx, &copying_dir, &targets, false)?;
    let copying_processes = with_children(copying.pid());
    let cpu = CpuClock::new();

    for target in &targets {
        let ours_body = get_body(&ours.base, target)?;
        for other in [&nginx, &copying] {
            let nginx_body = get_body(&other.base, target)?;
            if ours_body != nginx_body {
                return Err(format!(
                    "{}: nginx returns {} bytes, ours {}: not the same body, nothing to compare",
                    target.label(),
                    nginx_body.len(),
                    ours_body.len()
                )
                .into());
            }
        }
    }
    println!(
        "ok: both servers return byte-identical bodies for all {} paths",
        targets.len()
    );

    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "\nwrk -t{WRK_THREADS} -c{WRK_CONNECTIONS} -d{MEASURE} (after a {WARM_UP} warm-up), one \
         server at a time, {ROUNDS} rounds alternating ours and nginx: the ratio is the median \
         of the rounds' ratios (their range beside it), the other figures medians.\nThis machine has {cores} cores: wrk and the server under test share \
         them, the same for both.\nLogging is off on both: ours with RUST_LOG=warn (no line per \
         request), nginx with access_log off.\nCPU per request is the server's processes' CPU \
         time (user and system, from /proc) over the requests answered: less sensitive to \
         other work on the machine than requests per second.\nNo compression on either (wrk sends no \
         Accept-Encoding), but for the row marked (gzip): wrk asks for gzip, ours sends its copy \
         compressed once, nginx the same bytes from a .gz file (gzip_static)."
    );
    let mut rows = Vec::new();
    for target in &targets {
        println!("timing {} ...", target.label());
        let mut rounds = Vec::new();
        for _ in 0..ROUNDS {
            let copy_matters = !target.gzip && target.bytes >= COPY_MATTERS;
            rounds.push(Round {
                ours: measure(&tools.wrk, &ours.base, target, &cpu, &ours_processes)?,
                nginx: measure(&tools.wrk, &nginx.base, target, &cpu, &nginx_processes)?,
                copying: copy_matters
                    .then(|| measure(&tools.wrk, &copying.base, target, &cpu, &copying_processes))
                    .transpose()?,
            });
        }
        rows.push(Row {
            path: target.label(),
            bytes: target.bytes,
            rounds,
        });
    }
    println!(
        "\nThe last three columns, for a large uncompressed body: nginx without sendfile, which \
         copies the body into the socket as ours must, and our requests per second as a share \
         of its.\n{}",
        table(&rows)
    );

    let slower: Vec<&str> = rows
        .iter()
        .filter(|row| row.ratio() < GOAL)
        .map(|row| row.path.as_str())
        .collect();
    if slower.is_empty() {
        println!("every path is within {:.0}% of nginx", GOAL * 100.0);
    } else {
        println!("under {:.0}% of nginx: {}", GOAL * 100.0, slower.join(", "));
    }
    let later: Vec<&str> = rows
        .iter()
        .filter(|row| row.ours().latency_p99 > row.nginx().latency_p99)
        .map(|row| row.path.as_str())
        .collect();
    if !later.is_empty() {
        println!("p99 latency above nginx's: {}", later.join(", "));
    }
    Ok(())
}

/// The programs the benchmark drives, installed when missing.
#[derive(Debug)]
struct Tools {
    nginx: PathBuf,
    wrk: PathBuf,
}

impl Tools {
    fn ensure() -> Result<Self> {
        let mut missing = Vec::new();
        for (program, package) in [("nginx", "nginx-light"), ("wrk", "wrk"), ("curl", "curl")] {
            match find_program(program) {
                Some(path) => println!("ok: {}", path.display()),
                None => missing.push(package),
            }
        }
        if !missing.is_empty() {
            apt_install(&missing, "the benchmark")?;
        }
        let found = |program: &str| {
            find_program(program)
                .ok_or_else(|| format!("`{program}` still not found after install"))
        };
        Ok(Self {
            nginx: found("nginx")?,
            wrk: found("wrk")?,
        })
    }
}

/// One response saved from our server: its path, body size and content type.
#[derive(Debug)]
pub(crate) struct Target {
    path: String,
    file: PathBuf,
    content_type: String,
    bytes: u64,
    /// Asked for compressed, as browsers ask: `gzip`, the one nginx can serve
    /// precompressed (`gzip_static`; Debian's nginx has no brotli).
    gzip: bool,
}

impl Target {
    /// A path timed as it is, with no saved body (the storage benchmark's redirects).
    pub(crate) fn path(path: &str) -> Target {
        Target {
            path: path.to_owned(),
            file: PathBuf::new(),
            content_type: String::new(),
            bytes: 0,
            gzip: false,
        }
    }

    /// The path, marked when asked for compressed.
    fn label(&self) -> String {
        if self.gzip {
            format!("{} (gzip)", self.path)
        } else {
            self.path.clone()
        }
    }

    /// The request headers wrk and curl send.
    fn headers(&self) -> &'static [&'static str] {
        if self.gzip {
            &["Accept-Encoding: gzip"]
        } else {
            &[]
        }
    }
}

/// Saves the timed responses from our server under `www`, each at `<url path>/body`
/// (a path can be both a response and the parent of others, like `/products`).
fn save_responses(base: &str, with_web_app: bool, www: &Path) -> Result<Vec<Target>> {
    let api = format!("/downloads/v1/products/{DEMO_PRODUCT}");
    let (zip, thumbnail) = demo_file_paths(base)?;
    let list = format!("{api}/downloads");
    let mut paths = vec![
        ("/downloads/v1/products".to_string(), false),
        (api.clone(), false),
        (list.clone(), false),
        (list, true),
        (zip, false),
        (thumbnail, false),
    ];
    if with_web_app {
        // Not `/`: nginx answers a directory path through its index module, not a file.
        paths.push(("/index.html".to_string(), false));
    }

    let mut targets = Vec::new();
    for (path, gzip) in paths {
        let dir = www.join(path.trim_start_matches('/'));
        fs::create_dir_all(&dir)?;
        // Where nginx's `gzip_static` looks for the compressed copy of `body`.
        let file = dir.join(if gzip { "body.gz" } else { "body" });
        let mut curl = Command::new("curl");
        curl.args(["-sS", "-o"])
            .arg(&file)
            .args(["-w", "%{http_code} %{content_type}"]);
        if gzip {
            curl.args(["-H", "Accept-Encoding: gzip"]);
        }
        let out = capture(curl.arg(format!("{base}{path}")))?;
        let (status, content_type) = out.split_once(' ').unwrap_or((&out, ""));
        if status != "200" || content_type.is_empty() || content_type.contains('"') {
            return Err(
                format!("{path}: our server answered `{out}`, expected 200 and a type").into(),
            );
        }
        if gzip && !fs::read(&file)?.starts_with(&[0x1f, 0x8b]) {
            return Err(format!("{path}: our server sent no gzip when asked for it").into());
        }
        let bytes = fs::metadata(&file)?.len();
        println!("saved {path}: {bytes} bytes, {content_type}");
        targets.push(Target {
            path,
            file,
            content_type: content_type.to_string(),
            bytes,
            gzip,
        });
    }
    Ok(targets)
}

fn start_nginx(nginx: &Path, work: &Path, targets: &[Target], sendfile: bool) -> Result<Server> {
    let port = free_port()?;
    let config = work.join("nginx.conf");
    fs::write(&config, nginx_config(work, port, targets, sendfile))?;
    let error_log = work.join("error.log");
    let mut server = Command::new(nginx);
    server
        .arg("-p")
        .arg(work)
        .arg("-c")
        .arg(&config)
        // Before reading the config nginx opens its default error log; keep it here.
        .arg("-e")
        .arg(&error_log)
        .stdout(Stdio::null());
    let probe = &targets.first().ok_or("no path to time")?.path;
    Server::start("nginx", &mut server, port, probe, Some(&error_log))
}

/// nginx tuned as for production static files: a worker per core, sendfile (unless
/// told not to: [`COPY_MATTERS`]), long keep-alive, cached file handles, no access log,
/// no compressing on the fly (only the saved `.gz` copies, `gzip_static`). Each path is
/// an exact location answering its saved body with the type our server sent.
fn nginx_config(work: &Path, port: u16, targets: &[Target], sendfile: bool) -> String {
    let work = work.display();
    let sendfile = if sendfile { "on" } else { "off" };
    let mut locations = String::new();
    // A compressed copy sits beside its path's body: no location of its own.
    for target in targets.iter().filter(|target| !target.gzip) {
        let _ = write!(
            locations,
            "        location = {} {{\n            alias {};\n            default_type \"{}\";\n        }}\n",
            target.path,
            target.file.display(),
            target.content_type
        );
    }
    format!(
        "daemon off;
worker_processes auto;
pid {work}/nginx.pid;
error_log {work}/error.log warn;
events {{
    worker_connections 1024;
}}
http {{
    access_log off;
    client_body_temp_path {work}/client_body;
    proxy_temp_path {work}/proxy;
    types {{}}
    sendfile {sendfile};
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000000;
    gzip off;
    gzip_static on;
    gzip_vary on;
    open_file_cache max=100;
    server {{
        listen 127.0.0.1:{port};
{locations}        location / {{
            return 404;
        }}
    }}
}}
"
    )
}

/// The body at `target`'s path, which must answer 200.
fn get_body(base: &str, target: &Target) -> Result<Vec<u8>> {
    let url = format!("{base}{}", target.path);
    let mut curl = Command::new("curl");
    curl.args(["-sS", "--fail"]);
    for header in target.headers() {
        curl.args(["-H", header]);
    }
    let output = curl.arg(&url).output()?;
    if !output.status.success() {
        return Err(format!(
            "GET {url} failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )
        .into());
    }
    Ok(output.stdout)
}

/// Warms the server up on `target`, then times it, and the CPU time `processes` spend.
pub(crate) fn measure(
    wrk: &Path,
    base: &str,
    target: &Target,
    cpu: &CpuClock,
    processes: &[u32],
) -> Result<WrkResult> {
    let url = format!("{base}{}", target.path);
    let wrk_run = |duration: &str| {
        let mut command = Command::new(wrk);
        command
            .arg(format!("-t{WRK_THREADS}"))
            .arg(format!("-c{WRK_CONNECTIONS}"))
            .arg(format!("-d{duration}"))
            .arg("--latency");
        for header in target.headers() {
            command.args(["-H", header]);
        }
        capture(command.arg(&url))
    };
    wrk_run(WARM_UP)?;
    let before = cpu.time(processes)?;
    let report = wrk_run(MEASURE)?;
    let spent = cpu.time(processes)?.saturating_sub(before);
    let result = parse_wrk(&report).map_err(|error| format!("wrk on {url}: {error}\n{report}"))?;
    let requests = u32::try_from(result.requests.max(1)).unwrap_or(u32::MAX);
    Ok(WrkResult {
        cpu_per_request: spent / requests,
        ..result
    })
}

/// `pid` and its child processes (nginx's workers).
fn with_children(pid: u32) -> Vec<u32> {
    let children =
        fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    std::iter::once(pid)
        .chain(children.split_whitespace().filter_map(|n| n.parse().ok()))
        .collect()
}

/// Reads processes' CPU time from `/proc`.
#[derive(Debug)]
pub(crate) struct CpuClock {
    ticks_per_second: u32,
}

impl CpuClock {
    pub(crate) fn new() -> Self {
        let ticks = capture(Command::new("getconf").arg("CLK_TCK")).ok();
        Self {
            // Linux's USER_HZ is 100 everywhere in practice.
            ticks_per_second: ticks.and_then(|t| t.parse().ok()).unwrap_or(100),
        }
    }

    /// The user and system time `processes` (all their threads) have used so far.
    fn time(&self, processes: &[u32]) -> Result<Duration> {
        let mut ticks = 0;
        for pid in processes {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat"))?;
            ticks += cpu_ticks(&stat).ok_or_else(|| format!("cannot read /proc/{pid}/stat"))?;
        }
        Ok(Duration::from_secs_f64(
            ticks as f64 / f64::from(self.ticks_per_second),
        ))
    }
}

/// `utime + stime` from a `/proc/PID/stat` line: fields 14 and 15, counted after the
/// command name, which is in parentheses and may hold spaces.
fn cpu_ticks(stat: &str) -> Option<u64> {
    let (_, after_name) = stat.rsplit_once(')')?;
    let mut fields = after_name.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// What one wrk run measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WrkResult {
    pub(crate) requests: u64,
    pub(crate) requests_per_sec: f64,
    pub(crate) latency_avg: Duration,
    pub(crate) latency_p99: Duration,
    /// The server's CPU time over `requests` (zero until measured).
    pub(crate) cpu_per_request: Duration,
}

/// Reads wrk's report (run with `--latency`). Error answers or socket errors make the
/// figures meaningless, so they are an error too.
fn parse_wrk(report: &str) -> std::result::Result<WrkResult, String> {
    let mut requests = None;
    let mut requests_per_sec = None;
    let mut latency_avg = None;
    let mut latency_p99 = None;
    for line in report.lines().map(str::trim) {
        let mut words = line.split_whitespace();
        // `350123 requests in 5.00s, 100.00MB read`
        if let Some((count, _)) = line.split_once(" requests in ") {
            requests = count.parse().ok();
        }
        match words.next() {
            Some("Requests/sec:") => requests_per_sec = words.next().and_then(|n| n.parse().ok()),
            // The thread stats row: `Latency  avg  stdev  max  +/-stdev`.
            Some("Latency") if latency_avg.is_none() => {
                latency_avg = words.next().and_then(parse_wrk_duration)
            }
            Some("99%") => latency_p99 = words.next().and_then(parse_wrk_duration),
            Some("Non-2xx") => return Err(format!("error responses: {line}")),
            Some("Socket") => return Err(format!("connection trouble: {line}")),
            _ => {}
        }
    }
    Ok(WrkResult {
        requests: requests.ok_or("no request count")?,
        requests_per_sec: requests_per_sec.ok_or("no `Requests/sec:` line")?,
        latency_avg: latency_avg.ok_or("no latency average")?,
        latency_p99: latency_p99.ok_or("no 99% latency (run wrk with --latency)")?,
        cpu_per_request: Duration::ZERO,
    })
}

/// wrk's times: `415.23us`, `1.20ms`, `2.00s`, `1.50m`.
fn parse_wrk_duration(text: &str) -> Option<Duration> {
    let split = text.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().ok()?;
    let nanos_per_unit = match unit {
        "us" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" => 60e9,
        "h" => 3600e9,
        _ => return None,
    };
    let nanos = (number * nanos_per_unit).round();
    (nanos.is_finite() && nanos >= 0.0).then(|| Duration::from_nanos(nanos as u64))
}

/// One path's figures on both servers.
#[derive(Debug)]
struct Row {
    path: String,
    bytes: u64,
    rounds: Vec<Round>,
}

/// One timing of each server, one right after the other.
#[derive(Debug, Clone, Copy)]
struct Round {
    ours: WrkResult,
    nginx: WrkResult,
    /// nginx without sendfile, for a large uncompressed body ([`COPY_MATTERS`]).
    copying: Option<WrkResult>,
}

impl Round {
    fn ratio(&self) -> f64 {
        self.ours.requests_per_sec / self.nginx.requests_per_sec
    }
}

impl Row {
    /// Our requests per second as a share of nginx's: the median of the rounds.
    fn ratio(&self) -> f64 {
        median(self.rounds.iter().map(Round::ratio))
    }

    /// The lowest and highest ratio of a round.
    fn ratio_range(&self) -> (f64, f64) {
        let ratios = self.rounds.iter().map(Round::ratio);
        let low = ratios.clone().fold(f64::INFINITY, f64::min);
        (low, ratios.fold(f64::NEG_INFINITY, f64::max))
    }

    fn ours(&self) -> WrkResult {
        WrkResult::median(self.rounds.iter().map(|round| round.ours))
    }

    fn nginx(&self) -> WrkResult {
        WrkResult::median(self.rounds.iter().map(|round| round.nginx))
    }

    fn copying(&self) -> Option<WrkResult> {
        let results = self.rounds.iter().filter_map(|round| round.copying);
        (results.clone().count() > 0).then(|| WrkResult::median(results))
    }

    /// Our requests per second as a share of nginx's without sendfile: the median of
    /// the rounds.
    fn copying_ratio(&self) -> f64 {
        median(self.rounds.iter().filter_map(|round| {
            Some(round.ours.requests_per_sec / round.copying?.requests_per_sec)
        }))
    }
}

impl WrkResult {
    /// Each figure's median over `results`.
    fn median(results: impl Iterator<Item = WrkResult> + Clone) -> WrkResult {
        let seconds = |pick: fn(&WrkResult) -> Duration| {
            Duration::from_secs_f64(median(results.clone().map(|r| pick(&r).as_secs_f64())))
        };
        WrkResult {
            requests: median(results.clone().map(|r| r.requests as f64)) as u64,
            requests_per_sec: median(results.clone().map(|r| r.requests_per_sec)),
            latency_avg: seconds(|r| r.latency_avg),
            latency_p99: seconds(|r| r.latency_p99),
            cpu_per_request: seconds(|r| r.cpu_per_request),
        }
    }
}

/// The middle value (the mean of the two middle ones for an even count); NaN for none.
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|row| row.path.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = format!(
        "{:<width$} {:>8} {:>11} {:>11} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10} {:>9} {:>6}\n",
        "path",
        "bytes",
        "ours req/s",
        "nginx req/s",
        "ratio",
        "range",
        "ours avg",
        "nginx avg",
        "ours p99",
        "nginx p99",
        "ours cpu",
        "nginx cpu",
        "copy req/s",
        "copy cpu",
        "ratio"
    );
    for row in rows {
        let (ours, nginx) = (row.ours(), row.nginx());
        let (low, high) = row.ratio_range();
        let copying = row.copying().map_or_else(
            || ["-".to_owned(), "-".to_owned(), "-".to_owned()],
            |copying| {
                [
                    format!("{:.0}", copying.requests_per_sec),
                    tenths_of_micros(copying.cpu_per_request),
                    format!("{:.0}%", row.copying_ratio() * 100.0),
                ]
            },
        );
        let _ = writeln!(
            out,
            "{:<width$} {:>8} {:>11.0} {:>11.0} {:>5.0}% {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>10} {:>9} {:>6}",
            row.path,
            row.bytes,
            ours.requests_per_sec,
            nginx.requests_per_sec,
            row.ratio() * 100.0,
            format!("{:.0}-{:.0}%", low * 100.0, high * 100.0),
            short_duration(ours.latency_avg),
            short_duration(nginx.latency_avg),
            short_duration(ours.latency_p99),
            short_duration(nginx.latency_p99),
            tenths_of_micros(ours.cpu_per_request),
            tenths_of_micros(nginx.cpu_per_request),
            copying[0],
            copying[1],
            copying[2],
        );
    }
    out
}

/// `850us` under a millisecond, `1.25ms` above.
fn short_duration(duration: Duration) -> String {
    let micros = duration.as_secs_f64() * 1e6;
    if micros < 1000.0 {
        format!("{micros:.0}us")
    } else {
        format!("{:.2}ms", micros / 1000.0)
    }
}

/// `21.4us`: CPU per request is a few microseconds.
fn tenths_of_micros(duration: Duration) -> String {
    format!("{:.1}us", duration.as_secs_f64() * 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
Running 5s test @ http://127.0.0.1:41234/downloads/v1/products
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   415.23us  200.12us   5.01ms   90.00%
    Req/Sec    70.12k     3.21k   75.00k    80.00%
  Latency Distribution
     50%  380.00us
     75%  450.00us
     90%  550.00us
     99%    1.20ms
  350123 requests in 5.00s, 100.00MB read
Requests/sec:  70024.60
Transfer/sec:     20.00MB
";

    #[test]
    fn reads_throughput_and_latencies_from_a_wrk_report() {
        let result = parse_wrk(REPORT).unwrap();
        assert_eq!(result.requests, 350_123);
        assert_eq!(result.requests_per_sec, 70024.60);
        assert_eq!(result.latency_avg, Duration::from_nanos(415_230));
        assert_eq!(result.latency_p99, Duration::from_micros(1_200));
    }

    #[test]
    fn error_answers_and_missing_figures_are_errors() {
        let with_errors = REPORT.replace(
            "Requests/sec:",
            "  Non-2xx or 3xx responses: 17\nRequests/sec:",
        );
        let error = parse_wrk(&with_errors).unwrap_err();
        assert!(error.contains("17"), "{error}");
        let socket = REPORT.replace(
            "Requests/sec:",
            "  Socket errors: connect 0, read 3, write 0, timeout 0\nRequests/sec:",
        );
        assert!(parse_wrk(&socket).is_err());
        let without_distribution: String = REPORT
            .lines()
            .filter(|line| {
                !line
                    .split_whitespace()
                    .next()
                    .is_some_and(|w| w.ends_with('%'))
            })
            .map(|line| format!("{line}\n"))
            .collect();
        let error = parse_wrk(&without_distribution).unwrap_err();
        assert!(error.contains("--latency"), "{error}");
        assert!(parse_wrk("unable to connect to 127.0.0.1:1 Connection refused").is_err());
    }

    #[test]
    fn reads_every_wrk_time_unit() {
        assert_eq!(
            parse_wrk_duration("850.00us"),
            Some(Duration::from_micros(850))
        );
        assert_eq!(
            parse_wrk_duration("1.50ms"),
            Some(Duration::from_micros(1_500))
        );
        assert_eq!(parse_wrk_duration("2.00s"), Some(Duration::from_secs(2)));
        assert_eq!(parse_wrk_duration("1.50m"), Some(Duration::from_secs(90)));
        assert_eq!(parse_wrk_duration("12"), None);
        assert_eq!(parse_wrk_duration("3.0xs"), None);
    }

    /// A run of `requests_per_sec` with an average latency of `micros`, a 99th
    /// percentile three times that, and a CPU time per request a twentieth of it.
    fn result(requests_per_sec: f64, micros: u64) -> WrkResult {
        WrkResult {
            requests: 100_000,
            requests_per_sec,
            latency_avg: Duration::from_micros(micros),
            latency_p99: Duration::from_micros(micros * 3),
            cpu_per_request: Duration::from_nanos(micros * 50),
        }
    }

    #[test]
    fn the_table_shows_the_share_of_nginx_and_readable_times() {
        let rows = [Row {
            path: "/downloads/v1/products".into(),
            bytes: 4321,
            rounds: vec![Round {
                ours: result(30_000.0, 500),
                nginx: result(40_000.0, 400),
                copying: None,
            }],
        }];
        assert_eq!(rows[0].ratio(), 0.75);
        let table = table(&rows);
        let line = table.lines().nth(1).unwrap();
        assert!(line.starts_with("/downloads/v1/products"), "{table}");
        for cell in [
            "4321", "30000", "40000", "75%", "500us", "400us", "1.50ms", "1.20ms", "25.0us",
            "20.0us",
        ] {
            assert!(line.contains(cell), "{cell} missing from {line}");
        }
    }

    #[test]
    fn rounds_are_summed_up_by_their_medians() {
        let round = |ours, nginx| Round {
            ours: result(ours, 100),
            nginx: result(nginx, 200),
            copying: Some(result(nginx / 2.0, 300)),
        };
        // One round disturbed by other work on the machine: the median ignores it.
        let row = Row {
            path: "/".into(),
            bytes: 1,
            rounds: vec![
                round(9_000.0, 10_000.0),
                round(2_000.0, 10_000.0),
                round(9_500.0, 10_000.0),
            ],
        };
        assert_eq!(row.ratio(), 0.9);
        assert_eq!(row.ratio_range(), (0.2, 0.95));
        assert_eq!(row.ours().requests_per_sec, 9_000.0);
        assert_eq!(row.nginx().latency_p99, Duration::from_micros(600));
        assert_eq!(row.ours().cpu_per_request, Duration::from_micros(5));
        let line = table(std::slice::from_ref(&row));
        assert!(line.contains("20-95%"), "{line}");
        // Against nginx without sendfile (half nginx's pace here): 9,000 of 5,000.
        assert_eq!(row.copying().unwrap().requests_per_sec, 5_000.0);
        assert_eq!(row.copying_ratio(), 1.8);
        assert!(line.contains("180%") && line.contains("15.0us"), "{line}");
        assert_eq!(median([4.0, 1.0, 3.0, 2.0].into_iter()), 2.5);
    }

    #[test]
    fn cpu_time_is_read_after_the_command_name() {
        let stat = "4242 (nginx: worker (x)) S 4241 4241 4241 0 -1 4194624 300 0 0 0 \
                    1234 567 0 0 20 0 1 0 100 1000 200";
        assert_eq!(cpu_ticks(stat), Some(1234 + 567));
        assert_eq!(cpu_ticks("4242 (truncated) S 1 2"), None);
        let ours = std::process::id();
        let clock = CpuClock::new();
        assert!(clock.time(&[ours]).is_ok());
        assert_eq!(with_children(ours)[0], ours);
    }
}
