//! Configuration loading for the indexer.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Default number of worker threads.
pub const DEFAULT_WORKERS: usize = 4;

static BANNER: &str = r#"
indexer
  a tiny search indexer
"#;

/// Where the configuration came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    File,
    Env,
    Default,
}

/// The indexer's settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Config {
    pub root: PathBuf,
    #[serde(default = "default_workers")]
    pub workers: usize,
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// Errors while loading the configuration.
#[derive(Debug)]
pub enum ConfigError {
    Io(std::io::Error),
    Parse(String),
}

pub type Result<T> = std::result::Result<T, ConfigError>;

fn default_workers() -> usize {
    DEFAULT_WORKERS
}

impl Config {
    /// Reads the configuration at `path`.
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(ConfigError::Io)?;
        Self::parse(&text)
    }

    /// Parses TOML text.
    pub fn parse(text: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e| ConfigError::Parse(e.to_string()))
    }

    pub(crate) fn is_excluded(&self, path: &Path) -> bool {
        self.exclude
            .iter()
            .any(|pattern| path.to_string_lossy().contains(pattern.as_str()))
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            root: PathBuf::from("."),
            workers: DEFAULT_WORKERS,
            exclude: Vec::new(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io(e) => write!(f, "cannot read config: {e}"),
            ConfigError::Parse(msg) => write!(f, "invalid config: {msg}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Something that can be merged with a lower-priority value.
pub trait Merge {
    /// Fills what `self` leaves unset from `other`.
    fn merge(self, other: Self) -> Self;

    fn merged_all<I>(self, others: I) -> Self
    where
        Self: Sized,
        I: IntoIterator<Item = Self>,
    {
        others.into_iter().fold(self, Merge::merge)
    }
}

impl<T> Merge for Option<T> {
    fn merge(self, other: Self) -> Self {
        self.or(other)
    }
}

/// Environment overrides, `INDEXER_*` variables.
pub fn env_overrides(vars: &HashMap<String, String>) -> HashMap<&str, &str> {
    vars.iter()
        .filter_map(|(k, v)| k.strip_prefix("INDEXER_").map(|key| (key, v.as_str())))
        .collect()
}

pub async fn watch(path: PathBuf) -> Result<()> {
    let _ = path;
    Ok(())
}

macro_rules! bail {
    ($($arg:tt)*) => {
        return Err(ConfigError::Parse(format!($($arg)*)))
    };
}

pub mod paths {
    use std::path::PathBuf;

    /// The user's config directory.
    pub fn config_dir() -> Option<PathBuf> {
        std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from)
    }

    pub(super) fn cache_dir() -> PathBuf {
        PathBuf::from(".cache")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_defaults() {
        let config = Config::parse("root = \"/tmp\"").unwrap();
        assert_eq!(config.workers, DEFAULT_WORKERS);
    }

    #[test]
    fn merge_prefers_self() {
        assert_eq!(Some(1).merge(Some(2)), Some(1));
    }
}
