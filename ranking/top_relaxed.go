package ranking

// A relaxed search (Match: too few products hold every word) scores each
// product by its words plus relaxedBonus for each word it matches, so it
// is never read from the lists, with one exception: when every word but
// one has no route at all (a word the catalog does not hold, nor any
// typo of it: "black caabniet"), every candidate matches that one word
// and nothing else, and its score is that word's alone plus one bonus.
// Its page is then Top's page of that word, the bonus added: the same
// docs and scores to the bit as ScoreBM25F's relaxed scores give.

// TopRelaxed is Top for a relaxed search of q whose words but one have
// no route; ok is false for any other search, or when Top cannot answer.
// order is the segment's key order (Segment.Order), which breaks the
// ties the bonus's rounding makes.
func (imp *Impacts) TopRelaxed(q *Query, cand Candidates, p *Params, boost []float32, bo *BoostOrder, k int, dst []Hit) ([]Hit, bool) {
	live := -1
	for i := range q.Words {
		if len(q.Words[i].Exp) == 0 && len(q.Words[i].Phrases) == 0 {
			continue
		}
		if live >= 0 {
			return dst, false // two words with routes: candidates match one or both
		}
		live = i
	}
	if live < 0 || q.Words[live].Stop || len(q.Words[live].Phrases) > 0 {
		return dst, false // a stop word counts no bonus; phrases are not read from lists
	}
	one := *q
	one.Words = q.Words[live : live+1]
	// Adding the bonus rounds: scores apart may become one, and equal
	// scores go in key order, so a doc past the page may come into it.
	// More hits are read than the page holds, until one past it scores
	// less than its last once both are rounded: every doc not read then
	// scores less too, and the page is the best k of those read.
	want := min(2*k+16, maxTop)
	hits, ok := imp.Top(&one, cand, p, boost, bo, want, dst)
	if !ok || len(hits) < k {
		return dst, false
	}
	for i := range hits {
		hits[i].Score += relaxedBonus
	}
	if len(hits) == want { // there may be more: cut where the rounded scores fall
		last := hits[k-1].Score
		j := k
		for j < len(hits) && hits[j].Score == last {
			j++
		}
		if j == len(hits) {
			return dst, false // every doc read ties the page's last
		}
		hits = hits[:j]
	}
	h := topHeap{order: imp.seg.Order(), hits: hits} // its order: score, then key
	h.sort()
	return h.hits[:k], true
}
