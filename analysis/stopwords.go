package analysis

// stopWords are each language's function words, folded: articles,
// conjunctions, prepositions and the like, which a shopper's phrase
// carries ("door with mail slot") but which say nothing of the product.
// Ranking lets a word of these go unmatched when it relaxes a query to
// partial matches (ranking.Options.OptionalStopWords); they are indexed
// and matched as any other word.
var stopWords = map[Language]map[string]bool{
	English:   set("a an and are as at be by for from in into is it its of on or than that the this to with without"),
	Danish:    set("af at da de den der det du en et for fra har i ikke med men og om pa som til var vi"),
	Norwegian: set("av da de den der det du en et for fra har i ikke med men og om pa som til var vi"),
	Swedish:   set("av att da de den det du en ett for fran har i icke inte med men och om pa som till var vi"),
	German:    set("am an auf aus bei das dem den der des die ein eine einem einen einer fur im in ist mit nach oder und uber um von vom zu zum zur"),
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	w := ""
	for _, r := range words + " " {
		if r == ' ' {
			if w != "" {
				m[w] = true
			}
			w = ""
			continue
		}
		w += string(r)
	}
	return m
}

// IsStop reports whether folded, a folded word, is a function word of
// a's language; none for None.
func (a *Analyzer) IsStop(folded string) bool { return stopWords[a.lang][folded] }
