package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/aisle-search/aisle/bench"
)

// runBenchReport is aisle bench report: the generated tables of
// docs/benchmarks.md made again from the newest report of each kind in
// docs/reports, in place (bench.RenderReportTables); with --check,
// nothing written and an error when a table is not what the reports
// make.
func runBenchReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	doc := fs.String("doc", "", "the markdown `FILE` whose generated tables to make (the checkout's docs/benchmarks.md when empty)")
	reports := fs.String("reports", "", "the saved reports' `DIR` (reports/ beside --doc when empty)")
	check := fs.Bool("check", false, "write nothing; fail when a table is not what the reports make")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("bench report: unexpected argument %q", fs.Arg(0))
	}
	if *doc == "" {
		found, err := findAbove(filepath.Join("docs", "benchmarks.md"))
		if err != nil {
			return errors.New("bench report: no docs/benchmarks.md in or above the working directory; run it inside the checkout, or name the file with --doc")
		}
		*doc = found
	}
	if *reports == "" {
		*reports = filepath.Join(filepath.Dir(*doc), "reports")
	}
	link, err := filepath.Rel(filepath.Dir(*doc), *reports)
	if err != nil {
		return fmt.Errorf("bench report: %w", err)
	}
	link = filepath.ToSlash(link)
	saved, err := bench.LoadReports(*reports)
	if err != nil {
		return fmt.Errorf("bench report: %w", err)
	}
	old, err := os.ReadFile(*doc)
	if err != nil {
		return fmt.Errorf("bench report: %w", err)
	}
	if *check {
		if err := bench.CheckReportTables(old, saved, link); err != nil {
			return fmt.Errorf("bench report: %s: %w", *doc, err)
		}
		fmt.Fprintf(stdout, "%s: its tables are the reports' in %s\n", *doc, *reports)
		return nil
	}
	rendered, err := bench.RenderReportTables(old, saved, link)
	if err != nil {
		return fmt.Errorf("bench report: %s: %w", *doc, err)
	}
	if bytes.Equal(rendered, old) {
		fmt.Fprintf(stdout, "%s: its tables are the reports' in %s\n", *doc, *reports)
		return nil
	}
	if err := os.WriteFile(*doc, rendered, 0o644); err != nil {
		return fmt.Errorf("bench report: %w", err)
	}
	fmt.Fprintf(stdout, "%s: tables made again from %s\n", *doc, *reports)
	return nil
}
