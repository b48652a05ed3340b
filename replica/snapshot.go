package replica

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/aisle-search/aisle/cluster"
)

// Snapshots. The server log's writer keeps a snapshot of its whole store
// in the cluster's object store (cluster.Snapshots, one object,
// snapshotObject): a pebble checkpoint (store.Backup) as a tar stream.
// The store holds each log's applied position beside what it applied,
// so a new node that starts from the snapshot (Bootstrap) follows each
// log from there: a catalog is never imported again on a new node, and
// its saved indexes are loaded, not rebuilt.

// snapshotObject is the snapshot's name in the object store.
const snapshotObject = "store"

// PublishSnapshot puts a snapshot of this node's store in the cluster's
// object store, replacing the last; the server log's writer calls it
// (KeepSnapshots). It returns the snapshot's size.
func (r *Replicator) PublishSnapshot(ctx context.Context) (int64, error) {
	snaps, err := r.snapshots(ctx)
	if err != nil {
		return 0, err
	}
	tmp, err := os.MkdirTemp(r.o.Store.Dir(), "snapshot-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "store")
	if _, err := r.o.Store.Backup(dir); err != nil {
		return 0, err
	}
	pr, pw := io.Pipe()
	counted := &countingReader{r: pr, rate: snapshotRate, start: time.Now()}
	go func() { pw.CloseWithError(writeTar(pw, dir)) }()
	err = snaps.Put(ctx, snapshotObject, r.o.Store.Position(ServerLog), counted)
	pr.CloseWithError(err) // ends writeTar when Put stopped early
	return counted.n, err
}

// snapshots opens the object store once.
func (r *Replicator) snapshots(ctx context.Context) (*cluster.Snapshots, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.snaps != nil {
		return r.snaps, nil
	}
	snaps, err := cluster.OpenSnapshots(ctx, r.o.NATS, r.o.Replicas)
	if err != nil {
		return nil, err
	}
	r.snaps = snaps
	return snaps, nil
}

// KeepSnapshots publishes a snapshot every every while this node writes
// the server's log and a log moved since the last one, until the
// Replicator closes. Each is logged with its size and time.
func (r *Replicator) KeepSnapshots(every time.Duration) {
	r.wg.Go(func() {
		var last map[string]uint64
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-r.ctx.Done():
				return
			case <-tick.C:
			}
			now := r.o.Store.Positions()
			if !r.writes(ServerLog) || maps.Equal(now, last) {
				continue
			}
			if err := r.SnapshotNow(); err != nil {
				r.o.Log.Warn("the cluster's snapshot could not be published: new nodes start from the last one", "err", err)
				continue
			}
			last = now
		}
	})
}

// snapshotTries is how many times SnapshotNow puts a snapshot, and a new
// node reads it, before it gives up: a put fails whole when the cluster
// stops acknowledging its messages for a moment (a disk's sync, an
// election), and a read when the stream's leader changes hands under it.
const snapshotTries = 3

// SnapshotNow publishes a snapshot, trying again on a failure, and logs
// it.
func (r *Replicator) SnapshotNow() error {
	var err error
	for try := 1; try <= snapshotTries && r.ctx.Err() == nil; try++ {
		start := time.Now()
		ctx, cancel := context.WithTimeout(r.ctx, 30*time.Minute)
		var n int64
		n, err = r.PublishSnapshot(ctx)
		cancel()
		if err == nil {
			r.o.Log.Info("cluster snapshot published", "bytes", n, "took", time.Since(start).Round(time.Millisecond))
			return nil
		}
		r.o.Log.Warn("the cluster's snapshot could not be put", "try", try, "err", err)
	}
	return err
}

// Bootstrap fills dir, a new node's empty data directory, with the
// cluster's snapshot, and reports whether there was one. It waits for
// the cluster's object store, and with wait for the snapshot itself
// (a new cluster's seed publishes it before its first entry), up to
// ctx's end. Progress is logged every few seconds.
func Bootstrap(ctx context.Context, nc *nats.Conn, replicas int, dir string, wait bool, log *slog.Logger) (bool, error) {
	told := false
	// The reads go on past the try, and need a deadline of their own: the
	// client gives a read without one five seconds, in all.
	rctx, cancel := context.WithTimeout(ctx, snapshotReadTimeout)
	defer cancel()
	get := func() (rc io.ReadCloser, pos uint64, err error) {
		err = retry(ctx, func(tctx context.Context) error {
			snaps, err := cluster.OpenSnapshots(tctx, nc, replicas)
			if err != nil {
				return err
			}
			rc, pos, err = snaps.Get(rctx, snapshotObject)
			if errors.Is(err, cluster.ErrNoSnapshot) && !wait {
				return nil
			}
			if errors.Is(err, cluster.ErrNoSnapshot) && !told {
				log.Info("a new node: waiting for the cluster's first snapshot, which a node with data or --config publishes when it seeds the cluster")
				told = true
			}
			return err
		})
		return rc, pos, err
	}
	return loadSnapshot(get, dir, log)
}

