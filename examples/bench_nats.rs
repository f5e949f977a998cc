//! The NATS round-trip benchmark behind `scripts/bench-nats` (not a test).
//!
//! In one run, against one private nats-server: a bare echo responder, and
//! Eddi (the real engine, in-process, on a temporary workspace) answering
//! `Goto 10:0` and `Show Line 10` on the direct subject. For each: p50/p99
//! round trip and throughput with 1 request in flight and with 64 in flight
//! (64 senders, one request each at a time: one sender's commands run in
//! order, so concurrency comes from senders).
//!
//! `cargo run --release --example bench_nats -- [--requests N] [--state-dir DIR]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use eddi::engine::{Engine, EngineConfig};
use eddi::transport::embedded::EmbeddedServer;
use eddi::transport::listener::NatsStreamListener;
use eddi::transport::validator::{MessageValidator, ValidatorConfig};
use eddi::transport::{serve, ServeSettings, Subjects};
use eddi::transport::{CommandHandler, Incoming, Reply};
use futures::StreamExt;

/// A handler that does no work: isolates the transport's own cost.
struct Null;

impl CommandHandler for Null {
    fn handle(&self, request: &Incoming) -> Reply {
        let text = match request.text.as_str() {
            "Goto 10:0" => "Ok, At 10:0",
            "Show Line 10" => "Ok: At 10:0, Txt line_10 = 10",
            _ => "Ok\nOk, At 0:0, Length 100",
        };
        Reply {
            text: text.into(),
            ok: true,
            duplicate: false,
            format: eddi::commands::ResponseFormat::Terse,
            fitted_in: None,
        }
    }
    fn session_of(&self, _: &str) -> Option<String> {
        None
    }
    fn set_response_format(&self, _: &str, _: eddi::commands::ResponseFormat) {}
    fn flush(&self) -> Result<(), String> {
        Ok(())
    }
}

const IN_FLIGHT: usize = 64;

/// One thing to ask: the echo responder or Eddi.
#[derive(Clone, Copy)]
struct Target {
    name: &'static str,
    eddi: bool,
    payload: &'static str,
    expect: &'static str,
}

const TARGETS: [Target; 3] = [
    Target {
        name: "echo",
        eddi: false,
        payload: "Goto 10:0",
        expect: "Goto 10:0",
    },
    Target {
        name: "eddi `Goto 10:0`",
        eddi: true,
        payload: "Goto 10:0",
        expect: "Ok, At 10:0",
    },
    Target {
        name: "eddi `Show Line 10`",
        eddi: true,
        payload: "Show Line 10",
        expect: "Ok: At 10:0, Txt line_10 = 10",
    },
];

/// Worker `w`'s subject for a target: Eddi's sender `b<w>`, or the echo.
fn subject(subjects: &Subjects, target: &Target, w: usize) -> String {
    if target.eddi {
        subjects.direct(&format!("b{w}"))
    } else {
        "bench.echo".into()
    }
}

/// Round trips with `in_flight` workers, each asking every target in turn
/// `per_worker` times, so all targets share the same background load.
async fn latencies(
    client: &async_nats::Client,
    subjects: &Subjects,
    in_flight: usize,
    per_worker: usize,
) -> Vec<Vec<Duration>> {
    let mut workers = Vec::new();
    for w in 0..in_flight {
        let client = client.clone();
        let subjects = subjects.clone();
        workers.push(tokio::spawn(async move {
            let mut found = vec![Vec::with_capacity(per_worker); TARGETS.len()];
            for _ in 0..per_worker {
                for (t, target) in TARGETS.iter().enumerate() {
                    let subject = subject(&subjects, target, w);
                    let started = Instant::now();
                    let reply = client
                        .request(subject, target.payload.into())
                        .await
                        .expect("a reply");
                    found[t].push(started.elapsed());
                    assert_eq!(reply.payload, target.expect, "{}", target.name);
                }
            }
            found
        }));
    }
    let mut all = vec![Vec::new(); TARGETS.len()];
    for worker in workers {
        for (t, found) in worker.await.unwrap().into_iter().enumerate() {
            all[t].extend(found);
        }
    }
    for found in &mut all {
        found.sort();
    }
    all
}

/// Requests per second for one target alone, `in_flight` workers.
async fn throughput(
    client: &async_nats::Client,
    subjects: &Subjects,
    target: Target,
    in_flight: usize,
    total: usize,
) -> f64 {
    let per_worker = total / in_flight;
    let started = Instant::now();
    let mut workers = Vec::new();
    for w in 0..in_flight {
        let client = client.clone();
        let subject = subject(subjects, &target, w);
        workers.push(tokio::spawn(async move {
            for _ in 0..per_worker {
                let reply = client
                    .request(subject.clone(), target.payload.into())
                    .await
                    .expect("a reply");
                assert_eq!(reply.payload, target.expect, "{}", target.name);
            }
        }));
    }
    for worker in workers {
        worker.await.unwrap();
    }
    (per_worker * in_flight) as f64 / started.elapsed().as_secs_f64()
}

