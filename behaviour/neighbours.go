package behaviour

// neighbours are the products seen with one product, each with how often
// (viewed in one session, or bought in one order), at most 2 ×
// MaxNeighbours of them: when full, a new one takes the place of the
// weakest, inheriting its count (the space-saving algorithm), so the
// strongest MaxNeighbours are kept with bounded memory and their counts
// over-estimate by at most the weakest's. An entry takes 6 bytes: when a
// count would pass 65,535 every count of the list is halved, which keeps
// their order and lets recent sightings weigh more than old ones.
type neighbours []neighbour

// neighbour is a product id in two halves (the struct stays 6 bytes)
// and its count.
type neighbour struct {
	idLo, idHi, count uint16
}

func newNeighbour(id uint32, count uint16) neighbour {
	return neighbour{uint16(id), uint16(id >> 16), count}
}

// id is the neighbour's product id.
func (n neighbour) id() uint32 { return uint32(n.idHi)<<16 | uint32(n.idLo) }

// maxCount is the highest count an entry holds.
const maxCount = 1<<16 - 1

// halve halves every count of ns, rounding up so none reaches 0.
func (ns neighbours) halve() {
	for i := range ns {
		ns[i].count = ns[i].count/2 + ns[i].count%2
	}
}

// capNeighbours is how many candidates a product keeps to find its
// strongest MaxNeighbours.
const capNeighbours = 2 * MaxNeighbours

// add counts one more sighting of id beside the list's product.
func (ns neighbours) add(id uint32) neighbours {
	weakest := -1
	for i := range ns {
		if ns[i].id() == id {
			if ns[i].count == maxCount {
				ns.halve()
			}
			ns[i].count++
			return ns
		}
		if weakest < 0 || ns[i].count < ns[weakest].count {
			weakest = i
		}
	}
	if len(ns) < capNeighbours {
		if len(ns) == cap(ns) { // grown by a quarter, not doubled: most lists stay short
			grown := make(neighbours, len(ns), min(len(ns)+len(ns)/4+4, capNeighbours))
			copy(grown, ns)
			ns = grown
		}
		return append(ns, newNeighbour(id, 1))
	}
	if ns[weakest].count == maxCount {
		ns.halve()
	}
	ns[weakest] = newNeighbour(id, ns[weakest].count+1)
	return ns
}
