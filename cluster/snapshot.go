package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// snapshotBucket is the JetStream object store of the websites'
// snapshots, one object a website.
const snapshotBucket = "AISLE_SNAPSHOTS"

// snapshotChunk is the size of a snapshot's messages: 512 KiB, under
// NATS's default 1 MiB payload (a cluster apart may keep it), and four
// times the object store's default, so a snapshot of a gigabyte is 2,000
// messages in flight at most rather than 8,000 (the client allows 4,000
// unacknowledged, and fails a put that waits on them).
const snapshotChunk = 512 << 10

// positionKey is the metadata member of a snapshot's log position.
const positionKey = "position"

// Errors of snapshots.
var (
	// ErrNoSnapshot is a Get of a website that has none yet: a new
	// replica follows its log from the first entry.
	ErrNoSnapshot = errors.New("no snapshot of the website")
	// ErrSnapshotCorrupt is a snapshot whose metadata cannot be read;
	// the wrapping error names the check. (Its bytes are checked by the
	// object store's digest as they are read.)
	ErrSnapshotCorrupt = errors.New("corrupt snapshot")
)

// Snapshots are the websites' latest snapshots: a website's saved state,
// which a new replica starts from instead of the log's first entry, with
// the log position it reaches. Putting one replaces the last.
type Snapshots struct {
	obs jetstream.ObjectStore
}

// OpenSnapshots opens the snapshot bucket through nc, creating it with
// replicas copies when it does not exist.
func OpenSnapshots(ctx context.Context, nc *nats.Conn, replicas int) (*Snapshots, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	obs, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket:   snapshotBucket,
		Storage:  jetstream.FileStorage,
		Replicas: replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("open the snapshots: %w", err)
	}
	return &Snapshots{obs: obs}, nil
}

// Put stores r's bytes as website's snapshot at log position position,
// replacing the last once every byte is stored: a Put that fails leaves
// the last one.
func (s *Snapshots) Put(ctx context.Context, website string, position uint64, r io.Reader) error {
	_, err := s.obs.Put(ctx, jetstream.ObjectMeta{
		Name:     website,
		Metadata: map[string]string{positionKey: strconv.FormatUint(position, 10)},
		Opts:     &jetstream.ObjectMetaOptions{ChunkSize: snapshotChunk},
	}, r)
	if err != nil {
		return fmt.Errorf("put the snapshot of %s: %w", website, err)
	}
	return nil
}

// Get is website's snapshot, to read and close, and the log position it
// reaches; ErrNoSnapshot when it has none. A read that meets bytes other
// than those put fails (the object store's digest).
func (s *Snapshots) Get(ctx context.Context, website string) (io.ReadCloser, uint64, error) {
	res, err := s.obs.Get(ctx, website)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, 0, fmt.Errorf("%w %s", ErrNoSnapshot, website)
	}
	if err != nil {
		return nil, 0, err
	}
	info, err := res.Info()
	if err != nil {
		res.Close()
		return nil, 0, err
	}
	pos, err := strconv.ParseUint(info.Metadata[positionKey], 10, 64)
	if err != nil {
		res.Close()
		return nil, 0, fmt.Errorf("%w %s: metadata %q: %q is not a log position", ErrSnapshotCorrupt, website, positionKey, info.Metadata[positionKey])
	}
	return res, pos, nil
}
