package peers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/aisle-search/aisle/bench"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
)

// ErrNoPostgres is returned (wrapped) by NewPostgres when the PostgreSQL
// server binaries are not installed, so callers and tests can skip.
var ErrNoPostgres = errors.New("postgres not installed: apt-get install postgresql postgresql-contrib")

// Postgres is a PostgreSQL full-text index of a catalog on a server it
// started: one row per product with a stored, weighted tsvector column and
// GIN indexes, and a pg_trgm word list for typo correction.
type Postgres struct {
	Build time.Duration // load (COPY) + index builds + word list + VACUUM ANALYZE
	Docs  int

	mu      sync.Mutex // one connection; the benchmark is single-threaded
	conn    *pgx.Conn
	srv     *pgServer
	sql     map[pgShape]string
	scratch pgArgs
}

// pgServer is a postgres server process this package started.
type pgServer struct {
	bin    string // directory of initdb, postgres, pg_ctl
	root   string // everything the server uses; removed by stop
	data   string
	port   int
	cred   *syscall.Credential // nil unless we run as root
	cmd    *exec.Cmd
	exited chan struct{}
	log    string
}

// Server settings for a read-heavy benchmark on a 24 GiB, 2-core machine,
// passed as -c options so they are visible in one place.
var pgSettings = []string{
	// The catalog and its indexes stay in PostgreSQL's own cache; pages
	// are only resident once touched, so a small catalog costs little.
	"shared_buffers=2GB",
	// The planner's estimate of shared_buffers + OS page cache: costs
	// index scans as cached reads.
	"effective_cache_size=16GB",
	"random_page_cost=1.1",
	// Facet GROUP BYs, top-N sorts and the materialised match set stay
	// in memory.
	"work_mem=64MB",
	// GIN builds accumulate posting lists in memory: bigger is faster.
	"maintenance_work_mem=1GB",
	// Durability only costs load time here: the data is rebuilt every
	// run. wal_level=minimal lets the COPY into the table created in the
	// same transaction skip WAL entirely. synchronous_commit stays on:
	// with fsync off it saves nothing, and an asynchronous commit keeps
	// VACUUM from setting hint bits and all-visible flags on the pages
	// of transactions whose commit record is not yet flushed, which then
	// get dirtied by the benchmark's first reads.
	"fsync=off",
	"full_page_writes=off",
	"wal_level=minimal",
	"max_wal_senders=0",
	"max_wal_size=8GB",
	"checkpoint_timeout=1h",
	// JIT compilation costs tens of milliseconds and kicks in on cost
	// thresholds that a count over a broad match set crosses; for queries
	// of a millisecond or less it is pure overhead.
	"jit=off",
	// Two cores shared by the benchmark driver and the server: parallel
	// workers would start processes per query and compete with the
	// leader. Index builds may use one helper.
	"max_parallel_workers_per_gather=0",
	"max_parallel_maintenance_workers=1",
	// The table is read-only after the build, which ends with VACUUM
	// ANALYZE; autovacuum waking up on the fresh table mid-benchmark
	// would only add noise.
	"autovacuum=off",
	"max_connections=20",
	"default_text_search_config=pg_catalog.english",
	"logging_collector=off",
}

// pgTrgmThreshold is the trigram similarity a word list entry needs to
// be offered as a correction. pg_trgm's default (0.3) misses transposed
// letters in six-letter words (basket/bakset is 0.27), and a five-letter
// word shares only 2 of 10 trigrams with its transposition (chair/cahir
// is exactly 0.2).
const pgTrgmThreshold = 0.15

// pgMaxCorrections is how many of the closest known words replace an
// unknown query word, ORed.
const pgMaxCorrections = 2

