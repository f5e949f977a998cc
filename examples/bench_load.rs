//! The load benchmark behind `scripts/bench-load` (not a test).
//!
//! One `eddi serve` process (the binary next to this example, or `EDDI_BIN`)
//! on a temporary workspace, over one private nats-server; N senders (tokio
//! tasks sharing a few client connections) each run a realistic session on
//! the direct subject: `Start`, open its own Python file and a shared one,
//! then rounds of navigation (`Goto`, `Show Line`, `Status`, `Find`), an edit
//! (`Insert Line`, sometimes `Undo`), now and then a `Save`, a `Find
//! References` and a `Show Function`, and every tenth round (after a save)
//! a `Refactor RenameSymbol` of one of its own functions, applied across
//! the project and checked (`Ok, Renamed in 1 file (s<id>.py), 1 reference
//! updated`). Each round also *pipelines* four cursor commands (published
//! back to back, answered on the sender's own inbox) to check that one
//! sender's replies come in the order it sent them. Every reply is checked: `Ok`, and what only this sender's session
//! can say (its own file's owner line) — no errors, no cross-talk.
//!
//! Per N: throughput, p50/p99/p99.9 per kind of command (cursor, edit, save,
//! query, refactor) and Eddi's peak RSS (`VmHWM`). Then a soak: as many messages as
//! fit in `--soak-seconds` (or `--soak-messages`), cursor commands and
//! insert/undo pairs from 100 senders, with Eddi's RSS sampled every second.
//!
//! The rounds start once every sender's session exists (the `Start`s,
//! all sent at once, are timed apart). `--floor` runs the same senders
//! against a responder that does no work: the generator's and the
//! broker's own share of the latencies.
//!
//! `cargo run --release --example bench_load -- [--senders 10,100,500]
//!   [--rounds R] [--think-ms T] [--soak-messages M] [--soak-seconds S] [--floor]`
//!
//! Without `--think-ms` the senders run closed-loop: each sends its next
//! command the moment the last is answered, which saturates the machine
//! (the throughput test). With it, each pauses a random time of mean T
//! between rounds, as an agent does while it reads and thinks.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use eddi::transport::embedded::EmbeddedServer;
use eddi::transport::Subjects;
use futures::StreamExt;

/// Kinds of commands, timed apart: the target is about `Cursor`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// `Start` and the two `Open`s: a new session, once per sender
    Start,
    Cursor,
    Edit,
    Save,
    Query,
    Refactor,
}

const KINDS: [Kind; 6] = [
    Kind::Start,
    Kind::Cursor,
    Kind::Edit,
    Kind::Save,
    Kind::Query,
    Kind::Refactor,
];

#[derive(Default)]
struct Timings {
    by_kind: [Vec<Duration>; 6],
}

impl Timings {
    fn push(&mut self, kind: Kind, d: Duration) {
        self.by_kind[kind as usize].push(d);
    }
    fn merge(&mut self, other: Timings) {
        for (mine, theirs) in self.by_kind.iter_mut().zip(other.by_kind) {
            mine.extend(theirs);
        }
    }
}

/// A sender's own Python file: its owner line makes cross-talk visible.
fn own_file(sender: usize) -> String {
    let mut text = format!("# owner s{sender}\nimport os\n\n");
    for i in 0..40 {
        text.push_str(&format!(
            "def helper_{i}(x):\n    \"\"\"Helper {i}.\"\"\"\n    y = x + {i}\n    return shared.compute(y)\n\n"
        ));
    }
    text
}

const SHARED: &str = "def compute(v):\n    return v * 2\n\n\nclass Store:\n    def get(self, k):\n        return compute(k)\n";

struct Eddi {
    child: Child,
}

impl Eddi {
    fn start(bin: &Path, root: &Path, url: &str) -> Eddi {
        let mut command = if FLOOR.load(Ordering::Relaxed) {
            // the floor: this program as a responder that does no work
            let mut c = Command::new(std::env::current_exe().expect("current exe"));
            c.args(["--respond", url]);
            c
        } else {
            let mut c = Command::new(bin);
            c.args(["serve", "--root"])
                .arg(root)
                .args(["--nats-url", url]);
            c
        };
        let child = command
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("eddi serve starts");
        Eddi { child }
    }

