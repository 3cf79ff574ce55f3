//! The timeout grid of a report: `solved within T` for each T, derived from one run at
//! the largest timeout (a call solved within T answered sat/unsat, without a bug
//! verdict, in at most T seconds), and the clock those seconds are read from.

use crate::campaign::row::RunRow;

use super::ReportError;

/// Which measured time of a call the report uses: for "solved within T", the summed
/// times, jointly solved times and throughput alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// Wall-clock seconds (`time_s`): what `et run`'s timeout limits, so "solved within
    /// T" is what a run at timeout T would have answered. The default.
    #[default]
    Wall,
    /// CPU seconds, user + system (`cpu_s`): barely moves with machine load, where wall
    /// time at 1/64 s does.
    Cpu,
}

impl Clock {
    /// The seconds of a call on this clock: its `time_s` or its `cpu_s`.
    pub fn seconds(self, row: &RunRow) -> f64 {
        match self {
            Clock::Wall => row.time_s,
            Clock::Cpu => row.cpu_s,
        }
    }

    /// Short name, as on the command line and in the `clock` column of the tables.
    pub fn label(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }

    /// What the clock measures, for headings and axis labels.
    pub fn describe(self) -> &'static str {
        match self {
            Clock::Wall => "wall-clock time",
            Clock::Cpu => "CPU time",
        }
    }

    /// The largest time on this clock a run could measure: its wall-clock timeout, and on
    /// the CPU clock also its CPU-time limit (a study run with `--timeout 10
    /// --cpu-timeout 2` measured "solved within T" of CPU time up to 2 s only).
    pub fn run_limit(self, timeout_s: f64, cpu_timeout_s: Option<f64>) -> f64 {
        match (self, cpu_timeout_s) {
            (Clock::Cpu, Some(cpu)) => cpu.min(timeout_s),
            _ => timeout_s,
        }
    }
}

/// Seconds as people write timeouts: `1/64` for powers of two below one second, else
/// the shortest decimal (`2`, `0.3`, `1.5`).
pub fn seconds_label(seconds: f64) -> String {
    if seconds > 0.0 && seconds < 1.0 {
        let inverse = 1.0 / seconds;
        if inverse.fract() == 0.0 && (inverse as u64).is_power_of_two() {
            return format!("1/{}", inverse as u64);
        }
    }
    let text = format!("{seconds:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One timeout of the grid, with the label the user wrote (`1/64` stays `1/64`).
#[derive(Debug, Clone, PartialEq)]
pub struct Timeout {
    /// As written on the command line or in the default list.
    pub label: String,
    /// Value in seconds.
    pub seconds: f64,
}

/// The default grid 1/64, 1/32, …, 8 seconds (the OOPSLA'24 evolution figures).
pub fn default_timeouts() -> Vec<Timeout> {
    [
        "1/64", "1/32", "1/16", "1/8", "1/4", "1/2", "1", "2", "4", "8",
    ]
    .iter()
    .map(|s| parse_timeout(s).expect("default timeouts parse"))
    .collect()
}

/// Parses one timeout: a positive decimal (`0.25`, `8`) or fraction (`1/64`).
pub fn parse_timeout(text: &str) -> Result<Timeout, ReportError> {
    let bad = |reason: &str| ReportError::BadTimeout {
        value: text.to_string(),
        reason: reason.to_string(),
    };
    let text = text.trim();
    let number = |s: &str| -> Result<f64, ReportError> {
        s.trim()
            .parse::<f64>()
            .map_err(|_| bad("expected a number like 0.5 or a fraction like 1/64"))
    };
    let seconds = match text.split_once('/') {
        Some((num, den)) => {
            let den = number(den)?;
            if den == 0.0 {
                return Err(bad("division by zero"));
            }
            number(num)? / den
        }
        None => number(text)?,
    };
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(bad("must be a positive number of seconds"));
    }
    Ok(Timeout {
        label: text.to_string(),
        seconds,
    })
}

/// Parses a comma- or space-separated list, sorted ascending with duplicates removed.
pub fn parse_timeouts(list: &str) -> Result<Vec<Timeout>, ReportError> {
    let mut out = list
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(parse_timeout)
        .collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err(ReportError::BadTimeout {
            value: list.to_string(),
            reason: "empty list".into(),
        });
    }
    out.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    out.dedup_by(|a, b| a.seconds == b.seconds);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_clock_is_limited_by_the_cpu_timeout_too() {
        assert_eq!(Clock::Cpu.run_limit(10.0, Some(2.0)), 2.0);
        assert_eq!(Clock::Cpu.run_limit(1.0, Some(2.0)), 1.0);
        assert_eq!(Clock::Cpu.run_limit(10.0, None), 10.0);
        assert_eq!(Clock::Wall.run_limit(10.0, Some(2.0)), 10.0);
    }

    #[test]
    fn fractions_and_decimals() {
        let t = parse_timeouts("8, 1/64 0.5,2").unwrap();
        let secs: Vec<f64> = t.iter().map(|t| t.seconds).collect();
        assert_eq!(secs, vec![1.0 / 64.0, 0.5, 2.0, 8.0]);
        assert_eq!(t[0].label, "1/64");
    }

    #[test]
    fn default_grid_doubles_from_1_64_to_8() {
        let t = default_timeouts();
        assert_eq!(t.len(), 10);
        assert_eq!(t[0].seconds, 1.0 / 64.0);
        assert!(t.windows(2).all(|w| w[1].seconds == 2.0 * w[0].seconds));
    }

    #[test]
    fn seconds_read_like_timeouts() {
        assert_eq!(seconds_label(1.0 / 64.0), "1/64");
        assert_eq!(seconds_label(0.5), "1/2");
        assert_eq!(seconds_label(2.0), "2");
        assert_eq!(seconds_label(0.3), "0.3");
        assert_eq!(seconds_label(1.5), "1.5");
    }

    #[test]
    fn rejects_bad_values_with_the_value() {
        for bad in [
            "0", "-1", "1/0", "abc", "", "1/x", "nan", "inf", "1/nan", "1e999",
        ] {
            let err = parse_timeouts(bad).unwrap_err().to_string();
            assert!(err.contains(&format!("`{bad}`")), "{err}");
        }
    }
}