// NewPostgres starts a PostgreSQL server with its data in a new
// directory under dir (or, when the postgres OS user cannot reach dir,
// under the system temp dir; Close removes it either way), loads products
// with COPY, builds the indexes and the typo word list and analyzes the
// tables. Build is the time from the
// CREATE TABLE to the end of VACUUM ANALYZE; starting the server is not
// counted. Errors wrap ErrNoPostgres when the binaries are missing.
func NewPostgres(dir string, products bench.Products) (*Postgres, error) {
	srv, err := pgStart(dir)
	if err != nil {
		return nil, err
	}
	p := &Postgres{srv: srv, sql: map[pgShape]string{}}
	ctx := context.Background()
	p.conn, err = srv.connect(ctx)
	if err != nil {
		srv.stop()
		return nil, err
	}
	if err := p.load(ctx, products); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func (p *Postgres) load(ctx context.Context, products bench.Products) error {
	for _, ext := range []string{"pg_trgm", "fuzzystrmatch"} {
		if _, err := p.conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS "+ext); err != nil {
			return fmt.Errorf("postgres: create extension %s (apt-get install postgresql-contrib): %w", ext, err)
		}
	}
	start := time.Now()
	tx, err := p.conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, pgSchema); err != nil {
		return fmt.Errorf("postgres: schema: %w", err)
	}
	n, err := pgCopyProducts(ctx, tx, products)
	if err != nil {
		return fmt.Errorf("postgres: copy: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	p.Docs = int(n)
	for _, s := range pgIndexes {
		if _, err := p.conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("postgres: %s: %w", s, err)
		}
	}
	p.Build = time.Since(start)
	return nil
}

// pgSchema is the products table: one row per product, the category
// levels as text for matching, every hierarchy path prefix ("a$", "a$b$")
// for filtering and faceting, and the weighted document vector, stored so
// ranking reads it instead of re-parsing the text.
const pgSchema = `
CREATE TABLE products (
	product_number text NOT NULL,
	title          text NOT NULL,
	brand          text,
	category       text NOT NULL,
	description    text NOT NULL,
	keywords       text NOT NULL,
	price          double precision NOT NULL,
	in_stock       boolean NOT NULL,
	hier           text[] NOT NULL,
	tsv            tsvector GENERATED ALWAYS AS (
		setweight(to_tsvector('english', title), 'A') ||
		setweight(to_tsvector('english', coalesce(brand, '')), 'B') ||
		setweight(to_tsvector('english', category || ' ' || keywords), 'C') ||
		setweight(to_tsvector('english', description), 'D')
	) STORED
)`

