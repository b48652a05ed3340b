package gql

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/goccy/go-json"
	"github.com/graphql-go/graphql"

	"github.com/aisle-search/aisle/access"
	"github.com/aisle-search/aisle/behaviour"
	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/engine"
	"github.com/aisle-search/aisle/gql/gqltype"
	"github.com/aisle-search/aisle/live"
)

// Bounds of the products fields: a mutation writes a small batch (bulk
// feeds go to the REST admin routes), a connection reads as deep as
// /serve/search does.
const (
	maxUpsertProducts = 100
	maxDeleteProducts = 1000
)

// productDocs describe Product and ProductInput and each of their
// fields, by GraphQL name: package catalog's fields carry no doc
// comments for gqltype to read.
var productDocs = map[string]string{
	"":                      "A product of a website's catalog, as a feed sends it and search answers it.",
	"productNumber":         "The product's number, unique within its website; compared case-folded.",
	"title":                 "The product's name; required.",
	"url":                   "The address of the product's page.",
	"imgUrl":                "The address of the product's image.",
	"currency":              "The currency of its prices, as the shop writes it.",
	"price":                 "The price, a number from 0.",
	"previousPrice":         "The price before a reduction; 0: none.",
	"priceLowered":          "Whether previousPrice is above price; set from the two prices.",
	"priceFormatted":        "The price as the shop shows it; made from price and currency when empty.",
	"description":           "The product's description, searchable.",
	"keywords":              "More words the product is found by.",
	"inStock":               "Whether the product is in stock.",
	"variantProductNumbers": "The numbers of the product's variants, which find it too.",
	"groupingKey":           "Products sharing a grouping key are variants of one another; results may show one of them.",
	"brand":                 "The product's brand.",
	"hierarchies":           "The category paths the product is in, each from its top level down.",
	"isOnSale":              "Whether the product is on sale; true when its price was lowered.",
	"created":               "When the product was created, RFC 3339; newness boosts count from it.",
	"extraData":             "The shop's own text members, by name.",
	"extraDataNumber":       "The shop's own number members, by name.",
	"extraDataList":         "The shop's own list members, by name.",
}

// describeProduct gives Product and ProductInput, built by reg from
// catalog.Product, their descriptions from productDocs; a field missing
// there panics when the schema is built.
func describeProduct(out *graphql.Object, in *graphql.InputObject) {
	doc := func(name string) string {
		d := productDocs[name]
		if d == "" {
			panic("gql: catalog.Product's field " + name + " has no description in productDocs")
		}
		return d
	}
	out.PrivateDescription, in.PrivateDescription = doc(""), doc("")
	for name, f := range out.Fields() {
		f.Description = doc(name)
	}
	for name, f := range in.Fields() {
		f.PrivateDescription = doc(name)
	}
}

// productWriteResult is what upsertProducts and deleteProducts answer.
var productWriteResult = graphql.NewObject(graphql.ObjectConfig{
	Name:        "ProductWriteResult",
	Description: "What a products mutation changed, applied as one entry of the store.",
	Fields: graphql.Fields{
		"seq":      &graphql.Field{Type: graphql.NewNonNull(graphql.Float), Description: "The store position of the change: searches of the website answer with it once served."},
		"added":    &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Description: "How many products were new."},
		"updated":  &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Description: "How many products replaced one with their number."},
		"deleted":  &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Description: "How many products were deleted."},
		"notFound": &graphql.Field{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))), Description: "The numbers a delete named that no product has."},
	},
})

// writeOut is a ProductWriteResult's value.
func writeOut(w live.Written) map[string]any {
	nf := w.NotFound
	if nf == nil {
		nf = []string{}
	}
	return map[string]any{"seq": float64(w.Seq), "added": w.Added, "updated": w.Updated, "deleted": w.Deleted, "notFound": nf}
}

