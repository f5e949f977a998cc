//! The handshake on `<prefix>.<name>.connection_request`: version and feature
//! negotiation, and the registry of senders with an accepted handshake
//! (persisted, so a restarted Eddi still knows its streams).
//!
//! The decision itself ([`evaluate`]) is a pure function of the request and
//! what Eddi offers; the server does the I/O around it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::wire::{ConnectionRequest, Requirement};

/// The eddispeak versions this Eddi speaks.
pub const SUPPORTED_EDDISPEAK: &[&str] = &["2.0"];

/// The features this Eddi offers, with their versions. Only what is really
/// implemented is listed; a mandatory request for anything else is refused.
pub const FEATURES: &[(&str, &str)] = &[("basic_commands", "2.0")];

/// The negotiated outcome of an acceptable request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Negotiated {
    /// Every feature Eddi offers, name → version.
    pub available_features: BTreeMap<String, String>,
}

/// Checks the eddispeak version and the requested features. `Err` is the
/// rejection reason, naming the field and what is accepted.
pub fn evaluate(request: &ConnectionRequest) -> Result<Negotiated, String> {
    if !SUPPORTED_EDDISPEAK.contains(&request.eddispeak_version.as_str()) {
        return Err(format!(
            "eddispeak_version: {:?} is not supported; supported: {}",
            request.eddispeak_version,
            SUPPORTED_EDDISPEAK.join(", ")
        ));
    }
    let offered: BTreeMap<String, String> = FEATURES
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    for (name, wanted) in &request.requested_features {
        if wanted.requirement != Requirement::Mandatory {
            continue;
        }
        let available = list(&offered);
        match offered.get(name) {
            None => {
                return Err(format!(
                    "requested_features.{name}: mandatory but not available; available: {available}"
                ))
            }
            Some(version) if !compatible(version, &wanted.version) => {
                return Err(format!(
                    "requested_features.{name}: version {:?} is mandatory but Eddi has {version}; available: {available}",
                    wanted.version
                ))
            }
            Some(_) => {}
        }
    }
    Ok(Negotiated {
        available_features: offered,
    })
}

fn list(features: &BTreeMap<String, String>) -> String {
    features
        .iter()
        .map(|(n, v)| format!("{n} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Same major version, and at least the requested minor.
fn compatible(offered: &str, requested: &str) -> bool {
    let split = |v: &str| -> Option<(u64, u64)> {
        let mut parts = v.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next().unwrap_or("0").parse().ok()?;
        Some((major, minor))
    };
    match (split(offered), split(requested)) {
        (Some((om, on)), Some((rm, rn))) => om == rm && on >= rn,
        _ => offered == requested,
    }
}

/// A sender's accepted handshake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepted {
    pub stream: String,
    pub connection_id: Option<String>,
}

/// The senders with an accepted handshake, saved as JSON under the state
/// directory (written to a temporary file, then renamed).
#[derive(Debug, Default)]
pub struct Handshakes {
    path: Option<PathBuf>,
    accepted: HashMap<String, Accepted>,
}

impl Handshakes {
    /// Loads the registry from `path` (missing file: empty).
    pub fn load(path: Option<PathBuf>) -> Result<Handshakes, String> {
        let accepted = match &path {
            Some(p) if p.exists() => {
                let text = std::fs::read_to_string(p)
                    .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                serde_json::from_str(&text)
                    .map_err(|e| format!("cannot parse {}: {e}", p.display()))?
            }
            _ => HashMap::new(),
        };
        Ok(Handshakes { path, accepted })
    }

    pub fn get(&self, sender: &str) -> Option<&Accepted> {
        self.accepted.get(sender)
    }

    /// The distinct streams of all accepted senders.
    pub fn streams(&self) -> Vec<String> {
        let mut streams: Vec<String> = self.accepted.values().map(|a| a.stream.clone()).collect();
        streams.sort();
        streams.dedup();
        streams
    }

    /// Records (or replaces) a sender's handshake and saves the registry.
    pub fn accept(&mut self, sender: &str, accepted: Accepted) -> Result<(), String> {
        self.accepted.insert(sender.to_string(), accepted);
        self.save()
    }

    fn save(&self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        write_atomically(
            path,
            &serde_json::to_vec_pretty(&self.accepted).unwrap_or_default(),
        )
    }
}

/// Writes `bytes` to a sibling temporary file, syncs it and renames it over
/// `path`, so readers see the old or the new content, never a mix.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    tmp.write_all(bytes)
        .and_then(|_| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::wire::{RequestedFeature, SessionPreferences};

    fn request(version: &str, features: &[(&str, &str, Requirement)]) -> ConnectionRequest {
        ConnectionRequest {
            sender_id: "a".into(),
            sender_type: None,
            client_name: None,
            stream_name: "s".into(),
            eddispeak_version: version.into(),
            requested_features: features
                .iter()
                .map(|(n, v, r)| {
                    (
                        n.to_string(),
                        RequestedFeature {
                            version: v.to_string(),
                            requirement: *r,
                        },
                    )
                })
                .collect(),
            session_preferences: SessionPreferences::default(),
            timestamp: None,
            connection_id: None,
        }
    }

    #[test]
    fn versions_and_features() {
        use Requirement::*;
        assert!(evaluate(&request("2.0", &[("basic_commands", "2.0", Mandatory)])).is_ok());
        assert!(evaluate(&request("2.0", &[("python_api", "1.0", Optional)])).is_ok());
        assert_eq!(
            evaluate(&request("3.0", &[])).unwrap_err(),
            "eddispeak_version: \"3.0\" is not supported; supported: 2.0"
        );
        assert_eq!(
            evaluate(&request("2.0", &[("python_api", "1.0", Mandatory)])).unwrap_err(),
            "requested_features.python_api: mandatory but not available; available: basic_commands 2.0"
        );
        assert!(
            evaluate(&request("2.0", &[("basic_commands", "2.1", Mandatory)]))
                .unwrap_err()
                .starts_with("requested_features.basic_commands: version \"2.1\"")
        );
    }

    #[test]
    fn registry_survives_a_reload() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t/handshakes.json");
        let mut hs = Handshakes::load(Some(path.clone())).unwrap();
        hs.accept(
            "a",
            Accepted {
                stream: "s1".into(),
                connection_id: Some("c".into()),
            },
        )
        .unwrap();
        let again = Handshakes::load(Some(path)).unwrap();
        assert_eq!(again.get("a").unwrap().stream, "s1");
        assert_eq!(again.streams(), vec!["s1".to_string()]);
    }
}
