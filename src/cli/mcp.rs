//! `eddi mcp [--root DIR] [--http ADDR]`: the agent tools as an MCP server
//! on stdio — or, with `--http`, on MCP's streamable HTTP transport for
//! remote agents — with the official Rust SDK (`rmcp`). A thin transport: tools/list is the
//! registry's (`crate::tools`), tools/call runs `tools::call` in the
//! `--sender`'s session, the resource `eddi://guide` is `tools::guide`.
//! Tool hints (read-only, destructive, idempotent) come from each tool's
//! `Effect`. A tool's failure is a tool result with `isError` and the
//! structured error as its text, so the model reads it.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ServerCapabilities, ServerConfig, Tool as McpTool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{SessionId, SessionManager};
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use super::LocalArgs;
use crate::engine::{Engine, EngineConfig};
use crate::progress::{Progress, ProgressSink, Throttle};
use crate::tools::{self, Tool};

/// The guide's URI.
pub const GUIDE_URI: &str = "eddi://guide";

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(flatten)]
    pub local: LocalArgs,
    /// The sender may read and search but change no file (a reviewer).
    #[arg(long)]
    pub read_only: bool,
    /// The sender may use only files under this directory (repeatable):
    /// `[permissions.path_prefixes]` of `eddi serve`, for this one sender.
    #[arg(long = "path-prefix", value_name = "DIR")]
    pub path_prefixes: Vec<String>,
    /// Serve MCP's streamable HTTP transport on this address (`127.0.0.1:8765`)
    /// instead of stdio, at the path `/mcp`. Every client is the one `--sender`;
    /// there is no authentication: bind to loopback, or put a proxy in front.
    #[arg(long, value_name = "HOST:PORT")]
    pub http: Option<String>,
    /// With `--http`: a `Host` header clients may send (a name or IP, with
    /// or without `:port`) besides the loopback names and the address bound;
    /// remote agents that reach the server by name need it. Repeatable.
    #[arg(long, value_name = "HOST", requires = "http")]
    pub allow_host: Vec<String>,
}

/// The MCP server: the engine and whose session the calls run in.
#[derive(Clone)]
pub struct EddiMcp {
    engine: Arc<Engine>,
    sender: String,
}

impl EddiMcp {
    pub fn new(engine: Arc<Engine>, sender: String) -> EddiMcp {
        EddiMcp { engine, sender }
    }
}

/// A registry entry as MCP describes a tool.
fn mcp_tool(tool: &Tool) -> McpTool {
    let schema = match &tool.input_schema {
        serde_json::Value::Object(object) => object.clone(),
        _ => serde_json::Map::new(),
    };
    let annotations = ToolAnnotations::new()
        .read_only(tool.read_only())
        .destructive(tool.destructive())
        .idempotent(tool.idempotent())
        .open_world(false);
    McpTool::new(tool.name, tool.description, Arc::new(schema)).with_annotations(annotations)
}