// pgIndexes run after the load, in order: bulk index builds are much
// faster than maintaining indexes row by row. The word list follows the
// pg_trgm documentation's text-search integration: the distinct words
// (unstemmed, 'simple' configuration) of the catalog with a trigram index,
// to correct query words the catalog does not contain.
var pgIndexes = []string{
	`CREATE INDEX products_tsv ON products USING gin (tsv) WITH (fastupdate = off)`,
	`CREATE INDEX products_hier ON products USING gin (hier) WITH (fastupdate = off)`,
	`CREATE INDEX products_price ON products (price)`,
	`CREATE INDEX products_brand ON products (brand)`,
	`CREATE TABLE words AS SELECT word, ndoc FROM ts_stat($$
		SELECT to_tsvector('simple', title || ' ' || coalesce(brand, '') || ' ' || category || ' ' || keywords || ' ' || description)
		FROM products$$) WHERE length(word) <= 64`, // levenshtein takes at most 255 characters
	`ALTER TABLE words ADD PRIMARY KEY (word)`,
	`CREATE INDEX words_trgm ON words USING gin (word gin_trgm_ops)`,
	// AND and OR of tsquery values as aggregates (tsquery_and is &&).
	`CREATE AGGREGATE tsq_and(tsquery) (SFUNC = tsquery_and, STYPE = tsquery)`,
	`CREATE AGGREGATE tsq_or(tsquery) (SFUNC = tsquery_or, STYPE = tsquery)`,
	// fuzzy_tsquery ANDs the query's words. A word the catalog does not
	// contain is replaced by its closest known words, ORed: candidates
	// from the trigram index (similarity at least pgTrgmThreshold),
	// ranked by edit distance, then similarity, then frequency; the words
	// at the smallest distance are kept, at most pgMaxCorrections.
	// Trigram similarity alone ranks a transposition poorly (wodoen:
	// women 0.30 before wooden 0.27), hence fuzzystrmatch's levenshtein.
	// A word with no candidate is dropped. PL/pgSQL rather than SQL so
	// the query's plan is cached for the session (a SQL function that is
	// not inlined is planned on every call: 400µs against 240µs).
	`CREATE FUNCTION fuzzy_tsquery(q text) RETURNS tsquery LANGUAGE plpgsql STABLE
	SET pg_trgm.similarity_threshold = ` + strconv.FormatFloat(pgTrgmThreshold, 'f', -1, 64) + ` AS $$
	BEGIN
		RETURN (SELECT tsq_and(alt) FROM (
			SELECT CASE
				WHEN length(t.lexeme) > 64 OR EXISTS (SELECT 1 FROM words w WHERE w.word = t.lexeme)
				THEN plainto_tsquery('english', t.lexeme)
				ELSE (SELECT tsq_or(plainto_tsquery('english', c.word)) FROM (
					SELECT x.word, x.d, min(x.d) OVER () AS best FROM (
						SELECT w.word, levenshtein(w.word, t.lexeme) AS d, similarity(w.word, t.lexeme) AS s, w.ndoc
						FROM words w WHERE w.word % t.lexeme) x
					ORDER BY x.d, x.s DESC, x.ndoc DESC, x.word
					LIMIT ` + strconv.Itoa(pgMaxCorrections) + `) c
					WHERE c.d = c.best)
			END AS alt
			FROM unnest(to_tsvector('simple', q)) t
		) s);
	END
	$$`,
	// Sets hint bits and the visibility map and gathers statistics, as
	// one does once after a bulk load; the checkpoint writes the dirty
	// buffers now rather than during the benchmark.
	`VACUUM (ANALYZE) products`,
	`VACUUM (ANALYZE) words`,
	`CHECKPOINT`,
}

var pgColumns = []string{"product_number", "title", "brand", "category", "description", "keywords", "price", "in_stock", "hier"}

