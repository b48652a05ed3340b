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

// CheckSearchVersion checks one search version's own members against w
// (its indexed fields), as Validate checks each of w's: the error names
// the member relative to the version ("facets[0].field: ..."), for a
// client that sends one version.
func (w *Website) CheckSearchVersion(v *SearchVersion) error { return w.validateVersion(v) }

// CheckPageVersion is CheckSearchVersion for a page's version.
func (w *Website) CheckPageVersion(v *PageVersion) error { return w.validatePageVersion(v) }

// Check checks a box's own members as Validate does, naming a member
// relative to the box ("sources[0].type: ...").
func (b *Box) Check() error { return b.validate() }

// Check checks a campaign's own members as Validate does, naming a
// member relative to the campaign.
func (c *Campaign) Check() error { return c.validate() }
