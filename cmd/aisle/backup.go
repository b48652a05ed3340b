package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"time"
)

// runBackup is `aisle backup`: a consistent copy of a data directory,
// taken by a running server (--url, its admin API's POST
// /admin/v1/backup) or from a stopped directory (--data). Serving the
// copy (aisle serve --data DEST) serves the state at the position the
// command prints.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer, log *slog.Logger) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "a running server's `URL`: it takes the backup while it serves (admin API)")
	adminKey := fs.String("admin-key", env("AISLE_ADMIN_KEY", ""), "with --url: the server's admin `KEY`")
	data := fs.String("data", "", "a stopped server's data `DIR` to back up")
	to := fs.String("to", "", "the backup's directory `DEST` (must not exist; with --url, a path on the server's machine)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *to == "":
		return fmt.Errorf("backup: --to DEST is required: the directory to write the backup to")
	case (*url == "") == (*data == ""):
		return fmt.Errorf("backup: give --url URL (a running server) or --data DIR (a stopped one)")
	}
	dest, err := filepath.Abs(*to)
	if err != nil {
		return err
	}
	start := time.Now()
	var pos uint64
	if *url != "" {
		if *adminKey == "" {
			return fmt.Errorf("backup --url: --admin-key KEY is required (the key aisle serve printed, or AISLE_ADMIN_KEY)")
		}
		if pos, err = backupOnline(ctx, *url, *adminKey, dest); err != nil {
			return err
		}
	} else {
		st, err := openStore(*data, log)
		if err != nil {
			return err
		}
		pos, err = st.Backup(dest)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "backup written to %s in %s: it holds the log up to position %d; serve it with: aisle serve --data %s\n",
		dest, time.Since(start).Round(time.Millisecond), pos, dest)
	return nil
}

// backupOnline asks the server at url to back up to dest.
func backupOnline(ctx context.Context, url, adminKey, dest string) (uint64, error) {
	endpoint := strings.TrimRight(url, "/") + "/admin/v1/backup"
	body, err := json.Marshal(map[string]string{"to": dest})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+adminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("backup: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var answer struct {
		Position uint64
		Error    struct{ Code, Message string }
	}
	if err := json.Unmarshal(raw, &answer); err != nil || resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(raw))
		if answer.Error.Message != "" {
			msg = answer.Error.Code + ": " + answer.Error.Message
		}
		return 0, fmt.Errorf("backup: %s answered %d %s", endpoint, resp.StatusCode, msg)
	}
	return answer.Position, nil
}
