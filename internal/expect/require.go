package expect

import "os"

// The switches that make CI unable to pass by skipping. Each is read from
// the environment: "1" or "true" turns it on, "0" or "false" off, and
// when unset it follows CI=true. .ci/run sets them all.
const (
	// RequireDataEnv makes tests that need ../shared/data fail when it is
	// missing instead of skipping.
	RequireDataEnv = "AISLE_REQUIRE_DATA"
	// RequirePeersEnv makes tests that need PostgreSQL or Sphinx fail when
	// the server is not installed instead of skipping.
	RequirePeersEnv = "AISLE_REQUIRE_PEERS"
	// RequireTmpfsEnv makes the test that serves from a small full tmpfs
	// fail when it cannot mount one (it needs root) instead of skipping.
	RequireTmpfsEnv = "AISLE_REQUIRE_TMPFS"
	// RequireBrowserEnv makes tests that drive chromium fail when it is
	// not installed instead of skipping.
	RequireBrowserEnv = "AISLE_REQUIRE_BROWSER"
	// RequireNodeEnv makes tests that run node with graphql-js
	// (AISLE_GRAPHQL_JS) or TypeScript's tsc (AISLE_TSC) fail when
	// either is missing instead of skipping.
	RequireNodeEnv = "AISLE_REQUIRE_NODE"
)

// Required reports whether the switch env is on.
func Required(env string) bool {
	switch os.Getenv(env) {
	case "1", "true":
		return true
	case "0", "false":
		return false
	}
	return os.Getenv("CI") == "true"
}

// Skipper is the part of testing.TB that SkipOrFail needs.
type Skipper interface {
	Helper()
	Skip(args ...any)
	Fatal(args ...any)
}

// SkipOrFail skips the test saying why, or fails it when the switch env
// is on: a test that CI requires cannot pass by not running.
func SkipOrFail(t Skipper, env, why string) {
	t.Helper()
	if Required(env) {
		t.Fatal(why + " (" + env + " is on, so this fails instead of skipping)")
		return
	}
	t.Skip(why)
}
