package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/store"
)

// cliServer is `aisle serve` or `aisle demo` started through run, as the
// binary runs it: flags, environment, logs and all.
type cliServer struct {
	addr           string
	stdout, stderr *syncBuffer
	stop           func() error
}

// listeningRE is the line a server logs once it listens, as text or
// JSON (--log-format json).
var listeningRE = regexp.MustCompile(`msg=listening addr=http://(\S+)|"msg":"listening","addr":"http://([^"]+)"`)

// startCLI runs the command args until the returned server's stop is
// called, and waits until it logs the address it listens on. It fails the
// test when the command ends before that.
func startCLI(t *testing.T, args ...string) *cliServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &cliServer{stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, s.stdout, s.stderr) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if m := listeningRE.FindStringSubmatch(s.stderr.String()); m != nil {
			s.addr = m[1] + m[2]
			break
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("%v ended before listening: %v\nstderr:\n%s", args, err, s.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("%v did not listen within a minute:\n%s", args, s.stderr.String())
		}
	}
	stopped := false
	s.stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("%v: shutdown: %v", args, err)
		}
	})
	return s
}

// shutdown stops the server and fails the test when it did not stop
// cleanly.
func (s *cliServer) shutdown(t *testing.T) {
	t.Helper()
	if err := s.stop(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}

// searchAnswer is the part of a search response the CLI tests read.
type searchAnswer struct {
	Success  bool
	Error    struct{ Code, Message string }
	Products struct {
		TotalCount int
		Results    []map[string]any
	}
}

// search posts body to the server's /serve/search, with bearer as the API
// key when it is not empty, and returns the status and the answer.
func (s *cliServer) search(t *testing.T, bearer, body string) (int, searchAnswer) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://"+s.addr+"/serve/search", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out searchAnswer
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("search %s: status %d, body %s: %v", body, resp.StatusCode, b, err)
	}
	return resp.StatusCode, out
}

// total is the product total of a search that must succeed.
func (s *cliServer) total(t *testing.T, key, query string) int {
	t.Helper()
	body := fmt.Sprintf(`{"query":%q,"key":%q,"products":{"count":100}}`, query, key)
	status, out := s.search(t, "", body)
	if status != http.StatusOK || !out.Success {
		t.Fatalf("search %s: status %d, %+v", body, status, out.Error)
	}
	return out.Products.TotalCount
}

// admin sends an admin API request with key and returns the status and
// body.
func (s *cliServer) admin(t *testing.T, key, method, path, contentType, body string) (int, string) {
	t.Helper()
	return request(t, method, "http://"+s.addr+path, "Bearer "+key, contentType, body)
}

// request sends body to url, with the Authorization and Content-Type
// headers when not empty, and returns the status and the answer.
func request(t *testing.T, method, url, authorization, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(raw)
}

// writeFile writes content to dir/name and returns the path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runCLI runs one command that ends by itself and returns its stdout, or
// its error. A command that starts serving instead (a serve that should
// have failed) is stopped, and reported as an error.
func runCLI(args ...string) (string, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, &out, &errOut) }()
	var err error
	for waited := time.Duration(0); ; waited += 10 * time.Millisecond {
		select {
		case err = <-done:
		case <-time.After(10 * time.Millisecond):
			if listeningRE.MatchString(errOut.String()) || waited > 2*time.Minute {
				cancel()
				<-done
				err = errors.New("the command served (or ran for minutes) instead of ending")
			} else {
				continue
			}
		}
		break
	}
	if err != nil {
		err = fmt.Errorf("%w\nstderr:\n%s", err, errOut.String())
	}
	return out.String(), err
}

// mustRun runs one command that must succeed and returns its stdout.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := runCLI(args...)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return out
}

// storedState is what a data directory holds, for comparing it before and
// after a command: its log position, configuration and products.
func storedState(t *testing.T, dir string) string {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg, err := st.Config()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "seq %d\nconfig ", st.Seq())
	cb, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b.Write(cb)
	b.WriteString("\n")
	if cfg == nil {
		return b.String()
	}
	for _, w := range cfg.Websites {
		if err := st.Products(w.UUID, func(p *catalog.Product) error {
			pb, err := json.Marshal(p)
			b.Write(pb)
			b.WriteString("\n")
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}
