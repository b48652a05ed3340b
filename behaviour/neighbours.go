package behaviour

// neighbours are the products seen with one product, each with how often
// (viewed in one session, or bought in one order), at most 2 ×
// MaxNeighbours of them: when full, a new one takes the place of the
// weakest, inheriting its count (the space-saving algorithm), so the
// strongest MaxNeighbours are kept with bounded memory and their counts
// over-estimate by at most the weakest's.
type neighbours []neighbour

type neighbour struct {
	id    uint32
	count uint32
}

// capNeighbours is how many candidates a product keeps to find its
// strongest MaxNeighbours.
const capNeighbours = 2 * MaxNeighbours

// add counts one more sighting of id beside the list's product.
func (ns neighbours) add(id uint32) neighbours {
	weakest := -1
	for i := range ns {
		if ns[i].id == id {
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
		return append(ns, neighbour{id, 1})
	}
	ns[weakest] = neighbour{id, ns[weakest].count + 1}
	return ns
}
