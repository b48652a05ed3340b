package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/goccy/go-json"
)

// The kinds of saved report, by what wrote them: the first part of a
// report's kind (ReportKind).
const (
	KindAisle    = "aisle"    // aisle bench --json: Aisle alone, the query classes
	KindHostile  = "hostile"  // aisle bench --hostile --json: the hostile bodies
	KindPeers    = "peers"    // aisle bench --engines … --json: the peer comparison
	KindSoak     = "soak"     // aisle bench --soak … --json: the soak
	KindReplicas = "replicas" // aisle bench --replicas … --json: a cluster of three
)

// ErrReportFile is a report file that cannot be read as one: its name,
// its JSON, or the two disagreeing.
var ErrReportFile = errors.New("report file")

// SavedReport is one file of a reports directory (docs/reports), named
// DATE-KIND.json: DATE the day it was measured (YYYY-MM-DD), KIND what
// it measured (ReportKind). Exactly one of Aisle and Peers is set.
type SavedReport struct {
	File  string      // the file's name in its directory
	Kind  string      // e.g. peers-demo-1m
	Date  string      // YYYY-MM-DD
	Aisle *Report     // an aisle or hostile report
	Peers *PeerReport // a peers report
}

// ReportKind names what a report measured: what wrote it (KindAisle,
// KindHostile, KindPeers, KindSoak, KindReplicas), its catalog, and for the demo catalog, whose
// size a run chooses, its size: aisle-demo-1m, hostile-demo-100k,
// peers-flipkart.
func ReportKind(prefix, catalog string, products int) string {
	kind := prefix + "-" + catalog
	if catalog != "demo" {
		return kind
	}
	switch {
	case products > 0 && products%1_000_000 == 0:
		return fmt.Sprintf("%s-%dm", kind, products/1_000_000)
	case products > 0 && products%1_000 == 0:
		return fmt.Sprintf("%s-%dk", kind, products/1_000)
	}
	return fmt.Sprintf("%s-%d", kind, products)
}

// reportName is a report file's name: its date, then its kind.
var reportName = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})-([a-z0-9-]+)\.json$`)

// LoadReports reads every .json file of dir as a saved report and keeps
// the newest of each kind, by kind. A file that is not a report named
// for what it holds is an error (ErrReportFile), so that nothing in the
// directory is silently left out.
func LoadReports(dir string) (map[string]*SavedReport, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	newest := map[string]*SavedReport{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		r, err := readReport(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if old, ok := newest[r.Kind]; !ok || r.Date > old.Date {
			newest[r.Kind] = r
		}
	}
	return newest, nil
}

// readReport reads one saved report and checks its name against what it
// holds.
func readReport(path string) (*SavedReport, error) {
	name := filepath.Base(path)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrReportFile, path, err)
	}
	r := &SavedReport{File: name}
	peerDate := ""
	if _, ok := members["engines"]; ok {
		r.Peers = &PeerReport{}
		if err := decodeStrict(b, r.Peers); err != nil {
			return nil, fmt.Errorf("%w %s: %v", ErrReportFile, path, err)
		}
		r.Kind, peerDate = ReportKind(KindPeers, r.Peers.Catalog, r.Peers.Products), r.Peers.Date
	} else {
		r.Aisle = &Report{}
		if err := decodeStrict(b, r.Aisle); err != nil {
			return nil, fmt.Errorf("%w %s: %v", ErrReportFile, path, err)
		}
		switch {
		case r.Aisle.Soak != nil:
			r.Kind = ReportKind(KindSoak, r.Aisle.Catalog, r.Aisle.Products)
		case r.Aisle.Replicas != nil:
			r.Kind = ReportKind(KindReplicas, r.Aisle.Catalog, r.Aisle.Products)
		case len(r.Aisle.Hostile) > 0:
			r.Kind = ReportKind(KindHostile, r.Aisle.Catalog, r.Aisle.Products)
		case len(r.Aisle.Classes) > 0:
			r.Kind = ReportKind(KindAisle, r.Aisle.Catalog, r.Aisle.Products)
		default:
			return nil, fmt.Errorf("%w %s: no query classes, hostile bodies, soak or replicas: not a report aisle bench writes", ErrReportFile, path)
		}
	}
	m := reportName.FindStringSubmatch(name)
	if m == nil || m[2] != r.Kind {
		return nil, fmt.Errorf("%w %s: it holds a %s report: name it YYYY-MM-DD-%s.json, the day it was measured", ErrReportFile, path, r.Kind, r.Kind)
	}
	if _, err := time.Parse(time.DateOnly, m[1]); err != nil {
		return nil, fmt.Errorf("%w %s: %q is not a date", ErrReportFile, path, m[1])
	}
	if peerDate != "" && peerDate != m[1] {
		return nil, fmt.Errorf("%w %s: named for %s, measured on %s", ErrReportFile, path, m[1], peerDate)
	}
	r.Date = m[1]
	return r, nil
}

// decodeStrict decodes one JSON value with no member v does not have.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
