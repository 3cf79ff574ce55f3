//! Writing [`Table`]s: aligned text for the terminal, one CSV file per table.

use std::io::{self, Write};
use std::path::Path;

use super::tables::Table;
use super::ReportError;

/// True for cells that read as numbers (or `-`), which are right-aligned.
fn numeric(cell: &str) -> bool {
    cell == "-" || cell.parse::<f64>().is_ok()
}

/// Writes the tables as aligned text, numbers right-aligned, a blank line between.
pub fn write_text(out: &mut impl Write, tables: &[Table]) -> io::Result<()> {
    for (i, table) in tables.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", table.title)?;
        if table.rows.is_empty() {
            writeln!(out, "  (none)")?;
            continue;
        }
        write_rows(out, table)?;
        for note in &table.notes {
            writeln!(out, "  {note}")?;
        }
    }
    Ok(())
}

/// The header, a rule and the rows of a non-empty table, in aligned columns.
fn write_rows(out: &mut impl Write, table: &Table) -> io::Result<()> {
    let n = table.header.len();
    let width = |c: usize| {
        table
            .rows
            .iter()
            .map(|r| r[c].chars().count())
            .chain([table.header[c].chars().count()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..n).map(width).collect();
    let right: Vec<bool> = (0..n)
        .map(|c| {
            // Example lists are text even when they hold a single index.
            !table.header[c].ends_with("examples")
                && table.rows.iter().all(|r| r[c].is_empty() || numeric(&r[c]))
        })
        .collect();
    let line = |out: &mut dyn Write, cells: &[String]| -> io::Result<()> {
        let mut text = String::from(" ");
        for (c, cell) in cells.iter().enumerate() {
            let w = widths[c];
            if right[c] {
                text.push_str(&format!(" {cell:>w$}"));
            } else {
                text.push_str(&format!(" {cell:<w$}"));
            }
        }
        writeln!(out, "{}", text.trim_end())
    };
    line(out, &table.header)?;
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(out, &rule)?;
    for row in &table.rows {
        line(out, row)?;
    }
    Ok(())
}

/// Writes `OUTDIR/<name>.csv` for every table, creating `OUTDIR` if needed.
pub fn write_csv(dir: &Path, tables: &[Table]) -> Result<(), ReportError> {
    std::fs::create_dir_all(dir).map_err(|e| ReportError::io(dir, e))?;
    for table in tables {
        let path = dir.join(format!("{}.csv", table.name));
        let csv_err = |e: csv::Error| ReportError::Csv {
            path: path.clone(),
            line: 0,
            error: e,
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&table.header).map_err(csv_err)?;
        for row in &table.rows {
            w.write_record(row).map_err(csv_err)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| ReportError::io(&path, e.into_error()))?;
        crate::atomic_file::write(&path, &bytes).map_err(|e| ReportError::io(&path, e))?;
    }
    Ok(())
}
