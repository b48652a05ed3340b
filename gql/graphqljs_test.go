package gql_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/internal/expect"
)

// graphqlJSEnv names the directory of the npm package graphql
// (DIR/node_modules/graphql) that scripts/graphql-validate.mjs imports;
// .ci/run installs it pinned and sets it.
const graphqlJSEnv = "AISLE_GRAPHQL_JS"

// validateScript is scripts/graphql-validate.mjs from the package dir.
var validateScript = filepath.Join("..", "scripts", "graphql-validate.mjs")

// graphqlJS is node's path and graphql-js's directory, or skips the
// test naming how to get them (fails with AISLE_REQUIRE_NODE on).
func graphqlJS(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		expect.SkipOrFail(t, expect.RequireNodeEnv, "node is not installed (Debian: apt-get install nodejs)")
	}
	dir = os.Getenv(graphqlJSEnv)
	if _, err := os.Stat(filepath.Join(dir, "index.mjs")); dir == "" || err != nil {
		expect.SkipOrFail(t, expect.RequireNodeEnv, graphqlJSEnv+"="+dir+" holds no graphql-js: npm install --prefix DIR graphql@16 (.ci/run pins the version) and set "+graphqlJSEnv+"=DIR/node_modules/graphql")
	}
	return node, dir
}

// validateOps runs scripts/graphql-validate.mjs on the introspection
// result intro and the operation files, returning its output and exit
// status.
func validateOps(t *testing.T, node, dir, intro string, files ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(node, append([]string{validateScript}, files...)...)
	cmd.Env = append(os.Environ(), graphqlJSEnv+"="+dir)
	cmd.Stdin = strings.NewReader(intro)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	}
	t.Fatalf("node %s: %v", validateScript, err)
	return "", 0
}

// TestGraphQLJSValidates: graphql-js, the reference implementation,
// builds a client schema from the live server's introspection, finds it
// valid, and validates the spec's operations
// (testdata/spec/*.graphql) against it with no error; it rejects the
// deliberately invalid operation (testdata/spec/invalid/), naming each
// mistake at its place, so the check cannot pass by validating nothing;
// and it refuses an invalid schema.
func TestGraphQLJSValidates(t *testing.T) {
	node, dir := graphqlJS(t)
	s := twoShops(t)
	intro, _ := s.introspect(t)

	ops, err := filepath.Glob(filepath.Join("testdata", "spec", "*.graphql"))
	if err != nil || len(ops) < 4 {
		t.Fatalf("operations in testdata/spec: %v %v", ops, err)
	}
	out, status := validateOps(t, node, dir, intro, ops...)
	if status != 0 || !strings.Contains(out, fmt.Sprintf("schema valid, %d operation file(s), 0 error(s)", len(ops))) {
		t.Fatalf("the spec's operations: exit %d:\n%s", status, out)
	}

	bad := filepath.Join("testdata", "spec", "invalid", "audit-mistakes.graphql")
	out, status = validateOps(t, node, dir, intro, bad)
	if status != 1 {
		t.Fatalf("the invalid operation: exit %d, want 1:\n%s", status, out)
	}
	for _, want := range []string{
		bad + `:6:52: Value "NEWEST_FIRST" does not exist in "AuditLogSort" enum.`,
		bad + `:5:24: Variable "$keypoint" of type "Boolean" used in position expecting type "String".`,
		bad + `:10:9: Cannot query field "author" on type "AuditLog".`,
		bad + `:11:9: Field "auditLogSession" of type "AuditLogSession" must have a selection of subfields.`,
		"4 error(s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the invalid operation: output lacks %q:\n%s", want, out)
		}
	}

	// An invalid schema is refused before any operation: an object type
	// without fields.
	var a map[string]any
	if err := json.Unmarshal([]byte(intro), &a); err != nil {
		t.Fatal(err)
	}
	for _, typ := range a["data"].(map[string]any)["__schema"].(map[string]any)["types"].([]any) {
		if typ := typ.(map[string]any); typ["name"] == "AuditLogSession" {
			typ["fields"] = []any{}
		}
	}
	broken, _ := json.Marshal(a)
	out, status = validateOps(t, node, dir, string(broken), ops...)
	if want := "schema: Type AuditLogSession must define one or more fields."; status != 1 || !strings.Contains(out, want) {
		t.Errorf("a schema with a type without fields: exit %d, want 1 and %q:\n%s", status, want, out)
	}
}
