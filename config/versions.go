package config

// SearchConfig is w's search configuration key.
func (w *Website) SearchConfig(key string) (*SearchConfig, bool) {
	for i := range w.Search {
		if w.Search[i].Key == key {
			return &w.Search[i], true
		}
	}
	return nil, false
}

// Live is s's live version; Validate makes sure a loaded configuration
// has one.
func (s *SearchConfig) Live() (*SearchVersion, bool) {
	for i := range s.Versions {
		if s.Versions[i].Status == StatusLive {
			return &s.Versions[i], true
		}
	}
	return nil, false
}

// AddDraft appends v to s as a draft version, with the id after s's
// highest, and returns that id. The versions are copied first, so a
// shallow copy of s that shared them keeps its own.
func (s *SearchConfig) AddDraft(v SearchVersion) int {
	id := 0
	for _, o := range s.Versions {
		id = max(id, o.ID)
	}
	v.ID, v.Status = id+1, StatusDraft
	s.Versions = append(s.Versions[:len(s.Versions):len(s.Versions)], v)
	return v.ID
}
