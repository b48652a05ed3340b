// Package datasets locates the real data sets that sit beside the checkout
// in ../shared/data, for tests, benchmarks and the eval command. They are
// never copied into the repository.
package datasets

import (
	"errors"
	"os"
	"path/filepath"
)

// Dir walks up from the working directory to the shared/data folder.
func Dir() (string, error) {
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
			return "", errors.New("shared/data not found above the working directory: it sits beside the checkout (pass --shared DIR to commands)")
		}
		dir = parent
	}
}

// Skipper is the part of testing.TB that SkipOrDir needs.
type Skipper interface {
	Helper()
	Skip(args ...any)
}

// SkipOrDir returns the data folder, or skips the test saying why.
func SkipOrDir(t Skipper) string {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		t.Skip(err.Error())
	}
	return dir
}