// pgCopyProducts streams the catalog into one COPY: a goroutine walks the
// source while pgx encodes and sends.
func pgCopyProducts(ctx context.Context, tx pgx.Tx, products bench.Products) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rows := make(chan []any, 1024)
	srcErr := make(chan error, 1)
	go func() {
		defer close(rows)
		srcErr <- products(func(p *catalog.Product) error {
			select {
			case rows <- pgRow(p):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	n, err := tx.CopyFrom(ctx, pgx.Identifier{"products"}, pgColumns, pgx.CopyFromFunc(func() ([]any, error) {
		r, ok := <-rows
		if !ok {
			return nil, nil
		}
		return r, nil
	}))
	cancel()
	for range rows { // let the producer finish
	}
	if serr := <-srcErr; serr != nil && err == nil {
		err = serr
	}
	return n, err
}

func pgRow(p *catalog.Product) []any {
	var cats, hier []string
	for _, h := range p.Hierarchies {
		cats = append(cats, h...)
		acc := ""
		for _, l := range h {
			acc += l + "$"
			if !slices.Contains(hier, acc) {
				hier = append(hier, acc)
			}
		}
	}
	if hier == nil {
		hier = []string{}
	}
	var brand any
	if p.Brand != "" {
		brand = p.Brand
	}
	return []any{p.ProductNumber, p.Title, brand, strings.Join(cats, " "), p.Description, p.Keywords, p.Price, p.InStock, hier}
}

// Search runs the PostgreSQL equivalent of an Aisle search request and
// returns the page's product numbers in order.
func (p *Postgres) Search(r *engine.SearchRequest, fuzzy bool) ([]string, error) {
	res, err := p.search(r, fuzzy)
	if err != nil {
		return nil, err
	}
	return res.Hits, nil
}

// pgResult is a search's page, total and (with returnFilters) facets.
type pgResult struct {
	Hits   []string
	Total  int
	Facets *pgFacets
}

// pgFacets are the four facets Aisle's demo configuration returns, with
// disjunctive counts: each over the matches with every filter except the
// facet's own field's.
type pgFacets struct {
	Brand       map[string]int
	Hierarchies map[string]int // every path prefix, "a$b$"
	// Price is a range facet: the lowest and highest price; HasPrice is
	// false when its base set is empty.
	PriceMin, PriceMax float64
	HasPrice           bool
	InStock            map[bool]int
}

// pgShape is what decides a request's SQL text; pgx prepares and caches
// one statement per text.
type pgShape struct {
	text        int8 // pgTextAll, pgTextWords, pgTextFuzzy
	brand       bool
	priceRanges int
	hier        bool
	inStock     bool
	sort        int8 // 0 relevance, 1 price asc, 2 price desc
	facets      bool
}

const (
	pgTextAll int8 = iota
	pgTextWords
	pgTextFuzzy
)

// pgArgs are a request's parameters, reused between calls.
type pgArgs struct {
	brands  []string
	prices  []float64 // lo, hi pairs; open ends ±Inf
	hier    []string
	inStock []bool
	args    []any
}

func (a *pgArgs) reset() {
	a.brands, a.prices, a.hier, a.inStock, a.args = a.brands[:0], a.prices[:0], a.hier[:0], a.inStock[:0], a.args[:0]
}

func (p *Postgres) search(r *engine.SearchRequest, fuzzy bool) (*pgResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil {
		return nil, errors.New("postgres: search after Close")
	}
	var sh pgShape
	a := &p.scratch
	a.reset()
	q := ""
	if r.Query != nil {
		q = strings.TrimSpace(*r.Query)
	}
	switch {
	case q == "" || q == "*":
		sh.text = pgTextAll
	case fuzzy:
		sh.text = pgTextFuzzy
	default:
		sh.text = pgTextWords
	}
	count, start := 10, 0
	ps := r.Products
	if ps == nil {
		ps = &engine.ProductSettings{}
	}
	if ps.Count != nil {
		count = *ps.Count
	}
	if ps.Start != nil {
		start = *ps.Start
	}
	for _, f := range ps.Filters {
		field, value, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("postgres: filter %q is not field:value", f)
		}
		switch field {
		case "brand":
			a.brands = append(a.brands, value)
		case "hierarchies":
			if !strings.HasSuffix(value, "$") {
				value += "$"
			}
			a.hier = append(a.hier, value)
		case "price":
			lo, hi, err := pgRange(value)
			if err != nil {
				return nil, fmt.Errorf("postgres: filter %q: %w", f, err)
			}
			a.prices = append(a.prices, lo, hi)
		case "inStock":
			b, err := strconv.ParseBool(value)
			if err != nil {
				return nil, fmt.Errorf("postgres: filter %q: %w", f, err)
			}
			a.inStock = append(a.inStock, b)
		default:
			return nil, fmt.Errorf("postgres: filter field %q is not supported", field)
		}
	}
	sh.brand, sh.hier, sh.inStock, sh.priceRanges = len(a.brands) > 0, len(a.hier) > 0, len(a.inStock) > 0, len(a.prices)/2
	if len(ps.Sorting) > 0 {
		field, dir, _ := strings.Cut(strings.TrimSpace(ps.Sorting[0]), " ")
		if field != "price" {
			return nil, fmt.Errorf("postgres: sorting on %q is not supported", field)
		}
		sh.sort = 1
		if strings.EqualFold(strings.TrimSpace(dir), "desc") {
			sh.sort = 2
		}
	}
	sh.facets = bool(ps.ReturnFilters)

	if sh.text != pgTextAll && !sh.facets && (sh.brand || sh.priceRanges > 0 || sh.hier || sh.inStock) {
		// Words and filters both restrict the rows, and which index to
		// use and which to intersect depends on the values: a brand may
		// hold 1% or 20% of the catalog, a price range 1% or 90%. A
		// prepared statement's generic plan assumes fixed selectivities
		// (it intersected the tsvector with half the price index), so
		// these are planned with their values, on the unnamed statement,
		// still in one round trip (the custom plan halved class 2's
		// median). The other shapes keep the cached prepared statement.
		a.args = append(a.args, pgx.QueryExecModeCacheDescribe)
	}
	if sh.text != pgTextAll {
		a.args = append(a.args, q)
	}
	if sh.brand {
		a.args = append(a.args, a.brands)
	}
	for _, v := range a.prices {
		a.args = append(a.args, v)
	}
	if sh.hier {
		a.args = append(a.args, a.hier)
	}
	if sh.inStock {
		a.args = append(a.args, a.inStock)
	}
	a.args = append(a.args, count, start)

	sql, ok := p.sql[sh]
	if !ok {
		sql = pgSQL(sh)
		p.sql[sh] = sql
	}
	ctx := context.Background()
	res := &pgResult{}
	if !sh.facets {
		err := p.conn.QueryRow(ctx, sql, a.args...).Scan(&res.Total, &res.Hits)
		if err != nil {
			return nil, fmt.Errorf("postgres: search %q: %w", q, err)
		}
		return res, nil
	}
	fc := &pgFacets{Brand: map[string]int{}, Hierarchies: map[string]int{}, InStock: map[bool]int{}}
	res.Facets, res.Hits = fc, make([]string, 0, count)
	rows, err := p.conn.Query(ctx, sql, a.args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: search %q: %w", q, err)
	}
	var (
		kind   int16
		key    *string
		n      *int64
		lo, hi *float64
	)
	_, err = pgx.ForEachRow(rows, []any{&kind, &key, &n, &lo, &hi}, func() error {
		switch kind {
		case 0:
			res.Total = int(*n)
			if lo != nil && hi != nil {
				fc.PriceMin, fc.PriceMax, fc.HasPrice = *lo, *hi, true
			}
		case 1:
			res.Hits = append(res.Hits, *key)
		case 2:
			fc.Brand[*key] = int(*n)
		case 3:
			fc.Hierarchies[*key] = int(*n)
		case 4:
			fc.InStock[*key == "true"] = int(*n)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: search %q: %w", q, err)
	}
	return res, nil
}

// pgRange parses Aisle's inclusive range "min,max" (either end optional)
// or a single value, as Aisle's own filter parser does.
func pgRange(v string) (lo, hi float64, err error) {
	f, err := engine.ParseFilter("price:"+v, func(string) (config.FieldType, bool) { return config.TypeNumber, true })
	return f.Min, f.Max, err
}

// pgSQL writes the statement for a request shape. The match set is
// materialised once in a CTE and both the page (top-N by rank or price)
// and the total, and with facets every facet, are computed from it in the
// same statement: one round trip and one index search per request.
//
// Without facets the statement returns one row: (total, page text[]).
// With facets the match set is the text match alone, each filter becomes
// a boolean column, and the rows are (kind, key, n, lo, hi): kind 0 the
// total and price range, 1 the page in order, 2 brand counts, 3
// hierarchy counts, 4 in-stock counts.
func pgSQL(sh pgShape) string {
	var b strings.Builder
	arg := 0
	next := func() string { arg++; return "$" + strconv.Itoa(arg) }
	var from, where string
	switch sh.text {
	case pgTextWords:
		from, where = "products p, websearch_to_tsquery('english', "+next()+"::text) q", "p.tsv @@ q"
	case pgTextFuzzy:
		from, where = "products p, fuzzy_tsquery("+next()+"::text) q", "p.tsv @@ q"
	default:
		from = "products p"
	}
	// Filter predicates by field, in the parameter order search appends.
	type cond struct{ name, sql string }
	var conds []cond
	if sh.brand {
		conds = append(conds, cond{"fb", "p.brand = ANY(" + next() + "::text[])"})
	}
	if sh.priceRanges > 0 {
		var ors []string
		for range sh.priceRanges {
			lo, hi := next(), next()
			ors = append(ors, "p.price BETWEEN "+lo+"::float8 AND "+hi+"::float8")
		}
		c := strings.Join(ors, " OR ")
		if len(ors) > 1 {
			c = "(" + c + ")"
		}
		conds = append(conds, cond{"fp", c})
	}
	if sh.hier {
		conds = append(conds, cond{"fh", "p.hier && " + next() + "::text[]"})
	}
	if sh.inStock {
		conds = append(conds, cond{"fs", "p.in_stock = ANY(" + next() + "::bool[])"})
	}
	limit, offset := next()+"::int", next()+"::int"
	rank := "NULL::real"
	if sh.text != pgTextAll {
		rank = "ts_rank(p.tsv, q)"
	}
	var order string
	switch sh.sort {
	case 0:
		if sh.text != pgTextAll {
			order = " ORDER BY rank DESC, product_number"
		}
	case 1:
		order = " ORDER BY price, rank DESC NULLS LAST, product_number"
	case 2:
		order = " ORDER BY price DESC, rank DESC NULLS LAST, product_number"
	}
	page := order + " LIMIT " + limit + " OFFSET " + offset

	if !sh.facets {
		w := []string{}
		if where != "" {
			w = append(w, where)
		}
		for _, c := range conds {
			w = append(w, c.sql)
		}
		fmt.Fprintf(&b, "WITH m AS MATERIALIZED (SELECT p.product_number, p.price, %s AS rank FROM %s", rank, from)
		if len(w) > 0 {
			b.WriteString(" WHERE " + strings.Join(w, " AND "))
		}
		b.WriteString(")\nSELECT (SELECT count(*) FROM m), ARRAY(SELECT product_number FROM m" + page + ")")
		return b.String()
	}

	// all(except) is the AND of every filter flag but one field's.
	all := func(except string) string {
		var w []string
		for _, c := range conds {
			if c.name != except {
				w = append(w, c.name)
			}
		}
		if len(w) == 0 {
			return "TRUE"
		}
		return strings.Join(w, " AND ")
	}
	b.WriteString("WITH m AS MATERIALIZED (SELECT p.product_number, p.brand, p.price, p.in_stock, p.hier")
	for _, c := range conds {
		fmt.Fprintf(&b, ", %s AS %s", c.sql, c.name)
	}
	// Rank only the rows that pass every filter.
	if rank != "NULL::real" && len(conds) > 0 {
		var w []string
		for _, c := range conds {
			w = append(w, c.sql)
		}
		rank = "CASE WHEN " + strings.Join(w, " AND ") + " THEN " + rank + " END"
	}
	fmt.Fprintf(&b, ", %s AS rank FROM %s", rank, from)
	if where != "" {
		b.WriteString(" WHERE " + where)
	}
	b.WriteString(")\n")
	fmt.Fprintf(&b, "SELECT 0::int2, NULL::text, count(*) FILTER (WHERE %s), min(price) FILTER (WHERE %s), max(price) FILTER (WHERE %s) FROM m\n", all(""), all("fp"), all("fp"))
	fmt.Fprintf(&b, "UNION ALL (SELECT 1::int2, product_number, NULL, NULL, NULL FROM m WHERE %s%s)\n", all(""), page)
	fmt.Fprintf(&b, "UNION ALL SELECT 2::int2, brand, count(*), NULL, NULL FROM m WHERE brand IS NOT NULL AND %s GROUP BY brand\n", all("fb"))
	fmt.Fprintf(&b, "UNION ALL SELECT 3::int2, h, count(*), NULL, NULL FROM m, unnest(m.hier) h WHERE %s GROUP BY h\n", all("fh"))
	fmt.Fprintf(&b, "UNION ALL SELECT 4::int2, in_stock::text, count(*), NULL, NULL FROM m WHERE %s GROUP BY in_stock", all("fs"))
	return b.String()
}

// SizeBytes is the on-disk size of the products table with its TOAST and
// indexes, plus the typo word list and its trigram index.
func (p *Postgres) SizeBytes() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil {
		return -1
	}
	var n int64
	err := p.conn.QueryRow(context.Background(),
		"SELECT pg_total_relation_size('products') + pg_total_relation_size('words')").Scan(&n)
	if err != nil {
		return -1
	}
	return n
}

// RSSBytes is the server's resident memory when called: VmRSS summed over
// the postmaster and its children. Shared buffers a process has touched
// count in each process that touched them, so this overstates memory
// that is shared; it is what top would add up.
func (p *Postgres) RSSBytes() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.srv == nil || p.srv.cmd == nil || p.srv.cmd.Process == nil {
		return 0
	}
	return bench.TreeRSS(p.srv.cmd.Process.Pid)
}

// Close closes the connection, stops the server (pg_ctl stop -m fast) and
// removes its directory.
func (p *Postgres) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		p.conn.Close(context.Background())
		p.conn = nil
	}
	if p.srv == nil {
		return nil
	}
	err := p.srv.stop()
	p.srv = nil
	return err
}

