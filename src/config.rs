//! `eddi serve` configuration: flags > environment (`EDDI_*`) > TOML file
//! (`--config`, else `./eddi.toml` when present) > defaults.
//!
//! Flags and environment variables are read by clap (each flag names its
//! `EDDI_*` variable); this module merges the result over the file. Secrets
//! (token, password, NKey seed) never appear in `Debug` output.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::engine::Permissions;
use crate::transport::validator::DEFAULT_MAX_PAYLOAD;

/// The default subject prefix: subjects are `<prefix>.<name>.…`.
pub const DEFAULT_PREFIX: &str = "mizuki";
/// The default instance name (the `to` Eddi answers on streams).
pub const DEFAULT_NAME: &str = "eddi";
/// The default bound on messages run at the same time.
pub const DEFAULT_MAX_CONCURRENT: usize = 10;
/// The URL tried when none is configured; without a server there, `eddi
/// serve` starts a private `nats-server`.
pub const DEFAULT_NATS_URL: &str = "nats://127.0.0.1:4222";

/// How to authenticate to NATS; every field is optional.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NatsAuth {
    pub token: Option<String>,
    pub user: Option<String>,
    pub password: Option<String>,
    /// An NKey seed (`SU…`).
    pub nkey_seed: Option<String>,
    /// A `.creds` file (JWT + NKey seed).
    pub credentials_file: Option<PathBuf>,
    /// Extra root certificate(s) to trust (PEM).
    pub tls_ca_file: Option<PathBuf>,
    /// Client certificate and key for mutual TLS (PEM).
    pub tls_cert_file: Option<PathBuf>,
    pub tls_key_file: Option<PathBuf>,
    /// Refuse to connect without TLS.
    pub require_tls: Option<bool>,
}

impl fmt::Debug for NatsAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hidden = |o: &Option<String>| o.as_ref().map(|_| "***");
        f.debug_struct("NatsAuth")
            .field("token", &hidden(&self.token))
            .field("user", &self.user)
            .field("password", &hidden(&self.password))
            .field("nkey_seed", &hidden(&self.nkey_seed))
            .field("credentials_file", &self.credentials_file)
            .field("tls_ca_file", &self.tls_ca_file)
            .field("tls_cert_file", &self.tls_cert_file)
            .field("tls_key_file", &self.tls_key_file)
            .field("require_tls", &self.require_tls)
            .finish()
    }
}

impl NatsAuth {
    /// Fills every unset field from `lower`.
    fn or(self, lower: NatsAuth) -> NatsAuth {
        NatsAuth {
            token: self.token.or(lower.token),
            user: self.user.or(lower.user),
            password: self.password.or(lower.password),
            nkey_seed: self.nkey_seed.or(lower.nkey_seed),
            credentials_file: self.credentials_file.or(lower.credentials_file),
            tls_ca_file: self.tls_ca_file.or(lower.tls_ca_file),
            tls_cert_file: self.tls_cert_file.or(lower.tls_cert_file),
            tls_key_file: self.tls_key_file.or(lower.tls_key_file),
            require_tls: self.require_tls.or(lower.require_tls),
        }
    }
}

/// The `[nats]` table of the TOML file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct FileNats {
    url: Option<String>,
    #[serde(flatten)]
    auth: NatsAuth,
}

/// The TOML file, every field optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct FileConfig {
    root: Option<PathBuf>,
    state_dir: Option<PathBuf>,
    prefix: Option<String>,
    name: Option<String>,
    max_payload: Option<usize>,
    max_concurrent_operations: Option<usize>,
    health_interval_ms: Option<u64>,
    log_format: Option<String>,
    session_idle_release_minutes: Option<u64>,
    nats: FileNats,
    permissions: Permissions,
}

/// Values from flags and environment; `None` means "not given".
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub config_file: Option<PathBuf>,
    pub root: Option<PathBuf>,
    pub state_dir: Option<PathBuf>,
    pub nats_url: Option<String>,
    pub prefix: Option<String>,
    pub name: Option<String>,
    pub max_payload: Option<usize>,
    pub max_concurrent_operations: Option<usize>,
    pub health_interval_ms: Option<u64>,
    pub log_json: bool,
    pub auth: NatsAuth,
}

/// The resolved configuration of `eddi serve`.
#[derive(Debug, Clone)]
pub struct Config {
    pub root: PathBuf,
    pub state_dir: Option<PathBuf>,
    /// `None`: try [`DEFAULT_NATS_URL`], else start a private server.
    pub nats_url: Option<String>,
    pub auth: NatsAuth,
    pub prefix: String,
    pub name: String,
    pub max_payload: usize,
    pub max_concurrent_operations: usize,
    pub health_interval_ms: u64,
    pub log_json: bool,
    pub permissions: Permissions,
    /// A session that runs nothing for this many minutes releases its
    /// unsaved buffers as drafts under the state directory (see
    /// `engine::EngineConfig::idle_release`); 0: never. Default 30.
    pub session_idle_release_minutes: u64,
}

/// The default of [`Config::session_idle_release_minutes`].
pub const DEFAULT_IDLE_RELEASE_MINUTES: u64 = 30;

/// A configuration that cannot be used, with the reason.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
}

impl Config {
    /// The defaults for a workspace root.
    pub fn new(root: impl Into<PathBuf>) -> Config {
        Config {
            root: root.into(),
            state_dir: None,
            nats_url: None,
            auth: NatsAuth::default(),
            prefix: DEFAULT_PREFIX.into(),
            name: DEFAULT_NAME.into(),
            max_payload: DEFAULT_MAX_PAYLOAD,
            max_concurrent_operations: DEFAULT_MAX_CONCURRENT,
            health_interval_ms: 5_000,
            log_json: false,
            permissions: Permissions::default(),
            session_idle_release_minutes: DEFAULT_IDLE_RELEASE_MINUTES,
        }
    }

