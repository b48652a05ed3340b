package engine

import (
	"hash/maphash"
	"sync/atomic"
	"time"

	"github.com/aisle-search/aisle/behaviour"
)

// profileMaxAge is how long a visitor's profile is reused while their
// history is unchanged (behaviour.Model.Mark): a search as you type
// sends several a second, all read one profile; the visitor's next
// event makes it anew, and the products related to theirs, which other
// visitors' events move, are at most this old.
const profileMaxAge = 10 * time.Second

// profileSlots is the size of a generation's profile cache, in sets of
// profileWays: a visitor's hash picks a set, and a new profile takes
// the set's oldest slot.
const (
	profileSlots = 4096
	profileWays  = 4
)

// profileCache keeps the profiles made lately on one generation, by
// visitor and personalization: at most profileSlots profiles of a few
// hundred bytes each.
type profileCache struct {
	seed  maphash.Seed
	slots [profileSlots]atomic.Pointer[cachedProfile]
}

// cachedProfile is a profile, whose, for which weights, and when made.
type cachedProfile struct {
	user string
	w    *personalWeights
	mark uint64 // of the history it was made from
	at   time.Time
	p    *profile // nil: the visitor has none
}

func newProfileCache() *profileCache { return &profileCache{seed: maphash.MakeSeed()} }

// profile is visitor user's profile in m on g for weights w as of now,
// made again when the visitor's history changed or the cached one is
// older than profileMaxAge; nil for a visitor m does not know.
func (g *Generation) profile(m *behaviour.Model, user string, w *personalWeights, now time.Time) *profile {
	c := g.profiles
	if c == nil {
		return g.profileOf(m, user, w)
	}
	mark, ok := m.Mark(user)
	if !ok {
		return nil
	}
	set := c.slots[maphash.String(c.seed, user)%(profileSlots/profileWays)*profileWays:][:profileWays]
	oldest := 0
	for i := range set {
		cp := set[i].Load()
		if cp == nil {
			oldest = i
			continue
		}
		if cp.user == user && cp.w == w && cp.mark == mark {
			if age := now.Sub(cp.at); age >= 0 && age < profileMaxAge {
				return cp.p
			}
		}
		if o := set[oldest].Load(); o != nil && cp.at.Before(o.at) {
			oldest = i
		}
	}
	p := g.profileOf(m, user, w)
	set[oldest].Store(&cachedProfile{user: user, w: w, mark: mark, at: now, p: p})
	return p
}