// productFields adds the products queries (product, products) and
// mutations (upsertProducts, deleteProducts): a website's admin keys
// only.
func productFields(reg *gqltype.Registry, q, m graphql.Fields) {
	pObject := reg.Output(reflect.TypeFor[catalog.Product]()).(*graphql.NonNull).OfType.(*graphql.Object)
	describeProduct(pObject, reg.Input(reflect.TypeFor[catalog.Product]()).(*graphql.InputObject))
	uuidArg := &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.ID), Description: "The website."}

	q["product"] = &graphql.Field{
		Type:        pObject,
		Description: "The website's product numbered productNumber, compared as search compares numbers (case-folded); null when there is none.",
		Args: graphql.FieldConfigArgument{"websiteUuid": uuidArg,
			"productNumber": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.String), Description: "The product's number."}},
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			pn, _ := p.Args["productNumber"].(string)
			g, err := adminWebsite(c, uuid)
			if err != nil {
				return nil, err
			}
			d, ok := g.Doc(pn)
			if !ok {
				return nil, nil
			}
			return storedProduct(g, d)
		}),
	}

	conn := connection("Product", pObject, "product", "products", graphql.Fields{
		"totalCount": &graphql.Field{Type: graphql.NewNonNull(graphql.Int), Description: "How many products the query finds in all."},
	})
	args := pageArgs("products")
	args["websiteUuid"] = uuidArg
	args["query"] = &graphql.ArgumentConfig{Type: graphql.String, Description: "The search's text; empty or absent: every product."}
	q["products"] = &graphql.Field{
		Type: graphql.NewNonNull(conn),
		Description: "The website's catalog as the console shows it: what /serve/search answers for query with the live version of the website's first search configuration, in its order. " +
			"A website with no search configuration lists its products in index order, and query must be empty. A page ends at most 100,000 products in.",
		Args: args,
		Resolve: resolver(func(c *call, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			query, _ := p.Args["query"].(string)
			g, err := adminWebsite(c, uuid)
			if err != nil {
				return nil, err
			}
			n, err := first(p)
			if err != nil {
				return nil, err
			}
			start, err := afterOffset(p)
			if err != nil {
				return nil, err
			}
			if start+n > engine.MaxWindow {
				return nil, badInput("after", fmt.Sprintf("a page must end at most %d products in, as a search's does: narrow the query", engine.MaxWindow))
			}
			docs, total, err := c.productPage(g, query, start, n)
			if err != nil {
				return nil, err
			}
			edges := make([]map[string]any, 0, len(docs))
			for i, d := range docs {
				pr, err := storedProduct(g, d)
				if err != nil {
					return nil, err
				}
				edges = append(edges, map[string]any{"node": pr, "cursor": cursorOf(start + i)})
			}
			info := pageInfoOut{HasNextPage: start+len(docs) < total}
			if len(edges) > 0 {
				end := edges[len(edges)-1]["cursor"].(string)
				info.EndCursor = &end
			}
			return map[string]any{"edges": edges, "pageInfo": info, "totalCount": total}, nil
		}),
	}

	m["upsertProducts"] = &graphql.Field{
		Type: graphql.NewNonNull(productWriteResult),
		Description: fmt.Sprintf("Adds products to a website or replaces those with their numbers, at most %d, as one change: all or nothing, checked as the admin API checks a feed. "+
			"Bulk feeds go to POST /admin/v1/websites/{uuid}/products.", maxUpsertProducts),
		Args: graphql.FieldConfigArgument{"websiteUuid": uuidArg,
			"products": &graphql.ArgumentConfig{Type: graphql.NewNonNull(reg.Input(reflect.TypeFor[[]catalog.Product]())), Description: "The products, whole."}},
		Resolve: mutation("upsertProducts", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			if raw, _ := p.Args["products"].([]any); len(raw) > maxUpsertProducts {
				return nil, badInput("products", fmt.Sprintf("at most %d products: send bulk feeds to POST /admin/v1/websites/%s/products", maxUpsertProducts, uuid))
			}
			var ps []catalog.Product
			if err := reg.Decode(p.Args["products"], &ps, "products"); err != nil {
				return nil, err
			}
			if len(ps) == 0 {
				return nil, badInput("products", "list at least one product")
			}
			var rows bytes.Buffer
			for i := range ps {
				if err := ps[i].Check(); err != nil {
					return nil, productError(i, &ps[i], err)
				}
				line, err := json.Marshal(&ps[i])
				if err != nil {
					return nil, err
				}
				rows.Write(append(line, '\n'))
			}
			wr, err := w.PutProducts(uuid, live.Body{Format: catalog.FormatJSONL, Data: &rows})
			if err != nil {
				return nil, err
			}
			return writeOut(wr), nil
		}),
	}
	m["deleteProducts"] = &graphql.Field{
		Type:        graphql.NewNonNull(productWriteResult),
		Description: fmt.Sprintf("Deletes products of a website by number (compared case-folded), at most %d, as one change; the numbers no product has are listed in notFound.", maxDeleteProducts),
		Args: graphql.FieldConfigArgument{"websiteUuid": uuidArg,
			"productNumbers": &graphql.ArgumentConfig{Type: graphql.NewNonNull(graphql.NewList(graphql.NewNonNull(graphql.String))), Description: "The numbers of the products."}},
		Resolve: mutation("deleteProducts", func(c *call, w *live.Writer, p graphql.ResolveParams) (any, error) {
			uuid, _ := p.Args["websiteUuid"].(string)
			if err := c.allow(access.ScopeAdmin, uuid); err != nil {
				return nil, err
			}
			raw, _ := p.Args["productNumbers"].([]any)
			if len(raw) > maxDeleteProducts {
				return nil, badInput("productNumbers", fmt.Sprintf("at most %d product numbers: send more to DELETE /admin/v1/websites/%s/products", maxDeleteProducts, uuid))
			}
			pns := make([]string, 0, len(raw))
			for _, v := range raw {
				s, _ := v.(string)
				pns = append(pns, s)
			}
			wr, err := w.RemoveProducts(uuid, pns)
			if err != nil {
				return nil, err
			}
			return writeOut(wr), nil
		}),
	}
}

