package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// readCSV calls fn with the columns cols of each row of a CSV file with
// a header, in that order (row is reused between calls); an error names
// the file and, for a row, its line.
// csvHeader is the first record of a CSV file.
func csvHeader(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	header, err := csv.NewReader(f).Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", path, err)
	}
	return header, nil
}

func readCSV(path string, cols []string, fn func(row []string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("%s: header: %w", path, err)
	}
	idx := make([]int, len(cols))
	for i, c := range cols {
		if idx[i] = slices.Index(header, c); idx[i] < 0 {
			return fmt.Errorf("%s: no column %q", path, c)
		}
	}
	row := make([]string, len(cols))
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		for i, j := range idx {
			row[i] = rec[j]
		}
		if err := fn(row); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
	}
}
