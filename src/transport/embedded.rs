//! The embedded default: when no NATS URL is configured and nothing answers
//! at `127.0.0.1:4222`, `eddi serve` starts a private `nats-server` child on a
//! free local port and stops it on exit.

use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

/// A `nats-server` child process, killed when dropped.
pub struct EmbeddedServer {
    child: Child,
    port: u16,
}

impl EmbeddedServer {
    /// Starts `nats-server` (from PATH) on a free port of 127.0.0.1 and waits
    /// until it accepts connections.
    pub async fn start() -> Result<EmbeddedServer, String> {
        let port = free_port().map_err(|err| format!("no free local port: {err}"))?;
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|err| {
                format!(
                    "cannot start nats-server ({err}); install it with scripts/setup \
                     or pass --nats-url"
                )
            })?;
        let mut server = EmbeddedServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        while !reachable(&format!("127.0.0.1:{port}")) {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("nats-server exited at start: {status}"));
            }
            if Instant::now() > deadline {
                return Err("nats-server did not start listening within 10 s".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Ok(server)
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Stops the server and waits for it to exit.
    pub async fn stop(mut self) {
        let _ = self.child.kill().await;
    }
}

/// A port nothing listens on right now.
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Whether something accepts TCP connections at `host:port`.
pub fn reachable(addr: &str) -> bool {
    let Ok(addrs) = addr.to_socket_addrs() else {
        return false;
    };
    addrs
        .into_iter()
        .any(|a: SocketAddr| TcpStream::connect_timeout(&a, Duration::from_millis(200)).is_ok())
}
