//! retry.rs: retrying fallible calls with capped exponential backoff.
use std::thread;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Policy {
    pub attempts: u32,
    pub base: Duration,
    pub cap: Duration,
}

impl Policy {
    pub fn new(attempts: u32, base: Duration, cap: Duration) -> Self {
        assert!(attempts > 0, "at least one attempt");
        let base = base.max(Duration::from_millis(1));
        let cap = cap.max(base);
        Policy { attempts, base, cap }
    }

    /// The wait before attempt `n` (0-based), doubled each time up to the cap.
    pub fn delay(&self, n: u32) -> Duration {
        let factor = 1u32.checked_shl(n).unwrap_or(u32::MAX);
        let wanted = self.base.saturating_mul(factor);
        let capped = wanted.min(self.cap);
        capped
    }

    pub fn run<T, E, F>(&self, mut call: F) -> Result<T, E>
    where
        F: FnMut() -> Result<T, E>,
    {
        let started = Instant::now();
        let mut last = call();
        for n in 1..self.attempts {
            if last.is_ok() {
                break;
            }
            thread::sleep(self.delay(n - 1));
            last = call();
        }
        let spent = started.elapsed();
        eprintln!("retry: {:?} spent", spent);
        last
    }
}

pub fn total_wait(policy: &Policy) -> Duration {
    let mut total = Duration::ZERO;
    let attempts = policy.attempts.saturating_sub(1);
    for n in 0..attempts {
        total += policy.delay(n);
    }
    total
}

pub fn describe(policy: &Policy) -> String {
    let wait = total_wait(policy);
    let attempts = policy.attempts;
    let text = format!("{} attempts, at most {:?} waiting", attempts, wait);
    text
}
