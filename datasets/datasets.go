// Package datasets locates the real data sets that sit beside the checkout
// in ../shared/data, for tests, benchmarks and the eval command. They are
// never copied into the repository.
package datasets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aisle-search/aisle/internal/expect"
)

// DirEnv names the data folder directly, for a copy of the checkout that
// does not sit beside shared/ (the mutation script's work trees).
const DirEnv = "AISLE_SHARED_DATA"

// Dir returns $AISLE_SHARED_DATA when set, or walks up from the working
// directory to the shared/data folder.
func Dir() (string, error) {
	if p := os.Getenv(DirEnv); p != "" {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("%s=%s is not a folder", DirEnv, p)
		}
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "shared", "data")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("shared/data not found above the working directory: it sits beside the checkout (pass --shared DIR to commands, or set " + DirEnv + ")")
		}
		dir = parent
	}
}

// SkipOrDir returns the data folder, or skips the test saying why; with
// AISLE_REQUIRE_DATA on (as on CI) it fails the test instead.
func SkipOrDir(t expect.Skipper) string {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		expect.SkipOrFail(t, expect.RequireDataEnv, err.Error())
	}
	return dir
}

// SkipOrFile returns the path of name under the data folder (for example
// "flipkart/products.csv"), or skips or fails the test as SkipOrDir does
// when the folder or the file is missing.
func SkipOrFile(t expect.Skipper, name string) string {
	t.Helper()
	dir := SkipOrDir(t)
	p := filepath.Join(dir, filepath.FromSlash(name))
	if _, err := os.Stat(p); err != nil {
		expect.SkipOrFail(t, expect.RequireDataEnv, fmt.Sprintf("%s is not in %s: %v", name, dir, err))
	}
	return p
}
