package peers

// The Sphinx peer: a real-time (RT) index on a searchd this adapter starts
// and stops itself, spoken to in SphinxQL over the MySQL protocol with
// go-sql-driver/mysql, as a Sphinx 2.2 user would. Written and tested
// against Debian's sphinxsearch 2.2.11.
//
// Gotchas with Sphinx 2.2.11 and go-sql-driver/mysql, found while writing
// this:
//   - searchd has no server-side prepared statements: database/sql calls
//     with arguments fail with "unknown command (code=22)" unless the DSN
//     says interpolateParams=true. The adapter builds its SphinxQL text
//     itself (sphinxQuote, sphinxEscape) and never passes arguments; the DSN
//     still sets interpolateParams=true so a future call with arguments
//     works instead of failing.
//   - The handshake works with the driver's defaults: no allowOldPasswords
//     (searchd ignores credentials). charset= (the driver then sends SET
//     NAMES), collation= and maxAllowedPacket=0 (the driver then asks for
//     @@max_allowed_packet) were tried and work too, searchd answers them,
//     but each costs a round trip per new connection for nothing, so the
//     DSN sets none of them.
//   - multiStatements=true lets one round trip carry a SphinxQL multi-query
//     batch (SELECT …; SHOW META; SELECT …), which searchd runs with its
//     multi-query optimisations. Only SELECT and SHOW may be batched: CALL
//     KEYWORDS in a batch is a syntax error.
//   - SHOW META after a SELECT with FACET clauses reports the main query,
//     not the last facet.
//   - GROUP BY on an MVA groups per value, but the MVA column then shows
//     the whole set: select GROUPBY() for the group's value. FACET on an
//     MVA shows the value itself.
//   - FACET returns 20 rows unless given a LIMIT, and grouping keeps at
//     most max_matches groups (default 1000): both are raised to the
//     number of distinct values so facet counts are exact.
//   - Aggregates without GROUP BY (implicit grouping) work: MIN(price)
//     and MAX(price) come back as one row, empty strings when nothing
//     matched.
//   - The default charset_table is ASCII and Cyrillic only: "fjällvik"
//     would be split at "ä". The config adds the Latin-1 letters; the
//     charset_table = non_cjk alias is Manticore's, 2.2.11 rejects it.
//   - Upper-case MAYBE, NEAR, SENTENCE and PARAGRAPH are operators in
//     the extended query syntax; the adapter lower-cases queries (the
//     charset folds case anyway) and escapes the special characters.
//   - searchd daemonises with a watchdog by default; started with
//     --nodetach it is one process, a child of this one, so Close can
//     wait for it and the RSS is that of one process.
//   - prices are float32 attributes: facet minimum and maximum come back
//     rounded to float32.

import (
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	_ "github.com/go-sql-driver/mysql" // SphinxQL speaks the MySQL protocol

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
)

// ErrNoSphinx is NewSphinx's error when searchd is not installed, so
// callers and tests can skip Sphinx (errors.Is).
var ErrNoSphinx = errors.New("sphinx: searchd not found in PATH (Sphinx 2.2 is needed: apt-get install sphinxsearch)")

// Sphinx is a Sphinx real-time index of a catalog on a searchd it started.
type Sphinx struct {
	Build time.Duration
	Docs  int

	dir  string // the caller's directory: config, logs, pid file
	data string // dir/data: the index files
	conf string
	cmd  *exec.Cmd
	done chan struct{} // closed when searchd exits
	db   *sql.DB

	brands sphinxIDs      // brand ↔ brand_id
	hiers  sphinxIDs      // "a$b$" ↔ hier value id
	words  map[string]int // indexed surface word → documents containing it
	groups int            // LIMIT and max_matches that keep facets exact
}

// Field weights and the ranker. proximity_bm25 is Sphinx's default ranker
// (phrase proximity plus BM25) and what Sphinx users run; it is named
// explicitly so the query log shows it.
const sphinxRanking = "field_weights=(title=10, brand=5, category=3, keywords=3, description=1), ranker=proximity_bm25"

// sphinxCharset is the default charset_table (digits, Latin, underscore,
// Cyrillic, case-folded) plus the Latin-1 letters, folded to lower case.
// sphinxWordRune and sphinxTokens mirror it in Go.
const sphinxCharset = "0..9, A..Z->a..z, _, a..z, U+C0..U+D6->U+E0..U+F6, U+D8..U+DE->U+F8..U+FE, U+DF, U+E0..U+F6, U+F8..U+FF, U+410..U+42F->U+430..U+44F, U+430..U+44F, U+401->U+451, U+451"

