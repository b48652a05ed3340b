package bench

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/aisle-search/aisle/analysis"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/live"
	"github.com/aisle-search/aisle/store"
)

// ImportReport is what importing a suite into a fresh data directory
// cost, the way `aisle import` does it: the pass over the feed (encoding,
// tokenizing, the dictionary), then the store's commit and the index
// built and saved.
type ImportReport struct {
	Products      int     `json:"products"`
	JSONBytes     int64   `json:"catalogJSONBytes"`
	FeedSeconds   float64 `json:"feedSeconds"`
	IndexSeconds  float64 `json:"indexSeconds"`
	TotalSeconds  float64 `json:"totalSeconds"`
	FeedPerSec    float64 `json:"feedProductsPerSecond"`
	IndexPerSec   float64 `json:"indexProductsPerSecond"`
	TotalPerSec   float64 `json:"importProductsPerSecond"`
	DiskBytes     int64   `json:"diskBytes"`
	RSSBytes      int64   `json:"rssBytes"`
	HeapBytes     int64   `json:"heapBytes"`
	RSSOverJSON   float64 `json:"rssOverJSON"`
	IndexDiskSize int64   `json:"indexDiskBytes"`
}

// Import feeds the suite's products into a store in dir through
// live.Import, as `aisle import` does. It returns the generation with
// the store still open; close the store after the generation's last use.
func Import(ctx context.Context, dir string, s *Suite, log *slog.Logger, progress func(done int)) (*engine.Generation, *store.Store, ImportReport, error) {
	var rep ImportReport
	st, err := store.Open(dir)
	if err != nil {
		return nil, nil, rep, err
	}
	fail := func(err error) (*engine.Generation, *store.Store, ImportReport, error) {
		st.Close()
		return nil, nil, rep, err
	}
	// The website goes into the store as `aisle import --config` puts it,
	// so a server started on dir serves the suite's configuration.
	if _, err := live.StoreConfig(st, &config.File{Websites: []config.Website{*s.Website}}, analysis.English); err != nil {
		return fail(fmt.Errorf("import %s: store the configuration: %w", s.Name, err))
	}
	start := time.Now()
	g, stats, err := live.Import(st, s.Website, analysis.English, func(fn func(*catalog.Product) error) error {
		return s.Products(func(p *catalog.Product) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return fn(p)
		})
	}, log, engine.Progress(progress))
	rep.Products, rep.JSONBytes = stats.Products, stats.Bytes
	if err != nil {
		return fail(fmt.Errorf("import %s: %w", s.Name, err))
	}
	total := time.Since(start)
	feed, index := stats.Feed, stats.Index
	rep.FeedSeconds, rep.TotalSeconds = feed.Seconds(), total.Seconds()
	rep.IndexSeconds = index.Seconds()
	rep.FeedPerSec = float64(rep.Products) / feed.Seconds()
	rep.IndexPerSec = float64(rep.Products) / index.Seconds()
	rep.TotalPerSec = float64(rep.Products) / total.Seconds()
	rep.DiskBytes = DirSize(dir)
	rep.IndexDiskSize = st.SegmentBytes()
	rep.HeapBytes, rep.RSSBytes = Memory()
	if rep.JSONBytes > 0 {
		rep.RSSOverJSON = float64(rep.RSSBytes) / float64(rep.JSONBytes)
	}
	return g, st, rep, nil
}

// Memory collects garbage, returns freed pages to the system and reads the
// live heap and the process's resident set.
func Memory() (heap, rss int64) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc), ProcessRSS(os.Getpid())
}

// ProcessRSS is a process's resident set size from /proc (0 where there
// is no /proc).
func ProcessRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// SettledRSS is ProcessRSS once it stops falling: read every 100 ms
// until three reads in a row fell by less than 1% in all, or within has
// passed. A server hands its load's garbage back to the OS just after it
// starts answering; its resident set is what it keeps.
func SettledRSS(pid int, within time.Duration) int64 {
	deadline := time.Now().Add(within)
	reads := []int64{ProcessRSS(pid)}
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		reads = append(reads, ProcessRSS(pid))
		if k := len(reads); k >= 4 && float64(reads[k-4]-reads[k-1]) < 0.01*float64(reads[k-4]) {
			break
		}
	}
	return reads[len(reads)-1]
}

// TreeRSS is the resident set of a process and its direct children, as
// top would add them up (pages they share count in each): servers such as
// PostgreSQL run a process per connection and per helper.
func TreeRSS(pid int) int64 {
	total := ProcessRSS(pid)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return total
	}
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err == nil && child != pid && parentPID(child) == pid {
			total += ProcessRSS(child)
		}
	}
	return total
}

// parentPID reads a process's parent from /proc/PID/stat, -1 when gone.
func parentPID(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return -1
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		return -1
	}
	return n
}

// DirSize is the total size of the files under dir.
func DirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error { //nolint:errcheck // best effort
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