// adminWebsite is the served website uuid, after checking the caller
// administers it.
func adminWebsite(c *call, uuid string) (*engine.Generation, error) {
	if err := c.allow(access.ScopeAdmin, uuid); err != nil {
		return nil, err
	}
	g, ok := c.s.opt.Engine.Website(uuid)
	if !ok {
		return nil, notServed(uuid)
	}
	return g, nil
}

// storedProduct is doc d of g's products.
func storedProduct(g *engine.Generation, d uint32) (*catalog.Product, error) {
	var p catalog.Product
	if err := json.Unmarshal(g.Products.Stored(d), &p); err != nil {
		return nil, fmt.Errorf("gql: product doc %d of website %s: %w", d, g.Website.UUID, err)
	}
	return &p, nil
}

// productError is the error of products[i], which the import's rules
// refuse, in the admin API's words.
func productError(i int, p *catalog.Product, err error) *Error {
	field := fmt.Sprintf("products[%d]", i)
	if fe := (*catalog.FieldError)(nil); errors.As(err, &fe) {
		field += "." + fe.Field
	}
	return badInput(field, fmt.Sprintf("product %d (%s): %v; nothing was applied", i+1, p.ProductNumber, err))
}

// productPage is the docs of products start to start+n of g's catalog
// for query (productFields' products) and how many it holds in all.
func (c *call) productPage(g *engine.Generation, query string, start, n int) ([]uint32, int, error) {
	if len(g.Website.Search) == 0 {
		if query != "" {
			return nil, 0, badInput("query", "website "+g.Website.UUID+" has no search configuration to search with")
		}
		all := g.Products.All()
		total := int(all.GetCardinality())
		if start >= total {
			return nil, total, nil
		}
		first, err := all.Select(uint32(start))
		if err != nil {
			return nil, 0, err
		}
		docs := make([]uint32, 0, min(n, total-start))
		it := all.Iterator()
		it.AdvanceIfNeeded(first)
		for len(docs) < n && it.HasNext() {
			docs = append(docs, it.Next())
		}
		return docs, total, nil
	}
	key := g.Website.Search[0].Key
	req := &engine.SearchRequest{Query: &query, Key: &key, Products: &engine.ProductSettings{
		ContentSettings: engine.ContentSettings{PageSettings: engine.PageSettings{Start: &start, Count: &n}}}}
	var m *behaviour.Model
	if c.s.opt.Behaviours != nil {
		m = c.s.opt.Behaviours.Model(g.Website.UUID)
	}
	res, err := g.SearchWith(req, m, c.s.opt.Engine.Now())
	if err != nil {
		return nil, 0, err
	}
	docs := make([]uint32, len(res.Products.Hits))
	for i, h := range res.Products.Hits {
		docs[i] = h.Doc
	}
	return docs, res.Products.Total, nil
}

// afterOffset is where a page starts: after the edge whose cursor is
// the after argument, or 0.
func afterOffset(p graphql.ResolveParams) (int, error) {
	after, ok := p.Args["after"].(string)
	if !ok {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(after)
	n, convErr := strconv.Atoi(string(b))
	if err != nil || convErr != nil || n < 0 || n >= engine.MaxWindow {
		return 0, badInput("after", "not a cursor of this connection: pass an edge's cursor or pageInfo.endCursor")
	}
	return n + 1, nil
}

// cursorOf is the cursor of the edge at offset i: the offset,
// base64url.
func cursorOf(i int) string { return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(i))) }
