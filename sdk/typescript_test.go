package sdk_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/aisle-search/aisle/internal/expect"
)

// tscEnv names the TypeScript compiler's script
// (DIR/node_modules/typescript/bin/tsc), run with node; .ci/run installs
// the pinned typescript and sets it.
const tscEnv = "AISLE_TSC"

// TestTypeScript: the typed example holds to aisle.d.ts under
// tsc --noEmit --strict, and a misuse of the SDK (a wrong format, a count
// as a string, an unknown click source) does not.
func TestTypeScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		expect.SkipOrFail(t, expect.RequireNodeEnv, "node is not installed (Debian: apt-get install nodejs)")
		return
	}
	tsc := os.Getenv(tscEnv)
	if _, err := os.Stat(tsc); tsc == "" || err != nil {
		expect.SkipOrFail(t, expect.RequireNodeEnv, tscEnv+"="+tsc+" is no tsc: npm install --prefix DIR typescript@5 (.ci/run pins the version) and set "+tscEnv+"=DIR/node_modules/typescript/bin/tsc")
		return
	}
	check := func(file string) (string, error) {
		out, err := exec.Command(node, tsc, "--noEmit", "--strict", "--target", "es2020", "--lib", "es2020,dom", file).CombinedOutput()
		return string(out), err
	}
	if out, err := check("testdata/example.ts"); err != nil {
		t.Errorf("tsc refuses testdata/example.ts: %v\n%s", err, out)
	}
	out, err := check("testdata/bad.ts")
	for _, want := range []string{`"XML"`, `'"nowhere"'`, "bad.ts(6,"} {
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("tsc passed a misuse (%s) in testdata/bad.ts: %v\n%s", want, err, out)
		}
	}
}
