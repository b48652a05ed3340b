package live

import (
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Snapshots keeps a data directory's behaviour snapshots current while
// it is served: it saves them (BehaviourStore.Snapshot) and then compacts
// the event log they cover (BehaviourStore.Compact) every Every, once soon
// after a start that folded AfterReplay events or more (so a crash does
// not fold them all again), and once at Close, after the collector has
// committed its last events, so the next start folds none.
type Snapshots struct {
	bs    *BehaviourStore
	log   *slog.Logger
	every time.Duration
	stop  chan struct{}
	wg    sync.WaitGroup
}

// SnapshotOptions are Snapshots' settings.
type SnapshotOptions struct {
	// Every is how often the snapshots are saved; 0 means 10 minutes.
	Every time.Duration
	// Folded is how many events the start folded (BehaviourStore.Replay);
	// AfterReplay or more saves the snapshots at once. AfterReplay 0
	// means 1,000,000.
	Folded, AfterReplay int
	// Log reports each save and compaction; nil means slog.Default.
	Log *slog.Logger
}

// StartSnapshots starts saving bs's snapshots as opt says; Close stops
// it.
func StartSnapshots(bs *BehaviourStore, opt SnapshotOptions) *Snapshots {
	if opt.Every <= 0 {
		opt.Every = 10 * time.Minute
	}
	if opt.AfterReplay <= 0 {
		opt.AfterReplay = 1_000_000
	}
	if opt.Log == nil {
		opt.Log = slog.Default()
	}
	s := &Snapshots{bs: bs, log: opt.Log, every: opt.Every, stop: make(chan struct{})}
	if opt.Folded >= opt.AfterReplay {
		s.wg.Go(func() { s.save(fmt.Sprintf("%d events folded at start", opt.Folded)) })
	}
	s.wg.Go(s.loop)
	return s
}

// loop saves every s.every until Close.
func (s *Snapshots) loop() {
	tick := time.NewTicker(s.every)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.save("periodic")
		}
	}
}

// Close stops the periodic saves, waits for one under way, and saves a
// last time: call it once no event is collected any more.
func (s *Snapshots) Close() {
	close(s.stop)
	s.wg.Wait()
	s.save("shutting down")
}

// save saves the snapshots and compacts the log they cover; a failure
// is logged (the next start folds those events again) and does not stop
// the server.
func (s *Snapshots) save(why string) {
	start := time.Now()
	saved, err := s.bs.Snapshot()
	if err != nil {
		s.log.Warn("behaviour snapshot failed: the next start folds the events again", "err", err)
		return
	}
	if saved > 0 {
		s.log.Info("behaviour snapshot saved", "websites", saved, "why", why, "took", time.Since(start).Round(time.Millisecond),
			"memory", fmt.Sprintf("%.1f MB", float64(s.bs.bhv.Bytes())/1e6))
	}
	start = time.Now()
	if removed, err := s.bs.Compact(start); err != nil {
		s.log.Warn("event log compaction failed: the entries stay until the next snapshot", "err", err)
	} else if removed > 0 {
		s.log.Info("event log compacted", "entries", removed, "took", time.Since(start).Round(time.Millisecond))
	}
}
