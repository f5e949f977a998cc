//! Faults found by `scripts/faults`, each reproduced deterministically with
//! real processes (`eddi serve` on a real nats-server) and an injected fault.

use std::path::Path;
use std::process::Child;
use std::time::Duration;

use eddi::transport::server::MSG_ID_HEADER;
use eddi::transport::Subjects;

use crate::support::cli::{serve, wait_exit};
use crate::support::nats::*;

fn eddi_serve(root: &Path, url: &str, fault: Option<(&str, &str)>) -> Child {
    let mut command = serve(root, &["--nats-url", url]);
    if let Some((name, value)) = fault {
        command.env(name, value);
    }
    command.spawn().expect("eddi serve starts")
}

/// A direct request with a message id; `None` when no answer came.
async fn with_id(
    client: &async_nats::Client,
    subjects: &Subjects,
    sender: &str,
    id: &str,
    text: &str,
) -> Option<(String, bool)> {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert(MSG_ID_HEADER, id);
    let request = async_nats::Request::new()
        .payload(text.to_string().into())
        .headers(headers)
        .timeout(Some(Duration::from_secs(3)));
    let message = client
        .send_request(subjects.direct(sender), request)
        .await
        .ok()?;
    let duplicate = message
        .headers
        .as_ref()
        .is_some_and(|h| h.get(eddi::transport::server::DUPLICATE_HEADER).is_some());
    Some((
        String::from_utf8(message.payload.to_vec()).unwrap(),
        duplicate,
    ))
}

/// Found by the kill phase: the turn's events and the answered id were two
/// journal writes, so a crash between them left the edit without its id and
/// the retry applied it a second time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_after_the_journal_write_does_not_apply_the_retry_twice() {
    let nats = NatsServer::start();
    let url = nats.url();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
    let s = Subjects::new("mizuki", "eddi");
    let c = client(&url).await;

    let mut eddi = eddi_serve(
        dir.path(),
        &url,
        Some(("EDDI_FAULT_JOURNAL", "crash-after-edit")),
    );
    wait_for_service(&url, "eddi").await;
    assert_eq!(
        direct(&c, &s, "w", "Start k; Open a.py").await,
        "Ok\nOk, At 0:0, Length 1"
    );
    // The process aborts after journaling the edit, before replying.
    let edit = "Insert Line \"y = 2\"";
    assert_eq!(with_id(&c, &s, "w", "m1", edit).await, None);
    wait_exit(&mut eddi);

    let mut eddi = eddi_serve(dir.path(), &url, None);
    wait_for_service(&url, "eddi").await;
    let (reply, duplicate) = with_id(&c, &s, "w", "m1", edit)
        .await
        .expect("the retry is answered");
    assert!(duplicate, "the retry is answered as a repeat: {reply}");
    assert_eq!(reply, "Ok, Inserted 1 line at 0, At 1:0");
    assert_eq!(
        direct(&c, &s, "w", "Show Block 0:2").await,
        "Ok: At 0:0, Txt y = 2\\nx = 1\\n"
    );
    eddi.kill().unwrap();
    eddi.wait().unwrap();
}
