package store

// DiskMetrics are the database's figures an operator watches (package
// metrics reports them): from pebble's own metrics.
type DiskMetrics struct {
	// L0Files is the number of tables in level 0: many means compactions
	// lag the writes, and pebble stalls writes at 24 (options).
	L0Files int64
	// Compactions is the number of compactions since the store opened.
	Compactions int64
	// DiskBytes is the space the database's files take.
	DiskBytes uint64
}

// DiskMetrics reads the database's figures; the zero value on a closed
// store.
func (s *Store) DiskMetrics() DiskMetrics {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return DiskMetrics{}
	}
	h := s.acquire()
	defer s.release(h)
	m := h.db.Metrics()
	return DiskMetrics{L0Files: m.Levels[0].NumFiles, Compactions: m.Compact.Count, DiskBytes: m.DiskSpaceUsage()}
}
