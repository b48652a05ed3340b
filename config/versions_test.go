package config

import "testing"

// TestAddDraft: a draft takes the id after the highest, beside the live
// version, and a copy that shared the versions keeps its own.
func TestAddDraft(t *testing.T) {
	w := Default(NewUUID()).Websites[0]
	s, ok := w.SearchConfig(DefaultKey)
	if !ok {
		t.Fatal("no default search configuration")
	}
	s.Versions = append(make([]SearchVersion, 0, 8), append(s.Versions, SearchVersion{ID: 7, Status: StatusDraft})...)
	other := *s // shares the versions, with room to spare
	id := s.AddDraft(SearchVersion{ID: 99, Status: StatusLive, Fields: []SearchField{{Name: "title", Weight: 2}}})
	if id != 8 || len(s.Versions) != 3 || s.Versions[2].Status != StatusDraft || s.Versions[2].ID != 8 {
		t.Fatalf("draft %d: %+v", id, s.Versions)
	}
	if live, ok := s.Live(); !ok || live.ID != 1 {
		t.Errorf("live version %+v after a draft", live)
	}
	other.AddDraft(SearchVersion{Fields: []SearchField{{Name: "brand", Weight: 9}}})
	if f := s.Versions[2].Fields; len(f) != 1 || f[0].Name != "title" {
		t.Errorf("a draft added to a copy replaced this one's: %+v", s.Versions[2])
	}
	if _, ok := w.SearchConfig("nope"); ok {
		t.Error("an unknown key found")
	}
}