// loadSnapshot reads the snapshot get opens into dir, and reports
// whether there was one (get's reader nil: none). A read the cluster
// breaks (errSnapshotRead: a stream leader changing hands, a digest that
// does not match) is started again from the beginning, snapshotTries
// times in all, after the files it wrote are removed; a failure to write
// the files ends it.
func loadSnapshot(get func() (io.ReadCloser, uint64, error), dir string, log *slog.Logger) (bool, error) {
	for try := 1; ; try++ {
		rc, pos, err := get()
		if err != nil || rc == nil {
			return false, err
		}
		start := time.Now()
		log.Info("a new node: loading the cluster's snapshot", "server_log_position", pos)
		counted := &countingReader{r: snapshotReader{rc}, every: 5 * time.Second, progress: func(n int64) {
			log.Info("loading the cluster's snapshot", "bytes", n, "took", time.Since(start).Round(time.Second))
		}}
		err = readTar(counted, dir)
		rc.Close()
		if err == nil {
			log.Info("the cluster's snapshot is loaded", "bytes", counted.n, "took", time.Since(start).Round(time.Millisecond))
			return true, nil
		}
		if !errors.Is(err, errSnapshotRead) || try == snapshotTries {
			return false, fmt.Errorf("load the cluster's snapshot: %w", err)
		}
		log.Warn("a new node: the cluster's snapshot could not be read: reading it again", "try", try, "err", err)
	}
}

// errSnapshotRead marks a failed read of the cluster's snapshot, apart
// from a failure to write its files.
var errSnapshotRead = errors.New("reading the snapshot")

// snapshotReader marks its reader's errors but io.EOF errSnapshotRead.
type snapshotReader struct{ r io.Reader }

func (s snapshotReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: %w", errSnapshotRead, err)
	}
	return n, err
}

// snapshotReadTimeout bounds a new node's read of the cluster's
// snapshot.
const snapshotReadTimeout = time.Hour

// writeTar writes dir's regular files, and those of its subdirectories,
// to w as a tar stream.
func writeTar(w io.Writer, dir string) error {
	tw := tar.NewWriter(w)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: info.Size(), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = io.Copy(tw, f)
		return err
	})
	if err != nil {
		return err
	}
	return tw.Close()
}

// errTarPath refuses a snapshot entry that names a file outside the
// directory, or is not a regular file.
var errTarPath = errors.New("a snapshot entry outside the data directory")

// readTar writes a tar stream's regular files into dir. On a failure it
// removes the files it wrote (not the directories), so that the stream
// can be read into dir again.
func readTar(r io.Reader, dir string) (err error) {
	var written []string
	defer func() {
		if err != nil {
			for _, path := range written {
				os.Remove(path) //nolint:errcheck // a file left makes the next read fail, which says so
			}
		}
	}()
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(h.Name)
		if h.Typeflag != tar.TypeReg || !filepath.IsLocal(name) || strings.Contains(h.Name, "\\") {
			return fmt.Errorf("%w: %q", errTarPath, h.Name)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		written = append(written, path)
		_, err = io.Copy(f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// snapshotRate bounds how fast a snapshot is put, in bytes a second:
// the object store's client fails a put whose unacknowledged messages
// reach 4,000 and stay there for a moment, which a put faster than the
// NATS servers write (three copies, each synced) reaches on a slow disk.
// 32 MB/s puts a million products' snapshot (1.1 GB) in about 35 s.
const snapshotRate = 32 << 20

// countingReader counts what is read through it, calling progress
// every every, and when rate is set reads no faster than rate bytes a
// second since start.
type countingReader struct {
	r        io.Reader
	n        int64
	every    time.Duration
	progress func(n int64)
	last     time.Time
	rate     int64
	start    time.Time
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.rate > 0 {
		time.Sleep(time.Until(c.start.Add(time.Duration(float64(c.n) / float64(c.rate) * float64(time.Second)))))
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.progress != nil && time.Since(c.last) >= c.every {
		if !c.last.IsZero() {
			c.progress(c.n)
		}
		c.last = time.Now()
	}
	return n, err
}
