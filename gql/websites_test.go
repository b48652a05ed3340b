package gql_test

import (
	"strings"
	"testing"
)

// TestWebsiteSettings: a website's settings change by the members given,
// its indexed fields are replaced (and a facet the search configuration
// keeps on a removed field refuses the change, naming it), websites are
// added and deleted, and recommendation boxes and campaigns are upserted
// and deleted; each change is served to the next request.
func TestWebsiteSettings(t *testing.T) {
	s := twoShops(t)
	d := s.do(t, operator, `mutation { updateWebsite(uuid: "`+siteA+`", input: {name: "Shop A2", requireApiKey: false}) { name language requireApiKey } }`, nil).ok(t)
	if w := d["updateWebsite"].(map[string]any); w["name"] != "Shop A2" {
		t.Errorf("updateWebsite answered %v", w)
	}
	bad := s.do(t, operator, `mutation { updateWebsite(uuid: "`+siteA+`", input: {language: "klingon"}) { name } }`, nil)
	if bad.code() != "BAD_USER_INPUT" || !strings.Contains(bad.Errors[0].Message, "klingon") {
		t.Errorf("an unknown language: %s", bad.Raw)
	}
	bad = s.do(t, operator, `mutation { setIndexedFields(uuid: "`+siteA+`", fields: [{name: "price", type: NUMBER}]) { uuid } }`, nil)
	if bad.code() != "BAD_USER_INPUT" || !strings.Contains(bad.Errors[0].Message, "brand") {
		t.Errorf("dropping a field a facet uses: %s", bad.Raw)
	}

	d = s.do(t, operator, `mutation { createWebsite(input: {name: "Shop C", companyId: "acme", language: "da"}) { uuid name companyId language } }`, nil).ok(t)
	c := d["createWebsite"].(map[string]any)
	if c["companyId"] != "acme" || len(c["uuid"].(string)) != 36 {
		t.Fatalf("createWebsite answered %v", c)
	}
	d = s.do(t, operator, `{ websites { name } }`, nil).ok(t)
	if n := len(d["websites"].([]any)); n != 3 {
		t.Errorf("%d websites served after adding one, want 3", n)
	}

	// Boxes.
	box := `{key: "gql-top", count: 4, sources: [{type: "TOP", limit: 4}]}`
	s.do(t, operator, `mutation { upsertRecommendationBox(websiteUuid: "`+siteA+`", box: `+box+`) { key count } }`, nil).ok(t)
	d = s.do(t, operator, `{ website(uuid: "`+siteA+`") { recommendationBoxes { key count sources { type limit } } } }`, nil).ok(t)
	if !strings.Contains(mustJSON(d), `"gql-top"`) {
		t.Errorf("the box is not listed: %v", d)
	}
	bad = s.do(t, operator, `mutation { upsertRecommendationBox(websiteUuid: "`+siteA+`", box: {key: "bad", count: 4, sources: [{type: "NOPE"}]}) { key } }`, nil)
	if bad.code() != "BAD_USER_INPUT" || !strings.HasPrefix(bad.Errors[0].Message, "box.sources[0]") {
		t.Errorf("a box of an unknown source: %s", bad.Raw)
	}
	// Campaigns.
	s.do(t, operator, `mutation { upsertCampaign(websiteUuid: "`+siteA+`", campaign: {id: "c-b", state: "ACTIVE", products: ["P02"], positions: [2]}) { id } }`, nil).ok(t)
	d = s.do(t, operator, `{ website(uuid: "`+siteA+`") { campaigns { id state } campaignStatistics { campaignId impressions clicks } } }`, nil).ok(t)
	if got := mustJSON(d); !strings.Contains(got, `"c-b"`) || !strings.Contains(got, `"campaignId":"c-b"`) {
		t.Errorf("the campaign and its counters are not listed: %s", got)
	}
	bad = s.do(t, operator, `mutation { upsertCampaign(websiteUuid: "`+siteA+`", campaign: {id: "c-c", state: "SOMETIMES", products: ["P02"], positions: [2]}) { id } }`, nil)
	if bad.code() != "BAD_USER_INPUT" || !strings.HasPrefix(bad.Errors[0].Message, "campaign.") {
		t.Errorf("a campaign of an unknown state: %s", bad.Raw)
	}
	s.do(t, operator, `mutation { deleteCampaign(websiteUuid: "`+siteA+`", key: "c-b") }`, nil).ok(t)

	s.do(t, operator, `mutation { deleteRecommendationBox(websiteUuid: "`+siteA+`", key: "gql-top") }`, nil).ok(t)
	if a := s.do(t, operator, `mutation { deleteRecommendationBox(websiteUuid: "`+siteA+`", key: "gql-top") }`, nil); a.code() != "NOT_FOUND" {
		t.Errorf("deleting a box twice: %s", a.Raw)
	}

	// Deleting a website stops serving it.
	s.do(t, operator, `mutation ($u: ID!) { deleteWebsite(uuid: $u) }`, map[string]any{"u": c["uuid"]}).ok(t)
	d = s.do(t, operator, `{ websites { name } }`, nil).ok(t)
	if n := len(d["websites"].([]any)); n != 2 {
		t.Errorf("%d websites served after deleting one, want 2", n)
	}
}
