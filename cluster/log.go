package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// maxPayload is the largest entry a Log takes, and its nodes' message
// limit: 8 MiB (NATS allows up to 64 MiB; each replica holds a message
// whole while it replicates it). A larger change is the writer's to
// split into entries.
const maxPayload = 8 << 20

// Errors of a Log.
var (
	// ErrConflict is an Append whose position is not the stream's last:
	// another writer appended since. Nothing was appended; the writer has
	// lost the website and must read the stream before it writes again.
	ErrConflict = errors.New("the log has moved: another writer appended")
	// ErrEntryTooLarge is an entry over maxPayload bytes.
	ErrEntryTooLarge = errors.New("log entry too large")
)

// Log is one website's change log: a JetStream stream of its entries,
// the first at position 1, on file storage with Replicas copies.
type Log struct {
	js      jetstream.JetStream
	stream  jetstream.Stream
	subject string
	writer  string // this Log's id in its appends' message ids
}

// StreamName is the stream of website's change log.
func StreamName(website string) string { return "AISLE_LOG_" + website }

// logSubject is the subject website's entries are published on.
func logSubject(website string) string { return "aisle.log." + website }

// OpenLog opens website's change log through nc, creating its stream
// with replicas copies (1, or 3 in a three-node cluster) when it does not
// exist. A stream that exists keeps its entries; its settings are made
// these. A stream whose settings are these already is only looked up:
// that is answered by the stream's own leader, so a node restarting
// while the cluster elects its JetStream (meta) leader opens its logs.
func OpenLog(ctx context.Context, nc *nats.Conn, website string, replicas int) (*Log, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	subject := logSubject(website)
	cfg := jetstream.StreamConfig{
		Name:       StreamName(website),
		Subjects:   []string{subject},
		Storage:    jetstream.FileStorage,
		Replicas:   replicas,
		Retention:  jetstream.LimitsPolicy,
		MaxMsgSize: maxPayload,
		DenyDelete: true, // an entry is never taken out of the middle
	}
	stream, err := js.Stream(ctx, cfg.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) || err == nil && !sameLogConfig(stream.CachedInfo().Config, cfg) {
		stream, err = js.CreateOrUpdateStream(ctx, cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("open the change log of %s: %w", website, err)
	}
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	return &Log{js: js, stream: stream, subject: subject, writer: hex.EncodeToString(id[:])}, nil
}

// sameLogConfig reports whether a stream's settings are want's, in
// what OpenLog sets.
func sameLogConfig(have, want jetstream.StreamConfig) bool {
	return slices.Equal(have.Subjects, want.Subjects) && have.Storage == want.Storage &&
		have.Replicas == want.Replicas && have.Retention == want.Retention &&
		have.MaxMsgSize == want.MaxMsgSize && have.DenyDelete == want.DenyDelete
}

// Append appends entry at position after+1, if the stream's last entry
// is at after; ErrConflict otherwise. It returns once the stream's
// replicas have it (a majority of them). This Log appending the same
// position again (a retry after a timeout) is answered with the first
// append's position and appends nothing, within the stream's duplicate
// window (two minutes); another Log's append at a taken position is a
// conflict.
func (l *Log) Append(ctx context.Context, after uint64, entry []byte) (uint64, error) {
	if len(entry) > maxPayload {
		return 0, fmt.Errorf("%w: %d bytes, the most is %d", ErrEntryTooLarge, len(entry), maxPayload)
	}
	ack, err := l.js.Publish(ctx, l.subject, entry, jetstream.WithExpectLastSequence(after),
		jetstream.WithMsgID(l.writer+":"+strconv.FormatUint(after+1, 10)))
	if wrongLastSequence(err) {
		return 0, fmt.Errorf("%w: appending after %d", ErrConflict, after)
	}
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// Add appends entry at the stream's end, wherever that is: for a log
// any node appends to (visitors' events), whose entries do not depend on
// one another. id names the entry for the stream's duplicate window
// (two minutes): an Add retried with the same id appends once. It
// returns the entry's position once the stream's replicas have it.
func (l *Log) Add(ctx context.Context, id string, entry []byte) (uint64, error) {
	if len(entry) > maxPayload {
		return 0, fmt.Errorf("%w: %d bytes, the most is %d", ErrEntryTooLarge, len(entry), maxPayload)
	}
	ack, err := l.js.Publish(ctx, l.subject, entry, jetstream.WithMsgID(id))
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// Last is the position of the stream's last entry; 0 when it has none.
func (l *Log) Last(ctx context.Context) (uint64, error) {
	info, err := l.stream.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.LastSeq, nil
}

// Entry is one entry of a Log at its position.
type Entry struct {
	Seq  uint64
	Data []byte
}

// A run Follow hands over is at most runEntries entries and runBytes of
// them, and waits at most runWait for an entry the stream says is next
// (a pending count the stream could not keep is handed over as it is).
const (
	runEntries = 256
	runBytes   = 32 << 20
	runWait    = 100 * time.Millisecond
)

// Follow calls fn with the entries after position after, in order, and
// waits for new ones, until ctx ends (its error is returned) or fn
// fails (its error is returned). Each call gets a run of consecutive
// entries: one when the follower keeps up, as many as the stream already
// holds (runEntries, runBytes at most) when it has fallen behind, so a
// follower that applies a run as one change catches up in fewer of them.
// A follow the cluster breaks (a node stopped, a leader being elected)
// starts again after the last run fn took, so fn sees each entry once.
// fn must not keep run (its entries' Data it may) after it returns.
func (l *Log) Follow(ctx context.Context, after uint64, fn func(run []Entry) error) error {
	for {
		err := l.followOnce(ctx, &after, fn)
		var fe fnError
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.As(err, &fe):
			return fe.err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(followRetry):
		}
	}
}

// followTry bounds the creation of a follow's consumer: without a
// JetStream leader a request goes unanswered, and is sent again after
// followRetry.
const (
	followTry   = 2 * time.Second
	followRetry = 100 * time.Millisecond
)

// A follow's pull requests last followExpiry, and the server sends a
// heartbeat every followHeartbeat while it has nothing: two missed
// heartbeats (a node stopped, a leader moved) reset the follow at once,
// rather than after nats.go's default of 30 s requests and 15 s beats,
// so a replica's lag after a failure is seconds.
const (
	followExpiry    = 5 * time.Second
	followHeartbeat = time.Second
)

// fnError is Follow's fn's error, apart from the cluster's.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// followOnce is Follow on one consumer, advancing *after past each run
// fn took, until the consumer fails or fn does (fnError). A run read
// when the consumer fails is handed over first.
func (l *Log) followOnce(ctx context.Context, after *uint64, fn func(run []Entry) error) error {
	tctx, cancel := context.WithTimeout(ctx, followTry)
	cons, err := l.stream.OrderedConsumer(tctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:   *after + 1,
	})
	cancel()
	if err != nil {
		return err
	}
	msgs, err := cons.Messages(jetstream.PullExpiry(followExpiry), jetstream.PullHeartbeat(followHeartbeat))
	if err != nil {
		return err
	}
	defer msgs.Stop()
	stop := context.AfterFunc(ctx, msgs.Stop)
	defer stop()
	var run []Entry
	size := 0
	handOver := func() error {
		if len(run) == 0 {
			return nil
		}
		if err := fn(run); err != nil {
			return fnError{err}
		}
		*after = run[len(run)-1].Seq
		run, size = run[:0], 0
		return nil
	}
	for {
		var msg jetstream.Msg
		var meta *jetstream.MsgMetadata
		if len(run) == 0 {
			msg, err = msgs.Next()
		} else {
			msg, err = msgs.Next(jetstream.NextMaxWait(runWait))
		}
		if err == nil {
			meta, err = msg.Metadata()
		}
		if err != nil {
			if herr := handOver(); herr != nil {
				return herr
			}
			if errors.Is(err, nats.ErrTimeout) { // the pending entry is late: a run is handed over
				continue
			}
			return err
		}
		seq := meta.Sequence.Stream
		if seq <= *after || len(run) > 0 && seq <= run[len(run)-1].Seq { // sent again after a reset
			continue
		}
		run = append(run, Entry{Seq: seq, Data: msg.Data()})
		size += len(msg.Data())
		if meta.NumPending == 0 || len(run) >= runEntries || size >= runBytes {
			if err := handOver(); err != nil {
				return err
			}
		}
	}
}

// wrongLastSequence reports whether err is JetStream refusing a publish
// whose expected last sequence is not the stream's (or the subject's):
// code 10071, or 10164 from a replicated stream.
func wrongLastSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}
