package behaviour

import "github.com/aisle-search/aisle/events"

// CampaignStats are a retail media campaign's counts: the sponsored
// products the server showed for it (impression events) and the clicks
// on them (click events naming its retailMediaCampaignId).
type CampaignStats struct {
	Impressions uint64 `json:"impressions"`
	Clicks      uint64 `json:"clicks"`
}

// maxCampaigns bounds the campaigns a model counts: click events name
// campaigns, and a visitor's browser could name any.
const maxCampaigns = 4096

// countCampaign folds e's impression or click of a sponsored product;
// m.mu is held for writing.
func (m *Model) countCampaign(e *events.Event) {
	if e.Shown == nil || e.Shown.Campaign == "" {
		return
	}
	s, ok := m.campaigns[e.Shown.Campaign]
	if !ok {
		if len(m.campaigns) >= maxCampaigns {
			return
		}
		if m.campaigns == nil {
			m.campaigns = map[string]CampaignStats{}
		}
	}
	if e.Kind == events.Impression {
		s.Impressions++
	} else {
		s.Clicks++
	}
	m.campaigns[e.Shown.Campaign] = s
}

// Campaign is campaign id's counts; zero for one never shown.
func (m *Model) Campaign(id string) CampaignStats {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.campaigns[id]
}
