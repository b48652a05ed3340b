// Package browser runs tests in a real browser: Debian's headless
// chromium, driven through the DevTools protocol by chromedp.
//
// It is imported only by _test.go files. A test calls New for a tab; a
// machine without chromium skips the test saying which package to
// install, or fails it when expect.RequireBrowserEnv is on (CI).
package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aisle-search/aisle/internal/expect"
	"github.com/chromedp/chromedp"
)

// ChromiumEnv names the environment variable that holds the chromium
// binary to run (a path, or a name looked up on PATH). When it is unset
// or empty, "chromium" is looked up on PATH.
const ChromiumEnv = "AISLE_CHROMIUM"

// AptPackage is the Debian package that installs chromium.
const AptPackage = "chromium"

// Flags are the command-line flags chromium runs with. chromedp adds
// --user-data-dir (a fresh dir under the test's TempDir), the DevTools
// pipe it drives the browser through and the first page, about:blank.
// Debian's /usr/bin/chromium wrapper also adds the flags of
// /etc/chromium.d; name /usr/lib/chromium/chromium in AISLE_CHROMIUM to
// run the binary with these alone.
var Flags = []string{
	"headless",
	"no-sandbox",
	"disable-gpu",
	"disable-background-networking",
	"disable-component-update",
	"disable-sync",
	"no-first-run",
}

// startTimeout bounds chromium's start, from exec to its first tab.
const startTimeout = 60 * time.Second

// ErrNoChromium is returned by Find when no chromium binary is found.
var ErrNoChromium = errors.New("browser: chromium not found")

// Find returns the chromium binary to run: $AISLE_CHROMIUM, else
// chromium on PATH. It returns an error wrapping ErrNoChromium when the
// binary is missing.
func Find() (string, error) {
	name := os.Getenv(ChromiumEnv)
	from := ChromiumEnv + "=" + name
	if name == "" {
		name, from = "chromium", "PATH"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %s (from %s): %v", ErrNoChromium, name, from, err)
	}
	return path, nil
}

// New starts chromium for the test and returns a context whose chromedp
// actions run in its first tab. The browser is closed when the test
// ends. Without chromium the test is skipped, naming the apt package,
// or failed when expect.RequireBrowserEnv is on. The caller may bound
// its steps with context.WithTimeout on the returned context: the
// browser is already running and outlives that timeout.
func New(t testing.TB) context.Context {
	t.Helper()
	path, err := Find()
	if err != nil {
		expect.SkipOrFail(t, expect.RequireBrowserEnv, fmt.Sprintf("%v; install it with: apt-get install %s", err, AptPackage))
		return nil
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
	}
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	output := &lockedBuffer{}
	opts = append(opts, chromedp.CombinedOutput(output))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	logs := &testLog{t: t}
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithErrorf(logs.logf))
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		logs.stop()
	})

	// The first action starts the browser and ties it to the context it
	// runs on: run it here, on ctx itself, so that a caller's timeout
	// never ends the browser. A start that hangs is ended by cancel.
	hung := time.AfterFunc(startTimeout, cancel)
	err = chromedp.Do(ctx)
	if !hung.Stop() {
		err = fmt.Errorf("no tab within %v: %w", startTimeout, err)
	}
	if err != nil {
		t.Fatalf("starting %s: %v\nchromium said:\n%s", path, err, output.String())
	}
	return ctx
}

// testLog passes chromedp's error log to the test until the test ends:
// events that arrive while the browser closes must not log to a test
// that has returned.
type testLog struct {
	mu   sync.Mutex
	t    testing.TB
	done bool
}

func (l *testLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		l.t.Logf("chromedp: "+format, args...)
	}
}

func (l *testLog) stop() {
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
}

// lockedBuffer is chromium's output, written by chromedp's goroutine and
// read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(b.buf.String())
}
