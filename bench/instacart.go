package bench

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/events"
)

// HitRates is how often recommendations name a product of an order held
// out from the behaviour they were computed on: a hit is a held-out
// order with at least one of its products among the K recommended.
type HitRates struct {
	K, Folds int
	Products int
	Orders   int // orders with lines, every one replayed in all folds but its own
	// BoughtTogether and its TOP baseline: each user's last order of two
	// or more products, the first product as the context and the others
	// as what should be found.
	TogetherOrders              int
	BoughtTogether, TogetherTop float64
	// TogetherThenTop is BOUGHT_TOGETHER with TOP filling the places it
	// leaves, as a box of the two sources does.
	TogetherThenTop float64
	// RecentlyBought and its TOP baseline: each user's last order, for
	// users with earlier orders (the visitor's purchases).
	RecentOrders              int
	RecentlyBought, RecentTop float64
}

// instacartOrder is one order of the order lines.
type instacartOrder struct {
	id       string
	user     string // "" when orders.csv does not list the order
	number   int    // the user's order sequence number
	products []string
}

// EvalInstacart measures hit rate@k on the Instacart baskets under
// sharedData/instacart: for each user, their last order is held out and
// every other order is replayed as purchase events (users are split in
// folds; a fold's held-out orders are all left out of its replay, so the
// model never saw the order it is asked about), then BOUGHT_TOGETHER and
// RECENTLY_BOUGHT are each compared with TOP, asked the same way
// through engine.Recoms.
func EvalInstacart(sharedData string, k, folds int) (HitRates, error) {
	if k < 1 || folds < 2 {
		return HitRates{}, fmt.Errorf("instacart: k = %d, folds = %d: want k of at least 1 and 2 folds or more", k, folds)
	}
	dir := filepath.Join(sharedData, "instacart")
	products, err := instacartProducts(dir)
	if err != nil {
		return HitRates{}, fmt.Errorf("instacart: %w", err)
	}
	orders, err := instacartOrders(dir)
	if err != nil {
		return HitRates{}, fmt.Errorf("instacart: %w", err)
	}
	cfg := config.Default(WebsiteUUID)
	w := &cfg.Websites[0]
	g, err := Build(w, func(fn func(*catalog.Product) error) error {
		for i := range products {
			if err := fn(&products[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return HitRates{}, fmt.Errorf("instacart: build the catalog: %w", err)
	}
	eng := engine.New("", g)

	// Each user's last order is held out, in the fold of the user.
	last := map[string]int{} // user → index in orders of their last order
	for i, o := range orders {
		if o.user == "" {
			continue
		}
		if j, ok := last[o.user]; !ok || o.number > orders[j].number {
			last[o.user] = i
		}
	}
	users := make([]string, 0, len(last))
	for u := range last {
		users = append(users, u)
	}
	slices.Sort(users)
	foldOf := map[string]int{}
	for i, u := range users {
		foldOf[u] = i % folds
	}

	hr := HitRates{K: k, Folds: folds, Products: g.Products.Len(), Orders: len(orders)}
	var together, togetherTop, togetherFill, recent, recentTop int
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := base.Add(30 * 24 * time.Hour)
	for f := range folds {
		bhv := engine.NewBehaviours()
		m := bhv.Model(WebsiteUUID)
		held := map[int]bool{}
		for _, u := range users {
			if foldOf[u] == f {
				held[last[u]] = true
			}
		}
		for i, o := range orders {
			if held[i] {
				continue
			}
			e := events.Event{Kind: events.Purchase, Website: WebsiteUUID, User: o.user, OrderNumber: o.id, ProductNumbers: o.products,
				Time: base.Add(time.Duration(o.number) * time.Hour).UnixMilli()}
			if o.user != "" {
				e.User = "u" + o.user
			}
			m.Fold(&e)
		}
		ask := func(source, user string, seen []string) ([]string, error) {
			var sources []config.BoxSource
			for _, s := range strings.Split(source, "+") {
				sources = append(sources, config.BoxSource{Type: s})
			}
			req := engine.RecomsRequest{WebsiteUUID: WebsiteUUID, TrackingUserID: user, Requests: []engine.RecomRequest{{
				TrackingKey: "eval", Count: k, Sources: sources, Fields: []string{"productNumber"}}}}
			if seen != nil {
				pns := make([]any, len(seen))
				for i, pn := range seen {
					pns[i] = pn
				}
				req.Requests[0].Context = map[string]any{"productNumbers": pns}
			}
			res, err := eng.Recoms(context.Background(), &req, "", bhv, now)
			if err != nil {
				return nil, err
			}
			r := &res.Responses[0]
			if !r.Success {
				return nil, fmt.Errorf("%s: %s: %s", source, r.Code, r.Message)
			}
			out := make([]string, len(r.Docs))
			for i, d := range r.Docs {
				out[i] = g.Products.Key(d) // product ids: digits, as folded
			}
			return out, nil
		}
		for _, u := range users {
			if foldOf[u] != f {
				continue
			}
			o := &orders[last[u]]
			if len(o.products) >= 2 {
				hr.TogetherOrders++
				for _, c := range []struct {
					source string
					hits   *int
				}{{"BOUGHT_TOGETHER", &together}, {"TOP", &togetherTop}, {"BOUGHT_TOGETHER+TOP", &togetherFill}} {
					got, err := ask(c.source, "", o.products[:1])
					if err != nil {
						return HitRates{}, fmt.Errorf("instacart: order %s: %w", o.id, err)
					}
					if namesAny(got, o.products[1:]) {
						*c.hits++
					}
				}
			}
			if _, ok := m.Visitor("u" + u); ok {
				hr.RecentOrders++
				for _, c := range []struct {
					source string
					hits   *int
				}{{"RECENTLY_BOUGHT", &recent}, {"TOP", &recentTop}} {
					got, err := ask(c.source, "u"+u, nil)
					if err != nil {
						return HitRates{}, fmt.Errorf("instacart: order %s: %w", o.id, err)
					}
					if namesAny(got, o.products) {
						*c.hits++
					}
				}
			}
		}
	}
	rate := func(n, of int) float64 {
		if of == 0 {
			return 0
		}
		return float64(n) / float64(of)
	}
	hr.BoughtTogether, hr.TogetherTop = rate(together, hr.TogetherOrders), rate(togetherTop, hr.TogetherOrders)
	hr.TogetherThenTop = rate(togetherFill, hr.TogetherOrders)
	hr.RecentlyBought, hr.RecentTop = rate(recent, hr.RecentOrders), rate(recentTop, hr.RecentOrders)
	return hr, nil
}

// namesAny reports that got names one of want.
func namesAny(got, want []string) bool {
	for _, g := range got {
		if slices.Contains(want, g) {
			return true
		}
	}
	return false
}

// instacartProducts reads products.csv with its aisles and departments
// as each product's category path (department, then aisle), every
// product in stock.
func instacartProducts(dir string) ([]catalog.Product, error) {
	names := func(file, idCol, nameCol string) (map[string]string, error) {
		out := map[string]string{}
		err := readCSV(filepath.Join(dir, file), []string{idCol, nameCol}, func(r []string) error {
			out[r[0]] = r[1]
			return nil
		})
		return out, err
	}
	aisles, err := names("aisles.csv", "aisle_id", "aisle")
	if err != nil {
		return nil, err
	}
	depts, err := names("departments.csv", "department_id", "department")
	if err != nil {
		return nil, err
	}
	var out []catalog.Product
	err = readCSV(filepath.Join(dir, "products.csv"), []string{"product_id", "product_name", "aisle_id", "department_id"}, func(r []string) error {
		p := catalog.Product{ProductNumber: r[0], Title: r[1], InStock: true, Hierarchies: [][]string{{depts[r[3]], aisles[r[2]]}}}
		p.Normalize()
		out = append(out, p)
		return nil
	})
	return out, err
}

// instacartOrders reads the order lines, in cart order, with each
// order's user and sequence number from orders.csv; orders in order id
// order.
func instacartOrders(dir string) ([]instacartOrder, error) {
	type meta struct {
		user   string
		number int
	}
	metas := map[string]meta{}
	err := readCSV(filepath.Join(dir, "orders.csv"), []string{"order_id", "user_id", "order_number"}, func(r []string) error {
		n, err := strconv.Atoi(r[2])
		if err != nil {
			return fmt.Errorf("order_number %q: %w", r[2], err)
		}
		metas[r[0]] = meta{r[1], n}
		return nil
	})
	if err != nil {
		return nil, err
	}
	type line struct {
		pos int
		pn  string
	}
	lines := map[string][]line{}
	err = readCSV(filepath.Join(dir, "order_products__prior.csv"), []string{"order_id", "product_id", "add_to_cart_order"}, func(r []string) error {
		pos, err := strconv.Atoi(r[2])
		if err != nil {
			return fmt.Errorf("add_to_cart_order %q: %w", r[2], err)
		}
		lines[r[0]] = append(lines[r[0]], line{pos, r[1]})
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]instacartOrder, 0, len(lines))
	for id, ls := range lines {
		slices.SortFunc(ls, func(a, b line) int { return cmp.Compare(a.pos, b.pos) })
		o := instacartOrder{id: id, user: metas[id].user, number: metas[id].number}
		for _, l := range ls {
			o.products = append(o.products, l.pn)
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b instacartOrder) int { return cmp.Compare(a.id, b.id) })
	return out, nil
}
