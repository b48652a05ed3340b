package cluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// leaseBucket is the JetStream key-value bucket of the websites' write
// leases: a key a website, its value the holder.
const leaseBucket = "AISLE_LEASES"

// Errors of leases.
var (
	// ErrHeld is an Acquire of a lease another holder has (HeldError
	// names it).
	ErrHeld = errors.New("the lease is held by another node")
	// ErrLost is a Renew or Release of a lease that expired or was taken
	// since: its holder must stop writing and read the log again.
	ErrLost = errors.New("the lease was lost")
)

// HeldError is ErrHeld with the holder, as it acquired the lease (its
// address, for a write to be sent to).
type HeldError struct{ Holder string }

func (e *HeldError) Error() string        { return fmt.Sprintf("%v: %s", ErrHeld, e.Holder) }
func (e *HeldError) Is(target error) bool { return target == ErrHeld }

// Leases are the websites' write leases: one holder each, until it stops
// renewing for TTL (the bucket's age limit, kept by the cluster, not by
// any node's clock). A holder renews every TTL/3.
type Leases struct {
	kv  jetstream.KeyValue
	ttl time.Duration
}

// OpenLeases opens the lease bucket through nc, creating it with
// replicas copies and leases of ttl when it does not exist.
func OpenLeases(ctx context.Context, nc *nats.Conn, replicas int, ttl time.Duration) (*Leases, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:   leaseBucket,
		TTL:      ttl,
		History:  1,
		Storage:  jetstream.FileStorage,
		Replicas: replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("open the write leases: %w", err)
	}
	return &Leases{kv: kv, ttl: ttl}, nil
}

// TTL is how long a lease lasts past its last renewal.
func (l *Leases) TTL() time.Duration { return l.ttl }

// Lease is a website's write lease, held.
type Lease struct {
	leases   *Leases
	website  string
	holder   string
	revision uint64
}

// Acquire takes website's lease for holder (its address), or answers
// *HeldError naming the node that has it.
func (l *Leases) Acquire(ctx context.Context, website, holder string) (*Lease, error) {
	rev, err := l.kv.Create(ctx, website, []byte(holder))
	if errors.Is(err, jetstream.ErrKeyExists) {
		h, herr := l.Holder(ctx, website)
		if herr != nil {
			return nil, herr
		}
		if h == "" { // expired between the two calls
			return nil, &HeldError{Holder: "(none: try again)"}
		}
		return nil, &HeldError{Holder: h}
	}
	if err != nil {
		return nil, err
	}
	return &Lease{leases: l, website: website, holder: holder, revision: rev}, nil
}

// Holder is who holds website's lease; "" when no one does.
func (l *Leases) Holder(ctx context.Context, website string) (string, error) {
	e, err := l.kv.Get(ctx, website)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return string(e.Value()), nil
}

// Renew extends the lease by its TTL; ErrLost when it expired or another
// holder took it since the last renewal.
func (le *Lease) Renew(ctx context.Context) error {
	rev, err := le.leases.kv.Update(ctx, le.website, []byte(le.holder), le.revision)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) || wrongLastSequence(err) {
		return fmt.Errorf("%w: %s", ErrLost, le.website)
	}
	if err != nil {
		return err
	}
	le.revision = rev
	return nil
}

// Release gives the lease up, so another node may take it at once;
// ErrLost when it was already lost.
func (le *Lease) Release(ctx context.Context) error {
	err := le.leases.kv.Delete(ctx, le.website, jetstream.LastRevision(le.revision))
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || wrongLastSequence(err) {
		return fmt.Errorf("%w: %s", ErrLost, le.website)
	}
	return err
}