fn micros(d: Duration) -> String {
    format!("{:.1} µs", d.as_secs_f64() * 1e6)
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let mut requests = 20_000usize;
    let mut state_dir = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--requests" => {
                requests = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--requests N")
            }
            "--state-dir" => state_dir = args.next().map(std::path::PathBuf::from),
            other => panic!("unknown argument {other}"),
        }
    }
    let sequential = (requests / 10).max(100);

    let server = EmbeddedServer::start().await.expect("nats-server on PATH");
    let url = server.url();

    // The bare echo responder.
    let echo = async_nats::connect(&url).await.unwrap();
    let mut echo_sub = echo.subscribe("bench.echo").await.unwrap();
    echo.flush().await.unwrap();
    tokio::spawn({
        let echo = echo.clone();
        async move {
            while let Some(msg) = echo_sub.next().await {
                if let Some(reply) = msg.reply {
                    echo.publish(reply, msg.payload).await.unwrap();
                }
            }
        }
    });

    // Eddi on a workspace with a 100-line file, one session per sender.
    let root = tempfile::tempdir().unwrap();
    let lines: String = (0..100).map(|k| format!("line_{k} = {k}\n")).collect();
    std::fs::write(root.path().join("bench.py"), lines).unwrap();
    let mut config = EngineConfig::new(root.path());
    config.state_dir = state_dir.clone();
    let real = Arc::new(Engine::open(config).unwrap());
    let null = std::env::var_os("BENCH_NULL_HANDLER").is_some();
    let engine: Arc<dyn CommandHandler> = if null { Arc::new(Null) } else { real.clone() };
    let listener = NatsStreamListener::connect(&url, &Default::default(), "eddi-bench")
        .await
        .unwrap();
    let subjects = Subjects::new("mizuki", "eddi");
    let settings = ServeSettings {
        subjects: subjects.clone(),
        max_concurrent_operations: std::env::var("BENCH_MAX_CONCURRENT")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(eddi::config::DEFAULT_MAX_CONCURRENT),
        health_interval: Duration::from_secs(5),
        handshakes_file: None,
        ready: None,
    };
    let validator = MessageValidator::new(ValidatorConfig::new(1 << 20));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let eddi = tokio::spawn(serve(listener, engine, validator, settings, async move {
        let _ = stopped.await;
    }));

    let client = async_nats::connect(&url).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    for text in ["Start solo", "Open bench.py"] {
        real.execute(&eddi::engine::Request {
            sender: "solo",
            text,
            id: None,
        });
    }
    for w in 0..IN_FLIGHT {
        let reply = client
            .request(
                subjects.direct(&format!("b{w}")),
                format!("Start b{w}\nOpen bench.py").into(),
            )
            .await
            .unwrap();
        assert_eq!(reply.payload, "Ok\nOk, At 0:0, Length 100", "setup of b{w}");
    }

    println!(
        "NATS round trip, nats-server {} on 127.0.0.1, {} cores, state dir on {}",
        std::process::Command::new("nats-server")
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default(),
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        state_dir.as_deref().unwrap_or(root.path()).display(),
    );
    println!(
        "latency: {sequential} requests per target with 1 in flight, {requests} with {IN_FLIGHT} in flight, targets interleaved; \
         throughput: 1 in flight = 1/mean latency, {IN_FLIGHT} in flight = median of 3 rounds of {requests} per target alone\n"
    );
    println!("| target | in flight | p50 | p99 | req/s | p50 vs echo | req/s vs echo |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for in_flight in [1, IN_FLIGHT] {
        // Warm up, then: latencies interleaved across targets; throughput per
        // target alone, the median of three rounds taken in turn.
        latencies(&client, &subjects, in_flight, 20).await;
        let per_worker = if in_flight == 1 {
            sequential
        } else {
            (requests / in_flight).max(10)
        };
        let lat = latencies(&client, &subjects, in_flight, per_worker).await;
        let mut rates = vec![Vec::new(); TARGETS.len()];
        if in_flight == 1 {
            for (t, found) in lat.iter().enumerate() {
                let mean = found.iter().sum::<Duration>().as_secs_f64() / found.len() as f64;
                rates[t].push(1.0 / mean);
            }
        } else {
            for _round in 0..3 {
                for (t, target) in TARGETS.iter().enumerate() {
                    rates[t]
                        .push(throughput(&client, &subjects, *target, in_flight, requests).await);
                }
            }
        }
        let rate: Vec<f64> = rates
            .iter_mut()
            .map(|r| {
                r.sort_by(|a, b| a.partial_cmp(b).unwrap());
                r[r.len() / 2]
            })
            .collect();
        let p50 = |t: usize| lat[t][lat[t].len() / 2];
        let p99 = |t: usize| lat[t][lat[t].len() * 99 / 100];
        for (t, target) in TARGETS.iter().enumerate() {
            println!(
                "| {} | {in_flight} | {} | {} | {:.0} | {:.2}x | {:.2}x |",
                target.name,
                micros(p50(t)),
                micros(p99(t)),
                rate[t],
                p50(t).as_secs_f64() / p50(0).as_secs_f64(),
                rate[t] / rate[0],
            );
        }
    }
    // The engine alone, no NATS: what a round trip cannot go below.
    for (text, expect) in [
        ("Goto 10:0", "Ok, At 10:0"),
        ("Show Line 10", "Ok: At 10:0, Txt line_10 = 10"),
    ] {
        let mut times = Vec::with_capacity(sequential);
        for _ in 0..sequential {
            let t = Instant::now();
            let response = real.execute(&eddi::engine::Request {
                sender: "solo",
                text,
                id: None,
            });
            times.push(t.elapsed());
            assert!(null || response.text == expect, "{}", response.text);
        }
        times.sort();
        println!(
            "| engine alone `{text}` (no NATS) | 1 | {:.1} µs | {:.1} µs | {:.0} | | |",
            times[times.len() / 2].as_secs_f64() * 1e6,
            times[times.len() * 99 / 100].as_secs_f64() * 1e6,
            times.len() as f64 / times.iter().sum::<Duration>().as_secs_f64(),
        );
    }
    let _ = stop.send(());
    eddi.await.unwrap().unwrap();
    server.stop().await;
}