// PostgresSearcher answers with PostgreSQL over one local TCP connection.
func PostgresSearcher(p *Postgres) bench.Searcher {
	return bench.Searcher{Name: "postgres", Search: func(r *bench.Request, c bench.Class) error {
		_, err := p.Search(r.Req, c == bench.ClassTypo)
		return err
	}}
}

// pgFindBin is the directory holding initdb, postgres and pg_ctl: on
// PATH, else from pg_config, else Debian's /usr/lib/postgresql/N/bin
// (newest N).
func pgFindBin() (string, error) {
	has := func(dir string) bool {
		for _, b := range []string{"initdb", "postgres", "pg_ctl"} {
			if fi, err := os.Stat(filepath.Join(dir, b)); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				return false
			}
		}
		return true
	}
	if path, err := exec.LookPath("initdb"); err == nil && has(filepath.Dir(path)) {
		return filepath.Dir(path), nil
	}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		if dir := strings.TrimSpace(string(out)); has(dir) {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return vb - va
	})
	for _, d := range append(dirs, "/usr/local/pgsql/bin") {
		if has(d) {
			return d, nil
		}
	}
	return "", fmt.Errorf("%w (no initdb, postgres and pg_ctl on PATH, from pg_config or in /usr/lib/postgresql/*/bin)", ErrNoPostgres)
}

