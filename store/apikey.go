package store

import (
	"fmt"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/access"
)

// PutKey adds a write of API key k (its JSON: the secret's digest,
// never the secret), server-level state: the batch needs no website for
// it. A key without an id is refused (ErrInvalidBatch).
func (b *Batch) PutKey(k *access.Key) error {
	if k.ID == "" {
		return fmt.Errorf("%w: an API key without an id", ErrInvalidBatch)
	}
	data, err := json.Marshal(k)
	if err != nil {
		return fmt.Errorf("encode API key %s: %w", k.ID, err)
	}
	b.keys = append(b.keys, data)
	b.keyIDs = append(b.keyIDs, k.ID)
	return nil
}

// RemoveKey adds a removal of the API key whose id is id; removing a
// key that is not stored changes nothing. A batch that puts and removes
// one key removes it.
func (b *Batch) RemoveKey(id string) { b.keyRemovals = append(b.keyRemovals, id) }

// checkKeys refuses a removal without an id.
func (b *Batch) checkKeys() error {
	for _, id := range b.keyRemovals {
		if id == "" {
			return fmt.Errorf("%w: a removal of an API key without an id", ErrInvalidBatch)
		}
	}
	return nil
}

// Keys are the stored API keys, by id. A value that is not a key's
// JSON, or names another id, is a corruption error naming its key.
func (s *Store) Keys() ([]*access.Key, error) {
	var out []*access.Key
	err := s.scan(prefixAPIKey, func(k, v []byte) error {
		var key access.Key
		if err := json.Unmarshal(v, &key); err != nil {
			return corruptionErrorf("API key %q: %v", k, err)
		}
		if id := string(k[len(prefixAPIKey):]); key.ID != id {
			return corruptionErrorf("API key %q says its id is %q", k, key.ID)
		}
		out = append(out, &key)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the API keys: %w", err)
	}
	return out, nil
}
