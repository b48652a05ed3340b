package live

import (
	"strings"
	"testing"

	"github.com/aisle-search/aisle/config"
)

// TestConfigEntries diffs configurations resource by resource: what
// changed is named member by member (a version's as versions[id].m), a
// page's or box's template goes in a design entry, publishing is a
// keypoint, removing a draft or a resource an endpoint, and an
// unchanged resource writes nothing.
func TestConfigEntries(t *testing.T) {
	base := func() *config.File {
		return &config.File{Websites: []config.Website{{
			UUID: "w1", Name: "Shop", CompanyID: "acme",
			IndexedFields: []config.IndexedField{{Name: "brand", Type: config.TypeKeyword}},
			Search: []config.SearchConfig{{Key: "s", Versions: []config.SearchVersion{
				{ID: 1, Status: config.StatusLive, Fields: []config.SearchField{{Name: "title", Weight: 1}}},
				{ID: 2, Status: config.StatusDraft, Fields: []config.SearchField{{Name: "title", Weight: 2}}},
			}}},
			Pages: []config.Page{{Key: "p", Versions: []config.PageVersion{{ID: 1, Status: config.StatusLive}}}},
			Boxes: []config.Box{{Key: "b", Count: 4}},
		}}}
	}
	l := &Writer{by: Actor{Name: "k", Session: "s1", Events: []string{"e"}}}
	for _, c := range []struct {
		name   string
		change func(f *config.File)
		want   string // type source changed keypoint endpoint; entries joined by " | "
	}{
		{"nothing", func(f *config.File) {}, ""},
		{"a website's name", func(f *config.File) { f.Websites[0].Name = "Shop 2" }, "WEBSITE w1 name - -"},
		{"indexed fields", func(f *config.File) { f.Websites[0].IndexedFields = nil }, "FEED_CONFIG indexedFields indexedFields - -"},
		{"a version's member", func(f *config.File) {
			f.Websites[0].Search[0].Versions[1].Synonyms = []config.Synonym{{Terms: []string{"a", "b"}}}
		},
			"SEARCH_CONFIG s versions[2].synonyms - -"},
		{"publishing", func(f *config.File) {
			f.Websites[0].Search[0].Versions[0].Status, f.Websites[0].Search[0].Versions[1].Status = config.StatusDraft, config.StatusLive
		}, "SEARCH_CONFIG s versions[1].status,versions[2].status keypoint -"},
		{"a draft removed", func(f *config.File) { f.Websites[0].Search[0].Versions = f.Websites[0].Search[0].Versions[:1] },
			"SEARCH_CONFIG s versions[2] - endpoint"},
		{"a configuration added", func(f *config.File) {
			f.Websites[0].Search = append(f.Websites[0].Search, config.SearchConfig{Key: "t", Versions: []config.SearchVersion{{ID: 1, Status: config.StatusLive}}})
		}, "SEARCH_CONFIG t key,versions[1] keypoint -"},
		{"a page's template and filters", func(f *config.File) {
			f.Websites[0].Pages[0].Versions[0].Template = "<b>x</b>"
			f.Websites[0].Pages[0].Versions[0].Sorting = []string{"price asc"}
		}, "PAGES_DESIGN p versions[1].template - - | PAGES_CONFIG p versions[1].sorting - -"},
		{"a box's template only", func(f *config.File) { f.Websites[0].Boxes[0].Template = "x" }, "RECOM_DESIGN b template - -"},
		{"a box removed", func(f *config.File) { f.Websites[0].Boxes = nil }, "RECOM_CONFIG b count,key - endpoint"},
		{"a website removed", func(f *config.File) { f.Websites = nil },
			"WEBSITE w1 companyId,name,uuid - endpoint | FEED_CONFIG indexedFields indexedFields - - | SEARCH_CONFIG s key,versions[1],versions[2] - endpoint | PAGES_CONFIG p key,versions[1] - endpoint | RECOM_CONFIG b count,key - endpoint"},
	} {
		t.Run(c.name, func(t *testing.T) {
			now := base()
			c.change(now)
			var got []string
			for _, e := range l.configEntries(base(), now) {
				kp, ep := "-", "-"
				if e.Keypoint {
					kp = "keypoint"
				}
				if e.Endpoint {
					ep = "endpoint"
				}
				got = append(got, strings.Join([]string{e.ResourceType, e.SourceID, strings.Join(e.ChangedFields, ","), kp, ep}, " "))
				if e.Session == nil || e.Session.EntityName != "k" || e.CompanyID != "acme" || e.SequenceKey != e.ResourceType+":w1:"+e.SourceID {
					t.Errorf("entry %+v: session, company or sequence key wrong", e)
				}
			}
			if g := strings.Join(got, " | "); g != c.want {
				t.Errorf("got  %s\nwant %s", g, c.want)
			}
		})
	}
}
