package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
	"github.com/aisle-search/aisle/store"
)

// importEvents is aisle import --events: behaviour logs (JSON Lines of
// events, as POST /serve/collect takes them plus their kind and,
// optionally, their time in Unix milliseconds) appended to the change
// log of the data directory's websites. Every line is checked before
// anything is written, so a bad line writes nothing; aisle serve folds
// the events into the visitors' behaviour when it starts.
func importEvents(ctx context.Context, st *store.Store, files []string, stdout, stderr io.Writer, quiet bool) error {
	cfg, err := st.Config()
	if err != nil {
		return err
	}
	if cfg == nil {
		return errors.New("import --events: the data directory has no configuration: import a catalog (or --config) first, so the events' websites are known")
	}
	read := func(fn func(*events.Event) error) error {
		for _, path := range files {
			if err := readEventsFile(ctx, path, fn); err != nil {
				return err
			}
		}
		return nil
	}
	start := time.Now()
	n, err := engine.CheckEvents(cfg, read)
	if err != nil {
		return fmt.Errorf("import --events: %w; nothing was imported", err)
	}
	if !quiet {
		fmt.Fprintf(stderr, "%d events checked in %s; writing them…\n", n, time.Since(start).Round(time.Millisecond))
	}
	n, err = engine.ImportEvents(st, cfg, read)
	if err != nil {
		return fmt.Errorf("import --events: %w (%d events were written before it)", err, n)
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "imported %d events in %s (%.0f events/s); aisle serve folds them into the visitors' behaviour when it starts\n",
		n, took.Round(time.Millisecond), float64(n)/took.Seconds())
	return nil
}

// readEventsFile calls fn with each event of the JSON Lines file path;
// an error names the file and line.
func readEventsFile(ctx context.Context, path string, fn func(*events.Event) error) error {
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
		e, err := events.Decode(b)
		if err == nil {
			err = fn(&e)
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
