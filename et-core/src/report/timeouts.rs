//! The timeout grid of a report: `solved within T` for each T, derived from one run at
//! the largest timeout (a call solved within T answered sat/unsat in at most T seconds).

use super::ReportError;

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
    fn rejects_bad_values_with_the_value() {
        for bad in ["0", "-1", "1/0", "abc", "", "1/x"] {
            let err = parse_timeouts(bad).unwrap_err().to_string();
            assert!(err.contains(&format!("`{bad}`")), "{err}");
        }
    }
}
