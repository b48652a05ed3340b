package browser

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/expect"
	"github.com/chromedp/chromedp"
)

func TestFind(t *testing.T) {
	self, err := os.Executable() // an executable file that exists
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, env, path string
		want            string // the path found, or "" for ErrNoChromium
		names           string // what the error names
	}{
		{"env path", self, "", self, ""},
		{"env missing", "/nonexistent/chromium", "", "", ChromiumEnv + "=/nonexistent/chromium"},
		{"env empty, nothing on PATH", "", t.TempDir(), "", "chromium (from PATH)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(ChromiumEnv, tc.env)
			if tc.path != "" {
				t.Setenv("PATH", tc.path)
			}
			got, err := Find()
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Fatalf("Find() = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrNoChromium) || !strings.Contains(err.Error(), tc.names) {
				t.Fatalf("Find() = %q, %v; want ErrNoChromium naming %q", got, err, tc.names)
			}
		})
	}
}

// recorder is a testing.TB that notes a skip or a failure instead of
// ending the test that uses it.
type recorder struct {
	testing.TB
	failed, skipped bool
	why             string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped, r.why = true, fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.failed, r.why = true, fmt.Sprint(args...) }

// TestNewWithoutChromium: a missing chromium skips, naming the apt
// package, or fails when the browser is required.
func TestNewWithoutChromium(t *testing.T) {
	t.Setenv(ChromiumEnv, "/nonexistent/chromium")
	for _, tc := range []struct {
		require       string
		fail, skipped bool
	}{
		{"0", false, true},
		{"1", true, false},
	} {
		t.Setenv(expect.RequireBrowserEnv, tc.require)
		r := &recorder{TB: t}
		if ctx := New(r); ctx != nil {
			t.Errorf("%s=%s: New returned a context without chromium", expect.RequireBrowserEnv, tc.require)
		}
		if r.failed != tc.fail || r.skipped != tc.skipped {
			t.Errorf("%s=%s: failed %v skipped %v, want %v %v", expect.RequireBrowserEnv, tc.require, r.failed, r.skipped, tc.fail, tc.skipped)
		}
		if !strings.Contains(r.why, "apt-get install chromium") {
			t.Errorf("%s=%s: the reason %q does not name the apt package", expect.RequireBrowserEnv, tc.require, r.why)
		}
	}
}

// TestNewRunsChromiumWithTheFlags reads chromium's command line from
// chrome://version: it holds each flag of the harness, none of
// chromedp's default flags, and a user-data dir under the test's temporary dir that
// chromium writes its profile to.
func TestNewRunsChromiumWithTheFlags(t *testing.T) {
	ctx := New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate("chrome://version")); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#command_line")))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(text)
	t.Logf("chromium's command line: %s", text)
	for _, f := range []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run",
	} {
		if !slices.Contains(args, f) {
			t.Errorf("the command line lacks %s", f)
		}
	}
	for _, f := range []string{"--enable-automation", "--disable-extensions", "--disable-hang-monitor", "--password-store=basic"} {
		if slices.Contains(args, f) {
			t.Errorf("the command line holds chromedp's default %s", f)
		}
	}
	var dir string
	for _, a := range args {
		if d, ok := strings.CutPrefix(a, "--user-data-dir="); ok {
			dir = d
		}
	}
	if tmp := filepath.Dir(t.TempDir()); filepath.Dir(dir) != tmp {
		t.Errorf("the user-data dir is %q, not under the test's %s", dir, tmp)
	}
	if _, err := os.Stat(filepath.Join(dir, "Default")); err != nil {
		t.Errorf("chromium wrote no profile to its user-data dir: %v", err)
	}
}

// TestWatchConsole: errors, warnings and exceptions are collected in
// order; logs and infos are not.
func TestWatchConsole(t *testing.T) {
	ctx := New(t)
	w := WatchConsole(ctx)
	page := `data:text/html,<script>
console.log("a log"); console.info("an info"); console.debug("a debug line");
console.warn("a warning"); console.error("an error");
</script><script>throw new Error("thrown")</script>`
	err := chromedp.Do(ctx, chromedp.Navigate(page))
	msgs := w.Stop()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range msgs {
		got = append(got, string(m.Type)+": "+m.Text)
	}
	want := []string{"warning: a warning", "error: an error", "exception: Uncaught Error: thrown"}
	if !slices.Equal(got, want) {
		t.Errorf("collected %q, want %q", got, want)
	}
}
