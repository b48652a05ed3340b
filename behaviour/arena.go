package behaviour

import (
	"cmp"
	"slices"
	"unsafe"
)

// arena holds many short lists of T in large pages, so a list costs its
// elements, some room to grow and a 4-byte reference: no slice header,
// no allocation of its own, no doubling. A list lives in a block whose
// capacity is one of the arena's classes; a list that outgrows its block
// moves to one of a larger class (grow), and the block it left is handed
// to the next list of that class. Blocks never straddle pages, so a page
// is allocated once and never copied.
type arena[T ~uint32 | ~byte] struct {
	// classes are the blocks' capacities, ascending; class 0 holds
	// nothing (a list with no block).
	classes  []int
	pages    [][]T
	used     int        // elements handed out of the last page
	free     [][]uint32 // released blocks, by class
	released int        // the elements of the released blocks
}

// arenaPageBits: a page holds 65,536 elements, and a reference is the
// page's number above the element's offset in it. The first page starts
// at arenaFirstPage elements and doubles until it is whole, so a small
// website's model stays small; every later page is whole from the
// start.
const (
	arenaPageBits  = 16
	arenaPageSize  = 1 << arenaPageBits
	arenaFirstPage = 256
)

// newArena makes an arena of blocks of the capacities classes (ascending,
// each at most a page), with class 0 of capacity 0 before them.
func newArena[T ~uint32 | ~byte](classes ...int) arena[T] {
	return arena[T]{classes: append([]int{0}, classes...), free: make([][]uint32, len(classes)+1)}
}

// class is the smallest class holding n elements; n is at most the
// largest class's capacity.
func (a *arena[T]) class(n int) uint8 {
	i, _ := slices.BinarySearch(a.classes, n)
	return uint8(i)
}

// alloc is a block of class c: a released one, or new room.
func (a *arena[T]) alloc(c uint8) uint32 {
	if c == 0 {
		return 0
	}
	if f := a.free[c]; len(f) > 0 {
		a.free[c] = f[:len(f)-1]
		a.released -= a.classes[c]
		return f[len(f)-1]
	}
	size := a.classes[c]
	if len(a.pages) == 0 {
		a.pages = append(a.pages, make([]T, max(arenaFirstPage, size)))
	}
	if last := a.pages[len(a.pages)-1]; a.used+size > len(last) {
		if len(last) < arenaPageSize { // the first page, grown: offsets stay
			a.pages[len(a.pages)-1] = append(last, make([]T, min(max(len(last), size), arenaPageSize-len(last)))...)
		}
		if a.used+size > len(a.pages[len(a.pages)-1]) {
			a.pages = append(a.pages, make([]T, arenaPageSize))
			a.used = 0
		}
	}
	ref := uint32(len(a.pages)-1)<<arenaPageBits | uint32(a.used)
	a.used += size
	return ref
}

// block is the room of the block ref of class c.
func (a *arena[T]) block(ref uint32, c uint8) []T {
	if c == 0 {
		return nil
	}
	off, size := int(ref&(arenaPageSize-1)), a.classes[c]
	return a.pages[ref>>arenaPageBits][off : off+size : off+size]
}

// grow moves the first n elements of block (ref, c) to a block of the
// smallest class holding need, and releases the old one.
func (a *arena[T]) grow(ref uint32, c uint8, n, need int) (uint32, uint8) {
	nc := a.class(need)
	nref := a.alloc(nc)
	copy(a.block(nref, nc), a.block(ref, c)[:n])
	a.release(ref, c)
	return nref, nc
}

// release hands back the block ref of class c, which its list no
// longer uses, for the next list of that class.
func (a *arena[T]) release(ref uint32, c uint8) {
	if c != 0 {
		a.free[c] = append(a.free[c], ref)
		a.released += a.classes[c]
	}
}

// wasteful reports whether released blocks hold more than a page and a
// sixteenth of a's room, so compacting is worth its cost.
func (a *arena[T]) wasteful() bool {
	return a.released > arenaPageSize && 32*a.released > len(a.pages)*arenaPageSize
}

// liveBlock names a block in use: where its owner keeps its reference,
// and its class.
type liveBlock struct {
	ref   *uint32
	class uint8
}

// compact moves the blocks live, which must be every block in use, down
// over the released ones, keeping their order, updates their owners'
// references, and drops the pages left empty and the free lists. A block
// never moves up (the blocks packed in order end no later than they did),
// so each is moved once, in place.
func (a *arena[T]) compact(live []liveBlock) {
	slices.SortFunc(live, func(x, y liveBlock) int { return cmp.Compare(*x.ref, *y.ref) })
	page, used := 0, 0
	for _, b := range live {
		size := a.classes[b.class]
		if used+size > arenaPageSize {
			page, used = page+1, 0
		}
		to := uint32(page)<<arenaPageBits | uint32(used)
		if to != *b.ref {
			copy(a.block(to, b.class), a.block(*b.ref, b.class))
			*b.ref = to
		}
		used += size
	}
	if len(live) == 0 {
		page = -1
	}
	clear(a.pages[page+1:])
	a.pages, a.used = a.pages[:page+1], used
	a.free, a.released = make([][]uint32, len(a.classes)), 0
}

// clone is a deep copy of a's blocks, to be read, not grown.
func (a *arena[T]) clone() arena[T] {
	c := arena[T]{classes: a.classes, pages: make([][]T, len(a.pages)), used: a.used}
	for i, p := range a.pages {
		c.pages[i] = slices.Clone(p)
	}
	return c
}

// bytes is the room a takes: its pages and free lists.
func (a *arena[T]) bytes() int {
	var n int
	for _, p := range a.pages {
		n += len(p) * int(unsafe.Sizeof(p[0]))
	}
	for _, f := range a.free {
		n += 4 * cap(f)
	}
	return n
}