// sphinxConfig is the searchd configuration: the products index, the
// suggest index of keyword trigrams for typo correction, and a daemon
// listening on SphinxQL only.
//
// Index: dict = keywords (the dictionary stores the words, not their
// CRCs, as Sphinx recommends for RT indexes; the typo correction's probes
// rely on real keywords), stem_en like the other engines' English
// stemming, min_word_len 1 so model codes and sizes are searchable. rt_mem_limit is generous so a benchmark catalog is one RAM
// chunk, flushed to one disk chunk after loading.
//
// Daemon: binlog_path is empty, which disables the binary log: the bench
// index is rebuilt on every run and needs no crash recovery, and every
// INSERT would otherwise be written twice. subtree_docs_cache and
// subtree_hits_cache (0, disabled, by default) let a multi-query batch
// reuse the matching of the full-text part its queries share, which the
// disjunctive facet queries do (no difference measurable on this shared
// machine at 20,000 products, but it is the documented setting for such
// batches). The query log stays on, as on a production searchd (also no
// measurable cost here).
func sphinxConfig(dir, data string, port int) string {
	return fmt.Sprintf(`index products
{
	type = rt
	path = %[2]s/products
	rt_mem_limit = 1024M
	rt_field = title
	rt_field = brand
	rt_field = category
	rt_field = description
	rt_field = keywords
	rt_attr_string = product_number
	rt_attr_uint = brand_id
	rt_attr_float = price
	rt_attr_uint = in_stock
	rt_attr_multi = hier
	dict = keywords
	morphology = stem_en
	min_word_len = 1
	charset_table = %[4]s
}

index suggest
{
	type = rt
	path = %[2]s/suggest
	rt_mem_limit = 128M
	rt_field = trigrams
	rt_attr_string = keyword
	rt_attr_uint = len
	rt_attr_uint = freq
	dict = keywords
	min_word_len = 1
	charset_table = %[4]s
}

searchd
{
	listen = 127.0.0.1:%[3]d:mysql41
	log = %[1]s/searchd.log
	query_log = %[1]s/query.log
	pid_file = %[1]s/searchd.pid
	binlog_path =
	workers = threads
	max_packet_size = 32M
	subtree_docs_cache = 8M
	subtree_hits_cache = 16M
}
`, dir, data, port, sphinxCharset)
}

