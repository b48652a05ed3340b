package store

import (
	"errors"
	"fmt"
	"maps"

	"github.com/cockroachdb/pebble"
)

// Position is where an entry stands in a replicated log (package
// cluster): the log's name and the entry's number in it. A store that
// follows several logs (a website's, the server's) keeps, for each, the
// last entry it applied, written in the same pebble batch as the entry:
// after a crash the store holds an entry exactly when it holds its
// position, so a follower resumes after Position and neither loses nor
// doubles one.
type Position struct {
	Log string
	Seq uint64
}

// ErrPositionApplied is Apply's refusal of a batch whose position is
// not after its log's applied position: the entry is applied already.
var ErrPositionApplied = errors.New("store: the log's entry is applied already")

// SetPosition says the batch is entry p of a replicated log; Apply then
// records p as that log's applied position with the batch's changes, or
// refuses the batch (ErrPositionApplied) when p.Seq is not after it.
func (b *Batch) SetPosition(p Position) { b.position = p }

// Position is the batch's position, ok false when it has none (a batch
// of a store that replicates nothing, or not yet logged).
func (b *Batch) Position() (p Position, ok bool) { return b.position, b.position.Log != "" }

// Position is the last entry of the replicated log named log that this
// store applied; 0 for none.
func (s *Store) Position(log string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.positions[log]
}

// Positions are the applied positions of every replicated log, a copy.
func (s *Store) Positions() map[string]uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.positions)
}

// checkPositions refuses bs when one of their positions is not after
// its log's last (the applied one, or an earlier batch's of bs); s.mu
// is held.
func (s *Store) checkPositions(bs []*Batch) error {
	var last map[string]uint64
	for _, b := range bs {
		p, ok := b.Position()
		if !ok {
			continue
		}
		if last == nil {
			last = maps.Clone(s.positions)
		}
		if p.Seq <= last[p.Log] {
			return fmt.Errorf("%w: entry %d of %s, applied through %d", ErrPositionApplied, p.Seq, p.Log, last[p.Log])
		}
		last[p.Log] = p.Seq
	}
	return nil
}

// writePosition writes b's position into pb, when it has one, and
// notes it in moved.
func writePosition(pb *pebble.Batch, b *Batch, moved map[string]uint64) error {
	p, ok := b.Position()
	if !ok {
		return nil
	}
	moved[p.Log] = p.Seq
	return pb.Set(positionKey(p.Log), appendSeq(nil, p.Seq), nil)
}

// readPositions reads every log's applied position from h's database.
func readPositions(h *handle) (map[string]uint64, error) {
	positions := map[string]uint64{}
	err := scanDB(h.db, prefixPosition, func(k, v []byte) error {
		log, err := decodePositionKey(k)
		if err != nil {
			return err
		}
		seq, err := decodeSeq(string(k), v)
		if err != nil {
			return err
		}
		positions[log] = seq
		return nil
	})
	return positions, err
}