    /// (current, peak) resident set in KiB.
    fn rss(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Eddi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn wait_for_service(client: &async_nats::Client, subjects: &Subjects) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let probe = client
            .request(subjects.direct("probe"), "Status".into())
            .await;
        if probe.is_ok() {
            return;
        }
        assert!(Instant::now() < deadline, "eddi serve did not answer");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Failures seen by the senders (all must stay zero).
#[derive(Default)]
struct Errors {
    fails: AtomicU64,
    cross_talk: AtomicU64,
    out_of_order: AtomicU64,
    first: std::sync::Mutex<Option<String>>,
}

impl Errors {
    fn note(&self, counter: &AtomicU64, what: String) {
        counter.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first.lock().unwrap();
        if first.is_none() {
            *first = Some(what);
        }
    }
    fn total(&self) -> u64 {
        self.fails.load(Ordering::Relaxed)
            + self.cross_talk.load(Ordering::Relaxed)
            + self.out_of_order.load(Ordering::Relaxed)
    }
}

struct SenderCtx {
    client: async_nats::Client,
    subject: String,
    id: usize,
    errors: Arc<Errors>,
    messages: Arc<AtomicU64>,
}

impl SenderCtx {
    async fn ask(&self, text: &str) -> (String, Duration) {
        let started = Instant::now();
        let reply = match self
            .client
            .request(self.subject.clone(), text.to_string().into())
            .await
        {
            Ok(reply) => String::from_utf8_lossy(&reply.payload).into_owned(),
            Err(err) => format!("Fail (no reply: {err})"),
        };
        let took = started.elapsed();
        self.messages.fetch_add(1, Ordering::Relaxed);
        if !reply.lines().all(|l| l.starts_with("Ok")) {
            self.errors.note(
                &self.errors.fails,
                format!("s{}: {text:?} → {reply}", self.id),
            );
        }
        (reply, took)
    }

    /// Four `Goto`s published back to back on one inbox: the replies must
    /// come in the order sent.
    async fn pipelined(&self, lines: usize, timings: &mut Timings) {
        let inbox = self.client.new_inbox();
        let mut replies = self
            .client
            .subscribe(inbox.clone())
            .await
            .expect("subscribe");
        let rows: Vec<usize> = (0..4).map(|k| (self.id * 7 + k * 13) % lines).collect();
        let started = Instant::now();
        for row in &rows {
            self.client
                .publish_with_reply(
                    self.subject.clone(),
                    inbox.clone(),
                    format!("Goto {row}:0").into(),
                )
                .await
                .expect("publish");
        }
        for row in &rows {
            let reply = tokio::time::timeout(Duration::from_secs(30), replies.next()).await;
            let text = match reply {
                Ok(Some(m)) => String::from_utf8_lossy(&m.payload).into_owned(),
                _ => String::from("(no reply)"),
            };
            self.messages.fetch_add(1, Ordering::Relaxed);
            if text != format!("Ok, At {row}:0") {
                self.errors.note(
                    &self.errors.out_of_order,
                    format!("s{}: pipelined Goto {row}:0 answered {text}", self.id),
                );
            }
        }
        // One figure per pipelined command: the batch's time shared out.
        let each = started.elapsed() / rows.len() as u32;
        for _ in &rows {
            timings.push(Kind::Cursor, each);
        }
    }

    fn check_owner(&self, reply: &str) {
        if !reply.contains(&format!("# owner s{}", self.id)) {
            self.errors.note(
                &self.errors.cross_talk,
                format!("s{}: its own line 0 answered {reply}", self.id),
            );
        }
    }
}

/// One realistic session of `rounds` rounds. Each sender starts its cycle
/// of saves, refactors and queries at its own phase (agents do not all
/// refactor at the same instant), and with `think` > 0 pauses between
/// rounds for a random time of mean `think` (uniform in 0..2×think: an
/// agent reads the replies and decides), drawn from a generator seeded by
/// its id so that runs repeat.
async fn session(
    ctx: SenderCtx,
    rounds: usize,
    think: Duration,
    started: Arc<tokio::sync::Barrier>,
) -> Timings {
    let mut t = Timings::default();
    let file = format!("s{}.py", ctx.id);
    let (_, d) = ctx
        .ask(&format!(
            "Start load_{}\nOpen shared.py\nOpen {file}",
            ctx.id
        ))
        .await;
    t.push(Kind::Start, d);
    // The rounds begin once every session exists: the cursor figures are
    // of a service in use, not of one taking 100 sessions in the same
    // millisecond (timed apart, as `Start`).
    started.wait().await;
    let lines = 40 * 5 + 3;
    // The current names of its functions: its refactors rename them.
    let mut helpers: Vec<String> = (0..40).map(|i| format!("helper_{i}")).collect();
    // Lines inserted since the last save and not undone: a `Save` with
    // none is a `Fail` ("No changes to save"), which would count as an error.
    let mut unsaved = 0usize;
    let mut renamed = 0usize;
    let phase = ctx.id % 10;
    let mut seed = (ctx.id as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for round in 0..rounds {
        if !think.is_zero() {
            // xorshift64: enough for spreading pauses
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let fraction = (seed >> 11) as f64 / (1u64 << 53) as f64;
            tokio::time::sleep(think.mul_f64(2.0 * fraction)).await;
        }
        let row = (ctx.id * 31 + round * 17) % lines;
        // where this sender is in its cycle of ten rounds
        let cycle = round + phase;
        for text in [
            format!("Goto {row}:0"),
            format!("Show Line {row}"),
            "Status".into(),
        ] {
            let (_, d) = ctx.ask(&text).await;
            t.push(Kind::Cursor, d);
        }
        let (reply, d) = ctx.ask("Show Line 0").await;
        t.push(Kind::Cursor, d);
        ctx.check_owner(&reply);
        let (_, d) = ctx.ask(&format!("Find \"helper_{}\"", round % 40)).await;
        t.push(Kind::Cursor, d);
        ctx.pipelined(lines, &mut t).await;
        let (_, d) = ctx
            .ask(&format!(
                "Goto EndOfFile\nInsert Line \"note_{round} = {round}\""
            ))
            .await;
        t.push(Kind::Edit, d);
        unsaved += 1;
        if cycle.is_multiple_of(3) {
            let (_, d) = ctx.ask("Undo").await;
            t.push(Kind::Edit, d);
            unsaved -= 1;
        }
        if cycle % 5 == 4 && unsaved > 0 {
            let (_, d) = ctx.ask("Save").await;
            t.push(Kind::Save, d);
            unsaved = 0;
        }
        if cycle % 10 == 4 {
            // Saved just now: nothing unsaved stands in the refactor's way.
            let which = renamed % 40;
            renamed += 1;
            let old = &helpers[which];
            let new = format!("{old}_r{round}");
            let (reply, d) = ctx
                .ask(&format!("Refactor RenameSymbol s{}.{old} {new}", ctx.id))
                .await;
            t.push(Kind::Refactor, d);
            if reply
                != format!(
                    "Ok, Renamed in 1 file (s{}.py), 1 reference updated",
                    ctx.id
                )
            {
                ctx.errors.note(
                    &ctx.errors.fails,
                    format!("s{}: rename {old} answered {reply}", ctx.id),
                );
            }
            helpers[which] = new;
        }
        if cycle % 10 == 9 {
            let (_, d) = ctx.ask("Find References compute").await;
            t.push(Kind::Query, d);
            let (_, d) = ctx
                .ask(&format!("Show Function {}", helpers[round % 40]))
                .await;
            t.push(Kind::Query, d);
        }
    }
    if unsaved > 0 {
        let (_, d) = ctx.ask("Save").await;
        t.push(Kind::Save, d);
    }
    t
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

struct Setup {
    _dir: tempfile::TempDir,
    eddi: Eddi,
    clients: Vec<async_nats::Client>,
    subjects: Subjects,
}

async fn setup(bin: &Path, url: &str, senders: usize) -> Setup {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("shared.py"), SHARED).unwrap();
    for s in 0..senders {
        std::fs::write(dir.path().join(format!("s{s}.py")), own_file(s)).unwrap();
    }
    let eddi = Eddi::start(bin, dir.path(), url);
    // A connection per 50 senders, as agents behind a few gateways.
    let mut clients = Vec::new();
    for _ in 0..senders.div_ceil(50) {
        clients.push(
            async_nats::ConnectOptions::new()
                .request_timeout(Some(Duration::from_secs(60)))
                .connect(url)
                .await
                .expect("connect"),
        );
    }
    let subjects = Subjects::new("mizuki", "eddi");
    wait_for_service(&clients[0], &subjects).await;
    Setup {
        _dir: dir,
        eddi,
        clients,
        subjects,
    }
}

async fn run_load(bin: &Path, url: &str, senders: usize, rounds: usize, think: Duration) {
    let s = setup(bin, url, senders).await;
    let errors = Arc::new(Errors::default());
    let messages = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    let all_started = Arc::new(tokio::sync::Barrier::new(senders));
    for id in 0..senders {
        let ctx = SenderCtx {
            client: s.clients[id % s.clients.len()].clone(),
            subject: s.subjects.direct(&format!("s{id}")),
            id,
            errors: errors.clone(),
            messages: messages.clone(),
        };
        tasks.push(tokio::spawn(session(
            ctx,
            rounds,
            think,
            all_started.clone(),
        )));
    }
    let mut all = Timings::default();
    for task in tasks {
        all.merge(task.await.expect("sender task"));
    }
    let took = started.elapsed();
    let (_, peak) = s.eddi.rss();
    let total = messages.load(Ordering::Relaxed);
    for (k, kind) in KINDS.iter().enumerate() {
        let v = &mut all.by_kind[k];
        v.sort();
        println!(
            "| {senders} | {kind:?} | {} | {} | {} | {} | {} |",
            v.len(),
            ms(pct(v, 0.50)),
            ms(pct(v, 0.99)),
            ms(pct(v, 0.999)),
            ms(v.last().copied().unwrap_or_default()),
        );
    }
    println!(
        "| {senders} | all | {total} msgs in {:.1} s = **{:.0} msg/s** | peak RSS {} MiB | errors {} (fail {}, cross-talk {}, order {}) | | |",
        took.as_secs_f64(),
        total as f64 / took.as_secs_f64(),
        peak / 1024,
        errors.total(),
        errors.fails.load(Ordering::Relaxed),
        errors.cross_talk.load(Ordering::Relaxed),
        errors.out_of_order.load(Ordering::Relaxed),
    );
    let first = errors.first.lock().unwrap().clone();
    if let Some(first) = first {
        println!("first error: {first}");
    }
}

async fn soak(bin: &Path, url: &str, max_messages: u64, seconds: u64) {
    let senders = 100;
    let s = setup(bin, url, senders).await;
    let errors = Arc::new(Errors::default());
    let messages = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for id in 0..senders {
        let ctx = SenderCtx {
            client: s.clients[id % s.clients.len()].clone(),
            subject: s.subjects.direct(&format!("s{id}")),
            id,
            errors: errors.clone(),
            messages: messages.clone(),
        };
        let stop = stop.clone();
        tasks.push(tokio::spawn(async move {
            ctx.ask(&format!("Start soak_{id}\nOpen s{id}.py")).await;
            let mut k = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let row = (id * 31 + k * 17) % 203;
                let text = match k % 6 {
                    0 => "Insert Line \"tmp = 1\"".to_string(),
                    1 => "Undo".to_string(),
                    2 => format!("Show Line {row}"),
                    3 => "Status".to_string(),
                    _ => format!("Goto {row}:0"),
                };
                // from 0: each `Undo` follows its `Insert Line`
                k += 1;
                ctx.ask(&text).await;
            }
        }));
    }
    let started = Instant::now();
    let mut samples = Vec::new();
    while started.elapsed() < Duration::from_secs(seconds)
        && messages.load(Ordering::Relaxed) < max_messages
    {
        tokio::time::sleep(Duration::from_millis(250)).await;
        if samples.len() < (started.elapsed().as_secs() as usize) {
            samples.push((messages.load(Ordering::Relaxed), s.eddi.rss().0));
        }
    }
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        let _ = task.await;
    }
    let took = started.elapsed();
    let total = messages.load(Ordering::Relaxed);
    println!(
        "soak: {total} messages from {senders} senders in {:.0} s ({:.0} msg/s), errors {}",
        took.as_secs_f64(),
        total as f64 / took.as_secs_f64(),
        errors.total()
    );
    if let Some(first) = errors.first.lock().unwrap().as_ref() {
        println!("first error: {first}");
    }
    println!("| after messages | Eddi RSS (MiB) |");
    println!("| ---: | ---: |");
    let step = (samples.len() / 10).max(1);
    for (i, (count, rss)) in samples.iter().enumerate() {
        if i % step == 0 || i + 1 == samples.len() {
            println!("| {count} | {:.1} |", *rss as f64 / 1024.0);
        }
    }
    if samples.len() >= 4 {
        let quarter = samples.len() / 4;
        let early = samples[quarter].1 as f64 / 1024.0;
        let late = samples.last().unwrap().1 as f64 / 1024.0;
        println!(
            "RSS at 25% of the soak {early:.1} MiB, at the end {late:.1} MiB ({:+.1} MiB)",
            late - early
        );
    }
}

fn eddi_bin() -> PathBuf {
    if let Ok(bin) = std::env::var("EDDI_BIN") {
        return bin.into();
    }
    let me = std::env::current_exe().expect("current exe");
    // target/<profile>/examples/bench_load → target/<profile>/eddi
    me.parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("eddi"))
        .expect("the eddi binary beside the example")
}