// sphinxBinary finds searchd.
func sphinxBinary() (string, error) {
	if p, err := exec.LookPath("searchd"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/bin/searchd", "/usr/sbin/searchd", "/usr/local/bin/searchd", "/usr/local/sphinx/bin/searchd"} {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", ErrNoSphinx
}

// NewSphinx starts a searchd with its files in dir, inserts products into
// its RT index in multi-row batches, flushes the RAM chunk to disk and
// loads the keyword trigrams for typo correction. Build is the time from
// the first INSERT until the index is ready, searchd's start not
// included.
func NewSphinx(dir string, products bench.Products) (*Sphinx, error) {
	bin, err := sphinxBinary()
	if err != nil {
		return nil, err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	s := &Sphinx{dir: dir, data: filepath.Join(dir, "data"), conf: filepath.Join(dir, "sphinx.conf"),
		brands: newSphinxIDs(), hiers: newSphinxIDs(),
		words: map[string]int{}}
	if err := os.MkdirAll(s.data, 0o755); err != nil {
		return nil, fmt.Errorf("sphinx: %w", err)
	}
	if err := s.start(bin); err != nil {
		s.Close()
		return nil, err
	}
	start := time.Now()
	if err := s.load(products); err != nil {
		s.Close()
		return nil, err
	}
	s.Build = time.Since(start)
	return s, nil
}

// start writes the config and runs searchd on a free port, retrying on
// another port if the one picked was taken meanwhile.
func (s *Sphinx) start(bin string) error {
	var last error
	for range 3 {
		port, err := sphinxFreePort()
		if err != nil {
			return fmt.Errorf("sphinx: %w", err)
		}
		if err := os.WriteFile(s.conf, []byte(sphinxConfig(s.dir, s.data, port)), 0o644); err != nil {
			return fmt.Errorf("sphinx: %w", err)
		}
		out, err := os.Create(filepath.Join(s.dir, "searchd.out"))
		if err != nil {
			return fmt.Errorf("sphinx: %w", err)
		}
		s.cmd = exec.Command(bin, "--config", s.conf, "--nodetach")
		s.cmd.Dir = s.dir
		s.cmd.Stdout, s.cmd.Stderr = out, out // a file: searchd writes it directly
		err = s.cmd.Start()
		out.Close()
		if err != nil {
			return fmt.Errorf("sphinx: start %s: %w", bin, err)
		}
		s.done = make(chan struct{})
		go func(cmd *exec.Cmd, done chan struct{}) { cmd.Wait(); close(done) }(s.cmd, s.done)
		if last = s.connect(port); last == nil {
			return nil
		}
		s.stop()
	}
	return last
}

func sphinxFreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// connect waits until searchd serves both indexes over SphinxQL.
func (s *Sphinx) connect(port int) error {
	// multiStatements: SphinxQL multi-query batches in one round trip.
	// interpolateParams: searchd has no server-side prepared statements.
	// No charset= (no SET NAMES), default maxAllowedPacket (no query for
	// @@max_allowed_packet); timeout bounds the dial only.
	dsn := fmt.Sprintf("tcp(127.0.0.1:%d)/?multiStatements=true&interpolateParams=true&timeout=5s", port)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		return fmt.Errorf("sphinx: %w", err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	// searchd drops idle SphinxQL connections after client_timeout (300 s).
	db.SetConnMaxIdleTime(time.Minute)
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-s.done:
			db.Close()
			return fmt.Errorf("sphinx: searchd exited while starting: %s", s.tail())
		default:
		}
		if err = sphinxReady(db); err == nil {
			s.db = db
			return nil
		}
		if time.Now().After(deadline) {
			db.Close()
			return fmt.Errorf("sphinx: searchd not ready on port %d after 30s: %v: %s", port, err, s.tail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func sphinxReady(db *sql.DB) error {
	rows, err := db.Query("SHOW TABLES")
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return err
		}
		if name == "products" || name == "suggest" {
			n++
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != 2 {
		return errors.New("indexes not served yet")
	}
	return nil
}

// tail is the end of searchd's output and log, for error messages.
func (s *Sphinx) tail() string {
	text := ""
	for _, name := range []string{"searchd.out", "searchd.log"} {
		if b, err := os.ReadFile(filepath.Join(s.dir, name)); err == nil {
			text += string(b)
		}
	}
	text = strings.TrimSpace(text)
	if len(text) > 1500 {
		text = "…" + text[len(text)-1500:]
	}
	return text
}

const sphinxBatch = 1000 // rows per INSERT, well under max_packet_size

// load inserts the products, flushes the RAM chunk and loads the suggest
// index.
func (s *Sphinx) load(products bench.Products) error {
	ins := sphinxInsert{db: s.db, head: "INSERT INTO products (id, title, brand, category, description, keywords, product_number, brand_id, price, in_stock, hier) VALUES "}
	seen := map[string]bool{}
	var ids []uint32
	var cats []string
	err := products(func(p *catalog.Product) error {
		s.Docs++
		b := ins.row()
		cats, ids = cats[:0], ids[:0]
		clear(seen)
		for _, h := range p.Hierarchies {
			cats = append(cats, h...)
			acc := ""
			for _, l := range h {
				acc += l + "$"
				if !seen[acc] {
					seen[acc] = true
					ids = append(ids, s.hiers.of(acc))
				}
			}
		}
		category := strings.Join(cats, " ")
		var brand uint32
		if p.Brand != "" {
			brand = s.brands.of(p.Brand)
		}
		inStock := 0
		if p.InStock {
			inStock = 1
		}
		fmt.Fprintf(b, "(%d,%s,%s,%s,%s,%s,%s,%d,%s,%d,(", s.Docs, sphinxQuote(p.Title), sphinxQuote(p.Brand), sphinxQuote(category),
			sphinxQuote(p.Description), sphinxQuote(p.Keywords), sphinxQuote(p.ProductNumber), brand, sphinxFloat(p.Price), inStock)
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatUint(uint64(id), 10))
		}
		b.WriteString("))")
		s.countWords(p.Title, p.Brand, category, p.Description, p.Keywords)
		return ins.done()
	})
	if err == nil {
		err = ins.flush()
	}
	if err != nil {
		return fmt.Errorf("sphinx: insert: %w", err)
	}
	// After a bulk load, save the RAM chunk as a disk chunk: queries then
	// run on one compact, fully merged segment, and the index's size on
	// disk is the whole index. With rt_mem_limit above the catalog's size
	// there is one disk chunk, so OPTIMIZE INDEX (which merges disk chunks,
	// in the background) has nothing to do.
	if _, err := s.db.Exec("FLUSH RAMCHUNK products"); err != nil {
		return fmt.Errorf("sphinx: flush: %w", err)
	}
	if err := s.loadSuggest(); err != nil {
		return fmt.Errorf("sphinx: suggest index: %w", err)
	}
	s.groups = max(1000, len(s.brands.name), len(s.hiers.name))
	return nil
}

// sphinxInsert gathers rows into multi-row INSERTs of sphinxBatch rows.
type sphinxInsert struct {
	db   *sql.DB
	head string // "INSERT INTO t (cols) VALUES "
	b    strings.Builder
	rows int
}

// row starts a row; the caller writes it to the builder returned, then
// calls done.
func (w *sphinxInsert) row() *strings.Builder {
	if w.rows == 0 {
		w.b.WriteString(w.head)
	} else {
		w.b.WriteByte(',')
	}
	w.rows++
	return &w.b
}

// done sends the statement once it holds a batch.
func (w *sphinxInsert) done() error {
	if w.rows >= sphinxBatch {
		return w.flush()
	}
	return nil
}

// flush sends the rows gathered so far.
func (w *sphinxInsert) flush() error {
	if w.rows == 0 {
		return nil
	}
	_, err := w.db.Exec(w.b.String())
	w.b.Reset()
	w.rows = 0
	return err
}

// sphinxIDs numbers distinct strings from 1 (0 is none), both ways, for
// the attributes Sphinx keeps as integers.
type sphinxIDs struct {
	id   map[string]uint32
	name []string
}

func newSphinxIDs() sphinxIDs { return sphinxIDs{id: map[string]uint32{}, name: []string{""}} }

// of is name's id, assigned on first sight.
func (d *sphinxIDs) of(name string) uint32 {
	id, ok := d.id[name]
	if !ok {
		id = uint32(len(d.name))
		d.id[name] = id
		d.name = append(d.name, name)
	}
	return id
}

// countWords adds one document's words to the dictionary of indexed
// words, counting each word once per document.
func (s *Sphinx) countWords(fields ...string) {
	doc := map[string]bool{}
	for _, f := range fields {
		for _, w := range sphinxTokens(f) {
			if !doc[w.word] {
				doc[w.word] = true
				s.words[w.word]++
			}
		}
	}
}

// Typo correction. Sphinx 2.2 has no fuzzy operator and no CALL SUGGEST
// (Manticore, the later fork, added one). What Sphinx offers for it is the
// "suggest" sample shipped with 2.x (misc/suggest): a second index whose
// documents are the indexed keywords, with their trigrams as the text and
// their length and frequency as attributes; a misspelt word's trigrams are
// searched with the quorum operator, candidates ranked by trigrams in
// common (ranker=wordcount), closeness in length and frequency, and the
// client picks the nearest by edit distance. That is what this adapter
// does, with two refinements: the client-side edit distance counts an
// adjacent transposition as one edit (Damerau, optimal string alignment),
// and only words that match nothing are corrected. The keyword list is
// built in Go while loading (Sphinx 2.2 cannot list an RT index's
// dictionary; the sample used indexer --buildstops, which needs a plain
// index). Whether a query word needs correcting is decided first from that
// list (a word indexed as such needs none), then by asking searchd, since
// a word absent from the list may still match through stemming ("drill"
// when only "drills" was indexed). The lookups for all unknown words of a
// query go to searchd in one multi-query batch, so a typo'd query costs two
// round trips (correction, then search) and a correct one a single one.
// min_infix_len with expand_keywords was the alternative; infixes find
// words containing what was typed, not words with two letters swapped,
// and would multiply the index's size.

const (
	sphinxSuggestMinLen  = 3  // shorter words are not in the suggest index; only longer ones are corrected
	sphinxSuggestTop     = 30 // candidates fetched per word
	sphinxSuggestMaxDist = 2  // farthest correction, in edits
)

// loadSuggest fills the suggest index with the indexed words and their
// trigrams.
func (s *Sphinx) loadSuggest() error {
	ins := sphinxInsert{db: s.db, head: "INSERT INTO suggest (id, trigrams, keyword, len, freq) VALUES "}
	id := 0
	for w, freq := range s.words {
		n := utf8.RuneCountInString(w)
		if n < sphinxSuggestMinLen {
			continue
		}
		id++
		fmt.Fprintf(ins.row(), "(%d,%s,%s,%d,%d)", id, sphinxQuote(sphinxTrigrams(w)), sphinxQuote(w), n, freq)
		if err := ins.done(); err != nil {
			return err
		}
	}
	if err := ins.flush(); err != nil {
		return err
	}
	_, err := s.db.Exec("FLUSH RAMCHUNK suggest")
	return err
}

// trigrams is a word's trigrams, padded with two underscores at each end
// as in Sphinx's suggest sample: "__p _pl pli … s__".
func sphinxTrigrams(w string) string {
	r := []rune("__" + w + "__")
	var b strings.Builder
	for i := 0; i+3 <= len(r); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(r[i : i+3]))
	}
	return b.String()
}

// correct replaces the words of q that match nothing with the nearest
// indexed word.
func (s *Sphinx) correct(q string) (string, error) {
	toks := sphinxTokens(q)
	var unknown []sphinxToken
	for _, t := range toks {
		if s.words[t.word] == 0 && utf8.RuneCountInString(t.word) > sphinxSuggestMinLen {
			unknown = append(unknown, t)
		}
	}
	if len(unknown) == 0 {
		return q, nil
	}
	// Per unknown word: does it match anything (through stemming)? And
	// its correction candidates.
	var b strings.Builder
	for i, t := range unknown {
		if i > 0 {
			b.WriteString("; ")
		}
		n := utf8.RuneCountInString(t.word)
		fmt.Fprintf(&b, "SELECT id FROM products WHERE MATCH(%s) LIMIT 1 OPTION ranker=none; ", sphinxQuote(t.word))
		fmt.Fprintf(&b, "SELECT keyword, freq, WEIGHT() AS w, w+2-ABS(len-%d) AS myrank FROM suggest WHERE MATCH(%s) AND len BETWEEN %d AND %d ORDER BY myrank DESC, freq DESC LIMIT %d OPTION ranker=wordcount",
			n, sphinxQuote(`"`+sphinxTrigrams(t.word)+`"/1`), max(1, n-sphinxSuggestMaxDist), n+sphinxSuggestMaxDist, sphinxSuggestTop)
	}
	rows, err := s.db.Query(b.String())
	if err != nil {
		return "", fmt.Errorf("sphinx: suggest: %w", err)
	}
	defer rows.Close()
	fix := make([]string, len(unknown))
	for i, t := range unknown {
		if i > 0 && !rows.NextResultSet() {
			return "", fmt.Errorf("sphinx: suggest: missing result set: %v", rows.Err())
		}
		matches := false
		for rows.Next() {
			matches = true
		}
		if !rows.NextResultSet() {
			return "", fmt.Errorf("sphinx: suggest: missing result set: %v", rows.Err())
		}
		best, bestDist, bestFreq := "", sphinxSuggestMaxDist+1, 0
		for rows.Next() {
			var kw string
			var freq, w, rank int
			if err := rows.Scan(&kw, &freq, &w, &rank); err != nil {
				return "", fmt.Errorf("sphinx: suggest: %w", err)
			}
			if d := sphinxOSA(t.word, kw); d < bestDist || d == bestDist && freq > bestFreq {
				best, bestDist, bestFreq = kw, d, freq
			}
		}
		if !matches && best != "" {
			fix[i] = best
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("sphinx: suggest: %w", err)
	}
	var out strings.Builder
	at := 0
	for i, t := range unknown {
		if fix[i] == "" {
			continue
		}
		out.WriteString(q[at:t.start])
		out.WriteString(fix[i])
		at = t.end
	}
	out.WriteString(q[at:])
	return out.String(), nil
}

// sphinxOSA is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of adjacent letters.
func sphinxOSA(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// sphinxToken is a word of a text as Sphinx's tokenizer sees it, folded to
// lower case, with its byte range in the text.
type sphinxToken struct {
	word       string
	start, end int
}

// sphinxWordRune mirrors sphinxCharset.
func sphinxWordRune(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
		return true
	case r >= 0xC0 && r <= 0xFF:
		return r != 0xD7 && r != 0xF7
	case r >= 0x410 && r <= 0x44F, r == 0x401, r == 0x451:
		return true
	}
	return false
}

func sphinxTokens(text string) []sphinxToken {
	var out []sphinxToken
	start := -1
	for i, r := range text {
		if sphinxWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, sphinxToken{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, sphinxToken{strings.ToLower(text[start:]), start, len(text)})
	}
	return out
}

// sphinxEscape escapes the characters of Sphinx's extended query syntax,
// as sphinxapi's EscapeString does, so a shopper's phrase is words only.
func sphinxEscape(q string) string {
	var b strings.Builder
	for _, r := range q {
		if strings.ContainsRune(`\()|-!@~"&/^$=<`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sphinxQuote is a SphinxQL string literal.
func sphinxQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case 0:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func sphinxFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// sphinxFacets are the facet counts of a returnFilters request, with
// Aisle's disjunctive semantics: a facet on a filtered field counts over
// the text and every other field's filters.
type sphinxFacets struct {
	Brand              map[string]int // brand → products
	Hier               map[string]int // "a$b$" → products
	PriceMin, PriceMax float64        // range of prices; meaningful when PriceN > 0
	PriceN             int            // products the price range is over
	InStock            map[bool]int   // over the text and all filters
}

// sphinxResult is one search's answer.
type sphinxResult struct {
	Hits   []string // product numbers of the page
	Total  int      // total_found
	Query  string   // the text searched, after typo correction
	Facets *sphinxFacets
}

// Search answers an Aisle search request and returns the page's product
// numbers, in order.
func (s *Sphinx) Search(r *engine.SearchRequest, fuzzy bool) ([]string, error) {
	res, err := s.search(r, fuzzy)
	if err != nil {
		return nil, err
	}
	return res.Hits, nil
}

// sphinxFilter is the WHERE condition of one filtered field. SphinxQL
// 2.2 has no OR between attribute conditions in WHERE: ORed price ranges
// are a select-list expression (expr, "… AS f_price") filtered on by its
// alias (cond "f_price = 1"), the Sphinx idiom for arbitrary conditions.
type sphinxFilter struct {
	field string
	cond  string
	expr  string
}

// search runs the Sphinx equivalent of an Aisle search request in one
// multi-query batch (two round trips for a corrected typo):
//
//	SELECT product_number … WHERE MATCH(…) AND <all filters> ORDER BY …
//	    LIMIT start,count [FACET in_stock] [FACET brand_id] [FACET hier];
//	SHOW META;                            -- total_found
//	[SELECT brand_id, COUNT(*) … WHERE MATCH(…) AND <filters but brand> GROUP BY brand_id;]
//	[SELECT GROUPBY(), COUNT(*) … <filters but hierarchies> GROUP BY hier;]
//	[SELECT COUNT(*), MIN(price), MAX(price) … <filters but price>]
//
// Facets over the main query's own filters (in_stock always, brand and
// hierarchies when not filtered) are FACET clauses; a filtered field's
// disjunctive facet is a query of its own with that field's filter left
// out. Same-field filters are ORed (IN), different fields ANDed.
func (s *Sphinx) search(r *engine.SearchRequest, fuzzy bool) (*sphinxResult, error) {
	ps := r.Products
	if ps == nil {
		ps = &engine.ProductSettings{}
	}
	count, start := 10, 0
	if ps.Count != nil {
		count = *ps.Count
	}
	if ps.Start != nil {
		start = *ps.Start
	}
	res := &sphinxResult{}
	q := ""
	if r.Query != nil {
		q = strings.TrimSpace(*r.Query)
	}
	if q == "*" || len(sphinxTokens(q)) == 0 {
		q = ""
	}
	if q != "" {
		q = strings.ToLower(q)
		if fuzzy {
			var err error
			if q, err = s.correct(q); err != nil {
				return nil, err
			}
		}
	}
	res.Query = q
	match := ""
	if q != "" {
		match = "MATCH(" + sphinxQuote(sphinxEscape(q)) + ")"
	}

	filters, err := s.filters(ps.Filters)
	if err != nil {
		return nil, err
	}
	// from is the rest of a select list and the FROM and WHERE clauses
	// with every filter but skip's.
	from := func(skip string) string {
		var sel, parts []string
		if match != "" {
			parts = append(parts, match)
		}
		for _, f := range filters {
			if f.field != skip {
				if f.expr != "" {
					sel = append(sel, ", "+f.expr)
				}
				parts = append(parts, f.cond)
			}
		}
		out := strings.Join(sel, "") + " FROM products"
		if len(parts) > 0 {
			out += " WHERE " + strings.Join(parts, " AND ")
		}
		return out
	}
	filtered := func(field string) bool {
		for _, f := range filters {
			if f.field == field {
				return true
			}
		}
		return false
	}

	var b strings.Builder
	b.WriteString("SELECT product_number")
	b.WriteString(from(""))
	if len(ps.Sorting) > 0 {
		field, dir, _ := strings.Cut(strings.TrimSpace(ps.Sorting[0]), " ")
		if field == "price" {
			if strings.EqualFold(strings.TrimSpace(dir), "desc") {
				b.WriteString(" ORDER BY price DESC, id ASC")
			} else {
				b.WriteString(" ORDER BY price ASC, id ASC")
			}
		}
	}
	fmt.Fprintf(&b, " LIMIT %d,%d OPTION %s", start, count, sphinxRanking)
	// max_matches (default 1000) caps how deep a page may go and how many
	// groups a FACET keeps; total_found is exact regardless.
	maxMatches := start + count
	if ps.ReturnFilters {
		maxMatches = max(maxMatches, s.groups)
	}
	if maxMatches > 1000 {
		fmt.Fprintf(&b, ", max_matches=%d", maxMatches)
	}
	var facetOrder []string // FACET result sets after the hits, in order
	if ps.ReturnFilters {
		b.WriteString(" FACET in_stock ORDER BY COUNT(*) DESC LIMIT 2")
		facetOrder = append(facetOrder, "in_stock")
		if !filtered("brand") {
			fmt.Fprintf(&b, " FACET brand_id ORDER BY COUNT(*) DESC LIMIT %d", s.groups)
			facetOrder = append(facetOrder, "brand")
		}
		if !filtered("hierarchies") {
			fmt.Fprintf(&b, " FACET hier ORDER BY COUNT(*) DESC LIMIT %d", s.groups)
			facetOrder = append(facetOrder, "hierarchies")
		}
	}
	b.WriteString("; SHOW META")
	var extra []string // disjunctive facet queries after SHOW META, in order
	if ps.ReturnFilters {
		opt := fmt.Sprintf(" ORDER BY COUNT(*) DESC LIMIT %d OPTION ranker=none, max_matches=%d", s.groups, s.groups)
		if filtered("brand") {
			b.WriteString("; SELECT brand_id, COUNT(*)" + from("brand") + " GROUP BY brand_id" + opt)
			extra = append(extra, "brand")
		}
		if filtered("hierarchies") {
			b.WriteString("; SELECT GROUPBY(), COUNT(*)" + from("hierarchies") + " GROUP BY hier" + opt)
			extra = append(extra, "hierarchies")
		}
		b.WriteString("; SELECT COUNT(*), MIN(price), MAX(price)" + from("price") + " OPTION ranker=none")
		extra = append(extra, "price")
	}

	rows, err := s.db.Query(b.String())
	if err != nil {
		return nil, fmt.Errorf("sphinx: search: %w", err)
	}
	defer rows.Close()
	next := func() error {
		if !rows.NextResultSet() {
			if err := rows.Err(); err != nil {
				return fmt.Errorf("sphinx: search: %w", err)
			}
			return errors.New("sphinx: search: missing result set")
		}
		return nil
	}
	res.Hits = make([]string, 0, count)
	for rows.Next() {
		var pn string
		if err := sphinxScan(rows, &pn); err != nil {
			return nil, fmt.Errorf("sphinx: search: %w", err)
		}
		res.Hits = append(res.Hits, pn)
	}
	var f *sphinxFacets
	if ps.ReturnFilters {
		f = &sphinxFacets{Brand: map[string]int{}, Hier: map[string]int{}, InStock: map[bool]int{}}
		res.Facets = f
	}
	for _, name := range facetOrder {
		if err := next(); err != nil {
			return nil, err
		}
		if err := s.scanGroups(rows, name, f); err != nil {
			return nil, err
		}
	}
	if err := next(); err != nil {
		return nil, err
	}
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return nil, fmt.Errorf("sphinx: show meta: %w", err)
		}
		if name == "total_found" {
			res.Total, _ = strconv.Atoi(value)
		}
	}
	for _, name := range extra {
		if err := next(); err != nil {
			return nil, err
		}
		if name == "price" {
			for rows.Next() {
				var n int
				var lo, hi sql.RawBytes
				if err := sphinxScan(rows, &n, &lo, &hi); err != nil {
					return nil, fmt.Errorf("sphinx: price facet: %w", err)
				}
				if f.PriceN = n; n > 0 {
					f.PriceMin, _ = strconv.ParseFloat(string(lo), 64)
					f.PriceMax, _ = strconv.ParseFloat(string(hi), 64)
				}
			}
			continue
		}
		if err := s.scanGroups(rows, name, f); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sphinx: search: %w", err)
	}
	return res, nil
}

// sphinxScan scans a row's first columns into dest, skipping the filter
// expressions a query selects after them.
func sphinxScan(rows *sql.Rows, dest ...any) error {
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	for len(dest) < len(cols) {
		dest = append(dest, new(sql.RawBytes))
	}
	return rows.Scan(dest...)
}

// scanGroups reads a (value, count) result set into facet name.
func (s *Sphinx) scanGroups(rows *sql.Rows, name string, f *sphinxFacets) error {
	for rows.Next() {
		var v uint64
		var n int
		if err := sphinxScan(rows, &v, &n); err != nil {
			return fmt.Errorf("sphinx: %s facet: %w", name, err)
		}
		switch name {
		case "in_stock":
			f.InStock[v == 1] += n
		case "brand":
			if v > 0 && v < uint64(len(s.brands.name)) {
				f.Brand[s.brands.name[v]] += n
			}
		case "hierarchies":
			if v > 0 && v < uint64(len(s.hiers.name)) {
				f.Hier[s.hiers.name[v]] += n
			}
		}
	}
	return nil
}

// filters translates Aisle's filters to SphinxQL conditions, one per
// field, values of one field ORed.
func (s *Sphinx) filters(fs []string) ([]sphinxFilter, error) {
	var order []string // fields in the order first filtered
	seen := map[string]bool{}
	ids := map[string][]uint32{}
	var prices, stock []string
	for _, f := range fs {
		field, value, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("sphinx: filter %q: want field:value", f)
		}
		if !seen[field] {
			seen[field] = true
			order = append(order, field)
		}
		switch field {
		case "brand":
			ids[field] = append(ids[field], s.brands.id[value]) // 0, no brand, if unknown: matches nothing
		case "hierarchies":
			ids[field] = append(ids[field], s.hiers.id[value])
		case "price":
			lo, hi, _ := strings.Cut(value, ",")
			var parts []string
			if lo = strings.TrimSpace(lo); lo != "" {
				v, err := strconv.ParseFloat(lo, 64)
				if err != nil {
					return nil, fmt.Errorf("sphinx: filter %q: %w", f, err)
				}
				parts = append(parts, "price >= "+sphinxFloat(v))
			}
			if hi = strings.TrimSpace(hi); hi != "" {
				v, err := strconv.ParseFloat(hi, 64)
				if err != nil {
					return nil, fmt.Errorf("sphinx: filter %q: %w", f, err)
				}
				parts = append(parts, "price <= "+sphinxFloat(v))
			}
			if len(parts) == 0 {
				parts = append(parts, "price >= -1000000000.0") // "price:," restricts nothing
			}
			prices = append(prices, strings.Join(parts, " AND "))
		case "inStock":
			v := "0"
			if value == "true" || value == "1" {
				v = "1"
			}
			stock = append(stock, v)
		default:
			return nil, fmt.Errorf("sphinx: filter on %q not supported (brand, hierarchies, price, inStock are)", field)
		}
	}
	var out []sphinxFilter
	for _, field := range order {
		switch field {
		case "brand", "hierarchies":
			attr := "brand_id"
			if field == "hierarchies" {
				attr = "hier" // an MVA: = and IN match when any of its values does
			}
			var b strings.Builder
			if vs := ids[field]; len(vs) == 1 {
				fmt.Fprintf(&b, "%s = %d", attr, vs[0])
			} else {
				b.WriteString(attr + " IN (")
				for i, id := range vs {
					if i > 0 {
						b.WriteByte(',')
					}
					b.WriteString(strconv.FormatUint(uint64(id), 10))
				}
				b.WriteByte(')')
			}
			out = append(out, sphinxFilter{field: field, cond: b.String()})
		case "price":
			if len(prices) == 1 {
				out = append(out, sphinxFilter{field: field, cond: prices[0]})
				break
			}
			out = append(out, sphinxFilter{field: field, cond: "f_price = 1",
				expr: "(" + strings.Join(prices, ") OR (") + ") AS f_price"})
		case "inStock":
			out = append(out, sphinxFilter{field: field, cond: "in_stock IN (" + strings.Join(stock, ",") + ")"})
		}
	}
	return out, nil
}

// SizeBytes is the size of the index files on disk (the products index,
// flushed to a disk chunk, and the suggest index).
func (s *Sphinx) SizeBytes() int64 { return bench.DirSize(s.data) }

// RSSBytes is searchd's resident memory now (VmRSS, summed over searchd
// and any processes it forked); call it after NewSphinx for the loaded
// index's footprint. 0 where /proc is not available.
func (s *Sphinx) RSSBytes() int64 {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return bench.TreeRSS(s.cmd.Process.Pid)
}

// stop ends searchd: SIGTERM, as searchd --stopwait sends, then a wait
// for its exit (it saves its RAM chunks, small after the flush), and
// SIGKILL if it takes longer than 30 seconds.
func (s *Sphinx) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.done:
	default:
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	s.cmd = nil
}

// Close stops searchd and removes its directory.
func (s *Sphinx) Close() error {
	var err error
	if s.db != nil {
		err = s.db.Close()
		s.db = nil
	}
	s.stop()
	if rmErr := os.RemoveAll(s.dir); err == nil {
		err = rmErr
	}
	return err
}

// SphinxSearcher answers with Sphinx over SphinxQL.
func SphinxSearcher(s *Sphinx) bench.Searcher {
	return bench.Searcher{Name: "sphinx", Search: func(r *bench.Request, c bench.Class) error {
		_, err := s.Search(r.Req, c == bench.ClassTypo)
		return err
	}}
}
