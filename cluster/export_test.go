package cluster

import (
	"context"
	"io"

	"github.com/nats-io/nats.go/jetstream"
)

// MaxPayload is maxPayload, for the package's external tests.
const MaxPayload = maxPayload

// PutRawSnapshot puts r as a snapshot named name with metadata meta as
// given, for a test of metadata Get cannot read.
func PutRawSnapshot(ctx context.Context, s *Snapshots, name string, meta map[string]string, r io.Reader) error {
	_, err := s.obs.Put(ctx, jetstream.ObjectMeta{Name: name, Metadata: meta}, r)
	return err
}

// SnapshotPositionKey is positionKey.
const SnapshotPositionKey = positionKey
