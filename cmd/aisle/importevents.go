package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// importEvents is aisle import --events: behaviour logs (JSON Lines of
// events, as POST /serve/collect takes them plus their kind and,
// optionally, their time in Unix milliseconds) appended to the change
// log of the data directory's websites, in one pass: each line is
// checked as it is written, and a bad line takes back what the import
// wrote (live.ImportEvents), so it imports nothing; aisle serve folds
// the events into the visitors' behaviour when it starts.
func importEvents(ctx context.Context, st *store.Store, files []string, stdout, stderr io.Writer, quiet bool) error {
	cfg, err := st.Config()
	if err != nil {
		return err
	}
	if cfg == nil {
		return errors.New("import --events: the data directory has no configuration: import a catalog (or --config) first, so the events' websites are known")
	}
	read := func(fn func(*events.Event, []byte) error) error {
		for _, path := range files {
			if err := readEventsFile(ctx, path, fn); err != nil {
				return err
			}
		}
		return nil
	}
	start := time.Now()
	if !quiet {
		fmt.Fprintf(stderr, "checking and writing the events of %s…\n", strings.Join(files, ", "))
	}
	n, err := live.ImportEvents(st, cfg, read)
	if err != nil {
		return fmt.Errorf("import --events: %w; nothing was imported", err)
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "imported %d events in %s (%.0f events/s); aisle serve folds them into the visitors' behaviour when it starts\n",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds())
	return nil
}

// readEventsFile calls fn with each event of the JSON Lines file path,
// decoded and checked (events.DecodeChecked), and its JSON; an error
// names the file and line.
func readEventsFile(ctx context.Context, path string, fn func(*events.Event, []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), events.MaxBytes+1)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		if line%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e, data, err := events.DecodeChecked(b)
		if err == nil {
			err = fn(&e, data)
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s:%d: a line longer than %d bytes: one event per line", path, line+1, events.MaxBytes)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