// pgStart runs initdb in a fresh directory and starts the server on
// a free local port, as the postgres OS user when we are root (initdb and
// postgres refuse to run as root).
func pgStart(dir string) (*pgServer, error) {
	bin, err := pgFindBin()
	if err != nil {
		return nil, err
	}
	s := &pgServer{bin: bin}
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("postgres: running as root, and there is no postgres OS user to run the server as (apt-get install postgresql creates it): %w", err)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	// The server's directory must be reachable by its OS user, and its
	// socket path short enough for a unix socket; a test's temp dir
	// (mode 0700 under a 0700 parent) is not reachable, so fall back to
	// the system temp dir then.
	if dir != "" && len(dir) < 60 && pgCanTraverse(dir, uid, gid) {
		s.root, err = os.MkdirTemp(dir, "postgres-")
	} else {
		s.root, err = os.MkdirTemp("", "aisle-postgres-")
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(s.root)
		}
	}()
	if err := os.Chmod(s.root, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chown(s.root, uid, gid); err != nil {
		return nil, fmt.Errorf("postgres: chown %s: %w", s.root, err)
	}
	s.data = filepath.Join(s.root, "data")
	s.log = filepath.Join(s.root, "server.log")
	// C collation (bytewise, fastest comparisons for btree and ORDER BY on
	// text) with a UTF-8 ctype so the text-search parser folds case and
	// classifies non-ASCII letters properly.
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", s.data, "-U", "postgres", "--auth=trust",
		"--encoding=UTF8", "--lc-collate=C", "--lc-ctype=C.UTF-8", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	initdb.Env = pgEnv()
	initdb.Dir = s.root
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("postgres: initdb: %w\n%s", err, out)
	}
	for attempt := 0; ; attempt++ {
		err := s.start()
		if err == nil {
			break
		}
		s.kill()
		log, _ := os.ReadFile(s.log)
		if attempt < 4 && bytes.Contains(log, []byte("already in use")) {
			continue // someone took the port between our probe and the bind
		}
		return nil, fmt.Errorf("postgres: start: %w\n%s", err, pgTail(log, 2000))
	}
	ok = true
	return s, nil
}