    /// Merges flags/environment over the TOML file over the defaults.
    pub fn resolve(overrides: Overrides) -> Result<Config, ConfigError> {
        let file = match &overrides.config_file {
            Some(path) => Some(load_file(path)?),
            None => {
                let default = Path::new("eddi.toml");
                if default.is_file() {
                    Some(load_file(default)?)
                } else {
                    None
                }
            }
        }
        .unwrap_or_default();
        let defaults = Config::new(".");
        let log_json = overrides.log_json
            || match file.log_format.as_deref() {
                None | Some("human") => false,
                Some("json") => true,
                Some(other) => {
                    return Err(ConfigError::Invalid {
                        field: "log_format",
                        message: format!("expected \"human\" or \"json\", found {other:?}"),
                    })
                }
            };
        let config = Config {
            root: overrides.root.or(file.root).unwrap_or(defaults.root),
            state_dir: overrides.state_dir.or(file.state_dir),
            nats_url: overrides.nats_url.or(file.nats.url),
            auth: overrides.auth.or(file.nats.auth),
            prefix: overrides.prefix.or(file.prefix).unwrap_or(defaults.prefix),
            name: overrides.name.or(file.name).unwrap_or(defaults.name),
            max_payload: overrides
                .max_payload
                .or(file.max_payload)
                .unwrap_or(defaults.max_payload),
            max_concurrent_operations: overrides
                .max_concurrent_operations
                .or(file.max_concurrent_operations)
                .unwrap_or(defaults.max_concurrent_operations),
            health_interval_ms: overrides
                .health_interval_ms
                .or(file.health_interval_ms)
                .unwrap_or(defaults.health_interval_ms),
            log_json,
            permissions: file.permissions,
            session_idle_release_minutes: file
                .session_idle_release_minutes
                .unwrap_or(defaults.session_idle_release_minutes),
        };
        config.check()?;
        Ok(config)
    }

    /// Rejects values that would make bad subjects or a stuck server.
    pub fn check(&self) -> Result<(), ConfigError> {
        let token_ok = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        if !token_ok(&self.name) {
            return Err(ConfigError::Invalid {
                field: "name",
                message: format!(
                    "{:?}: use A-Z a-z 0-9 _ - (it is a subject token and the service name)",
                    self.name
                ),
            });
        }
        if self.prefix.is_empty() || !self.prefix.split('.').all(token_ok) {
            return Err(ConfigError::Invalid {
                field: "prefix",
                message: format!(
                    "{:?}: use dot-separated tokens of A-Z a-z 0-9 _ -",
                    self.prefix
                ),
            });
        }
        if self.max_payload == 0 {
            return Err(ConfigError::Invalid {
                field: "max_payload",
                message: "must be at least 1 byte".into(),
            });
        }
        if self.max_concurrent_operations == 0 {
            return Err(ConfigError::Invalid {
                field: "max_concurrent_operations",
                message: "must be at least 1".into(),
            });
        }
        if self.health_interval_ms == 0 {
            return Err(ConfigError::Invalid {
                field: "health_interval_ms",
                message: "must be at least 1".into(),
            });
        }
        Ok(())
    }

    /// Where sessions and the transport's state live (`<root>/.eddi` by default).
    pub fn state_dir(&self) -> PathBuf {
        self.state_dir
            .clone()
            .unwrap_or_else(|| self.root.join(".eddi"))
    }
}

fn load_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|err| ConfigError::Parse {
        path: path.to_path_buf(),
        message: err.message().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_beat_the_file_which_beats_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eddi.toml");
        std::fs::write(
            &path,
            r#"
name = "ws1"
prefix = "acme.dev"
max_payload = 2048
session_idle_release_minutes = 5
[nats]
url = "nats://file:4222"
token = "s3cret"
[permissions]
read_only = ["viewer"]
operators = ["ops"]
[permissions.path_prefixes]
agent = ["src/"]
"#,
        )
        .unwrap();
        let config = Config::resolve(Overrides {
            config_file: Some(path),
            nats_url: Some("nats://flag:4222".into()),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(config.nats_url.as_deref(), Some("nats://flag:4222"));
        assert_eq!(config.name, "ws1");
        assert_eq!(config.prefix, "acme.dev");
        assert_eq!(config.max_payload, 2048);
        assert_eq!(config.max_concurrent_operations, DEFAULT_MAX_CONCURRENT);
        assert!(config.permissions.read_only.contains("viewer"));
        assert_eq!(config.permissions.path_prefixes["agent"], vec!["src/"]);
        assert!(config.permissions.operators.contains("ops"));
        assert_eq!(config.session_idle_release_minutes, 5);
        assert_eq!(Config::new(".").session_idle_release_minutes, 30);
        let shown = format!("{config:?}");
        assert!(!shown.contains("s3cret"), "{shown}");
    }

    #[test]
    fn bad_values_name_the_field() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eddi.toml");
        std::fs::write(&path, "nmae = \"x\"\n").unwrap();
        let err = Config::resolve(Overrides {
            config_file: Some(path),
            ..Default::default()
        })
        .unwrap_err();
        assert!(err.to_string().contains("unknown field `nmae`"), "{err}");
        let err = Config::resolve(Overrides {
            name: Some("a.b".into()),
            ..Default::default()
        })
        .unwrap_err();
        assert!(err.to_string().starts_with("name:"), "{err}");
    }
}
