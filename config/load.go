package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goccy/go-json"

	"github.com/aisle-search/aisle/analysis"
)

// Load reads and validates a configuration file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return f, nil
}

// Parse decodes and validates a configuration document; unknown members,
// and anything after the document but white space, are errors so a
// misspelt setting is caught rather than ignored.
func Parse(data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("decode: data after the configuration's closing }: a file holds one JSON document")
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// decodeError says where in data a decode error is: the line and column
// of a syntax error, or of an unknown member's first occurrence, and that
// the document ends early.
func decodeError(data []byte, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("decode: %s: %w", position(data, int(se.Offset)), err)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return fmt.Errorf("decode: the file ends before its JSON document does: %w", err)
	}
	// goccy/go-json reports an unknown member only as text ("json:
	// unknown field \"x\""), with no type to match: the member's quoted
	// name is read from it, to point at its first occurrence as a key.
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		if at := bytes.Index(data, []byte(msg[i+len("unknown field "):])); at >= 0 {
			return fmt.Errorf("decode: %s: %w", position(data, at), err)
		}
	}
	return fmt.Errorf("decode: %w", err)
}

// position is "line L, column C" of byte offset off in data, both from 1.
func position(data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// Validate checks the whole file and names the first problem by its path.
func (f *File) Validate() error {
	if len(f.Websites) == 0 {
		return fmt.Errorf("websites: at least one website is required")
	}
	uuids := map[string]int{}
	keys := map[string]int{}     // search configuration key → website
	boxKeys := map[string]int{}  // box key → website
	pageKeys := map[string]int{} // page key → website
	for i := range f.Websites {
		w := &f.Websites[i]
		if err := w.Validate(); err != nil {
			return fmt.Errorf("websites[%d]: %w", i, err)
		}
		if j, ok := uuids[w.UUID]; ok {
			return fmt.Errorf("websites[%d].uuid: %s is websites[%d]'s too", i, w.UUID, j)
		}
		uuids[w.UUID] = i
		for k := range w.Search {
			if j, ok := keys[w.Search[k].Key]; ok {
				return fmt.Errorf("websites[%d].searchConfigs[%d]: key %q is used by websites[%d] too: a key names one website's configuration across the server", i, k, w.Search[k].Key, j)
			}
			keys[w.Search[k].Key] = i
		}
		for k := range w.Boxes {
			if j, ok := boxKeys[w.Boxes[k].Key]; ok {
				return fmt.Errorf("websites[%d].boxes[%d]: key %q is used by websites[%d] too: a box key names one website's box across the server", i, k, w.Boxes[k].Key, j)
			}
			boxKeys[w.Boxes[k].Key] = i
		}
		for k := range w.Pages {
			if j, ok := pageKeys[w.Pages[k].Key]; ok {
				return fmt.Errorf("websites[%d].pages[%d]: key %q is used by websites[%d] too: a page key names one website's page across the server", i, k, w.Pages[k].Key, j)
			}
			pageKeys[w.Pages[k].Key] = i
		}
	}
	return nil
}

// Field finds an indexed field by name.
func (w *Website) Field(name string) (IndexedField, bool) {
	for _, f := range w.IndexedFields {
		if f.Name == name {
			return f, true
		}
	}
	return IndexedField{}, false
}

// Validate checks a website's fields and search configurations.
func (w *Website) Validate() error {
	if err := checkUUID(w.UUID); err != nil {
		return fmt.Errorf("uuid: %w", err)
	}
	if err := CheckCompany(w.CompanyID); err != nil {
		return fmt.Errorf("companyId: %w", err)
	}
	if w.Language != "" {
		if _, err := analysis.ParseLanguage(w.Language); err != nil {
			return fmt.Errorf("language: %w", err)
		}
	}
	if w.RequireAPIKey && len(w.APIKeys) == 0 {
		return fmt.Errorf("apiKeys: requireApiKey is set but no key is listed")
	}
	for i, o := range w.AllowedOrigins {
		if err := checkOrigin(o); err != nil {
			return fmt.Errorf("allowedOrigins[%d]: %w", i, err)
		}
	}
	seen := map[string]bool{}
	for i, f := range w.IndexedFields {
		if f.Name == "" {
			return fmt.Errorf("indexedFields[%d].name: is required", i)
		}
		if seen[f.Name] {
			return fmt.Errorf("indexedFields[%d]: %q listed twice", i, f.Name)
		}
		seen[f.Name] = true
		switch f.Type {
		case TypeKeyword, TypeNumber, TypeBoolean, TypeDate, TypeHierarchy, TypeText:
		default:
			return fmt.Errorf("indexedFields[%d].type: unknown type %q (keyword, number, boolean, date, hierarchy, text)", i, f.Type)
		}
		if f.Sortable && (f.Type == TypeHierarchy || f.Type == TypeKeyword || f.Type == TypeBoolean) {
			return fmt.Errorf("indexedFields[%d]: a %s field cannot be sortable", i, f.Type)
		}
	}
	keys := map[string]bool{}
	for i := range w.Search {
		s := &w.Search[i]
		if s.Key == "" {
			return fmt.Errorf("searchConfigs[%d].key: is required", i)
		}
		if keys[s.Key] {
			return fmt.Errorf("searchConfigs[%d]: key %q used twice", i, s.Key)
		}
		keys[s.Key] = true
		if err := w.validateSearch(s); err != nil {
			return fmt.Errorf("searchConfigs[%d] (%s): %w", i, s.Key, err)
		}
	}
	boxes := map[string]bool{}
	for i := range w.Boxes {
		b := &w.Boxes[i]
		if err := b.validate(); err != nil {
			return fmt.Errorf("boxes[%d]: %w", i, err)
		}
		if boxes[b.Key] {
			return fmt.Errorf("boxes[%d]: key %q used twice", i, b.Key)
		}
		boxes[b.Key] = true
	}
	pages := map[string]bool{}
	for i := range w.Pages {
		p := &w.Pages[i]
		if err := w.validatePage(p); err != nil {
			return fmt.Errorf("pages[%d] (%s): %w", i, p.Key, err)
		}
		if pages[p.Key] {
			return fmt.Errorf("pages[%d]: key %q used twice", i, p.Key)
		}
		pages[p.Key] = true
	}
	campaigns := map[string]bool{}
	for i := range w.Campaigns {
		c := &w.Campaigns[i]
		if err := c.validate(); err != nil {
			return fmt.Errorf("campaigns[%d] (%s): %w", i, c.ID, err)
		}
		if campaigns[c.ID] {
			return fmt.Errorf("campaigns[%d]: id %q used twice", i, c.ID)
		}
		campaigns[c.ID] = true
	}
	return nil
}

func (w *Website) validateSearch(s *SearchConfig) error {
	if err := CheckPersonalization(s.Personalization); err != nil {
		return err
	}
	return checkVersions(len(s.Versions), func(i int) (int, string) { return s.Versions[i].ID, s.Versions[i].Status },
		func(i int) error { return w.validateVersion(&s.Versions[i]) })
}

// checkVersions checks what a search configuration's and a page's n
// versions share: ids used once, each status live or draft, exactly one
// live, and each version's own members (check).
func checkVersions(n int, version func(i int) (id int, status string), check func(i int) error) error {
	live := 0
	ids := map[int]bool{}
	for i := range n {
		id, status := version(i)
		if ids[id] {
			return fmt.Errorf("versions[%d]: id %d used twice", i, id)
		}
		ids[id] = true
		switch status {
		case StatusLive:
			live++
		case StatusDraft:
		default:
			return fmt.Errorf("versions[%d].status: must be %q or %q, got %q", i, StatusLive, StatusDraft, status)
		}
		if err := check(i); err != nil {
			return fmt.Errorf("versions[%d]: %w", i, err)
		}
	}
	if live != 1 {
		return fmt.Errorf("versions: exactly one must be live, found %d", live)
	}
	return nil
}

var searchable = map[string]bool{"title": true, "brand": true, "hierarchies": true, "keywords": true, "description": true, "productNumber": true, "variantProductNumbers": true}

func (w *Website) validateVersion(v *SearchVersion) error {
	if len(v.Fields) == 0 {
		return fmt.Errorf("fields: at least one searchable field is required")
	}
	for i, f := range v.Fields {
		ok := searchable[f.Name] || strings.HasPrefix(f.Name, "extraData.") || strings.HasPrefix(f.Name, "extraDataList.") || f.Name == "extraData"
		if !ok {
			return fmt.Errorf("fields[%d].name: %q is not a searchable text field", i, f.Name)
		}
		if f.Weight < 0 || f.Weight > 100 {
			return fmt.Errorf("fields[%d].weight: must be between 0 and 100, got %v", i, f.Weight)
		}
		if b := f.LengthNormalization; b != nil && !(*b >= 0 && *b <= 1) {
			return fmt.Errorf("fields[%d].lengthNormalization: must be between 0 and 1, got %v", i, *b)
		}
	}
	if err := w.validateFacets("facets", v.Facets); err != nil {
		return err
	}
	if err := w.validateSorting("sorting", v.Sorting); err != nil {
		return err
	}
	for i, r := range v.Redirects {
		if len(r.Queries) == 0 || r.URL == "" {
			return fmt.Errorf("redirects[%d]: queries and url are required", i)
		}
	}
	for i, s := range v.Synonyms {
		if len(s.Terms) == 0 || s.From == "" && len(s.Terms) < 2 {
			return fmt.Errorf("synonyms[%d]: needs from and terms, or at least two terms", i)
		}
	}
	for _, wt := range []struct {
		name string
		set  *float64
	}{{"proximity", v.Proximity}, {"exactForms", v.ExactForms}} { // the title re-ranking's weights
		if wt.set != nil && !(*wt.set >= 0 && *wt.set <= 1) {
			return fmt.Errorf("%s: %v, want a weight between 0 (off) and 1", wt.name, *wt.set)
		}
	}
	if k := v.K1; k != nil && !(*k > 0 && *k <= 10) {
		return fmt.Errorf("k1: %v, want a saturation above 0, at most 10", *k)
	}
	return w.validateListing(v.Devices, v.MaxFacetValues, v.Boosts)
}

// validateListing checks what a search version and a page version
// share beside their facets and sorting: device overrides, the facet
// values' bound and the boosts.
func (w *Website) validateListing(devices map[string]Device, maxFacetValues int, boosts *Boosts) error {
	if err := w.validateDevices(devices); err != nil {
		return err
	}
	if maxFacetValues < 0 {
		return fmt.Errorf("maxFacetValues: must not be negative")
	}
	if boosts != nil {
		return w.validateBoosts(boosts)
	}
	return nil
}

// validateDevices checks a version's device overrides.
func (w *Website) validateDevices(devices map[string]Device) error {
	for name, d := range devices {
		if name != "DESKTOP" && name != "MOBILE" {
			return fmt.Errorf("devices: unknown device %q (DESKTOP, MOBILE)", name)
		}
		if err := w.validateFacets("devices."+name+".facets", d.Facets); err != nil {
			return err
		}
		if err := w.validateSorting("devices."+name+".sorting", d.Sorting); err != nil {
			return err
		}
	}
	return nil
}

func (w *Website) validateFacets(path string, facets []Facet) error {
	for i, fc := range facets {
		f, ok := w.Field(fc.Field)
		if !ok {
			return fmt.Errorf("%s[%d].field: %q is not an indexed field", path, i, fc.Field)
		}
		want := map[FieldType]FacetType{TypeKeyword: FacetList, TypeHierarchy: FacetList, TypeBoolean: FacetBoolean, TypeNumber: FacetRange, TypeDate: FacetRange}[f.Type]
		if want == "" {
			return fmt.Errorf("%s[%d].field: %q is a %s field, which has no facet", path, i, fc.Field, f.Type)
		}
		if fc.Type != want {
			return fmt.Errorf("%s[%d].type: a %s field takes a %s facet, got %q", path, i, f.Type, want, fc.Type)
		}
	}
	return nil
}

func (w *Website) validateSorting(path string, opts []SortOption) error {
	for i, s := range opts {
		f, ok := w.Field(s.Field)
		if !ok || !f.Sortable {
			return fmt.Errorf("%s[%d].field: %q is not an indexed sortable field", path, i, s.Field)
		}
	}
	return nil
}