func (s *pgServer) start() error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	logf, err := os.Create(s.log)
	if err != nil {
		return err
	}
	defer logf.Close()
	args := []string{"-D", s.data,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "port=" + strconv.Itoa(s.port),
		"-c", "unix_socket_directories=" + s.root}
	for _, kv := range pgSettings {
		args = append(args, "-c", kv)
	}
	s.cmd = exec.Command(filepath.Join(s.bin, "postgres"), args...)
	s.cmd.Env = pgEnv()
	s.cmd.Dir = s.root
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	// Its own process group, so a terminal's ^C reaches us and Close
	// stops the server cleanly; SIGINT (fast shutdown) if we die first.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Setpgid: true, Pdeathsig: syscall.SIGINT}
	// Pdeathsig is sent when the thread that started the server exits,
	// not the process, and Go ends a thread when a goroutine locked to it
	// returns (the engine's niced background work does): the server then
	// got SIGINT mid-test now and then. It is started from a goroutine
	// locked to its thread until the server exits, so that thread lives
	// as long as the server does.
	s.exited = make(chan struct{})
	started := make(chan error, 1)
	go func(cmd *exec.Cmd, done chan struct{}) {
		runtime.LockOSThread() // never unlocked: the thread ends with the server
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		cmd.Wait()
		close(done)
	}(s.cmd, s.exited)
	if err := <-started; err != nil {
		return err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case <-s.exited:
			return fmt.Errorf("server exited: %v", s.cmd.ProcessState)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := pgx.Connect(ctx, s.dsn())
		cancel()
		if err == nil {
			c.Close(context.Background())
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("server did not accept connections within 60s: %w", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *pgServer) dsn() string {
	return "host=127.0.0.1 port=" + strconv.Itoa(s.port) + " user=postgres dbname=postgres sslmode=disable"
}

func (s *pgServer) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(s.dsn())
	if err != nil {
		return nil, err
	}
	// Stop-word-only queries raise NOTICEs; don't send them.
	cfg.RuntimeParams["client_min_messages"] = "warning"
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	return c, nil
}

// stop shuts the server down with pg_ctl stop -m fast (SIGINT, then
// SIGKILL if it hangs) and removes its directory.
func (s *pgServer) stop() error {
	var err error
	if s.cmd != nil && s.cmd.Process != nil {
		select {
		case <-s.exited:
		default:
			c := exec.Command(filepath.Join(s.bin, "pg_ctl"), "stop", "-D", s.data, "-m", "fast", "-w", "-t", "30")
			c.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
			c.Env = pgEnv()
			c.Dir = s.root
			if out, e := c.CombinedOutput(); e != nil {
				err = fmt.Errorf("postgres: pg_ctl stop: %w\n%s", e, out)
			}
			s.kill()
		}
	}
	if e := os.RemoveAll(s.root); e != nil && err == nil {
		err = e
	}
	return err
}

// kill makes sure the postmaster has exited and is reaped.
func (s *pgServer) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.exited:
		return
	case <-time.After(10 * time.Second):
	}
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

func pgEnv() []string {
	return []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8", "LC_ALL=C.UTF-8"}
}

// pgCanTraverse reports whether uid/gid can reach dir's contents, adding
// execute permission on dir itself (ours to use) when only that is
// missing.
func pgCanTraverse(dir string, uid, gid int) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	can := func(fi os.FileInfo) bool {
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return false
		}
		m := fi.Mode().Perm()
		switch {
		case uid == 0:
			return true
		case int(st.Uid) == uid:
			return m&0o100 != 0
		case int(st.Gid) == gid:
			return m&0o010 != 0
		}
		return m&0o001 != 0
	}
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil || !can(fi) {
			return false
		}
		if p == "/" {
			break
		}
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() {
		return false
	}
	if can(fi) {
		return true
	}
	return os.Chmod(abs, fi.Mode().Perm()|0o011) == nil
}

func pgTail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