/// Run with `--floor`: every "Eddi" is [`respond`] instead, the load's floor.
static FLOOR: AtomicBool = AtomicBool::new(false);

/// The floor's responder: on Eddi's subjects, answers every message at once
/// with what the senders' checks expect of Eddi (`Ok, At r:c` to a `Goto`,
/// the sender's owner line, the rename's count), doing none of the work.
/// The same senders, broker and machine without Eddi: what is left of the
/// latencies is the load generator's and the broker's own.
async fn respond(url: &str) {
    let client = async_nats::connect(url).await.expect("connect");
    let subjects = Subjects::new("mizuki", "eddi");
    let mut commands = client
        .subscribe(subjects.direct("*"))
        .await
        .expect("subscribe");
    while let Some(msg) = commands.next().await {
        let Some(reply_to) = msg.reply else { continue };
        let text = String::from_utf8_lossy(&msg.payload);
        let sender = msg.subject.rsplit('.').next().unwrap_or("");
        let answer = if let Some(at) = text.strip_prefix("Goto ").filter(|t| !t.contains('\n')) {
            format!("Ok, At {at}")
        } else if text == "Show Line 0" {
            format!("Ok # owner {sender}")
        } else if text.starts_with("Refactor RenameSymbol") {
            // the sender `s<id>` renames in its own `s<id>.py`
            format!("Ok, Renamed in 1 file ({sender}.py), 1 reference updated")
        } else {
            "Ok".to_string()
        };
        client
            .publish(reply_to, answer.into())
            .await
            .expect("publish");
    }
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    if std::env::args().nth(1).as_deref() == Some("--respond") {
        let url = std::env::args().nth(2).expect("--respond URL");
        return respond(&url).await;
    }
    let mut senders = vec![10usize, 100, 500];
    let mut rounds = 20usize;
    let mut soak_messages = 1_000_000u64;
    let mut soak_seconds = 60u64;
    let mut think = Duration::ZERO;
    while let Some(arg) = args.next() {
        if arg == "--floor" {
            FLOOR.store(true, Ordering::Relaxed);
            continue;
        }
        let value = args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--senders" => {
                senders = value
                    .split(',')
                    .map(|n| n.parse().expect("--senders 10,100"))
                    .collect()
            }
            "--rounds" => rounds = value.parse().expect("--rounds R"),
            "--soak-messages" => soak_messages = value.parse().expect("--soak-messages M"),
            "--soak-seconds" => soak_seconds = value.parse().expect("--soak-seconds S"),
            "--think-ms" => {
                think = Duration::from_secs_f64(value.parse::<f64>().expect("--think-ms T") / 1e3)
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let bin = eddi_bin();
    let server = EmbeddedServer::start().await.expect("nats-server on PATH");
    let url = server.url();
    println!(
        "eddi: {}, {rounds} rounds per sender, think time {} ms mean between rounds",
        if FLOOR.load(Ordering::Relaxed) {
            "none (--floor: a responder that does no work)".to_string()
        } else {
            bin.display().to_string()
        },
        think.as_secs_f64() * 1e3
    );
    println!();
    println!("| senders | commands | count | p50 ms | p99 ms | p99.9 ms | max ms |");
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    for n in senders {
        run_load(&bin, &url, n, rounds, think).await;
    }
    println!();
    if soak_messages > 0 && soak_seconds > 0 {
        soak(&bin, &url, soak_messages, soak_seconds).await;
    }
    server.stop().await;
}
