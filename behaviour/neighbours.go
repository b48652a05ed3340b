package behaviour

// A product's neighbours are the products seen with it, each with how
// often: co-viewed (viewed in one session) and co-bought (bought in one
// order), at most capViewed and capBought of them. When a list is full, a new
// product takes the place of the weakest and inherits its count (the
// space-saving algorithm), so the strongest MaxNeighbours are kept in
// bounded memory and their counts over-estimate by at most the
// weakest's. A product's two lists share one block of the model's
// neighbour arena, co-viewed first.

// neighbour is an entry of a list in 4 bytes: the product id above an
// 8-bit count. When a count would pass maxCount every count of its list
// is halved, which keeps their order and lets recent sightings weigh
// more than old ones.
type neighbour uint32

// maxCount is the highest count an entry holds.
const maxCount = 1<<8 - 1

func newNeighbour(id, count uint32) neighbour { return neighbour(id<<8 | count) }

// id is the neighbour's product id.
func (n neighbour) id() uint32 { return uint32(n) >> 8 }

// count is how often it was seen with the list's product.
func (n neighbour) count() uint32 { return uint32(n) & maxCount }

// capViewed and capBought are how many candidates a list keeps to find
// its strongest MaxNeighbours: a quarter more of the co-viewed, twice as
// many of the co-bought. Pairs bought together are fewer and their
// counts small (most are 1 on a young shop, where a newcomer to a full
// list takes the weakest's count and one more); with 62 co-bought
// candidates instead of 100 the hit rate of BOUGHT_TOGETHER on the
// Instacart orders (aisle eval) fell from 0.324 to 0.286.
const (
	capViewed = MaxNeighbours + MaxNeighbours/4
	capBought = 2 * MaxNeighbours
)

// capOf is the candidates a list keeps: co-bought when bought.
func capOf(bought bool) int {
	if bought {
		return capBought
	}
	return capViewed
}

// neighbourClasses are the capacities of neighbour blocks, each a tenth
// or one above the one before, up to both lists full: a list's block
// moves more often than it would if it doubled (a copy of at most 500
// bytes), and wastes about a twentieth.
var neighbourClasses = func() []int {
	var c []int
	for n := 1; n < capViewed+capBought; n += max(1, n/10) {
		c = append(c, n)
	}
	return append(c, capViewed+capBought)
}()

// lists places a product's neighbour lists in the arena: the block and
// each list's length.
type lists struct {
	ref              uint32
	nViewed, nBought uint8
	class            uint8
}

// neighboursOf is product id's co-bought list when bought, else its
// co-viewed one; it is m's, good until the next fold.
func (m *Model) neighboursOf(id uint32, bought bool) []neighbour {
	l := &m.products.at(int(id)).lists
	b := m.lists.block(l.ref, l.class)
	if bought {
		return b[l.nViewed : l.nViewed+l.nBought]
	}
	return b[:l.nViewed]
}

// halve halves every count of ns, rounding up so none reaches 0.
func halve(ns []neighbour) {
	for i, n := range ns {
		ns[i] = newNeighbour(n.id(), n.count()/2+n.count()%2)
	}
}

// addNeighbour counts one more sighting of product other beside product
// id: bought in one order when bought, else viewed in one session.
func (m *Model) addNeighbour(id, other uint32, bought bool) {
	ns := m.neighboursOf(id, bought)
	weakest := -1
	for i, n := range ns {
		if n.id() == other {
			if n.count() == maxCount {
				halve(ns)
			}
			ns[i]++
			return
		}
		if weakest < 0 || n.count() < ns[weakest].count() {
			weakest = i
		}
	}
	if len(ns) == capOf(bought) {
		if ns[weakest].count() == maxCount {
			halve(ns)
		}
		ns[weakest] = newNeighbour(other, ns[weakest].count()+1)
		return
	}
	l := &m.products.at(int(id)).lists
	n := int(l.nViewed) + int(l.nBought)
	if n == m.lists.classes[l.class] {
		l.ref, l.class = m.lists.grow(l.ref, l.class, n, n+1)
	}
	b := m.lists.block(l.ref, l.class)[:n+1]
	at := int(l.nViewed) // a new co-viewed entry goes last of its list
	if bought {
		at = n
		l.nBought++
	} else {
		l.nViewed++
	}
	copy(b[at+1:], b[at:n])
	b[at] = newNeighbour(other, 1)
}