impl ServerHandler for EddiMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        let mut info = ServerConfig::new(capabilities);
        info.server_info = Implementation::new("eddi", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(format!(
            "Eddi edits and analyses the code of one workspace (Python, JavaScript, TypeScript, Go, Rust, Java). Paths are workspace-relative; lines and columns are zero-based. Read with get_lines (it returns the file's hash) and edit with edit_lines passing that hash as expected_hash. Change code across files with the refactoring tools (rename_symbol, change_signature, extract_method, inline_function, …): call with preview true to see the diff, then preview false to apply (one undo step); a use it cannot prove refuses the change by default, and the result lists what was inferred, left alone or only mentioned: check those sites. The resource {GUIDE_URI} is a compact guide to the tools and to Eddi's command language (the eddi tool)."
        ));
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::tools().iter().map(mcp_tool).collect(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        tools::tool(name).map(mcp_tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let engine = self.engine.clone();
        let sender = self.sender.clone();
        // A client that sends a progress token hears how far a long call is.
        let _watch = context.meta.get_progress_token().map(|token| {
            engine.watch_progress(&sender, progress_notifier(context.peer.clone(), token))
        });
        let name = request.name.to_string();
        let params = request
            .arguments
            .map(serde_json::Value::Object)
            .unwrap_or(serde_json::Value::Null);
        // The engine blocks (file I/O, fsync): off the async workers.
        let outcome =
            tokio::task::spawn_blocking(move || tools::call(&engine, &sender, &name, params))
                .await
                .map_err(|e| {
                    ErrorData::internal_error(format!("the tool call failed: {e}"), None)
                })?;
        Ok(match outcome {
            Ok(result) => CallToolResult::success(vec![ContentBlock::text(result.to_string())]),
            Err(error) => {
                let text = serde_json::json!({ "error": error.json() }).to_string();
                CallToolResult::error(vec![ContentBlock::text(text)])
            }
        }
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let guide = Resource::new(GUIDE_URI, "guide")
            .with_title("Eddi: a guide for models")
            .with_description("The tools, the command language with an example per command, and how to recover from common failures")
            .with_mime_type("text/markdown");
        Ok(ListResourcesResult::with_all_items(vec![guide]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != GUIDE_URI {
            return Err(ErrorData::resource_not_found(
                format!(
                    "No resource {}; the one resource is {GUIDE_URI}",
                    request.uri
                ),
                None,
            ));
        }
        let contents = ResourceContents::text(tools::guide::guide(), GUIDE_URI);
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

pub fn run(args: McpArgs) -> Result<ExitCode, String> {
    // A bad address is said before anything is opened.
    let http = args.http.as_deref().map(http_address).transpose()?;
    // before anything uses rayon: its threads do heavy work
    crate::priority::lower_rayon_pool();
    let mut config = EngineConfig::new(&args.local.root);
    config.state_dir = args.local.state_dir.clone();
    config.scan_index_ahead = true;
    if args.read_only {
        config
            .permissions
            .read_only
            .insert(args.local.sender.clone());
    }
    if !args.path_prefixes.is_empty() {
        config
            .permissions
            .path_prefixes
            .insert(args.local.sender.clone(), args.path_prefixes.clone());
    }
    let engine = Arc::new(Engine::open(config).map_err(|e| format!("eddi mcp: {e}"))?);
    let server = EddiMcp::new(engine.clone(), args.local.sender.clone());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("eddi mcp: cannot start the runtime: {e}"))?;
    let served = runtime.block_on(async move {
        if let Some(addrs) = &http {
            return serve_http(server, addrs, &args.allow_host).await;
        }
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("eddi mcp: {e}"))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("eddi mcp: {e}"))
    });
    // Stdin may still hold a blocking read: do not wait for it.
    runtime.shutdown_background();
    engine.flush().map_err(|e| format!("eddi mcp: {e}"))?;
    served.map(|()| ExitCode::SUCCESS)
}

/// `--http`'s `HOST:PORT` as the socket addresses to bind, or an error
/// that says what the option takes.
fn http_address(addr: &str) -> Result<Vec<std::net::SocketAddr>, String> {
    use std::net::ToSocketAddrs;
    let usage = "--http takes HOST:PORT, e.g. 127.0.0.1:8765 (this machine only) or 0.0.0.0:8765 (every interface)";
    let addrs: Vec<_> = addr
        .to_socket_addrs()
        .map_err(|e| format!("eddi mcp: bad --http address '{addr}' ({e}); {usage}"))?
        .collect();
    if addrs.is_empty() {
        return Err(format!(
            "eddi mcp: bad --http address '{addr}' (it names no address); {usage}"
        ));
    }
    Ok(addrs)
}

/// MCP's streamable HTTP transport on `addrs` until SIGINT/SIGTERM: every
/// connection served by `rmcp`'s tower service through hyper. Hosts
/// allowed in `Host` headers (against DNS rebinding): the loopback names,
/// the address bound and `allow_host`.
async fn serve_http(
    server: EddiMcp,
    addrs: &[std::net::SocketAddr],
    allow_host: &[String],
) -> Result<(), String> {
    let shown: Vec<String> = addrs.iter().map(|a| a.to_string()).collect();
    let listener = tokio::net::TcpListener::bind(addrs)
        .await
        .map_err(|e| format!("eddi mcp: cannot listen on {} ({e})", shown.join(" or ")))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("eddi mcp: {e}"))?;
    let mut hosts = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    if !bound.ip().is_unspecified() {
        hosts.push(bound.ip().to_string());
    }
    hosts.extend(allow_host.iter().cloned());
    let config = StreamableHttpServerConfig::default().with_allowed_hosts(hosts);
    let sender = server.sender.clone();
    let sessions = Arc::new(LocalSessionManager::default());
    let service = StreamableHttpService::new(move || Ok(server.clone()), sessions.clone(), config);
    eprintln!("eddi mcp: streamable HTTP on http://{bound}/mcp");
    if !bound.ip().is_loopback() {
        eprintln!(
            "eddi mcp: warning: {bound} is reachable from other machines and MCP over HTTP has no authentication here; anyone who reaches it edits as {}",
            sender
        );
    }
    let stop = super::serve::shutdown_signal();
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            _ = &mut stop => return Ok(()),
            accepted = listener.accept() => accepted.map_err(|e| format!("eddi mcp: {e}"))?,
        };
        let (service, sessions) = (service.clone(), sessions.clone());
        let service = hyper::service::service_fn(move |request| {
            let (service, sessions) = (service.clone(), sessions.clone());
            async move {
                Ok::<_, std::convert::Infallible>(
                    answer_http(&service, sessions.as_ref(), request).await,
                )
            }
        });
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

/// One HTTP request, answered by rmcp's service, with the end of a session
/// answered as MCP clients expect. rmcp answers a `DELETE` with `202
/// Accepted`, known session or not; the MCP Python SDK takes only `200` or
/// `204` (else it logs "Session termination failed: 202" on every exit), the
/// TypeScript SDK any 2xx. So a session ended is `200 OK`, and a session it
/// does not know (never started, or ended already) `404 Not Found`, as the
/// spec answers every request about an unknown session.
async fn answer_http<B>(
    service: &StreamableHttpService<EddiMcp, LocalSessionManager>,
    sessions: &LocalSessionManager,
    request: hyper::Request<B>,
) -> hyper::Response<impl hyper::body::Body<Data = bytes::Bytes, Error = std::convert::Infallible>>
where
    B: hyper::body::Body + Send + 'static,
    B::Error: std::fmt::Display,
{
    let ending = (request.method() == hyper::Method::DELETE)
        .then(|| request.headers().get("mcp-session-id"))
        .flatten()
        .and_then(|id| id.to_str().ok())
        .map(SessionId::from);
    // Asked before rmcp closes it: afterwards no session is known.
    let known = match &ending {
        Some(id) => sessions.has_session(id).await.unwrap_or(false),
        None => false,
    };
    let mut response = service.handle(request).await;
    if ending.is_some() && response.status() == hyper::StatusCode::ACCEPTED {
        *response.status_mut() = if known {
            hyper::StatusCode::OK
        } else {
            hyper::StatusCode::NOT_FOUND
        };
    }
    response
}

/// Progress as MCP notifications for one call's progress token, at most
/// ten a second (the first and last of each stage always).
fn progress_notifier(peer: rmcp::Peer<RoleServer>, token: ProgressToken) -> ProgressSink {
    let throttle = Throttle::new(std::time::Duration::from_millis(100));
    let runtime = tokio::runtime::Handle::current();
    Arc::new(move |p: &Progress| {
        if !throttle.admit(p) {
            return;
        }
        let notification = ProgressNotificationParam::new(token.clone(), p.done as f64)
            .with_total(p.total as f64)
            .with_message(p.stage.clone());
        // Sent before the call's result (the engine runs on a blocking
        // thread): a client drops the progress of a call it has the
        // answer to. A client gone away misses it, nothing more.
        let _ = runtime.block_on(peer.notify_progress(notification));
    })
}
